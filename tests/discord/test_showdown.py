"""Issue 10 through the real discord.py client against the fake Discord: a fold, a muck at the
showdown and an uncontested win, then everything each member can see -- the channel (every version
of every message), their DMs, their ephemeral replies, their ``/hand history`` file and their
``/hand verify`` answer -- is scanned for cards in both notations (``Qc`` and ``Q♣``), and must hold
no down card of another player that was not shown.

What was public is worked out here from the stacked deck and the deal order alone (see the hands
below), never from the bot's own reveal.
"""

from __future__ import annotations

from pathlib import Path

from bot.discord.client import WildstudBot
from bot.engine.cards.card import FULL_DECK, Card, parse_cards
from bot.settings import Settings
from bot.tables.clock import FakeClock
from bot.tables.notices import TableKey
from bot.tables.options import TableOptions
from tests.discord.helpers import (
    current_prompt,
    dealt_deck,
    hand_over,
    label_starting,
    open_table,
    prompted_member,
    stored_deal_order,
)
from tests.fakediscord import FakeDiscord, FakeMessage, start_bot
from tests.fakediscord.models import embed_text, iter_components
from tests.tables.helpers import StackedRandom, stacked_deck
from tests.tables.test_secrecy import card_tokens

# Deal order p1..p4 (no five anywhere, so nothing but fives is wild and none is dealt):
HANDS = [
    "Ks Kd Kh 9c 8d 2c 3h",   # p1: three kings -- wins, shown without being asked
    "Qs Qd Jh Jc 4d 4s 7c",   # p2: two pair -- best board, first to act on seventh: shows first
    "As 2d 3c 6h 7d 8h Td",   # p3: ace-high, brings in (3c) -- beaten by p2's shown hand: mucks
    "9h 9s 6c Tc Jd Qc 2s",   # p4: folds on third street (only the door card 6c is ever dealt up)
]


def _deck() -> list[Card]:
    """The deck order for ``HANDS`` with p4 folding on third street: three passes to all four
    players, then one card per street to p1..p3 only (SPEC §2 pass order); the rest follow."""
    cards = [h.split() for h in HANDS]
    order = [Card.parse(c[k]) for k in range(3) for c in cards]
    order += [Card.parse(c[k]) for k in range(3, 7) for c in cards[:3]]
    return order + [c for c in FULL_DECK if c not in set(order)]


def _down(hand: str) -> set[Card]:
    cards = hand.split()
    return set(parse_cards("".join(cards[:2] + cards[6:])))


def _message_texts(message: FakeMessage) -> list[str]:
    """The message now and every earlier version of it (an edited message was seen each way)."""
    # Text attachments (hand logs, histories, verify commands) are read; pictures are drawn from
    # snapshots that hold no other player's down cards (tests/discord/test_budget.py decodes them).
    out = [message.text, *(a.text for a in message.attachments if not a.filename.endswith(".png"))]
    for content, embeds, components in message.history:
        out.append(content)
        out.extend(line for embed in embeds for line in embed_text(embed))
        out.extend(str(c.get("content", "")) for c in iter_components(components))
    return out


