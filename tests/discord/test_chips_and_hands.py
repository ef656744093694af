"""``/chips`` (balances, gifts, admin grants and takes, the daily claim, the ledger, the settle-up)
and ``/hand`` (the PHH history file, the fair-deal check)."""

from __future__ import annotations

import hashlib
import re
import tomllib
from pathlib import Path

from tests.discord.helpers import (
    STARTING_CHIPS,
    current_prompt,
    label_starting,
    new_bot,
    open_table,
    prompted_member,
)
from tests.fakediscord import FakeDiscord, FakeGuild, FakeMessage, start_bot


async def test_chips_commands(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob, owner = guild.member("alice"), guild.member("bob"), guild.member("owner")
    poker = guild.channel("poker")

    first = await fake.slash(alice, "chips balance", channel=poker)
    assert first.ephemeral and first.text == "You have 1,000 chips."
    gift = await fake.slash(alice, "chips give", {"member": bob, "amount": 150}, channel=poker)
    assert not gift.ephemeral and "alice gives bob 150 chips" in gift.text
    too_much = await fake.slash(alice, "chips give", {"member": bob, "amount": 5000}, channel=poker)
    assert too_much.ephemeral and "850" in too_much.text
    assert (await fake.slash(bob, "chips balance", channel=poker)).text == "You have 1,150 chips."

    refused = await fake.slash(alice, "chips grant", {"member": alice, "amount": 10}, channel=poker)
    assert refused.ephemeral and "Manage Server" in refused.text
    granted = await fake.slash(
        owner, "chips grant", {"member": bob, "amount": 50, "reason": "won the raffle"}, channel=poker
    )
    assert "won the raffle" in granted.text and "1,200" in granted.text
    taken = await fake.slash(owner, "chips take", {"member": bob, "amount": 200}, channel=poker)
    assert "balance 1,000" in taken.text

    board = await fake.slash(alice, "chips leaderboard", channel=poker)
    lines = board.text.splitlines()
    assert lines[1].startswith("1. bob: 1,000") and lines[2].startswith("2. alice: 850")

    ledger = await fake.slash(bob, "chips ledger", channel=poker)
    kinds = re.findall(r"` (\w+):", ledger.text)
    assert kinds == ["take", "grant", "transfer", "starting"]  # newest first
    nosy = await fake.slash(alice, "chips ledger", {"member": bob}, channel=poker)
    assert nosy.ephemeral and "Manage Server" in nosy.text

    off = await fake.slash(alice, "chips daily", channel=poker)
    assert "off" in off.text
    await fake.slash(owner, "chips setup", {"daily_amount": 25, "daily_hours": 12}, channel=poker)
    claimed = await fake.slash(alice, "chips daily", channel=poker)
    assert claimed.text == "+25 chips: you now have 875."
    again = await fake.slash(alice, "chips daily", channel=poker)
    assert again.ephemeral and "next daily chips" in again.text
    report = await bot.store.audit()
    assert report.ok, report.all_problems()


async def _play_short_hand(fake: FakeDiscord, guild: FakeGuild, poker: object) -> FakeMessage:
    """The bring-in is posted and the other player folds: the hand is over."""
    prompt = current_prompt(fake, poker)  # type: ignore[arg-type]
    await fake.click(prompted_member(guild, prompt), prompt, label=label_starting(prompt, "Bring-in") or "")
    prompt = current_prompt(fake, poker)  # type: ignore[arg-type]
    await fake.click(prompted_member(guild, prompt), prompt, label="Fold")
    return prompt


async def test_hand_history_verify_and_settle(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob = guild.member("alice"), guild.member("bob")
    poker = guild.channel("poker")
    await open_table(fake, alice, poker, [alice, bob])
    none_yet = await fake.slash(alice, "hand history", channel=poker)
    assert none_yet.ephemeral and "No hand has finished" in none_yet.text

    await fake.slash(alice, "table deal", channel=poker)
    during = await fake.slash(bob, "hand verify", channel=poker)
    assert "opened when the hand is over" in during.text and "Deck" not in during.text
    commitment = re.search(r"Commitment \(announced before the deal\): ([0-9a-f]{64})", during.text)
    assert commitment is not None
    await _play_short_hand(fake, guild, poker)

    history = await fake.slash(bob, "hand history", channel=poker)
    (attachment,) = [a for m in history.messages for a in m.attachments]
    assert attachment.filename == "wildstud-hand-1.phh"
    phh = tomllib.loads(attachment.text)
    # SPEC §9: fixed limit is variant F7S; the stacks before and after sum the same (no rake).
    assert phh["variant"] == "F7S" and sorted(phh["players"]) == ["alice", "bob"]
    assert sum(phh["starting_stacks"]) == sum(phh["finishing_stacks"]) == 2 * STARTING_CHIPS
    # As bob saw it: his own down cards, ?? for alice's (nobody showed: someone folded).
    bob_p = f"p{phh['players'].index('bob') + 1}"
    deals = {line.split()[2]: line.split()[3] for line in phh["actions"] if line.startswith("d dh")
             and len(line.split()[3]) == 6}
    assert "??" not in deals[bob_p] and all(v.startswith("????") for k, v in deals.items() if k != bob_p)

    verified = await fake.slash(alice, "hand verify", {"number": 1}, channel=poker)
    assert "each matches its leaf and the leaves match the commitment" in verified.text, verified.text
    (command_file,) = [a for m in verified.messages for a in m.attachments]
    found = re.fullmatch(r"wildstud verify ([0-9a-f]{64}) --leaves (\S+) --open (.+)\n", command_file.text)
    assert found is not None and found.group(1) == commitment.group(1)
    # DESIGN "Fairness", recomputed here: SHA-256 over the leaves gives the commitment, and each
    # opening POSITION:CARD:SALT hashes to its leaf.
    leaves = found.group(2).split(",")
    assert hashlib.sha256(("wildstud-deck-v2|" + "".join(leaves)).encode()).hexdigest() == commitment.group(1)
    openings = [o.split(":") for o in found.group(3).split()]
    for position, card, salt in openings:
        leaf = hashlib.sha256(f"wildstud-card-v2|{position}|{card}|{salt}".encode()).hexdigest()
        assert leaf == leaves[int(position) - 1]
    # Two door cards everyone saw, plus alice's own two down cards (she asked); none of bob's.
    assert len(openings) == 4
    missing = await fake.slash(alice, "hand verify", {"number": 9}, channel=poker)
    assert "no hand #9" in missing.text

    settle = await fake.slash(alice, "chips settle", channel=poker)
    # Only the antes and the bring-in moved: the folder lost their ante, the other player won it.
    assert not settle.ephemeral and "To square up:" in settle.text
    assert re.search(r"(alice|bob) pays (alice|bob) 5\b", settle.text), settle.text
