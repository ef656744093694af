"""Stats from what the table saw (issue 24; definitions in docs/playing.md "Stats").

A settled hand's stat line per player is computed from public facts only: the actions everyone saw
(with their amounts), the pots and who collected them, who was live at the showdown. No card is
read: a folded or mucked hand, the deck and the stub cannot change a figure
(``tests/tables/test_stats.py`` swaps folded cards and checks). The lines are written once per hand
(:func:`record_stats`, called after settling) and every figure after that is an aggregate in the store.

* ``collected``: chips the player took from the pots (``HandResult.winnings``); a hand is *won*
  when it is more than 0 (a split pot counts for each winner).
* ``showdown``: the player's hand was live when the hand went to a showdown (mucked there too).
* ``vpip``: on the first betting round (third street), the player called, completed, bet or raised;
  antes and the bring-in are forced and do not count (PokerTracker's "VPIP", stud version).
* ``bets`` (bets, completions, raises) and ``calls``: the aggression factor is ``bets / calls``
  over every street (PokerTracker's "AF"); checks, folds, the bring-in and antes are not counted.

:class:`Period` turns the ``period`` option of ``/stats`` and ``/chips leaderboard`` into a window.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from bot.engine.hand import StudHand
from bot.engine.log import Action
from bot.store import HandRecord, Store, StoreError
from bot.store.stats import HandStatLine, Season
from bot.tables.reveal import rebuild

log = logging.getLogger(__name__)

_VOLUNTARY = frozenset({"call", "complete", "bet", "raise"})
_AGGRESSIVE = frozenset({"complete", "bet", "raise"})


@dataclass(frozen=True, slots=True)
class SeatFigures:
    """One engine seat's public figures from one finished hand (:func:`seat_figures`)."""

    net: int
    collected: int
    pot: int
    showdown: bool
    vpip: bool
    bets: int
    calls: int


def seat_figures(hand: StudHand) -> tuple[SeatFigures, ...]:
    """Each seat's figures (engine seat order) from a finished hand's public record: the action log's
    actions (never its deal entries), the pots, the winnings and who was live at the showdown.
    Raises ``ValueError`` for a hand that is not over."""
    result = hand.result
    if result is None:
        raise ValueError("the hand is not over")
    actions = [e for e in hand.log if isinstance(e, Action) and e.action != "ante"]
    first_street = min((a.street for a in actions), default=0)
    pot = sum(p.amount for p in result.pots)
    at_showdown = set(hand.live_seats) | set(result.mucked) if result.showdown else set()
    figures = []
    for seat in range(hand.seat_count):
        mine = [a for a in actions if a.seat == seat]
        figures.append(
            SeatFigures(
                net=result.final_stacks[seat] - hand.starting_stacks[seat],
                collected=result.winnings[seat],
                pot=pot,
                showdown=seat in at_showdown,
                vpip=any(a.street == first_street and a.action in _VOLUNTARY for a in mine),
                bets=sum(a.action in _AGGRESSIVE for a in mine),
                calls=sum(a.action == "call" for a in mine),
            )
        )
    return tuple(figures)


def lines_for(members: Sequence[int], hand: StudHand) -> list[HandStatLine]:
    """The stat line of each player of a finished hand, ``members`` in engine seat order."""
    return [
        HandStatLine(
            member_id=member, net=f.net, collected=f.collected, pot=f.pot,
            showdown=f.showdown, vpip=f.vpip, bets=f.bets, calls=f.calls,
        )
        for member, f in zip(members, seat_figures(hand), strict=True)
    ]


def stat_lines(record: HandRecord) -> list[HandStatLine]:
    """The stat line of each player of a settled stored hand (rebuilt from its log). Raises
    ``ValueError`` for a hand not settled or a record that does not replay."""
    if record.status != "finished":
        raise ValueError(f"hand {record.id} is not settled")
    engine, order, _ = rebuild(record)
    by_seat = {p.seat_no: p.member_id for p in record.players}
    return lines_for([by_seat[n] for n in order], engine)


async def record_stats(store: Store, hand_id: int) -> bool:
    """Compute and store a settled hand's stat lines (nothing if it has them); True if written."""
    record = await store.get_hand(hand_id)
    return await store.record_hand_stats(hand_id, stat_lines(record))


async def catch_up(store: Store, *, batch: int = 500) -> int:
    """Write the stat lines of every settled hand that has none (hands settled before stats were
    kept, or whose lines failed to be written); returns how many hands were done. A hand whose log
    does not replay is logged and skipped (it keeps no lines)."""
    done = 0
    skipped: set[int] = set()
    while True:
        pending = [h for h in await store.hands_without_stats(limit=batch + len(skipped)) if h not in skipped]
        if not pending:
            return done
        for hand_id in pending:
            try:
                if await record_stats(store, hand_id):
                    done += 1
            except (ValueError, StoreError) as error:
                log.warning("hand %d keeps no stats: %s", hand_id, error)
                skipped.add(hand_id)


class Period(StrEnum):
    """The windows ``/stats`` and ``/chips leaderboard`` offer (``period:``)."""

    DAY = "day"
    WEEK = "week"
    MONTH = "month"
    YEAR = "year"
    ALL = "all"
    SEASON = "season"

    @property
    def label(self) -> str:
        """How the period reads in a reply."""
        return _LABELS[self]

    def window(
        self, now: datetime, seasons: Sequence[Season] = ()
    ) -> tuple[datetime | None, datetime | None]:
        """``(since, until)`` of the period ending ``now``: the last 24 hours, 7, 30 or 365 days,
        all time (``(None, None)``), or the season (the running one, else the last ended one; with
        no season at all, all time). ``seasons`` newest first, as the store lists them."""
        if self is Period.SEASON:
            if not seasons:
                return None, None
            season = seasons[0]
            return season.started, season.ended
        if self is Period.ALL:
            return None, None
        return now - _SPANS[self], None


_SPANS = {
    Period.DAY: timedelta(days=1),
    Period.WEEK: timedelta(days=7),
    Period.MONTH: timedelta(days=30),
    Period.YEAR: timedelta(days=365),
}
_LABELS = {
    Period.DAY: "the last 24 hours",
    Period.WEEK: "the last 7 days",
    Period.MONTH: "the last 30 days",
    Period.YEAR: "the last 365 days",
    Period.ALL: "all time",
    Period.SEASON: "the season",
}
