"""What razz and seven-card stud hi-lo change in a stud hand, as small pure functions (issue 19).

The hand asks these where a high game would look at high cards: who brings in
(``high_door_index``: razz's highest door card), who acts first from fourth street
(``low_hand_index``: razz's lowest showing hand), which shown hands win the low
(``low_winners``), how a hi-lo pot is cut (``hi_lo_shares``) and who gets the odd chip between
tied lows (``low_card_order``). The rules and their sources are in docs/rules.md ("Razz and stud
hi-lo").

>>> from bot.engine.cards.card import parse_cards
>>> high_door_index(parse_cards("Kc As Kh 7d"))     # kings tie: the higher suit (hearts) brings in
2
>>> low_hand_index({0: parse_cards("8c 2d"), 2: parse_cards("7c 4d"), 3: parse_cards("Ac Ad")})
2
>>> hi_lo_shares(101, [0], [1, 2])                   # odd chip to the high half, low half quartered
{0: 51, 1: 25, 2: 25}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.engine.betting.pots import share_pot
from bot.engine.cards.card import Card, Rank
from bot.engine.values.ace_to_five import ace_to_five, ace_to_five_key, eight_or_better
from bot.engine.values.badugi import badugi
from bot.engine.values.deuce_to_seven import deuce_to_seven
from bot.engine.values.low import LowValue


def low_value(split: str, cards: Sequence[Card]) -> LowValue | None:
    """The low that plays in a game split ``split``: razz's ace-to-five (``low``), stud hi-lo's
    eight-or-better (``high-low``; ``None``: no low), deuce-to-seven's, or the badugi; ``None`` in a
    game without a low."""
    if split == "low":
        return ace_to_five(cards)
    if split == "high-low":
        return eight_or_better(cards)
    if split == "deuce-to-seven":
        return deuce_to_seven(cards)
    if split == "badugi":
        return badugi(cards)
    return None


def _low_order(card: Card) -> tuple[int, int]:
    """A card's place with the ace low: rank (ace 1), then suit (clubs lowest)."""
    return (1 if card.rank is Rank.ACE else int(card.rank), int(card.suit))


def high_door_index(doors: Sequence[Card]) -> int:
    """The position in ``doors`` of the card that brings in razz: the highest rank with the ace
    low (a king is the worst razz card), then the highest suit (K♠ before K♥)."""
    if not doors:
        raise ValueError("no door cards: the bring-in needs at least one player")
    return max(range(len(doors)), key=lambda i: _low_order(doors[i]))


def low_hand_index(ups: Mapping[int, Sequence[Card]], *, by_suit: bool = False) -> int:
    """The seat (a key of ``ups``, which is in position order) whose up cards make the lowest
    ace-to-five hand, to act first from fourth street. Equal hands: the first in position, or
    with ``by_suit`` the one whose highest card is the lower by suit (6♣-2 before 6♦-2)."""
    def key(seat: int) -> tuple[int, tuple[tuple[int, int], ...]]:
        cards = ups[seat]
        tie = tuple(sorted((_low_order(c) for c in cards), reverse=True)) if by_suit else ()
        return ace_to_five_key(cards), tie

    return min(ups, key=key)


def low_winners(lows: Mapping[int, LowValue | None], contenders: Sequence[int]) -> list[int]:
    """The ``contenders`` holding the best low (lowest key); empty when none has a low."""
    keyed = {s: v.key for s in contenders if (v := lows.get(s)) is not None}
    if not keyed:
        return []
    best = min(keyed.values())
    return [s for s in contenders if keyed.get(s) == best]


def low_card_order(winners: Sequence[int], cards: Mapping[int, Sequence[Card]]) -> list[int]:
    """Tied low hands in odd-chip order: the lowest card by suit among all of a seat's cards
    first (ace low; Robert's Rules of Poker, "Ties")."""
    return sorted(winners, key=lambda s: min(_low_order(c) for c in cards[s]))


def hi_lo_shares(amount: int, high_order: Sequence[int], low_order: Sequence[int]) -> dict[int, int]:
    """A hi-lo pot: half to the high winners, half to the low winners, each half shared in the
    given odd-chip order; an odd chip between the halves goes to the high half. No low winner:
    the high takes it all. A seat in both halves gets both shares (a scoop, or three quarters)."""
    if not low_order:
        return share_pot(amount, high_order)
    low_half = amount // 2
    shares = share_pot(amount - low_half, high_order)
    for seat, chips in share_pot(low_half, low_order).items():
        shares[seat] = shares.get(seat, 0) + chips
    return shares
