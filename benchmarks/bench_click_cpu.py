"""The bot's CPU per click (issue 20), with the fake Discord's own CPU taken out: the real bot runs in
a child process (``tests/discord/shard_child.py``, the real ``make_bot`` from the environment, on a
SQLite file) against the fake Discord served by this process, and the bot's CPU is read from the
kernel's per-thread counters of the child (``/proc/PID/task/*/schedstat``, nanoseconds; Linux
only): the event loop, the store's thread and Pillow alike, nothing of the fake's.

Run by hand (not part of the tests)::

    .venv/bin/python benchmarks/bench_click_cpu.py                         # 4 and 8 players
    .venv/bin/python benchmarks/bench_click_cpu.py --hands 4 --json out.json
    .venv/bin/python benchmarks/bench_click_cpu.py --load 200 --seconds 30  # N busy tables
    .venv/bin/python benchmarks/bench_click_cpu.py --profile prof.out       # cProfile of the bot

**Per click** (default): one table of 4 players, then one of 8, each with the Discord presenter on
and pictures on (the default look). Every action is a click on the table message (the deal with
its Deal button; then check, else call, else the bring-in, else show), made as soon as the
table message offers the next turn (``--look text``: the same without pictures, to see the
rest). The first ``--warmup-hands`` (1) are a warm-up (they open the DM channels and draw the first
pictures, as a bot that has been running a while has), then the bench waits until the bot's
start-up work in the background is done (fonts, palette, card faces); the next ``--hands`` are
measured: the bot's CPU over them divided by their actions, and the Discord requests per action
(interaction: callback and webhook; channel: the table channel's message bucket; global: every
request under the global limit), as ``bench_discord_budget.py`` counts them.

**The floor** (after each per-click figure; ``--no-floor`` skips it): the same Discord traffic from
a minimal discord.py bot (``floor_bot.py``, in a child process against a fresh fake): the table
message as the bot drew it at a turn (its text, its buttons, its picture) redrawn in the answer to
each click (type 7, the picture uploaded again), a ping posted as a followup and the previous ping
deleted, ``--floor-clicks`` (200) times after 20 to warm up. Its CPU per click is what discord.py
itself costs for a click's traffic on this machine, the part no change to Wildstud can remove; the
bot's figure above it is Wildstud's own (its table service and store, its presenter, its pictures,
and the DMs of new cards, which the floor does not send).

**Load** (``--load N``): N tables of 4 players at once on the one bot process; at each table the
player to act clicks after a random, exponentially distributed wait (mean ``--pace`` seconds), the
hand over the dealer clicks Deal. After ``--warmup`` seconds (the first deals open the DM
channels and draw the first pictures) ``--seconds`` are measured. Reported: the time from the
click to the interaction's answer (the table message drawn with the next prompt: p50, p99, max),
the bot's CPU (cores busy) and the actions per second. The fake runs in this process on the other
core; at a few hundred tables the fake itself is the ceiling on a 2-core machine (its CPU is
printed too), so the per-click CPU is the figure to divide a core by (``docs/operations.md``).

**The table service alone** (``--service``): the same hands through ``TableService`` and the store
with a presenter that reads nothing (no Discord, no pictures), CPU per action of this process:
the share of a click that the table service itself costs.

Targets (issue 20): bot CPU per click at most 3 ms at 4 and 8 players; 1,000 busy tables on one
process at one action per 3 s with the next prompt's p99 under 250 ms; no more Discord requests
per action than before (interaction 2.96, channel 0.04, global 0.39-0.54).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.discord.client import WildstudBot  # noqa: E402
from bot.settings import Settings  # noqa: E402
from tests.fakediscord import FakeChannel, FakeDiscord, FakeGuild, FakeMember, FakeMessage  # noqa: E402

CHILD = ROOT / "tests" / "discord" / "shard_child.py"
_PROFILED = """
import cProfile, runpy, sys, time
out = sys.argv[1]
sys.argv = sys.argv[2:]
profile = cProfile.Profile(time.process_time)
try:
    profile.runcall(runpy.run_path, sys.argv[0], run_name="__main__")
