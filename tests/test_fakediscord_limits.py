"""The fake Discord's rate limits and Components V2, checked against Discord's documentation.

Rate limits (Discord docs, "Rate Limits"): every answer of a limited route carries
``X-RateLimit-Limit/Remaining/Reset/Reset-After/Bucket``; buckets count per top-level resource
(channel, guild, webhook id + token) and the bucket hash leaves the resource out; message create,
edit and delete in one channel share 5 per 5 s; the global limit is 50 requests per second; a
refused request gets 429 with ``retry_after`` (seconds) in the body, ``X-RateLimit-Scope`` and, for
the global limit, ``X-RateLimit-Global``; interaction callbacks and the interaction's webhook are
limited per interaction token and exempt from the global limit.

Components V2 (Discord docs, "Components" / "Message flags"): flag 1 << 15; nested layout
components; ``attachment://`` names a file uploaded with the request; at most 40 components and
4,000 characters of text; no ``content``/``embeds`` on such a message.

Where discord.py can make the request it does (the bot below); raw HTTP is used only to send
what discord.py would refuse to build, or to read headers discord.py hides.
"""

from __future__ import annotations

import asyncio
import io
import time
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fakediscord import FakeDiscord, start_bot
from tests.fakediscord.components import IS_COMPONENTS_V2

SCALE = 0.01
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64  # the fake keeps bytes; it does not decode images


def table_layout(text: str, name: str = "table.png", *, label: str = "Call") -> discord.ui.LayoutView:
    view = discord.ui.LayoutView(timeout=None)
    button: discord.ui.Button[discord.ui.LayoutView] = discord.ui.Button(label=label, custom_id="v2:call")

    async def on_call(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.edit_message(
            view=table_layout("called", "table2.png", label="Check"),
            attachments=[discord.File(io.BytesIO(PNG), filename="table2.png")],
        )

    button.callback = on_call  # type: ignore[method-assign]
    view.add_item(
        discord.ui.Container(
            discord.ui.TextDisplay(f"## {text}"),
            discord.ui.MediaGallery(
                discord.MediaGalleryItem(f"attachment://{name}", description="the table")
            ),
            discord.ui.Separator(),
            discord.ui.Section("Pot 30", accessory=discord.ui.Thumbnail(f"attachment://{name}")),
            discord.ui.ActionRow(button),
        )
    )
    return view


class Limits(commands.GroupCog, group_name="lim"):
    def __init__(self, bot: LimitBot) -> None:
        self.bot = bot

    @app_commands.command(description="Post n messages in the channel")
    async def burst(self, interaction: discord.Interaction[Any], n: int) -> None:
        await interaction.response.defer(ephemeral=True)
        assert isinstance(interaction.channel, discord.TextChannel)
        for i in range(n):
            await interaction.channel.send(f"message {i}")
        await interaction.followup.send("done", ephemeral=True)

    @app_commands.command(description="Send n follow-ups")
    async def follow(self, interaction: discord.Interaction[Any], n: int) -> None:
        await interaction.response.send_message("first")
        for i in range(n):
            await interaction.followup.send(f"follow-up {i}")

    @app_commands.command(description="Post the V2 table")
    async def table(self, interaction: discord.Interaction[Any]) -> None:
        assert isinstance(interaction.channel, discord.TextChannel)
        await interaction.channel.send(
            view=table_layout("Hand #3 · third street"),
            file=discord.File(io.BytesIO(PNG), filename="table.png"),
        )
        await interaction.response.send_message("posted", ephemeral=True)

    @app_commands.command(description="A V2 message whose media names no upload")
    async def orphan(self, interaction: discord.Interaction[Any]) -> None:
        assert isinstance(interaction.channel, discord.TextChannel)
        try:
            await interaction.channel.send(
                view=table_layout("x", "missing.png"),
                file=discord.File(io.BytesIO(PNG), filename="table.png"),
            )
        except discord.HTTPException as exc:
            self.bot.errors.append((exc.status, exc.code, str(exc.text)))
        await interaction.response.send_message("tried", ephemeral=True)


class LimitBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())
        self.errors: list[tuple[int, int, str]] = []

    async def setup_hook(self) -> None:
        await self.add_cog(Limits(self))


@pytest.fixture
async def bot(fake_discord: FakeDiscord) -> LimitBot:
    b = LimitBot()
    await start_bot(b, fake_discord)
    return b


async def raw(
    fake: FakeDiscord, method: str, path: str, body: Any = None, *, retry: bool = False
) -> tuple[int, Any, dict[str, str]]:
    """One request to the fake with the bot's token, as Discord would see it; with ``retry``, a 429
    is waited out (``retry_after``) and sent again, as a client does."""
    while True:
        async with (
            aiohttp.ClientSession() as session,
            session.request(
                method, fake.api_base + path, json=body, headers={"Authorization": f"Bot {fake.token}"}
            ) as resp,
        ):
            data = await resp.json() if resp.content_type == "application/json" else None
            if resp.status == 429 and retry:
                await asyncio.sleep(data["retry_after"])
                continue
            return resp.status, data, dict(resp.headers)


