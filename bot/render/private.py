"""A player's own view of their hand, sent only to them: their down and up cards and their best hand
right now under the current wild ranks.

>>> from bot.engine.cards import Rank, parse_cards
>>> cs = parse_cards("7c Kd Ks 5h")
>>> print(private_text(3, "fourth street", cs, parse_cards("Ks 5h"), None, (Rank.FIVE,), "any-card"))
Hand #3, fourth street. Your cards: [7♣ K♦] K♠ 5♥
Best now: three kings (5♥ is wild)
Wild: fives
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.cards import Card, Rank
from bot.engine.evaluator import evaluate
from bot.engine.showing import showing_value
from bot.render.cards import rank_list
from bot.render.narrate import dealt_cards, hand_value_text


def best_now(cards: Sequence[Card], wild_ranks: Sequence[Rank], wild_in_flush: str) -> str:
    """The best hand these cards make now: a full description with 5 to 7 cards; with fewer, the
    best group they make (``three kings``), wilds taking their best value."""
    wild = set(wild_ranks) | {Rank.FIVE}
    if len(cards) >= 5:
        return hand_value_text(evaluate(list(cards)[:7], wild, wild_in_flush=wild_in_flush))
    if not cards:
        return ""
    text = showing_value(list(cards), wild, showing_hand="wild-aware").describe()
    wilds = [str(c) for c in cards if c.rank in wild]
    if wilds:
        text += f" ({', '.join(wilds)} {'is' if len(wilds) == 1 else 'are'} wild)"
    return text


def private_text(
    hand_no: int,
    street: str,
    cards: Sequence[Card],
    up: Sequence[Card],
    community: Card | None,
    wild_ranks: Sequence[Rank],
    wild_in_flush: str,
) -> str:
    """The private message: hand and street, own cards as dealt (down cards in brackets), the
    community card if any, the best hand now and the wild ranks."""
    lines = [f"Hand #{hand_no}, {street}. Your cards: {dealt_cards(cards, up)}"]
    all_cards = list(cards) + ([community] if community is not None else [])
    if community is not None:
        lines.append(f"Community card: {community}")
    best = best_now(all_cards, wild_ranks, wild_in_flush)
    if best:
        lines.append(f"Best now: {best}")
    lines.append(f"Wild: {rank_list(wild_ranks)}")
    return "\n".join(lines)
