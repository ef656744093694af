"""When the dealer's void needs the other players' consent (issue 18, "a dealer who can void a lost
hand").

Voiding gives every chip back, so a dealer who is in the hand could void it after losing. Card
rooms settle a misdeal before the action goes on, and a dispute by the floor, never by a player
who stands to gain (see docs/rules.md, "Voiding a hand"). So here, unless the one asking has
Discord's Manage Server permission (the server's admins, the floor), a void needs the agreement
of every other player still in the hand:

* once the showdown has begun (any hand of it shown: whoever is winning is known), and
* whenever the one asking is dealt in: with chips in (antes count: they would get them back) or
  not (with ante 0 a dealer who has only looked at their own down cards could still void a bad
  start and throw away everyone else's good one).

Otherwise (a dealer who is not in the hand, before the showdown: a misdeal, a stuck hand) the
dealer voids at once, as before.

A request lasts only while its reason holds (``lapse``): it lapses when the showdown begins, and
every answer asks again, so an agreement given before the showdown never counts after it.
"""

from __future__ import annotations

from bot.tables.notices import Actor, NoticeKind
from bot.tables.state import LiveHand, Table

FLOOR = "someone with Manage Server"
"""Who may void a hand without the players' consent, as a void request names them on Discord
(``Actor.manage_server``); the terminal has nobody above the players (``TableService(floor="")``)."""


def consent_reason(live: LiveHand, asker: Actor) -> str | None:
    """Why voiding ``live`` needs the other players' consent when ``asker`` asks, or None."""
    if asker.manage_server:
        return None
    reasons: list[str] = []
    if live.in_showdown or live.showdown_lines:
        reasons.append("the showdown has begun")
    seat = live.seat_of(asker.member)
    if seat is not None:
        reasons.append(f"{live.names[seat]} is dealt in")
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


def lapse(table: Table) -> str | None:
    """End the table's void request if the reason for consent changed since it was made (the
    showdown began); returns what changed, or None when the request stands (or there is none)."""
    request, live = table.void_request, table.hand
    if request is None or live is None or live.hand_id != request.hand_id:
        return None
    why = consent_reason(live, Actor(request.asker, request.asker_name))
    if why == request.why:
        return None
    table.void_request = None
    change = f"the reason for consent is now that {why}" if why else "it no longer needs consent"
    table.post(NoticeKind.INFO, f"The request to void hand #{live.hand_no} lapsed: {change}.", live.hand_id)
    return change
