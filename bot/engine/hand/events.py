"""Narration events: what a front end tells the table, in order (issue 3).

Every event is a small immutable record (a named tuple, cheap to make) with a ``kind`` string, so a
renderer can dispatch on ``event.kind`` or on the class. Cards in ``CardDealt`` are the real cards,
down cards included: the front end decides who may see them. Seats are engine seats (0 = the first
seat left of the dealer).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from bot.engine.cards.card import Card, Rank
from bot.engine.games.follow import FollowNote, WildEvent
from bot.engine.log import Action, Deal
from bot.engine.values.evaluator import HandValue
from bot.engine.values.low import LowValue, spell


class StreetStarted(NamedTuple):
    """``street`` (3..7) is about to be dealt."""

    street: int

    @property
    def kind(self) -> str:
        """Always ``"street_started"``."""
        return "street_started"


class CardDealt(NamedTuple):
    """A card left the stub (``deal.kind``: hole, community, burn or indicator)."""

    deal: Deal

    @property
    def kind(self) -> str:
        """Always ``"card_dealt"``."""
        return "card_dealt"


class BurnsScrambled(NamedTuple):
    """Seventh-street shortage with burns on: the burned ``cards`` went back into the stub
    (TDA RP-10H)."""

    cards: tuple[Card, ...]

    @property
    def kind(self) -> str:
        """Always ``"burns_scrambled"``."""
        return "burns_scrambled"


class CommunityCardNeeded(NamedTuple):
    """Seventh-street shortage: ``stub`` cards left for ``live`` players, so one community card is
    dealt face up for everyone (SPEC §2)."""

    stub: int
    live: int

    @property
    def kind(self) -> str:
        """Always ``"community_card_needed"``."""
        return "community_card_needed"


class WildRankAdded(NamedTuple):
    """A follow card made a new rank wild; ``wild_ranks`` is the whole list now."""

    event: WildEvent
    wild_ranks: tuple[Rank, ...]

    @property
    def kind(self) -> str:
        """Always ``"wild_rank_added"``."""
        return "wild_rank_added"


class FollowNoted(NamedTuple):
    """Any other change of the follow: armed, already-wild, void or lapsed (``note.kind``)."""

    note: FollowNote

    @property
    def kind(self) -> str:
        """Always ``"follow"``."""
        return "follow"


class BringInSeat(NamedTuple):
    """``seat`` must bring in; ``door`` is the low door card. ``passed_from`` is the low card's seat when
    that player is all-in and the obligation passed on (then ``seat`` may also fold, TDA RP-10E).
    ``high_card``: the game brings in on the highest door card instead (razz)."""

    seat: int
    door: Card
    passed_from: int | None = None
    high_card: bool = False

    @property
    def kind(self) -> str:
        """Always ``"bring_in_seat"``."""
        return "bring_in_seat"


class FirstToAct(NamedTuple):
    """On ``street`` (4..7) ``high_hand`` shows the best hand and ``seat`` acts first (``seat`` differs
    when the high hand is all-in). ``same_as_sixth``: seventh street is a community card, so the order
    of sixth street stands (TDA RP-10H). ``low``: the game opens on the lowest showing hand
    (razz), so ``high_hand`` is that hand."""

    street: int
    high_hand: int
    seat: int | None
    same_as_sixth: bool = False
    low: bool = False

    @property
    def kind(self) -> str:
        """Always ``"first_to_act"``."""
        return "first_to_act"


class ActionTaken(NamedTuple):
    """A seat acted (antes included)."""

    action: Action

    @property
    def kind(self) -> str:
        """Always ``"action"``."""
        return "action"


class BettingClosed(NamedTuple):
    """At most one player can still bet: no more betting, hands are turned face up and the remaining
    streets are dealt without betting (SPEC §6)."""

    street: int

    @property
    def kind(self) -> str:
        """Always ``"betting_closed"``."""
        return "betting_closed"


class UncalledReturned(NamedTuple):
    """``amount`` chips nobody called went back to ``seat`` (not winnings)."""

    seat: int
    amount: int

    @property
    def kind(self) -> str:
        """Always ``"uncalled_returned"``."""
        return "uncalled_returned"


class ShowdownStarted(NamedTuple):
    """Showdown; hands are shown in ``order`` (SPEC §6)."""

    order: tuple[int, ...]

    @property
    def kind(self) -> str:
        """Always ``"showdown_started"``."""
        return "showdown_started"


class HandShown(NamedTuple):
    """``seat`` showed ``cards`` (its own, as dealt) worth ``value``. In razz and stud hi-lo
    ``ranking`` is ``"low"`` / ``"high-low"`` and ``low`` the hand's ace-to-five low (razz) or
    eight-or-better low (hi-lo; ``None``: no low); in razz ``value`` (the high hand) does not play.
    In deuce-to-seven and badugi ``ranking`` is ``"low"`` too and ``low`` the hand's 2-7 low or
    badugi; ``value`` is ``None`` for a hand of fewer than five cards (badugi). A hand run twice:
    ``value`` and ``low`` are on the first board, ``second`` and ``second_low`` the same cards'
    worth on the second board (``None`` when the hand was run once; ``on_second_board``)."""

    seat: int
    cards: tuple[Card, ...]
    value: HandValue | None
    low: LowValue | None = None
    ranking: str = "high"
    second: HandValue | None = None
    second_low: LowValue | None = None

    @property
    def run_twice(self) -> bool:
        """The hand was run twice: the hand has a worth on each board."""
        return self.second is not None

    def on_second_board(self) -> HandShown:
        """The same show with the second board's worth as its own (``value``, ``low``)."""
        return self._replace(value=self.second, low=self.second_low, second=None, second_low=None)

    def describe(self) -> str:
        """What the hand is worth in its game: ``"Eight-six low (8-6-4-3-A)"`` in razz, ``"Flush,
        ace high; eight-six low"`` or ``"...; no low"`` in hi-lo, the high hand otherwise."""
        if (self.ranking == "low" and self.low is not None) or self.value is None:
            return self.low.describe() if self.low is not None else ""
        high = self.value.describe(kickers=True)
        if self.ranking == "high-low":
            return f"{high}; {self.low.name} ({spell(self.low.ranks)})" if self.low else f"{high}; no low"
        return high

    @property
    def kind(self) -> str:
        """Always ``"hand_shown"``."""
        return "hand_shown"


