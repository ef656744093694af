"""The wild list with its origins (SPEC §3), e.g. ``5♥ (Bea, 3rd) → 2♦ (Cid): twos are wild``.

Fives are always wild and come first; each later rank shows the face-up five that armed the follow
(whose it was and on which street) and the card that set the rank.

>>> from bot.engine.cards.card import Card, Rank
>>> from bot.engine.games.follow import WildEvent
>>> ev = WildEvent(Card.parse("5h"), 1, 3, Card.parse("2d"), 2, 3, Rank.TWO, "follow")
>>> wild_line(ev, ["Ann", "Bea", "Cid"])
'5♥ (Bea, 3rd) → 2♦ (Cid): twos are wild'
>>> print("\\n".join(wild_list((Rank.FIVE, Rank.TWO), (ev,), ["Ann", "Bea", "Cid"])))
fives are wild
5♥ (Bea, 3rd) → 2♦ (Cid): twos are wild
>>> wild_summary((Rank.FIVE, Rank.TWO))
'Wild: fives and twos'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.engine.cards.card import Rank
from bot.engine.games.follow import WildEvent
from bot.render.cards import rank_list, street_ordinal


def _who(seat: int | None, names: Sequence[str]) -> str:
    if seat is None:
        return "community"
    return names[seat] if 0 <= seat < len(names) else f"seat {seat + 1}"


def wild_line(event: WildEvent, names: Sequence[str]) -> str:
    """One wild rank's origin; ``names`` are the hand's players in deal order (seat 0 first)."""
    five_at = f"{_who(event.five_seat, names)}, {street_ordinal(event.street)}"
    if event.how == "indicator":
        follow_at = "turned up in the centre"
    elif event.how == "announced":
        follow_at = f"{_who(event.follow_seat, names)}, face down, announced"
    else:
        follow_at = _who(event.follow_seat, names)
    return f"{event.five} ({five_at}) → {event.follow_card} ({follow_at}): {event.rank.plural} are wild"


def wild_list(
    wild_ranks: Sequence[Rank], events: Iterable[WildEvent], names: Sequence[str], *, per_player: bool = False
) -> list[str]:
    """The wild ranks in force, in the order they became wild: the game's fixed ranks first (fives
    in Sex in the Middle East), then each follow still in force with its origin (a follower replaced
    in Follow the Queen is gone). ``per_player``: low-hole-wild's own wild for each player.

    >>> wild_list((), (), [])
    ['no wild cards']
    """
    made = {ev.rank: ev for ev in events if ev.rank in wild_ranks}      # the latest event per rank
    fixed = [r for r in wild_ranks if r not in made]
    lines = [f"{rank_list(fixed)} are wild"] if fixed else []
    lines.extend(wild_line(made[r], names) for r in wild_ranks if r in made)
    if per_player:
        lines.append("each player's lowest down card is wild, for that player only")
    return lines or ["no wild cards"]


def wild_summary(wild_ranks: Sequence[Rank]) -> str:
    """A short line: ``Wild: fives, twos and jacks``."""
    return f"Wild: {rank_list(wild_ranks)}"