finally:
    profile.dump_stats(out)
"""
PASSIVE = ("Check", "Call", "Bring-in", "Show")
TARGET_MS = 3.0


def cpu_seconds(pid: int) -> float:
    """CPU time of every thread of process ``pid`` so far (ns counters of the scheduler)."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                total += int(f.read().split()[0])
        except (FileNotFoundError, ProcessLookupError):
            continue  # a thread that ended meanwhile (its time is lost: threads here are long-lived)
    return total / 1e9


def own_cpu() -> float:
    """This process's CPU (the fake and the driver)."""
    return time.process_time()


class BotProcess:
    """The real bot in a child process against ``fake`` (as ``wildstud run`` starts it)."""

    def __init__(self, fake: FakeDiscord, db: Path, log: Path, profile: Path | None) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "DATABASE_PATH": str(db), "LOG_LEVEL": "WARNING"}
        for name in ("DATABASE_URL", "SHARD_COUNT", "SHARD_IDS", "DEV_GUILD_ID"):
            env.pop(name, None)
        self.log = log
        self.log_file = log.open("ab")
        prefix = [sys.executable]
        if profile is not None:
            # cProfile on the process's CPU clock (its default, the wall clock, counts the time the
            # process waits for a core on a busy machine).
            prefix += ["-c", _PROFILED, str(profile)]
        self.process = subprocess.Popen(
            [*prefix, str(CHILD), fake.api_base, fake.gateway_url, fake.token],
            cwd=ROOT, env=env, stdout=self.log_file, stderr=subprocess.STDOUT,
        )
        self.pid = self.process.pid

    async def ready(self, fake: FakeDiscord) -> None:
        await fake.wait_for(lambda: self.process.poll() is not None or any(s.live for s in fake.sessions),
                            60.0, what="the bot process to connect")
        if self.process.poll() is not None:
            raise SystemExit(f"the bot process stopped:\n{self.log.read_text(errors='replace')}")
        await asyncio.sleep(0.5)   # READY and GUILD_CREATE handled

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log_file.close()


async def learn_commands(fake: FakeDiscord, tmp: Path) -> None:
    """The fake checks slash-command options against the bot's command tree: learn it here."""
    local = WildstudBot(
        Settings(discord_token=None, dev_guild_id=None, database_path=tmp / "learn.sqlite3",
                 log_level="INFO"),
        commands_only=True,
    )
    await local.setup_hook()
    fake.learn_commands(local)


def table_message(fake: FakeDiscord, channel: FakeChannel) -> FakeMessage | None:
    """The live table message (the newest with a Join button), or None."""
    try:
        return fake.find_message(channel, with_button="Join")
    except LookupError:
        return None


def to_act(message: FakeMessage | None) -> FakeMessage | None:
    return message if message is not None and " to act" in message.text and len(message.buttons) > 2 else None


def hand_over(fake: FakeDiscord, channel: FakeChannel, hand_no: int) -> bool:
    return any(f"Hand #{hand_no} deck" in m.text for m in fake.channel_messages(channel))


def label_of(message: FakeMessage, heads: tuple[str, ...]) -> str | None:
    for head in heads:
        for label in message.button_labels:
            if label.startswith(head):
                return label
    return None


def member_to_act(guild: FakeGuild, message: FakeMessage) -> FakeMember:
    match = re.search(r"<@(\d+)> to act", message.text)
    assert match, message.text
    return guild.member(int(match.group(1)))


async def open_table(
    fake: FakeDiscord, guild: FakeGuild, channel: FakeChannel, players: list[FakeMember]
) -> None:
    res = await fake.slash(players[0], "table create", {}, channel=channel, wait=False)
    await fake.wait_for(lambda: "Your table is open" in res.text, 30.0, what="the table to open")
    await fake.wait_for(lambda: table_message(fake, channel) is not None, 30.0, what="the table message")
    for player in players:
        lobby = table_message(fake, channel)
        assert lobby is not None
        click = await fake.click(player, lobby, label="Join", wait=False)
        await fake.wait_for(lambda c=click: "You sit in seat" in c.text, 30.0, what="a seat")  # type: ignore[misc]


