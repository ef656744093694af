"""The showdown and the award for ``StudHand`` (SPEC §6; issue 12's per-player wilds and Chicago).

Show order, each hand's value (with the shared wilds, or a low-hole-wild player's own), mucking,
and the pots: main pot and side pots from the contributions (``pots``), Baseball's dead money in
the main pot, each pot to its best shown hand, or halved with the best spade down in the Chicago
games (``valuation``). ``ShowdownMixin`` is a mixin of ``StudHand``; the attributes it names are
the hand's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

from bot.engine.cards import Card, Rank, Suit
from bot.engine.evaluator import HandValue
from bot.engine.events import (
    Event,
    HandEnded,
    HandMucked,
    HandShown,
    PotAwarded,
    ShowdownStarted,
    UncalledReturned,
)
from bot.engine.log import Action, Deal, LogEntry
from bot.engine.pots import Pot, split_pots
from bot.engine.valuation import best_value, chicago_shares, hole_spade
from bot.engine.wilds import WildTracker, low_hole_rank

if TYPE_CHECKING:  # pragma: no cover - annotations only
    from bot.engine.betting import BettingRound
    from bot.engine.games import Game
    from bot.engine.rulings import Rulings


@dataclass(frozen=True, slots=True)
class PotResult:
    """One pot at the end of the hand: ``amount``, live seats ``eligible``, ``winners`` and their
    ``shares`` (``(seat, chips)``, odd chips included, in odd-chip order)."""

    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended.

    ``pots``: main pot first. ``returned``: uncalled chips given back per seat (not winnings).
    ``shown``: each shown hand's value by seat; ``mucked``: seats that mucked; ``show_order``: the
    order hands were shown (empty when everyone else folded). ``winnings``: chips collected from
    pots per seat. ``final_stacks``: stacks after the hand. ``showdown``: False when all but one
    folded. ``wild_ranks``: the wild ranks at the end, in the order they became wild.
    """

    pots: tuple[PotResult, ...]
    returned: tuple[int, ...]
    shown: Mapping[int, HandValue]
    mucked: tuple[int, ...]
    show_order: tuple[int, ...]
    winnings: tuple[int, ...]
    final_stacks: tuple[int, ...]
    showdown: bool
    wild_ranks: tuple[Rank, ...]



