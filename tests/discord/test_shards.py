"""Sharded bot processes on one PostgreSQL database, end to end against the fake Discord.

Each bot is a separate OS process (``shard_child.py``: ``make_bot`` from the environment, as
``wildstud run`` does), connected to this test's fake Discord with IDENTIFY ``[shard_id, 2]``;
the fake routes each guild to its shard. Guild Alpha is on shard 0, guild Beta on shard 1.

The story: A (shard 0) and B (shard 1) each deal a hand. A second process for shard 0 starts
while A is alive: it gets Alpha's clicks (the newest session, as in a rolling restart) but does
not take A's table, whose lease is live. A is killed with SIGKILL mid-hand; B goes on dealing
Beta. A is started again: once A's lease has lapsed it takes the table over and resumes the hand,
which is then played out; the audit is green and every chip is accounted for in both guilds.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot.discord.client import WildstudBot
from bot.settings import Settings
from bot.store import Store
from bot.store.leases import _RELEASED as RELEASED
from tests.discord.helpers import (
    STARTING_CHIPS,
    current_prompt,
    hand_over,
    label_starting,
    prompted_member,
)
from tests.fakediscord import (
    FakeChannel,
    FakeDiscord,
    FakeGuild,
    FakeInteraction,
    FakeMember,
    FakeMessage,
    GuildSpec,
)
from tests.postgres import RawDb

CHILD = Path(__file__).with_name("shard_child.py")
ROOT = Path(__file__).resolve().parents[2]
LEASE_SECONDS = 2.0


class BotProcess:
    """One bot process serving ``shards`` of 2, its log in ``log``."""

    def __init__(self, fake: FakeDiscord, database: str, shards: str, log: Path) -> None:
        self.fake, self.shard, self.log = fake, int(shards), log
        self.sessions_before = {id(s) for s in fake.sessions}
        env = {
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "DATABASE_URL": database,
            "SHARD_COUNT": "2",
            "SHARD_IDS": shards,
            "TABLE_LEASE_SECONDS": str(LEASE_SECONDS),
            "LOG_LEVEL": "INFO",
        }
        env.pop("DATABASE_PATH", None)
        self.log_file = log.open("ab")
        self.process = subprocess.Popen(
            [sys.executable, str(CHILD), fake.api_base, fake.gateway_url, fake.token],
            cwd=ROOT, env=env, stdout=self.log_file, stderr=subprocess.STDOUT,
        )

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def session_live(self) -> bool:
        return any(
            s.live and s.shard == (self.shard, 2) and id(s) not in self.sessions_before
            for s in self.fake.sessions
        )

    async def ready(self, within: float = 30.0) -> None:
        await self.fake.wait_for(
            lambda: self.process.poll() is not None
            or (self.session_live() and "logged in as" in self.text()),
            within, what=f"bot process for shard {self.shard} to be ready",
        )
        assert self.process.poll() is None, self.text()
        await self.fake.settle()

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()
        self.log_file.close()


def _live_table(fake: FakeDiscord, guild: FakeGuild) -> FakeMessage | None:
    """The table message (the newest one with a Join button), or None."""
    try:
        return fake.find_message(guild.channel("poker"), with_button="Join")
    except LookupError:
        return None


def _to_act(fake: FakeDiscord, guild: FakeGuild) -> str | None:
    """The table message's text while it offers someone their buttons, else None."""
    table = _live_table(fake, guild)
    return table.text if table is not None and " to act" in table.text and len(table.buttons) > 2 else None


async def quiet(fake: FakeDiscord, guild: FakeGuild) -> None:
    """Wait for the table message between hands (with its Deal button) after a hand."""
    await fake.wait_for(
        lambda: "Deal" in (getattr(_live_table(fake, guild), "button_labels", None) or ()),
        10.0, what="the table message after the hand",
    )


async def _answered(fake: FakeDiscord, click: FakeInteraction, text: str) -> None:
    await fake.wait_for(lambda: text in click.text, 10.0, what=repr(text))


async def _moved_on(fake: FakeDiscord, guild: FakeGuild, hand_no: int, before: str) -> None:
    """Wait until hand ``hand_no`` is over or the table message offers the next turn."""
    await fake.wait_for(
        lambda: hand_over(fake, guild.channel("poker"), hand_no)
        or _to_act(fake, guild) not in (None, before),
        10.0, what="the bot's next turn",
    )


