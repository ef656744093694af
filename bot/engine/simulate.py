"""Random legal hands: a seeded random player, the statistics players ask about, and speed.

:class:`RandomPlayer` picks one of the legal actions of the seat to act (``StudHand.legal_actions``)
with fixed, simple odds -- it is a source of varied legal play, not a strategy. :func:`play_hand`
deals one hand from a deck shuffled by the given ``random.Random`` and plays it to the end.
:func:`simulate` plays many and gathers :class:`SimulationStats`: how many ranks end up wild, how
often each category wins the main pot at a showdown, how often a pot is split, how often a hand
ends before a showdown or needs the community card, and complete hands per second (it doubles as
the engine's benchmark; see ``benchmarks/bench_engine.py``).

Everything is reproducible from the seed: the same seed gives the same hands.

>>> import random
>>> from bot.engine.betting.stakes import TableStakes
>>> hand = play_hand(random.Random(1), [1000] * 4, TableStakes())
>>> hand.is_over, sum(hand.result.final_stacks)
(True, 4000)
>>> stats = simulate(players=3, hands=20, seed=5)
>>> stats.hands, sum(stats.wild_rank_counts.values())
(20, 20)
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.engine.betting.stakes import TableStakes
from bot.engine.cards.deck import Deck
from bot.engine.command import Command, Kind
from bot.engine.games.catalogue import Game, game_of
from bot.engine.games.rulings import DEFAULT_RULINGS, Rulings
from bot.engine.hand.hand import StudHand
from bot.engine.hand.options import NO_OPTIONS, HandOptions
from bot.engine.values.evaluator import Category

__all__ = ["RandomPlayer", "SimulationStats", "play_hand", "random_rulings", "random_stakes", "simulate"]


class RandomPlayer:
    """Chooses a legal action at random, with fixed odds (probabilities in 0..1).

    Facing a bet: fold ``fold``, raise ``raise_``, else call. With nothing to call: bet ``bet``,
    else check. The bring-in completes with ``complete``. A pot-limit or no-limit wager is the
    minimum most of the time, sometimes the maximum (or all-in), sometimes in between; an all-in is
    chosen with ``all_in``. At a manual showdown a beaten player mucks with ``muck``.
    """

    __slots__ = ("all_in", "bet", "complete", "fold", "muck", "raise_", "rng")

    def __init__(
        self,
        rng: random.Random,
        *,
        fold: float = 0.2,
        raise_: float = 0.12,
        bet: float = 0.3,
        complete: float = 0.15,
        all_in: float = 0.02,
        muck: float = 0.5,
    ) -> None:
        self.rng = rng
        self.fold = fold
        self.raise_ = raise_
        self.bet = bet
        self.complete = complete
        self.all_in = all_in
        self.muck = muck

    def act(self, hand: StudHand) -> None:
        """Make one legal move for ``hand.actor`` (the hand must not be over)."""
        seat = hand.actor
        assert seat is not None, "nobody is to act"
        rng = self.rng
        decision = hand.decision
        if decision is not None and decision.kind == "draw":
            cards = hand.cards(seat)
            count = rng.randint(0, decision.amount)
            discards = tuple(rng.sample(cards, count))
            if not hand.can(seat, Command(Kind.DRAW, cards=discards)):
                discards = discards[:min(count, 3)]     # four only keeping an ace: draw three
                if not hand.can(seat, Command(Kind.DRAW, cards=discards)):
                    discards = ()
            hand.apply(seat, Command(Kind.DRAW, cards=discards))
            return
        if decision is not None:                 # Baseball: buy / pay, or not; run it twice or not
            choices = decision.choices
            if len(choices) == 2:
                yes, no = choices
                hand.apply(seat, yes if rng.random() < 0.7 else no)
            else:                                # a discard: any of the cards
                hand.apply(seat, rng.choice(choices))
            return
        legal = hand.legal_actions(seat)
        r = rng.random()
        if legal.show:
            if legal.muck and r < self.muck:
                hand.muck(seat)
            else:
                hand.show(seat)
            return
        if legal.all_in_to is not None and r < self.all_in:
            hand.all_in(seat)
            return
        if legal.bring_in is not None:
            if legal.wager is not None and legal.min_to is not None and rng.random() < self.complete:
                hand.bet_or_raise_to(seat, self._amount(legal.min_to, legal.max_to, legal.to_options))
            elif legal.fold and rng.random() < self.fold:
                hand.fold(seat)
            else:
                hand.bring_in(seat)
            return
        wager = legal.wager is not None and legal.min_to is not None
        if legal.check:
            if wager and r < self.bet:
                hand.bet_or_raise_to(seat, self._amount(legal.min_to, legal.max_to, legal.to_options))
            else:
                hand.check(seat)
            return
        if r < self.fold and legal.fold:
            hand.fold(seat)
        elif wager and r < self.fold + self.raise_:
            hand.bet_or_raise_to(seat, self._amount(legal.min_to, legal.max_to, legal.to_options))
        else:
            hand.call(seat)

    def _amount(self, low: int | None, high: int | None, options: Sequence[int]) -> int:
        assert low is not None and high is not None
        rng = self.rng
        if options:
            return options[0] if len(options) == 1 or rng.random() < 0.7 else options[-1]
        r = rng.random()
        if r < 0.6 or high <= low:
            return low
        if r < 0.75:
            return high
        return rng.randint(low, high)


def play_hand(
    rng: random.Random,
    stacks: Sequence[int],
    stakes: TableStakes,
    rulings: Rulings = DEFAULT_RULINGS,
    *,
    player: RandomPlayer | None = None,
    manual_showdown: bool = False,
    max_actions: int = 1000,
    game: Game | str | None = None,
    options: HandOptions = NO_OPTIONS,
    button: int = 0,
) -> StudHand:
    """Deal one hand from a deck shuffled by ``rng`` and play it out with ``player``
    (default: a ``RandomPlayer`` on ``rng``). Returns the finished hand.

    A game with blinds dealt at stakes without them gets the standard blinds
    (``TableStakes.with_standard_blinds``). Raises ``RuntimeError`` if the hand does not end within
    ``max_actions`` actions (it always does: the raise cap and the stacks bound every street).
    """
    chosen = game_of(game)
    if chosen.has_blinds:
        stakes = stakes.with_standard_blinds()
    hand = StudHand(stacks, stakes, rulings, Deck(rng), manual_showdown=manual_showdown, game=chosen,
                    options=options, button=button)
    bot = player if player is not None else RandomPlayer(rng)
    for _ in range(max_actions):
        if hand.is_over:
            return hand
        bot.act(hand)
    raise RuntimeError(f"the hand did not end within {max_actions} actions")


def random_stakes(rng: random.Random) -> TableStakes:
    """Random valid stakes of any structure (for property tests and varied simulations; a game with
    blinds gets the standard ones in ``play_hand``)."""
    structure = rng.choice(("fixed-limit", "pot-limit", "no-limit"))
    ante = rng.choice((0, 1, 2, 5))
    bring_in = rng.choice((1, 2, 5))
    if structure == "fixed-limit":
        small = bring_in + rng.choice((1, 3, 5, 8))
        return TableStakes.fixed_limit(ante=ante, bring_in=bring_in, small_bet=small,
                                       big_bet=small * rng.choice((1, 2)))
    make = TableStakes.pot_limit if structure == "pot-limit" else TableStakes.no_limit
    return make(ante=ante, bring_in=bring_in, min_bet=bring_in + rng.choice((1, 5, 10)))


def random_rulings(rng: random.Random, game: Game | str | None = None) -> Rulings:
    """Every ruling set to a random option (SPEC §3-§6); with ``game``, only the options that game
    offers for its own rulings (the others keep their defaults)."""
    from bot.engine.games.rulings import RULINGS

    if game is None:
        return Rulings.from_dict({name: rng.choice(options) for name, options in RULINGS.items()})
    chosen = game_of(game)
    return Rulings.from_dict({name: rng.choice(chosen.options(name)) for name in chosen.rulings})


@dataclass
class SimulationStats:
    """What :func:`simulate` counted.

    ``wild_rank_counts``: hands by the number of wild ranks at the end (fives included: 1..5).
    ``winning_categories``: showdowns by the category of the hand that won the main pot (the
    evaluator's names, e.g. ``five_of_a_kind``); ``winning_lows``: in razz, triple draw and badugi, by
    the low that won it (``seven low``, ``three-card badugi``). ``split_hands``: hands where at
    least one pot was split; ``split_pots``/``pots``: pots split / pots awarded. ``showdowns``:
    hands that reached a showdown; ``community_cards``: hands dealt a shortage community card.
    ``seconds``: time spent playing (dealing, acting, showdown); ``hands_per_second`` = hands /
    seconds.
    """

    players: int
    hands: int
    seed: int | None
    structure: str
    game: str = "sex-in-the-middle-east"
    seconds: float = 0.0
    wild_rank_counts: Counter[int] = field(default_factory=Counter)
    winning_categories: Counter[str] = field(default_factory=Counter)
    winning_lows: Counter[str] = field(default_factory=Counter)
    showdowns: int = 0
    split_hands: int = 0
    split_pots: int = 0
    pots: int = 0
    community_cards: int = 0
    actions: int = 0
    chips_won: int = 0

    @property
    def hands_per_second(self) -> float:
        """Complete hands per second (0 if nothing was timed)."""
        return self.hands / self.seconds if self.seconds > 0 else 0.0

    @property
    def mean_wild_ranks(self) -> float:
        """Average number of wild ranks at the end of a hand (fives included)."""
        total = sum(self.wild_rank_counts.values())
        return sum(k * v for k, v in self.wild_rank_counts.items()) / total if total else 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready statistics (the ``wildstud simulate --json`` object)."""
        hands = self.hands or 1
        showdowns = self.showdowns or 1
        return {
            "players": self.players,
            "hands": self.hands,
            "seed": self.seed,
            "structure": self.structure,
            "game": self.game,
            "seconds": round(self.seconds, 4),
            "hands_per_second": round(self.hands_per_second, 1),
            "wild_ranks": {str(k): self.wild_rank_counts[k] for k in sorted(self.wild_rank_counts)},
            "wild_ranks_share": {str(k): round(self.wild_rank_counts[k] / hands, 4)
                                 for k in sorted(self.wild_rank_counts)},
            "mean_wild_ranks": round(self.mean_wild_ranks, 3),
            "winning_categories": {c.value: self.winning_categories[c.value] for c in Category
                                   if self.winning_categories[c.value]},
            "winning_categories_share": {c.value: round(self.winning_categories[c.value] / showdowns, 4)
                                         for c in Category if self.winning_categories[c.value]},
            "showdowns": self.showdowns,
            "won_without_showdown": self.hands - self.showdowns,
            "split_hands": self.split_hands,
            "split_hand_rate": round(self.split_hands / hands, 4),
            "split_pots": self.split_pots,
            "pots": self.pots,
            "community_cards": self.community_cards,
            "mean_actions": round(self.actions / hands, 2),
            "mean_pot": round(self.chips_won / hands, 2),
            "winning_lows": dict(sorted(self.winning_lows.items())),
        }

    def describe(self) -> list[str]:
        """Lines for ``wildstud simulate``."""
        hands = self.hands or 1
        showdowns = self.showdowns or 1
        game = "" if self.game == "sex-in-the-middle-east" else f", {self.game}"
        out = [f"{_hands(self.hands)}, {self.players} players, {self.structure}, seed {self.seed}{game}"]
        out.append("wild ranks at the end of the hand (fives included):" if not game
                   else "wild ranks at the end of the hand (shared by everyone):")
        for k in sorted(self.wild_rank_counts):
            v = self.wild_rank_counts[k]
            out.append(f"  {k}: {v:>7}  {100 * v / hands:5.1f}%")
        out.append(f"  average {self.mean_wild_ranks:.2f}")
        out.append(f"showdowns: {self.showdowns} ({100 * self.showdowns / hands:.1f}% of hands); "
                   f"won without a showdown: {self.hands - self.showdowns}")
        if self.winning_lows:
            out.append("the low that won the main pot, per showdown:")
            for name, v in sorted(self.winning_lows.items()):
                out.append(f"  {name:<24} {v:>7}  {100 * v / showdowns:5.1f}%")
        else:
            out.append("category of the hand that won the main pot, per showdown:")
        for c in Category:
            v = self.winning_categories[c.value]
            if v and not self.winning_lows:
                out.append(f"  {c.value:<16} {v:>7}  {100 * v / showdowns:5.1f}%")
        out.append(f"split pots: {_hands(self.split_hands)} ({100 * self.split_hands / hands:.2f}%), "
                   f"{self.split_pots:,} of {self.pots:,} pots")
        if self.community_cards:
            out.append(f"community card dealt: {_hands(self.community_cards)} "
                       f"({100 * self.community_cards / hands:.1f}%)")
        out.append(f"speed: {self.hands_per_second:,.0f} complete hands per second "
                   f"({self.seconds:.3f} s for {_hands(self.hands)})")
        return out


def simulate(
    *,
    players: int,
    hands: int,
    seed: int | None = None,
    stakes: TableStakes | None = None,
    rulings: Rulings = DEFAULT_RULINGS,
    stack: int | None = None,
    on_hand: Callable[[StudHand], None] | None = None,
    clock: Callable[[], float] = time.perf_counter,
    game: Game | str | None = None,
) -> SimulationStats:
    """Play ``hands`` random legal hands of ``players`` (2..8) and count what happened.

    Every hand starts from the same stacks (``stack`` each; default 50 big bets or 100 minimum
    bets), so the statistics describe single hands. ``seed`` makes the run reproducible (``None``:
    a random seed). ``on_hand`` sees each finished hand (outside the timing). Raises ``ValueError``
    for a bad player count.
    """
    if not 2 <= players <= 8:
        raise ValueError(f"a stud hand needs 2 to 8 players, not {players}")
    if hands < 0:
        raise ValueError("hands cannot be negative")
    stakes = stakes if stakes is not None else TableStakes()
    unit = stakes.big_bet if stakes.is_fixed_limit else stakes.min_bet * 2
    stacks = [stack if stack is not None else 50 * unit] * players
    rng = random.Random(seed)
    player = RandomPlayer(rng)
    chosen = game_of(game)
    stats = SimulationStats(players, hands, seed, stakes.structure, chosen.name)
    elapsed = 0.0
    for _ in range(hands):
        start = clock()
        hand = play_hand(rng, stacks, stakes, rulings, player=player, game=chosen)
        elapsed += clock() - start
        _count(stats, hand)
        if on_hand is not None:
            on_hand(hand)
    stats.seconds = elapsed
    return stats


def _count(stats: SimulationStats, hand: StudHand) -> None:
    result = hand.result
    assert result is not None
    stats.wild_rank_counts[len(result.wild_ranks)] += 1
    stats.actions += sum(1 for e in hand.log if getattr(e, "action", "ante") != "ante")
    stats.chips_won += sum(result.winnings)
    if hand.community_card is not None:
        stats.community_cards += 1
    split = False
    for pot in result.pots:
        stats.pots += 1
        if len(pot.winners) > 1:
            stats.split_pots += 1
            split = True
    if split:
        stats.split_hands += 1
    if result.showdown and result.pots:
        stats.showdowns += 1
        main = result.pots[0]
        low_only = hand.game.split in LOW_ONLY     # razz, triple draw, badugi: the low wins it
        value = result.shown.get(main.winners[0])
        if value is not None and not low_only:     # a low game's high category means nothing
            stats.winning_categories[value.category.value] += 1
        low = result.lows.get(main.winners[0])
        if low is not None and low_only:
            stats.winning_lows[_low_kind(low.name)] += 1


LOW_ONLY = frozenset({"low", "deuce-to-seven", "badugi"})
"""The games' ``split`` values where the low alone wins the pot (razz, triple draw, badugi)."""


def _low_kind(name: str) -> str:
    """A low's name without its lesser cards: ``seven-five low`` -> ``seven low``; ``three-card
    badugi, 7-4-2`` -> ``three-card badugi``; a pair or a straight as it is."""
    if "badugi" in name:
        return name.split(",")[0]
    if name.endswith(" low") and "-" in name:
        return name.split("-")[0] + " low"
    return name.split(",")[0]


def _hands(count: int) -> str:
    """``1 hand``, ``2 hands``, ``1,000 hands``.

    >>> _hands(1), _hands(0), _hands(1000)
    ('1 hand', '0 hands', '1,000 hands')
    """
    return f"{count:,} hand{'' if count == 1 else 's'}"
