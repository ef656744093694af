"""The table state as one block of text: the message Discord edits in place, and the terminal's
table display.

``TableView`` is a plain snapshot (names, chips, cards) built by the table service; ``format_table``
lays it out. Other players' down cards appear only as card backs (``▒▒``).

>>> from dataclasses import replace
>>> from bot.engine.cards.card import parse_cards
>>> view = TableView(
...     title="Hand #3 · fourth street", stakes="fixed limit 20/40, ante 5 and bring-in 10",
...     seats=(
...         SeatView(1, "Ann", 480, "", tuple(parse_cards("Q♣ 9♦")), 2, 20, 0, False, True),
...         SeatView(2, "Bea", 470, "", tuple(parse_cards("5♥ K♦")), 2, 30, 10, True, False),
...         SeatView(3, "Cid", 495, "folded", (), 0, 5, 0, False, False),
...     ),
...     pot=55, wild_lines=("fives are wild",), footer="Bea to act: 10 to call")
>>> print(format_table(view))
Hand #3 · fourth street · fixed limit 20/40, ante 5 and bring-in 10
   D Ann  ▒▒ ▒▒ Q♣ 9♦  480  in 20
  ▶  Bea  ▒▒ ▒▒ 5♥ K♦  470  in 30, 10 this street
     Cid               495  folded (5 in)
Pot 55 · fives are wild
Bea to act: 10 to call

When the dealer is the one to act, both marks show:

>>> print(format_table(replace(view, seats=(replace(view.seats[0], to_act=True),))).splitlines()[1])
  ▶D Ann  ▒▒ ▒▒ Q♣ 9♦  480  in 20

With more than fives wild, each wild rank gets its own line:

>>> more = replace(view, wild_lines=("fives are wild", "5♥ (Bea, 4th) → 2♦ (Cid): twos are wild"))
>>> for line in format_table(more).splitlines()[4:]: print(line)
Pot 55 · wild:
  fives are wild
  5♥ (Bea, 4th) → 2♦ (Cid): twos are wild
Bea to act: 10 to call

A flop game: the board under the seats, and the blinds beside their seats:

>>> holdem = TableView(
...     title="Hand #4 · flop", stakes="fixed limit 20/40; blinds 10/20",
...     seats=(
...         SeatView(1, "Ann", 480, "", (), 2, 20, 0, True, False, "SB"),
...         SeatView(2, "Bea", 480, "", (), 2, 20, 0, False, False, "BB"),
...         SeatView(3, "Cid", 480, "", (), 2, 20, 0, False, True),
...     ),
...     pot=60, wild_lines=(), footer="Ann to act", boards=(tuple(parse_cards("Kh 7c 2d")),))
>>> print(format_table(holdem))
Hand #4 · flop · fixed limit 20/40; blinds 10/20
  ▶  Ann  ▒▒ ▒▒  480  small blind; in 20
     Bea  ▒▒ ▒▒  480  big blind; in 20
   D Cid  ▒▒ ▒▒  480  in 20
Board: K♥ 7♣ 2♦
Pot 60
Ann to act
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.cards.card import Card
from bot.render.cards import board, chips


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat as everyone may see it.

    ``status``: "" (playing), ``folded``, ``all-in``, ``sitting out``, ``away``, ``out of chips``,
    ``not dealt in``, ``leaving``. ``hidden``: how many face-down cards to draw as backs.
    ``in_pot``: chips put in this hand; ``street_bet``: this street.
    """

    seat_no: int
    name: str
    stack: int
    status: str
    up: tuple[Card, ...]
    hidden: int
    in_pot: int
    street_bet: int
    to_act: bool
    dealer: bool
    blind: str = ""
    """A flop game's forced bet posted from this seat: ``SB``, ``BB`` or ``straddle`` ("" none)."""


@dataclass(frozen=True, slots=True)
class TableView:
    """The whole table at one moment (see ``format_table``). ``boards``: a flop game's board (one
    run), or both runs when the hand is run twice (each its own line)."""

    title: str
    stakes: str
    seats: tuple[SeatView, ...]
    pot: int
    wild_lines: tuple[str, ...]
    footer: str
    community: Card | None = None
    boards: tuple[tuple[Card, ...], ...] = ()


BLIND_WORDS = {"SB": "small blind", "BB": "big blind", "straddle": "straddle"}
"""How the text table names the forced bet a seat posted (``SeatView.blind``)."""


def format_table(view: TableView) -> str:
    """The table as lines of text: a title, one line per seat, the pot and wilds, a footer."""
    lines = [f"{view.title} · {view.stakes}"]
    name_w = max((len(s.name) for s in view.seats), default=0)
    boards = [board(s.up, s.hidden) for s in view.seats]
    board_w = max((len(b) for b in boards), default=0)
    stack_w = max((len(chips(s.stack)) for s in view.seats), default=0)
    for seat, cards in zip(view.seats, boards, strict=True):
        # Both marks fit: the dealer stays marked while it is the dealer's turn.
        mark = ("▶" if seat.to_act else " ") + ("D" if seat.dealer else " ")
        notes: list[str] = []
        if seat.blind:
            notes.append(BLIND_WORDS[seat.blind])
        if seat.status:
            notes.append(seat.status)
        if seat.in_pot and seat.status not in ("sitting out", "away", "out of chips", "not dealt in"):
            if seat.status == "folded":
                notes = [f"folded ({chips(seat.in_pot)} in)"]
            else:
                part = f"in {chips(seat.in_pot)}"
                if seat.street_bet:
                    part += f", {chips(seat.street_bet)} this street"
                notes.append(part)
        row = f"  {mark} {seat.name:<{name_w}}  {cards:<{board_w}}  {chips(seat.stack):>{stack_w}}"
        if notes:
            row += "  " + "; ".join(notes)
        lines.append(row.rstrip())
    if view.community is not None:
        lines.append(f"Community card: {view.community}")
    for i, run in enumerate(view.boards, 1):
        if run:                       # before the flop there is no board to show
            label = "Board" if len(view.boards) == 1 else f"Board {i}"
            lines.append(f"{label}: {' '.join(str(c) for c in run)}")
    if len(view.wild_lines) == 1:
        lines.append(f"Pot {chips(view.pot)} · {view.wild_lines[0]}")
    else:
        # Several wild ranks: one line each, so "fives are wild" never reads as the whole list.
        if view.pot or view.wild_lines:
            lines.append(f"Pot {chips(view.pot)}" + (" · wild:" if view.wild_lines else ""))
        lines.extend(f"  {line}" for line in view.wild_lines)
    if view.footer:
        lines.append(view.footer)
    return "\n".join(lines)
