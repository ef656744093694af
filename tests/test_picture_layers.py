"""The table picture put together from cached layers (bot.render.layers) is the picture drawn afresh:
every layer stays inside its box, boxes never overlap, and the PNG of ``table_png`` (layers from the
cache, whatever was drawn before) decodes to exactly the pixels of ``render_table`` (every layer
drawn now) in the palette."""

from __future__ import annotations

import gc
import io
import itertools
import struct
import weakref
import zlib
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops

from bot.engine.cards.card import FULL_DECK, Card, Rank, Suit
from bot.render import layers as L
from bot.render import pictures as P
from bot.render.layers import TILES, png, to_palette
from bot.render.pictures import (
    HandPicture,
    SeatPicture,
    ShowdownPicture,
    ShownHand,
    TablePicture,
    WildRank,
)

NAMES = ("Ann", "Eve the Magnificent and Terrible", "Þórunn Gjpqy", "王小明", "Zoë 🃏", "W" * 32, "j")
NOTES = ("", "all-in", "sitting out", "not dealt in", "leaving", "away")


@st.composite
def tables(draw: st.DrawFn) -> TablePicture:
    deck = list(draw(st.permutations(FULL_DECK)))
    n = draw(st.integers(1, 8))
    to_act = draw(st.integers(-1, n - 1))
    seats = []
    for i in range(n):
        n_up = draw(st.integers(0, 4))
        seats.append(SeatPicture(
            name=draw(st.sampled_from(NAMES)), stack=draw(st.integers(0, 10**9)),
            up=tuple(deck.pop() for _ in range(n_up)), down=draw(st.integers(0, 3)),
            folded=draw(st.booleans()), to_act=i == to_act, dealer=draw(st.booleans()),
            bet=draw(st.sampled_from((0, 20, 99_999_999))), note=draw(st.sampled_from(NOTES)),
            blind=draw(st.sampled_from(("", "SB", "BB", "straddle"))),
        ))
    ranks = draw(st.lists(st.sampled_from([r for r in Rank if r is not Rank.FIVE]), max_size=5, unique=True))
    fixed = draw(st.sampled_from(((), (WildRank(Rank.FIVE),), (WildRank(Rank.THREE), WildRank(Rank.NINE)))))
    wilds = fixed + tuple(WildRank(r, Card(Rank.FIVE, Suit.HEARTS), Card(r, Suit.SPADES)) for r in ranks)
    community = deck.pop() if draw(st.booleans()) else None
    title = draw(st.sampled_from(("Hand #3 · third street", "Hand #999 · seventh street · pot limit " * 3)))
    # A flop game's board (issue 21): none yet, the flop, turn or river, or both runs of a hand run twice.
    runs = draw(st.sampled_from((None, 0, 3, 4, 5, "twice")))
    boards: tuple[tuple[Card, ...], ...] = ()
    if runs == "twice":
        first = tuple(deck.pop() for _ in range(5))
        boards = (first, first[:3] + tuple(deck.pop() for _ in range(2)))
    elif runs:
        boards = (tuple(deck.pop() for _ in range(runs)),)
    return TablePicture(title, tuple(seats), draw(st.integers(0, 10**9)), wilds, community,
                        four_colour=draw(st.booleans()), boards=boards, board_size=0 if runs is None else 5)


def painted(pic: TablePicture) -> bytes:
    return to_palette(P.render_table(pic), P._palette()).tobytes()