async def quiet(fake: FakeDiscord, within: float = 0.3) -> None:
    """Wait until the bot sent nothing for ``within`` seconds (its pings and deletes are out)."""
    while True:
        count = len(fake.requests)
        await asyncio.sleep(within)
        if len(fake.requests) == count and not fake._inflight:
            return


async def idle(pid: int, within: float = 0.3, most: float = 0.01, limit: float = 60.0) -> None:
    """Wait until the bot process used at most ``most`` s of CPU in ``within`` s: its start-up work
    in the background (fonts, palette, every card face: ``bot.render.pictures.warm``) is done and
    out of the measured hands."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        before = cpu_seconds(pid)
        await asyncio.sleep(within)
        if cpu_seconds(pid) - before <= most:
            return


@dataclass
class Scene:
    players: int
    actions: int = 0
    cpu: float = 0.0
    wall: float = 0.0
    interaction: int = 0
    channel: int = 0
    global_counted: int = 0
    rate_limited: int = 0
    per_hand: list[tuple[int, float]] = field(default_factory=list)
    floor_ms: float | None = None
    table: dict[str, Any] | None = None     # the table message mid-hand: text, labels, picture

    def row(self) -> dict[str, Any]:
        n = max(self.actions, 1)
        return {
            "players": self.players,
            "actions": self.actions,
            "cpu_ms_per_click": round(self.cpu * 1000 / n, 2),
            "interaction_per_action": round(self.interaction / n, 2),
            "channel_per_action": round(self.channel / n, 2),
            "global_per_action": round(self.global_counted / n, 2),
            "rate_limited": self.rate_limited,
            "hands_ms_per_click": [round(c * 1000 / a, 2) for a, c in self.per_hand],
            "floor_ms_per_click": self.floor_ms,
        }


async def play_hand(fake: FakeDiscord, guild: FakeGuild, channel: FakeChannel, dealer: FakeMember,
                    hand_no: int, seen: list[dict[str, Any]] | None = None) -> int:
    """Deal with the Deal button, then click the table message's passive button at every turn until
    the hand is over; returns the number of actions (the deal included)."""
    await fake.wait_for(lambda: (m := table_message(fake, channel)) is not None and "Deal" in m.button_labels,
                        30.0, what="the Deal button")
    table = table_message(fake, channel)
    assert table is not None
    res = await fake.click(dealer, table, label="Deal", wait=False)
    await res.wait_response(30.0)
    actions = 1
    while True:
        await fake.wait_for(lambda: hand_over(fake, channel, hand_no) or to_act(table_message(fake, channel))
                            is not None, 30.0, what="the next turn")
        if hand_over(fake, channel, hand_no):
            return actions
        prompt = to_act(table_message(fake, channel))
        assert prompt is not None
        label = label_of(prompt, PASSIVE)
        assert label is not None, prompt.button_labels
        before = prompt.text
        if seen is not None and not seen:
            seen.append(table_scene(prompt))
        res = await fake.click(member_to_act(guild, prompt), prompt, label=label, wait=False)
        await res.wait_response(30.0)
        assert not res.rejected and res.response_type == 7, (res.response_type, res.rejected)
        actions += 1

        def moved(before: str = before) -> bool:
            message = table_message(fake, channel)
            return hand_over(fake, channel, hand_no) or message is None or message.text != before

        await fake.wait_for(moved, 30.0, what="the table")
        assert actions < 200


async def per_click(
    players: int, hands: int, scale: float, tmp: Path, profile: Path | None, look: str, warmup: int = 1
) -> Scene:
    names = [f"p{i}" for i in range(players)]
    async with FakeDiscord.start(time_scale=scale, interaction_deadline=30.0) as fake:
        fake.strict = False
        guild = fake.add_guild("Club", members=names, channels=("poker",))
        channel = guild.channel("poker")
        members = [guild.member(n) for n in names]
        await learn_commands(fake, tmp)
        bot = BotProcess(fake, tmp / f"bot{players}.sqlite3", tmp / f"bot{players}.log", profile)
        try:
            await bot.ready(fake)
            pid = bot.pid
            if look != "pictures":
                owner = guild.member("owner")
                res = await fake.slash(owner, "table look", {"look": look}, channel=channel, wait=False)
                await res.wait_response(30.0)
            await open_table(fake, guild, channel, members)
            for hand_no in range(1, warmup + 1):   # warm-up: DM channels, first pictures
                await play_hand(fake, guild, channel, members[0], hand_no)
            await quiet(fake)
            await idle(pid)
            scene = Scene(players)
            for hand_no in range(warmup + 1, warmup + hands + 1):
                mark = len(fake.requests)
                cpu_before, wall_before = cpu_seconds(pid), time.perf_counter()
                seen: list[dict[str, Any]] = []
                actions = await play_hand(fake, guild, channel, members[0], hand_no, seen)
                if seen and scene.table is None:
                    scene.table = seen[0]
                await quiet(fake)
                cpu = cpu_seconds(pid) - cpu_before
                scene.wall += time.perf_counter() - wall_before
                scene.actions += actions
                scene.cpu += cpu
                scene.per_hand.append((actions, cpu))
                recs = fake.requests[mark:]
                scene.interaction += sum(1 for r in recs if r.bucket.startswith("interaction:"))
                scene.channel += sum(1 for r in recs if r.bucket == f"channel-messages:{channel.id}")
                scene.global_counted += sum(1 for r in recs if r.counts_global)
                scene.rate_limited += sum(1 for r in recs if r.rate_limited is not None)
        finally:
            bot.stop()
    return scene


# --------------------------------------------------------------------------------------------- floor
FLOOR_CHILD = ROOT / "benchmarks" / "floor_bot.py"


def table_scene(message: FakeMessage) -> dict[str, Any]:
    """The table message as the bot drew it at a turn: its text, its buttons' labels, its picture."""
    pictures = [a.data for a in message.attachments if a.filename == "table.png"]
    return {"text": message.text, "labels": list(message.button_labels),
            "picture": pictures[0] if pictures else None}


