"""Helpers for the Discord end-to-end tests: build the real bot, and act as members do (slash
commands and button clicks through the fake Discord), reading only what members can see."""

from __future__ import annotations

import random
import re
from pathlib import Path

from bot.discord.client import WildstudBot
from bot.engine.cards.card import Card
from bot.settings import Settings
from bot.tables.clock import FakeClock
from bot.tables.options import TableOptions
from tests.fakediscord import FakeChannel, FakeDiscord, FakeGuild, FakeInteraction, FakeMember, FakeMessage

STARTING_CHIPS = 1000
"""A member's first balance in a server (the store's default guild setting)."""


def new_bot(db: Path, *, clock: FakeClock | None = None, seed: int = 7) -> WildstudBot:
    """The real bot on a temp database; time only moves when the test advances ``clock``, and the
    deck comes from a seeded generator (the production default is the OS CSPRNG)."""
    settings = Settings(discord_token=None, dev_guild_id=None, database_path=db, log_level="INFO")
    return WildstudBot(
        settings,
        clock=clock if clock is not None else FakeClock(),
        rng=random.Random(seed),
        table_options=TableOptions(),
    )


async def open_table(
    fake: FakeDiscord, dealer: FakeMember, channel: FakeChannel, players: list[FakeMember], **options: object
) -> FakeMessage:
    """``dealer`` runs ``/table create`` and every player clicks "Join" on the table message."""
    res = await fake.slash(dealer, "table create", dict(options), channel=channel)
    assert res.ephemeral and "Your table is open" in res.text, res.text
    lobby = table_message(fake, channel)
    for player in players:
        click = await fake.click(player, lobby, label="Join")
        assert "You sit in seat" in click.text, click.text
    return lobby


def said(res: FakeInteraction) -> str:
    """What an interaction told its member privately (its ephemeral messages), without the ping it
    may have sent to the next player to act."""
    return "\n".join(m.text for m in res.messages if m.ephemeral)


def channel_text(fake: FakeDiscord, channel: FakeChannel) -> str:
    """Everything the channel shows: every message's text and its text attachments (hand logs)."""
    parts: list[str] = []
    for message in fake.channel_messages(channel):
        parts.append(message.text)
        parts.extend(a.text for a in message.attachments if a.filename.endswith(".txt"))
    return "\n".join(parts)


def facts(message: FakeMessage) -> str:
    """What a table message tells everyone: its text and the alt text of its picture (the seats,
    stacks and cards the picture shows)."""
    alts = [
        str(item.get("description") or "")
        for comp in message.all_components()
        if comp.get("type") == 12
        for item in comp.get("items", [])
    ]
    alts.extend(a.description or "" for a in message.attachments)
    return "\n".join([message.text, *alts])


def table_message(fake: FakeDiscord, channel: FakeChannel) -> FakeMessage:
    """The channel's table message between hands (the newest message with a "Deal" button)."""
    return fake.find_message(channel, with_button="Deal")


def live_table(fake: FakeDiscord, channel: FakeChannel) -> FakeMessage:
    """The channel's table message, in a hand or between hands (the newest message with a "Join"
    button: the only one, once summaries have lost theirs)."""
    return fake.find_message(channel, with_button="Join")


def pings(fake: FakeDiscord, channel: FakeChannel) -> list[FakeMessage]:
    """The pings still in the channel (``<@id> your turn``), oldest first."""
    return [m for m in fake.channel_messages(channel) if "your turn" in m.content]


def prompts(fake: FakeDiscord, channel: FakeChannel) -> list[FakeMessage]:
    """Every ping the channel ever got, deleted ones too (one per turn), oldest first."""
    return [m for m in fake.channel_messages(channel, include_deleted=True) if "your turn" in m.content]


def current_prompt(fake: FakeDiscord, channel: FakeChannel) -> FakeMessage:
    """The table message while it offers the player to act their buttons (the only live ones)."""
    table = live_table(fake, channel)
    assert " to act" in table.text and len(table.buttons) > 2, (table.text, table.button_labels)
    return table