# -- rate limits ---------------------------------------------------------------------------------


def test_the_limits_cannot_be_turned_off() -> None:
    fake = FakeDiscord()
    assert fake.time_scale == SCALE
    with pytest.raises(ValueError, match="cannot be turned off"):
        fake.time_scale = 0


async def test_every_answer_carries_the_rate_limit_headers(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    poker = fake.guild().channel("poker")
    status, _, headers = await raw(fake, "GET", f"/channels/{poker.id}")
    assert status == 200
    for name in (
        "X-RateLimit-Limit",
        "X-RateLimit-Remaining",
        "X-RateLimit-Reset",
        "X-RateLimit-Reset-After",
        "X-RateLimit-Bucket",
    ):
        assert name in headers
    assert int(headers["X-RateLimit-Remaining"]) == int(headers["X-RateLimit-Limit"]) - 1
    assert (
        abs(float(headers["X-RateLimit-Reset"]) - time.time() - float(headers["X-RateLimit-Reset-After"]))
        < 0.5
    )
    status, _, headers = await raw(fake, "POST", f"/channels/{poker.id}/messages", {"content": "hi"})
    assert status == 200 and headers["X-RateLimit-Limit"] == "5" and headers["X-RateLimit-Remaining"] == "4"
    assert 0 < float(headers["X-RateLimit-Reset-After"]) <= 5 * SCALE + 0.001
    # An error answer is counted and carries the headers too.
    status, _, headers = await raw(fake, "POST", f"/channels/{poker.id}/messages", {})
    assert status == 400 and headers["X-RateLimit-Remaining"] == "3"


async def test_create_edit_delete_of_one_channel_share_five_per_window(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    fake.time_scale = 1.0  # real windows: the requests below all fall into one
    guild = fake.guild()
    poker, lobby = guild.channel("poker"), guild.channel("lobby")
    base = f"/channels/{poker.id}/messages"
    _, made, h1 = await raw(fake, "POST", base, {"content": "one"})
    _, _, h2 = await raw(fake, "POST", base, {"content": "two"})
    _, _, h3 = await raw(fake, "PATCH", f"{base}/{made['id']}", {"content": "one, edited"})
    _, _, h4 = await raw(fake, "POST", base, {"content": "three"})
    status, _, h5 = await raw(fake, "DELETE", f"{base}/{made['id']}")
    assert status == 204
    assert [h["X-RateLimit-Remaining"] for h in (h1, h2, h3, h4, h5)] == ["4", "3", "2", "1", "0"]
    assert len({h["X-RateLimit-Bucket"] for h in (h1, h2, h3, h4, h5)}) == 1
    status, body, h6 = await raw(fake, "POST", base, {"content": "six"})
    assert status == 429
    assert body["global"] is False and 0 < body["retry_after"] <= 5.0 and "rate limited" in body["message"]
    assert h6["X-RateLimit-Scope"] == "user" and "X-RateLimit-Global" not in h6 and h6["Via"]
    assert fake.rate_limited[-1].rate_limited == "user" and fake.rate_limited[-1].status == 429
    assert "six" not in [m.text for m in fake.channel_messages(poker)]
    # Another channel is another top-level resource: its own bucket, the same bucket hash.
    status, _, other = await raw(fake, "POST", f"/channels/{lobby.id}/messages", {"content": "lobby"})
    assert status == 200 and other["X-RateLimit-Remaining"] == "4"
    assert other["X-RateLimit-Bucket"] == h1["X-RateLimit-Bucket"]


async def test_a_window_resets_after_retry_after(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    poker = fake.guild().channel("poker")
    base = f"/channels/{poker.id}/messages"
    statuses = [(await raw(fake, "POST", base, {"content": str(i)}))[0] for i in range(6)]
    assert statuses == [200] * 5 + [429]
    retry = fake.rate_limited[-1].reset_after
    await asyncio.sleep(retry + 0.005)
    assert (await raw(fake, "POST", base, {"content": "again"}))[0] == 200


async def test_the_global_limit_is_fifty_per_second(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    fake.time_scale = 1.0
    guild = fake.guild()
    routes = [
        f"/channels/{guild.channel('poker').id}",
        f"/channels/{guild.channel('lobby').id}",
        f"/guilds/{guild.id}",
        "/users/@me",
    ]
    statuses = [(await raw(fake, "GET", routes[i % 4]))[0] for i in range(50)]
    assert statuses == [200] * 50  # no route bucket is full: 13 or fewer each
    status, body, headers = await raw(fake, "GET", routes[0])
    assert status == 429 and body["global"] is True and 0 < body["retry_after"] <= 1.0
    assert headers["X-RateLimit-Global"] == "true" and headers["X-RateLimit-Scope"] == "global"
    assert fake.rate_limited[-1].rate_limited == "global"


async def test_interactions_are_limited_per_token_and_exempt_from_the_global_limit(
    fake_discord: FakeDiscord, bot: LimitBot
) -> None:
    fake = fake_discord
    fake.time_scale = 1.0
    guild = fake.guild()
    for i in range(50):  # use up the global limit with ordinary requests
        await raw(fake, "GET", f"/guilds/{guild.id}" if i % 2 else "/users/@me")
    assert (await raw(fake, "GET", "/users/@me"))[0] == 429
    res = await fake.slash(guild.member("alice"), "lim follow", {"n": 3})
    assert [m.text for m in res.messages] == ["first", "follow-up 0", "follow-up 1", "follow-up 2"]
    mine = [r for r in fake.requests if r.bucket == f"interaction:{res.token}"]
    assert (
        len(mine) == 4 and not any(r.counts_global for r in mine) and not any(r.status == 429 for r in mine)
    )
    assert [r.remaining for r in mine] == [4, 3, 2, 1]
    # A second interaction has a bucket of its own.
    other = await fake.slash(guild.member("bob"), "lim follow", {"n": 0})
    assert [r.remaining for r in fake.requests if r.bucket == f"interaction:{other.token}"] == [4]


async def test_discord_py_paces_itself_and_the_waits_are_recorded(
    fake_discord: FakeDiscord, bot: LimitBot
) -> None:
    """Seven messages into one channel: the fifth uses the bucket up, so discord.py sleeps until the
    window resets (5 s x scale) instead of getting a 429."""
    fake = fake_discord
    poker = fake.guild().channel("poker")
    mark = len(fake.requests)
    start = time.monotonic()
    res = await fake.slash(fake.guild().member("alice"), "lim burst", {"n": 7}, channel=poker)
    elapsed = time.monotonic() - start
    assert res.text == "done"
    posts = fake.requests_matching("POST", f"/channels/{poker.id}/messages")
    assert [r.status for r in posts] == [200] * 7 and not fake.rate_limited
    assert [r.remaining for r in posts][:5] == [4, 3, 2, 1, 0] and posts[4].exhausted
    assert elapsed >= 5 * SCALE
    waits = [
        w
        for w in fake.rate_limit_waits
        if w.how == "exhausted" and w.path == f"/channels/{poker.id}/messages"
    ]
    assert waits and all(0 < w.seconds <= 5 * SCALE + 0.001 for w in waits)
    cost = fake.traffic(mark)
    assert (cost.channel_messages, cost.global_counted, cost.interaction, cost.rate_limited) == (7, 7, 2, 0)
    assert cost.requests == 9 and cost.waited >= 1 and cost.wait_seconds > 0


async def test_a_429_is_retried_by_discord_py(fake_discord: FakeDiscord, bot: LimitBot) -> None:
    fake = fake_discord
    fake.time_scale = 0.2  # 1-second windows: on a busy machine 50 ms ran out before the bot's post
    poker = fake.guild().channel("poker")
    for i in range(5):  # someone else (a second process) used the channel's bucket up
        await raw(fake, "POST", f"/channels/{poker.id}/messages", {"content": f"other {i}"})
    fake.bot_errors.clear()
    res = await fake.slash(fake.guild().member("alice"), "lim burst", {"n": 1}, channel=poker)
    assert res.text == "done"
    statuses = [r.status for r in fake.requests_matching("POST", f"/channels/{poker.id}/messages")]
    assert statuses[:5] == [200] * 5 and 429 in statuses[5:] and statuses[-1] == 200
    assert any(w.how == "429" for w in fake.rate_limit_waits)
    assert fake.last_message(poker).text == "message 0"


# -- Components V2 -------------------------------------------------------------------------------


async def test_a_layout_view_with_an_uploaded_picture_is_accepted_and_clickable(
    fake_discord: FakeDiscord, bot: LimitBot
) -> None:
    fake = fake_discord
    poker = fake.guild().channel("poker")
    await fake.slash(fake.guild().member("alice"), "lim table", channel=poker)
    table = fake.last_message(poker)
    assert table.flags & IS_COMPONENTS_V2 and table.content == "" and not table.embeds
    assert "Hand #3 · third street" in table.text and "Pot 30" in table.text
    assert [c["type"] for c in table.components] == [17]
    assert [a.filename for a in table.attachments] == ["table.png"] and table.attachments[0].data == PNG
    click = await fake.click(fake.guild().member("bob"), table, label="Call")
    assert click.response_type == 7
    assert "called" in table.text and table.button_labels == ["Check"]
    assert [a.filename for a in table.attachments] == ["table2.png"] and table.flags & IS_COMPONENTS_V2


async def test_media_must_name_a_file_of_the_same_request(fake_discord: FakeDiscord, bot: LimitBot) -> None:
    fake = fake_discord
    await fake.slash(fake.guild().member("alice"), "lim orphan")
    [(status, code, text)] = bot.errors
    assert (status, code) == (400, 50035) and "missing.png" in text


def v2(*components: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"flags": IS_COMPONENTS_V2, "components": list(components), **extra}


def text(content: str) -> dict[str, Any]:
    return {"type": 10, "content": content}


BUTTON = {"type": 2, "style": 1, "label": "Go", "custom_id": "go"}


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        (v2(text("hi"), content="legacy text"), "content"),
        (v2(text("hi"), embeds=[{"title": "legacy"}]), "embeds"),
        (v2(*[text(f"line {i}") for i in range(41)]), "components"),
        (
            v2({"type": 17, "components": [text(f"{i}") for i in range(40)]}),
            "components",
        ),  # 41 with the container
        (v2(text("x" * 2001), text("y" * 2000)), "components"),
        (
            v2({"type": 11, "media": {"url": "https://example.com/a.png"}}),
            "components.0",
        ),  # thumbnail on its own
        (v2({"type": 9, "components": [text("no accessory")]}), "components.0.accessory"),
        (v2({"type": 9, "components": [text("a")], "accessory": text("b")}), "components.0.accessory"),
        (
            v2({"type": 17, "components": [{"type": 17, "components": [text("nested")]}]}),
            "components.0.components.0",
        ),
        (
            v2({"type": 12, "items": [{"media": {"url": "attachment://nothing.png"}}]}),
            "components.0.items.0.media.url",
        ),
        (v2({"type": 12, "items": []}), "components.0.items"),
        (v2(BUTTON), "components.0"),  # a button outside a row or section
        ({"components": [text("V2 component without the flag")]}, "components.0"),
        (
            {"components": [{"type": 1, "components": [text("text in a legacy row")]}]},
            "components.0.components.0",
        ),
    ],
)
async def test_what_discord_refuses_in_components_v2(
    fake_discord: FakeDiscord, payload: dict[str, Any], field: str
) -> None:
    fake = fake_discord
    poker = fake.guild().channel("poker")
    status, body, _ = await raw(fake, "POST", f"/channels/{poker.id}/messages", payload)
    assert status == 400 and body["code"] == 50035 and body["message"] == "Invalid Form Body"
    assert field in body["errors"] and body["errors"][field]["_errors"][0]["code"]
    assert fake.channel_messages(poker) == []


async def test_components_v2_edits_keep_the_flag_and_its_rules(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    poker = fake.guild().channel("poker")
    base = f"/channels/{poker.id}/messages"
    ok = v2(
        {
            "type": 17,
            "components": [text("table"), {"type": 14, "spacing": 2}, {"type": 1, "components": [BUTTON]}],
        }
    )
    status, made, _ = await raw(fake, "POST", base, ok, retry=True)
    assert status == 200 and made["flags"] & IS_COMPONENTS_V2
    status, body, _ = await raw(
        fake, "PATCH", f"{base}/{made['id']}", {"flags": 0, "components": []}, retry=True
    )
    assert status == 400 and "flags" in body["errors"]
    status, body, _ = await raw(fake, "PATCH", f"{base}/{made['id']}", {"content": "legacy"}, retry=True)
    assert status == 400 and "content" in body["errors"]
    status, edited, _ = await raw(
        fake, "PATCH", f"{base}/{made['id']}", {"components": [text("moved on")]}, retry=True
    )
    assert status == 200 and edited["flags"] & IS_COMPONENTS_V2
    assert fake.message(int(made["id"])).text == "moved on"
    # A legacy message becomes V2 only without its content.
    status, legacy, _ = await raw(fake, "POST", base, {"content": "old table"}, retry=True)
    status, body, _ = await raw(fake, "PATCH", f"{base}/{legacy['id']}", v2(text("new")), retry=True)
    assert status == 400 and "content" in body["errors"]
    status, _, _ = await raw(fake, "PATCH", f"{base}/{legacy['id']}", v2(text("new"), content=""), retry=True)
    assert status == 200 and fake.message(int(legacy["id"])).flags & IS_COMPONENTS_V2


async def test_forty_components_and_four_thousand_characters_are_allowed(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    poker = fake.guild().channel("poker")
    payload = v2({"type": 17, "components": [text("x" * 100) for _ in range(39)]})
    assert (await raw(fake, "POST", f"/channels/{poker.id}/messages", payload, retry=True))[0] == 200
    payload = v2(text("x" * 2000), text("y" * 2000))
    assert (await raw(fake, "POST", f"/channels/{poker.id}/messages", payload, retry=True))[0] == 200