def start_floor_bot(
    fake: FakeDiscord, channel: FakeChannel, spec: Path, log: Path
) -> subprocess.Popen[bytes]:
    with log.open("ab") as out:
        return subprocess.Popen(
            [sys.executable, str(FLOOR_CHILD), fake.api_base, fake.gateway_url, fake.token, str(channel.id),
             str(spec)], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=out, stderr=out,
        )


async def floor(table: dict[str, Any], clicks: int, scale: float, tmp: Path, name: str) -> float:
    """CPU ms per click of ``floor_bot.py`` (a minimal discord.py bot) answering ``clicks`` clicks on
    a copy of ``table`` with Wildstud's traffic (type-7 redraw with the picture, a ping, a delete)."""
    picture = None
    if table["picture"] is not None:
        picture = tmp / f"{name}.png"
        picture.write_bytes(table["picture"])
    spec = tmp / f"{name}.json"
    spec.write_text(json.dumps({"text": table["text"], "labels": table["labels"],
                                "picture": str(picture) if picture else None}), encoding="utf-8")
    async with FakeDiscord.start(time_scale=scale, interaction_deadline=30.0) as fake:
        fake.strict = False
        guild = fake.add_guild("Floor", members=("p0", "p1"), channels=("poker",))
        channel = guild.channel("poker")
        member = guild.member("p0")
        process = start_floor_bot(fake, channel, spec, tmp / f"{name}.log")
        try:
            def posted() -> FakeMessage | None:
                found = [m for m in fake.channel_messages(channel) if m.buttons]
                return found[-1] if found else None

            await fake.wait_for(lambda: posted() is not None, 60.0, what="the floor bot's message")
            message = posted()
            assert message is not None

            async def click_all(count: int) -> None:
                for _ in range(count):
                    before = fake.channel_messages(channel)[-1].id
                    res = await fake.click(member, message, custom_id=message.buttons[0]["custom_id"],
                                           wait=False)
                    await res.wait_response(30.0)
                    await fake.wait_for(lambda before=before: fake.channel_messages(channel)[-1].id != before
                                        and len(fake.channel_messages(channel)) == 2, 30.0, what="the ping")

            await click_all(20)                   # warm-up
            await idle(process.pid)
            before = cpu_seconds(process.pid)
            await click_all(clicks)
            return round((cpu_seconds(process.pid) - before) * 1000 / clicks, 2)
        finally:
            process.terminate()
            process.wait(timeout=30)


