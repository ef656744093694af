"""Migration 4: the stored action log becomes PHH action strings (the log *is* the hand history).

Until schema 3 the table service stored each command as the player gave it (``p2 raise 40``,
``p1 all_in``, ``p3 timeout``, ``p1 complete``). Several of those say what was asked, not what
happened (an all-in may be a call or a raise; a timeout a check, a fold or the bring-in), so the
conversion replays each hand through the engine from its stored deck, stakes, rulings and starting
stacks, and writes the *resolved* command's PHH string (``StudHand.verify``): ``p1 cbr 495``,
``p3 f  # timed out``. The deal-order entry (``seats 3 1 2``) stays first, as it was.

A hand whose log cannot be replayed (it could not be resumed before either) keeps its old text;
the table service voids such an unfinished hand on start-up, as it always did.

>>> convert_log(["seats 2 1", "p1 bring_in", "p2 all_in", "p1 timeout"], deck=_DEMO_DECK,
...             stakes={"structure": "no-limit", "ante": 5, "bring_in": 10, "min_bet": 20},
...             rulings={}, starting={1: 500, 2: 800})
['seats 2 1', 'p1 pb', 'p2 cbr 495', 'p1 f  # timed out']
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import aiosqlite

from bot.engine.betting.stakes import TableStakes
from bot.engine.cards.card import FULL_DECK, Card
from bot.engine.cards.deck import Deck
from bot.engine.command import Command
from bot.engine.errors import IllegalAction
from bot.engine.games.rulings import Rulings
from bot.engine.hand.hand import StudHand
from bot.engine.phh.history import parse_seats_entry

_DEMO_DECK = tuple(c.code for c in FULL_DECK)


def convert_log(
    actions: Sequence[str],
    *,
    deck: Sequence[str],
    stakes: Mapping[str, Any],
    rulings: Mapping[str, Any],
    starting: Mapping[int, int],
) -> list[str]:
    """One hand's schema-3 log as PHH entries: the deal order first, then one resolved PHH action
    per command. ``deck``: card codes in deal order; ``stakes``/``rulings``: as stored (JSON
    objects); ``starting``: starting stack by table seat. Entries already in PHH are kept as they
    are (so converting twice changes nothing). Raises ``ValueError`` or ``IllegalAction`` if the
    log does not replay."""
    if not actions:
        return []
    order = parse_seats_entry(actions[0])
    if sorted(order) != sorted(starting):
        raise ValueError("the deal order does not match the players")
    hand = StudHand(
        [starting[n] for n in order], TableStakes.from_dict(dict(stakes)), Rulings.from_dict(dict(rulings)),
        Deck.from_order([Card.parse(code) for code in deck]),
    )
    out = [actions[0]]
    for text in actions[1:]:
        try:
            seat, command = Command.from_phh(text)
        except ValueError:
            seat, command = Command.from_codec(text)
        resolved = hand.verify(seat, command)
        hand.apply(seat, resolved)
        out.append(resolved.phh(seat))
    return out


def _object(text: str) -> dict[str, Any]:
    # The stored stakes or rulings (a JSON object). Not bot.store.base.load_json: the backend
    # imports the migrations, which import this module, and the base imports the backend.
    value = json.loads(text)
    assert isinstance(value, dict)
    return value


async def migrate_action_log(db: aiosqlite.Connection) -> None:
    """Rewrite every hand's log, inside migration 4's transaction (which lifts the append-only
    trigger around it)."""
    async with db.execute("SELECT id, deck, stakes, rulings FROM hands ORDER BY id") as cursor:
        hands = list(await cursor.fetchall())
    converted: list[tuple[int, list[str], list[str]]] = []
    for hand_id, deck, stakes, rulings in hands:
        async with db.execute(
            "SELECT action FROM hand_actions WHERE hand_id = ? ORDER BY seq", (hand_id,)
        ) as cursor:
            old = [row[0] for row in await cursor.fetchall()]
        if len(old) < 2:
            continue
        async with db.execute(
            "SELECT seat_no, starting_stack FROM hand_players WHERE hand_id = ?", (hand_id,)
        ) as cursor:
            starting = {int(seat): int(stack) for seat, stack in await cursor.fetchall()}
        try:
            new = convert_log(old, deck=str(deck).split(), stakes=_object(stakes),
                              rulings=_object(rulings), starting=starting)
        except (ValueError, IllegalAction, KeyError, IndexError):
            continue  # left as it was: see the module docstring
        if new != old:
            converted.append((hand_id, old, new))
    for hand_id, old, new in converted:
        for seq, (before, after) in enumerate(zip(old, new, strict=True), start=1):
            if before != after:
                await db.execute(
                    "UPDATE hand_actions SET action = ? WHERE hand_id = ? AND seq = ?", (after, hand_id, seq)
                )
