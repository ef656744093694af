"""The fake Discord (tests/fakediscord) drives the real discord.py 2.7 client end to end.

A tiny test-only bot exercises what Wildstud's cogs will need: a GroupCog with a nested group,
Member / bool / int / attachment options, ephemeral and public replies, defer + followups, a
DynamicItem button, a string select, two modal layouts, autocomplete, DMs with the 50007
fallback, file attachments, channel history, a mention-prefix command. Expected values come from
Discord's documented behaviour (cited per test), not from the fake's own output.
"""

from __future__ import annotations

import asyncio
import io
import re
import tomllib
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fakediscord import EPHEMERAL, FakeDiscord, FakeMessage, GuildSpec, restart_bot, start_bot, stop_bot

# -- the test-only bot ---------------------------------------------------------------------------


class TableButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"demo:t:(?P<table>\d+):(?P<action>[a-z]+)",
):
    """A button whose state lives in its custom_id, so any bot process can handle it."""

    def __init__(self, table: int, action: str) -> None:
        super().__init__(
            discord.ui.Button(label=f"{action.title()} {table}", custom_id=f"demo:t:{table}:{action}")
        )
        self.table = table
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TableButton:
        return cls(int(match["table"]), match["action"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        instance = getattr(interaction.client, "instance", "?")
        if self.action == "raise":
            await interaction.response.send_modal(RaiseModal())
            return
        if self.action == "think":  # type 6, then edit the button's message through @original
            await interaction.response.defer()
            await interaction.edit_original_response(content=f"table {self.table}: thought it over")
            await interaction.followup.send("only you see this", ephemeral=True)
            return
        await interaction.response.edit_message(
            content=f"table {self.table}: {interaction.user.name} pressed {self.action} (bot {instance})"
        )


class RaiseModal(discord.ui.Modal, title="Raise"):
    amount: discord.ui.TextInput[RaiseModal] = discord.ui.TextInput(label="Amount", custom_id="amount")

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(f"{interaction.user.name} raised to {int(self.amount.value)}")


class NoteModal(discord.ui.Modal, title="Note"):
    """The newer layout: a Label wrapping the text input (component type 18)."""

    note: discord.ui.Label[NoteModal] = discord.ui.Label(
        text="Your note", component=discord.ui.TextInput(custom_id="note_text")
    )

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        assert isinstance(self.note.component, discord.ui.TextInput)
        await interaction.response.send_message(f"noted: {self.note.component.value}", ephemeral=True)


class PickView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.select(
        custom_id="demo:pick",
        placeholder="Pick a game",
        options=[
            discord.SelectOption(label="Stud", value="stud"),
            discord.SelectOption(label="Razz", value="razz"),
        ],
    )
    async def pick(self, interaction: discord.Interaction[Any], select: discord.ui.Select[PickView]) -> None:
        await interaction.response.edit_message(content=f"game: {select.values[0]}")

    @discord.ui.select(cls=discord.ui.UserSelect, custom_id="demo:who", placeholder="Pick a player")
    async def who(
        self, interaction: discord.Interaction[Any], select: discord.ui.UserSelect[PickView]
    ) -> None:
        await interaction.response.edit_message(content=f"player: {select.values[0].name}")


RULINGS = ["wild-fives", "wild-followers", "bring-in"]


class Demo(commands.GroupCog, group_name="demo", group_description="Demo commands"):
    ruling = app_commands.Group(name="ruling", description="Rulings")

    def __init__(self, bot: DemoBot) -> None:
        self.bot = bot

    @app_commands.command(description="Greet someone")
    async def hello(
        self, interaction: discord.Interaction[Any], who: discord.Member, secret: bool = False
    ) -> None:
        await interaction.response.send_message(f"hello {who.display_name} ({who.id})", ephemeral=secret)

    @app_commands.command(description="Think, then answer")
    async def slow(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await asyncio.sleep(0)
        await interaction.followup.send("done thinking")
        await interaction.followup.send("second note")

    @app_commands.command(description="Post a table")
    async def table(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(TableButton(table_id, "call"))
        view.add_item(TableButton(table_id, "fold"))
        await interaction.response.send_message(f"table {table_id}", view=view)

    @app_commands.command(description="Pick a game")
    async def pick(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("which game?", view=PickView())

    @app_commands.command(name="raise", description="Raise with a modal")
    async def raise_(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_modal(RaiseModal())

    @app_commands.command(description="Leave a note")
    async def note(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_modal(NoteModal())

    @app_commands.command(description="DM cards")
    async def deal(self, interaction: discord.Interaction[Any], player: discord.Member) -> None:
        await interaction.response.defer(ephemeral=True)
        try:
            await player.send("your down cards: Ah Kd")
        except discord.HTTPException as exc:
            if exc.code != 50007:
                raise
            self.bot.dm_failures.append((player.id, exc.status))
            await interaction.followup.send(f"cannot DM {player.display_name}", ephemeral=True)
            return
        await interaction.followup.send("dealt", ephemeral=True)

    @app_commands.command(description="Export the hand")
    async def export(self, interaction: discord.Interaction[Any]) -> None:
        data = b'[hand]\nid = 7\nwinner = "alice"\n'
        await interaction.response.send_message(
            "history", file=discord.File(io.BytesIO(data), filename="hand.toml")
        )
        assert isinstance(interaction.channel, discord.TextChannel)
        await interaction.channel.send("copy", file=discord.File(io.BytesIO(data), filename="copy.toml"))

    @app_commands.command(description="Import a file")
    async def load(self, interaction: discord.Interaction[Any], file: discord.Attachment) -> None:
        parsed = tomllib.loads((await file.read()).decode())
        await interaction.response.send_message(f"loaded {file.filename}: id={parsed['hand']['id']}")

    @app_commands.command(description="Post in the channel")
    async def post(self, interaction: discord.Interaction[Any], text: str) -> None:
        assert isinstance(interaction.channel, discord.TextChannel)
        await interaction.channel.send(text)
        await interaction.response.send_message("posted", ephemeral=True)

    @app_commands.command(description="Edit, fetch and delete responses")
    async def edits(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("v1")
        await interaction.edit_original_response(content="v2")
        fetched = await interaction.original_response()
        first = await interaction.followup.send(f"fetched {fetched.content}", wait=True)
        await first.edit(content="f1 edited")
        doomed = await interaction.followup.send("doomed", wait=True)
        await doomed.delete()

    @app_commands.command(description="Too slow on purpose")
    async def sleepy(self, interaction: discord.Interaction[Any]) -> None:
        await asyncio.sleep(0.1)
        await interaction.response.send_message("late")

    @ruling.command(name="set", description="Set a ruling")
    @app_commands.describe(name="Ruling name", value="0 or 1")
    async def ruling_set(
        self, interaction: discord.Interaction[Any], name: str, value: app_commands.Range[int, 0, 1]
    ) -> None:
        await interaction.response.send_message(f"{name} = {value}")

    @ruling_set.autocomplete("name")
    async def ruling_name(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=r, value=r) for r in RULINGS if current in r]


class DemoBot(commands.Bot):
    def __init__(self, instance: str = "one", intents: discord.Intents | None = None) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=intents or discord.Intents.default())
        self.instance = instance
        self.dm_failures: list[tuple[int, int]] = []
        self.resumed = asyncio.Event()

    async def setup_hook(self) -> None:
        await self.add_cog(Demo(self))
        self.add_dynamic_items(TableButton)
        self.add_view(PickView())

    async def on_resumed(self) -> None:
        self.resumed.set()


@commands.command()
async def ping(ctx: commands.Context[DemoBot]) -> None:
    await ctx.send(f"pong {ctx.author.name}")


@commands.command()
@commands.is_owner()
async def whoami(ctx: commands.Context[DemoBot]) -> None:
    await ctx.send(f"{ctx.author.name} owns this bot")


@pytest.fixture
async def bot(fake_discord: FakeDiscord) -> DemoBot:
    b = DemoBot()
    await start_bot(b, fake_discord)
    return b


# -- connection ---------------------------------------------------------------------------------


async def test_login_ready_and_guild_create(fake_discord: FakeDiscord, bot: DemoBot) -> None:
    fake = fake_discord
    guild = fake.guild("Home game")
    assert bot.user is not None and bot.user.id == fake.bot_user.id
    assert bot.application_id == fake.application_id
    seen = bot.get_guild(guild.id)
    assert seen is not None and seen.name == "Home game"
    # Without the members intent discord.py caches only the bot's own member (member_cache_flags).
    assert [m.name for m in seen.members] == ["Wildstud"]
    assert [c.name for c in seen.text_channels] == ["poker", "lobby"]
    assert seen.owner_id == guild.owner_id
    # IDENTIFY sent exactly the intents the bot was built with; the token was checked and not kept.
    assert fake.identifies[-1]["intents"] == discord.Intents.default().value
    assert "token" not in fake.identifies[-1]
    assert [r.path for r in fake.requests[:2]] == ["/users/@me", "/oauth2/applications/@me"]


async def test_bad_token_is_a_login_failure(fake_discord: FakeDiscord) -> None:
    b = DemoBot()
    with pytest.raises(discord.LoginFailure):
        await b.login("wrong-token")
    await b.close()


async def test_reconnect_resumes_the_session(fake_discord: FakeDiscord, bot: DemoBot) -> None:
    alice = fake_discord.guild().member("alice")
    await fake_discord.reconnect_bot()
    await asyncio.wait_for(bot.resumed.wait(), 5)
    assert len(fake_discord.identifies) == 1  # resumed, not re-identified
    res = await fake_discord.slash(alice, "demo hello", {"who": alice})
    assert res.text.startswith("hello alice")


# -- application commands -----------------------------------------------------------------------


async def test_sync_payloads_are_recorded(fake_discord: FakeDiscord, bot: DemoBot) -> None:
    fake = fake_discord
    guild = fake.guild()
    synced = await bot.tree.sync()
    bot.tree.copy_global_to(guild=discord.Object(guild.id))
    await bot.tree.sync(guild=discord.Object(guild.id))
    assert [gid for gid, _ in fake.sync_calls] == [None, guild.id]
    demo = fake.synced[None]["demo"]
    # A GroupCog is one top-level command; its commands are subcommands (type 1) and the nested
    # app_commands.Group is a subcommand group (type 2): Discord's application-command docs.
    kinds = {o["name"]: o["type"] for o in demo["options"]}
    assert kinds["hello"] == 1 and kinds["ruling"] == 2 and kinds["raise"] == 1
    assert fake.synced[guild.id]["demo"]["guild_id"] == str(guild.id)
    assert synced[0].name == "demo" and synced[0].id == int(demo["id"])
    assert (await bot.tree.fetch_commands())[0].name == "demo"


async def test_slash_public_and_ephemeral_replies(fake_discord: FakeDiscord, bot: DemoBot) -> None:
    fake = fake_discord
    guild = fake.guild()
    alice, bob = guild.member("alice"), guild.member("bob")
    poker = guild.channel("poker")

    public = await fake.slash(alice, "demo hello", {"who": bob})
    assert public.response_type == 4 and not public.ephemeral
    # The Member option resolved to bob (data.resolved), so the bot knows his ID.
    assert public.text == f"hello bob ({bob.id})"
    assert public.original in fake.channel_messages(poker)

    secret = await fake.slash(alice, "demo hello", {"who": bob, "secret": True})
    assert secret.ephemeral and secret.original is not None and secret.original.flags & EPHEMERAL
    assert secret.original not in fake.channel_messages(poker)
    assert fake.ephemerals_for(alice) == [secret.original]
    assert secret.original not in fake.visible_to(bob, poker)
    assert secret.original in fake.visible_to(alice, poker)


async def test_options_are_checked_like_the_discord_client(fake_discord: FakeDiscord, bot: DemoBot) -> None:
    alice = fake_discord.guild().member("alice")
    with pytest.raises(ValueError, match="requires option 'who'"):
        await fake_discord.slash(alice, "demo hello", {})
    with pytest.raises(ValueError, match="max_value"):
        await fake_discord.slash(alice, "demo ruling set", {"name": "bring-in", "value": 2})
    with pytest.raises(TypeError):
        await fake_discord.slash(alice, "demo table", {"table_id": "seven"})
    with pytest.raises(ValueError, match="no slash command /nope"):
        await fake_discord.slash(alice, "nope")


async def test_defer_then_followups(fake_discord: FakeDiscord, bot: DemoBot) -> None:
    alice = fake_discord.guild().member("alice")
    res = await fake_discord.slash(alice, "demo slow")
    assert res.response_type == 5
    # The first followup after a "thinking" defer replaces the deferred message and keeps the
    # ephemeral choice made when deferring; later followups are separate messages.
    assert res.original is not None and res.original.ephemeral and not res.original.loading
    assert res.original.text == "done thinking"
    assert [m.text for m in res.followups] == ["second note"]
    assert not res.followups[0].ephemeral


async def test_button_click_edits_the_message(fake_discord: FakeDiscord, bot: DemoBot) -> None:
    fake = fake_discord
    guild = fake.guild()
    alice, bob = guild.member("alice"), guild.member("bob")
    res = await fake.slash(alice, "demo table", {"table_id": 7})
    table = res.original
    assert table is not None and table.button_labels == ["Call 7", "Fold 7"]
    click = await fake.click(bob, table, label="Fold 7")
    assert click.response_type == 7
    assert table.text == "table 7: bob pressed fold (bot one)"
    assert [h[0] for h in table.history] == ["table 7"]
    assert fake.find_message(guild.channel("poker"), with_button="Call 7") is table
    # A double click: two interactions reach the bot before it answers either; both are answered.
    first = await fake.click(alice, table, label="Call 7", wait=False)
    second = await fake.click(alice, table, label="Call 7", wait=False)
    await fake.settle()
    assert first.response_type == second.response_type == 7
    assert len(table.history) == 3


async def test_select_menu(fake_discord: FakeDiscord, bot: DemoBot) -> None:
    alice = fake_discord.guild().member("alice")
    res = await fake_discord.slash(alice, "demo pick")
    assert res.original is not None
    await fake_discord.select(alice, res.original, ["razz"], placeholder="Pick a game")
    assert res.original.text == "game: razz"
    with pytest.raises(ValueError):
        await fake_discord.select(alice, res.original, ["poker"], custom_id="demo:pick")
    bob = fake_discord.guild().member("bob")
    await fake_discord.select(alice, res.original, [bob], placeholder="Pick a player")
    assert res.original.text == "player: bob"


async def test_modal_round_trip_both_layouts(fake_discord: FakeDiscord, bot: DemoBot) -> None:
    alice = fake_discord.guild().member("alice")
    opened = await fake_discord.slash(alice, "demo raise")
    assert opened.response_type == 9 and opened.modal is not None and opened.modal["title"] == "Raise"
    submitted = await fake_discord.submit_modal(opened, {"Amount": "40"})
    assert submitted.text == "alice raised to 40"

    opened = await fake_discord.slash(alice, "demo note")
    submitted = await fake_discord.submit_modal(opened, {"note_text": "nice hand"})
    assert submitted.text == "noted: nice hand" and submitted.ephemeral


async def test_autocomplete(fake_discord: FakeDiscord, bot: DemoBot) -> None:
    alice = fake_discord.guild().member("alice")
    res = await fake_discord.autocomplete(alice, "demo ruling set", {"name": "wild"}, focused="name")
    assert res.response_type == 8
    assert res.choice_values == ["wild-fives", "wild-followers"]
    done = await fake_discord.slash(alice, "demo ruling set", {"name": "wild-fives", "value": 1})
    assert done.text == "wild-fives = 1"


# -- DMs ----------------------------------------------------------------------------------------


async def test_dm_delivered_only_to_its_owner(fake_discord: FakeDiscord, bot: DemoBot) -> None:
    fake = fake_discord
    guild = fake.guild()
    alice, bob = guild.member("alice"), guild.member("bob")
    res = await fake.slash(alice, "demo deal", {"player": bob})
    assert res.text == "dealt" and res.ephemeral
    assert [m.text for m in fake.dms_for(bob)] == ["your down cards: Ah Kd"]
    assert fake.dms_for(alice) == []
    # Across the guild and DMs, bob sees his DM but not the ephemeral "dealt" shown to alice.
    assert [m.text for m in fake.visible_to(bob)] == ["your down cards: Ah Kd"]
    assert [m.text for m in fake.visible_to(alice)] == ["dealt"]


async def test_closed_dms_fail_with_50007_on_send(fake_discord: FakeDiscord, bot: DemoBot) -> None:
    fake = fake_discord
    guild = fake.guild()
    alice, carol = guild.member("alice"), guild.member("carol")
    fake.set_dm_closed(carol)
    res = await fake.slash(alice, "demo deal", {"player": carol})
    assert res.text == "cannot DM carol"
    # Discord answers a send to a closed DM with 403 Forbidden, error code 50007.
    assert bot.dm_failures == [(carol.id, 403)]
    assert fake.dms_for(carol) == []


async def test_closed_dms_fail_with_50007_on_channel_create(fake_discord: FakeDiscord, bot: DemoBot) -> None:
    fake = fake_discord
    guild = fake.guild()
    alice, carol = guild.member("alice"), guild.member("carol")
    fake.set_dm_closed(carol, on_create=True)
    res = await fake.slash(alice, "demo deal", {"player": carol})
    assert res.text == "cannot DM carol"
    # Opening the DM channel can fail too, with 400 and the same code 50007.
    assert bot.dm_failures == [(carol.id, 400)]
    assert [r.status for r in fake.requests_matching("POST", "/users/@me/channels")] == [400]


async def test_button_in_a_dm(fake_discord: FakeDiscord, bot: DemoBot) -> None:
    fake = fake_discord
    bob = fake.guild().member("bob")
    dm = fake.dm_channel(bob)
    await fake.send_user_message(bob, dm, "hi")  # a user DMing the bot reaches it as MESSAGE_CREATE
    channel = await bot.fetch_channel(dm.id)
    assert isinstance(channel, discord.DMChannel)
    view = discord.ui.View(timeout=None)
    view.add_item(TableButton(3, "peek"))
    sent = await channel.send("your table", view=view)
    click = await fake.click(bob, sent.id, label="Peek 3")
    assert click.user.id == bob.id and click.member is None  # DM interactions carry `user`
    assert fake.message(sent.id).text == "table 3: bob pressed peek (bot one)"


# -- attachments, channel messages --------------------------------------------------------------


async def test_attachment_bytes_are_kept(fake_discord: FakeDiscord, bot: DemoBot) -> None:
    fake = fake_discord
    guild = fake.guild()
    alice = guild.member("alice")
    res = await fake.slash(alice, "demo export")
    assert res.original is not None
    (att,) = res.original.attachments
    assert att.filename == "hand.toml"
    assert tomllib.loads(att.text) == {"hand": {"id": 7, "winner": "alice"}}
    copy = fake.last_message(guild.channel("poker"))
    assert copy.text == "copy" and copy.attachments[0].data == att.data

    upload = fake.make_attachment("mine.toml", "[hand]\nid = 12\n")
    loaded = await fake.slash(alice, "demo load", {"file": upload})
    # The bot downloaded the bytes from the attachment URL the fake serves.
    assert loaded.text == "loaded mine.toml: id=12"


async def test_channel_history_and_edits_through_rest(fake_discord: FakeDiscord, bot: DemoBot) -> None:
    fake = fake_discord
    poker = fake.guild().channel("poker")
    channel = bot.get_channel(poker.id)
    assert isinstance(channel, discord.TextChannel)
    first = await channel.send("one")
    await channel.send("two")
    await first.edit(content="one (edited)")
    history = [m.content async for m in channel.history(limit=10)]
    assert history == ["two", "one (edited)"]  # Discord returns newest first
    fetched = await channel.fetch_message(first.id)
    assert fetched.content == "one (edited)" and fetched.edited_at is not None
    await fetched.delete()
    assert [m.text for m in fake.channel_messages(poker)] == ["two"]
    with pytest.raises(discord.NotFound):
        await channel.fetch_message(first.id)


async def test_message_limits_are_enforced(fake_discord: FakeDiscord, bot: DemoBot) -> None:
    channel = bot.get_channel(fake_discord.guild().channel("poker").id)
    assert isinstance(channel, discord.TextChannel)
    # Discord: content is at most 2000 characters (error 50035), and a message cannot be empty (50006).
    with pytest.raises(discord.HTTPException) as too_long:
        await channel.send("x" * 2001)
    assert too_long.value.code == 50035 and too_long.value.status == 400
    with pytest.raises(discord.HTTPException) as empty:
        await channel.send(embeds=[])
    assert empty.value.code == 50006


async def test_mention_prefix_command(fake_discord: FakeDiscord, bot: DemoBot) -> None:
    bot.add_command(ping)
    bot.add_command(whoami)
    guild = fake_discord.guild()
    poker = guild.channel("poker")
    mention = f"<@{fake_discord.bot_user.id}>"
    await fake_discord.send_user_message(guild.member("bob"), poker, f"{mention} ping")
    assert fake_discord.last_message(poker).text == "pong bob"
    # The application's owner (GET /oauth2/applications/@me) passes commands.is_owner().
    await fake_discord.send_user_message(guild.member("owner"), poker, f"{mention} whoami")
    assert fake_discord.last_message(poker).text == "owner owns this bot"


# -- restart ------------------------------------------------------------------------------------


async def test_restart_keeps_dynamic_buttons_working(fake_discord: FakeDiscord, bot: DemoBot) -> None:
    fake = fake_discord
    guild = fake.guild()
    alice, bob = guild.member("alice"), guild.member("bob")
    res = await fake.slash(alice, "demo table", {"table_id": 9})
    table = res.original
    assert table is not None
    second = DemoBot(instance="two")
    await restart_bot(bot, second, fake)
    assert bot.is_closed()
    # The new process never saw the message; the custom_id alone routes the click (DynamicItem).
    click = await fake.click(bob, table, label="Call 9")
    assert click.response_type == 7
    assert table.text == "table 9: bob pressed call (bot two)"
    await stop_bot(second, fake)


# -- failure modes ------------------------------------------------------------------------------


async def test_rate_limit_is_retried(fake_discord: FakeDiscord, bot: DemoBot) -> None:
    fake = fake_discord
    guild = fake.guild()
    fake.rate_limit("POST", "/channels/{channel_id}/messages", retry_after=0.02)
    res = await fake.slash(guild.member("alice"), "demo post", {"text": "after the 429"})
    assert res.text == "posted"
    assert [r.status for r in fake.requests_matching("POST", "/channels/*/messages")] == [429, 200]
    assert fake.last_message(guild.channel("poker")).text == "after the 429"


async def test_late_response_gets_10062(fake_discord: FakeDiscord, bot: DemoBot) -> None:
    fake = fake_discord
    fake.interaction_deadline = 0.02
    res = await fake.slash(fake.guild().member("alice"), "demo sleepy", expect_response=False)
    assert not res.responded and res.rejected == ["10062 Unknown interaction"]
    # discord.py's default tree error handler logged the NotFound; this test provoked it.
    assert any("10062" in e for e in fake.bot_errors)
    fake.bot_errors.clear()


async def test_double_acknowledge_gets_40060(fake_discord: FakeDiscord, bot: DemoBot) -> None:
    fake = fake_discord
    res = await fake.slash(fake.guild().member("alice"), "demo hello", {"who": fake.guild().member("bob")})
    url = f"{fake.api_base}/interactions/{res.id}/{res.token}/callback"
    async with (
        aiohttp.ClientSession() as session,
        session.post(url, json={"type": 4, "data": {"content": "x"}}) as r,
    ):
        assert r.status == 400
        assert r.headers["Content-Type"] == "application/json"
        assert (await r.json())["code"] == 40060


async def test_unimplemented_routes_are_reported(fake_discord: FakeDiscord, bot: DemoBot) -> None:
    channel = bot.get_channel(fake_discord.guild().channel("poker").id)
    assert isinstance(channel, discord.TextChannel)
    msg = await channel.send("react to me")
    with pytest.raises(discord.NotFound):
        await msg.add_reaction("\N{THUMBS UP SIGN}")
    assert fake_discord.unhandled and fake_discord.unhandled[0].startswith("PUT /channels/")
    with pytest.raises(AssertionError, match="does not implement"):
        fake_discord.assert_clean()
    fake_discord.unhandled.clear()


async def test_stale_or_hidden_components_cannot_be_clicked(fake_discord: FakeDiscord, bot: DemoBot) -> None:
    fake = fake_discord
    guild = fake.guild()
    alice, bob = guild.member("alice"), guild.member("bob")
    secret = await fake.slash(alice, "demo hello", {"who": bob, "secret": True})
    assert isinstance(secret.original, FakeMessage)
    with pytest.raises(LookupError):
        await fake.click(bob, secret.original, label="nothing")
    res = await fake.slash(alice, "demo table", {"table_id": 4})
    assert res.original is not None
    channel = bot.get_channel(guild.channel("poker").id)
    assert isinstance(channel, discord.TextChannel)
    await (await channel.fetch_message(res.original.id)).edit(view=None)
    with pytest.raises(LookupError):
        await fake.click(bob, res.original, label="Call 4")


async def test_second_guild_and_custom_spec() -> None:
    spec = GuildSpec(
        name="Club",
        members=("dave",),
        channels=("tables",),
        roles={"Dealer": 1 << 5},
        member_roles={"dave": ["Dealer"]},
    )
    async with FakeDiscord.start(guilds=[spec]) as fake:
        b = DemoBot(intents=discord.Intents.default() | discord.Intents(members=True))
        await start_bot(b, fake)  # the members intent makes discord.py request member chunks (op 8)
        dave = fake.guild("Club").member("dave")
        assert dave.permissions.manage_guild
        seen = b.get_guild(fake.guild("Club").id)
        assert seen is not None
        member = seen.get_member(dave.id)
        assert member is not None and member.guild_permissions.manage_guild
        res = await fake.slash(dave, "demo hello", {"who": dave})
        assert res.channel.name == "tables"
        late = fake.guild("Club").add_role("Late")
        await fake.refresh_guild(fake.guild("Club"))  # GUILD_CREATE again for changes after READY
        await fake.settle()
        assert seen.get_role(late.id) is not None
        await stop_bot(b, fake)
        fake.assert_clean()


async def test_autosharded_bot_finds_the_gateway_through_gateway_bot(fake_discord: FakeDiscord) -> None:
    b = commands.AutoShardedBot(command_prefix=commands.when_mentioned, intents=discord.Intents.default())
    await start_bot(b, fake_discord)
    # AutoShardedBot asks GET /gateway/bot for the URL and shard count, then IDENTIFYs shard [0, 1].
    assert fake_discord.requests_matching("GET", "/gateway/bot")
    assert fake_discord.identifies[-1]["shard"] == [0, 1]
    assert b.get_guild(fake_discord.guild().id) is not None
    # settle() cannot read this bot's websocket (one per shard), so it asks for a heartbeat (op 1).
    before = fake_discord.sessions[-1].conn.heartbeats if fake_discord.sessions[-1].conn else 0
    await fake_discord.settle()
    conn = fake_discord.sessions[-1].conn
    assert conn is not None and conn.heartbeats == before + 1
    await stop_bot(b, fake_discord)


async def test_many_interactions_stay_under_the_gateway_send_limit(
    fake_discord: FakeDiscord, bot: DemoBot
) -> None:
    # discord.py allows itself 110 gateway sends per minute and then sleeps for the rest of the
    # minute; waiting for the bot must not cost gateway sends, or a long hand would stall.
    guild = fake_discord.guild()
    res = await fake_discord.slash(guild.member("alice"), "demo table", {"table_id": 5})
    assert res.original is not None
    for _ in range(120):
        await fake_discord.click(guild.member("bob"), res.original, label="Call 5")
    # Each click waited for the bot (settle, 5 s limit): a stalled client would have failed here.
    assert len(res.original.history) == 120


async def test_original_response_edit_get_delete_and_followup_edits(
    fake_discord: FakeDiscord, bot: DemoBot
) -> None:
    res = await fake_discord.slash(fake_discord.guild().member("alice"), "demo edits")
    assert res.original is not None and res.original.text == "v2"
    assert [h[0] for h in res.original.history] == ["v1"]
    # original_response() read "v2" back (GET @original), as the first followup's first version
    # shows; the deleted followup is gone.
    assert res.followups[0].history[0][0] == "fetched v2"
    assert [m.text for m in res.followups if not m.deleted] == ["f1 edited"]
    assert [m.text for m in res.messages] == ["v2", "f1 edited"]
    paths = [
        f"{r.method} {r.path.split('/')[-1]}"
        for r in fake_discord.requests
        if r.path.startswith("/webhooks/")
    ]
    assert paths == [
        "PATCH @original",
        "GET @original",
        f"POST {res.token}",
        f"PATCH {res.followups[0].id}",
        f"POST {res.token}",
        f"DELETE {res.followups[1].id}",
    ]


async def test_deferred_update_and_modal_from_a_button(fake_discord: FakeDiscord, bot: DemoBot) -> None:
    fake = fake_discord
    guild = fake.guild()
    bob = guild.member("bob")
    channel = bot.get_channel(guild.channel("poker").id)
    assert isinstance(channel, discord.TextChannel)
    view = discord.ui.View(timeout=None)
    view.add_item(TableButton(8, "think"))
    view.add_item(TableButton(8, "raise"))
    posted = await channel.send("table 8", view=view)
    table = fake.message(posted.id)

    thought = await fake.click(bob, table, label="Think 8")
    # Type 6 acknowledges without a message; @original then means the button's own message.
    assert thought.response_type == 6 and thought.original is table
    assert table.text == "table 8: thought it over"
    assert [m.text for m in thought.followups] == ["only you see this"] and thought.followups[0].ephemeral

    opened = await fake.click(bob, table, label="Raise 8")
    assert opened.modal is not None
    submitted = await fake.submit_modal(opened, {"amount": "25"})
    assert submitted.payload["message"]["id"] == str(table.id)  # the modal came from this message
    assert submitted.text == "bob raised to 25"
