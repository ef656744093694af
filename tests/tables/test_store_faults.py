"""Store failures at a table (issue 18), on both backends: the database itself refuses a write (a
trigger that raises, as a server going away or a conflict that keeps failing would), or a write is
committed but its caller hears a failure (a connection dropped after the commit). Every time the
player is told the true reason, nothing is done twice or lost, and the table catches up with the
store by itself once the database is back, as a restart would."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.store import Store
from bot.tables.errors import DatabaseUnavailable, TableError
from bot.tables.notices import NoticeKind
from bot.tables.options import TableOptions
from bot.tables.runner import RETRY_SECONDS
from tests.postgres import RawDb
from tests.tables.helpers import NO_TIMERS, Harness

UNREACHABLE = "The database is unreachable, so your action was not taken"


@pytest.fixture(params=("sqlite", "postgresql"))
def db_path(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Path | str]:
    if request.param == "postgresql":
        yield str(request.getfixturevalue("pg_url"))
    else:
        yield tmp_path / "faults.sqlite3"


class Faults:
    """Triggers that make the database refuse writes to one table, added and dropped from outside."""

    def __init__(self, target: Path | str) -> None:
        self.target = target
        self.postgres = str(target).startswith("postgresql://")
        self.names: list[tuple[str, str]] = []

    def fail(self, table: str, event: str) -> None:
        name = f"fault_{table}_{event.lower()}"
        with RawDb(self.target) as db:
            if self.postgres:
                db.execute(
                    f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS"
                    " $$ BEGIN RAISE EXCEPTION 'injected fault'; END $$"
                )
                db.execute(f"CREATE TRIGGER {name} BEFORE {event} ON {table}"
                           f" FOR EACH ROW EXECUTE FUNCTION {name}()")
            else:
                db.execute(f"CREATE TRIGGER {name} BEFORE {event} ON {table}"
                           " BEGIN SELECT RAISE(ABORT, 'injected fault'); END")
        self.names.append((name, table))

    def heal(self) -> None:
        with RawDb(self.target) as db:
            for name, table in self.names:
                if self.postgres:
                    db.execute(f"DROP TRIGGER {name} ON {table}")
                    db.execute(f"DROP FUNCTION {name}()")
                else:
                    db.execute(f"DROP TRIGGER {name}")
        self.names.clear()


async def two_players(store: Store, db_path: Path | str, options: TableOptions | None = None) -> Harness:
    h = Harness(store, Path(str(db_path)), **({"options": options} if options else {}))
    await h.table(("Ann", 500), ("Ben", 500))
    return h


async def play_to_the_end(h: Harness) -> None:
    await h.service.deal(h.key, h.members["Ann"])
    await until_over(h)


async def until_over(h: Harness) -> None:
    """``Harness.passive`` up to the hand's last action (whether or not it is settled)."""
    table = h.service.table(h.key)
    while table.hand is not None and not table.hand.engine.is_over:
        prompt = h.prompt()
        names = [o.action for o in prompt.options]
        action = next(a for a in ("show", "bring_in", "check", "call") if a in names)
        await h.service.act(h.key, prompt.member, prompt.hand_id, prompt.turn, action)


def stacks(h: Harness) -> dict[str, int]:
    table = h.service.table(h.key)
    return {s.name: s.stack for s in table.seats.values()}


