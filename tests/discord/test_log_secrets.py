"""Secrets stay out of the logs at every level (issue 18): with ``LOG_LEVEL=DEBUG`` configured as
``wildstud run`` configures it, a whole hand through the fake Discord writes no deck order, salt,
down card or private message into any log line (aiosqlite logs query parameters at DEBUG and
discord.py request bodies and gateway events)."""

from __future__ import annotations

import io
import json
import logging
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.cli.run import configure_logging
from bot.engine.cards import Card
from bot.render.cards import card as shown_card
from bot.tables.notices import TableKey
from tests.discord.helpers import new_bot, open_table, play_passively
from tests.fakediscord import FakeDiscord, start_bot


@pytest.fixture
def debug_log() -> Iterator[io.StringIO]:
    """The root logger set up by ``wildstud run``'s own code at DEBUG, writing to a string; put back
    as it was afterwards."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    levels = {name: logging.getLogger(name).level for name in ("aiosqlite", "discord", "asyncpg", "aiohttp",
                                                                 "websockets", "PIL", "asyncio")}
    stream = io.StringIO()
    configure_logging("DEBUG", stream)
    try:
        yield stream
    finally:
        for handler in list(root.handlers):
            if handler not in handlers:
                root.removeHandler(handler)
        root.setLevel(level)
        for name, old in levels.items():
            logging.getLogger(name).setLevel(old)


def forms(text: str) -> set[str]:
    """``text`` as it may appear in a log line: itself, JSON-escaped (request bodies), repr'd."""
    return {text, json.dumps(text)[1:-1], repr(text)[1:-1]}


async def test_a_hand_at_debug_level_logs_no_secret(
    fake_discord: FakeDiscord, tmp_path: Path, debug_log: io.StringIO
) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob = guild.member("alice"), guild.member("bob")
    poker = guild.channel("poker")
    await open_table(fake, alice, poker, [alice, bob])
    await fake.slash(alice, "table deal", channel=poker)
    await play_passively(fake, guild, poker, 1)

    text = debug_log.getvalue()
    assert "bot." in text or "discord" in text, "the log was written"      # DEBUG is really on
    table_id = bot.service.table(TableKey(guild.id, poker.id)).table_id
    [hand] = await bot.store.table_hands(table_id)
    secrets = {hand.salt, " ".join(hand.deck), " ".join(hand.deck[:4])}
    for member in (alice, bob):
        for dm in fake.dms_for(member):
            secrets |= {line for line in dm.text.splitlines()
                        if "Your cards" in line or "opening" in line.lower()}
    for secret in secrets:
        for form in forms(secret):
            assert form not in text, f"a secret reached the log: {secret!r}"
    # Each player's down cards (the first four cards dealt to two players), as codes or as shown.
    for code in hand.deck[:4]:
        for token in (code, shown_card(Card.parse(code))):
            found = re.search(rf"(?<![\w]){re.escape(token)}(?![\w])", text)
            assert not found, f"a down card in the log: {token}"


def test_a_library_logger_lowered_again_is_still_filtered(debug_log: io.StringIO) -> None:
    logging.getLogger("aiosqlite").setLevel(logging.DEBUG)           # someone lowers it again
    logging.getLogger("aiosqlite").debug("executing INSERT ... ('6d Js 9s', 'salt')")
    logging.getLogger("discord.http.extra").debug("POST /channels with {'content': 'Your cards'}")
    logging.getLogger("bot.tables.runner").debug("our own debug line")
    logging.getLogger("discord.client").info("logging in")
    text = debug_log.getvalue()
    assert "6d Js 9s" not in text and "Your cards" not in text
    assert "our own debug line" in text and "logging in" in text
