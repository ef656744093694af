"""A computer player: simple, but it reads the wild cards (issue 5, "a simple but not silly strategy").

How it decides:

1. **Equity.** It deals out the unseen cards at random ``samples`` times (the deck minus its own
   cards and every up card it can see, folded ones included) to complete every live hand to seven
   cards, evaluates each with the evaluator under the *current* wild ranks (SPEC §4), and counts
   how often it wins (ties share). Future wild ranks are not guessed.
2. **Fair share.** With ``n`` live opponents a random hand wins ``1 / (n + 1)`` of the time; the
   ratio of its equity to that share says how strong it is at this table.
3. **Action.** Strong (ratio ≥ 1.5): bet or raise (a pot-sized-ish bet in pot and no limit,
   capped at two raises of its own per street). Facing a bet: call when equity beats the pot odds
   (with a little slack on early streets, where more cards come), else fold. Never folds when it
   can check. The bring-in completes only with a strong door card. At the showdown it mucks a
   beaten hand (the engine allows a muck only then) and otherwise shows (cards speak).

Decisions use only what the seat may know: its own down cards and everyone's up cards. The random
source is injected, so a seeded robot is reproducible.

>>> import random
>>> from bot.engine.betting.round import LegalActions
>>> from bot.engine.cards.card import Rank, parse_cards
>>> s = Situation(down=tuple(parse_cards("5h 5d")), up=tuple(parse_cards("5c")),
...               opponents_up=(tuple(parse_cards("2c")),), dead=(), community=None,
...               wild_ranks=(Rank.FIVE,), wild_in_flush="any-card", street=3, pot=12,
...               legal=LegalActions(0, fold=True, call=2, wager="raise", min_to=4, max_to=4,
...                                  to_options=(4,)))
>>> Robot(random.Random(1)).decide(s).text
'raise 4'
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine.betting.round import LegalActions
from bot.engine.cards.card import FULL_DECK, Card, Rank, parse_cards
from bot.engine.command import Command, Kind
from bot.engine.games.catalogue import Game, game_of
from bot.engine.games.wilds import low_hole_rank
from bot.engine.hand.hand import StudHand
from bot.engine.hand.records import Decision
from bot.engine.values.ace_to_five import EIGHT_OR_BETTER, ace_to_five_key
from bot.engine.values.badugi import badugi, badugi_key
from bot.engine.values.board import flop_high, flop_low
from bot.engine.values.deuce_to_seven import deuce_to_seven_key
from bot.engine.values.evaluator import strength
from bot.engine.values.evaluator_tables import WildInFlush
from bot.engine.values.valuation import best_value, hole_spade


@dataclass(frozen=True, slots=True)
class Situation:
    """What one seat knows when it must act.

    ``down``/``up``: its own cards; ``opponents_up``: each *live* opponent's up cards; ``dead``:
    other visible cards (folded players' up cards); ``community``: the shared seventh-street card;
    ``pot``: chips in all pots, current street included; ``legal``: the engine's legal actions.
    ``raises_made``: how many times this seat bet or raised on this street already. ``game``: the
    game's name (issue 12: its wild model and pot split); ``low_ace``: the ace counts low for the
    low-hole rank or the low spade (rulings ``low_hole_ace`` / ``low_chicago_ace``).
    ``decision``: Baseball's buy-or-pay question or a draw game's draw, when the hand waits for
    one (a draw game's cards are all ``down``).
    """

    down: tuple[Card, ...]
    up: tuple[Card, ...]
    opponents_up: tuple[tuple[Card, ...], ...]
    dead: tuple[Card, ...]
    community: Card | None
    wild_ranks: tuple[Rank, ...]
    wild_in_flush: WildInFlush
    street: int
    pot: int
    legal: LegalActions
    raises_made: int = 0
    game: str = "sex-in-the-middle-east"
    low_ace: bool = False
    decision: Decision | None = None
    board: tuple[Card, ...] = ()
    """A flop game's board so far (``down`` is then the seat's hole cards, ``up`` empty)."""


def _flop_equity(situation: Situation, game: Game, rng: random.Random, samples: int) -> float:
    """``estimate_equity`` in a flop game: the board is completed to its five cards and each live
    opponent given as many hole cards as this seat holds, from the unseen cards; each hand is valued
    as the game's showdown values it (``flop_high``/``flop_low``: Omaha plays two plus three), and
    a hi-lo pot is halved with the best eight-or-better low."""
    hole = list(situation.down)
    board = list(situation.board)
    seen = set(hole) | set(board) | set(situation.dead)
    unseen = [c for c in FULL_DECK if c not in seen]
    opponents = len(situation.opponents_up)
    if not opponents:
        return 1.0
    wild = frozenset(situation.wild_ranks)
    need = max(0, game.board_size - len(board))
    if need + opponents * len(hole) > len(unseen):      # never at eight seats and four cards each
        return 1.0 / (opponents + 1)
    total = 0.0
    for _ in range(samples):
        draw = rng.sample(unseen, need + opponents * len(hole))
        full = board + draw[:need]
        hands = [hole] + [draw[need + i * len(hole): need + (i + 1) * len(hole)] for i in range(opponents)]
        scores = [flop_high(h, full, wild, exact_hole=game.exact_hole,
                            wild_in_flush=situation.wild_in_flush).strength for h in hands]
        best = max(scores)
        high = 1.0 / scores.count(best) if scores[0] == best else 0.0
        if game.has_low:
            lows = [flop_low(h, full, wild, exact_hole=game.exact_hole) for h in hands]
            keys = [None if low is None else low.key for low in lows]
            found = [k for k in keys if k is not None]
            if found:
                best_low = min(found)
                low_share = 1.0 / keys.count(best_low) if keys[0] == best_low else 0.0
                total += 0.5 * high + 0.5 * low_share
                continue
        total += high
    return total / samples


def estimate_equity(situation: Situation, rng: random.Random, samples: int = 120) -> float:
    """The share of the pot this seat wins against random unseen cards (0..1), by sampling.

    Every live hand is completed to seven cards (a community card counts for all; if the unseen
    cards cannot give everyone a seventh card, one sampled card is shared, as in SPEC §2). The
    game decides the wilds: its shared wild ranks, or in low-hole-wild each hand's own low hole
    rank (an opponent's from its sampled down cards); in the Chicago games half the pot goes to
    the best spade among the (sampled) down cards; in razz the lowest ace-to-five hand wins, in stud
    hi-lo half goes to the best eight-or-better low (all to the high when nobody has one).
    """
    game = game_of(situation.game)
    if game.is_draw:
        return draw_equity(situation, rng, samples)
    if game.positional:
        return _flop_equity(situation, game, rng, samples)
    mine = list(situation.down) + list(situation.up)
    shared = [situation.community] if situation.community is not None else []
    seen = set(mine) | set(shared) | set(situation.dead)
    for up in situation.opponents_up:
        seen.update(up)
    unseen = [c for c in FULL_DECK if c not in seen]
    wild = frozenset(situation.wild_ranks)
    per_player = game.wilds.per_player
    chicago = game.split in ("high-spade", "low-spade")
    ruling = situation.wild_in_flush
    hands = [mine, *[list(up) for up in situation.opponents_up]]
    needs = [max(0, 7 - len(h) - len(shared)) for h in hands]
    if not situation.opponents_up:
        return 1.0
    share_last = sum(needs) > len(unseen)
    if share_last:
        needs = [max(0, n - 1) for n in needs]
    total = 0.0
    for _ in range(samples):
        draw = rng.sample(unseen, sum(needs) + (1 if share_last else 0))
        extra = list(shared)
        pos = 0
        if share_last:
            extra.append(draw[0])
            pos = 1
        scores: list[int] = []
        lows: list[int | None] = []
        holes: list[list[Card]] = []
        for index, (hand, need) in enumerate(zip(hands, needs, strict=True)):
            drawn = draw[pos : pos + need]
            full = hand + drawn + extra
            pos += need
            ups = len(situation.up) if index == 0 else len(situation.opponents_up[index - 1])
            # Sampled cards after the up cards still to come are down cards (seventh street and,
            # for an opponent, the down cards nobody sees).
            hole = (list(situation.down) if index == 0 else []) + drawn[max(0, 4 - ups):]
            holes.append(hole)
            seat_wild = wild
            if per_player:
                rank = low_hole_rank(hole, ace_low=situation.low_ace)
                seat_wild = frozenset() if rank is None else frozenset({rank})
            if game.has_low:
                low = ace_to_five_key(full)
                if game.split == "low":
                    scores.append(-low)
                    continue
                lows.append(low if low < EIGHT_OR_BETTER else None)
            scores.append(strength(full, seat_wild, wild_in_flush=ruling) if len(full) <= 7
                          else best_value(full, seat_wild, wild_in_flush=ruling).strength)
        best = max(scores)
        high = 1.0 / scores.count(best) if scores[0] == best else 0.0
        if chicago:
            spade = hole_spade(dict(enumerate(holes)), low=game.split == "low-spade",
                               ace_low=situation.low_ace)
            total += high if spade is None else 0.5 * high + (0.5 if spade == 0 else 0.0)
        elif any(k is not None for k in lows):
            best_low = min(k for k in lows if k is not None)
            low_share = 1.0 / lows.count(best_low) if lows[0] == best_low else 0.0
            total += 0.5 * high + 0.5 * low_share
        else:
            total += high
    return total / samples


def _draw_score(game: Game, cards: Sequence[Card], shared: frozenset[Rank], low_ace: bool,
                ruling: WildInFlush) -> int:
    """A draw game's hand as a number, higher better: the high hand with the seat's wild cards, or
    the deuce-to-seven low / badugi read upside down."""
    if game.split == "deuce-to-seven":
        return -deuce_to_seven_key(cards)
    if game.split == "badugi":
        return -badugi_key(cards)
    wild = shared
    if game.wilds.per_player:
        rank = low_hole_rank(cards, ace_low=low_ace)
        wild = wild if rank is None else wild | {rank}
    return strength(cards, wild, wild_in_flush=ruling)


def draw_equity(situation: Situation, rng: random.Random, samples: int = 120) -> float:
    """A draw game: the share of the pot this hand wins as it stands against random hands of as
    many cards from the cards it cannot see (the draws still to come are not guessed)."""
    game = game_of(situation.game)
    mine = list(situation.down)
    opponents = len(situation.opponents_up)
    if not opponents:
        return 1.0
    unseen = [c for c in FULL_DECK if c not in set(mine)]
    shared = frozenset(situation.wild_ranks)
    args = (shared, situation.low_ace, situation.wild_in_flush)
    own = _draw_score(game, mine, *args)
    size = len(mine)
    total = 0.0
    for _ in range(samples):
        dealt = rng.sample(unseen, size * opponents)
        scores = [_draw_score(game, dealt[i * size:(i + 1) * size], *args) for i in range(opponents)]
        best = max(scores)
        if own > best:
            total += 1.0
        elif own == best:
            total += 1.0 / (1 + scores.count(best))
    return total / samples


_NINE_LOW = deuce_to_seven_key(parse_cards("9c 8d 7h 6s 4c"))
"""The worst deuce-to-seven hand a computer player stands pat on."""


def choose_discards(situation: Situation) -> tuple[Card, ...]:
    """What a computer player throws away at a draw (at most the decision's limit): in a high game
    it keeps its wild cards and its pairs (or better), and a made straight or better stands pat,
    else the high cards (an ace alone when it may draw four); in deuce-to-seven the different
    ranks up to eight; in badugi its best badugi of cards up to eight."""
    decision = situation.decision
    assert decision is not None
    game = game_of(situation.game)
    cards = list(situation.down)
    most = decision.amount
    if game.split == "deuce-to-seven":
        if deuce_to_seven_key(cards) <= _NINE_LOW:
            return ()              # a nine low or better stands pat
        keep: list[Card] = []
        for card in sorted(cards, key=lambda c: int(c.rank)):
            if int(card.rank) <= 8 and all(k.rank is not card.rank for k in keep):
                keep.append(card)
    elif game.split == "badugi":
        best = badugi(cards)
        keep = [c for c in best.cards if (1 if c.rank is Rank.ACE else int(c.rank)) <= 8]
        if len(best.cards) == 4 and best.ranks[0] <= 11:
            keep = list(best.cards)
    else:
        wild = frozenset(situation.wild_ranks)
        if game.wilds.per_player:
            rank = low_hole_rank(cards, ace_low=situation.low_ace)
            wild = wild if rank is None else wild | {rank}
        if strength(cards, wild, wild_in_flush=situation.wild_in_flush) >> 20 >= 4:   # straight+
            return ()
        counts = {r: sum(1 for c in cards if c.rank is r) for r in {c.rank for c in cards}}
        keep = [c for c in cards if c.rank in wild or counts[c.rank] >= 2]
        if not keep:
            high = sorted(cards, key=lambda c: int(c.rank), reverse=True)
            keep = high[:1] if high[0].rank is Rank.ACE and most >= len(cards) - 1 else high[:2]
    discards = [c for c in cards if c not in keep]
    discards.sort(key=lambda c: int(c.rank))          # over the limit: keep the highest of them
    return tuple(discards[:most])


class Robot:
    """A computer player; ``decide`` returns the ``Command`` it plays (a wager with the street
    total to bet or raise *to*; a decision's choice)."""

    def __init__(self, rng: random.Random, *, samples: int = 120) -> None:
        self.rng = rng
        self.samples = samples

    def decide(self, s: Situation) -> Command:
        legal = s.legal
        names = legal.names
        if s.decision is not None and s.decision.kind == "draw":
            return Command(Kind.DRAW, cards=choose_discards(s))
        if s.decision is not None:
            return self._decide(s)
        if "muck" in names:          # only a beaten hand may be mucked: give nothing away
            return Command(Kind.MUCK)
        if "show" in names:
            return Command(Kind.SHOW)
        equity = estimate_equity(s, self.rng, self.samples)
        opponents = max(1, len(s.opponents_up))
        ratio = equity * (opponents + 1)
        may_wager = legal.wager is not None and legal.min_to is not None
        if legal.bring_in is not None:
            if ratio >= 1.5 and may_wager:
                return Command(Kind(legal.wager or "complete"), self._wager_to(s))
            return Command(Kind.BRING_IN)
        if legal.check:
            if may_wager and (ratio >= 1.5 or (ratio >= 1.0 and self.rng.random() < 0.15)):
                return Command(Kind(legal.wager or "bet"), self._wager_to(s))
            return Command(Kind.CHECK)
        to_call = legal.call or 0
        if may_wager and ratio >= 1.5 + 0.5 * s.raises_made and s.raises_made < 2:
            return Command(Kind(legal.wager or "raise"), self._wager_to(s))
        odds = to_call / (s.pot + to_call) if s.pot + to_call > 0 else 1.0
        slack = {3: 0.8, 4: 0.85, 5: 0.9}.get(s.street, 1.0)
        if legal.call is not None and equity >= odds * slack:
            return Command(Kind.CALL)
        if legal.fold:
            return Command(Kind.FOLD)
        if legal.call is not None:
            return Command(Kind.CALL)
        return Command(Kind(names[0]))

    def _decide(self, s: Situation) -> Command:
        """Baseball: buy the extra card or match the pot when the chance of winning pays for it;
        Crazy Pineapple: discard the card the engine would (the one that plays least with the
        board); run it twice whenever asked."""
        decision = s.decision
        assert decision is not None
        equity = estimate_equity(s, self.rng, self.samples)
        if decision.kind == "discard":           # keep the two that play best with the board
            assert decision.fallback is not None
            return Command(Kind.DISCARD, cards=(decision.fallback,))
        if decision.kind == "run_twice":         # less variance costs nothing: always agree
            return decision.choices[0]
        yes, no = decision.choices
        if decision.kind == "buy":
            return yes if equity * (len(s.opponents_up) + 1) >= 0.8 else no
        return yes if equity * (s.pot + decision.amount) >= decision.amount else no

    def _wager_to(self, s: Situation) -> int | None:
        legal = s.legal
        if legal.to_options:
            return legal.to_options[0]
        low, high = legal.min_to, legal.max_to
        if low is None or high is None:
            return low
        target = low + (2 * s.pot) // 3
        return max(low, min(high, target))


def situation(hand: StudHand, seat: int) -> Situation:
    """What ``seat`` may know now in ``hand``: its own cards, every up card, the pot, the legal actions."""
    live = hand.live_seats
    street = hand.street
    raises = sum(
        1 for entry in hand.log
        if getattr(entry, "seat", None) == seat and getattr(entry, "street", None) == street
        and getattr(entry, "action", None) in ("complete", "bet", "raise")
    )
    return Situation(
        down=hand.down_cards(seat),
        up=hand.up_cards(seat),
        opponents_up=tuple(hand.up_cards(s) for s in live if s != seat),
        dead=tuple(c for s in range(hand.seat_count) if s not in live for c in hand.up_cards(s)),
        community=hand.community_card,
        wild_ranks=hand.wild_ranks,
        wild_in_flush=hand.rulings.wild_in_flush,
        street=street,
        pot=hand.pot_total,
        legal=hand.legal_actions(seat),
        raises_made=raises,
        game=hand.game.name,
        low_ace=(hand.rulings.low_hole_ace == "low" if hand.game.wilds.per_player
                 else hand.rulings.low_chicago_ace == "ace-low"),
        decision=hand.decision if hand.actor == seat else None,
        board=hand.board,
    )


ROBOT_POOL = ("Ada", "Bix", "Cleo", "Dot", "Ezra", "Flo", "Gus", "Hal", "Ivy", "Jun")
"""Computer players' names; a name's place here is its stable number (the same player every run)."""


def robot_names(count: int, avoid: Sequence[str] = ()) -> list[str]:
    """``count`` distinct names for computer players, none of them in ``avoid``."""
    taken = {a.lower() for a in avoid}
    names = [n for n in ROBOT_POOL if n.lower() not in taken]
    return names[:count]