async def test_a_failed_settle_recovers_by_itself_when_the_database_is_back(
        store: Store, db_path: Path | str) -> None:
    h = await two_players(store, db_path)
    faults = Faults(db_path)
    await h.service.deal(h.key, h.members["Ann"])
    faults.fail("hands", "UPDATE")               # the settlement's UPDATE hands ... 'finished'
    await until_over(h)                          # the last action is stored; the settle fails
    assert any("database is unreachable" in t and "not recorded yet" in t for t in h.texts(NoticeKind.INFO))
    table = h.service.table(h.key)
    assert table.hand is not None and table.hand.engine.is_over
    hand_id = table.hand.hand_id
    with pytest.raises(DatabaseUnavailable, match="database is unreachable"):
        await h.service.deal(h.key, h.members["Ann"])        # not "Hand #1 is still being played"
    with pytest.raises(DatabaseUnavailable):
        await h.service.void_hand(h.key, h.members["Ann"], "nobody to act")
    assert (await store.get_hand(hand_id)).status == "in_progress"
    faults.heal()
    await h.clock.advance(sum(RETRY_SECONDS))    # nobody does anything: the retry settles it
    record = await store.get_hand(hand_id)
    assert record.status == "finished"
    assert table.hand is None
    assert stacks(h) == {table.name(p.member_id): p.final_stack for p in record.players}
    assert sum(stacks(h).values()) == 1000
    assert h.rec.showdowns(h.key), "the result is told once the hand is settled"
    await h.service.deal(h.key, h.members["Ann"])            # and the table deals again
    await h.passive()
    await h.audit_ok()


