"""What a draw game's pictures show (issue 22): the table picture has a row of backs per seat, spread
so a phone shows how many, and how many cards each player drew (never which); the private picker's
picture marks the cards a player chose to throw away before they confirm. Checked on pixels and
against the snapshot, not against the renderer's own output."""

from __future__ import annotations

from dataclasses import replace

from PIL import Image

from bot.engine.betting.stakes import PRESETS
from bot.engine.cards.card import Card, parse_cards
from bot.engine.games.rulings import Rulings
from bot.engine.games.streets import AFTER_DRAW
from bot.render import pictures as P
from bot.render import sprites as S
from bot.render.pictures import HandPicture, SeatPicture, TablePicture
from bot.render.scenes import table_picture
from bot.render.table import format_table
from bot.render.views import Phase, SeatSnapshot, TableSnapshot, table_view


def cs(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def _columns(img: Image.Image, colour: tuple[int, int, int], box: tuple[int, int, int, int],
             tol: int = 4) -> list[int]:
    """The x of every column of ``box`` holding a pixel of ``colour``."""
    region = img.crop(box).convert("RGB")
    w, h = region.size
    px = region.load()
    assert px is not None
    out = []
    for x in range(w):
        for y in range(h):
            r, g, b = px[x, y]
            if abs(r - colour[0]) <= tol and abs(g - colour[1]) <= tol and abs(b - colour[2]) <= tol:
                out.append(box[0] + x)
                break
    return out


def four_draw_seats(notes: tuple[str, ...] = ("drew 3", "stood pat", "", "")) -> TablePicture:
    seats = tuple(SeatPicture(name, 500, (), 5, note=note, to_act=i == 2)
                  for i, (name, note) in enumerate(zip(("Ana", "Ben", "Cid", "Dee"), notes, strict=True)))
    return TablePicture("Hand #3 · after the draw", seats, 80)


def test_a_draw_hand_is_a_row_of_backs_spread_to_be_counted() -> None:
    pic = four_draw_seats()
    box = P.seat_boxes(4)[0]
    img = P.render_table(pic)
    backs = _columns(img, S._BACK, box)
    # Five backs side by side, each showing a strip of its own: the row is at least four steps of
    # 40 px wide (a stud seat's backs overlap at 22 px, hidden under its up cards).
    assert backs and backs[-1] - backs[0] >= 4 * 40 + P._CARD_W // 2, (backs[0], backs[-1])
    # A stud seat with up cards keeps its overlapped backs.
    stud = replace(pic, seats=(replace(pic.seats[0], up=cs("Kd 7s"), down=2), *pic.seats[1:]))
    stud_backs = _columns(P.render_table(stud), S._BACK, box)
    assert stud_backs[-1] - stud_backs[0] < 22 + P._CARD_W
    # Badugi's four backs: fewer than five, still one per card.
    four = replace(pic, seats=tuple(replace(s, down=4) for s in pic.seats))
    four_backs = _columns(P.render_table(four), S._BACK, box)
    assert four_backs[-1] - four_backs[0] >= 3 * 40 + P._CARD_W // 2


def test_how_many_each_player_drew_is_in_the_picture_and_its_alt_text_never_which() -> None:
    pic = four_draw_seats()
    alt = P.table_alt(pic)
    assert "Ana: 500 chips, 5 down, drew 3." in alt and "Ben: 500 chips, 5 down, stood pat." in alt
    # The note is drawn under the cards: the seat with a note has text there, the one without none.
    with_note, without = P.seat_boxes(4)[0], P.seat_boxes(4)[3]
    img = P.render_table(pic)
    strip = lambda b: (b[0], b[1] + 44 + P._CARD_H + 6, b[2], b[3])  # noqa: E731
    assert len(_columns(img, S._TEXT, strip(with_note), tol=30)) > 40
    quiet = P.render_table(four_draw_seats(("", "stood pat", "", "")))
    assert len(_columns(quiet, S._TEXT, strip(with_note), tol=30)) == 0
    assert len(_columns(img, S._TEXT, strip(without), tol=30)) == 0


def _snapshot(drawn: dict[str, tuple[int, ...]]) -> TableSnapshot:
    seats = tuple(
        SeatSnapshot(i + 1, 100 + i, name, 500, dealt_in=True, hidden=5, drawn=drawn.get(name, ()),
                     folded=name == "Dee")
        for i, name in enumerate(("Ana", "Ben", "Cid", "Dee"))
    )
    return TableSnapshot(1, 100, Phase.IN_HAND, 3, PRESETS["small"], Rulings(), seats, hand_id=9,
                         street=AFTER_DRAW, pot=80)


def test_the_snapshot_says_how_many_were_drawn_in_the_picture_and_the_text_table() -> None:
    snap = _snapshot({"Ana": (3,), "Ben": (0,), "Cid": (2, 1, 0), "Dee": (1,)})
    picture = table_picture(snap)
    assert picture is not None
    notes = {s.name: s.note for s in picture.seats}
    # The picture says each seat's latest draw (beside a bet it must fit on a phone); the text table
    # every draw.
    assert notes == {"Ana": "drew 3", "Ben": "stood pat", "Cid": "stood pat", "Dee": ""}
    assert all(s.down == 5 and not s.up for s in picture.seats)
    text = format_table(table_view(snap))
    lines = {line.split()[0]: line for line in text.splitlines()[1:5]}
    assert "drew 3" in lines["Ana"] and "stood pat" in lines["Ben"] and "draws 2, 1, pat" in lines["Cid"]
    assert "drew" not in lines["Dee"] and "folded" in lines["Dee"]
    assert lines["Ana"].count("▒▒") == 5


def test_the_private_picture_marks_the_cards_chosen_to_throw_away() -> None:
    hand = cs("Kh 7c 7d 2s 9h")
    chosen = cs("Kh 2s 9h")
    plain = HandPicture("Hand #3 · before the draw · Ana", hand, ())
    marked = replace(plain, discards=chosen, lines=("Discard 3: K♥ 2♠ 9♥",))
    img, before = P.render_hand(marked), P.render_hand(plain)
    step, x0 = P._HAND_STEP, (P.PICTURE_WIDTH - (4 * P._HAND_STEP + P._HAND_CARD_W)) // 2
    # Each chosen card has the discard frame and tag in its column; the kept ones have none.
    for i, card in enumerate(hand):
        box = (x0 + i * step - 6, 60, x0 + i * step + P._HAND_CARD_W + 6, img.height)
        red = len(_columns(img, P._DISCARD, box, tol=8))
        assert (red > P._HAND_CARD_W // 2) == (card in chosen), (card, red)
        assert len(_columns(before, P._DISCARD, box, tol=8)) == 0
    # A draw hand is all down cards: no "down" tag under each of them.
    assert "(down)" not in P.hand_alt(plain)
    alt = P.hand_alt(marked)
    assert "Chosen to discard: K♥ 2♠ 9♥." in alt and "Your cards: K♥ 7♣ 7♦ 2♠ 9♥." in alt


def test_a_low_draw_hand_is_named_as_players_say_it_privately() -> None:
    from bot.render.pictures import game_best_of
    from bot.render.private import game_best_now

    def named(text: str, ranking: str) -> tuple[str, str]:
        cards = list(cs(text))
        return game_best_now(cards, (), "any-card", (), ranking).lower(), \
            game_best_of(cards, frozenset(), "any-card", ranking)[0].lower()

    # Deuce-to-seven: 7-5-4-3-2 unsuited is the best hand; an ace is high (A-5-4-3-2 is no wheel),
    # and a straight counts against you.
    for text in named("7h 5c 4d 3s 2s", "deuce-to-seven"):
        assert "number one" in text, text
    for text in named("Ah 5c 4d 3s 2s", "deuce-to-seven"):
        assert "ace" in text and "number one" not in text, text
    for text in named("8h 7c 6d 5s 4s", "deuce-to-seven"):
        assert "straight" in text, text
    # Badugi: four suits and ranks; a pair or a suited card drops a card.
    for text in named("Kh 7c 4d 2s", "badugi"):        # a whole badugi: four cards
        assert text.startswith("badugi, k-7-4-2"), text
    for text in named("Kh 7h 4d 2s", "badugi"):
        assert "three-card badugi" in text and "7-4-2" in text, text
    # Five-card draw is a high game: its hand is named as in stud.
    assert "pair, sevens" in named("Kh 7c 7d 2s 9h", "high")[0]
