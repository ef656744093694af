"""A deal as both backends batch it: the checked request of
:meth:`bot.store.hands.HandStore.create_hand` (PostgreSQL: :func:`bot.store.pg_batch.store_deals`;
SQLite: :func:`bot.store.sqlite_batch.store_deals`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Deal:
    """One hand to start, as :meth:`bot.store.hands.HandStore.create_hand` has checked its input:
    ``players`` seat -> member; ``stakes``/``rulings`` JSON text, None for the table's own;
    ``actions`` the first entries of its log (numbers 1, 2, ...); ``started`` the stored time."""

    table_id: int
    players: Mapping[int, int]
    deck: str
    commitment: str
    salt: str
    stakes: str | None
    rulings: str | None
    game: str
    actions: Sequence[str]
    started: str
    lease: int | None