async def test_fold_muck_and_uncontested_win_leak_no_down_card_to_any_member(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    guild = fake.guild()
    dave, erin = guild.add_member("dave"), guild.add_member("erin")      # erin only watches
    alice, bob, carol = (guild.member(n) for n in ("alice", "bob", "carol"))
    settings = Settings(discord_token=None, dev_guild_id=None, database_path=tmp_path / "ws.sqlite3",
                        log_level="INFO")
    bot = WildstudBot(settings, clock=FakeClock(), rng=StackedRandom(_deck(), seed=3),
                      table_options=TableOptions())
    await start_bot(bot, fake)
    poker = guild.channel("poker")
    players = [alice, bob, carol, dave]
    await open_table(fake, alice, poker, players)
    by_name = {m.name: m for m in players}

    # ---- hand 1: p4 folds, p3 mucks, p1 wins at the showdown
    await fake.slash(alice, "table deal", channel=poker)
    order1 = [by_name[n] for n in (await stored_deal_order(bot, guild, poker, 1))]
    _, _, p3, p4 = order1
    mucker_prompt: FakeMessage | None = None
    for member in players:                      # everyone asks for "My cards" once (ephemeral)
        await fake.click(member, current_prompt(fake, poker), label="My cards")
    for _ in range(60):
        if hand_over(fake, poker, 1):
            break
        prompt = current_prompt(fake, poker)
        actor = prompted_member(guild, prompt)
        if "Muck" in prompt.button_labels:
            assert actor.id == p3.id and prompt.button_labels[:2] == ["Show", "Muck"]
            mucker_prompt = prompt
            label = "Muck"
        elif actor.id == p4.id:
            label = "Fold"
        else:
            label = label_starting(prompt, "Check", "Call", "Bring-in") or ""
        res = await fake.click(actor, prompt, label=label)
        assert not res.rejected, res.text
    assert hand_over(fake, poker, 1) and mucker_prompt is not None
    channel_now = "\n".join(m.text for m in fake.channel_messages(poker))
    assert "mucks" in channel_now and "shows" in channel_now

    # ---- hand 2: the bring-in is posted and everyone folds to it
    await fake.slash(alice, "table deal", channel=poker)
    for _ in range(10):
        if hand_over(fake, poker, 2):
            break
        prompt = current_prompt(fake, poker)
        label = label_starting(prompt, "Bring-in") or "Fold"
        await fake.click(prompted_member(guild, prompt), prompt, label=label)
    assert hand_over(fake, poker, 2)
    order2 = [by_name[n] for n in (await stored_deal_order(bot, guild, poker, 2))]
    deck2 = await dealt_deck(bot, guild, poker, 2)
    n = len(order2)
    summary2 = [m for m in fake.channel_messages(poker) if "Hand #2 deck" in m.text]
    assert summary2 and all("shows" not in m.text for m in summary2)     # the winner showed nothing

    # ---- what was public, from the deal alone
    hands1 = dict(zip((m.id for m in order1), HANDS, strict=True))
    public1 = {c for h in HANDS[:3] for c in parse_cards("".join(h.split()[2:6]))} | {Card.parse("6c")}
    public1 |= _down(HANDS[0]) | _down(HANDS[1])                       # p1 and p2 were shown
    own1 = {m: (_down(h) if m != p4.id else set(parse_cards("9h9s"))) for m, h in hands1.items()}
    # Hand 2 ended on third street: two down passes, then the door cards (SPEC §2 pass order).
    public2 = set(deck2[2 * n: 3 * n])
    own2 = {m.id: {deck2[i], deck2[n + i]} for i, m in enumerate(order2)}
    every_down = set().union(*own1.values(), *own2.values())

    for member in [*players, erin]:
        texts: list[str] = []
        for message in fake.visible_to(member, poker):     # the channel and their own ephemerals
            texts += _message_texts(message)
        for message in fake.dms_for(member):
            texts += _message_texts(message)
        for number in (1, 2):
            for command in ("hand history", "hand verify"):
                res = await fake.slash(member, command, {"number": number}, channel=poker)
                assert res.ephemeral
                for message in res.messages:
                    texts += _message_texts(message)
        seen = set().union(*(card_tokens(t) for t in texts))
        allowed = public1 | public2 | own1.get(member.id, set()) | own2.get(member.id, set())
        leaked = (seen & every_down) - allowed
        assert not leaked, (member.name, sorted(c.code for c in leaked))
        # Players do see their own down cards (DM, My cards, their history), in either notation.
        if member is not erin:
            assert own1[member.id] <= seen and own2[member.id] <= seen, member.name
    # The mucked and folded hands and the uncontested winner's hole cards stayed closed to all but
    # their owner; the shown hands were opened to everyone.
    watched = [t for m in fake.visible_to(erin, poker) for t in _message_texts(m)]
    spectator = set().union(*(card_tokens(t) for t in watched))
    assert _down(HANDS[0]) | _down(HANDS[1]) <= spectator
    assert not spectator & (_down(HANDS[2]) | set(parse_cards("9h9s")))


async def test_show_and_muck_slash_commands_and_table_automuck(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    guild = fake.guild()
    erin = guild.add_member("erin")
    alice, bob, carol = (guild.member(n) for n in ("alice", "bob", "carol"))
    settings = Settings(discord_token=None, dev_guild_id=None, database_path=tmp_path / "ws.sqlite3",
                        log_level="INFO")
    bot = WildstudBot(settings, clock=FakeClock(), rng=StackedRandom(stacked_deck(HANDS[:3]), seed=3),
                      table_options=TableOptions())
    await start_bot(bot, fake)
    poker = guild.channel("poker")
    await open_table(fake, alice, poker, [alice, bob, carol])
    refused = await fake.slash(erin, "table automuck", {"setting": "on"}, channel=poker)
    assert refused.ephemeral and "not seated" in refused.text
    await fake.slash(alice, "table deal", channel=poker)
    by_name = {m.name: m for m in (alice, bob, carol)}
    _, _, p3 = (by_name[n] for n in (await stored_deal_order(bot, guild, poker, 1)))
    early = await fake.slash(p3, "muck", channel=poker)          # p3 brings in: no showdown yet
    assert early.ephemeral and "nothing to show" in early.text
    for _ in range(40):
        prompt = current_prompt(fake, poker)
        if "Muck" in prompt.button_labels:
            break
        label = label_starting(prompt, "Check", "Call", "Bring-in") or ""
        await fake.click(prompted_member(guild, prompt), prompt, label=label)
    assert prompted_member(guild, current_prompt(fake, poker)).id == p3.id
    mucked = await fake.slash(p3, "muck", channel=poker)
    assert mucked.ephemeral and mucked.text == "You muck.", mucked.text
    assert hand_over(fake, poker, 1)
    # Auto-muck is a seat setting: confirmed privately and kept at the table.
    on = await fake.slash(p3, "table automuck", {"setting": "on"}, channel=poker)
    assert on.ephemeral and "Auto-muck is on" in on.text
    assert bot.service.table(TableKey(guild.id, poker.id)).automuck == {p3.id}
    off = await fake.slash(p3, "table automuck", {"setting": "off"}, channel=poker)
    assert off.ephemeral and "Auto-muck is off" in off.text
