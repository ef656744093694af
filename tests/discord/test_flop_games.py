"""Flop games at a Discord table (issue 21), through the real discord.py client against the fake
Discord: a dealer's-choice table deals Sex in the Middle East, Texas Hold'em and Omaha hi-lo in
three successive hands, chosen with the select menu and played by clicking the table message only.

* The message budget of today: a flop hand's betting clicks cost the table channel nothing (as
  stud's), and the hand costs no more channel requests, nor requests under the global limit, than
  the stud hand before it (the same three players, the same table).
* Secrecy: every version of every message a member could see during a hand (the channel's, their
  DMs, the replies only they see; the text, the pictures' alt text and the text attachments) names
  no card but the hand's public ones (up cards, the board, the hands shown) and their own down
  cards: never another player's down card, nor a card of the stub.
* The hand's picture and text carry the board, the button and the blinds; the log says "Flop",
  "Turn" and "River".
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from bot.engine.cards.card import Card
from bot.engine.games.catalogue import GAMES
from bot.tables.notices import TableKey
from bot.tables.reveal import public_cards, rebuild
from tests.discord.helpers import (
    current_prompt,
    facts,
    hand_log,
    hand_over,
    label_starting,
    live_table,
    new_bot,
    open_table,
    prompted_member,
)
from tests.fakediscord import FakeChannel, FakeDiscord, FakeMember, FakeMessage, start_bot
from tests.fakediscord.models import iter_components
from tests.tables.test_secrecy import card_tokens

PICKS = ("sex-in-the-middle-east", "texas-holdem", "omaha-hi-lo")
PLACEHOLDER = "Choose the game"


@dataclass
class Cost:
    """What one hand cost, action by action: requests to the table channel, and under the global
    limit (opening a DM channel left out: it happens once per player and process, in whichever
    hand comes first)."""

    channel: list[int] = field(default_factory=list)
    global_counted: list[int] = field(default_factory=list)

    @property
    def clicks(self) -> list[int]:
        """The channel requests of the betting clicks: every action but the deal, the choice of
        the game and the one that ends the hand (which posts its summary and the next table); the
        first click after the choice also takes the question's message away."""
        return self.channel[2:-1]


def _count(fake: FakeDiscord, channel: FakeChannel, mark: int, cost: Cost) -> None:
    recs = fake.requests[mark:]
    cost.channel.append(sum(1 for r in recs if r.bucket == f"channel-messages:{channel.id}"))
    cost.global_counted.append(sum(1 for r in recs if r.counts_global and r.path != "/users/@me/channels"))


def _versions(message: FakeMessage) -> list[tuple[str, list[dict[str, object]], list[dict[str, object]]]]:
    return [*message.history, (message.content, message.embeds, message.components)]


def _seen(fake: FakeDiscord) -> dict[int, int]:
    """How many versions of each message exist now (to tell a hand's own versions later)."""
    return {m.id: len(_versions(m)) for m in fake.messages.values()}


def _texts_since(fake: FakeDiscord, before: dict[int, int]) -> Iterator[tuple[FakeMessage, str]]:
    """Each message version made since ``before`` with everything it shows as text: its content,
    text displays, pictures' alt text (gallery descriptions and attachment descriptions) and text
    attachments."""
    for message in fake.messages.values():
        versions = _versions(message)[before.get(message.id, 0):]
        if not versions:
            continue
        parts: list[str] = []
        for content, _embeds, components in versions:
            parts.append(content)
            for comp in iter_components(components):   # type: ignore[arg-type]
                if comp.get("type") == 10:
                    parts.append(str(comp.get("content") or ""))
                for item in comp.get("items", []) or []:
                    parts.append(str(item.get("description") or ""))
        for attachment in message.attachments:
            parts.append(attachment.description or "")
            if attachment.filename.endswith(".txt"):
                parts.append(attachment.text)
        yield message, "\n".join(parts)