# ---------------------------------------------------------------------------------------------- load
def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def load(
    tables: int, seconds: float, pace: float, scale: float, tmp: Path, seed: int, warmup: float
) -> dict[str, Any]:
    rng = random.Random(seed)
    per_guild = 50
    async with FakeDiscord.start(time_scale=scale, interaction_deadline=30.0) as fake:
        fake.strict = False
        answered: dict[str, asyncio.Future[float]] = {}
        original = fake._callback

        async def callback(request: Any, params: dict[str, str], body: Any, uploads: Any) -> Any:
            result = await original(request, params, body, uploads)
            waiter = answered.pop(params["token"], None)
            if waiter is not None and not waiter.done():
                waiter.set_result(time.monotonic())
            return result

        fake._callback = callback  # type: ignore[method-assign,assignment]
        fake._route_table = fake._routes()
        seats: list[tuple[FakeGuild, FakeChannel, list[FakeMember]]] = []
        for g in range(0, tables, per_guild):
            count = min(per_guild, tables - g)
            members = [f"g{g}m{i}" for i in range(4 * count)]
            guild = fake.add_guild(f"Club {g}", members=members, channels=[f"t{i}" for i in range(count)])
            for i in range(count):
                players = [guild.member(n) for n in members[4 * i : 4 * i + 4]]
                seats.append((guild, guild.channel(f"t{i}"), players))
        await learn_commands(fake, tmp)
        bot = BotProcess(fake, tmp / "load.sqlite3", tmp / "load.log", None)
        latencies: list[float] = []
        deals: list[float] = []
        errors: list[str] = []
        try:
            await bot.ready(fake)
            started = time.perf_counter()
            for at in range(0, len(seats), 25):
                await asyncio.gather(*(open_table(fake, g, c, m) for g, c, m in seats[at : at + 25]))
            setup = time.perf_counter() - started
            fake.requests.clear()
            measured = time.perf_counter() + warmup      # the first deals (DM channels, first pictures)
            deadline = measured + seconds
            mark: dict[str, float] = {}

            async def click(member: FakeMember, message: FakeMessage, label: str, into: list[float]) -> None:
                res = await fake.click(member, message, label=label, wait=False)
                loop = asyncio.get_running_loop()
                waiter: asyncio.Future[float] = loop.create_future()
                answered[res.token] = waiter
                sent = time.monotonic()
                counted = time.perf_counter() >= measured
                if res.callbacks:       # answered before the waiter was set
                    answered.pop(res.token, None)
                    if counted:
                        into.append(0.0)
                    return
                try:
                    answer = await asyncio.wait_for(waiter, 30.0) - sent
                except TimeoutError:
                    errors.append("no answer in 30 s")
                    return
                if counted:
                    into.append(answer)

            async def play(guild: FakeGuild, channel: FakeChannel, players: list[FakeMember]) -> None:
                await asyncio.sleep(rng.uniform(0, pace))
                while time.perf_counter() < deadline:
                    message = table_message(fake, channel)
                    if message is not None and "Deal" in message.button_labels:
                        await click(players[0], message, "Deal", deals)
                        await asyncio.sleep(0.05)
                        continue
                    prompt = to_act(message)
                    if prompt is None:
                        await asyncio.sleep(0.05)
                        continue
                    await asyncio.sleep(rng.expovariate(1 / pace))
                    if time.perf_counter() >= deadline:
                        return
                    prompt = to_act(table_message(fake, channel))
                    if prompt is None:
                        continue
                    label = label_of(prompt, PASSIVE)
                    if label is None:
                        errors.append(f"no passive button: {prompt.button_labels}")
                        return
                    await click(member_to_act(guild, prompt), prompt, label, latencies)

            async def trim() -> None:
                await asyncio.sleep(max(0.0, measured - time.perf_counter()))
                fake.requests.clear()
                mark.update(cpu=cpu_seconds(bot.pid), own=own_cpu(), wall=time.perf_counter())
                while time.perf_counter() < deadline:
                    await asyncio.sleep(2.0)
                    counts["requests"] += len(fake.requests)
                    recs = fake.requests
                    counts["interaction"] += sum(1 for r in recs if r.bucket.startswith("interaction:"))
                    counts["global"] += sum(1 for r in fake.requests if r.counts_global)
                    fake.requests.clear()       # the recorded uploads would fill the memory

            counts = {"requests": 0, "interaction": 0, "global": 0}
            await asyncio.gather(trim(), *(play(g, c, m) for g, c, m in seats))
            wall = time.perf_counter() - mark["wall"]
            cpu, own = cpu_seconds(bot.pid) - mark["cpu"], own_cpu() - mark["own"]
        finally:
            bot.stop()
    actions = len(latencies) + len(deals)
    return {
        "tables": tables,
        "setup_s": round(setup, 1),
        "seconds": round(wall, 1),
        "actions": actions,
        "actions_per_s": round(actions / wall, 1),
        "next_prompt_p50_ms": round(statistics.median(latencies) * 1000, 1) if latencies else None,
        "next_prompt_p99_ms": round(percentile(latencies, 0.99) * 1000, 1),
        "next_prompt_max_ms": round(max(latencies, default=0) * 1000, 1),
        "deal_p99_ms": round(percentile(deals, 0.99) * 1000, 1),
        "bot_cores": round(cpu / wall, 2),
        "bot_cpu_ms_per_action": round(cpu * 1000 / max(actions, 1), 2),
        "fake_cores": round(own / wall, 2),
        "interaction_per_action": round(counts["interaction"] / max(actions, 1), 2),
        "global_per_action": round(counts["global"] / max(actions, 1), 2),
        "errors": errors[:5],
    }