class DiscardsReshuffled(NamedTuple):
    """Draw games: the stub ran out while ``seat`` drew, so ``count`` discards (every one not yet
    reshuffled but ``seat``'s own) were shuffled into a new stub (docs/rules.md, "Draw games").
    ``size``: how many. Which cards they were is never told."""

    seat: int
    size: int

    @property
    def kind(self) -> str:
        """Always ``"discards_reshuffled"``."""
        return "discards_reshuffled"


class DrawAceShown(NamedTuple):
    """Five-card draw: ``seat`` drew four cards and showed the ``card`` it kept, an ace (ruling
    ``draw_limit``, ``three-or-four-with-ace``)."""

    seat: int
    card: Card

    @property
    def kind(self) -> str:
        """Always ``"draw_ace_shown"``."""
        return "draw_ace_shown"


class OpenersShown(NamedTuple):
    """Jacks or better: the opener ``seat`` proves it had openers by showing ``cards`` (the pair of
    jacks or better it opened with, a split card kept from its discards included)."""

    seat: int
    cards: tuple[Card, ...]

    @property
    def kind(self) -> str:
        """Always ``"openers_shown"``."""
        return "openers_shown"


class NobodyOpened(NamedTuple):
    """Jacks or better: nobody could or would open, so everyone antes again into the same pot and
    the cards are dealt again (without an ante the hand just ends; docs/rules.md, "Draw games")."""

    @property
    def kind(self) -> str:
        """Always ``"nobody_opened"``."""
        return "nobody_opened"


