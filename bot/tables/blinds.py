"""Blinds at the table (issue 21): the blinds a stakes record gives a blind game, and who is dealt
into a blind game's hand when some seats wait for the big blind.

**Stakes and blinds.** A table has one stakes record for every game it deals, so a dealer's-choice
table passes from stud to Hold'em without the dealer setting stakes again: a flop hand is dealt
at ``TableStakes.with_standard_blinds()`` (the blinds the dealer set, else the big blind one small
bet or the minimum bet, the small blind half of it; docs/rules.md, "Flop games at the table").

**Waiting for the big blind.** A player who sits down (or comes back from sitting out or being
away) while the game is running waits for the big blind to reach them before they are dealt into
a blind game: they never play a round of the button without paying a big blind in it, and they never
post out of turn. This is the card rooms' and the online home games' default (Robert's Rules
"New players"; PokerNow and PokerStars Home Games seat a newcomer "waiting for the big blind").
The missed blinds of a player who sat out are settled the same way: back in when the big blind
comes round, nothing owed (docs/rules.md, "Flop games at the table", says why not to post).
A waiting player is never given the button; stud and the other games without blinds deal them at
once (each player antes, nobody plays for free).

>>> dealt_in([1, 2, 3, 4], waiting={3}, button=1)
[1, 2, 3, 4]
>>> dealt_in([1, 2, 3, 4], waiting={2}, button=1)
[1, 3, 4]
>>> dealt_in([1, 2, 3, 4], waiting={2}, button=4)
[1, 2, 3, 4]
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from bot.engine.betting.stakes import TableStakes
from bot.tables.options import BOMB_POT_BIG_BLINDS, TableOptions


def clockwise_from(numbers: Sequence[int], button: int) -> list[int]:
    """The seat numbers (ascending) in deal order: the first seat left of ``button`` first and the
    button last (``button`` need not be among them: the seats after it, then the rest)."""
    after = [n for n in numbers if n > button]
    before = [n for n in numbers if n <= button]
    return after + before


def big_blind_seat(numbers: Sequence[int], button: int) -> int:
    """The seat that posts the big blind in a hand dealt to ``numbers`` (ascending, two or more)
    with the button on ``button``: the second seat left of the button, or heads-up the seat that is
    not the button (the button posts the small blind)."""
    order = clockwise_from(numbers, button)
    return order[0] if len(order) == 2 else order[1]


def dealt_in(ready: Sequence[int], waiting: Collection[int], button: int) -> list[int]:
    """Who a blind game deals to, ascending: every ready seat that is not ``waiting``, and a waiting
    seat whose big blind it is (as the big blind of those seats and it). With fewer than two seats
    not waiting, everyone ready is dealt in (nobody would have a big blind to wait for)."""
    playing = [n for n in ready if n not in waiting]
    if len(playing) < 2:
        return list(ready)
    for n in clockwise_from(ready, button):       # the first clockwise, when two could be
        if n in waiting and big_blind_seat(sorted([*playing, n]), button) == n:
            return sorted([*playing, n])
    return playing


def bomb_pot_ante(options: TableOptions, stakes: TableStakes) -> int:
    """What each player antes in a bomb pot at these stakes: the table's ``bomb_pot_ante``, else
    ``BOMB_POT_BIG_BLINDS`` big blinds (the stakes' blinds, or their standard ones)."""
    return options.bomb_pot_ante or BOMB_POT_BIG_BLINDS * stakes.with_standard_blinds().big_blind


def is_bomb_pot(options: TableOptions, called: bool, hand_no: int) -> bool:
    """Whether a flop hand numbered ``hand_no`` is a bomb pot: the dealer ``called`` one, or the
    hand number is a multiple of ``bomb_pot_every``.

    >>> is_bomb_pot(TableOptions(bomb_pot_every=5), False, 10), is_bomb_pot(TableOptions(), False, 10)
    (True, False)
    """
    every = options.bomb_pot_every
    return called or (every is not None and hand_no % every == 0)
