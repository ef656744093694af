"""How the table service writes a hand's action log in the store: the deal order, then PHH.

The first entry of every hand is the deal order: ``seats 3 5 1`` means engine seat 0 (PHH ``p1``)
is table seat 3, seat 1 is table seat 5, seat 2 is table seat 1 (the dealer button is on the last);
it is PHH's ``seats`` field. Every later entry is one PHH action string, the *resolved* command the
engine performed (``StudHand.verify``): ``p2 cbr 40``, ``p1 pb``, ``p3 f  # timed out``. With the
deck order stored with the hand, the log is the hand history: replaying the entries through
``StudHand.apply`` rebuilds the hand exactly, which is how a hand is resumed after a restart.
Databases written before schema 4 held the commands as typed (``p2 raise 40``); migration 4
(``bot.store.action_log``) rewrites them.

>>> from bot.engine.command import Command, Kind
>>> encode_action(1, Command(Kind.RAISE, 40)), decode_action("p2 cbr 40")[0]
('p2 cbr 40', 1)
>>> encode_seats((3, 5, 1)), decode_seats("seats 3 5 1")
('seats 3 5 1', (3, 5, 1))
"""

from __future__ import annotations

from bot.engine.command import Command
from bot.engine.phh.history import parse_seats_entry, seats_entry


def encode_seats(seat_nos: tuple[int, ...]) -> str:
    """The deal-order entry for table seats in deal order."""
    return seats_entry(seat_nos)


def decode_seats(text: str) -> tuple[int, ...]:
    """Table seats in deal order; raises ``ValueError`` if ``text`` is not a deal-order entry."""
    return parse_seats_entry(text)


def encode_action(seat: int, command: Command) -> str:
    """The PHH action string of a resolved ``command`` by engine ``seat`` (``ValueError`` if it is
    not resolved: ask ``StudHand.verify`` first)."""
    return command.phh(seat)


def decode_action(text: str) -> tuple[int, Command]:
    """``(engine seat, command)`` of a stored PHH action; raises ``ValueError`` for anything else."""
    return Command.from_phh(text)