async def open_table(
    fake: FakeDiscord, dealer: FakeMember, channel: FakeChannel, players: list[FakeMember]
) -> None:
    """``/table create`` and every player's Join, waiting for each answer: the bot is another process,
    so its follow-up messages arrive after the click returns."""
    res = await fake.slash(dealer, "table create", {}, channel=channel)
    await fake.wait_for(lambda: "Your table is open" in res.text, 10.0, what="the table to open")
    await fake.wait_for(
        lambda: any("Join" in m.button_labels for m in fake.channel_messages(channel)), 10.0,
        what="the table message",
    )
    for player in players:
        lobby = fake.find_message(channel, with_button="Join")
        click = await fake.click(player, lobby, label="Join")
        await _answered(fake, click, "You sit in seat")


def lease_owner(url: str, table_id: int) -> str:
    """The owner of the table's live lease, or "" (no lease, or a released one: a clean stop keeps
    the row, lapsed, so that its generation keeps counting)."""
    with RawDb(url) as db:
        rows = db.execute(
            "SELECT owner FROM table_leases WHERE table_id = ? AND expires <> ?", (table_id, RELEASED)
        )
    return str(rows[0][0]) if rows else ""


def lease_released(url: str, table_id: int) -> bool:
    """The table's lease was handed back (its expiry set to the store's "released" mark)."""
    with RawDb(url) as db:
        rows = db.execute("SELECT expires FROM table_leases WHERE table_id = ?", (table_id,))
    return bool(rows) and str(rows[0][0]).startswith("0001-01-01")


def table_id(url: str, channel_id: int) -> int:
    with RawDb(url) as db:
        rows = db.execute("SELECT id FROM tables WHERE channel_id = ? AND status = 'open'", (channel_id,))
    return int(rows[0][0])


async def act(fake: FakeDiscord, guild: FakeGuild, times: int | None = None, *, hand_no: int = 1) -> None:
    """The prompted players check, call, post the bring-in or show: ``times`` clicks, or (None)
    until hand ``hand_no`` is over. The bot is another process, so after each click this waits for
    the table message to move on (its REST calls are not the fake's to wait for)."""
    poker = guild.channel("poker")
    clicks = 0
    while (clicks < times) if times is not None else not hand_over(fake, poker, hand_no):
        await fake.wait_for(
            lambda: hand_over(fake, poker, hand_no) or _to_act(fake, guild) is not None, 10.0,
            what="a player to act",
        )
        if hand_over(fake, poker, hand_no):
            break
        prompt = current_prompt(fake, poker)
        before = prompt.text
        label = label_starting(prompt, "Check", "Call", "Bring-in", "Show") or ""
        res = await fake.click(prompted_member(guild, prompt), prompt, label=label)
        assert not res.rejected and res.response_type in (6, 7), (res.response_type, res.text)
        clicks += 1
        assert clicks < 100
        await _moved_on(fake, guild, hand_no, before)


