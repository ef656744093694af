"""When the dealer's void needs the other players' consent (issue 18, "a dealer who can void a lost
hand").

Voiding gives every chip back, so a dealer who is in the hand could void it after losing. Card
rooms settle a misdeal before the action goes on, and a dispute by the floor, never by a player
who stands to gain (see docs/rules.md, "Voiding a hand"). So here, unless the one asking has
Discord's Manage Server permission (the server's admins, the floor), a void needs the agreement
of every other player still in the hand:

* once the showdown has begun (any hand of it shown: whoever is winning is known), and
* whenever the one asking has chips in the hand (antes count: they would get them back).

Otherwise (a dealer who is not in the hand, before the showdown: a misdeal, a stuck hand) the
dealer voids at once, as before.
"""

from __future__ import annotations

from bot.tables.notices import Actor
from bot.tables.state import LiveHand


def consent_reason(live: LiveHand, asker: Actor) -> str | None:
    """Why voiding ``live`` needs the other players' consent when ``asker`` asks, or None."""
    if asker.manage_server:
        return None
    reasons: list[str] = []
    if live.in_showdown or live.showdown_lines:
        reasons.append("the showdown has begun")
    seat = live.seat_of(asker.member)
    if seat is not None and live.engine.starting_stacks[seat] > live.engine.stack(seat):
        reasons.append(f"{live.names[seat]} has chips in it")
    return " and ".join(reasons) or None


def consenters(live: LiveHand, asker: Actor) -> dict[int, str]:
    """Member -> name of the players whose agreement a void needs: everyone still in the hand but
    the one asking."""
    return {live.members[s]: live.names[s] for s in live.engine.live_seats if live.members[s] != asker.member}


def join(names: list[str] | tuple[str, ...]) -> str:
    """``"Ann"``, ``"Ann and Ben"``, ``"Ann, Ben and Cat"``.

    >>> join(["Ann", "Ben", "Cat"])
    'Ann, Ben and Cat'
    """
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]
