"""Helpers for the engine tests: decks stacked in deal order and a tiny action script.

``stud_deck`` turns each player's cards (as they are dealt to that player) into a 52-card deck in
the pass order of SPEC §2, so a test states hands the way a person reads them and the deck order is
worked out here -- independently of the engine's dealing code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.engine.betting.stakes import TableStakes
from bot.engine.cards.card import FULL_DECK, Card, parse_cards
from bot.engine.games.rulings import Rulings
from bot.engine.hand.hand import StudHand

FL = TableStakes.fixed_limit(ante=5, bring_in=10, small_bet=20, big_bet=40)
"""Fixed limit 20/40, ante 5, bring-in 10 (the stakes of the example hands)."""
NL = TableStakes.no_limit(ante=5, bring_in=10, min_bet=20)
PL = TableStakes.pot_limit(ante=5, bring_in=10, min_bet=20)

# Street of each of a player's seven cards, in the order they are dealt to that player.
_STREET_OF_CARD = (3, 3, 3, 4, 5, 6, 7)
# Pass of each card within its street (third street has three passes).
_PASS_OF_CARD = (0, 1, 2, 0, 0, 0, 0)


def stud_deck(
    hands: Sequence[str],
    *,
    last_street: Mapping[int, int] | None = None,
    community: str | None = None,
    burns: Mapping[int, str] | None = None,
    extra: str = "",
) -> list[Card]:
    """A full deck that deals ``hands[i]`` to seat ``i`` (cards in the order that seat receives them).

    ``last_street``: ``{seat: street}`` -- the seat folds on that street and gets no later cards
    (its string must then hold only the cards up to that street). ``community``: the shortage card,
    dealt after sixth street instead of seventh-street down cards. ``burns``: ``{street: card}``
    burned before that street's cards (with ``burn_cards`` on). ``extra``: cards placed right after
    those (e.g. indicator cards); the rest of the deck follows in FULL_DECK order.
    """
    per_seat = [parse_cards(h) for h in hands]
    last_street = dict(last_street or {})
    burns = {k: Card.parse(v) for k, v in (burns or {}).items()}
    order: list[Card] = []
    for street in (3, 4, 5, 6, 7):
        if street in burns:
            order.append(burns[street])
        if street == 7 and community is not None:
            order.append(Card.parse(community))
            continue
        passes = 3 if street == 3 else 1
        for p in range(passes):
            for seat, cards in enumerate(per_seat):
                if last_street.get(seat, 7) < street:
                    continue
                for i, card in enumerate(cards):
                    if _STREET_OF_CARD[i] == street and _PASS_OF_CARD[i] == p:
                        order.append(card)
    order.extend(parse_cards(extra))
    if len(set(order)) != len(order):
        raise ValueError("a card appears twice in the test deck")
    used = set(order)
    return order + [c for c in FULL_DECK if c not in used]


def new_hand(
    hands: Sequence[str],
    stacks: Sequence[int] | int = 1000,
    stakes: TableStakes = FL,
    rulings: Rulings | None = None,
    *,
    manual_showdown: bool = False,
    **deck_kwargs: object,
) -> StudHand:
    """A hand dealt from ``stud_deck(hands, ...)``."""
    n = len(hands)
    chips = [stacks] * n if isinstance(stacks, int) else list(stacks)
    deck = stud_deck(hands, **deck_kwargs)  # type: ignore[arg-type]
    return StudHand(chips, stakes, rulings or Rulings(), deck, manual_showdown=manual_showdown)


def play(hand: StudHand, script: str) -> None:
    """Run ``"p1 bring_in, p2 call, p3 raise 40"`` (PHH-style player numbers, 1 = seat 0).

    Each step asserts that it is that player's turn, so a script also pins the betting order.
    """
    for step in script.split(","):
        words = step.split()
        if not words:
            continue
        seat = int(words[0].lstrip("p")) - 1
        assert hand.actor == seat, f"{step.strip()!r}: expected p{seat + 1} to act, actor is {hand.actor}"
        amount = int(words[2]) if len(words) > 2 else None
        hand.act(seat, words[1], amount)


def state(hand: StudHand) -> tuple[object, ...]:
    """Everything a command could change, read through public queries (for "changes nothing")."""
    n = hand.seat_count
    return (
        hand.phase, hand.street, hand.actor, hand.is_over, hand.betting_closed, hand.wild_ranks,
        tuple(hand.stack(s) for s in range(n)), tuple(hand.contribution(s) for s in range(n)),
        tuple(hand.street_contribution(s) for s in range(n)), tuple(hand.folded(s) for s in range(n)),
        tuple(hand.cards(s) for s in range(n)), hand.community_card, len(hand.log), len(hand.events),
        hand.legal_actions(), hand.pots(), hand.result,
    )


def passive(hand: StudHand, until_street: int = 8) -> None:
    """Everyone posts the bring-in, checks or calls until ``until_street`` is reached (or the end)."""
    while not hand.is_over and hand.street < until_street and hand.phase == "betting":
        seat = hand.actor
        assert seat is not None
        legal = hand.legal_actions()
        if legal.bring_in is not None:
            hand.bring_in(seat)
        else:
            hand.check_or_call(seat)


def ranks(text: str) -> tuple[object, ...]:
    """``"5 2 J"`` -> the Rank values, for comparing with ``wild_ranks``."""
    from bot.engine.cards.card import Rank

    return tuple(Rank.parse(t) for t in text.split())
