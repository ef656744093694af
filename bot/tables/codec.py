"""How the table service writes a hand's action log in the store: the deal order, then PHH.

The first entry of every hand is the deal order: ``seats 3 5 1`` means engine seat 0 (PHH ``p1``)
is table seat 3, seat 1 is table seat 5, seat 2 is table seat 1 (the dealer button is on the last);
it is PHH's ``seats`` field. A flop hand's straddle, bomb pot and out-of-position posts follow it
(``seats 3 5 1; straddle; bomb-pot 100; post p3 20 0``: ``HandOptions``). Every later entry is one
PHH action string, the *resolved* command the engine performed (``StudHand.verify``): ``p2 cbr
40``, ``p1 pb``, ``p3 f  # timed out``. With the deck order stored with the hand, the log is the
hand history: replaying the entries through ``StudHand.apply`` rebuilds the hand exactly, which is
how a hand is resumed after a restart.
Databases written before schema 4 held the commands as typed (``p2 raise 40``); migration 4
(``bot.store.action_log``) rewrites them.

>>> from bot.engine.command import Command, Kind
>>> encode_action(1, Command(Kind.RAISE, 40)), decode_action("p2 cbr 40")[0]
('p2 cbr 40', 1)
>>> encode_seats((3, 5, 1)), decode_seats("seats 3 5 1")
('seats 3 5 1', (3, 5, 1))
"""

from __future__ import annotations

from bot.engine.command import Command
from bot.engine.hand.options import NO_OPTIONS, HandOptions, Post
from bot.engine.phh.history import parse_seats_entry, seats_entry


def encode_seats(seat_nos: tuple[int, ...], options: HandOptions = NO_OPTIONS) -> str:
    """The deal-order entry for table seats in deal order, with the hand's straddle and bomb pot
    after it (``seats 3 5 1; straddle; bomb-pot 100``), so a restart deals the same hand."""
    parts = [seats_entry(seat_nos)]
    if options.straddle:
        parts.append("straddle")
    if options.bomb_pot:
        parts.append(f"bomb-pot {options.bomb_pot}")
    parts += [f"post p{post.seat + 1} {post.live} {post.dead}" for post in options.posts]
    return "; ".join(parts)


def decode_seats(text: str) -> tuple[int, ...]:
    """Table seats in deal order; raises ``ValueError`` if ``text`` is not a deal-order entry."""
    return parse_seats_entry(text.split(";", 1)[0])


def decode_options(text: str) -> HandOptions:
    """The straddle, bomb pot and out-of-position posts a deal-order entry records (``NO_OPTIONS``
    for none); raises ``ValueError`` for anything else after the seats.

    >>> decode_options("seats 3 5 1; straddle; bomb-pot 100").bomb_pot
    100
    >>> decode_options("seats 3 5 1 4; post p3 20 0").posts
    (Post(seat=2, live=20, dead=0),)
    >>> decode_seats("seats 3 5 1; straddle"), decode_options("seats 3 5 1") == NO_OPTIONS
    ((3, 5, 1), True)
    """
    straddle, bomb, posts = False, 0, []
    for part in text.split(";")[1:]:
        words = part.split()
        if words == ["straddle"]:
            straddle = True
        elif len(words) == 2 and words[0] == "bomb-pot" and words[1].isdigit():
            bomb = int(words[1])
        elif (len(words) == 4 and words[0] == "post" and words[1][:1] == "p" and words[1][1:].isdigit()
              and words[2].isdigit() and words[3].isdigit()):
            posts.append(Post(int(words[1][1:]) - 1, int(words[2]), int(words[3])))
        else:
            raise ValueError(f"not a hand option: {part.strip()!r}")
    return HandOptions(straddle=straddle, bomb_pot=bomb, posts=tuple(posts))


def encode_action(seat: int, command: Command) -> str:
    """The PHH action string of a resolved ``command`` by engine ``seat`` (``ValueError`` if it is
    not resolved: ask ``StudHand.verify`` first)."""
    return command.phh(seat)


def decode_action(text: str) -> tuple[int, Command]:
    """``(engine seat, command)`` of a stored PHH action; raises ``ValueError`` for anything else."""
    return Command.from_phh(text)