async def _play(fake: FakeDiscord, channel: FakeChannel, members: list[FakeMember], hand_no: int,
                pick: str, cost: Cost) -> None:
    """Deal with the Deal button, choose ``pick`` with the select, and check (else call, else bring
    in, else show) by clicking the table message until the hand is over, counting every action."""
    guild = fake.guild()
    dealer = members[0]
    mark = len(fake.requests)
    dealt = await fake.click(dealer, live_table(fake, channel), label="Deal")
    assert not dealt.rejected, dealt.text
    _count(fake, channel, mark, cost)
    question = next(m for m in reversed(fake.channel_messages(channel))
                    if "dealer's choice: pick the game" in m.content)
    chooser = guild.member(int(re.search(r"<@(\d+)>", question.content).group(1)))  # type: ignore[union-attr]
    mark = len(fake.requests)
    chosen = await fake.select(chooser, question, [pick], placeholder=PLACEHOLDER)
    assert not chosen.rejected, chosen.text
    _count(fake, channel, mark, cost)
    while not hand_over(fake, channel, hand_no):
        prompt = current_prompt(fake, channel)
        label = label_starting(prompt, "Check", "Call", "Bring-in", "Show")
        assert label is not None, prompt.button_labels
        mark = len(fake.requests)
        res = await fake.click(prompted_member(guild, prompt), prompt, label=label)
        assert not res.rejected and res.response_type == 7, (res.response_type, res.text)
        _count(fake, channel, mark, cost)
        assert len(cost.channel) < 200


async def test_dealers_choice_deals_stud_holdem_and_omaha_hi_lo_in_three_hands_within_budget_and_secret(
    fake_discord: FakeDiscord, tmp_path: Path,
) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    members = [guild.member(n) for n in ("alice", "bob", "carol")]
    poker = guild.channel("poker")
    await open_table(fake, members[0], poker, members, game="dealers-choice")
    listed = await fake.slash(members[0], "table games", {"names": ", ".join(PICKS)}, channel=poker)
    assert all(GAMES[p].title in listed.text for p in PICKS), listed.text
    key = TableKey(guild.id, poker.id)
    table_id = bot.service.table(key).table_id
    dm_owner = {}
    costs: list[Cost] = []
    for hand_no, pick in enumerate(PICKS, 1):
        before = _seen(fake)
        cost = Cost()
        await _play(fake, poker, members, hand_no, pick, cost)
        costs.append(cost)
        record = next(h for h in await bot.store.table_hands(table_id) if h.hand_no == hand_no)
        assert record.game == pick
        engine, order, _ = rebuild(record)
        public = set(public_cards(engine))
        seat_of = {p.member_id: order.index(p.seat_no) for p in record.players}
        own = {m.id: set(engine.down_cards(seat_of[m.id])) for m in members}
        if GAMES[pick].family == "flop":
            assert len(engine.board) == 5 and set(engine.board) <= public
        dm_owner = {channel.id: user_id for user_id, channel in fake.dm_channels.items()}
        for message, text in _texts_since(fake, before):
            seen = card_tokens(text)
            if message.ephemeral_for is not None:
                allowed = public | own.get(message.ephemeral_for, set())
            elif message.channel_id in dm_owner:
                allowed = public | own.get(dm_owner[message.channel_id], set())
            else:
                assert message.channel_id == poker.id
                allowed = public
            leaked = seen - allowed
            assert not leaked, (pick, sorted(map(str, leaked)), text[:2000])
        log = hand_log(fake, poker, hand_no)
        if GAMES[pick].family == "flop":
            for street in ("Flop", "Turn", "River"):
                assert re.search(rf"^{street}\b", log, re.M), log
            assert "posts the small blind" in log and "posts the big blind" in log
    # The budget of today: no betting click of a flop hand costs the channel more than stud's do
    # (the table is redrawn in the click's own response: nearly every click costs nothing), and the
    # whole hand costs the channel and the global limit no more than the stud hand did (the same
    # messages at the deal and the end; a flop hand deals its down cards once, so fewer DMs).
    stud, holdem, omaha = costs
    for flop in (holdem, omaha):
        assert max(flop.clicks) <= max(stud.clicks) and sum(flop.clicks) <= sum(stud.clicks), (flop, stud)
        assert sum(flop.channel) <= sum(stud.channel), (flop, stud)
        assert sum(flop.global_counted) <= sum(stud.global_counted), (flop, stud)
    await fake.stop_bot(bot)
    fake.assert_clean()


