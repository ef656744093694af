"""Random sequences of economy operations against a plain in-memory model of the rules.

After every step: the audit is green, every balance and seat stack equals the model's, and no
account exists that the model does not know. Refused requests must be exactly those the model
refuses (and change nothing, which the balance comparison then confirms).
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from collections.abc import Coroutine
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from bot.store import Store as RealStore
from bot.store import StoreError

T = TypeVar("T")

GUILDS = (1, 2)
MEMBERS = (11, 12, 13, 14)
MIN_BUY_IN, MAX_BUY_IN, MAX_SEATS = 50, 400, 3
DAILY = {1: 100, 2: 0}  # guild 2 keeps the daily claim off
COOLDOWN = timedelta(hours=1)

# Mostly amounts a player could mean, sometimes nonsense (zero, negative, too much).
amounts = st.one_of(st.integers(MIN_BUY_IN, MAX_BUY_IN), st.integers(min_value=-5, max_value=1500))
slots = st.sampled_from([0, 1, 2])  # the open table of channel 501, 502 (guild 1) or 503 (guild 2)
wrong_guild = st.sampled_from([False, False, False, True])
members = st.sampled_from(MEMBERS)
guilds = st.sampled_from(GUILDS)


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 3, 1, 20, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


class EconomyMachine(RuleBasedStateMachine):
    @staticmethod
    def new_database(folder: Path) -> Path | str:
        """Where each example's store lives (a PostgreSQL database in the ``postgresql`` run)."""
        return folder / "db.sqlite3"

    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(prefix="wildstud-prop-"))
        self.loop = asyncio.new_event_loop()
        self.clock = Clock()
        self.store = self.run(RealStore.open(self.new_database(self.folder), clock=self.clock))
        # The model.
        self.starting = {1: 1000, 2: 1000}
        self.balances: dict[tuple[int, int], int] = {}
        self.last_daily: dict[tuple[int, int], datetime] = {}
        self.tables: dict[int, dict[str, Any]] = {}
        self.slots: list[int] = []
        self.settled: list[tuple[int, dict[int, int]]] = []
        self.keys: dict[tuple[int, str], tuple[int, int, int]] = {}
        for guild, channel in ((1, 501), (1, 502), (2, 503)):
            self.slots.append(self.open_table(guild, channel))
        for guild, amount in DAILY.items():
            self.run(self.store.update_guild_settings(guild, daily_amount=amount, daily_cooldown=COOLDOWN))

    def open_table(self, guild: int, channel: int) -> int:
        record = self.run(
            self.store.create_table(
                guild,
                channel,
                MEMBERS[0],
                stakes={"min_buy_in": MIN_BUY_IN, "max_buy_in": MAX_BUY_IN},
                settings={"max_seats": MAX_SEATS},
            )
        )
        self.tables[record.id] = {"guild": guild, "channel": channel, "open": True, "seats": {}, "hand": None}
        return record.id

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return self.loop.run_until_complete(coroutine)

    def attempt(self, coroutine: Coroutine[Any, Any, T], allowed: bool) -> T | None:
        name = coroutine.__qualname__.rsplit(".", 1)[-1]
        event(f"{name} {'done' if allowed else 'refused'}")
        if allowed:
            return self.run(coroutine)
        with pytest.raises(StoreError):
            self.run(coroutine)
        return None

    def teardown(self) -> None:
        self.run(self.store.close())
        self.loop.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    # -- model helpers ------------------------------------------------------------------------

    def balance(self, guild: int, member: int) -> int:
        return self.balances.get((guild, member), self.starting[guild])

    def open_account(self, guild: int, member: int) -> None:
        self.balances.setdefault((guild, member), self.starting[guild])

    def frozen(self, table: int, member: int) -> bool:
        hand = self.tables[table]["hand"]
        return hand is not None and member in hand["start"]

    # -- rules ----------------------------------------------------------------------------------

    @rule(
        guild=guilds,
        sender=members,
        recipient=members,
        amount=amounts,
        key=st.one_of(st.none(), st.sampled_from(["x", "y"])),
    )
    def transfer(self, guild: int, sender: int, recipient: int, amount: int, key: str | None) -> None:
        # Keys are reused on purpose: the same details replay (nothing moves), others are refused.
        details = (sender, recipient, amount)
        used = self.keys.get((guild, key)) if key is not None else None
        if sender == recipient or amount <= 0:
            ok, moves = False, False
        elif used is not None:
            ok, moves = used == details, False
        else:
            ok = moves = amount <= self.balance(guild, sender)
        receipt = self.attempt(self.store.transfer(guild, sender, recipient, amount, key=key), ok)
        if ok:
            assert receipt is not None and receipt.applied == moves
        if moves:
            if key is not None:
                self.keys[(guild, key)] = details
            self.open_account(guild, sender)
            self.open_account(guild, recipient)
            self.balances[(guild, sender)] -= amount
            self.balances[(guild, recipient)] += amount

    @rule(guild=guilds, member=members, amount=amounts, grant=st.booleans())
    def adjust(self, guild: int, member: int, amount: int, grant: bool) -> None:
        if grant:
            ok = amount > 0
            self.attempt(self.store.grant(guild, member, amount, reason="test"), ok)
        else:
            ok = 0 < amount <= self.balance(guild, member)
            self.attempt(self.store.take(guild, member, amount, reason="test"), ok)
        if ok:
            self.open_account(guild, member)
            self.balances[(guild, member)] += amount if grant else -amount

    @rule(guild=guilds, member=members)
    def claim_daily(self, guild: int, member: int) -> None:
        last = self.last_daily.get((guild, member))
        ok = DAILY[guild] > 0 and (last is None or self.clock.now >= last + COOLDOWN)
        self.attempt(self.store.claim_daily(guild, member), ok)
        if ok:
            self.open_account(guild, member)
            self.balances[(guild, member)] += DAILY[guild]
            self.last_daily[(guild, member)] = self.clock.now

    @rule(minutes=st.integers(1, 90))
    def time_passes(self, minutes: int) -> None:
        self.clock.now += timedelta(minutes=minutes)

    @rule(guild=guilds, amount=st.integers(0, 2000))
    def change_starting_chips(self, guild: int, amount: int) -> None:
        self.run(self.store.update_guild_settings(guild, starting_chips=amount))
        self.starting[guild] = amount

    @initialize()
    def two_players_sit_down(self) -> None:
        self.buy_in(slot=0, member=MEMBERS[0], amount=200, other=False)
        self.buy_in(slot=0, member=MEMBERS[1], amount=300, other=False)

    def guild_for(self, table: int, other: bool) -> int:
        """The table's own guild, or (to be refused) the other one."""
        guild = self.tables[table]["guild"]
        return (3 - guild) if other else guild

    @rule(slot=slots, member=members, amount=amounts, other=wrong_guild)
    def buy_in(self, slot: int, member: int, amount: int, other: bool) -> None:
        table = self.slots[slot]
        t = self.tables[table]
        guild = self.guild_for(table, other)
        ok = (
            not other
            and t["open"]
            and member not in t["seats"]
            and MIN_BUY_IN <= amount <= MAX_BUY_IN
            and len(t["seats"]) < MAX_SEATS
            and amount <= self.balance(guild, member)
        )
        receipt = self.attempt(self.store.buy_in(guild, table, member, amount), ok)
        if ok:
            assert receipt is not None and receipt.seat is not None
            self.open_account(guild, member)
            self.balances[(guild, member)] -= amount
            t["seats"][member] = [receipt.seat.seat_no, amount]

    @rule(slot=slots, member=members, amount=st.integers(-5, 400), other=wrong_guild)
    def top_up(self, slot: int, member: int, amount: int, other: bool) -> None:
        table = self.slots[slot]
        t = self.tables[table]
        guild = self.guild_for(table, other)
        ok = (
            not other
            and t["open"]
            and member in t["seats"]
            and not self.frozen(table, member)
            and amount > 0
            and t["seats"][member][1] + amount <= MAX_BUY_IN
            and amount <= self.balance(guild, member)
        )
        self.attempt(self.store.top_up(guild, table, member, amount), ok)
        if ok:
            self.balances[(guild, member)] -= amount
            t["seats"][member][1] += amount

    @rule(slot=slots, member=members, other=wrong_guild)
    def cash_out(self, slot: int, member: int, other: bool) -> None:
        table = self.slots[slot]
        t = self.tables[table]
        guild = self.guild_for(table, other)
        ok = not other and member in t["seats"] and not self.frozen(table, member)
        self.attempt(self.store.cash_out(guild, table, member), ok)
        if ok:
            _, stack = t["seats"].pop(member)
            self.balances[(guild, member)] += stack

    @rule(slot=slots)
    def start_hand(self, slot: int) -> None:
        table = self.slots[slot]
        t = self.tables[table]
        players = {seat: member for member, (seat, _) in t["seats"].items()}
        ok = t["open"] and t["hand"] is None and bool(players)
        hand_id = self.attempt(
            self.store.create_hand(table, players=players, deck="Ah Kd 5c", commitment="c", salt="s"), ok
        )
        if ok:
            start = {member: stack for member, (_, stack) in t["seats"].items()}
            t["hand"] = {"id": hand_id, "start": start, "seq": 0}

    @rule(slot=slots, data=st.data())
    def play_a_hand(self, slot: int, data: st.DataObject) -> None:
        """Deal, act and settle (or void) in one go, so most runs see whole hands."""
        self.start_hand(slot)
        table = self.slots[slot]
        if self.tables[table]["hand"] is None:
            return
        for _ in range(data.draw(st.integers(0, 3))):
            self.act(data)
        self.end_hand(data, void=data.draw(st.sampled_from([False, False, False, True])))

    @precondition(lambda self: any(t["hand"] for t in self.tables.values()))
    @rule(data=st.data())
    def act(self, data: st.DataObject) -> None:
        table = data.draw(st.sampled_from(sorted(i for i, t in self.tables.items() if t["hand"])))
        hand = self.tables[table]["hand"]
        hand["seq"] += 1
        assert self.run(self.store.append_action(hand["id"], hand["seq"], f"action {hand['seq']}"))

    @precondition(lambda self: any(t["hand"] for t in self.tables.values()))
    @rule(data=st.data(), void=st.booleans())
    def end_hand(self, data: st.DataObject, void: bool) -> None:
        table = data.draw(st.sampled_from(sorted(i for i, t in self.tables.items() if t["hand"])))
        t = self.tables[table]
        hand = t["hand"]
        t["hand"] = None
        if void:
            assert self.run(self.store.void_hand(hand["id"], "could not be resumed"))
            event("hand voided")
            return
        # One winner takes up to 60 from each other player's stack.
        winner = data.draw(st.sampled_from(sorted(hand["start"])))
        finals = dict(hand["start"])
        for member in finals:
            if member != winner:
                lost = min(finals[member], data.draw(st.integers(0, 60)))
                finals[member] -= lost
                finals[winner] += lost
        by_seat = {t["seats"][m][0]: v for m, v in finals.items()}
        assert self.run(self.store.settle_hand(hand["id"], by_seat, "phh")).applied
        for member, stack in finals.items():
            t["seats"][member][1] = stack
        self.settled.append((hand["id"], by_seat))
        event("hand settled")

    @precondition(lambda self: bool(self.settled))
    @rule(data=st.data())
    def settle_again(self, data: st.DataObject) -> None:
        hand_id, by_seat = data.draw(st.sampled_from(self.settled))
        assert not self.run(self.store.settle_hand(hand_id, by_seat, "phh")).applied

    @rule(slot=slots, other=wrong_guild)
    def close_table(self, slot: int, other: bool) -> None:
        table = self.slots[slot]
        t = self.tables[table]
        guild = self.guild_for(table, other)
        ok = not other and t["open"] and t["hand"] is None
        self.attempt(self.store.close_table(guild, table), ok)
        if ok:
            for member, (_, stack) in t["seats"].items():
                self.balances[(guild, member)] += stack
            t["seats"] = {}
            t["open"] = False
            assert self.run(self.store.seats(table)) == []
            self.slots[slot] = self.open_table(guild, t["channel"])  # the game goes on at a new table

    # -- invariants -----------------------------------------------------------------------------

    @invariant()
    def store_matches_model(self) -> None:
        report = self.run(self.store.audit())
        assert report.ok, report.all_problems()
        for guild in GUILDS:
            rows = self.run(self.store.leaderboard(guild, limit=100))
            assert {(guild, r.member_id): r.balance for r in rows} == {
                k: v for k, v in self.balances.items() if k[0] == guild
            }
        for table in self.slots:  # closed tables were checked empty when they closed
            t = self.tables[table]
            seats = self.run(self.store.seats(table))
            assert {s.member_id: [s.seat_no, s.stack] for s in seats} == t["seats"]


def test_economy_against_model(backend: str, request: pytest.FixtureRequest) -> None:
    """The state machine on each backend (a fresh database per example)."""
    machine: type[EconomyMachine] = EconomyMachine
    if backend == "postgresql":
        server = request.getfixturevalue("postgres_server")

        class PostgresMachine(EconomyMachine):
            @staticmethod
            def new_database(folder: Path) -> Path | str:
                return str(server.create_database())

        machine = PostgresMachine
    run_state_machine_as_test(
        machine, settings=settings(max_examples=12, stateful_step_count=50, deadline=None)
    )
