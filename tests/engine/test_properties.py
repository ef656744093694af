"""Property tests (hypothesis): random decks, stakes, rulings and legal action sequences, 2-8 players.

Each example plays a whole hand with random (legal and illegal) commands and checks, after every
step: chips are conserved exactly; the player to act has a legal action; wild ranks never shrink and
equal the follow rule re-derived from the deal log; illegal commands change nothing. At the end:
no card was dealt twice; every live player at a showdown holds seven cards; winnings sum to the pots;
replaying the same deck and actions gives the same hand.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.betting.stakes import TableStakes
from bot.engine.cards.card import FULL_DECK, Card, Rank
from bot.engine.errors import IllegalAction
from bot.engine.games.follow import derive_wilds
from bot.engine.games.rulings import RULINGS, Rulings
from bot.engine.hand.hand import StudHand
from bot.engine.log import Action, Deal
from bot.engine.values.evaluator import evaluate
from tests.engine.helpers import state
from tests.engine.test_pots import reference_split


@st.composite
def stakes_strategy(draw: st.DrawFn) -> TableStakes:
    structure = draw(st.sampled_from(["fixed-limit", "pot-limit", "no-limit"]))
    ante = draw(st.integers(0, 10))
    bring_in = draw(st.integers(1, 10))
    if structure == "fixed-limit":
        small = draw(st.integers(bring_in + 1, 30))
        big = draw(st.sampled_from([small, 2 * small]))
        return TableStakes.fixed_limit(ante=ante, bring_in=bring_in, small_bet=small, big_bet=big)
    min_bet = draw(st.integers(bring_in + 1, 30))
    if structure == "pot-limit":
        return TableStakes.pot_limit(ante=ante, bring_in=bring_in, min_bet=min_bet)
    return TableStakes.no_limit(ante=ante, bring_in=bring_in, min_bet=min_bet)


rulings_strategy = st.builds(Rulings, **{name: st.sampled_from(opts) for name, opts in RULINGS.items()})
stack_strategy = st.one_of(st.integers(1, 40), st.integers(41, 400), st.integers(401, 3000))


def random_command(hand: StudHand, rng: random.Random) -> tuple[int, str, int | None]:
    """Mostly a legal command; sometimes something random (which may or may not be legal)."""
    n = hand.seat_count
    if rng.random() < 0.15 or hand.actor is None:
        seat = rng.randrange(-1, n + 1)
        name = rng.choice(["fold", "check", "call", "bring_in", "complete", "bet", "raise", "all_in",
                           "show", "muck", "timeout", "dance"])
        amount = rng.choice([None, 0, 1, rng.randrange(1, 5000)]) if name in ("bet", "raise") else None
        return seat, name, amount
    legal = hand.legal_actions()
    # Weighted so that hands often reach seventh street: mostly check or call, sometimes raise or fold.
    weights = {"fold": 1, "check": 6, "call": 6, "all_in": 1, "show": 3, "muck": 3}
    names = legal.names
    name = rng.choices(names, [weights.get(x, 2) for x in names])[0]
    amount = None
    if name in ("bet", "raise", "complete") and legal.min_to is not None and legal.max_to is not None:
        if legal.to_options:
            amount = rng.choice(legal.to_options)
        else:
            amount = rng.choice([legal.min_to, legal.max_to, rng.randint(legal.min_to, legal.max_to)])
    return hand.actor, name, amount


def play_randomly(hand: StudHand, rng: random.Random) -> list[tuple[int, str, int | None]]:
    """Play to the end, checking the step invariants; return the accepted commands."""
    total = sum(hand.starting_stacks)
    accepted: list[tuple[int, str, int | None]] = []
    wild_before = hand.wild_ranks
    steps = 0
    while not hand.is_over:
        steps += 1
        assert steps < 2000, "the hand does not end"
        actor = hand.actor
        assert actor is not None, "the hand waits but nobody is to act"
        legal = hand.legal_actions()
        assert legal.names, f"seat {actor} has no legal action: {legal}"
        seat, name, amount = random_command(hand, rng)
        before = state(hand)
        try:
            hand.act(seat, name, amount)
        except IllegalAction as exc:
            assert exc.reason
            assert state(hand) == before, f"refused {name} by {seat} changed the hand"
            continue
        # A command that was accepted must have been offered by legal_actions (or be a timeout).
        offered = before[14]
        assert seat == actor
        # Any wager word makes the wager on offer ("complete" also names pot limit's first bet).
        wagers = ("bet", "raise", "complete")
        assert name == "timeout" or name in offered.names or (name in wagers and offered.wager)  # type: ignore[attr-defined]
        accepted.append((seat, name, amount))
        if not hand.is_over:
            assert sum(hand.stack(s) for s in range(hand.seat_count)) + hand.pot_total == total
        wild = hand.wild_ranks
        assert wild[: len(wild_before)] == wild_before
        wild_before = wild
    return accepted


def check_end(hand: StudHand) -> None:
    r = hand.result
    assert r is not None
    n = hand.seat_count
    assert sum(r.final_stacks) == sum(hand.starting_stacks)
    assert sum(r.winnings) == sum(p.amount for p in r.pots)
    assert all(chips >= 0 for chips in r.final_stacks)
    # Each seat ends with what it had, minus what stayed in the pots, plus winnings.
    for s in range(n):
        assert r.final_stacks[s] == hand.starting_stacks[s] - hand.contribution(s) + r.winnings[s]
    deals = [e for e in hand.log if isinstance(e, Deal)]
    cards = [d.card for d in deals if d.kind != "burn"] + list(hand.burned_cards)
    # No card dealt twice (scrambled burns come back only once, as a burn or a community card).
    live_cards: list[Card] = [c for s in range(n) for c in hand.cards(s)]
    live_cards += [hand.community_card] if hand.community_card else []
    live_cards += list(hand.indicator_cards)
    assert len(set(live_cards)) == len(live_cards)
    assert set(cards) <= set(FULL_DECK)
    if r.showdown:
        for s in range(n):
            if not hand.folded(s):
                own = len(hand.cards(s))
                assert own + (1 if hand.community_card else 0) == 7
                if s in r.shown:
                    assert len(r.shown[s].cards) == 7
                    # peers.md §3 #19: the showdown uses exactly the hand's wild set.
                    assert r.shown[s].wild_ranks == frozenset(hand.wild_ranks)
    else:
        assert len(hand.live_seats) == 1 and not r.shown
    # The wild set follows from the deal log alone (SPEC §3): the engine's own fold over the log, and
    # an independent slow reading of SPEC §3 written here.
    derived = derive_wilds(deals, hand.rulings)
    assert derived.wild_ranks == hand.wild_ranks == r.wild_ranks
    assert derived.events == hand.wild_events
    assert reference_wilds(deals, hand.rulings) == (hand.wild_ranks, [(e.five, e.follow_card, e.how)
                                                                      for e in hand.wild_events])
    # The settlement, recomputed from the log and the cards alone (SPEC §6).
    final, winnings, returned, pots = reference_settlement(hand)
    assert (r.final_stacks, r.winnings, r.returned) == (final, winnings, returned)
    assert [(p.amount, p.eligible, p.winners) for p in r.pots] == pots
    # Winners are live and eligible; every pot has a winner.
    for pot in r.pots:
        assert pot.winners and set(pot.winners) <= set(pot.eligible)
        assert sum(c for _, c in pot.shares) == pot.amount
    acts = [e for e in hand.log if isinstance(e, Action) and e.action != "ante"]
    assert all(0 <= a.seat < n for a in acts)


WildReference = tuple[tuple[Rank, ...], list[tuple[Card, Card, str]]]
PotReference = list[tuple[int, tuple[int, ...], tuple[int, ...]]]
Chips = tuple[int, ...]


def reference_wilds(deals: list[Deal], rulings: Rulings) -> WildReference:
    """SPEC §3 read afresh: fives always wild; a face-up five (hole, community or indicator card) arms
    a follow; burns never count; the next face-up card resolves it, and a face-down one too under the
    two literal options (void: nothing; announced: its rank); under ``chain`` a resolving face-up five
    arms again. Returns the wild ranks in order and (five, follow card, how) per new rank."""
    literal = rulings.follow_target in ("next-card-void", "next-card-announced")
    wild: list[Rank] = [Rank.FIVE]
    events: list[tuple[Card, Card, str]] = []
    armed: Card | None = None
    for d in deals:
        if d.kind == "burn":
            continue
        resolved = False
        if armed is not None and (d.face_up or literal):
            resolved = True
            sets_rank = d.face_up or rulings.follow_target == "next-card-announced"
            if sets_rank and d.card.rank not in wild:
                wild.append(d.card.rank)
                how = "indicator" if d.kind == "indicator" else ("follow" if d.face_up else "announced")
                events.append((armed, d.card, how))
            armed = None
        if d.face_up and d.card.rank is Rank.FIVE and (not resolved or rulings.five_follows_five == "chain"):
            armed = d.card
    return tuple(wild), events


def reference_settlement(hand: StudHand) -> tuple[Chips, Chips, Chips, PotReference]:
    """Final stacks, winnings, returned chips and (amount, eligible, winners) per pot, from the log and
    the cards only (SPEC §6): contributions summed from the actions, pots peeled chip by chip
    (``reference_split``), each pot to the best shown hand(s) (cards speak; mucked hands out), odd chips
    one each by the highest own card (rank, then suit) or clockwise from the dealer."""
    n, rulings = hand.seat_count, hand.rulings
    contrib, folded, mucked = [0] * n, [False] * n, set()
    for e in hand.log:
        if isinstance(e, Action):
            contrib[e.seat] += e.amount
            folded[e.seat] = folded[e.seat] or e.action == "fold"
            if e.action == "muck":
                mucked.add(e.seat)
    live = [not f for f in folded]
    layers, returned = reference_split(contrib, live)
    deals = [d for d in hand.log if isinstance(d, Deal)]
    wild = set(reference_wilds(deals, rulings)[0])
    community = [d.card for d in deals if d.kind == "community"]
    own = [[d.card for d in deals if d.kind == "hole" and d.seat == s] for s in range(n)]
    keys = {}
    if sum(live) > 1:
        for s in range(n):
            if live[s] and s not in mucked:
                v = evaluate(own[s] + community, wild, wild_in_flush=rulings.wild_in_flush)
                keys[s] = (v.strength, -v.wilds_used if rulings.natural_wins_ties == "on" else 0)
    winnings = [0] * n
    pots = []
    for amount, eligible in layers:
        if keys:
            best = max(keys[s] for s in eligible if s in keys)
            winners = [s for s in eligible if keys.get(s) == best]
        else:
            winners = list(eligible)
        if rulings.odd_chip == "high-card-by-suit":
            winners.sort(key=lambda s: max((c.rank, c.suit) for c in own[s]), reverse=True)
        share, odd = divmod(amount, len(winners))
        for i, s in enumerate(winners):
            winnings[s] += share + (1 if i < odd else 0)
        pots.append((amount, eligible, tuple(sorted(winners))))
    final = tuple(hand.starting_stacks[s] - contrib[s] + returned[s] + winnings[s] for s in range(n))
    return final, tuple(winnings), tuple(returned), pots


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(2, 8),
    stakes=stakes_strategy(),
    rulings=rulings_strategy,
    data=st.data(),
    seed=st.integers(0, 2**32 - 1),
    manual=st.booleans(),
)
def test_random_hands_keep_every_invariant(
    n: int, stakes: TableStakes, rulings: Rulings, data: st.DataObject, seed: int, manual: bool
) -> None:
    stacks = data.draw(st.lists(stack_strategy, min_size=n, max_size=n))
    rng = random.Random(seed)
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    hand = StudHand(stacks, stakes, rulings, list(deck), manual_showdown=manual)
    accepted = play_randomly(hand, rng)
    check_end(hand)
    # Determinism: the same deck and the same accepted commands give the same hand.
    again = StudHand(stacks, stakes, rulings, list(deck), manual_showdown=manual)
    for seat, name, amount in accepted:
        again.act(seat, name, amount)
    assert again.log == hand.log and again.result == hand.result


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rulings=rulings_strategy)
def test_eight_handed_passive_hands_end_with_seven_cards_each(seed: int, rulings: Rulings) -> None:
    # peers.md §3 #15: eight players calling down always run short: each live hand is six own cards
    # plus the community card (or seven own cards if burns and folds leave enough).
    rng = random.Random(seed)
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    hand = StudHand([10_000] * 8, TableStakes(), rulings, deck)
    while not hand.is_over:
        legal = hand.legal_actions()
        assert hand.actor is not None
        if legal.bring_in is not None:
            hand.bring_in(hand.actor)
        else:
            hand.check_or_call(hand.actor)
    check_end(hand)
    assert hand.community_card is not None
    assert all(len(hand.cards(s)) == 6 for s in range(8))