def decoded(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


_SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_SETTINGS
@given(tables(), tables())
def test_the_png_of_cached_layers_is_the_picture_drawn_afresh(
    pic: TablePicture, before: TablePicture
) -> None:
    P.table_png(before)            # whatever was drawn before fills the cache
    first = P.table_png(pic)
    assert decoded(first).tobytes() == painted(pic)
    assert P.table_png(pic) == first                 # all from the cache now: the same bytes
    L.clear()
    assert P.table_png(pic) == first                 # and from an empty cache


def _changed(seat: SeatPicture, field: str, spare: Card) -> SeatPicture:
    """``seat`` with ``field`` alone changed (a card more or less, a flag flipped, the next name...)."""
    if field == "up":
        return replace(seat, up=seat.up[:-1] if len(seat.up) == 4 else (*seat.up, spare))
    if field == "down":
        return replace(seat, down=(seat.down + 1) % 4)
    if field in ("folded", "to_act", "dealer"):
        flags = {"folded": seat.folded, "to_act": seat.to_act, "dealer": seat.dealer}
        flags[field] = not flags[field]
        return replace(seat, folded=flags["folded"], to_act=flags["to_act"], dealer=flags["dealer"])
    if field in ("stack", "bet"):
        return replace(seat, stack=seat.stack + 20) if field == "stack" else replace(seat, bet=seat.bet + 20)
    texts = {"name": seat.name, "note": seat.note, "blind": seat.blind}
    values = {"name": NAMES, "note": NOTES, "blind": ("", "SB", "BB", "straddle")}[field]
    texts[field] = values[(values.index(texts[field]) + 1) % len(values)]
    return replace(seat, name=texts["name"], note=texts["note"], blind=texts["blind"])


SEAT_FIELDS = ("name", "stack", "up", "down", "folded", "to_act", "dealer", "bet", "note", "blind")


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(), st.integers(0, 7))
def test_a_seat_changed_in_any_one_field_is_drawn_again(pic: TablePicture, which: int) -> None:
    """Each seat is kept in parts, each by what it shows: whichever one field of a seat changes
    (or the wild ranks, or the deck's colours), the picture from the kept parts is the changed
    table drawn afresh."""
    used = {c for s in pic.seats for c in s.up} | {c for b in pic.boards for c in b} | {pic.community}
    free = [c for c in FULL_DECK if c not in used]
    spare = next((c for c in free if c.rank in P.wild_ranks_of(pic.wilds)), free[0])   # wild if one is
    i = which % len(pic.seats)
    for field in (*SEAT_FIELDS, "wilds", "four_colour"):
        P.table_png(pic)                           # every part of it kept
        if field == "four_colour":
            changed = replace(pic, four_colour=not pic.four_colour)
        elif field == "wilds":                     # a seat's up card made wild, or no wild cards
            ups = [c.rank for c in pic.seats[i].up if c.rank not in P.wild_ranks_of(pic.wilds)]
            more = tuple(WildRank(r, Card(Rank.FIVE, Suit.HEARTS), Card(r, Suit.SPADES)) for r in ups[:1])
            changed = replace(pic, wilds=pic.wilds + more if more else ())
        else:
            seats = list(pic.seats)
            seats[i] = _changed(seats[i], field, spare)
            changed = replace(pic, seats=tuple(seats))
        assert decoded(P.table_png(changed)).tobytes() == painted(changed), field


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(tables(), min_size=3, max_size=3), st.lists(st.tuples(
    st.integers(0, 2), st.integers(0, 7), st.sampled_from((*SEAT_FIELDS, "table", "another"))), max_size=12),
    st.sampled_from(((1, 2, 3), (1, 1, 2), (7, 7, 7))), st.sampled_from((0, L.OPEN_AT)))