# ------------------------------------------------------------------------------------ service only
class Discarding:
    """A presenter that takes each update and reads none of it (the table service's own share)."""

    async def update(self, table: Any, update: Any) -> None: ...


async def service_only(players: int, hands: int, tmp: Path) -> dict[str, Any]:
    """The table service and the store alone, one table of ``players``: CPU per action (the engine,
    the notices, the snapshot, the store's transaction), over ``hands`` hands after a warm-up."""
    from bot.engine.command import Command, Kind
    from bot.store import Store
    from bot.tables.clock import FakeClock
    from bot.tables.notices import TableKey
    from bot.tables.options import TableOptions
    from bot.tables.service import TableService

    key = TableKey(1, 2)
    async with await Store.open(tmp / f"service{players}.sqlite3") as store:
        options = TableOptions(turn_timeout=None, reminder_after=None, auto_deal_after=None)
        service = TableService(store, Discarding(), clock=FakeClock(), rng=random.Random(20),
                               default_options=options)
        await service.create_table(key, 100)
        for i in range(players):
            await service.join(key, 100 + i, f"p{i}")

        async def hand() -> int:
            actions = 1
            await service.deal(key, 100)
            while (prompt := service.current_prompt(key)) is not None:
                option = next(o for name in ("bring_in", "check", "call", "show")
                              if (o := prompt.option(name)) is not None)
                command = Command(Kind(option.action))
                await service.act(key, prompt.member, prompt.hand_id, prompt.turn, command)
                actions += 1
            return actions

        await hand()
        actions, started = 0, time.process_time()
        for _ in range(hands):
            actions += await hand()
        cpu = time.process_time() - started
        await service.close()
    return {"players": players, "actions": actions, "cpu_ms_per_action": round(cpu * 1000 / actions, 3)}


