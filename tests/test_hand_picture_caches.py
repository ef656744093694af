"""Issue 20: the DM (hand) and showdown pictures are put together from kept parts (``bot.render.plain``)
and text from kept glyph runs (``bot.render.sprites``), so a stale part is a real risk: a card framed
as one of the best five in one player's picture must never come back framed in another's where it is
not. Over random hands (stud, flop and draw, wild cards, discards) drawn after others that share
their cards (the same player's earlier streets, the same cards with other wild ranks), the PNG drawn
with warm caches is byte for byte the PNG drawn with every cache emptied, and both are the picture
drawn afresh in RGB (``render_hand``, no cache of parts) mapped to the palette."""

from __future__ import annotations

import functools
import io
import itertools
import random
from collections.abc import Iterator
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from bot.engine.cards.card import FULL_DECK, Card, Rank, Suit
from bot.render import pictures as P
from bot.render import plain, sprites
from bot.render.layers import TILES, to_palette
from bot.render.pictures import HandPicture, ShowdownPicture, ShownHand, WildRank

NAMES = ("Ann", "Eve the Magnificent and Terrible", "Þórunn Gjpqy", "王小明", "Zoë 🃏", "W" * 40)
STREETS = ("third street", "fourth street", "fifth street", "sixth street", "seventh street")


def empty_every_cache() -> None:
    """Every cache a picture is drawn from: the kept parts, the table's layers and every
    ``functools`` cache of the sprites and pictures (glyphs, text runs and widths, card faces,
    fonts) but the shared palette itself (the colours every picture is mapped to, not a drawing)."""
    plain.PARTS.clear()
    TILES.clear()
    for module in (sprites, P):
        for name, value in vars(module).items():
            if isinstance(value, functools._lru_cache_wrapper) and name != "_palette":
                value.cache_clear()


def decoded(data: bytes) -> bytes:
    img = Image.open(io.BytesIO(data))
    img.load()
    assert img.mode == "P"
    return img.tobytes()


def wild_sets(rng: random.Random) -> tuple[WildRank, ...]:
    ranks = rng.sample([r for r in Rank if r is not Rank.FIVE], rng.randint(0, 2))
    fixed = rng.choice(((), (WildRank(Rank.FIVE),), (WildRank(Rank.FIVE),)))
    return fixed + tuple(WildRank(r, Card(Rank.FIVE, Suit.CLUBS), Card(r, Suit.HEARTS)) for r in ranks)


def family(seed: int) -> list[HandPicture]:
    """Pictures that share cards, as one table deals them: a stud player's streets (the cards so
    far), the same cards with other wild ranks or rulings, a draw game's picker with discards
    marked, a flop game's hole cards and board as it grows. The last one is the one checked."""
    rng = random.Random(seed)
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    pics: list[HandPicture] = []
    kind = rng.choice(("stud", "stud", "stud", "flop", "draw"))
    name = rng.choice(NAMES)
    if kind == "stud":
        cards = tuple(deck[: rng.randint(1, 8)])
        for n in range(1, len(cards) + 1):
            for _ in range(rng.randint(1, 2)):
                own = cards[:n]
                up = tuple(c for i, c in enumerate(own) if 2 <= i < 6)
                pics.append(HandPicture(
                    f"Hand #{seed} · {STREETS[min(max(n - 3, 0), 4)]} · {name}", own, up, wild_sets(rng),
                    deck[40] if rng.random() < 0.15 else None, rng.choice(("any-card", "highest-missing")),
                    rng.choice(("high", "high", "low", "high-low")), four_colour=rng.random() < 0.8))
    elif kind == "flop":
        game = rng.choice(("texas-holdem", "omaha", "omaha-hi-lo", "crazy-pineapple"))
        hole = tuple(deck[: {"texas-holdem": 2, "crazy-pineapple": 3}.get(game, 4)])
        for board in (0, 3, 4, 5):
            wilds = wild_sets(rng) if rng.random() < 0.3 else ()
            pics.append(HandPicture(f"Hand #{seed} · {name}", hole, (), wilds,
                                    board=tuple(deck[10:10 + board]), game=game,
                                    four_colour=rng.random() < 0.8))
    else:
        game = rng.choice(("five-card-draw", "badugi", "deuce-to-seven-triple-draw"))
        cards = tuple(deck[: 4 if game == "badugi" else 5])
        for _ in range(rng.randint(2, 5)):
            discards = tuple(c for c in cards if rng.random() < 0.4)
            lines = (f"Discard {len(discards)}: tap a card to choose it",) if discards else ()
            new = tuple(c for c in cards if rng.random() < 0.2)
            wilds = wild_sets(rng) if rng.random() < 0.3 else ()
            pics.append(HandPicture(f"Hand #{seed} · the draw · {name}", cards, (), wilds, discards=discards,
                                    lines=lines, new=new, game=game, four_colour=rng.random() < 0.8))
    rng.shuffle(pics)
    return pics


