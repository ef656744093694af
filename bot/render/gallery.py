"""Render the picture gallery to ``docs/images/`` (or a folder given on the command line).

    python -m bot.render.gallery [FOLDER]

Writes ``table-third-street.png`` (third street with a wild), ``showdown-five-of-a-kind.png``,
``hand-dm-wilds.png`` (a player's own hand with wilds) and ``table-8-seats.png``, each with its alt
text beside it as ``NAME.txt``. The scenes are fixed examples, not dealt hands.
"""

from __future__ import annotations

import sys
from pathlib import Path

from bot.engine.cards import Card, Rank, parse_cards
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
