"""A player's own view of their hand, sent only to them: their down and up cards and their best hand
right now under the current wild ranks.

>>> from bot.engine.cards.card import Rank, parse_cards
>>> cs = parse_cards("7c Kd Ks 5h")
>>> print(private_text(3, "fourth street", cs, parse_cards("Ks 5h"), None, (Rank.FIVE,), "any-card"))
Hand #3, fourth street. Your cards: [7♣ K♦] K♠ 5♥
Best now: Three of a kind, kings, seven kicker: K♠ K♦ K♥ 7♣ (wild: 5♥ as K♥)
Wild: fives
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from bot.engine.cards.card import Card, Rank
from bot.engine.games.catalogue import Game
from bot.engine.values.ace_to_five import ace_to_five, eight_or_better
from bot.engine.values.badugi import badugi
from bot.engine.values.board import flop_high, flop_low
from bot.engine.values.deuce_to_seven import deuce_to_seven
from bot.engine.values.evaluator import stand_in
from bot.engine.values.evaluator_tables import WildInFlush
from bot.engine.values.low import LowValue
from bot.engine.values.showing import ShowingCategory, ShowingValue, showing_value
from bot.engine.values.valuation import best_value
from bot.render.cards import cards as card_text
from bot.render.cards import rank_list
from bot.render.narrate import dealt_cards, hand_value_text, low_value_text


def best_now(
    cards: Sequence[Card], wild_ranks: Sequence[Rank], wild_in_flush: WildInFlush,
    board: Collection[Card] = (),
) -> str:
    """The best hand these cards make now (``wild_ranks``: the player's own wild set, as at the
    showdown), in one format from third street to seventh: the hand's
    name, the cards as they play and what each wild stands for (``Three of a kind, kings, seven
    kicker: K♠ K♦ K♥ 7♣ (wild: 5♥ as K♥)``). With fewer than five cards it is the best group
    they make (no straights or flushes yet). A wild names a card neither held nor among ``board``
    (the other players' up cards) where the rank has one left."""
    wild = frozenset(wild_ranks)         # exactly the showdown's set (``StudHand.seat_wilds``)
    if len(cards) >= 5:
        return hand_value_text(best_value(list(cards), wild, wild_in_flush=wild_in_flush), board)
    if not cards:
        return ""
    value = showing_value(list(cards), wild, showing_hand="wild-aware")
    taken = set(cards) | set(board)
    stands: dict[Card, Card] = {}
    for card in cards:
        if card.rank in wild:        # every wild copies the best group (showing_value's rule)
            stands[card] = stand_in(value.ranks[0], taken - {card}, card)
            taken.add(stands[card])
    order = {rank: i for i, rank in enumerate(value.ranks)}
    # As the evaluator shows five cards: groups first, naturals before the wilds' stand-ins.
    naturals = sorted((c for c in cards if c not in stands), reverse=True)
    played = sorted([*naturals, *stands.values()], key=lambda c: order[c.rank])
    text = f"{_group_name(value)}: {card_text(played)}"
    if stands:
        text += " (wild: " + ", ".join(
            f"{w} as itself" if to == w else f"{w} as {to}" for w, to in stands.items()) + ")"
    return text


LOW_VALUES: dict[str, Callable[[Sequence[Card]], LowValue]] = {
    "low": ace_to_five, "deuce-to-seven": deuce_to_seven, "badugi": badugi,
}
"""The low a hand is named by in each game ranked low only (``Game.split``): razz's ace-to-five,
triple draw's deuce-to-seven (``seven-five low``, ``number one``), badugi (``three-card badugi,
7-4-2``)."""


def game_best_now(
    cards: Sequence[Card], wild_ranks: Sequence[Rank], wild_in_flush: WildInFlush,
    board: Collection[Card] = (), ranking: str = "high",
) -> str:
    """``best_now`` in the hand's game: in razz (``ranking = "low"``) the ace-to-five low
    (``eight-six low: 8♥ 6♣ 4♦ 3♠ A♠``), in deuce-to-seven and badugi their lows (``LOW_VALUES``);
    in stud hi-lo the high hand, then the eight-or-better low
    once there are five cards (``...; no low``)."""
    named_low = LOW_VALUES.get(ranking)
    if named_low is not None:
        return low_value_text(named_low(cards)) if cards else ""
    high = best_now(cards, wild_ranks, wild_in_flush, board)
    if ranking == "high-low" and len(cards) >= 5:
        low = eight_or_better(cards)
        high += f"; {low_value_text(low)}" if low is not None else "; no low"
    return high


def flop_best_now(game: Game, hole: Sequence[Card], board: Sequence[Card], wild_ranks: Sequence[Rank],
                  wild_in_flush: WildInFlush) -> str:
    """A flop game's best hand now: from the flop on, the five cards the showdown would play with
    what each wild stands for (and in hi-lo the eight-or-better low, or ``no low``); before the
    flop, Hold'em's best group of the hole cards, and nothing for Omaha (two of its cards play with
    three of a board not dealt yet)."""
    if len(board) < 3:
        return "" if game.exact_hole else best_now(hole, wild_ranks, wild_in_flush)
    text = hand_value_text(flop_high(hole, board, wild_ranks, exact_hole=game.exact_hole,
                                     wild_in_flush=wild_in_flush))
    if game.has_low:
        low = flop_low(hole, board, wild_ranks, exact_hole=game.exact_hole)
        text += f"; {low_value_text(low)}" if low is not None else "; no low"
    return text


def _group_name(value: ShowingValue) -> str:
    """``Three of a kind, kings, seven kicker`` -- the words of ``HandValue.describe(kickers=True)``."""
    ranks, category = value.ranks, value.category
    if category is ShowingCategory.FOUR_OF_A_KIND:
        text, rest = f"Four of a kind, {ranks[0].plural}", ranks[1:]
    elif category is ShowingCategory.THREE_OF_A_KIND:
        text, rest = f"Three of a kind, {ranks[0].plural}", ranks[1:]
    elif category is ShowingCategory.TWO_PAIR:
        text, rest = f"Two pair, {ranks[0].plural} and {ranks[1].plural}", ranks[2:]
    elif category is ShowingCategory.ONE_PAIR:
        text, rest = f"One pair, {ranks[0].plural}", ranks[1:]
    else:
        text, rest = f"High card, {ranks[0].noun}", ranks[1:]
    if rest:
        text += ", " + "-".join(r.noun for r in rest) + (" kicker" if len(rest) == 1 else " kickers")
    return text


def flop_private_text(hand_no: int, street: str, hole: Sequence[Card], board: Sequence[Card], best: str,
                      wild_ranks: Sequence[Rank]) -> str:
    """A flop game's private message: hand and street, the hole cards, the board, the best hand
    now (``best``: ``flop_best_now``) and, when the dealer made a rank wild, the wild ranks.

    >>> from bot.engine.cards.card import parse_cards
    >>> from bot.engine.games.catalogue import GAMES
    >>> hole, board = parse_cards("Ah Kd"), parse_cards("Kh 7c 2d")
    >>> best = flop_best_now(GAMES["texas-holdem"], hole, board, (), "any-card")
    >>> print(flop_private_text(4, "flop", hole, board, best, ()))
    Hand #4, flop. Your cards: [A♥ K♦]
    Board: K♥ 7♣ 2♦
    Best now: One pair, kings, ace-seven-two kickers: K♥ K♦ A♥ 7♣ 2♦
    """
    lines = [f"Hand #{hand_no}, {street}. Your cards: [{card_text(hole)}]"]
    if board:
        lines.append(f"Board: {card_text(board)}")
    if best:
        lines.append(f"Best now: {best}")
    if wild_ranks:
        lines.append(f"Wild: {rank_list(wild_ranks)}")
    return "\n".join(lines)


def private_text(
    hand_no: int,
    street: str,
    cards: Sequence[Card],
    up: Sequence[Card],
    community: Card | None,
    wild_ranks: Sequence[Rank],
    wild_in_flush: WildInFlush,
    board: Collection[Card] = (),
    ranking: str = "high",
    *,
    best: str | None = None,
) -> str:
    """The private message: hand and street, own cards as dealt (down cards in brackets), the
    community card if any, the best hand now and the wild ranks. ``board``: the other players' up
    cards, which the wilds' stand-ins avoid. ``ranking``: ``"low"`` in razz, ``"high-low"`` in
    stud hi-lo (``game_best_now``). ``best``: that best hand, when the caller has it already.

    >>> from bot.engine.cards.card import parse_cards
    >>> cards = parse_cards("Ah 5d 9c")
    >>> print(private_text(2, "third street", cards, cards[2:], None, (), "any-card"))
    Hand #2, third street. Your cards: [A♥ 5♦] 9♣
    Best now: High card, ace, nine-five kickers: A♥ 9♣ 5♦
    No wild cards
    """
    lines = [f"Hand #{hand_no}, {street}. Your cards: {dealt_cards(cards, up)}"]
    all_cards = list(cards) + ([community] if community is not None else [])
    if community is not None:
        lines.append(f"Community card: {community}")
    if best is None:
        best = game_best_now(all_cards, wild_ranks, wild_in_flush, board, ranking)
    if best:
        lines.append(f"Best now: {best}")
    lines.append(f"Wild: {rank_list(wild_ranks)}" if wild_ranks else "No wild cards")
    return "\n".join(lines)
