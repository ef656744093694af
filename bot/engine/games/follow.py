"""The follow rule (SPEC §3): which ranks are wild, derived from the deal log.

Fives are always wild. A five dealt face up (to any seat, or as the community card) *arms* a follow;
the next eligible card dealt *resolves* it and its rank becomes wild for the rest of the hand. Wild
ranks only accumulate. ``follow_target`` decides which card is eligible and what a face-down follow
card does; ``five_follows_five`` decides whether a five that resolves a follow arms a new one.
Burns never count. At most one follow is pending at a time (every face-up card is eligible under
every option, so a second face-up five always resolves the first follow).

``FollowTracker`` is the incremental reducer the hand uses; ``derive_wilds`` folds it over a log.

>>> from bot.engine.cards.card import parse_cards
>>> from bot.engine.log import Deal
>>> a, b, c = parse_cards("Qc 5h 2d")                 # SPEC §3 example 1, third-street door cards
>>> state = derive_wilds([Deal(0, 3, 0, a, True), Deal(1, 3, 1, b, True), Deal(2, 3, 2, c, True)])
>>> [r.char for r in state.wild_ranks]
['5', '2']
>>> str(state.events[0])
'5♥ (p2, third street) → 2♦ (p3): twos are wild'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.engine.cards.card import Card, Rank
from bot.engine.games.rulings import DEFAULT_RULINGS, Rulings
from bot.engine.log import Deal
from bot.engine.vocab import STREET_NAMES

FIVE = Rank.FIVE


@dataclass(frozen=True, slots=True)
class WildEvent:
    """How a rank became wild: ``five`` (dealt face up to ``five_seat``, ``None`` = community card, on
    ``street``) armed a follow that ``follow_card`` (to ``follow_seat`` on ``follow_street``) resolved
    as ``rank``. ``how``: ``"follow"`` (a face-up card), ``"announced"`` (a face-down card whose rank
    was announced, ``next-card-announced``) or ``"indicator"`` (a card turned in the centre).
    ``replaces``: the follower rank this one ended (follow-the-queen), ``None`` when wilds accumulate.
    """

    five: Card
    five_seat: int | None
    street: int
    follow_card: Card
    follow_seat: int | None
    follow_street: int
    rank: Rank
    how: str
    replaces: Rank | None = None

    def __str__(self) -> str:
        # Players by their hand-history labels (p1 is the first seat dealt), not table seat numbers.
        five_at = "community" if self.five_seat is None else f"p{self.five_seat + 1}"
        follow_at = {"indicator": "indicator card", "announced": "face down, announced"}.get(self.how)
        if follow_at is None:
            follow_at = "community" if self.follow_seat is None else f"p{self.follow_seat + 1}"
        ended = "" if self.replaces is None else f", {self.replaces.plural} no longer wild"
        return (f"{self.five} ({five_at}, {STREET_NAMES[self.street]}) → {self.follow_card} ({follow_at}): "
                f"{self.rank.plural} are wild{ended}")


@dataclass(frozen=True, slots=True)
class FollowNote:
    """What one deal did to the follow, for narration.

    ``kind``: ``"armed"`` (``card`` is a face-up five), ``"added"`` (``card`` made ``rank`` wild),
    ``"already-wild"`` (``card`` resolved the follow but its rank was wild already), ``"void"``
    (``card`` was face down under ``next-card-void``), ``"lapsed"`` (no card came; ``card`` None).
    ``five`` is the five whose follow this note is about.
    """

    kind: str
    five: Card
    five_seat: int | None
    card: Card | None = None
    seat: int | None = None
    rank: Rank | None = None
    follow_target: str = "next-up-card"   # the ruling in force (what an "armed" five waits for)

    @property
    def awaits(self) -> str:
        """What an armed five waits for, in the words every narrator uses, under the
        ``follow_target`` ruling in force: ``"the next up card sets a new wild rank"``."""
        return _AWAITS.get(self.follow_target, _AWAITS["next-up-card"])


_AWAITS = {
    "next-up-card": "the next up card sets a new wild rank",
    "next-card-void": "the next card sets a new wild rank (none if it is dealt face down)",
    "next-card-announced": "the next card sets a new wild rank (a down card's rank is announced)",
    "indicator-card": "the next up card sets a new wild rank (if none comes, one is turned up in the centre)",
}


@dataclass(frozen=True, slots=True)
class WildState:
    """The result of ``derive_wilds``: wild ranks in the order they became wild (``FIVE`` first),
    one ``WildEvent`` per rank after the five, the pending five (if a follow is armed) and every note."""

    wild_ranks: tuple[Rank, ...]
    events: tuple[WildEvent, ...]
    pending: Deal | None
    notes: tuple[FollowNote, ...]


_NO_NOTES: tuple[FollowNote, ...] = ()


class FollowTracker:
    """Incremental follow-rule state: feed it every ``Deal`` in order with ``on_deal``.

    ``wild_ranks`` (list, order of becoming wild) and ``wild_set`` only grow. ``pending`` is the
    ``Deal`` of the five whose follow is armed, or ``None``.
    """

    __slots__ = ("_absorb", "_down_counts", "_down_sets_rank", "_target", "events", "pending", "wild_ranks",
                 "wild_set")

    def __init__(self, rulings: Rulings = DEFAULT_RULINGS) -> None:
        target = rulings.follow_target
        # Whether a face-down card is eligible at all, and if so whether it sets the rank.
        self._down_counts = target in ("next-card-void", "next-card-announced")
        self._down_sets_rank = target == "next-card-announced"
        self._absorb = rulings.five_follows_five == "absorb"
        self._target = target
        self.wild_ranks: list[Rank] = [FIVE]
        self.wild_set: set[Rank] = {FIVE}
        self.events: list[WildEvent] = []
        self.pending: Deal | None = None

    def on_deal(self, deal: Deal) -> tuple[FollowNote, ...]:
        """Apply one dealt card; returns what it did (usually nothing). Burns are ignored."""
        if deal.kind == "burn":
            return _NO_NOTES
        pending = self.pending
        face_up = deal.face_up
        if pending is None:
            if face_up and deal.card.rank is FIVE:
                self.pending = deal
                return (FollowNote("armed", deal.card, deal.seat, follow_target=self._target),)
            return _NO_NOTES
        if not face_up and not self._down_counts:
            return _NO_NOTES                      # next-up-card / indicator-card skip down cards
        five = pending.card
        self.pending = None
        rank = deal.card.rank
        if not face_up and not self._down_sets_rank:
            note = FollowNote("void", five, pending.seat, deal.card, deal.seat)
        elif rank in self.wild_set:
            note = FollowNote("already-wild", five, pending.seat, deal.card, deal.seat, rank)
        else:
            self.wild_set.add(rank)
            self.wild_ranks.append(rank)
            how = "indicator" if deal.kind == "indicator" else ("follow" if face_up else "announced")
            self.events.append(WildEvent(five, pending.seat, pending.street, deal.card, deal.seat,
                                         deal.street, rank, how))
            note = FollowNote("added", five, pending.seat, deal.card, deal.seat, rank)
        if face_up and rank is FIVE and not self._absorb:
            # SPEC §3 five_follows_five = chain: the resolving five is itself a face-up five.
            self.pending = deal
            return (note, FollowNote("armed", deal.card, deal.seat, follow_target=self._target))
        return (note,)

    def lapse(self) -> tuple[FollowNote, ...]:
        """End of the hand's cards: a pending follow lapses (SPEC §3, ``next-up-card``)."""
        pending = self.pending
        if pending is None:
            return _NO_NOTES
        self.pending = None
        return (FollowNote("lapsed", pending.card, pending.seat),)

    def state(self, notes: tuple[FollowNote, ...] = ()) -> WildState:
        """A frozen snapshot."""
        return WildState(tuple(self.wild_ranks), tuple(self.events), self.pending, notes)


def derive_wilds(
    deals: Iterable[object], rulings: Rulings = DEFAULT_RULINGS, *, finished: bool = False
) -> WildState:
    """Fold the follow rule over a deal log (non-``Deal`` entries are skipped).

    With ``finished`` a follow still pending at the end lapses (it is reported in ``notes``).
    """
    tracker = FollowTracker(rulings)
    notes: list[FollowNote] = []
    for entry in deals:
        if isinstance(entry, Deal):
            notes.extend(tracker.on_deal(entry))
    if finished:
        notes.extend(tracker.lapse())
    return tracker.state(tuple(notes))
