"""Baseball's decisions on the table message (issue 19), through the real discord.py client against
the fake Discord: under ``four_card = bought`` the player whose face-up four earns a card gets "Buy
card 20" and "Decline" buttons (the price is the small bet of the "small" stakes, fixed limit 20/40),
only they may press them, and the hand goes on from their answer.

The deck is laid out in the engine's deal order (three passes of third street: first down cards,
second down cards, door cards): the first seat dealt gets the 4c as its door card, before anyone
else's door card, and the card after it (2s) is the one it may buy."""

from __future__ import annotations

from pathlib import Path

from bot.discord.client import WildstudBot
from bot.settings import Settings
from bot.tables.clock import FakeClock
from bot.tables.options import TableOptions
from tests.discord.helpers import current_prompt, hand_over, label_starting, open_table, prompted_member
from tests.fakediscord import FakeDiscord, start_bot
from tests.tables.helpers import StackedRandom
from tests.tables.test_baseball_decisions import BUY_DECK, _deck


async def test_a_bought_four_is_offered_with_its_price_on_buttons(fake_discord: FakeDiscord,
                                                                 tmp_path: Path) -> None:
    fake = fake_discord
    settings = Settings(discord_token=None, dev_guild_id=None, database_path=tmp_path / "ws.sqlite3",
                        log_level="INFO")
    bot = WildstudBot(settings, clock=FakeClock(), rng=StackedRandom(_deck(BUY_DECK)),
                      table_options=TableOptions())
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob, carol = (guild.member(n) for n in ("alice", "bob", "carol"))
    poker = guild.channel("poker")
    await open_table(fake, alice, poker, [alice, bob, carol], game="baseball")
    res = await fake.slash(alice, "ruling set", {"name": "four_card", "value": "bought"}, channel=poker)
    assert not res.rejected, res.text
    await fake.slash(alice, "table deal", channel=poker)
    prompt = current_prompt(fake, poker)
    assert "Buy card 20" in prompt.button_labels and "Decline" in prompt.button_labels, prompt.button_labels
    buyer = prompted_member(guild, prompt)
    other = next(m for m in (alice, bob, carol) if m.id != buyer.id)
    refused = await fake.click(other, prompt, label="Buy card 20")
    assert refused.ephemeral and "not your turn" in refused.text.lower(), refused.text
    bought = await fake.click(buyer, prompt, label="Buy card 20")
    assert not bought.rejected and bought.response_type == 7, (bought.response_type, bought.text)
    # The 4c is the lowest door card: the buyer now owes the bring-in.
    after = current_prompt(fake, poker)
    assert prompted_member(guild, after).id == buyer.id, after.text
    assert label_starting(after, "Bring-in"), after.button_labels
    snapshot = bot.service.snapshot(bot.service.tables()[0])
    assert snapshot.pot == 3 * 5 + 20
    # The buyer brings in and the others fold: the buyer takes the pot (its 20 included).
    for label in ("Bring-in", "Fold", "Fold"):
        now = current_prompt(fake, poker)
        click = await fake.click(prompted_member(guild, now), now, label=label_starting(now, label))
        assert not click.rejected, click.text
    assert hand_over(fake, poker, 1)
