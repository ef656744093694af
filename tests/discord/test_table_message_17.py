"""What the table message says (issue 17), read through the real client and the fake Discord:
names are shown as written (Markdown escaped), the deck commitment stays on the message for the
whole hand and in the summary, between hands it shows who won, the summary points players to
``/hand verify`` and its picture is the showdown's, and alt text goes up to Discord's 1,024."""

from __future__ import annotations

import re
from pathlib import Path

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