async def test_sharded_processes_own_their_tables_and_survive_a_sigkill(
    pg_url: str, tmp_path: Path
) -> None:
    processes: list[BotProcess] = []
    async with FakeDiscord.start(guilds=[], interaction_deadline=10.0) as fake:
        fake.ids.skip_to_shard(0, 2)
        alpha = fake.add_guild_from_spec(GuildSpec("Alpha", members=["alice", "bob", "carol"]))
        fake.ids.skip_to_shard(1, 2)
        beta = fake.add_guild_from_spec(GuildSpec("Beta", members=["dave", "erin", "finn"]))
        assert ((alpha.id >> 22) % 2, (beta.id >> 22) % 2) == (0, 1)
        # The fake checks slash-command options against the bot's command tree: learn it here.
        local = WildstudBot(
            Settings(discord_token=None, dev_guild_id=None, database_path=tmp_path / "x", log_level="INFO"),
            commands_only=True,
        )
        await local.setup_hook()
        fake.learn_commands(local)

        def start(shards: str, name: str) -> BotProcess:
            process = BotProcess(fake, pg_url, shards, tmp_path / f"{name}.log")
            processes.append(process)
            return process

        try:
            a, b = start("0", "a"), start("1", "b")
            await a.ready()
            await b.ready()
            players = {g: [g.member(n) for n in names] for g, names in (
                (alpha, ("alice", "bob", "carol")), (beta, ("dave", "erin", "finn")))}
            for guild in (alpha, beta):
                dealer = players[guild][0]
                await open_table(fake, dealer, guild.channel("poker"), players[guild])
                await fake.slash(dealer, "table deal", channel=guild.channel("poker"))
                await act(fake, guild, 2)  # bring-in and a call: chips in the pot
            alpha_table = table_id(pg_url, alpha.channel("poker").id)
            beta_table = table_id(pg_url, beta.channel("poker").id)
            owner_a, owner_b = lease_owner(pg_url, alpha_table), lease_owner(pg_url, beta_table)
            assert owner_a and owner_b and owner_a != owner_b
            assert f":{a.process.pid}:" in owner_a and f":{b.process.pid}:" in owner_b

            # A second process for shard 0 while A lives: Alpha's clicks now reach it, and it refuses
            # them rather than take the table (A's lease is live), for more than a lease's length.
            second = start("0", "a-second")
            await second.ready()
            await asyncio.sleep(LEASE_SECONDS * 1.5)
            prompt = current_prompt(fake, alpha.channel("poker"))
            res = await fake.click(prompted_member(alpha, prompt), prompt, label=prompt.button_labels[0])
            await fake.wait_for(lambda: "another process is dealing it" in res.text, 10.0, what="the refusal")
            assert lease_owner(pg_url, alpha_table) == owner_a
            second.kill()

            # SIGKILL A mid-hand. B goes on dealing Beta to the end of its hand.
            a.kill()
            await act(fake, beta)

            # A again: it takes the table over once the dead A's lease lapses, and resumes the hand.
            again = start("0", "a-again")
            await again.ready()
            await fake.wait_for(
                lambda: any(
                    "resumes after a restart" in m.text
                    for m in fake.channel_messages(alpha.channel("poker"), include_deleted=True)
                ),
                LEASE_SECONDS * 5, what="the restarted process to resume Alpha's hand",
            )
            assert f":{again.process.pid}:" in lease_owner(pg_url, alpha_table)
            await act(fake, alpha)
            assert lease_owner(pg_url, beta_table) == owner_b  # B never lost its table
            for guild in (alpha, beta):  # the new table message, posted after the hand: all quiet
                await quiet(fake, guild)

            # A rolling restart: the next process for shard 0 starts, the current one stops cleanly
            # and hands its lease back at once (no lapse to wait for); the next one deals hand 2.
            after = start("0", "a-next")
            await after.ready()
            again.stop()
            assert "stopped cleanly" in again.text()
            # Released (the row stays, lapsed, so its generation keeps counting), or already the next one's.
            owner_now = lease_owner(pg_url, alpha_table)
            assert (owner_now == "" or f":{after.process.pid}:" in owner_now
                    or lease_released(pg_url, alpha_table)), owner_now
            await fake.wait_for(
                lambda: f":{after.process.pid}:" in lease_owner(pg_url, alpha_table), LEASE_SECONDS * 3,
                what="the next process to take the released table",
            )
            await fake.slash(players[alpha][0], "table deal", channel=alpha.channel("poker"))
            await act(fake, alpha, hand_no=2)
            await quiet(fake, alpha)
            # The last click's work goes on after its answer (the turn's ping is deleted): let it
            # finish before the processes are stopped.
            await fake.settle()
            await asyncio.sleep(0.5)
            await fake.settle()
        finally:
            for process in processes:
                process.stop()
        logs = {p.log.name: p.text() for p in processes}
        assert not any("Traceback" in text for text in logs.values()), logs

    async with await Store.open(pg_url) as store:
        report = await store.audit()
        assert report.ok, report.all_problems()
        for guild in (alpha, beta):
            rows = await store.leaderboard(guild.id, limit=100)
            assert sum(r.total for r in rows) == 3 * STARTING_CHIPS
        hands = await store.table_hands(alpha_table)
        assert [h.status for h in hands] == ["finished", "finished"]


@pytest.mark.parametrize("value", ["0-1", "1"])
def test_make_bot_shards_from_the_settings(value: str) -> None:
    from bot.discord.client import ShardedWildstudBot, make_bot
    from bot.settings import load_settings

    settings = load_settings({"SHARD_COUNT": "2", "SHARD_IDS": value}, dotenv=False)
    bot = make_bot(settings)
    assert isinstance(bot, ShardedWildstudBot)
    assert bot.shard_count == 2 and bot.shard_ids == ([0, 1] if value == "0-1" else [1])
    plain = make_bot(load_settings({}, dotenv=False))
    assert type(plain) is WildstudBot
