"""The floor of a click for ``bench_click_cpu.py --floor``: a minimal discord.py bot that makes the
same Discord traffic per click as Wildstud's table and does nothing else.

Usage: ``python floor_bot.py API_BASE GATEWAY_URL TOKEN CHANNEL_ID SCENE_JSON``, where the scene is
``{"text": ..., "labels": [...], "picture": PATH or null}``: the table message as the real bot last
drew it (its text, its buttons' labels, its table picture). On start the bot posts that message
(a Components V2 container: the text, the picture in a media gallery, the buttons in rows of five).
Each click on any of its buttons is answered as Wildstud answers an action: the message redrawn in
the interaction's answer (type 7, the picture uploaded again), a ping posted as a followup (the
next player's mention, ``wait=True`` for its id) and the previous ping deleted. The buttons are
``DynamicItem``s dispatched by discord.py, default intents, no message cache: discord.py as a bot
would use it. What this process spends per click is what discord.py itself costs for that traffic.
"""

from __future__ import annotations

import io
import json
import logging
import sys
from typing import Any

import discord
import yarl
from discord.ext import commands


class Scene:
    def __init__(self, path: str) -> None:
        data = json.loads(open(path, encoding="utf-8").read())
        self.text: str = data["text"]
        self.labels: list[str] = data["labels"]
        self.picture: bytes | None = open(data["picture"], "rb").read() if data["picture"] else None

    def files(self) -> list[discord.File]:
        return [] if self.picture is None else [discord.File(io.BytesIO(self.picture), "table.png")]

    def view(self, turn: int) -> discord.ui.LayoutView:
        children: list[discord.ui.Item[Any]] = [discord.ui.TextDisplay(self.text)]
        if self.picture is not None:
            children.append(discord.ui.MediaGallery(discord.MediaGalleryItem("attachment://table.png")))
        buttons = [Action(turn, i, label) for i, label in enumerate(self.labels)]
        children += [discord.ui.ActionRow(*buttons[at:at + 5]) for at in range(0, len(buttons), 5)]
        view = discord.ui.LayoutView(timeout=None)
        view.add_item(discord.ui.Container(*children))
        return view


SCENE: Scene
PINGS: list[discord.WebhookMessage] = []


class Action(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"floor:(?P<turn>\d+):(?P<i>\d+)"):
    def __init__(self, turn: int, i: int, label: str = "?") -> None:
        super().__init__(discord.ui.Button(label=label[:80], custom_id=f"floor:{turn}:{i}"))
        self.turn = turn

    @classmethod
    async def from_custom_id(cls, interaction: Any, item: Any, match: Any) -> Action:
        return cls(int(match["turn"]), int(match["i"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.edit_message(view=SCENE.view(self.turn + 1), attachments=SCENE.files())
        ping = await interaction.followup.send(f"<@{interaction.user.id}> to act", wait=True)
        if PINGS:
            await PINGS.pop().delete()
        PINGS.append(ping)


class FloorBot(commands.Bot):
    def __init__(self, channel_id: int) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         max_messages=None, help_command=None)
        self.channel_id = channel_id

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Action)

    async def on_ready(self) -> None:
        channel = self.get_channel(self.channel_id)
        assert isinstance(channel, discord.TextChannel)
        await channel.send(view=SCENE.view(0), files=SCENE.files())


def main() -> None:
    global SCENE
    api_base, gateway, token, channel_id, scene = sys.argv[1:6]
    SCENE = Scene(scene)
    discord.http.Route.BASE = api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    bot = FloorBot(int(channel_id))
    bot._connection.guild_ready_timeout = 0.01      # the fake sends every GUILD_CREATE at once
    bot.run(token, log_handler=None)


if __name__ == "__main__":
    main()