def test_each_tables_next_picture_from_its_last_is_the_table_drawn_afresh(
    states: list[TablePicture],
    clicks: list[tuple[int, int, str]], ids: tuple[int, int, int], open_at: int,
) -> None:
    """Three tables clicked in any order, each click changing one field of a seat, or the table
    (its title, pot, wild ranks), or putting another table (other seats, maybe another number of
    them) in its place; tables may share an id (a picture is then put together from another
    table's). Whether a table's last picture is opened (``open_at`` 0: always) or its layers are
    pasted on the felt, every picture is the table drawn afresh."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(L, "OPEN_AT", open_at)
        _click_through(states, clicks, ids)


def _click_through(
    states: list[TablePicture], clicks: list[tuple[int, int, str]], ids: tuple[int, int, int]
) -> None:
    L.clear()
    tables_now = [replace(pic, table=ids[i]) for i, pic in enumerate(states)]
    for pic in tables_now:
        assert decoded(P.table_png(pic)).tobytes() == painted(pic)
    for n, (t, which, field) in enumerate(clicks):
        pic = tables_now[t]
        if field == "another":
            pic = replace(states[(t + 1 + n) % 3], table=ids[t])
        elif field == "table":
            pic = replace(pic, title=f"Hand #{n}", pot=pic.pot + 20, wilds=pic.wilds[1:])
        else:
            i = which % len(pic.seats)
            spare = next(c for c in FULL_DECK if c not in {c for s in pic.seats for c in s.up} |
                         {c for b in pic.boards for c in b} | {pic.community})
            seats = list(pic.seats)
            seats[i] = _changed(seats[i], field, spare)
            pic = replace(pic, seats=tuple(seats))
        tables_now[t] = pic
        assert decoded(P.table_png(pic)).tobytes() == painted(pic), (n, field)
    assert len(L.FRAMES) == len(set(ids))


def test_layers_past_the_budget_are_drawn_again_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the budget the least recently used layers go: a picture drawing them again is the same,
    whether put together on the felt or on the table's last picture."""
    L.clear()
    monkeypatch.setattr(TILES, "budget", 100_000)      # about six seats' parts: the rest go
    seats = tuple(SeatPicture(n, 100 * i, (FULL_DECK[i], FULL_DECK[i + 9]), 2, to_act=i == 1)
                  for i, n in enumerate(NAMES))
    pic = TablePicture("Hand #5 · fourth street", seats, 700, (WildRank(Rank.FIVE),))
    first = P.table_png(pic)
    assert TILES.used <= 100_000 and not all(TILES.kept(k) for k in _keys(pic))
    hand = HandPicture("Hand #5 · fourth street · Ann", FULL_DECK[:4], FULL_DECK[2:4])
    hand_first = P.hand_png(hand)
    for where in (None, 4, 4):
        moved = replace(pic, table=where, seats=(replace(seats[0], stack=5), *seats[1:]))
        assert decoded(P.table_png(moved)).tobytes() == painted(moved)
        assert P.table_png(pic) == first and P.hand_png(hand) == hand_first
    L.clear()


def _keys(pic: TablePicture) -> list[object]:
    return [(layer.name, layer.box, ("felt", P.TABLE_SIZE), layer.key) for layer in P.table_parts(pic)]


@_SETTINGS
@given(tables())
def test_every_layer_stays_in_its_box_and_boxes_never_overlap(pic: TablePicture) -> None:
    layers = P.table_layers(pic)
    width, height = P.TABLE_SIZE
    for a, b in itertools.combinations(layers, 2):
        assert a.box[2] <= b.box[0] or b.box[2] <= a.box[0] or a.box[3] <= b.box[1] or b.box[3] <= a.box[1], \
            (a.name, a.box, b.name, b.box)
    blank = Image.new("RGB", P.TABLE_SIZE, (1, 2, 3))
    for layer in layers:
        left, top, right, bottom = layer.box
        assert 0 <= left < right <= width and 0 <= top < bottom <= height
        canvas = blank.copy()
        layer.draw(canvas, 0, 0)
        drawn = ImageChops.difference(blank, canvas).getbbox()
        if drawn is not None:
            assert left <= drawn[0] and top <= drawn[1] and drawn[2] <= right and drawn[3] <= bottom, \
                (layer.name, layer.box, drawn)


def test_the_community_card_and_a_follow_leave_the_bottom_seats_alone() -> None:
    """Eight players, the deck run out (a community card) and a rank wild by a follow: the wild list
    used to draw a row of cards over the name of the bottom-centre seat."""
    seats = tuple(SeatPicture(f"P{i}", 100, (), 3) for i in range(8))
    pic = TablePicture("Hand #1 · seventh street", seats, 10,
                       (WildRank(Rank.FIVE), WildRank(Rank.JACK, Card.parse("5c"), Card.parse("Js"))),
                       Card.parse("Kd"))
    alone = P.render_table(replace(pic, wilds=(), community=None))
    box = P.seat_layer_box("BC")
    assert P.render_table(pic).crop(box).tobytes() == alone.crop(box).tobytes()


