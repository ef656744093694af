"""Render the picture gallery to ``docs/images/`` (or a folder given on the command line).

    python -m bot.render.gallery [FOLDER]

Writes ``table-third-street.png`` (third street with a wild), ``showdown-five-of-a-kind.png``,
``hand-dm-wilds.png`` (a player's own hand with wilds), ``table-8-seats.png``, and the flop games'
``table-omaha-flop.png`` (the board, blinds and a straddle), ``table-run-it-twice.png`` (both boards)
and ``hand-omaha-hi-lo.png`` (the best five with the board, and the low), each with its alt text
beside it as ``NAME.txt``. The scenes are fixed examples, not dealt hands.
"""

from __future__ import annotations

import sys
from pathlib import Path

from bot.engine.cards.card import Card, Rank, parse_cards
from bot.render.pictures import (
    HandPicture,
    SeatPicture,
    ShowdownPicture,
    ShownHand,
    TablePicture,
    WildRank,
    hand_alt,
    hand_png,
    showdown_alt,
    showdown_png,
    table_alt,
    table_png,
)


def _c(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


TWOS = WildRank(Rank.TWO, Card.parse("5h"), Card.parse("2d"))
JACKS = WildRank(Rank.JACK, Card.parse("5c"), Card.parse("Js"))
FIVES = WildRank(Rank.FIVE)          # the game's own wild rank (Sex in the Middle East)

THIRD_STREET = TablePicture(
    title="Hand #3 · third street · fixed limit 20/40",
    seats=(
        SeatPicture("Ann", 480, _c("Qc"), 2, dealer=True),
        SeatPicture("Bea", 470, _c("5h"), 2, bet=10),
        SeatPicture("Cid", 495, _c("2d"), 2, to_act=True),
        SeatPicture("Dot", 500, _c("9s"), 2),
    ),
    pot=30,
    wilds=(FIVES, TWOS),
)

EIGHT_SEATS = TablePicture(
    title="Hand #41 · sixth street · fixed limit 20/40",
    seats=(
        SeatPicture("Ann", 1_480, _c("Qc 9d Jd 5c"), 2, dealer=True, bet=40),
        SeatPicture("Łucja", 0, _c("5h Kd 7h Js"), 2, note="all-in"),
        SeatPicture("Зоя", 2_315, _c("2d 8c"), 2, folded=True),
        SeatPicture("Dot", 990, _c("9s Ts Ah 3d"), 2, to_act=True),
        SeatPicture("Eve the Magnificent", 12_250, _c("Kc Kh 4s 6c"), 2, bet=40),
        SeatPicture("山田 花子", 640, _c("3c 4h"), 2, folded=True),
        SeatPicture("Γιώργος 🎲", 2_000, _c("Ac Tc 8s 2h"), 2),
        SeatPicture("Hal", 75, (), 0, note="sitting out"),
    ),
    pot=1_265,
    wilds=(FIVES, TWOS, JACKS),
)

DM = HandPicture(
    title="Hand #41 · sixth street · your cards",
    cards=_c("Jh 2c Kc Kh 4s 6c"),
    up=_c("Kc Kh 4s 6c"),
    wilds=(FIVES, TWOS, JACKS),
)

OMAHA_FLOP = TablePicture(
    title="Hand #12 · flop",
    seats=(
        SeatPicture("Ann", 1_480, (), 4, dealer=True),
        SeatPicture("Bea", 430, (), 4, blind="SB", bet=40),
        SeatPicture("Cid", 455, (), 4, blind="BB", to_act=True),
        SeatPicture("Dot", 960, (), 4, blind="straddle", bet=40),
        SeatPicture("Eve", 700, (), 0, folded=True),
        SeatPicture("Hal", 75, (), 0, note="sitting out"),
    ),
    pot=160,
    boards=(_c("Kh 7c 2d"),),
    board_size=5,
)

RUN_TWICE = TablePicture(
    title="Hand #13 · showdown",
    seats=(
        SeatPicture("Ann", 0, _c("Ah Kd"), 0, dealer=True, note="all-in"),
        SeatPicture("Bea", 0, _c("Qc Qd"), 0, blind="SB", note="all-in"),
        SeatPicture("Cid", 380, (), 0, folded=True, blind="BB"),
    ),
    pot=1_000,
    boards=(_c("Kh 7c 2d Qs 3h"), _c("Kh 7c 2d As 9c")),
    board_size=5,
)

OMAHA_HAND = HandPicture(
    title="Hand #12 · river · your cards",
    cards=_c("As 2d Kc Kd"),
    up=(),
    board=_c("Kh 7c 2h 3s 8d"),
    game="omaha-hi-lo",
)

SHOWDOWN = ShowdownPicture(
    title="Hand #41 · showdown · pot 1,265",
    hands=(
        ShownHand("Eve", _c("Jh 2c Kc Kh 4s 6c Ks"), won=1_265),
        ShownHand("Ann", _c("Ad Ah Qc 9d Jd 5c 9h")),
        ShownHand("Gus", _c("7d 7s Ac Tc 8s 2h 3s")),
    ),
    wilds=(FIVES, TWOS, JACKS),
)


def render(folder: Path) -> list[Path]:
    """Write the gallery's PNGs and alt texts into ``folder``; returns the PNG paths."""
    folder.mkdir(parents=True, exist_ok=True)
    scenes = [
        ("table-third-street", table_png(THIRD_STREET), table_alt(THIRD_STREET)),
        ("showdown-five-of-a-kind", showdown_png(SHOWDOWN), showdown_alt(SHOWDOWN)),
        ("hand-dm-wilds", hand_png(DM), hand_alt(DM)),
        ("table-8-seats", table_png(EIGHT_SEATS), table_alt(EIGHT_SEATS)),
        ("table-omaha-flop", table_png(OMAHA_FLOP), table_alt(OMAHA_FLOP)),
        ("table-run-it-twice", table_png(RUN_TWICE), table_alt(RUN_TWICE)),
        ("hand-omaha-hi-lo", hand_png(OMAHA_HAND), hand_alt(OMAHA_HAND)),
    ]
    paths = []
    for name, png, alt in scenes:
        path = folder / f"{name}.png"
        path.write_bytes(png)
        (folder / f"{name}.txt").write_text(alt + "\n", encoding="utf-8")
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    """Entry point: ``python -m bot.render.gallery [FOLDER]`` (default ``docs/images``)."""
    args = sys.argv[1:] if argv is None else argv
    folder = Path(args[0]) if args else Path("docs/images")
    for path in render(folder):
        print(f"{path} ({path.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