class ShowdownMixin:
    """The showdown and the award (mixed into ``StudHand``)."""

    game: Game
    rulings: Rulings
    manual_showdown: bool
    _n: int
    _actor: int | None
    _betting_closed: bool
    _cards: list[list[Card]]
    _down: list[list[Card]]
    _community: Card | None
    _contrib: list[int]
    _stacks: list[int]
    _folded: list[bool]
    _follow: WildTracker
    _high_hands: dict[int, int]
    _last_aggressor: dict[int, int]
    _log: list[LogEntry]
    _events: list[Event | Deal | Action]
    _mucked: list[int]
    _phase: str
    _result: HandResult | None
    _returned: list[int]
    _round: BettingRound | None
    _show_index: int
    _show_order: tuple[int, ...]
    _shown: dict[int, HandValue]
    _street: int
    _wild_tuple: tuple[Rank, ...]

    if TYPE_CHECKING:  # StudHand's own, named here for the type checker
        def _high_hand_seat(self) -> int: ...
        def _with_dead(self, pots: tuple[Pot, ...]) -> tuple[Pot, ...]: ...

    def _begin_showdown(self) -> None:
        live = [i for i in range(self._n) if not self._folded[i]]
        start = self._last_aggressor.get(7)
        if start is None or self._betting_closed:
            start = self._high_hands.get(7)
        if start is None:
            start = self._high_hands[6] if self._community is not None and 6 in self._high_hands \
                else self._high_hand_seat()
        first: int = start
        order = tuple(sorted(live, key=lambda s: (s - first) % self._n))
        self._show_order = order
        self._events.append(ShowdownStarted(order))
        self._street = 7
        if not self.manual_showdown:
            for seat in order:
                self._show(seat, False)
            self._award(showdown=True)
            return
        self._phase = "showdown"
        self._show_index = 0
        self._actor = order[0]

    def _hand_cards(self, seat: int) -> list[Card]:
        cards = list(self._cards[seat])
        if self._community is not None:
            cards.append(self._community)
        return cards

    def seat_wilds(self, seat: int) -> frozenset[Rank]:
        """The ranks wild for ``seat`` now: the shared wild set, or in low-hole-wild the rank of
        its lowest down card (secret: only its owner may be told before the showdown). The one
        wild set of both the showdown and the player's own "Best now" hint (issue 17)."""
        if self.game.wilds.per_player:
            rank = low_hole_rank(self._down[seat], ace_low=self.rulings.low_hole_ace == "low")
            return frozenset() if rank is None else frozenset({rank})
        return frozenset(self._follow.wild_set)

    def _value(self, seat: int) -> HandValue:
        wild_in_flush = self.rulings.wild_in_flush
        return best_value(self._hand_cards(seat), self.seat_wilds(seat), wild_in_flush=wild_in_flush)

    def _key(self, value: HandValue) -> tuple[int, int]:
        return value.showdown_key(natural_wins_ties=self.rulings.natural_wins_ties == "on")

    def _show(self, seat: int, timed_out: bool) -> None:
        value = self._value(seat)
        self._shown[seat] = value
        self._log.append(Action(7, seat, "show", 0, 0, self._stacks[seat] == 0, timed_out))
        self._events.append(HandShown(seat, tuple(self._cards[seat]), value))

    def _may_muck(self, seat: int) -> bool:
        """A loser not all-in may muck (SPEC §6): every pot ``seat`` could win is already won by a
        hand shown (strictly better), and the hands were not turned face up."""
        if self._stacks[seat] == 0 or self._betting_closed or not self._shown:
            return False
        if self.game.split != "high" and any(c.suit is Suit.SPADES for c in self._down[seat]):
            return False                      # a spade down may win half of a Chicago pot
        mine = self._key(self._value(seat))
        live = [not f for f in self._folded]
        for pot in split_pots(self._contrib, live).pots:
            if seat not in pot.eligible:
                continue
            if not any(s in self._shown and self._key(self._shown[s]) > mine for s in pot.eligible):
                return False
        return True

    def _showdown_step(self, seat: int, show: bool, timed_out: bool) -> None:
        if show:
            self._show(seat, timed_out)
        else:
            self._mucked.append(seat)
            self._log.append(Action(7, seat, "muck", 0, 0, False, timed_out))
            self._events.append(HandMucked(seat))
        self._show_index += 1
        if self._show_index < len(self._show_order):
            self._actor = self._show_order[self._show_index]
            return
        self._actor = None
        self._award(showdown=True)

    def _odd_chip_order(self, winners: list[int]) -> list[int]:
        if self.rulings.odd_chip == "left-of-dealer":
            return sorted(winners)
        # Highest printed card among the player's own cards (community card ignored), rank then suit.
        return sorted(winners, key=lambda s: max(self._cards[s]), reverse=True)

    def _win_by_fold(self, winner: int) -> None:
        self._actor = None
        self._round = None
        self._award(showdown=False)

    def _award(self, *, showdown: bool) -> None:
        self._phase = "over"
        self._actor = None
        live = [not f for f in self._folded]
        split = split_pots(self._contrib, live)
        for seat, chips in enumerate(split.returned):
            if chips:
                self._stacks[seat] += chips
                self._contrib[seat] -= chips
                self._returned[seat] += chips
                self._events.append(UncalledReturned(seat, chips))
        winnings = [0] * self._n
        pots = self._with_dead(split.pots)
        results: list[PotResult | None] = [None] * len(pots)
        keys = {s: self._key(v) for s, v in self._shown.items()}
        for index in range(len(pots) - 1, -1, -1):                 # side pots first (SPEC §6)
            pot = pots[index]
            spade: int | None = None
            if showdown:
                contenders = [s for s in pot.eligible if s in keys]
                best = max(keys[s] for s in contenders)
                winners = [s for s in contenders if keys[s] == best]
                if self.game.split != "high":
                    # Chicago: half to the best spade down among this pot's shown hands (docs/rules.md).
                    spade = hole_spade({s: self._down[s] for s in contenders},
                                       low=self.game.split == "low-spade",
                                       ace_low=self.rulings.low_chicago_ace == "ace-low")
            else:
                winners = list(pot.eligible)
            order = self._odd_chip_order(winners)
            shares = chicago_shares(pot.amount, order, spade)
            if spade is not None and spade not in winners:
                winners.append(spade)
            for seat, chips in shares.items():
                winnings[seat] += chips
            paid = tuple(shares.items())
            results[index] = PotResult(pot.amount, pot.eligible, tuple(sorted(winners)), paid)
            # Who got the chips an even split leaves over, and why (issue 14); Chicago's odd chip goes
            # to the high half by its own rule.
            odd: tuple[tuple[int, Card | None], ...] = ()
            if spade is None:
                by_suit = self.rulings.odd_chip != "left-of-dealer"
                odd = tuple((s, max(self._cards[s]) if by_suit else None)
                            for s in order[: pot.amount % len(order)])
            self._events.append(PotAwarded(index, pot.amount, paid, not showdown, odd))
        for seat in range(self._n):
            self._stacks[seat] += winnings[seat]
        final = tuple(self._stacks)
        self._result = HandResult(
            pots=tuple(r for r in results if r is not None),
            returned=tuple(self._returned),
            shown=MappingProxyType(dict(self._shown)),
            mucked=tuple(self._mucked),
            show_order=self._show_order if showdown else (),
            winnings=tuple(winnings),
            final_stacks=final,
            showdown=showdown,
            wild_ranks=self._wild_tuple,
        )
        self._events.append(HandEnded(final))

