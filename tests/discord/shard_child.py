"""A bot process for ``test_shards.py``: the real Wildstud bot against the parent test's fake Discord.

Usage: ``python shard_child.py API_BASE GATEWAY_URL TOKEN``; the database and shards come from the
environment (``DATABASE_URL``, ``SHARD_COUNT``, ``SHARD_IDS``, ``TABLE_LEASE_SECONDS``), exactly as
``wildstud run`` reads them. Logs go to standard error. The parent stops it with SIGTERM (a clean
stop, handing its leases back) or kills it with SIGKILL.
"""

from __future__ import annotations

import asyncio
import logging
import random
import signal
import sys


async def serve(token: str) -> None:
    from bot.discord.client import make_bot
    from bot.settings import load_settings

    bot = make_bot(load_settings(dotenv=False), rng=random.Random(7))
    bot._connection.guild_ready_timeout = 0.01  # the fake sends every GUILD_CREATE at once
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    async with bot:
        runner = asyncio.create_task(bot.start(token))
        waiter = asyncio.create_task(stop.wait())
        await asyncio.wait({runner, waiter}, return_when=asyncio.FIRST_COMPLETED)
        if runner.done():
            runner.result()  # a start-up failure: raise it
    logging.getLogger("shard_child").info("stopped cleanly")


def main() -> None:
    api_base, gateway, token = sys.argv[1:4]
    import discord
    import yarl

    discord.http.Route.BASE = api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(name)s: %(message)s")
    asyncio.run(serve(token))


if __name__ == "__main__":
    main()
