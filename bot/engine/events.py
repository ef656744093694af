"""Narration events: what a front end tells the table, in order (issue 3).

Every event is a small frozen record with a ``kind`` string, so a renderer can dispatch on
``event.kind`` (or on the class). Cards in ``CardDealt`` are the real cards, down cards included: the
front end decides who may see them. Seats are engine seats (0 = first seat left of the dealer).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from bot.engine.cards import Card, Rank
from bot.engine.evaluator import HandValue
from bot.engine.follow import FollowNote, WildEvent
from bot.engine.log import Action, Deal


@dataclass(frozen=True, slots=True)
class StreetStarted:
    """``street`` (3..7) is about to be dealt."""

    kind: ClassVar[str] = "street_started"
    street: int


@dataclass(frozen=True, slots=True)
class CardDealt:
    """A card left the stub (``deal.kind``: hole, community, burn or indicator)."""

    kind: ClassVar[str] = "card_dealt"
    deal: Deal


@dataclass(frozen=True, slots=True)
class BurnsScrambled:
    """Seventh-street shortage with burns on: the burned ``cards`` went back into the stub (TDA RP-10H)."""

    kind: ClassVar[str] = "burns_scrambled"
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class CommunityCardNeeded:
    """Seventh-street shortage: ``stub`` cards left for ``live`` players, so one community card is dealt."""

    kind: ClassVar[str] = "community_card_needed"
    stub: int
    live: int


@dataclass(frozen=True, slots=True)
class WildRankAdded:
    """A follow card made a new rank wild; ``wild_ranks`` is the whole list now."""

    kind: ClassVar[str] = "wild_rank_added"
    event: WildEvent
    wild_ranks: tuple[Rank, ...]


@dataclass(frozen=True, slots=True)
class FollowNoted:
    """Any other change of the follow: armed, already-wild, void or lapsed (``note.kind``)."""

    kind: ClassVar[str] = "follow"
    note: FollowNote


@dataclass(frozen=True, slots=True)
class BringInSeat:
    """``seat`` must bring in; ``door`` is its door card. ``passed_from`` is the low card's seat when
    that player is all-in and the obligation passed on (then ``seat`` may also fold, TDA RP-10E)."""

    kind: ClassVar[str] = "bring_in_seat"
    seat: int
    door: Card
    passed_from: int | None = None


@dataclass(frozen=True, slots=True)
class FirstToAct:
    """On ``street`` (4..7), ``high_hand`` shows the best hand and ``seat`` acts first
    (``seat`` differs when the high hand is all-in). ``same_as_sixth``: seventh street is a community
    card, so the order of sixth street stands (TDA RP-10H)."""

    kind: ClassVar[str] = "first_to_act"
    street: int
    high_hand: int
    seat: int | None
    same_as_sixth: bool = False


@dataclass(frozen=True, slots=True)
class ActionTaken:
    """A seat acted (antes included)."""

    kind: ClassVar[str] = "action"
    action: Action


@dataclass(frozen=True, slots=True)
class BettingClosed:
    """At most one player can still bet: no more betting, hands are turned face up, the remaining
    streets are dealt without betting (SPEC §6)."""

    kind: ClassVar[str] = "betting_closed"
    street: int


@dataclass(frozen=True, slots=True)
class UncalledReturned:
    """``amount`` chips nobody called went back to ``seat`` (not winnings)."""

    kind: ClassVar[str] = "uncalled_returned"
    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class ShowdownStarted:
    """Showdown; hands are shown in ``order``."""

    kind: ClassVar[str] = "showdown_started"
    order: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandShown:
    """``seat`` showed ``cards`` (as dealt, own cards only) worth ``value``."""

    kind: ClassVar[str] = "hand_shown"
    seat: int
    cards: tuple[Card, ...]
    value: HandValue


@dataclass(frozen=True, slots=True)
class HandMucked:
    """``seat`` mucked (gave up the pot unseen)."""

    kind: ClassVar[str] = "hand_mucked"
    seat: int


@dataclass(frozen=True, slots=True)
class PotAwarded:
    """Pot ``index`` (0 = main pot) of ``amount`` went to ``shares`` (``(seat, chips)`` pairs)."""

    kind: ClassVar[str] = "pot_awarded"
    index: int
    amount: int
    shares: tuple[tuple[int, int], ...]
    by_fold: bool


@dataclass(frozen=True, slots=True)
class HandEnded:
    """The hand is over; ``final_stacks`` per seat."""

    kind: ClassVar[str] = "hand_ended"
    final_stacks: tuple[int, ...]


Event = (
    StreetStarted | CardDealt | BurnsScrambled | CommunityCardNeeded | WildRankAdded | FollowNoted
    | BringInSeat | FirstToAct | ActionTaken | BettingClosed | UncalledReturned | ShowdownStarted
    | HandShown | HandMucked | PotAwarded | HandEnded
)
