"""Issue 20: the table picture comes from cached layers and is uploaded only when it changed, so a
stale table is a real risk. Through the real discord.py client against the fake Discord, a whole
hand (fives and a follow making a rank wild, then another, a fold, bets, the showdown): after every
click the picture the table message has is byte for byte a fresh render of the table as it stands
(every cache emptied first); an update that changes the message but not its picture keeps the
attachment instead of uploading it again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.discord.client import WildstudBot
from bot.engine.cards.card import FULL_DECK, Card
from bot.render import layers
from bot.render.pictures import table_png
from bot.render.scenes import table_picture
from bot.settings import Settings
from bot.tables.clock import FakeClock
from bot.tables.notices import TableKey
from bot.tables.options import TableOptions
from tests.discord.helpers import (
    current_prompt,
    hand_over,
    label_starting,
    live_table,
    open_table,
    prompted_member,
    stored_deal_order,
)
from tests.fakediscord import FakeDiscord, FakeMessage, start_bot
from tests.tables.helpers import StackedRandom

# Deal order p1..p4; cards 3 to 6 are dealt face up. p1's door card is a five and p2's door card
# follows it (eights wild); p2's fifth-street card is a five and p3's follows it (jacks wild).
HANDS = [
    "Ks Kd 5h 9c 8d 2c 3h",
    "Qs Qd 8h Jc 5d 4s 7c",
    "As 2d 3c 6h Jd 8c Td",
    "9h 9s 6c Tc Jh Qc 2s",   # p4 folds on third street
]


def _deck() -> list[Card]:
    cards = [h.split() for h in HANDS]
    order = [Card.parse(c[k]) for k in range(3) for c in cards]
    order += [Card.parse(c[k]) for k in range(3, 7) for c in cards[:3]]
    return order + [c for c in FULL_DECK if c not in set(order)]


def _table_png(message: FakeMessage) -> bytes:
    (picture,) = [a for a in message.attachments if a.filename == "table.png"]
    return picture.data


def _uploads(fake: FakeDiscord) -> int:
    return sum(1 for a in fake.attachments.values() if a.filename == "table.png")


@pytest.mark.parametrize("open_at", [layers.OPEN_AT, 0])
async def test_the_picture_on_the_table_message_is_always_a_fresh_render_of_the_table(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, open_at: int
) -> None:
    """``open_at`` 0: each picture is put together on the table's last one (``layers.compose_png``),
    as when its layers are no longer kept as images (among a thousand tables)."""
    monkeypatch.setattr(layers, "OPEN_AT", open_at)
    fake = fake_discord
    guild = fake.guild()
    dave = guild.add_member("dave")
    alice, bob, carol = (guild.member(n) for n in ("alice", "bob", "carol"))
    settings = Settings(discord_token=None, dev_guild_id=None, database_path=tmp_path / "ws.sqlite3",
                        log_level="INFO")
    clock = FakeClock()
    bot = WildstudBot(settings, clock=clock, rng=StackedRandom(_deck(), seed=3),
                      table_options=TableOptions())
    await start_bot(bot, fake)
    poker = guild.channel("poker")
    players = [alice, bob, carol, dave]
    await open_table(fake, alice, poker, players, timer=30)
    key = TableKey(guild.id, poker.id)

    def check() -> None:
        snapshot = bot.service.snapshot(key)
        picture = table_picture(snapshot)
        assert picture is not None
        layers.clear()                         # every kept layer and frame
        assert _table_png(live_table(fake, poker)) == table_png(picture), snapshot

    await fake.slash(alice, "table deal", channel=poker)
    check()
    p4 = guild.member((await stored_deal_order(bot, guild, poker, 1))[3])
    wild_lines: set[str] = set()
    kept = 0
    for _ in range(60):
        if hand_over(fake, poker, 1):
            break
        prompt = current_prompt(fake, poker)
        actor = prompted_member(guild, prompt)
        label = "Fold" if actor.id == p4.id else label_starting(prompt, "Show", "Check", "Call", "Bring-in")
        res = await fake.click(actor, prompt, label=label or "")
        assert not res.rejected, res.text
        check()
        wild_lines.add(live_table(fake, poker).text)
        # Drawn again with the same picture (the look set again, then the turn's reminder): the
        # message keeps the picture it has, nothing is uploaded.
        if not kept and not hand_over(fake, poker, 1):
            table = live_table(fake, poker)
            before, edits = _uploads(fake), len(table.history)
            done = await fake.slash(guild.member("owner"), "table look", {"look": "pictures"}, channel=poker)
            assert not done.rejected, done.text
            await clock.advance(16)    # the reminder, at half the time
            assert len(live_table(fake, poker).history) > edits
            assert _uploads(fake) == before
            check()
            kept += 1
    assert hand_over(fake, poker, 1) and kept
    text = "\n".join(wild_lines)
    assert "eights" in text.lower() and "jacks" in text.lower(), text
    check()                                    # the next table message, between hands
    await fake.stop_bot(bot)


async def test_a_refused_kept_picture_is_uploaded_again_on_the_same_message(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Should Discord refuse an edit naming the attachment the message keeps, the picture is sent
    again with the same edit: the table keeps its message."""
    from tests.fakediscord import server
    from tests.fakediscord.components import check_v2 as real

    def no_kept_files(*args: Any, **kwargs: Any) -> Any:
        kwargs["kept"] = ()
        return real(*args, **kwargs)

    monkeypatch.setattr(server, "check_v2", no_kept_files)
    fake = fake_discord
    guild = fake.guild()
    alice, bob = guild.member("alice"), guild.member("bob")
    clock = FakeClock()
    settings = Settings(discord_token=None, dev_guild_id=None, database_path=tmp_path / "ws.sqlite3",
                        log_level="INFO")
    bot = WildstudBot(settings, clock=clock, rng=StackedRandom(_deck(), seed=3), table_options=TableOptions())
    await start_bot(bot, fake)
    poker = guild.channel("poker")
    await open_table(fake, alice, poker, [alice, bob], timer=30)
    await fake.slash(alice, "table deal", channel=poker)
    table = live_table(fake, poker)
    before = _uploads(fake)
    await fake.slash(guild.member("owner"), "table look", {"look": "pictures"}, channel=poker)
    await clock.advance(16)                       # the reminder redraws the same picture
    assert live_table(fake, poker).id == table.id
    assert _uploads(fake) == before + 1           # refused once, then sent again
    picture = table_picture(bot.service.snapshot(TableKey(guild.id, poker.id)))
    assert picture is not None
    layers.clear()
    assert _table_png(live_table(fake, poker)) == table_png(picture)
    await fake.stop_bot(bot)
