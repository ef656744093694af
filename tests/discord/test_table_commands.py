"""``/table``: create (presets, explicit stakes, seats, timer), join, leave, sit-out, back, deal,
status and close, with the dealer's rights checked."""

from __future__ import annotations

from pathlib import Path

from tests.discord.helpers import STARTING_CHIPS, facts, live_table, new_bot, open_table, pings, table_message
from tests.fakediscord import FakeDiscord, start_bot


async def test_create_join_and_seat_limits(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob, carol = (guild.member(n) for n in ("alice", "bob", "carol"))
    poker = guild.channel("poker")

    res = await fake.slash(alice, "table create", {"stakes": "micro", "seats": 2, "timer": 45}, channel=poker)
    assert res.ephemeral and "Your table is open" in res.text
    lobby = table_message(fake, poker)
    assert lobby.button_labels == ["Join", "Deal"]
    assert "fixed limit 2/4, ante 1 and bring-in 1" in fake.find_message(poker, containing="Table open").text
    again = await fake.slash(bob, "table create", channel=poker)
    assert again.ephemeral and "already has a table" in again.text

    joined = await fake.slash(alice, "table join", {"buy_in": 100}, channel=poker)
    assert joined.ephemeral and joined.text == "You sit in seat 1 with 100 chips."
    twice = await fake.slash(alice, "table join", channel=poker)
    assert "already have a seat" in twice.text
    balance = await fake.slash(alice, "chips balance", channel=poker)
    assert balance.text == f"You have {STARTING_CHIPS - 100:,} chips, plus 100 at the tables."
    await fake.click(bob, lobby, label="Join")
    full = await fake.click(carol, lobby, label="Join")  # two seats only
    assert full.ephemeral and "You sit" not in full.text
    assert "alice" in lobby.text and "bob" in lobby.text and "carol" not in lobby.text

    status = await fake.slash(carol, "table status", channel=poker)
    assert status.ephemeral and "Timer: 45 seconds" in status.text and "alice" in status.text


async def test_explicit_stakes_and_bad_stakes(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    await start_bot(new_bot(tmp_path / "ws.sqlite3"), fake)
    guild = fake.guild()
    alice = guild.member("alice")
    poker, lobby = guild.channel("poker"), guild.channel("lobby")
    bad = await fake.slash(alice, "table create", {"bring_in": 20, "small_bet": 20}, channel=poker)
    # SPEC §5: the bring-in is below the small bet; nothing was created.
    assert bad.ephemeral and "bring-in (20) must be less than the small bet (20)" in bad.text
    res = await fake.slash(
        alice,
        "table create",
        {"structure": "no-limit", "ante": 10, "bring_in": 25, "min_bet": 50},
        channel=lobby,
    )
    assert res.ephemeral and "Your table is open" in res.text
    opened = fake.find_message(lobby, containing="Table open").text
    assert "no limit, minimum bet 50, ante 10 and bring-in 25" in opened
    # Buy-ins follow the new bet size (20 to 200 minimum bets) when not given.
    assert "buy-in 1,000 to 10,000" in opened
    status = await fake.slash(alice, "table status", channel=poker)
    assert "no table" in status.text.lower()


async def test_sit_out_back_leave_deal_and_close(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob, carol = (guild.member(n) for n in ("alice", "bob", "carol"))
    poker = guild.channel("poker")
    lobby = await open_table(fake, alice, poker, [alice, bob, carol])

    out = await fake.slash(bob, "table sit-out", channel=poker)
    assert out.ephemeral and "sitting out" in out.text
    assert "bob: 1,000 chips, sitting out" in facts(lobby)  # the table message shows it (picture, alt text)
    left = await fake.slash(carol, "table leave", channel=poker)
    assert "1,000 chips went back" in left.text and "carol:" not in facts(lobby)
    not_dealer = await fake.slash(bob, "table deal", channel=poker)
    assert not_dealer.ephemeral and "Only the dealer" in not_dealer.text
    lonely = await fake.slash(alice, "table deal", channel=poker)
    assert lonely.ephemeral and "No deal" in lonely.text and "bob is sitting out" in lonely.text
    await fake.slash(bob, "table back", channel=poker)
    assert "bob: 1,000 chips, sitting out" not in facts(lobby) and "bob: 1,000 chips" in facts(lobby)

    refused = await fake.slash(bob, "table close", channel=poker)
    assert refused.ephemeral and "Only the dealer" in refused.text
    closed = await fake.slash(alice, "table close", channel=poker)
    assert closed.ephemeral and "2,000 chips went back to 2 player(s)" in closed.text
    assert "Table closed." in lobby.text and not lobby.buttons
    for member in (alice, bob):
        balance = await fake.slash(member, "chips balance", channel=poker)
        assert balance.text == "You have 1,000 chips."
    report = await bot.store.audit()
    assert report.ok, report.all_problems()
    # A new table can open in the same channel, with a new table message.
    await fake.slash(bob, "table create", channel=poker)
    new_lobby = fake.find_message(poker, with_button="Join")
    assert new_lobby is not lobby


async def test_stakes_and_timer_changes(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob = guild.member("alice"), guild.member("bob")
    poker = guild.channel("poker")
    await open_table(fake, alice, poker, [alice, bob])
    refused = await fake.slash(bob, "table stakes", {"stakes": "micro"}, channel=poker)
    assert refused.ephemeral and "Only the dealer" in refused.text
    queued = await fake.slash(alice, "table stakes", {"ante": 2}, channel=poker)
    # Only the ante changes; the rest stays the table's (small preset: 20/40, bring-in 10).
    assert (
        "fixed limit 20/40, ante 5 and bring-in 10 → fixed limit 20/40, ante 2 and bring-in 10" in queued.text
    )
    assert "next deal" in queued.text
    timer = await fake.slash(alice, "table timer", {"seconds": 0}, channel=poker)
    assert "No timer" in timer.text
    await fake.slash(alice, "table deal", channel=poker)
    table = live_table(fake, poker)
    lines = table.text.split("\n")
    announced = next(i for i, t in enumerate(lines) if "ante 2 and bring-in 10" in t and "Stakes:" in t)
    assert announced < next(i for i, t in enumerate(lines) if "Hand #1:" in t)
    assert "Antes: 2 each" in table.text
    status = await fake.slash(bob, "table status", channel=poker)
    assert "Timer:" not in status.text and " s to act" not in "\n".join(m.text for m in pings(fake, poker))