async def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=3, help="measured hands per table (after a warm-up)")
    parser.add_argument("--players", default="4,8", help="table sizes for the per-click figure")
    parser.add_argument("--warmup-hands", type=int, default=1,
                        help="per click: hands played before measuring (new faces and names drawn)")
    parser.add_argument("--scale", type=float, default=0.01, help="rate-limit time scale (1.0: Discord's)")
    parser.add_argument("--load", type=int, metavar="N", help="N busy tables instead of the per-click figure")
    parser.add_argument("--seconds", type=float, default=30.0, help="load: measured play time")
    parser.add_argument("--warmup", type=float, default=15.0, help="load: play time before measuring")
    parser.add_argument("--pace", type=float, default=3.0, help="load: mean s between actions")
    parser.add_argument("--seed", type=int, default=20)
    parser.add_argument("--service", action="store_true",
                        help="the table service and store alone (no Discord), CPU per action")
    parser.add_argument("--look", default="pictures", help="per click: /table look (text: no pictures)")
    parser.add_argument("--profile", type=Path, help="per click: write the bot's cProfile here (4/8 added)")
    parser.add_argument("--json", type=Path, help="write the figures here too")
    parser.add_argument("--no-floor", action="store_true",
                        help="per click: skip the floor (a minimal discord.py bot, the same traffic)")
    parser.add_argument("--floor-clicks", type=int, default=200, help="per click: clicks the floor measures")
    args = parser.parse_args(argv)
    print(f"Python {platform.python_version()}; {platform.machine()}; {os.cpu_count()} CPUs;"
          f" rate-limit time scale {args.scale:g}")
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="wildstud-click-") as tmp:
        if args.service:
            rows = [await service_only(int(p), args.hands, Path(tmp)) for p in args.players.split(",")]
            for r in rows:
                print(f"table service alone, {r['players']} players: {r['actions']} actions,"
                      f" {r['cpu_ms_per_action']} ms CPU per action")
        elif args.load:
            result = await load(args.load, args.seconds, args.pace, args.scale, Path(tmp), args.seed,
                                args.warmup)
            print(json.dumps(result))
            print(f"{args.load:,} tables, an action every {args.pace:g} s per table (mean):"
                  f" next prompt p50 {result['next_prompt_p50_ms']} ms,"
                  f" p99 {result['next_prompt_p99_ms']} ms;"
                  f" bot {result['bot_cpu_ms_per_action']} ms CPU per action,"
                  f" {result['bot_cores']} cores busy (the fake: {result['fake_cores']})")
            rows = [result]
        else:
            for players in (int(p) for p in args.players.split(",")):
                profile = args.profile and args.profile.with_name(f"{args.profile.name}{players}")
                scene = await per_click(players, args.hands, args.scale, Path(tmp), profile, args.look,
                                        args.warmup_hands)
                if not args.no_floor and scene.table is not None:
                    scene.floor_ms = await floor(scene.table, args.floor_clicks, args.scale, Path(tmp),
                                                 f"floor{players}")
                rows.append(scene.row())
            head = ("players", "actions", "CPU ms/click", "inter/act", "chan/act", "glob/act", "429s")
            print(" ".join(f"{h:>12}" for h in head))
            for r in rows:
                values = (r["players"], r["actions"], r["cpu_ms_per_click"], r["interaction_per_action"],
                          r["channel_per_action"], r["global_per_action"], r["rate_limited"])
                print(" ".join(f"{v:>12}" for v in values), "  per hand:", r["hands_ms_per_click"])
            for r in rows:
                if r["floor_ms_per_click"] is not None:
                    print(f"floor, {r['players']} players: {r['floor_ms_per_click']} ms CPU per click for the"
                          " same Discord traffic from a minimal discord.py bot (floor_bot.py); the bot spends"
                          f" {round(r['cpu_ms_per_click'] - r['floor_ms_per_click'], 2)} ms above it")
            met = all(r["cpu_ms_per_click"] <= TARGET_MS for r in rows)
            print(f"target: at most {TARGET_MS:g} ms of bot CPU per click: {'met' if met else 'not met'}")
    if args.json is not None:
        args.json.write_text(json.dumps({"args": {k: str(v) for k, v in vars(args).items()}, "rows": rows},
                                        indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main(sys.argv[1:])))
