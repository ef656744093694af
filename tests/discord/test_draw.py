"""A draw game at a Discord table (issue 22), through the real discord.py client against the fake
Discord: the player to draw chooses their discards privately ("Choose discards" opens an ephemeral
picker: a select of their own cards, "Draw N", "Stand pat"), the picker's picture marks the chosen
cards before they confirm, the new cards come in that same private message, and the channel learns
only how many each player drew. One player draws three, one stands pat from the table message, one
lets the timer stand pat for them.

Nothing a member can see (the channel's messages, their alt text and files, the member's own
ephemeral replies and DMs, the hand log) names a card of another player's hand or discards, unless
it was shown at the showdown; and a draw costs no request to the channel (the table is redrawn
through the webhook of the click that opened the picker) and none under the global limit."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

from PIL import Image

from bot.engine.cards.card import Card
from bot.engine.log import Deal
from bot.render.pictures import PICTURE_WIDTH, TABLE_SIZE
from bot.tables.clock import FakeClock
from bot.tables.notices import TableKey
from tests.discord import test_log_secrets
from tests.discord.budget import ActionCost, _cost
from tests.discord.helpers import (
    current_prompt,
    facts,
    hand_over,
    label_starting,
    live_table,
    new_bot,
    open_table,
    prompted_member,
)
from tests.fakediscord import FakeChannel, FakeDiscord, FakeGuild, FakeMember, FakeMessage, start_bot
from tests.tables.test_secrecy import card_tokens

draw_debug_log = test_log_secrets.debug_log
"""The root logger at DEBUG as ``wildstud run`` sets it up, written to a string (issue 18's fixture)."""

PICK = "Choose discards"


def _seen_by(fake: FakeDiscord, member: FakeMember) -> str:
    """Everything ``member`` can see: every message visible to them (the channel's, their own
    ephemeral replies, their DMs), with each message's components (labels, select options, alt
    text) and its attachments' descriptions and text files."""
    parts: list[str] = []
    for message in fake.visible_to(member):
        parts.append(facts(message))
        parts.append(json.dumps(message.components, ensure_ascii=False))
        parts.extend(a.text for a in message.attachments if a.filename.endswith(".txt"))
        for old in message.history:            # every earlier version of an edited message
            parts.append(json.dumps(old, ensure_ascii=False))
    return "\n".join(parts)


async def _until_a_draw(fake: FakeDiscord, guild: FakeGuild, poker: FakeChannel, costs: list[ActionCost]
                        ) -> FakeMessage:
    """Check (else call) until the table message offers a draw; returns it."""
    for _ in range(20):
        table = current_prompt(fake, poker)
        if PICK in table.button_labels:
            return table
        label = label_starting(table, "Check", "Call")
        assert label is not None, table.button_labels
        mark = len(fake.requests)
        res = await fake.click(prompted_member(guild, table), table, label=label)
        assert not res.rejected and res.response_type == 7, (res.response_type, res.text)
        costs.append(_cost(fake, poker, mark, label))
    raise AssertionError("no draw came")


async def test_a_draw_round_through_discord(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    clock = FakeClock()
    bot = new_bot(tmp_path / "ws.sqlite3", clock=clock)
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob, carol = (guild.member(n) for n in ("alice", "bob", "carol"))
    members = [alice, bob, carol]
    poker = guild.channel("poker")
    await open_table(fake, alice, poker, members, game="five-card-draw", timer=30)
    key = TableKey(guild.id, poker.id)
    costs: list[ActionCost] = []
    mark = len(fake.requests)
    await fake.slash(alice, "table deal", channel=poker)
    live = bot.service.table(key).hand
    assert live is not None
    engine = live.engine
    table = live_table(fake, poker)
    # The picture shows five backs per seat, nobody's cards.
    (picture,) = [a for a in table.attachments if a.filename == "table.png"]
    assert Image.open(io.BytesIO(picture.data)).size == TABLE_SIZE
    assert (picture.description or "").count(", 5 down") == 3, picture.description

    # -- the first drawer throws away three cards, chosen privately ----------------------------
    table = await _until_a_draw(fake, guild, poker, costs)
    first = prompted_member(guild, table)
    assert label_starting(table, "Stand pat"), table.button_labels
    other = next(m for m in members if m.id != first.id)
    refused = await fake.click(other, table, label=PICK)
    assert refused.ephemeral and "not your turn" in refused.text.lower(), refused.text
    seat = live.members.index(first.id)
    hand = engine.cards(seat)
    mark = len(fake.requests)
    opened = await fake.click(first, table, label=PICK)
    assert opened.response_type == 6 and not opened.rejected, (opened.response_type, opened.callbacks)
    (picker,) = [m for m in opened.followups if m.ephemeral]
    assert all(str(c) in picker.text for c in hand), picker.text
    select = next(c for c in picker.all_components() if c.get("type") == 3)
    decision = engine.decision
    assert decision is not None and decision.kind == "draw" and decision.amount in (3, 4)  # 4: an ace
    assert select["min_values"] == 0 and select["max_values"] == decision.amount
    assert [o["value"] for o in select["options"]] == [c.code for c in hand]
    assert "Draw" in picker.button_labels and picker.find_component(label="Draw").get("disabled")
    # Nobody else may use the picker (Discord shows an ephemeral message to its owner only).
    thrown = hand[:3]
    chose = await fake.select(first, picker, [c.code for c in thrown], custom_id=select["custom_id"])
    assert chose.response_type == 7 and not chose.rejected, chose.callbacks
    assert "Draw 3" in picker.button_labels, picker.button_labels
    assert f"Discard {' '.join(str(c) for c in thrown)}" in picker.text, picker.text
    (marked,) = picker.attachments
    assert Image.open(io.BytesIO(marked.data)).width == PICTURE_WIDTH
    assert "Chosen to discard" in (marked.description or ""), marked.description
    drew = await fake.click(first, picker, label="Draw 3")
    assert not drew.rejected, drew.callbacks
    costs.append(_cost(fake, poker, mark, "Draw 3"))
    new_hand = engine.cards(seat)
    assert set(new_hand) & set(thrown) == set() and len(new_hand) == 5
    assert f"You threw away {' '.join(str(c) for c in thrown)}" in picker.text, picker.text
    assert all(str(c) in picker.text for c in new_hand), picker.text
    assert picker.buttons == [], picker.button_labels        # the picker is done
    name = {alice.id: "alice", bob.id: "bob", carol.id: "carol"}
    assert f"{name[first.id]} draws 3" in live_table(fake, poker).text, live_table(fake, poker).text

    # -- the second stands pat from the table message ------------------------------------------
    table = current_prompt(fake, poker)
    second = prompted_member(guild, table)
    assert second.id != first.id and PICK in table.button_labels
    mark = len(fake.requests)
    stood = await fake.click(second, table, label="Stand pat")
    assert stood.response_type == 7 and not stood.rejected, stood.callbacks
    costs.append(_cost(fake, poker, mark, "Stand pat"))
    assert f"{name[second.id]} stands pat" in live_table(fake, poker).text

    # -- the third lets the timer stand pat --------------------------------------------------
    table = current_prompt(fake, poker)
    third = prompted_member(guild, table)
    assert third.id not in (first.id, second.id) and PICK in table.button_labels
    before = engine.cards(live.members.index(third.id))
    await clock.advance(30)
    await fake.settle()
    assert engine.cards(live.members.index(third.id)) == before
    assert re.search(rf"{name[third.id]} stands pat \(out of time\)", live_table(fake, poker).text), \
        live_table(fake, poker).text
    told = [m.text for m in fake.dms_for(third)]
    assert any("the dealer stood pat for you" in t for t in told), told
    table = live_table(fake, poker)
    (picture,) = [a for a in table.attachments if a.filename == "table.png"]
    alt = picture.description or ""
    assert "drew 3" in alt and alt.count("stood pat") == 2, alt

    # -- the rest of the hand ------------------------------------------------------------------
    for _ in range(30):
        if hand_over(fake, poker, 1):
            break
        table = current_prompt(fake, poker)
        label = label_starting(table, "Check", "Call", "Show")
        assert label is not None, table.button_labels
        mark = len(fake.requests)
        await fake.click(prompted_member(guild, table), table, label=label)
        costs.append(_cost(fake, poker, mark, label))
    assert hand_over(fake, poker, 1)

    # -- secrecy: each member sees only their own cards and the hands shown ----------------------
    result = engine.result
    assert result is not None
    held: dict[int, set[Card]] = {s: set() for s in range(len(members))}
    for entry in engine.log:
        if isinstance(entry, Deal) and entry.seat is not None:
            held[entry.seat].add(entry.card)
    shown = {c for s in result.shown for c in engine.cards(s)}
    assert thrown[0] in held[seat] and not any(thrown[0] in held[s] for s in held if s != seat)
    for member in members:
        own = held[live.members.index(member.id)]
        seen = card_tokens(_seen_by(fake, member))
        leaked = seen - own - shown
        assert not leaked, (member.name, leaked)
    # The drawer's discards reach nobody else, even after the showdown.
    for member in members:
        if member is not first:
            assert not card_tokens(_seen_by(fake, member)) & set(thrown), member.name

    # -- the budget: a draw costs the channel nothing ------------------------------------------
    draws = [c for c in costs if c.label in ("Draw 3", "Stand pat")]
    assert all(c.channel == 0 and c.global_counted == 0 for c in draws), draws
    assert sum(c.channel for c in costs) / len(costs) <= 1.0
    assert max(c.channel for c in costs) <= 2
    await fake.stop_bot(bot)


async def test_a_picker_from_an_earlier_turn_or_another_hand_changes_nothing(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob, carol = (guild.member(n) for n in ("alice", "bob", "carol"))
    poker = guild.channel("poker")
    await open_table(fake, alice, poker, [alice, bob, carol], game="five-card-draw")
    await fake.slash(alice, "table deal", channel=poker)
    live = bot.service.table(TableKey(guild.id, poker.id)).hand
    assert live is not None
    table = await _until_a_draw(fake, guild, poker, [])
    drawer = prompted_member(guild, table)
    # Two private pickers: "Choose discards" and My cards (during your draw, My cards is the picker).
    (one,) = [m for m in (await fake.click(drawer, table, label=PICK)).followups if m.ephemeral]
    (two,) = [m for m in (await fake.click(drawer, table, label="My cards")).followups if m.ephemeral]
    assert one.find_component(label="Stand pat") and two.find_component(label="Stand pat")
    hand = live.engine.cards(live.members.index(drawer.id))
    select = next(c for c in one.all_components() if c.get("type") == 3)
    await fake.select(drawer, one, [hand[0].code], custom_id=select["custom_id"])
    drew = await fake.click(drawer, one, label="Draw 1")
    assert not drew.rejected and "You threw away" in one.text, one.text
    after = live.engine.cards(live.members.index(drawer.id))
    # The second picker is from the turn just played: every control refuses with the reason.
    select = next(c for c in two.all_components() if c.get("type") == 3)
    late = await fake.select(drawer, two, [hand[1].code], custom_id=select["custom_id"])
    assert late.ephemeral and "earlier turn" in late.text, late.text
    late = await fake.click(drawer, two, label="Stand pat")
    assert late.ephemeral and "earlier turn" in late.text, late.text
    assert live.engine.cards(live.members.index(drawer.id)) == after
    # Someone else's "Choose discards" press is refused: it is not their draw.
    table = current_prompt(fake, poker)
    if PICK in table.button_labels:
        other = next(m for m in (alice, bob, carol) if m.id != prompted_member(guild, table).id)
        refused = await fake.click(other, table, label=PICK)
        assert refused.ephemeral and "not your turn" in refused.text.lower(), refused.text
    await fake.stop_bot(bot)


async def test_a_draw_at_debug_level_logs_no_card(
    fake_discord: FakeDiscord, tmp_path: Path, draw_debug_log: io.StringIO
) -> None:
    # The log at DEBUG (as ``wildstud run`` configures it) names no card of anyone's hand, first
    # cards, discards or draws: the picker's select values and the Draw button's custom_id carry
    # cards, and discord.py logs interaction payloads at DEBUG.
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob = guild.member("alice"), guild.member("bob")
    poker = guild.channel("poker")
    await open_table(fake, alice, poker, [alice, bob], game="five-card-draw")
    await fake.slash(alice, "table deal", channel=poker)
    live = bot.service.table(TableKey(guild.id, poker.id)).hand
    assert live is not None
    engine = live.engine
    while not hand_over(fake, poker, 1):
        table = current_prompt(fake, poker)
        member = prompted_member(guild, table)
        if PICK in table.button_labels:
            (picker,) = [m for m in (await fake.click(member, table, label=PICK)).followups if m.ephemeral]
            select = next(c for c in picker.all_components() if c.get("type") == 3)
            await fake.select(member, picker, [o["value"] for o in select["options"][:2]],
                              custom_id=select["custom_id"])
            await fake.click(member, picker, label="Draw 2")
        else:
            await fake.click(member, table, label=label_starting(table, "Check", "Call", "Show") or "")
    held = {entry.card for entry in engine.log if isinstance(entry, Deal) and entry.seat is not None}
    assert len(held) == 2 * 5 + 2 * 2
    text = draw_debug_log.getvalue()
    assert "discord" in text or "bot." in text           # DEBUG is really on
    # Each card alone, as a code or as shown, and runs of codes (``Kh9h`` in a custom_id).
    assert not card_tokens(text) & held, card_tokens(text) & held
    for card in held:
        for token in (card.code, str(card)):
            found = re.search(rf"(?<![\w]){re.escape(token)}(?![\w])", text)
            assert not found, f"a card in the log: {token}"
    await fake.stop_bot(bot)
