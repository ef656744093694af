"""How the table service writes a hand's action log in the store (one text per action).

The first entry of every hand is the deal order: ``seats 3 5 1`` means engine seat 0 (PHH ``p1``)
is table seat 3, seat 1 is table seat 5, seat 2 is table seat 1 (the dealer button is on the last).
Every later entry is one command as the player gave it: ``p2 raise 40``, ``p1 bring_in``,
``p3 timeout``. Replaying the commands through ``StudHand.act`` rebuilds the hand exactly (the deck
order is stored with the hand), which is how a hand is resumed after a restart.

>>> encode_action(1, "raise", 40), decode_action("p2 raise 40")
('p2 raise 40', (1, 'raise', 40))
>>> encode_seats((3, 5, 1)), decode_seats("seats 3 5 1")
('seats 3 5 1', (3, 5, 1))
"""

from __future__ import annotations


def encode_seats(seat_nos: tuple[int, ...]) -> str:
    """The deal-order entry for table seats in deal order."""
    return "seats " + " ".join(str(s) for s in seat_nos)


def decode_seats(text: str) -> tuple[int, ...]:
    """Table seats in deal order; raises ``ValueError`` if ``text`` is not a deal-order entry."""
    parts = text.split()
    if len(parts) < 3 or parts[0] != "seats" or not all(p.isdigit() for p in parts[1:]):
        raise ValueError(f"not a deal-order entry: {text!r}")
    return tuple(int(p) for p in parts[1:])


def encode_action(seat: int, action: str, amount: int | None) -> str:
    """``p{seat+1} {action}[ {amount}]`` for engine ``seat``."""
    text = f"p{seat + 1} {action}"
    return text if amount is None else f"{text} {amount}"


def decode_action(text: str) -> tuple[int, str, int | None]:
    """``(seat, action, amount)``; raises ``ValueError`` for anything else."""
    parts = text.split()
    if len(parts) not in (2, 3) or not parts[0].startswith("p") or not parts[0][1:].isdigit():
        raise ValueError(f"not an action entry: {text!r}")
    seat = int(parts[0][1:]) - 1
    if seat < 0:
        raise ValueError(f"not an action entry: {text!r}")
    amount: int | None = None
    if len(parts) == 3:
        if not parts[2].isdigit():
            raise ValueError(f"bad amount in action entry: {text!r}")
        amount = int(parts[2])
    return seat, parts[1], amount
