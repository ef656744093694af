"""Opposite ``/chips give`` between two processes on one PostgreSQL database (issue 18): before,
both transactions read both balances at SERIALIZABLE and one of each conflicting pair was aborted,
so under contention some gave up after every retry with a raw ``SerializationError``. Transfers
now lock the two balance rows in a fixed order and wait for each other instead."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from bot.store import Store

CHILD = Path(__file__).with_name("transfer_child.py")
GUILD, ANN, BEN = 1, 11, 12
COUNT, CONCURRENCY = 150, 8


def test_opposite_transfers_between_two_processes_all_succeed(pg_url: str) -> None:
    async def setup() -> None:
        async with await Store.open(pg_url) as store:
            for member in (ANN, BEN):
                await store.grant(GUILD, member, 10_000, reason="race test")

    asyncio.run(setup())
    start = f"{time.time() + 2.0:.3f}"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    children = [
        subprocess.Popen(
            [sys.executable, str(CHILD), pg_url, str(a), str(b), str(COUNT), str(CONCURRENCY), start],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        )
        for a, b in ((ANN, BEN), (BEN, ANN))
    ]
    results = []
    for child in children:
        out, err = child.communicate(timeout=300)
        assert child.returncode == 0, err[-2000:]
        results.append(json.loads(out.strip().splitlines()[-1]))
    assert [r["failures"] for r in results] == [[], []]
    assert [r["applied"] for r in results] == [COUNT, COUNT]

    async def check() -> None:
        async with await Store.open(pg_url) as store:
            starting = 1000                                  # the guild's starting chips, then the grant
            assert await store.balance(GUILD, ANN) == starting + 10_000
            assert await store.balance(GUILD, BEN) == starting + 10_000
            report = await store.audit()
            assert report.ok, report.all_problems()

    asyncio.run(check())