def prompted_member(guild: FakeGuild, prompt: FakeMessage) -> FakeMember:
    """The member the table message says is to act (``<@id> to act``)."""
    match = re.search(r"<@(\d+)> to act", prompt.text)
    assert match, prompt.text
    return guild.member(int(match.group(1)))


def label_starting(message: FakeMessage, *heads: str) -> str | None:
    """The first button label starting with one of ``heads`` (in the order given)."""
    for head in heads:
        for label in message.button_labels:
            if label.startswith(head):
                return label
    return None


def hand_over(fake: FakeDiscord, channel: FakeChannel, hand_no: int) -> bool:
    """True once the channel shows the deck reveal of hand ``hand_no`` (in every hand's summary)."""
    return any(f"Hand #{hand_no} deck" in m.text for m in fake.channel_messages(channel))


async def play_passively(fake: FakeDiscord, guild: FakeGuild, channel: FakeChannel, hand_no: int) -> int:
    """Every prompted player checks, else calls, else posts the bring-in, by clicking buttons,
    until the hand is over; returns the number of clicks."""
    clicks = 0
    while not hand_over(fake, channel, hand_no):
        prompt = current_prompt(fake, channel)
        label = label_starting(prompt, "Check", "Call", "Bring-in", "Show")
        assert label is not None, prompt.button_labels
        res = await fake.click(prompted_member(guild, prompt), prompt, label=label)
        assert not res.rejected and res.response_type == 7, (res.response_type, res.text)
        clicks += 1
        assert clicks < 100
    return clicks


async def dealt_deck(bot: WildstudBot, guild: FakeGuild, channel: FakeChannel, hand_no: int) -> list[Card]:
    """The deck order hand ``hand_no`` of ``channel``'s table was dealt from (top card first), read from
    the bot's database: the channel never sees it (only the cards everyone saw are opened)."""
    from bot.tables.notices import TableKey

    table_id = bot.service.table(TableKey(guild.id, channel.id)).table_id
    for hand in await bot.store.table_hands(table_id):
        if hand.hand_no == hand_no:
            return [Card.parse(code) for code in hand.deck]
    raise AssertionError(f"no hand #{hand_no} at the table in #{channel.name}")


def hand_log(fake: FakeDiscord, channel: FakeChannel, hand_no: int) -> str:
    """The full narrated log of a finished hand: the ``hand-N-log.txt`` of its summary."""
    for message in fake.channel_messages(channel):
        for attachment in message.attachments:
            if attachment.filename == f"hand-{hand_no}-log.txt":
                return attachment.text
    raise AssertionError(f"no log of hand #{hand_no} in #{channel.name}")


async def stored_deal_order(
    bot: WildstudBot, guild: FakeGuild, channel: FakeChannel, hand_no: int
) -> list[str]:
    """Names in deal order of hand ``hand_no`` (also while it is played), from the bot's database:
    the log's first entry (``seats 2 3 1``) and the names the table knows."""
    from bot.tables.notices import TableKey

    snapshot = bot.service.snapshot(TableKey(guild.id, channel.id))
    for hand in await bot.store.table_hands(snapshot.table_id):
        if hand.hand_no == hand_no:
            member_of = {p.seat_no: p.member_id for p in hand.players}
            return [snapshot.name(member_of[int(n)]) for n in hand.actions[0].split()[1:]]
    raise AssertionError(f"no hand #{hand_no} at the table in #{channel.name}")


def deal_order(fake: FakeDiscord, channel: FakeChannel, hand_no: int) -> list[str]:
    """Names in deal order, from the hand's first line (``Hand #1: carol deals to alice, bob and carol.``),
    read from the hand's log."""
    match = re.search(rf"Hand #{hand_no}: \S+ deals to ([^.]+)\.", hand_log(fake, channel, hand_no))
    if match:
        return re.split(r", | and ", match.group(1))
    raise AssertionError(f"no start line for hand #{hand_no}")


async def total_chips(bot: WildstudBot, guild_id: int) -> int:
    """Chips in the guild: balances plus chips in play at tables (from the leaderboard)."""
    rows = await bot.store.leaderboard(guild_id, limit=1000)
    return sum(r.total for r in rows)
