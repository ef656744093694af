"""What the Discord layer keeps in the store: the id of each table's table message (so a restart
finds it again without reading channel history), and finding one hand of a table by its number.

One row per table in ``table_messages`` (migration 5): the message and the hand it shows (none:
the between-hands lobby). Display preferences in ``display_prefs`` (migration 6): the guild's
``look`` (``pictures`` or ``text``, kept with member 0) and each member's ``dm`` (``every-street``
or ``down-cards``); a preference never set reads as None (the caller's default).
"""

from __future__ import annotations

from bot.store.base import StoreBase, check_id
from bot.store.errors import StoreError
from bot.store.hands import HandStore
from bot.store.records import HandRecord


class MessageStore(HandStore, StoreBase):
    """Table message ids and hands by number (see the module docstring)."""

    async def table_message(self, table_id: int) -> tuple[int, int | None] | None:
        """``(message id, hand id or None for the lobby)`` of the table's message, or None."""
        check_id(table_id, "table")
        async with self._transaction(write=False) as tx:
            row = await tx.one(
                "SELECT message_id, hand_id FROM table_messages WHERE table_id = ?", (table_id,)
            )
        return None if row is None else (int(row[0]), None if row[1] is None else int(row[1]))

    async def set_table_message(
        self, table_id: int, message_id: int | None, hand_id: int | None = None
    ) -> None:
        """Remember (or, with ``message_id`` None, forget) the table's message and the hand it shows."""
        check_id(table_id, "table")
        async with self._transaction() as tx:
            if message_id is None:
                await tx.run("DELETE FROM table_messages WHERE table_id = ?", (table_id,))
                return
            await tx.run(
                "INSERT INTO table_messages (table_id, message_id, hand_id) VALUES (?, ?, ?)"
                " ON CONFLICT (table_id) DO UPDATE SET message_id = excluded.message_id,"
                " hand_id = excluded.hand_id",
                (table_id, check_id(message_id, "message"), hand_id),
            )

    async def display_pref(self, guild_id: int, member_id: int, name: str) -> str | None:
        """The preference ``name`` (``look`` with ``member_id`` 0, or ``dm``), or None if never set."""
        check_id(guild_id, "server")
        async with self._transaction(write=False) as tx:
            value = await tx.value(
                "SELECT value FROM display_prefs WHERE guild_id = ? AND member_id = ? AND name = ?",
                (guild_id, member_id, name),
            )
        return None if value is None else str(value)

    async def set_display_pref(self, guild_id: int, member_id: int, name: str, value: str) -> None:
        """Keep a display preference (see ``display_pref``); ``StoreError`` for an unknown name."""
        check_id(guild_id, "server")
        if name not in ("look", "dm") or member_id < 0:
            raise StoreError(f"There is no display preference {name!r}.")
        async with self._transaction() as tx:
            await tx.run(
                "INSERT INTO display_prefs (guild_id, member_id, name, value, updated) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (guild_id, member_id, name) DO UPDATE SET value = excluded.value,"
                " updated = excluded.updated",
                (guild_id, member_id, name, value, tx.now),
            )

    async def hand_by_number(
        self, table_id: int, hand_no: int | None = None, *, finished: bool = False
    ) -> HandRecord | None:
        """Hand number ``hand_no`` of the table, or with None its last hand (its last finished one
        when ``finished``); None if there is no such hand."""
        check_id(table_id, "table")
        sql, params = "SELECT id FROM hands WHERE table_id = ?", [table_id]
        if hand_no is not None:
            sql += " AND hand_no = ?"
            params.append(hand_no)
        elif finished:
            sql += " AND status = 'finished'"
        async with self._transaction(write=False) as tx:
            hand_id = await tx.value(sql + " ORDER BY hand_no DESC LIMIT 1", params)
        return None if hand_id is None else await self.get_hand(int(hand_id))
