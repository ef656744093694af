"""Errors reach the member as a short ephemeral reply, never "This interaction failed": refusals
carry their reason; a bug is logged and answered with an apology, before or after a defer."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.discord.helpers import new_bot, open_table
from tests.fakediscord import FakeDiscord, start_bot


async def test_refusals_and_bugs_get_a_short_private_answer(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice = guild.member("alice")
    poker = guild.channel("poker")

    no_table = await fake.slash(alice, "table join", channel=poker)
    assert no_table.ephemeral and "no table in this channel" in no_table.text

    await open_table(fake, alice, poker, [alice])

    def broken(*args: object, **kwargs: object) -> str:
        raise RuntimeError("a bug")

    # Odd branch (a bug), provoked with a patched service method: answered at once...
    monkeypatch.setattr(bot.service, "status_text", broken)
    res = await fake.slash(alice, "table status", channel=poker)
    assert res.response_type == 4 and res.ephemeral and "Something went wrong" in res.text
    # ... and after a defer, as the followup that replaces "thinking".
    monkeypatch.setattr(bot.service, "deal", broken)
    res = await fake.slash(alice, "table deal", channel=poker)
    assert res.response_type == 5 and res.ephemeral and "Something went wrong" in res.text
    # Both bugs were logged with their tracebacks (and only those).
    assert len(fake.bot_errors) == 2 and all("a bug" in e for e in fake.bot_errors)
    fake.bot_errors.clear()


async def test_a_database_failure_is_answered_with_its_true_reason(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 18: a failure of the database itself (here a dropped connection) is neither a bug nor
    a generic apology: the member is told the database is unreachable and nothing was done."""
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob = guild.member("alice"), guild.member("bob")
    poker = guild.channel("poker")

    async def dropped(*args: object, **kwargs: object) -> object:
        raise ConnectionResetError("server closed the connection unexpectedly")

    monkeypatch.setattr(bot.store, "transfer", dropped)
    res = await fake.slash(alice, "chips give", {"member": bob, "amount": 10}, channel=poker)
    assert res.ephemeral and "database is unreachable, so your action was not taken" in res.text
    assert "Something went wrong" not in res.text
    assert not fake.bot_errors