async def test_a_holdem_table_message_shows_the_board_button_and_blinds(
    fake_discord: FakeDiscord, tmp_path: Path,
) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    members = [guild.member(n) for n in ("alice", "bob", "carol")]
    poker = guild.channel("poker")
    await open_table(fake, members[0], poker, members, game="texas-holdem")
    dealt = await fake.click(members[0], live_table(fake, poker), label="Deal")
    assert not dealt.rejected, dealt.text
    table = live_table(fake, poker)
    text = facts(table)
    assert "Texas Hold'em" in "\n".join(m.text for m in fake.channel_messages(poker))
    assert "pre-flop" in text and "blinds 10/20" in text.lower()
    assert "(small blind)" in text and "(big blind)" in text and "(dealer" in text
    # Everyone checks or calls to the flop: the board's three cards are on the table message.
    while "Hand #1 · flop" not in facts(live_table(fake, poker)):
        prompt = current_prompt(fake, poker)
        label = label_starting(prompt, "Check", "Call")
        assert label is not None, prompt.button_labels
        await fake.click(prompted_member(guild, prompt), prompt, label=label)
    flop = facts(live_table(fake, poker))
    board = re.search(r"Board ((?:\S+ ){2}\S+)\.", flop)
    assert board is not None, flop
    cards = card_tokens(board.group(1))
    assert len(cards) == 3 and all(isinstance(c, Card) for c in cards)
    await fake.stop_bot(bot)
    fake.assert_clean()


async def test_the_dealer_sets_a_straddle_and_calls_a_bomb_pot(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob, carol = (guild.member(n) for n in ("alice", "bob", "carol"))
    poker = guild.channel("poker")
    await open_table(fake, alice, poker, [alice, bob, carol], game="texas-holdem")
    refused = await fake.slash(bob, "table straddle", {"setting": "on"}, channel=poker)
    assert refused.ephemeral and "dealer" in refused.text.lower(), refused.text
    on = await fake.slash(alice, "table straddle", {"setting": "on"}, channel=poker)
    assert on.ephemeral and "Straddle on" in on.text, on.text
    every = await fake.slash(alice, "table bomb-pot", {"when": "every"}, channel=poker)
    assert "every:N" in every.text, every.text                        # how often, then
    called = await fake.slash(alice, "table bomb-pot", {"when": "next", "ante": 60}, channel=poker)
    assert "everyone antes 60" in called.text, called.text
    dealt = await fake.click(alice, live_table(fake, poker), label="Deal")
    assert not dealt.rejected, dealt.text
    text = "\n".join(m.text for m in fake.channel_messages(poker))
    assert "Bomb pot: everyone antes 60" in text, text[-2000:]
    # A bomb pot has no blinds and no betting before the flop: the table shows the flop already.
    assert "Hand #1 · flop" in facts(live_table(fake, poker))
    await fake.stop_bot(bot)
    fake.assert_clean()


async def test_crazy_pineapple_discard_is_chosen_privately_never_on_the_table_message(
    fake_discord: FakeDiscord, tmp_path: Path,
) -> None:
    """The player to discard sees their three hole cards only in a reply of their own: the table
    message (which every member sees, buttons and custom_ids included) offers one "Choose a
    discard" button naming no card; the private reply has a Discard button per card."""
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    members = [guild.member(n) for n in ("alice", "bob", "carol")]
    poker = guild.channel("poker")
    await open_table(fake, members[0], poker, members, game="crazy-pineapple")
    dealt = await fake.click(members[0], live_table(fake, poker), label="Deal")
    assert not dealt.rejected, dealt.text
    while True:
        prompt = current_prompt(fake, poker)
        if label_starting(prompt, "Choose a discard") is not None:
            break
        label = label_starting(prompt, "Check", "Call")
        assert label is not None, prompt.button_labels
        await fake.click(prompted_member(guild, prompt), prompt, label=label)
    player = prompted_member(guild, prompt)
    live = bot.service.table(TableKey(guild.id, poker.id)).hand
    assert live is not None
    seat = next(s for s, m in enumerate(live.members) if m == player.id)
    hole = set(live.engine.down_cards(seat))
    shown = " ".join([facts(prompt), *prompt.button_labels,
                      *(str(c.get("custom_id", "")) for c in prompt.all_components())])
    assert not card_tokens(shown) & hole, (hole, shown)
    other = next(m for m in members if m.id != player.id)
    refused = await fake.click(other, prompt, label="Choose a discard")
    offers = [label for m in refused.messages for label in m.button_labels]
    assert refused.ephemeral and not any(label.startswith("Discard ") for label in offers), offers
    asked = await fake.click(player, prompt, label="Choose a discard")
    (private,) = [m for m in asked.messages if m.ephemeral]
    offered = [label for label in private.button_labels if label.startswith("Discard ")]
    assert len(offered) == 3 and card_tokens(" ".join(offered)) == hole, offered
    done = await fake.click(player, private, label=offered[0])
    assert not done.rejected, done.text
    assert len(live.engine.down_cards(seat)) == 2
    await fake.stop_bot(bot)
    fake.assert_clean()
