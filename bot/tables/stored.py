"""Reading finished hands back from the store for checks (``wildstud verify --hand``)."""

from __future__ import annotations

import asyncio
import os

from bot.store import Store, StoreError


async def revealed_deck(store: Store, hand_id: int) -> tuple[str, str, str]:
    """``(commitment, salt, deck text)`` of a finished or voided hand.

    Raises ``LookupError`` if there is no such hand, ``ValueError`` while it is still being played
    (its deck stays secret until it ends).
    """
    try:
        hand = await store.get_hand(hand_id)
    except StoreError as exc:
        reason = exc.reason.rstrip(".")
        raise LookupError(f"hand {hand_id}: {reason[:1].lower()}{reason[1:]}") from None
    if hand.status == "in_progress":
        raise ValueError(f"hand {hand_id} is still being played; its deck is revealed when it ends")
    return hand.commitment, hand.salt, "".join(hand.deck)


def load_revealed_deck(path: str | os.PathLike[str], hand_id: int) -> tuple[str, str, str]:
    """``revealed_deck`` for a database file, opened read-only and closed here."""

    async def read() -> tuple[str, str, str]:
        store = await Store.open_readonly(path)
        try:
            return await revealed_deck(store, hand_id)
        finally:
            await store.close()

    return asyncio.run(read())