def showdown_family(seed: int) -> list[ShowdownPicture]:
    """Showdowns that share hands: the same shown hands with other winners, other wild ranks, one
    hand more or less."""
    rng = random.Random(seed)
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    size = rng.randint(5, 7)
    hands = [ShownHand(rng.choice(NAMES), tuple(deck[size * i : size * i + size]), 0) for i in range(7)]
    out = []
    for _ in range(3):
        shown = tuple(ShownHand(h.name, h.cards, rng.choice((0, 0, 120, 10**9)))
                      for h in hands[: rng.randint(1, 7)])
        out.append(ShowdownPicture(f"Hand #{seed} · showdown", shown, wild_sets(rng),
                                   deck[50] if rng.random() < 0.2 else None,
                                   ranking=rng.choice(("high", "high", "low", "high-low")),
                                   four_colour=rng.random() < 0.8))
    return out


_SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_SETTINGS
@given(st.integers(0, 2**32), st.integers(0, 2**32))
def test_a_dm_picture_from_warm_caches_is_the_one_drawn_with_every_cache_emptied(
    seed: int, other: int
) -> None:
    pics = family(seed)
    target = pics.pop()
    for pic in itertools.chain(family(other), pics):
        P.hand_png(pic)                       # warm: parts of the same cards, framed and tagged otherwise
    warm = P.hand_png(target)
    empty_every_cache()
    cold = P.hand_png(target)
    assert warm == cold
    assert decoded(warm) == to_palette(P.render_hand(target), P._palette()).tobytes()


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32))
def test_a_showdown_from_warm_caches_is_the_one_drawn_with_every_cache_emptied(seed: int) -> None:
    pics = showdown_family(seed)
    target = pics.pop()
    for pic in pics:
        P.showdown_png(pic)
    warm = P.showdown_png(target)
    empty_every_cache()
    assert P.showdown_png(target) == warm
    assert decoded(warm) == to_palette(P.render_showdown(target), P._palette()).tobytes()


def _seeded(n: int) -> Iterator[HandPicture]:
    for seed in range(n):
        yield from family(10_000 + seed)


def test_past_the_budget_parts_go_and_come_back_the_same() -> None:
    """With room for a few parts only, every picture still comes out as drawn afresh."""
    empty_every_cache()
    pics = list(_seeded(12))
    first = [P.hand_png(p) for p in pics]
    budget = plain.PARTS.budget
    plain.PARTS.budget = 60_000            # two or three cards
    try:
        plain.PARTS.clear()
        assert [P.hand_png(p) for p in pics] == first
        assert 0 < plain.PARTS.used <= 60_000
    finally:
        plain.PARTS.budget = budget
        plain.PARTS.clear()