class HandMucked(NamedTuple):
    """``seat`` mucked (gave up the pot unseen)."""

    seat: int

    @property
    def kind(self) -> str:
        """Always ``"hand_mucked"``."""
        return "hand_mucked"


class PotAwarded(NamedTuple):
    """Pot ``pot_index`` (0 = main pot) of ``amount`` went to ``shares`` (``(seat, chips)`` pairs);
    ``by_fold``: everyone else folded. ``odd_chips``: the seats that got the chips an even split
    leaves over, one each, with the card that decided it (ruling ``odd_chip = high-card-by-suit``:
    the seat's highest card by rank, then suit) or ``None`` (``left-of-dealer``). ``low_shares``: in
    stud hi-lo, the low half's part of ``shares`` (empty when nobody had a low); in razz the whole
    pot is the low's. ``lowest``: the odd chips went by the lowest card by suit (tied lows). ``run``:
    1 for the second run's half when the hand was run twice."""

    pot_index: int
    amount: int
    shares: tuple[tuple[int, int], ...]
    by_fold: bool
    odd_chips: tuple[tuple[int, Card | None], ...] = ()
    low_shares: tuple[tuple[int, int], ...] = ()
    lowest: bool = False
    run: int = 0

    @property
    def kind(self) -> str:
        """Always ``"pot_awarded"``."""
        return "pot_awarded"

    def halves(self) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
        """Stud hi-lo: ``(high half, low half)`` as ``(seat, chips)`` pairs; ``(shares, ())`` when
        the pot was not split high and low."""
        if not self.low_shares:
            return self.shares, ()
        low = dict(self.low_shares)
        high = tuple((s, c - low.get(s, 0)) for s, c in self.shares if c - low.get(s, 0))
        return high, self.low_shares

    def halves_note(self, name: Callable[[int], str], chips: Callable[[int], str] = str) -> str:
        """``"high half to Ada 51; low half to Bea 25, Cid 25"``, or ``""`` when not split high-low."""
        high, low = self.halves()
        if not low:
            return ""
        def side(pairs: tuple[tuple[int, int], ...]) -> str:
            return ", ".join(f"{name(s)} {chips(c)}" for s, c in pairs)
        odd = " (the odd chip to the high half)" if self.amount % 2 else ""
        return f"high half to {side(high)}; low half to {side(low)}{odd}"

    def odd_chip_note(self, name: Callable[[int], str]) -> str:
        """Who got the odd chip and why, for the end of the pot's line: ``"; odd chip to Ada: A♦ is
        the highest card by suit"``, or ``""`` when the pot split evenly. ``name`` names a seat."""
        if not self.odd_chips:
            return ""
        who = " and ".join(name(seat) for seat, _ in self.odd_chips)
        cards = [str(card) for _, card in self.odd_chips if card is not None]
        end = "lowest" if self.lowest else "highest"
        if len(self.odd_chips) == 1:
            why = f"{cards[0]} is the {end} card by suit" if cards else "first to the dealer's left"
            return f"; odd chip to {who}: {why}"
        why = f"the {end} cards by suit ({', '.join(cards)})" if cards else "first to the dealer's left"
        return f"; odd chips to {who}: {why}"


class HandEnded(NamedTuple):
    """The hand is over; ``final_stacks`` per seat."""

    final_stacks: tuple[int, ...]

    @property
    def kind(self) -> str:
        """Always ``"hand_ended"``."""
        return "hand_ended"


Event = (
    StreetStarted | CardDealt | BurnsScrambled | CommunityCardNeeded | WildRankAdded | FollowNoted
    | BringInSeat | FirstToAct | ActionTaken | BettingClosed | UncalledReturned | ShowdownStarted
    | HandShown | HandMucked | PotAwarded | HandEnded | DiscardsReshuffled | DrawAceShown
    | OpenersShown | NobodyOpened
)
"""Any narration event."""