def test_png_writes_a_palette_image_that_decodes_to_itself() -> None:
    img = to_palette(P.render_table(TablePicture("t", (SeatPicture("Ann", 5),), 0)), P._palette())
    back = decoded(png(img))
    assert back.mode == "P" and back.size == img.size
    assert back.tobytes() == img.tobytes()
    assert back.convert("RGB").tobytes() == img.convert("RGB").tobytes()


def _idat(data: bytes) -> bytes:
    """The IDAT data of a PNG (its zlib stream), read chunk by chunk."""
    at, idat = 8, b""
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length : at + 12 + length])
        assert crc == zlib.crc32(kind + body), kind
        if kind == b"IDAT":
            idat += body
        at += 12 + length
    return idat


@_SETTINGS
@given(tables())
def test_the_png_is_one_zlib_stream_of_its_rows_whichever_way_it_was_written(pic: TablePicture) -> None:
    """Deflated band by band, the PNG's IDAT is still one zlib stream (its Adler-32 and each
    chunk's CRC checked by zlib itself) of the picture's rows, each led by its filter type 0: the
    rows ``png`` writes as one stream for the picture in the palette."""
    data = P.table_png(pic)
    img = P.table_image(pic)
    rows = zlib.decompress(_idat(data))
    width = img.width
    assert rows == b"".join(b"\0" + img.tobytes()[y * width : (y + 1) * width] for y in range(img.height))
    assert zlib.decompress(_idat(png(img))) == rows


@given(st.binary(max_size=300), st.binary(max_size=70_000))
def test_adler32_combine_is_the_adler32_of_both(first: bytes, second: bytes) -> None:
    combined = L.adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second))
    assert combined == zlib.adler32(first + second)