def _boxes_meet(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@given(st.lists(st.tuples(st.integers(0, 50), st.integers(0, 50), st.integers(1, 30), st.integers(1, 30)),
                max_size=30))
def test_a_box_is_alone_when_it_meets_no_other(shapes: list[tuple[int, int, int, int]]) -> None:
    """``_alone`` (a sweep down the boxes) against every pair compared."""
    boxes = [(x, y, x + w, y + h) for x, y, w, h in shapes]
    expected = [not any(_boxes_meet(a, b) for j, b in enumerate(boxes) if j != i)
                for i, a in enumerate(boxes)]
    assert plain._alone(boxes) == expected


# -- text, cut to its ink and blended through a solid image ---------------------------------------


@settings(max_examples=40, deadline=None)
@given(st.text(st.sampled_from("AaWjgpq ·#0123456789,:…Þó王明🃏🎲é"), min_size=1, max_size=24),
       st.sampled_from((22, 26, 30, 32)), st.booleans(), st.integers(0, 7))
def test_a_run_of_text_draws_what_its_whole_box_of_glyphs_draws(
    text: str, size: int, bold: bool, x: int
) -> None:
    """``_text`` pastes a run cut to its ink, through a solid image: the pixels of the run's whole
    box built glyph by glyph (``_glyph``) and pasted with the colour, as before the cut."""
    fill = (240, 240, 240)
    canvas = Image.new("RGB", (1200, 80), (32, 34, 37))
    expected = canvas.copy()
    sprites._text(canvas, (x + 0.5, 30), text, size, fill, bold=bold)
    ascent, descent = sprites._text_font(size).getmetrics()
    pad = size // 2
    box = (max(1, int(sprites._run_width(text, size, bold)) + 2), pad + ascent + descent + 2)
    mask = Image.new("L", box, 0)
    colour = Image.new("RGBA", box, (0, 0, 0, 0))
    at = 0.0
    for cluster, index in sprites._clusters(text):
        glyph, advance = sprites._glyph(cluster, size, bold, index)
        if index == sprites._EMOJI:
            colour.paste(glyph, (round(at) - pad, 0), glyph)
        else:
            mask.paste(255, (round(at) - pad, 0), glyph)
        at += advance
    expected.paste(fill, (x, 30 - pad), mask)
    expected.paste(colour, (x, 30 - pad), colour)
    assert canvas.tobytes() == expected.tobytes()


def test_a_colour_through_a_solid_image_is_the_colour_pasted() -> None:
    """``_fill`` against Pillow's own paste of a colour: every alpha, random backgrounds and inks."""
    rng = random.Random(7)
    mask = Image.frombytes("L", (256, 64), bytes(range(256)) * 64)
    for _ in range(20):
        under = Image.frombytes("RGB", mask.size, rng.randbytes(256 * 64 * 3))
        ink = (rng.randrange(256), rng.randrange(256), rng.randrange(256))
        at = (rng.randint(-40, 40), rng.randint(-10, 10))
        got, expected = under.copy(), under.copy()
        sprites._fill(got, ink, at, mask)
        expected.paste(ink, at, mask)
        assert got.tobytes() == expected.tobytes()


def test_the_lines_under_a_dm_title_are_kept_only_the_title_is_drawn_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A DM whose cards were drawn before, with the same best hand and wild ranks as another
    player's, draws its title afresh and nothing else: the lines under it ("Best now", the wild
    ranks) are kept by their text, like the cards. The header used to be one layer drawn afresh
    for every DM, most of a DM picture's drawing."""
    fives = (WildRank(Rank.FIVE),)
    ann = HandPicture("Hand #7 · third street · Ann", tuple(Card.parse(c) for c in ("Kh", "2c", "Kd")),
                      (Card.parse("Kd"),), fives)
    bob = HandPicture("Hand #7 · third street · Bob", tuple(Card.parse(c) for c in ("Ks", "2d", "Kc")),
                      (Card.parse("Kc"),), fives)
    P.hand_png(ann)
    P.hand_png(replace(bob, title="Hand #6 · third street · Bob"))          # Bob's cards drawn once
    drawn: list[tuple[int, int]] = []
    real = plain.to_palette

    def counted(img: Image.Image, palette: Image.Image) -> Image.Image:
        drawn.append(img.size)
        return real(img, palette)

    monkeypatch.setattr(plain, "to_palette", counted)
    P.hand_png(bob)
    (width, height), = drawn                   # one drawing, one line of 32 px type high: the title
    assert height < 2 * 32 and width < P.PICTURE_WIDTH
    assert decoded(P.hand_png(bob)) == to_palette(P.render_hand(bob), P._palette()).tobytes()
