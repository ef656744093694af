"""The audit against hand-made tampering that keeps every balance equal to its ledger sum.

Each case edits the database behind the store's back (dropping the append-only triggers first, as
someone editing the file would) so that the per-member sums still agree, yet chips were created or
destroyed. Each case says why that is so; the audit must name the row or movement.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import Store
from tests.postgres import RawDb

G, ALICE, BOB, CAROL = 100, 11, 12, 13

TAMPERING = {
    # Bob's side of the transfer says +500 while Alice's says -100, and Bob's balance is raised to
    # match: Bob's ledger still sums to his balance, but 400 chips came from nowhere.
    "one-sided transfer": (
        "UPDATE ledger SET delta = 500 WHERE kind = 'transfer' AND member_id = 12;"
        " UPDATE balances SET chips = chips + 400 WHERE member_id = 12;",
        "transfer",
    ),
    # Bob's side of the transfer is deleted and his balance lowered to match: Alice paid 100 that
    # nobody received.
    "half a transfer deleted": (
        "DELETE FROM ledger WHERE kind = 'transfer' AND member_id = 12;"
        " UPDATE balances SET chips = chips - 100 WHERE member_id = 12;",
        "transfer",
    ),
    # Carol's buy-in put 300 on her seat but is rewritten to take nothing from her balance (and
    # her balance is given the 300 back): the seat's 300 were created.
    "buy-in that takes nothing from the balance": (
        "UPDATE ledger SET delta = 0 WHERE kind = 'buy_in' AND member_id = 13;"
        " UPDATE balances SET chips = chips + 300 WHERE member_id = 13;",
        "buy_in",
    ),
    # A settlement row that also credits Alice's balance by 50 (and her balance to match): a hand
    # result moves chips between stacks only, so these 50 came from nowhere.
    "hand result paid into a balance": (
        "UPDATE ledger SET delta = 50 WHERE kind = 'hand' AND member_id = 11;"
        " UPDATE balances SET chips = chips + 50 WHERE member_id = 11;",
        "hand",
    ),
    # A "take" that adds chips: an admin take can only remove them.
    "take with the wrong sign": (
        "UPDATE ledger SET delta = -delta WHERE kind = 'take';"
        " UPDATE balances SET chips = chips + 20 WHERE member_id = 13;",
        "take",
    ),
}


async def _play(path: Path) -> None:
    async with await Store.open(path) as store:
        await store.transfer(G, ALICE, BOB, 100)
        table = await store.create_table(G, 9000, ALICE)
        await store.buy_in(G, table.id, ALICE, 300)
        await store.buy_in(G, table.id, BOB, 300)
        await store.buy_in(G, table.id, CAROL, 300)
        await store.take(G, CAROL, 10, reason="late fee")
        hand = await store.create_hand(
            table.id, players={1: ALICE, 2: BOB}, deck="Ah", commitment="c", salt="s"
        )
        await store.settle_hand(hand, {1: 350, 2: 250}, "phh")
        assert (await store.audit()).ok


@pytest.mark.parametrize("case", sorted(TAMPERING))
async def test_audit_catches_movements_that_create_or_destroy_chips(db_path: Path | str, case: str) -> None:
    path = db_path
    await _play(path)
    sql, kind = TAMPERING[case]
    with RawDb(path) as db:
        on = " ON ledger" if db.postgres else ""
        drop = f"DROP TRIGGER ledger_no_update{on}; DROP TRIGGER ledger_no_delete{on};"
        for statement in (drop + sql).split(";"):
            if statement.strip():
                db.execute(statement)
    async with await Store.open(path) as store:
        report = await store.audit()
    assert not report.ok, case
    # Every member's ledger still sums to their balance: only the new checks can see this.
    assert not any("ledger sums to" in p for p in report.all_problems()), report.all_problems()
    assert any(kind in p for p in report.all_problems()), report.all_problems()
