"""Season standings: net chips, tournament points, or both (docs/playing.md "Seasons").

A season's standings put together two records over the season's window: each member's net chips
from the hands played (``Store.net_leaderboard``) and the points their tournament finishes earn
(:func:`points`): every sit-and-go that finished in the window (``Store.finished_tournaments``; a
cancelled one scores nothing) gives each entrant a ``Finish`` (member, place, entrants) by its
final standings (:func:`tournament_finishes`).

The default points table is the home leagues' simple scheme: a finisher gets one point for each
player they outlasted plus one, ``entrants - place + 1`` (the last one out of a field of 8 scores
8, the first one out 1): it rewards outlasting people whatever the field size. The other scheme
offered, ``field``, is the tournament-leader formula home leagues borrow from the big card rooms,
``10 * sqrt(entrants / place)`` (its buy-in factor dropped: seats are bought with play chips), which
rewards a win in a big field more. Sources: unknownpoker.com "Poker League Calculator" (simple
scoring, and the PokerStars / CardPlayer formula), davidspokerparlor.com (the same formula).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.store.records import TournamentRecord
from bot.store.stats import NetRow
from bot.tournament.model import Tournament

STANDINGS = {"chips": "net chips", "points": "tournament points", "both": "tournament points, then net chips"}
"""How standings may be ordered (``/season standings by:``), as the reply names them."""

POINT_SCHEMES = ("places", "field")
DEFAULT_POINTS = "places"


@dataclass(frozen=True, slots=True)
class Finish:
    """A member's finish in a tournament: ``place`` 1 (the winner) .. ``entrants``."""

    member_id: int
    place: int
    entrants: int


@dataclass(frozen=True, slots=True)
class Standing:
    """A member's line in a season's standings."""

    member_id: int
    net: int
    points: float


def points(place: int, entrants: int, scheme: str = DEFAULT_POINTS) -> float:
    """The points of finishing ``place`` of ``entrants``.

    >>> [points(p, 8) for p in (1, 2, 8)]
    [8, 7, 1]
    >>> [points(p, 9, "field") for p in (1, 4, 9)]
    [30.0, 15.0, 10.0]
    """
    if not 1 <= place <= entrants:
        raise ValueError(f"place {place} of {entrants} entrants is not a finish")
    if scheme == "places":
        return entrants - place + 1
    if scheme == "field":
        return round(10 * math.sqrt(entrants / place), 1)
    raise ValueError(f"unknown points scheme {scheme!r}; one of {', '.join(POINT_SCHEMES)}")


def season_standings(
    board: Sequence[NetRow], finishes: Iterable[Finish], *, by: str = "both", scheme: str = DEFAULT_POINTS
) -> list[Standing]:
    """Every member on ``board`` (net chips, already without opt-outs) or with a finish, ordered
    ``by`` net chips, points, or points then net chips (``both``); ties by member id.

    >>> board = [NetRow(1, 300, 9), NetRow(2, -100, 9), NetRow(3, -200, 9)]
    >>> wins = [Finish(3, 1, 3), Finish(2, 2, 3), Finish(1, 3, 3)]
    >>> [(s.member_id, s.points) for s in season_standings(board, wins, by="points")]
    [(3, 3), (2, 2), (1, 1)]
    >>> [s.member_id for s in season_standings(board, wins, by="chips")]
    [1, 2, 3]
    """
    if by not in STANDINGS:
        raise ValueError(f"standings go by one of {', '.join(STANDINGS)}, not {by!r}")
    net = {row.member_id: row.net for row in board}
    earned: dict[int, float] = {}
    for finish in finishes:
        won = points(finish.place, finish.entrants, scheme)
        earned[finish.member_id] = earned.get(finish.member_id, 0) + won
    members = set(net) | set(earned)
    rows = [Standing(m, net.get(m, 0), earned.get(m, 0)) for m in members]
    if by == "chips":
        rows.sort(key=lambda s: (-s.net, s.member_id))
    elif by == "points":
        rows.sort(key=lambda s: (-s.points, s.member_id))
    else:
        rows.sort(key=lambda s: (-s.points, -s.net, s.member_id))
    return rows


def tournament_finishes(records: Iterable[TournamentRecord]) -> list[Finish]:
    """Each entrant's place in each finished tournament of ``records`` (its model's final standings;
    players tied out in one hand keep the distinct places the standings give them). Who may be
    listed is the board's business (opt-outs, the hidden role), as for net chips."""
    finishes: list[Finish] = []
    for record in records:
        if record.status != "finished":
            continue
        rows = Tournament.from_dict(dict(record.state)).standings()
        finishes += [Finish(r.member, r.place, len(rows)) for r in rows]
    return finishes
