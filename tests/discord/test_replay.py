"""Hand replays through the real discord.py client against the fake Discord (issue 24): the summary's
Replay button and ``/hand replay`` open a private step-through of a finished hand, Back / Next /
Street redraw it in the click's response, nothing costs a channel request, a member cannot step
through someone else's replay (even with a forged button), and the buttons survive a restart.

The hand is ``tests/discord/test_showdown.py``'s: p4 folds on third street, p3 mucks at the
showdown, p1 and p2 are shown. What each member may see is worked out from the stacked deck alone.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from bot.discord.client import WildstudBot
from bot.settings import Settings
from bot.tables.clock import FakeClock
from bot.tables.options import TableOptions
from tests.discord.helpers import (
    current_prompt,
    facts,
    hand_over,
    label_starting,
    open_table,
    prompted_member,
    stored_deal_order,
)
from tests.discord.test_showdown import HANDS, _deck, _down
from tests.fakediscord import FakeDiscord, FakeMessage, restart_bot, start_bot
from tests.fakediscord.models import iter_components
from tests.tables.helpers import Card, StackedRandom, parse_cards
from tests.tables.test_secrecy import card_tokens


def _bot(path: Path) -> WildstudBot:
    settings = Settings(discord_token=None, dev_guild_id=None, database_path=path, log_level="INFO")
    return WildstudBot(settings, clock=FakeClock(), rng=StackedRandom(_deck(), seed=3),
                       table_options=TableOptions())


def _seen(message: FakeMessage) -> str:
    """Everything a version of the replay message says: its text, the pictures' alt text (gallery
    descriptions and attachment descriptions)."""
    return facts(message)


def _step(message: FakeMessage) -> tuple[int, int]:
    match = re.search(r"step (\d+) of (\d+)", message.text)
    assert match, message.text
    return int(match[1]), int(match[2])


def _forge(message: FakeMessage, member: int, other: int) -> None:
    """What a modified client could send: the replay's buttons rewritten to carry another member."""
    for comp in iter_components(message.components):
        custom_id = comp.get("custom_id")
        if isinstance(custom_id, str) and custom_id.startswith("ws:step:"):
            comp["custom_id"] = custom_id.replace(f":{member}:", f":{other}:")


