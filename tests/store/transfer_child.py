"""The child process of ``test_transfer_race.py``: many ``/chips give`` one way between two members.

Usage: ``python transfer_child.py URL SENDER RECIPIENT COUNT CONCURRENCY START``: waits until the
wall-clock time START (so two children begin together), then makes COUNT transfers of 1 chip from
SENDER to RECIPIENT, CONCURRENCY at a time, and prints one JSON line: how many were applied and the
type names of the exceptions the others raised."""

from __future__ import annotations

import asyncio
import json
import sys
import time

GUILD = 1


async def main(url: str, sender: int, recipient: int, count: int, concurrency: int, start: float) -> None:
    from bot.store import Store

    store = await Store.open(url)
    try:
        await asyncio.sleep(max(0.0, start - time.time()))
        gate = asyncio.Semaphore(concurrency)
        failures: list[str] = []
        applied = 0

        async def give(n: int) -> None:
            nonlocal applied
            async with gate:
                try:
                    receipt = await store.transfer(GUILD, sender, recipient, 1, key=f"{sender}-{n}")
                    applied += receipt.applied
                except Exception as error:  # what a member would see: the test counts them
                    failures.append(type(error).__name__)

        await asyncio.gather(*(give(n) for n in range(count)))
        print(json.dumps({"applied": applied, "failures": failures}), flush=True)
    finally:
        await store.close()


if __name__ == "__main__":
    url, sender, recipient, count, concurrency, start = sys.argv[1:]
    asyncio.run(main(url, int(sender), int(recipient), int(count), int(concurrency), float(start)))
