"""Baseball at a Discord table (issue 17): a player dealt a face-up four gets an extra down card
at once, so eight cards in all. That card comes by DM (it is a new down card, on fourth street),
the seventh-street DM carries a picture of all eight cards, and "My cards" shows them."""

from __future__ import annotations

from pathlib import Path

from bot.discord.client import WildstudBot
from bot.engine.cards import FULL_DECK, parse_cards
from bot.settings import Settings
from bot.tables.clock import FakeClock
from bot.tables.options import TableOptions
from tests.discord.helpers import current_prompt, hand_over, label_starting, open_table, prompted_member
from tests.fakediscord import FakeDiscord, FakeMember, start_bot
from tests.tables.helpers import StackedRandom

# Deal order, engine seats 0, 1, 2 each pass (SPEC §2): seat 0's face-up four on fourth street
# is followed at once by its extra card, dealt down (four_card free, four_card_face down).
ORDER = parse_cards(
    "As Ac Ad  Kd Ks Kh  Qh Qs Jc"   # third street: two down, then the door cards
    " 4h 2c 7h 7c"                    # fourth street: seat 0's four, its extra down card 2c
    " Jd 6d 6s  Td Tc Th  8s 8c 8d"  # fifth, sixth, seventh (down)
)
DECK = ORDER + [c for c in FULL_DECK if c not in set(ORDER)]


def hand_dms(fake: FakeDiscord, member: FakeMember) -> list[str]:
    return [m.text for m in fake.dms_for(member) if "Your cards:" in m.text]


async def test_an_eighth_card_is_sent_and_shown(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    guild = fake.guild()
    alice, bob, carol = (guild.member(n) for n in ("alice", "bob", "carol"))
    settings = Settings(discord_token=None, dev_guild_id=None, database_path=tmp_path / "ws.sqlite3",
                        log_level="INFO")
    bot = WildstudBot(settings, clock=FakeClock(), rng=StackedRandom(DECK, seed=3),
                      table_options=TableOptions())
    await start_bot(bot, fake)
    poker = guild.channel("poker")
    await open_table(fake, alice, poker, [alice, bob, carol], game="baseball")
    await fake.slash(alice, "table deal", channel=poker)
    lucky = next(m for m in (alice, bob, carol) if "A♠" in " ".join(hand_dms(fake, m)))
    asked = False
    while not hand_over(fake, poker, 1):
        prompt = current_prompt(fake, poker)
        if "seventh street" in prompt.text and not asked:
            # "My cards" shows all eight (it answered "Something went wrong" before).
            mine = await fake.click(lucky, prompt, label="My cards")
            assert mine.ephemeral and "2♣" in mine.text and "8♠" in mine.text, mine.text
            assert any(a.filename == "hand.png" for m in mine.messages for a in m.attachments)
            asked = True
        label = label_starting(prompt, "Check", "Call", "Bring-in", "Show")
        await fake.click(prompted_member(guild, prompt), prompt, label=label or "")
    assert asked
    dms = hand_dms(fake, lucky)
    # Third street, the extra down card on fourth street, seventh street: three DMs.
    assert len(dms) == 3, dms
    assert "fourth street" in dms[1] and "2♣" in dms[1], dms[1]
    last = [m for m in fake.dms_for(lucky) if "Your cards:" in m.text][-1]
    assert "seventh street" in last.text
    (picture,) = [a for a in last.attachments if a.filename == "hand.png"]
    described = picture.description or ""
    for card in ("A♠", "K♦", "Q♥", "4♥", "2♣", "J♦", "T♦", "8♠"):
        assert card in described, described
    # The others got no extra card: two DMs each.
    for other in (m for m in (alice, bob, carol) if m.id != lucky.id):
        assert len(hand_dms(fake, other)) == 2, hand_dms(fake, other)
