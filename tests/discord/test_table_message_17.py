"""What the table message says (issue 17), read through the real client and the fake Discord:
names are shown as written (Markdown escaped), the deck commitment stays on the message for the
whole hand and in the summary, between hands it shows who won, the summary points players to
``/hand verify`` and its picture is the showdown's, and alt text goes up to Discord's 1,024."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.discord.helpers import (
    current_prompt,
    hand_over,
    label_starting,
    live_table,
    new_bot,
    open_table,
    play_passively,
    prompted_member,
    table_message,
)
from tests.fakediscord import FakeDiscord, FakeMessage, start_bot


def gallery_alts(message: FakeMessage) -> list[str]:
    return [str(item.get("description") or "") for comp in message.all_components()
            if comp.get("type") == 12 for item in comp.get("items", [])]


async def test_names_commitment_result_and_summary(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice = guild.member("alice")
    heading = guild.add_member("heading", nick="# Ann")
    link = guild.add_member("linker", nick="[x](https://e.x)")
    extra = [guild.add_member(f"player{i}", nick=f"Player number {i} with a long name") for i in range(3)]
    poker = guild.channel("poker")
    await open_table(fake, alice, poker, [alice, heading, link, *extra])
    await fake.slash(alice, "table deal", channel=poker)

    table = current_prompt(fake, poker)
    # Names are text: no heading, no link (the raw Markdown carries the escapes).
    assert "# Ann" in table.text and not re.search(r"^# Ann", table.text, re.M), table.text
    assert "[x](https://e.x)" not in table.text.replace("\\[x]", "")
    # The deck commitment, in short, from the first card on; /hand verify has the full hash.
    verify = await fake.slash(alice, "hand verify", channel=poker)
    full = re.search(r"Commitment \(announced before the deal\): ([0-9a-f]{64})", verify.text)
    assert full, verify.text
    short = re.search(r"Deck commitment ([0-9a-f]{16})…", table.text)
    assert short and full.group(1).startswith(short.group(1)), table.text
    # The alt text is no longer cut at 256 characters: six seats' facts fit.
    (alt,) = gallery_alts(table)
    assert len(alt) > 256 and "…" not in alt, len(alt)

    for _ in range(3):          # the commitment is still there on later streets
        prompt = current_prompt(fake, poker)
        label = label_starting(prompt, "Check", "Call", "Bring-in")
        await fake.click(prompted_member(guild, prompt), prompt, label=label or "")
        assert short.group(1) in live_table(fake, poker).text
    await play_passively(fake, guild, poker, 1)
    assert hand_over(fake, poker, 1)

    summary = fake.find_message(poker, containing="Hand #1 · summary")
    assert short.group(1) in summary.text
    assert "/hand verify 1" in summary.text and "wildstud verify" not in summary.text, summary.text
    assert any(a.startswith("Hand #1 · showdown") for a in gallery_alts(summary)), gallery_alts(summary)
    assert "seventh street" not in " ".join(gallery_alts(summary))
    shows = [line for line in summary.text.splitlines() if " shows [" in line]
    assert len(shows) == len(set(shows)), shows           # each hand shown once, not twice
    # Between hands: who won the hand just played, not its last log lines.
    between = table_message(fake, poker)
    assert "Between hands" in between.text and " wins " in between.text, between.text
    assert "Deck commitment" not in between.text


async def test_a_two_colour_deck_from_table_look_is_kept(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    import io

    from PIL import Image

    from bot.engine.cards.card import Suit
    from bot.render.sprites import _SUIT_ON_FACE
    from tests.fakediscord import restart_bot

    def greens(message: FakeMessage) -> int:
        (picture,) = [a for a in message.attachments if a.filename == "table.png"]
        img = Image.open(io.BytesIO(picture.data)).convert("RGB")
        g = _SUIT_ON_FACE[Suit.CLUBS]
        return sum(1 for px in _rgb_pixels(img) if all(abs(a - b) <= 10 for a, b in zip(px, g, strict=True)))

    fake = fake_discord
    db = tmp_path / "ws.sqlite3"
    first = new_bot(db)
    await start_bot(first, fake)
    guild = fake.guild()
    alice, bob = guild.member("alice"), guild.member("bob")
    poker = guild.channel("poker")
    await open_table(fake, alice, poker, [alice, bob])
    owner = guild.member("owner")
    done = await fake.slash(owner, "table look", {"look": "pictures-two-colour"}, channel=poker)
    assert done.ephemeral and "two-colour deck" in done.text, done.text
    second = new_bot(db)                  # kept in the store like the other look settings
    await restart_bot(first, second, fake)
    await fake.slash(alice, "table deal", channel=poker)
    two = live_table(fake, poker)
    # No card is drawn in the four-colour deck's green, though clubs are on the table (the same
    # snapshot drawn four-colour has them).
    assert greens(two) == 0
    from bot.render.pictures import render_table
    from bot.render.scenes import table_picture
    from bot.tables.notices import TableKey

    picture = table_picture(second.service.snapshot(TableKey(guild.id, poker.id)))
    assert picture is not None
    g = _SUIT_ON_FACE[Suit.CLUBS]
    drawn = _rgb_pixels(render_table(picture))
    assert sum(1 for px in drawn if all(abs(a - b) <= 10 for a, b in zip(px, g, strict=True))) > 0
    await fake.slash(owner, "table look", {"look": "pictures"}, channel=poker)


def _rgb_pixels(image: Any) -> list[tuple[int, int, int]]:
    """The picture's pixels as RGB triples (``Image.getdata`` is deprecated in Pillow 12 and later)."""
    raw = image.convert("RGB").tobytes()
    return [(raw[i], raw[i + 1], raw[i + 2]) for i in range(0, len(raw), 3)]