async def test_a_settle_that_committed_but_failed_is_told_and_not_applied_twice(
        store: Store, db_path: Path | str, monkeypatch: pytest.MonkeyPatch) -> None:
    h = await two_players(store, db_path)
    real = store.settle_hand
    calls: list[int] = []

    async def dropped_after_commit(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        result = await real(*args, **kwargs)
        if len(calls) == 1:
            raise ConnectionResetError("connection lost after the commit")
        return result

    monkeypatch.setattr(store, "settle_hand", dropped_after_commit)
    await play_to_the_end(h)
    table = h.service.table(h.key)
    assert table.hand is not None
    await h.service.deal(h.key, h.members["Ann"])   # the deal catches up first: settled, then dealt
    assert table.hand is not None and table.hand.hand_no == 2
    hands = await store.table_hands(table.table_id)
    assert [x.status for x in hands] == ["in_progress", "finished"]
    assert sum(stacks(h).values()) == 1000
    await h.passive()
    await h.audit_ok()


async def test_a_failed_append_is_refused_with_the_true_reason_and_the_hand_goes_on(
        store: Store, db_path: Path | str) -> None:
    h = await two_players(store, db_path)
    faults = Faults(db_path)
    await h.service.deal(h.key, h.members["Ann"])
    table = h.service.table(h.key)
    assert table.hand is not None
    before = list(table.hand.actions)
    prompt = h.prompt()
    faults.fail("hand_actions", "INSERT")
    with pytest.raises(DatabaseUnavailable, match=UNREACHABLE):
        await h.service.act(h.key, prompt.member, prompt.hand_id, prompt.turn, "bring_in")
    assert table.hand.actions == before                   # nothing happened in memory either
    with pytest.raises(DatabaseUnavailable):             # still down: refused again, same reason
        await h.service.act(h.key, prompt.member, prompt.hand_id, prompt.turn, "bring_in")
    faults.heal()
    await h.clock.advance(sum(RETRY_SECONDS))
    assert any("database is back" in t for t in h.texts(NoticeKind.INFO))
    again = h.prompt()
    assert (again.member, again.turn) == (prompt.member, prompt.turn)
    await h.passive()
    assert table.hand is None
    assert [x.status for x in await store.table_hands(table.table_id)] == ["finished"]
    await h.audit_ok()


async def test_an_append_committed_but_reported_failed_is_taken_from_the_store(
        store: Store, db_path: Path | str, monkeypatch: pytest.MonkeyPatch) -> None:
    h = await two_players(store, db_path)
    await h.service.deal(h.key, h.members["Ann"])
    prompt = h.prompt()
    real = store.append_action

    async def dropped_after_commit(*args: Any, **kwargs: Any) -> Any:
        await real(*args, **kwargs)
        raise ConnectionResetError("connection lost after the commit")

    monkeypatch.setattr(store, "append_action", dropped_after_commit)
    with pytest.raises(DatabaseUnavailable):
        await h.service.act(h.key, prompt.member, prompt.hand_id, prompt.turn, "bring_in")
    monkeypatch.setattr(store, "append_action", real)
    # The action is in the store; the table takes it from there (before, the next action stored at
    # the same number conflicted and the table refused everyone until a restart).
    await h.clock.advance(sum(RETRY_SECONDS))
    table = h.service.table(h.key)
    assert table.hand is not None and table.hand.turn == prompt.turn + 1
    assert h.prompt().member != prompt.member
    await h.passive()
    await h.audit_ok()


async def test_a_timeout_that_cannot_be_stored_is_tried_again(store: Store, db_path: Path | str) -> None:
    h = await two_players(store, db_path, TableOptions(turn_timeout=30, reminder_after=None))
    faults = Faults(db_path)
    await h.service.deal(h.key, h.members["Ann"])
    prompt = h.prompt()
    faults.fail("hand_actions", "INSERT")
    await h.clock.advance(31)                    # the timer's own store write fails: no traceback
    table = h.service.table(h.key)
    assert table.hand is not None and table.hand.turn == prompt.turn
    faults.heal()
    await h.clock.advance(RETRY_SECONDS[0])
    assert h.prompt().turn == prompt.turn        # prompted again, with a fresh timer
    await h.clock.advance(31)
    assert table.hand is None or table.hand.turn > prompt.turn
    await h.audit_ok()


async def test_a_deal_is_stored_whole_or_not_at_all(store: Store, db_path: Path | str) -> None:
    h = await two_players(store, db_path)
    faults = Faults(db_path)
    faults.fail("hand_actions", "INSERT")        # the deal order cannot be stored
    with pytest.raises(TableError):
        await h.service.deal(h.key, h.members["Ann"])
    table = h.service.table(h.key)
    assert table.hand is None
    # One transaction: no hand row without its deal order (a kill between the two steps used to
    # leave a hand the restart voided: "the hand has no deal order").
    assert await store.table_hands(table.table_id) == []
    faults.heal()
    await h.service.deal(h.key, h.members["Ann"])
    [hand] = await store.table_hands(table.table_id)
    assert hand.actions and hand.actions[0].startswith("seats ")
    await h.passive()
    await h.audit_ok()


class StoreClock:
    """The stores' clock (lease times), moved by hand."""

    def __init__(self) -> None:
        from datetime import UTC, datetime

        self.now = datetime(2026, 3, 1, 20, 0, tzinfo=UTC)

    def __call__(self) -> Any:
        return self.now


async def test_a_process_that_stalled_past_its_lease_cannot_write(db_path: Path | str) -> None:
    """Fencing (issue 18): process A deals, stalls past its lease, B takes the table over and
    resumes the hand; A's player's click is refused by the store (nothing stored), and B's table
    goes on (before, A's write went in and B refused its own players until a restart)."""
    from datetime import timedelta

    from bot.tables.errors import LeaseLost
    from bot.tables.leases import TableLeases
    from bot.tables.service import TableService

    when = StoreClock()
    store_a = await Store.open(db_path, clock=when)
    store_b = await Store.open(db_path, clock=when)
    try:
        a = Harness(store_a, Path(str(db_path)))
        a.service = TableService(store_a, a.rec, clock=a.clock, default_options=a.service.default_options,
                                 leases=TableLeases(store_a, owner="a", seconds=30))
        await a.table(("Ann", 500), ("Ben", 500))
        await a.service.deal(a.key, a.members["Ann"])
        prompt = a.prompt()
        when.now += timedelta(seconds=31)                 # A stalls: its lease lapses
        b = Harness(store_b, Path(str(db_path)))
        b.service = TableService(store_b, b.rec, clock=b.clock, default_options=b.service.default_options,
                                 leases=TableLeases(store_b, owner="b", seconds=30))
        assert await b.service.adopt() == [b.key]         # B takes the table and resumes the hand
        with pytest.raises(LeaseLost, match="Another Wildstud process deals this table now"):
            await a.service.act(a.key, prompt.member, prompt.hand_id, prompt.turn, "bring_in")
        [hand] = await store_b.table_hands(a.service.table(a.key).table_id)
        assert len(hand.actions) == prompt.turn - 1       # nothing of A's was stored
        await b.passive()                                 # B's players play the hand out
        assert (await store_b.get_hand(hand.id)).status == "finished"
        report = await store_b.audit()
        assert report.ok, report.all_problems()
    finally:
        await store_a.close()
        await store_b.close()


async def test_stakes_queued_for_a_deal_that_could_not_be_stored_stay_queued(
        store: Store, db_path: Path | str) -> None:
    from bot.engine.stakes import PRESETS

    h = await two_players(store, db_path)
    faults = Faults(db_path)
    ann = h.members["Ann"]
    await h.service.set_stakes(h.key, ann, PRESETS["medium"])
    faults.fail("tables", "UPDATE")              # the deal's "new stakes in force" cannot be stored
    with pytest.raises(DatabaseUnavailable):
        await h.service.deal(h.key, ann)
    table = h.service.table(h.key)
    assert table.pending_stakes == PRESETS["medium"] and table.stakes != PRESETS["medium"]
    faults.heal()
    await h.service.deal(h.key, ann)             # before, the change was dropped without a word
    assert table.stakes == PRESETS["medium"]
    assert any("New for this deal" in t for t in h.texts(NoticeKind.SETTINGS))
    await until_over(h)
    await h.audit_ok()


async def test_a_join_whose_settings_cannot_be_stored_seats_nobody(store: Store, db_path: Path | str) -> None:
    """Before, the buy-in was committed and then the settings save (the seat's name) failed: the
    player was told "not taken" while their chips sat in a seat the live table did not know (join:
    "You already have a seat"; leave: "You don't have a seat") until a restart."""
    h = await two_players(store, db_path)
    table = h.service.table(h.key)
    balance = await store.balance(h.key.guild, 104)
    faults = Faults(db_path)
    faults.fail("tables", "UPDATE")
    with pytest.raises(DatabaseUnavailable, match=UNREACHABLE):
        await h.service.join(h.key, 104, "Dee", buy_in=400)
    faults.heal()
    assert {s.member: s.stack for s in table.seats.values()} == \
        {s.member_id: s.stack for s in await store.seats(table.table_id)}
    assert await store.balance(h.key.guild, 104) == balance      # told "not taken": nothing taken
    seat = await h.service.join(h.key, 104, "Dee", buy_in=400)   # and joining again works
    assert seat.stack == 400 and table.name(104) == "Dee"
    await h.service.leave(h.key, 104)
    assert await store.balance(h.key.guild, 104) == balance
    await h.audit_ok()


async def test_a_table_whose_game_list_cannot_be_stored_is_not_half_opened(
        store: Store, db_path: Path | str) -> None:
    """Before, the table row was committed and then the dealer's-choice list save failed: the
    table was never registered and the channel was stuck until a restart (create: "already has an
    open table"; join and close: "There is no table")."""
    h = Harness(store, Path(str(db_path)))
    faults = Faults(db_path)
    faults.fail("tables", "UPDATE")
    await h.service.create_table(h.key, 101, game="dealers-choice", games=["seven-card-stud", "baseball"])
    faults.heal()
    table = h.service.table(h.key)
    assert table.allowed_games == ("seven-card-stud", "baseball")
    assert (await store.table_in_channel(h.key.channel)) is not None
    await h.service.close_table(h.key, 101)                      # the channel is not stuck
    await h.service.create_table(h.key, 101)


async def test_an_automatic_deal_that_could_not_be_stored_is_dealt_once_the_database_is_back(
        store: Store, db_path: Path | str) -> None:
    """Before, a failed automatic deal was never tried again: the table froze between hands."""
    h = await two_players(store, db_path, replace(NO_TIMERS, auto_deal_after=5.0))
    table = h.service.table(h.key)
    faults = Faults(db_path)
    faults.fail("hands", "INSERT")
    await h.clock.advance(10)                    # the automatic deal fails
    assert table.hand is None
    assert await store.table_hands(table.table_id) == []
    faults.heal()
    await h.clock.advance(sum(RETRY_SECONDS) + 10)
    assert table.hand is not None, "the table deals by itself once the database is back"
    await h.passive()
    await h.audit_ok()
