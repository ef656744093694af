"""Wild models other than Sex in the Middle East's follow (issue 12), and the factory the hand uses.

Every tracker has the interface of ``follow.FollowTracker``: ``wild_ranks`` (list, order of becoming
wild), ``wild_set``, ``events``, ``pending`` (the ``Deal`` of an armed trigger card), ``trigger``
(the rank whose face-up card arms a follow, ``None`` when nothing follows), ``on_deal``, ``lapse``,
``last_up`` (seventh street was dealt without an up card: the follow can no longer resolve) and
``state``. Shared wilds only: low-hole-wild's per-player ranks come from ``low_hole_rank``.

>>> from bot.engine.cards.card import parse_cards
>>> from bot.engine.log import Deal
>>> q, seven, q2, jack = parse_cards("Qh 7c Qd Jc")
>>> t = QueenTracker()
>>> for i, (card, seat) in enumerate([(q, 0), (seven, 1), (q2, 1), (jack, 2)]):
...     _ = t.on_deal(Deal(i, 3 + i // 2, seat, card, True))
>>> [r.char for r in t.wild_ranks], t.events[-1].replaces
(['Q', 'J'], <Rank.SEVEN: 7>)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from bot.engine.cards.card import Card, Rank
from bot.engine.games.catalogue import Game
from bot.engine.games.follow import FollowNote, FollowTracker, WildEvent, WildState
from bot.engine.games.rulings import DEFAULT_RULINGS, Rulings
from bot.engine.log import Deal

_NO_NOTES: tuple[FollowNote, ...] = ()


class WildTracker(Protocol):
    """What the hand needs from a wild model (see the module docstring)."""

    wild_ranks: list[Rank]
    wild_set: set[Rank]
    events: list[WildEvent]
    pending: Deal | None

    @property
    def trigger(self) -> Rank | None: ...
    def on_deal(self, deal: Deal) -> tuple[FollowNote, ...]: ...
    def lapse(self) -> tuple[FollowNote, ...]: ...
    def last_up(self) -> tuple[FollowNote, ...]: ...
    def state(self, notes: tuple[FollowNote, ...] = ()) -> WildState: ...


class FixedWilds:
    """Fixed wild ranks (deuces-wild, baseball; none for seven-card stud and Chicago)."""

    __slots__ = ("events", "pending", "wild_ranks", "wild_set")

    def __init__(self, ranks: Iterable[Rank]) -> None:
        self.wild_ranks: list[Rank] = sorted(ranks)
        self.wild_set: set[Rank] = set(self.wild_ranks)
        self.events: list[WildEvent] = []
        self.pending: Deal | None = None

    @property
    def trigger(self) -> Rank | None:
        """Nothing follows anything."""
        return None

    def on_deal(self, deal: Deal) -> tuple[FollowNote, ...]:
        """Cards never change fixed wilds."""
        return _NO_NOTES

    def lapse(self) -> tuple[FollowNote, ...]:
        """Nothing is ever pending."""
        return _NO_NOTES

    def last_up(self) -> tuple[FollowNote, ...]:
        """Nothing is ever pending."""
        return _NO_NOTES

    def state(self, notes: tuple[FollowNote, ...] = ()) -> WildState:
        """A frozen snapshot."""
        return WildState(tuple(self.wild_ranks), (), None, notes)


class FollowWilds(FollowTracker):
    """Sex in the Middle East's accumulating follow (``follow.FollowTracker``) with the tracker
    interface: its pending five simply lapses when no up card is left (SPEC §3)."""

    __slots__ = ()

    @property
    def trigger(self) -> Rank | None:
        """Fives arm the follow."""
        return Rank.FIVE

    def last_up(self) -> tuple[FollowNote, ...]:
        """SPEC §3: nothing happens before the end of the hand (``lapse``)."""
        return _NO_NOTES


class QueenTracker:
    """Follow the Queen: queens always wild; the up card after a face-up queen sets the one follower
    rank, replacing the previous follower (issue 12; docs/rules.md, Follow the Queen).

    Rulings: ``queen_follows_queen`` (``chain``: a queen that resolves a follow re-arms it;
    ``absorb``: it ends the follow and leaves only queens), ``follower_until_replaced`` (``on``:
    the old follower stays wild until the new one is dealt; ``off``: a face-up queen ends it at
    once), ``queen_last`` (what is wild when a queen is the last up card: ``only-queens``,
    ``no-wilds``, ``keep-follower``; applied by ``last_up``). Only up cards follow; burns and down
    cards never arm or resolve.
    """

    __slots__ = ("_absorb", "_keep", "_last", "events", "follower", "pending", "wild_ranks", "wild_set")

    def __init__(self, rulings: Rulings = DEFAULT_RULINGS) -> None:
        self._absorb = rulings.queen_follows_queen == "absorb"
        self._keep = rulings.follower_until_replaced == "on"
        self._last = rulings.queen_last
        self.follower: Rank | None = None
        self.wild_ranks: list[Rank] = [Rank.QUEEN]
        self.wild_set: set[Rank] = {Rank.QUEEN}
        self.events: list[WildEvent] = []
        self.pending: Deal | None = None

    @property
    def trigger(self) -> Rank | None:
        """Queens arm the follow."""
        return Rank.QUEEN

    def _set(self, ranks: list[Rank]) -> None:
        self.wild_ranks = ranks
        self.wild_set = set(ranks)

    def on_deal(self, deal: Deal) -> tuple[FollowNote, ...]:
        """Apply one dealt card; returns what it did (usually nothing)."""
        if deal.kind == "burn" or not deal.face_up:
            return _NO_NOTES
        card = deal.card
        pending = self.pending
        if pending is None:
            if card.rank is not Rank.QUEEN:
                return _NO_NOTES
            return self._arm(deal)
        self.pending = None
        rank = card.rank
        old = self.follower
        if rank is Rank.QUEEN:
            if not self._absorb:
                return self._arm(deal)
            # absorb: the follower "is a queen": only queens are wild; nothing is armed.
            self.follower = None
            self._set([Rank.QUEEN])
            return (FollowNote("already-wild", pending.card, pending.seat, card, deal.seat, rank),)
        self.follower = rank
        self._set([Rank.QUEEN, rank])
        self.events.append(WildEvent(pending.card, pending.seat, pending.street, card, deal.seat,
                                     deal.street, rank, "follow", old if old is not rank else None))
        return (FollowNote("added", pending.card, pending.seat, card, deal.seat, rank),)

    def _arm(self, deal: Deal) -> tuple[FollowNote, ...]:
        self.pending = deal
        if not self._keep and self.follower is not None:
            self.follower = None
            self._set([Rank.QUEEN])
        return (FollowNote("armed", deal.card, deal.seat),)

    def last_up(self) -> tuple[FollowNote, ...]:
        """Seventh street came with no up card: an armed queen was the last up card (``queen_last``)."""
        pending = self.pending
        if pending is None:
            return _NO_NOTES
        self.pending = None
        if self._last == "only-queens":
            self.follower = None
            self._set([Rank.QUEEN])
        elif self._last == "no-wilds":
            self.follower = None
            self._set([])
        return (FollowNote("lapsed", pending.card, pending.seat),)

    def lapse(self) -> tuple[FollowNote, ...]:
        """End of the hand's cards (a community card was the last card): same as ``last_up``."""
        return self.last_up()

    def state(self, notes: tuple[FollowNote, ...] = ()) -> WildState:
        """A frozen snapshot."""
        return WildState(tuple(self.wild_ranks), tuple(self.events), self.pending, notes)


def low_hole_rank(down: Iterable[Card], *, ace_low: bool = False) -> Rank | None:
    """Low-hole-wild: the rank of the lowest of a player's down cards (ace high unless
    ``ace_low``, ruling ``low_hole_ace``), or ``None`` without down cards."""
    ranks = [card.rank for card in down]
    if not ranks:
        return None
    return min(ranks, key=lambda r: 1 if (ace_low and r is Rank.ACE) else int(r))


def make_tracker(game: Game, rulings: Rulings = DEFAULT_RULINGS) -> WildTracker:
    """The shared-wild tracker of ``game`` under ``rulings``."""
    model = game.wilds
    if model.kind == "follow":
        if model.mode == "accumulate":
            return FollowWilds(rulings)
        return QueenTracker(rulings)
    dealers = rulings.wild_rank_value if "wild_rank" in game.rulings else None
    if dealers is not None:             # the dealer made a rank wild (the flop games' wild_rank)
        return FixedWilds(model.ranks | {dealers})
    return FixedWilds(model.ranks)
