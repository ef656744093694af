"""The engine's exception types.

``IllegalAction`` is the one exception family for rule violations made by a player (acting out of
turn, betting a wrong amount, folding the bring-in, ...). It carries a ``reason`` a player can read,
and a command that raises it has changed nothing. Bad settings raise ``RulingError`` or
``StakesError`` (both ``ValueError``); programming errors stay ordinary exceptions.

>>> try:
...     raise IllegalAction("it is not your turn")
... except IllegalAction as exc:
...     exc.reason
'it is not your turn'
"""

from __future__ import annotations


class IllegalAction(Exception):
    """A player's command breaks a rule; ``reason`` says why in words a player can read.

    The engine raises it before changing anything, so the hand is exactly as it was.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class RulingError(ValueError):
    """An unknown ruling name or option; the message lists the valid ones."""


class StakesError(ValueError):
    """Table stakes that do not make sense (e.g. a bring-in not below the small bet)."""
