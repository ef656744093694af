"""What the low rankings share: the value they return and the words of its name.

A ``LowValue`` is one player's low: an integer ``key`` (lower is better; keys are comparable only
within one ranking and one number of cards), the ranks of the hand in order of importance, the
cards that make it and the name players say ("eight-six low", "wheel", "pair of nines").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.engine.cards.card import Card, Rank


@dataclass(frozen=True, slots=True)
class LowValue:
    """One hand's value in a low ranking.

    ``key``: lower is better (equal keys tie). ``ranks``: the ranks that play, most important
    first (ace 1 where aces are low, 14 where they are high). ``cards``: the cards that play, in
    the same order. ``name``: as players say it, lower case (``"eight-six low"``).
    """

    key: int
    ranks: tuple[int, ...]
    cards: tuple[Card, ...]
    name: str

    def beats(self, other: LowValue) -> bool:
        """This low is strictly better (lower) than ``other``."""
        return self.key < other.key

    def describe(self) -> str:
        """The name with the ranks, capitalised: ``"Eight-six low (8-6-4-3-A)"``."""
        spelt = spell(self.ranks)
        head = self.name[0].upper() + self.name[1:]
        return head if spelt in self.name else f"{head} ({spelt})"

    def __str__(self) -> str:
        return self.describe()


def pick_cards(cards: Iterable[Card], ranks: Iterable[int], ace: int) -> tuple[Card, ...]:
    """The cards that play ``ranks`` (ace written as ``ace``: 1 or 14), first of each rank first."""
    left = list(cards)
    chosen: list[Card] = []
    for rank in ranks:
        wanted = Rank.ACE if rank == ace else Rank(rank)
        for index, card in enumerate(left):
            if card.rank is wanted:
                chosen.append(left.pop(index))
                break
    return tuple(chosen)

_CHARS = "-A23456789TJQKA"   # index = rank, the ace at 1 and 14


def noun(low_rank: int) -> str:
    """``"ace"`` for 1 or 14, otherwise the rank's singular noun (``6`` -> ``"six"``)."""
    return Rank.ACE.noun if low_rank in (1, 14) else Rank(low_rank).noun


def plural(low_rank: int) -> str:
    """``"aces"`` for 1 or 14, otherwise the rank's plural (``6`` -> ``"sixes"``)."""
    return Rank.ACE.plural if low_rank in (1, 14) else Rank(low_rank).plural


def spell(low_ranks: Iterable[int]) -> str:
    """Ranks as players write a low: ``8-6-4-3-A`` (``T`` for ten)."""
    return "-".join(_CHARS[r] for r in low_ranks)


def grouped_name(groups: list[tuple[int, int]]) -> str:
    """A paired hand's name from ``(count, rank)`` groups, most important first:
    ``"pair of nines"``, ``"two pair, nines and fours"``, ``"three nines"``,
    ``"nines full of fours"``, ``"four nines"``."""
    counts = [c for c, _ in groups] + [0]
    top = groups[0][1]
    if counts[0] == 4:
        return f"four {plural(top)}"
    if counts[0] == 3:
        if counts[1] == 2:
            return f"{plural(top)} full of {plural(groups[1][1])}"
        return f"three {plural(top)}"
    if counts[1] == 2:
        return f"two pair, {plural(top)} and {plural(groups[1][1])}"
    return f"pair of {plural(top)}"
