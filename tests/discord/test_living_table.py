"""The living table message's options (issue 11): where each hand's log goes (``/table create
log:``), how the server's tables look (``/table look``), when a player's cards come by DM
(``/table dm``); each survives a restart."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from bot.render.pictures import TABLE_SIZE
from tests.discord.helpers import (
    facts,
    hand_log,
    live_table,
    new_bot,
    open_table,
    play_passively,
    said,
)
from tests.fakediscord import FakeDiscord, restart_bot, start_bot


async def test_log_thread_survives_a_restart_and_log_off_keeps_no_log(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    db = tmp_path / "ws.sqlite3"
    first = new_bot(db)
    await start_bot(first, fake)
    guild = fake.guild()
    alice, bob, carol, owner = (guild.member(n) for n in ("alice", "bob", "carol", "owner"))
    poker, lobby = guild.channel("poker"), guild.channel("lobby")
    await open_table(fake, alice, poker, [alice, bob], log="thread")
    await open_table(fake, carol, lobby, [carol, owner], log="off")
    second = new_bot(db)
    await restart_bot(first, second, fake)       # the option is kept with the table's options
    for dealer, channel in ((alice, poker), (carol, lobby)):
        await fake.slash(dealer, "table deal", channel=channel)
        await play_passively(fake, guild, channel, 1)

    # log: thread: the summary has no attachment; its thread holds the whole narrated log.
    summary = fake.find_message(poker, containing="Hand #1 · summary")
    assert not any(a.filename.endswith(".txt") for a in summary.attachments)
    thread = fake.channels[summary.id]
    assert thread.type == 11 and thread.parent_id == poker.id and thread.name == "Hand #1 log"
    log = "\n".join(m.text for m in fake.channel_messages(thread))
    assert "Hand #1: " in log and "Showdown" in log and "Seventh street" in log
    # log: off: a summary, and no log anywhere.
    off = fake.find_message(lobby, containing="Hand #1 · summary")
    assert not any(a.filename.endswith(".txt") for a in off.attachments)
    assert off.id not in fake.channels
    assert "Showdown" in off.text and "Hand #1 deck" in off.text


async def test_look_text_draws_the_text_table_and_survives_a_restart(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    db = tmp_path / "ws.sqlite3"
    first = new_bot(db)
    await start_bot(first, fake)
    guild = fake.guild()
    alice, bob = guild.member("alice"), guild.member("bob")
    poker = guild.channel("poker")
    table = await open_table(fake, alice, poker, [alice, bob])
    # The default look: the picture of the table, at its size, with alt text.
    (picture,) = table.attachments
    assert Image.open(io.BytesIO(picture.data)).size == TABLE_SIZE
    assert "alice" in (picture.description or "") and "bob" in facts(table)
    refused = await fake.slash(bob, "table look", {"look": "text"}, channel=poker)
    assert refused.ephemeral and "Manage Server" in refused.text
    owner = guild.member("owner")
    done = await fake.slash(owner, "table look", {"look": "text"}, channel=poker)
    assert done.ephemeral and "text tables" in done.text

    second = new_bot(db)
    await restart_bot(first, second, fake)
    deal = await fake.click(alice, table, label="Deal")
    assert deal.response_type == 7 and "Hand #1 is dealt" in said(deal)
    # Drawn as text now: the table block in a code block, no picture uploaded.
    assert table.attachments == [] and "```" in table.text and "Pot" in table.text
    assert "alice" in table.text and "bob" in table.text
    status = await fake.slash(bob, "table status", channel=poker)
    assert status.ephemeral and "```" in status.text
    await fake.slash(owner, "table look", {"look": "pictures"}, channel=poker)


async def test_dm_every_street_is_kept_per_player_across_a_restart(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    db = tmp_path / "ws.sqlite3"
    first = new_bot(db)
    await start_bot(first, fake)
    guild = fake.guild()
    alice, bob = guild.member("alice"), guild.member("bob")
    poker = guild.channel("poker")
    await open_table(fake, alice, poker, [alice, bob])
    chosen = await fake.slash(bob, "table dm", {"when": "every-street"}, channel=poker)
    assert chosen.ephemeral and "every street" in chosen.text
    second = new_bot(db)
    await restart_bot(first, second, fake)
    await fake.slash(alice, "table deal", channel=poker)
    await play_passively(fake, guild, poker, 1)
    # bob: third to seventh street; alice (the default): the down cards only.
    assert len(fake.dms_for(bob)) == 5 and len(fake.dms_for(alice)) == 2
    assert "Seventh street" in hand_log(fake, poker, 1)
    back = await fake.slash(bob, "table dm", {"when": "down-cards"}, channel=poker)
    assert back.ephemeral and "third and seventh street" in back.text
    assert live_table(fake, poker).buttons