async def test_replay_button_and_command_step_privately_at_no_channel_cost(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    guild = fake.guild()
    dave, erin = guild.add_member("dave"), guild.add_member("erin")      # erin only watches
    alice, bob, carol = (guild.member(n) for n in ("alice", "bob", "carol"))
    bot = _bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    poker = guild.channel("poker")
    players = [alice, bob, carol, dave]
    await open_table(fake, alice, poker, players)
    by_name = {m.name: m for m in players}
    await fake.slash(alice, "table deal", channel=poker)
    order = [by_name[n] for n in (await stored_deal_order(bot, guild, poker, 1))]
    p4 = order[3]
    for _ in range(60):
        if hand_over(fake, poker, 1):
            break
        prompt = current_prompt(fake, poker)
        actor = prompted_member(guild, prompt)
        label = ("Muck" if "Muck" in prompt.button_labels else "Fold" if actor.id == p4.id
                 else label_starting(prompt, "Check", "Call", "Bring-in") or "")
        await fake.click(actor, prompt, label=label)
    assert hand_over(fake, poker, 1)
    (summary,) = [m for m in fake.channel_messages(poker) if "Replay" in m.button_labels]
    assert "Hand #1 · summary" in summary.text

    public = {c for h in HANDS[:3] for c in parse_cards("".join(h.split()[2:6]))} | {Card.parse("6c")}
    public |= _down(HANDS[0]) | _down(HANDS[1])                        # p1 and p2 were shown
    own = {m.id: _down(h) for m, h in zip(order, HANDS, strict=True)}
    own[p4.id] = set(parse_cards("9h9s"))                              # folded before seventh street

    mark = len(fake.requests)
    replays: dict[str, FakeMessage] = {}
    for member in [*players, erin]:
        opened = await fake.click(member, summary, label="Replay")
        assert opened.response_type == 4 and opened.ephemeral, opened.text
        message = opened.original
        assert message is not None and message.ephemeral
        replays[member.name] = message
        names = [a.filename for a in message.attachments]
        assert names == (["table.png"] if member is erin else ["table.png", "hand.png"]), names
        texts = [_seen(message)]
        step, total = _step(message)
        assert step == 1 and "Back" in message.button_labels[0]
        while step < total:
            click = await fake.click(member, message, label="Next ▶")
            assert click.response_type == 7 and not click.rejected, click.text
            step, _ = _step(message)
            texts.append(_seen(message))
        assert "Hand over." in message.text
        seen = set().union(*(card_tokens(t) for t in texts))
        allowed = public | own.get(member.id, set())
        assert seen <= allowed, (member.name, sorted(c.code for c in seen - allowed))
        assert own.get(member.id, set()) <= seen, member.name            # their own cards are there
        if member is erin:
            assert "you were not dealt in" in message.text
    # Street jumps to the next street's first step, Back goes one step back.
    alice_replay = replays["alice"]
    while _step(alice_replay)[0] > 1:
        await fake.click(alice, alice_replay, label="◀ Back")
    assert "third street" in alice_replay.text
    await fake.click(alice, alice_replay, label="Street ⏭")
    assert "fourth street" in alice_replay.text
    await fake.click(alice, alice_replay, label="◀ Back")
    assert "third street" in alice_replay.text
    # A click on the version before (fourth street, as a client that missed the last edit shows it)
    # goes where that button said, answered once: its Street leads to fifth street.
    stale = await fake.click(alice, alice_replay, label="Street ⏭", stale=True)
    assert stale.response_type == 7 and not stale.rejected and "fifth street" in alice_replay.text
    # Opening and stepping cost no channel request and nothing under the global limit.
    traffic = fake.traffic(mark)
    assert traffic.channel_messages == 0 and traffic.global_counted == 0, traffic
    assert not [r for r in fake.requests[mark:] if r.bucket == f"channel-messages:{poker.id}"]

    # /hand replay: the last finished hand by default, a number otherwise; private, deferred.
    command = await fake.slash(bob, "hand replay", channel=poker)
    assert command.ephemeral and command.response_type == 5
    assert "Hand #1 replay" in command.text and "step 1 of" in command.text
    missing = await fake.slash(bob, "hand replay", {"number": 7}, channel=poker)
    assert missing.ephemeral and "There is no hand #7 at this table." in missing.text

    # A forged button carrying another member's id is refused with the reason; nothing changes.
    bob_replay = replays["bob"]
    before = bob_replay.text
    _forge(bob_replay, bob.id, alice.id)
    forged = await fake.click(bob, bob_replay, label="◀ Back")
    assert forged.ephemeral and "opened by someone else" in forged.text
    assert bob_replay.text == before
    _forge(bob_replay, alice.id, bob.id)

    # After a restart the same buttons still step through (nothing was kept in memory).
    fresh = _bot(tmp_path / "ws.sqlite3")
    await restart_bot(bot, fresh, fake)
    at = _step(bob_replay)[0]
    again = await fake.click(bob, bob_replay, label="◀ Back")
    assert again.response_type == 7 and _step(bob_replay)[0] == at - 1
    reopened = await fake.click(carol, summary, label="Replay")
    assert reopened.ephemeral and "step 1 of" in reopened.text


def _all_custom_ids(components: Any) -> list[str]:
    return [str(c["custom_id"]) for c in iter_components(components) if "custom_id" in c]


async def test_a_voided_hand_has_no_replay_and_a_hand_in_play_is_refused(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    guild = fake.guild()
    alice, bob = guild.member("alice"), guild.member("bob")
    bot = _bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    poker = guild.channel("poker")
    await open_table(fake, alice, poker, [alice, bob])
    await fake.slash(alice, "table deal", channel=poker)
    playing = await fake.slash(bob, "hand replay", {"number": 1}, channel=poker)
    assert playing.ephemeral and "Hand #1 is not finished (in progress)." in playing.text
    nothing = await fake.slash(bob, "hand replay", channel=poker)
    assert nothing.ephemeral and "No hand has finished at this table yet." in nothing.text
    await fake.slash(guild.member("owner"), "hand void", channel=poker)     # Manage Server: no consent
    voided = [m for m in fake.channel_messages(poker) if "Hand #1 · void" in m.text]
    ids = [i for m in voided for i in _all_custom_ids(m.components)]
    assert voided and not any(i.startswith("ws:replay:") for i in ids), ids
    refused = await fake.slash(bob, "hand replay", {"number": 1}, channel=poker)
    assert refused.ephemeral and "Hand #1 is not finished (voided)." in refused.text

