"""What a flop game's table decides for one hand, outside the rulings: a straddle, a bomb pot, and
the blinds a player posts out of position.

``HandOptions`` is given to the hand when it is built (``StudHand(..., options=...)``); the table
says when (a player's straddle, the dealer's bomb pot for the next hand, or every Nth hand). Stud
games ignore it. The choices and their sources are in docs/rules.md ("Flop games").

>>> HandOptions().straddle, HandOptions(bomb_pot=20).bomb_pot
(False, 20)
>>> HandOptions(bomb_pot=-1)
Traceback (most recent call last):
...
ValueError: a bomb pot's ante must be a whole number of chips above 0, or 0 for no bomb pot (got -1)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple


class Post(NamedTuple):
    """A seat posting out of position, as the table's blind rules ask: ``live`` chips count as its
    bet (a big blind to come into the game, or a missed big blind), ``dead`` chips go to the pot
    only (a missed small blind)."""

    seat: int
    live: int = 0
    dead: int = 0


@dataclass(frozen=True, slots=True)
class HandOptions:
    """``straddle``: the player under the gun (first left of the big blind) posts a blind raise of
    twice the big blind and acts last before the flop (ignored with fewer than four players, where
    that player is the button). ``bomb_pot``: every player antes this many chips, no blinds are
    posted, there is no betting before the flop, and the flop is dealt straight away (0: an
    ordinary hand). ``posts``: seats outside the blinds that post this hand (a new player's big
    blind, missed blinds), after the blinds; ignored in a bomb pot."""

    straddle: bool = False
    bomb_pot: int = 0
    posts: tuple[Post, ...] = ()

    def __post_init__(self) -> None:
        for post in self.posts:
            if not isinstance(post, Post) or any(
                    not isinstance(x, int) or isinstance(x, bool) or x < 0 for x in post):
                raise ValueError(f"a post is a seat and whole numbers of chips, not {post!r}")
        if len({post.seat for post in self.posts}) != len(self.posts):
            raise ValueError("a seat posts once a hand")
        if not isinstance(self.bomb_pot, int) or isinstance(self.bomb_pot, bool) or self.bomb_pot < 0:
            raise ValueError("a bomb pot's ante must be a whole number of chips above 0, or 0 for no "
                             f"bomb pot (got {self.bomb_pot!r})")
        if not isinstance(self.straddle, bool):
            raise ValueError(f"straddle is yes or no (True or False), not {self.straddle!r}")


NO_OPTIONS = HandOptions()
"""An ordinary hand."""


class Opening(NamedTuple):
    """What the forced bets leave for the pre-flop betting: the bet to call (``level``), how many
    full bets and raises it counts as (fixed limit's cap), the smallest raise (``raise_by``), and
    the seat whose left-hand neighbour acts first (``last``: the big blind or the straddler)."""

    level: int
    increments: int
    raise_by: int
    last: int