def test_a_click_deflates_again_only_the_bands_its_changes_reach(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bands of a table's picture that no changed layer reaches are the last picture's bytes:
    a click that moves the turn from one top seat to the next deflates the rows of the top seats
    and the pot (the bands they reach), not the whole picture, and the picture is the table drawn
    afresh."""
    L.clear()
    seats = tuple(SeatPicture(f"P{i}", 1_000, (FULL_DECK[i],), 2, to_act=i == 0) for i in range(8))
    pic = TablePicture("Hand #2 · fourth street", seats, 80, (WildRank(Rank.FIVE),), table=41)
    P.table_png(pic)
    deflated: list[int] = []
    real = L._deflated

    def counted(rows: bytes | memoryview) -> L.Band:
        deflated.append(len(rows))
        return real(rows)

    monkeypatch.setattr(L, "_deflated", counted)
    moved = replace(pic, pot=100, seats=(replace(seats[0], to_act=False, stack=980, bet=20),
                                         replace(seats[1], to_act=True), *seats[2:]))
    data = P.table_png(moved)
    assert decoded(data).tobytes() == painted(moved)
    reached = [layer.box for layer in P.table_parts(moved) if layer.name != "title"
               and (layer.box[1] < P.seat_layer_box("TC")[3] or layer.name == "pot")]
    bottom = max(box[3] for box in reached)
    rows = -(-bottom // L.BAND_ROWS) * L.BAND_ROWS - L.BAND_ROWS       # every band but the title's
    assert 0 < sum(deflated) <= rows * (P.TABLE_SIZE[0] + 1) < P.TABLE_SIZE[1] * (P.TABLE_SIZE[0] + 1)
    L.clear()


def test_png_keeps_nothing_of_the_pictures_it_writes() -> None:
    """png read the colours of each picture it wrote through a cache of palettes by id, which kept
    every picture alive (every DM and showdown of a running bot)."""
    img = to_palette(P.render_table(TablePicture("t", (SeatPicture("Ann", 5),), 0)), P._palette())
    gone = weakref.ref(img)
    png(img)
    del img
    gc.collect()
    assert gone() is None


# -- the hand and showdown pictures, on a plain colour --------------------------------------------


@st.composite
def wild_sets(draw: st.DrawFn) -> tuple[WildRank, ...]:
    ranks = draw(st.lists(st.sampled_from([r for r in Rank if r is not Rank.FIVE]), max_size=3, unique=True))
    fixed = draw(st.sampled_from(((), (WildRank(Rank.FIVE),))))
    return fixed + tuple(WildRank(r, Card(Rank.FIVE, Suit.CLUBS), Card(r, Suit.DIAMONDS)) for r in ranks)


@st.composite
def hands(draw: st.DrawFn) -> HandPicture:
    deck = list(draw(st.permutations(FULL_DECK)))
    cards = tuple(deck.pop() for _ in range(draw(st.integers(0, 9))))
    up = tuple(c for c in cards if draw(st.booleans()))
    community = deck.pop() if draw(st.booleans()) else None
    return HandPicture(draw(st.sampled_from(("Hand #3 · third street · Ann", "Hand #41 · Þórunn 王 🃏"))),
                       cards, up, draw(wild_sets()), community,
                       draw(st.sampled_from(("any-card", "highest-missing"))),
                       draw(st.sampled_from(("high", "low", "high-low"))), four_colour=draw(st.booleans()))


@st.composite
def showdowns(draw: st.DrawFn) -> ShowdownPicture:
    deck = list(draw(st.permutations(FULL_DECK)))
    n = draw(st.integers(1, 6))
    size = draw(st.integers(5, 7))
    shown = tuple(ShownHand(draw(st.sampled_from(NAMES)), tuple(deck.pop() for _ in range(size)),
                            draw(st.sampled_from((0, 0, 120, 10**9)))) for _ in range(n))
    community = deck.pop() if draw(st.booleans()) else None
    return ShowdownPicture("Hand #3 · showdown", shown, draw(wild_sets()), community,
                           ranking=draw(st.sampled_from(("high", "low", "high-low"))),
                           four_colour=draw(st.booleans()))


def _palette_bytes(img: Image.Image) -> bytes:
    return to_palette(img, P._palette()).tobytes()


@_SETTINGS
@given(hands(), hands())
def test_the_hand_picture_from_kept_cards_is_the_picture_drawn_afresh(
    pic: HandPicture, before: HandPicture
) -> None:
    P.hand_png(before)
    assert decoded(P.hand_png(pic)).tobytes() == _palette_bytes(P.render_hand(pic))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(showdowns(), showdowns())
def test_the_showdown_from_kept_layers_is_the_picture_drawn_afresh(
    pic: ShowdownPicture, before: ShowdownPicture
) -> None:
    P.showdown_png(before)
    assert decoded(P.showdown_png(pic)).tobytes() == _palette_bytes(P.render_showdown(pic))


@_SETTINGS
@given(st.one_of(hands(), showdowns()))
def test_layers_on_a_plain_colour_keep_to_their_boxes_and_never_draw_over_each_other(
    pic: HandPicture | ShowdownPicture,
) -> None:
    size, layers, keep = P._hand_layers(pic) if isinstance(pic, HandPicture) else P._showdown_layers(pic)
    if not keep:
        return          # drawn as a whole
    blank = Image.new("RGB", size, (1, 2, 3))
    owner: dict[int, str] = {}
    for layer in layers:
        canvas = blank.copy()
        layer.draw(canvas, 0, 0)
        diff = ImageChops.difference(blank, canvas).convert("L").point(lambda v: 255 if v else 0)
        drawn = diff.getbbox()
        if drawn is None:
            continue
        left, top, right, bottom = layer.box
        assert left <= drawn[0] and top <= drawn[1] and drawn[2] <= right and drawn[3] <= bottom, \
            (layer.name, layer.box, drawn)
        # Drawn the same wherever its box lies (a layer is kept by its key and size alone).
        w, h = right - left, bottom - top
        alone = Image.new("RGB", (w, h), (1, 2, 3))
        layer.draw(alone, left, top)
        assert alone.tobytes() == canvas.crop(layer.box).tobytes(), layer.name
        data = diff.tobytes()
        for i in (i for i, v in enumerate(data) if v):
            assert owner.setdefault(i, layer.name + repr(layer.box)) == layer.name + repr(layer.box), \
                (layer.name, owner[i], divmod(i, size[0]))
