"""Card pictures (bot.render.pictures): they decode, have the expected size, show what the snapshot
says (checked on pixels against the snapshot, not against the renderer's own output), and their alt
text carries the same facts."""

from __future__ import annotations

import io
import itertools
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

from bot.engine.cards.card import Card, Rank, Suit, parse_cards
from bot.render import pictures as P
from bot.render import sprites as S
from bot.render.gallery import render as render_gallery
from bot.render.pictures import (
    HandPicture,
    SeatPicture,
    ShowdownPicture,
    ShownHand,
    TablePicture,
    WildRank,
)

TWOS = WildRank(Rank.TWO, Card.parse("5h"), Card.parse("2d"))
JACKS = WildRank(Rank.JACK, Card.parse("5c"), Card.parse("Js"))
FIVES = WildRank(Rank.FIVE)          # the game's own wild rank (Sex in the Middle East)


def cs(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def eight_seats() -> TablePicture:
    names = ["Ann", "Bea", "Cid", "Dot", "Eve", "Fay", "Gus", "Hal"]
    ups = ["Qc 9d Jd 5c", "5h Kd 7h Js", "2d 8c", "9s Ts Ah 3d", "Kc Kh 4s 6c", "3c 4h", "Ac Tc 8s 2h", ""]
    seats = tuple(
        SeatPicture(n, 1_000 + 111 * i, cs(u), 2 if u else 0, dealer=i == 0, to_act=i == 3, bet=40 * (i % 2))
        for i, (n, u) in enumerate(zip(names, ups, strict=True))
    )
    return TablePicture("Hand #41 · sixth street", seats, 1_265, (FIVES, TWOS, JACKS))


def decode(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    assert img.format == "PNG"
    return img


def count(img: Image.Image, colour: tuple[int, int, int], box: tuple[int, int, int, int] | None = None,
          tol: int = 12) -> int:
    """Pixels within ``tol`` of ``colour`` (each channel) in ``box``."""
    region = (img.crop(box) if box else img).convert("RGB")
    r0, g0, b0 = colour
    raw = region.tobytes()
    return sum(1 for i in range(0, len(raw), 3)
               if abs(raw[i] - r0) <= tol and abs(raw[i + 1] - g0) <= tol and abs(raw[i + 2] - b0) <= tol)


def brightness(img: Image.Image, box: tuple[int, int, int, int]) -> float:
    data = img.crop(box).convert("L").tobytes()
    return sum(data) / len(data)


# -- sizes and decoding --------------------------------------------------------------------------


def test_table_picture_decodes_at_its_size() -> None:
    img = decode(P.table_png(eight_seats()))
    assert img.size == P.TABLE_SIZE == (960, 600)


@pytest.mark.parametrize("n", range(1, 9))
def test_every_seat_count_draws_inside_the_picture_without_overlap(n: int) -> None:
    boxes = P.seat_boxes(n)
    assert len(boxes) == n
    w, h = P.TABLE_SIZE
    for i, (left, top, right, bottom) in enumerate(boxes):
        assert 0 <= left < right <= w and 44 <= top < bottom <= h  # below the title line
        for other in boxes[i + 1:]:
            assert right <= other[0] or other[2] <= left or bottom <= other[1] or other[3] <= top
    seats = eight_seats().seats[:n]
    assert decode(P.table_png(replace(eight_seats(), seats=seats))).size == P.TABLE_SIZE


def test_hand_and_showdown_pictures_decode_and_grow_one_row_per_hand() -> None:
    hand = HandPicture("Hand #2 · fifth street", cs("Jh 2c Kc Kh 4s"), cs("Kc Kh 4s"), (FIVES, TWOS, JACKS))
    assert decode(P.hand_png(hand)).width == P.PICTURE_WIDTH
    hands = (ShownHand("Eve", cs("Jh 2c Kc Kh 4s 6c Ks"), 90), ShownHand("Ann", cs("Ad Ah Qc 9d Jd 3c 9h")),
             ShownHand("Gus", cs("7d 7s Ac Tc 8s 2h 3s")))
    heights = [decode(P.showdown_png(ShowdownPicture("Showdown", hands[:k], (FIVES, TWOS, JACKS)))).height
               for k in (1, 2, 3)]
    assert heights[0] > 0 and heights[2] - heights[1] == heights[1] - heights[0] > 150
    for k in (1, 3):
        assert decode(P.showdown_png(ShowdownPicture("S", hands[:k]))).width == P.PICTURE_WIDTH


def test_readable_at_discord_preview_width() -> None:
    """Every font the table picture's text uses is at least 11 px once a phone scales it to 380 px
    wide (issue 17: stacks and wild labels were 8.7 px), and a card's rank reads at least 9 px tall
    at Discord's 550 px preview (measured on the drawn ink)."""
    sizes: list[int] = []
    real_font = S._text_font

    def spy(size: int, index: int = 0, bold: bool = False):  # type: ignore[no-untyped-def]
        sizes.append(size)
        return real_font(size, index, bold)

    for cached in (S._text_mask, S._run_width, S._text_width):
        cached.cache_clear()
    mp = pytest.MonkeyPatch()
    mp.setattr(S, "_text_font", spy)
    try:
        P.render_table(eight_seats())
    finally:
        mp.undo()
        for cached in (S._text_mask, S._run_width, S._text_width):
            cached.cache_clear()
    assert sizes and min(sizes) * P.PHONE_WIDTH / P.TABLE_SIZE[0] >= 11
    scale = P.DISCORD_PREVIEW_WIDTH / P.TABLE_SIZE[0]
    sprite = P.card_sprite(Card(Rank.KING, Suit.SPADES), 62)
    on_white = Image.new("RGB", sprite.size, (255, 255, 255))
    on_white.paste(sprite, (0, 0), sprite)
    index = on_white.crop((0, 0, sprite.width // 2, int(sprite.height * 0.42)))
    dark_rows = [y for y in range(index.height)
                 if any(sum(index.getpixel((x, y))) < 150 for x in range(index.width))]  # type: ignore[arg-type]
    rank_rows = [y for y in dark_rows if y < dark_rows[0] + 40]
    # The rank glyph is the first run of dark rows (the suit below it is separate).
    run_end = next((a for a, b in itertools.pairwise(rank_rows) if b - a > 1), rank_rows[-1])
    assert (run_end - dark_rows[0] + 1) * scale >= 9


# -- what the table shows -------------------------------------------------------------------------


def test_wild_cards_get_a_gold_face_and_others_do_not() -> None:
    gold = S._GOLD_FACE
    assert count(P.card_sprite(Card.parse("Kd"), 62, True), gold) > 500
    assert count(P.card_sprite(Card.parse("Kd"), 62, False), gold) == 0
    # In the table: Gus's up cards include 2♥ (twos are wild), Dot's include no wild card.
    pic = eight_seats()
    img = P.render_table(pic)
    boxes = P.seat_boxes(8)
    assert count(img, gold, boxes[6]) > 300
    assert count(img, gold, boxes[3]) == 0
    # Without the twos, Gus's 2♥ is a plain card.
    plain = P.render_table(replace(pic, wilds=(FIVES, JACKS)))
    assert count(plain, gold, boxes[6]) == 0


def test_the_player_to_act_is_highlighted_and_only_that_seat() -> None:
    pic = eight_seats()
    img = P.render_table(pic)
    boxes = P.seat_boxes(8)
    lit = [count(img, S._PLATE_ACT, box) for box in boxes]
    assert lit[3] > 1_000 and all(v == 0 for i, v in enumerate(lit) if i != 3)
    nobody = replace(pic, seats=tuple(replace(s, to_act=False) for s in pic.seats))
    assert count(P.render_table(nobody), S._PLATE_ACT) == 0


def test_folded_seats_are_dimmed() -> None:
    pic = eight_seats()
    folded = replace(pic, seats=tuple(replace(s, folded=i == 1) for i, s in enumerate(pic.seats)))
    box = P.seat_boxes(8)[1]
    assert brightness(P.render_table(folded), box) < 0.75 * brightness(P.render_table(pic), box)
    other = P.seat_boxes(8)[4]
    assert brightness(P.render_table(folded), other) == brightness(P.render_table(pic), other)


def test_down_cards_are_backs_one_per_card() -> None:
    pic = eight_seats()
    box = P.seat_boxes(8)[0]

    def backs(n: int) -> int:
        seats = tuple(replace(s, down=n) if i == 0 else s for i, s in enumerate(pic.seats))
        return count(P.render_table(replace(pic, seats=seats)), S._BACK, box, tol=4)

    none, two, three = backs(0), backs(2), backs(3)
    assert none == 0 and 0 < two < three


def test_dealer_button_only_on_the_dealer() -> None:
    pic = eight_seats()
    no_dealer = replace(pic, seats=tuple(replace(s, dealer=False) for s in pic.seats))
    box = P.seat_boxes(8)[0]
    plate = (box[0], box[1], box[0] + 60, box[1] + 38)
    assert count(P.render_table(pic), S._FACE, plate) > 200
    assert count(P.render_table(no_dealer), S._FACE, plate) == 0


def test_suits_and_arrows_in_text_are_drawn_as_shapes() -> None:
    """Pillow's font has no suit glyphs: a ♥ in text must come out in the heart colour, not as a box."""
    img = Image.new("RGB", (200, 40), S._BG)
    S._text(img, (4, 4), "5♥→2♦", 26)
    assert count(img, S._SUIT_ON_DARK[Suit.HEARTS], tol=30) > 40
    assert count(img, S._SUIT_ON_DARK[Suit.DIAMONDS], tol=30) > 40
    blank = Image.new("RGB", (200, 40), S._BG)
    S._text(blank, (4, 4), "5 2", 26)
    assert count(blank, S._SUIT_ON_DARK[Suit.HEARTS], tol=30) == 0


# -- alt text ------------------------------------------------------------------------------------


def test_table_alt_text_carries_the_facts() -> None:
    pic = eight_seats()
    folded = replace(pic, seats=tuple(replace(s, folded=i == 2) for i, s in enumerate(pic.seats)),
                     community=Card.parse("9c"))
    alt = P.table_alt(folded)
    assert len(alt) <= P.ALT_TEXT_LIMIT
    assert "Hand #41 · sixth street" in alt and "Pot 1,265" in alt and "Community card 9♣" in alt
    assert "twos (5♥ then 2♦)" in alt and "jacks (5♣ then J♠)" in alt and "fives" in alt
    for seat in folded.seats:
        part = alt.split(seat.name, 1)[1].split(". ", 1)[0]
        assert f"{seat.stack:,} chips" in part
        assert ("dealer" in part) == seat.dealer
        assert ("to act" in part) == seat.to_act
        assert ("folded" in part) == seat.folded
        assert (f"{seat.down} down" in part) == bool(seat.down)
        for c in seat.up:
            wild = c.rank in (Rank.FIVE, Rank.TWO, Rank.JACK)
            assert (f"{c} (wild)" in part) == wild
            assert str(c) in part


def test_alt_text_is_cut_to_discords_limit() -> None:
    pic = eight_seats()
    long = replace(pic, seats=tuple(replace(s, name=s.name * 30) for s in pic.seats))
    alt = P.table_alt(long)
    assert len(alt) == P.ALT_TEXT_LIMIT and alt.endswith("…")


def test_hand_alt_marks_down_cards_and_the_best_five_with_what_wilds_stand_for() -> None:
    # J♥ and 2♣ are wild (jacks and twos): with K♣ K♥ they make four kings, six kicker.
    pic = HandPicture("Hand #41 · sixth street", cs("Jh 2c Kc Kh 4s 6c"), cs("Kc Kh 4s 6c"),
                      (FIVES, TWOS, JACKS))
    alt = P.hand_alt(pic)
    assert "J♥ (down) 2♣ (down) K♣ K♥ 4♠ 6♣" in alt
    assert "Four of a kind, kings" in alt
    best = alt.split("best five ", 1)[1].split(" (", 1)[0].split()
    assert sorted(best) == sorted(["K♣", "K♥", "J♥", "2♣", "6♣"])
    assert "J♥ as K" in alt and "2♣ as K" in alt
    assert "twos (5♥ then 2♦)" in alt


def test_hand_picture_frames_the_best_five_and_tags_down_cards() -> None:
    pic = HandPicture("Hand #41", cs("Jh 2c Kc Kh 4s 6c"), cs("Kc Kh 4s 6c"), (FIVES, TWOS, JACKS))
    img = P.render_hand(pic)
    framed = count(img, S._BEST, tol=20)
    early = P.render_hand(replace(pic, cards=pic.cards[:4], up=cs("Kc Kh")))  # 4 cards: no best five yet
    assert framed > 1_000 and count(early, S._BEST, tol=20) == 0
    assert "three kings" in P.hand_alt(replace(pic, cards=pic.cards[:3], up=cs("Kc"))).lower()
    no_down = P.render_hand(replace(pic, up=pic.cards))
    # The "down" tags are grey text under the first two cards.
    assert count(img, S._TEXT_DIM, tol=10) > count(no_down, S._TEXT_DIM, tol=10)


@pytest.mark.parametrize("n", [8, 11])
def test_baseballs_extra_cards_fit_in_the_hand_and_showdown_pictures(n: int) -> None:
    # A face-up four brings an extra card: up to 7 + 4 cards (it raised "at most 7 cards" before).
    cards = cs("Ah Kd 4h 4s 4c 4d Qs Js Ts 9s 8s")[:n]
    up = cards[2:6]
    hand = P.render_hand(HandPicture("Hand #3 · seventh street", cards, up, (FIVES,)))
    assert hand.width == P.PICTURE_WIDTH
    # The last card is drawn inside the picture: its right edge is card face, not background.
    right = hand.crop((P.PICTURE_WIDTH - 12, 0, P.PICTURE_WIDTH, hand.height))
    assert count(right, S._FACE, tol=8) == 0 and count(hand, S._FACE, tol=8) > 0
    assert "8 down" not in P.hand_alt(HandPicture("t", cards, up))
    for card in cards:
        assert str(card) in P.hand_alt(HandPicture("t", cards, up))
    shown = P.render_showdown(ShowdownPicture("Hand #3 · showdown", (ShownHand("Ann", cards, 10),)))
    assert shown.width == P.PICTURE_WIDTH


def test_showdown_five_of_a_kind_and_the_winner() -> None:
    pic = ShowdownPicture(
        "Hand #41 · showdown",
        (ShownHand("Eve", cs("Jh 2c Kc Kh 4s 6c Ks"), 1_265), ShownHand("Ann", cs("Ad Ah Qc 9d Jd 3c 9h"))),
        (FIVES, TWOS, JACKS),
    )
    alt = P.showdown_alt(pic)
    eve, ann = alt.split("Eve: ", 1)[1].split("Ann: ")
    assert "Five of a kind, kings" in eve and "wins 1,265" in eve
    # Ann: A♦ A♥ with J♦ wild is three aces, and 9♦ 9♥ fill the house.
    assert "Full house, aces over nines" in ann and "wins" not in ann
    assert count(P.render_showdown(pic), S._WIN, tol=10) > 1_000
    nobody = replace(pic, hands=tuple(replace(h, won=0) for h in pic.hands))
    assert count(P.render_showdown(nobody), S._WIN, tol=10) == 0


def test_many_wild_ranks_still_fit_and_the_alt_text_keeps_every_origin() -> None:
    five = Card.parse("5s")
    ranks = [Rank.TWO, Rank.JACK, Rank.SEVEN, Rank.QUEEN, Rank.KING, Rank.THREE]
    wilds = (FIVES, *(WildRank(r, five, Card(r, Suit.HEARTS)) for r in ranks))
    pic = replace(eight_seats(), wilds=wilds, community=Card.parse("9c"))
    assert decode(P.table_png(pic)).size == P.TABLE_SIZE
    alt = P.table_alt(pic)
    for r in ranks:
        assert f"{r.plural} (5♠ then {Card(r, Suit.HEARTS)})" in alt


def test_bad_snapshots_are_refused() -> None:
    seat = SeatPicture("A", 1)
    with pytest.raises(ValueError, match="1 to 8 seats"):
        P.render_table(TablePicture("t", (seat,) * 9, 0))
    with pytest.raises(ValueError, match="at most 11 cards"):
        P.render_hand(HandPicture("t", cs("2c 3c 4c 6c 7c 8c 9c Tc Jc Qc Kc Ac"), ()))
    with pytest.raises(ValueError, match="1 to 8 hands"):
        P.render_showdown(ShowdownPicture("t", ()))


def test_gallery_renders_seven_pictures(tmp_path: Path) -> None:
    paths = render_gallery(tmp_path)
    assert [p.name for p in paths] == ["table-third-street.png", "showdown-five-of-a-kind.png",
                                       "hand-dm-wilds.png", "table-8-seats.png", "table-omaha-flop.png",
                                       "table-run-it-twice.png", "hand-omaha-hi-lo.png"]
    for path in paths:
        assert decode(path.read_bytes()).width == 960
        assert path.with_suffix(".txt").read_text(encoding="utf-8").strip()
    assert "Five of a kind" in (tmp_path / "showdown-five-of-a-kind.txt").read_text(encoding="utf-8")


def test_names_in_any_script_are_drawn_with_their_glyphs_not_boxes() -> None:
    # Issue 17: é, ł, Cyrillic, Greek, CJK and emoji were drawn as empty boxes (.notdef).
    def drawn(text: str) -> bytes:
        img = Image.new("RGB", (120, 80), (0, 0, 0))
        S._text(img, (10, 20), text, 32, bold=True)
        return img.tobytes()

    box = drawn("\U0010fffd")                 # a code point no font has: the .notdef box
    blank = drawn("")
    for ch in "éłŁЖжΩω山田花김たク🎲😀":
        ink = drawn(ch)
        assert ink != blank and ink != box, ch
    # An emoji keeps its colours (OpenMoji's grinning face is yellow).
    img = Image.new("RGB", (120, 80), (0, 0, 0))
    S._text(img, (10, 20), "😀", 32)
    assert count(img, (252, 234, 43), tol=40) > 20


def test_a_table_of_international_names_draws_and_keeps_them_in_the_alt_text() -> None:
    names = ["Łucja", "Зоя", "山田 花子", "Γιώργος 🎲", "José", "김민준", "Ørjan", "Ann"]
    seats = tuple(SeatPicture(n, 100 * (i + 1), cs("Kc"), 2) for i, n in enumerate(names))
    pic = TablePicture("Hand #1 · third street", seats, 30, (FIVES,))
    assert decode(P.table_png(pic)).size == P.TABLE_SIZE
    alt = P.table_alt(pic)
    assert all(n in alt for n in names)


def test_a_two_colour_deck_draws_clubs_dark_and_diamonds_red() -> None:
    # The pictures draw a four-colour deck (clubs green, diamonds blue); /table look offers two.
    green, blue = S._SUIT_ON_FACE[Suit.CLUBS], S._SUIT_ON_FACE[Suit.DIAMONDS]
    four = P.render_table(eight_seats())
    two = P.render_table(replace(eight_seats(), four_colour=False))
    assert count(four, green, tol=10) > 200 and count(four, blue, tol=10) > 200
    assert count(two, green, tol=10) == 0 and count(two, blue, tol=10) == 0
    red = S._SUIT_ON_FACE[Suit.HEARTS]
    assert count(two, red, tol=10) > count(four, red, tol=10)
    hand = HandPicture("t", cs("Qc 9d Jd 5c 2c"), cs("Jd 5c 2c"), four_colour=False)
    assert count(P.render_hand(hand), green, tol=10) == 0


# -- flop games (issue 21) -------------------------------------------------------------------------

MIDDLE = (282, 226, 678, 420)
"""The middle of the felt, between the seats of the 6-seat layout."""


def flop_table(boards: tuple[tuple[Card, ...], ...], down: int = 2) -> TablePicture:
    seats = (
        SeatPicture("Ann", 1_480, (), down, dealer=True),
        SeatPicture("Bea", 470, (), down, bet=10, blind="SB"),
        SeatPicture("Cid", 495, (), down, bet=20, blind="BB"),
        SeatPicture("Dot", 500, (), down, to_act=True),
        SeatPicture("Eve", 900, (), 0, folded=True),
        SeatPicture("Hal", 75, (), 0, note="sitting out"),
    )
    return TablePicture("Hand #4 · flop", seats, 60, boards=boards, board_size=5)


def test_the_board_fills_its_five_places_in_the_middle_of_the_felt() -> None:
    faces = [count(P.render_table(flop_table((cs("Kh 7c 2d Qs 3h")[:n],) if n else ())), S._FACE, MIDDLE)
             for n in (0, 3, 4, 5)]
    assert faces[0] == 0 and 0 < faces[1] < faces[2] < faces[3]
    # The places still to come are drawn empty, so the board does not move as it fills.
    empty = [count(P.render_table(flop_table((cs("Kh 7c 2d Qs 3h")[:n],))), S._FELT_EDGE, MIDDLE, tol=2)
             for n in (3, 5)]
    assert empty[0] > empty[1]


def test_a_hand_run_twice_draws_both_boards_one_above_the_other() -> None:
    one = P.render_table(flop_table((cs("Kh 7c 2d Qs 3h"),)))
    two = P.render_table(flop_table((cs("Kh 7c 2d Qs 3h"), cs("Kh 7c 2d As 9c"))))
    upper, lower = (282, 226, 678, 340), (282, 340, 678, 420)
    assert count(two, S._FACE, upper) > 1000 and count(two, S._FACE, lower) > 1000
    assert count(one, S._FACE, lower) < count(two, S._FACE, lower)
    # Both boards stay clear of the seats below them.
    for left, top, right, _ in P.seat_boxes(6):
        if top > 300:
            box = (max(left, 282), top, min(right, 678), top + 40)
            if box[0] < box[2]:
                assert count(two, S._FACE, box) == count(one, S._FACE, box)


def test_a_board_card_reads_at_least_as_large_as_a_seat_card_on_a_phone() -> None:
    """The board is everyone's hand: at 380 px wide its rank glyphs are no smaller than the seats'
    up cards' (measured on the drawn ink of the picture itself)."""
    def rank_ink(img: Image.Image, box: tuple[int, int, int, int]) -> int:
        small = img.resize((P.PHONE_WIDTH, round(P.PHONE_WIDTH * img.height / img.width)),
                           Image.Resampling.LANCZOS)
        f = P.PHONE_WIDTH / img.width
        crop = small.crop(tuple(round(v * f) for v in box)).convert("L")   # type: ignore[arg-type]
        rows = [y for y in range(crop.height) if any(crop.getpixel((x, y)) < 120  # type: ignore[operator]
                                                      for x in range(crop.width))]
        return rows[-1] - rows[0] + 1 if rows else 0

    one = P.render_table(flop_table((cs("Ks 7c 2d Qs 3h"),)))
    two = P.render_table(flop_table((cs("Ks 7c 2d Qs 3h"), cs("Ks 7c 2d As 9c"))))
    showdown = flop_table((cs("Ks 7c 2d Qs 3h"),))
    seats = tuple(replace(s, up=cs("Ks Qc"), down=0) if i == 0 else s for i, s in enumerate(showdown.seats))
    seat_img = P.render_table(replace(showdown, seats=seats))
    x0, y0 = P.seat_boxes(6)[0][:2]
    seat_rank = rank_ink(seat_img, (x0 + 4, y0 + 52, x0 + 24, y0 + 76))
    # The first board card's rank corner (the pot line is above, the board centred below it).
    assert rank_ink(one, (296, 276, 318, 304)) >= seat_rank > 0
    assert rank_ink(two, (360, 270, 378, 287)) >= seat_rank - 1          # two boards: a little smaller


def test_blinds_are_marked_on_their_seats_and_the_alt_text_has_the_board() -> None:
    pic = flop_table((cs("Kh 7c 2d"),))
    alt = P.table_alt(pic)
    assert "Board K♥ 7♣ 2♦." in alt and "No wild cards" not in alt
    assert "Bea (small blind): 470 chips, 2 down, bet 10." in alt
    assert "Cid (big blind): 495 chips, 2 down, bet 20." in alt
    twice = P.table_alt(flop_table((cs("Kh 7c 2d Qs 3h"), cs("Kh 7c 2d As 9c"))))
    assert "Board 1 K♥ 7♣ 2♦ Q♠ 3♥. Board 2 K♥ 7♣ 2♦ A♠ 9♣." in twice
    four = P.table_alt(flop_table((), down=4))
    assert "Ann (dealer): 1,480 chips, 4 down." in four


def test_an_omaha_hi_lo_hand_picture_frames_the_low_too() -> None:
    """Omaha hi-lo, hole A♠ 2♦ K♣ K♦, board K♥ 7♣ 2♥ 3♠ 8♦. Worked out by hand: the high is three
    kings (K♣ K♦ with K♥ 7♣ 8♦), the low 8-7-3-2-A (A♠ 2♦ with 3♠ 7♣ 8♦). Every card that plays in
    either half is framed; the low's five are tagged "low"; only 2♥ plays in neither and is dimmed
    (it was drawn dimmed with A♠ 2♦ 3♠, as if the low's cards did not play)."""
    from bot.engine.games.catalogue import GAMES

    hole, board = parse_cards("As 2d Kc Kd"), parse_cards("Kh 7c 2h 3s 8d")
    described, value, low_cards = P.flop_best_of(GAMES["omaha-hi-lo"], hole, board, frozenset(), "any-card")
    assert described == "Three of a kind, kings; eight-seven low (8-7-3-2-A)"
    cells = {cell.card: cell for cell in P._cells([*hole, *board], frozenset(), value, {}, 104, True,
                                                  low=low_cards)}
    assert {c for c, cell in cells.items() if cell.role == "out"} == set(parse_cards("2h"))
    tagged_low = {c for c, cell in cells.items() if ("low", False) in cell.tags}
    assert tagged_low == set(parse_cards("As 2d 3s 7c 8d"))


def test_a_pictures_alt_text_is_worked_out_once_per_picture(monkeypatch: pytest.MonkeyPatch) -> None:
    """A click asks the table picture's alt text twice (the gallery's description, then the
    upload's): the second time it is the kept text of that very picture, while an equal picture
    (another click's) and a changed one are worked out afresh, the same text for the equal one."""
    worked: list[P.TablePicture] = []
    real = P._table_alt

    def counted(pic: P.TablePicture) -> str:
        worked.append(pic)
        return real(pic)

    monkeypatch.setattr(P, "_table_alt", counted)
    pic = eight_seats()
    first = P.table_alt(pic)
    assert P.table_alt(pic) == first and worked == [pic]
    equal = replace(pic)
    assert equal is not pic and P.table_alt(equal) == first and len(worked) == 2
    moved = replace(pic, pot=pic.pot + 10)
    assert P.table_alt(moved) != first and P.table_alt(pic) == first and len(worked) == 3
