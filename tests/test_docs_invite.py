"""The front page's invite link asks for exactly the permissions the bot uses (issue 17)."""

from __future__ import annotations

import re
from pathlib import Path

import discord

ROOT = Path(__file__).resolve().parents[1]


def test_the_invite_link_has_the_permissions_the_readme_lists() -> None:
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())   # lines unwrapped
    (value,) = {int(v) for v in re.findall(r"permissions=(\d+)", readme)}
    # The bits come from discord.py's own flags (Discord's permission table), not from the README.
    wanted = discord.Permissions(
        view_channel=True, send_messages=True, attach_files=True, read_message_history=True,
        # log: thread starts a public thread on the summary and posts the hand's log in it.
        create_public_threads=True, send_messages_in_threads=True,
    )
    assert discord.Permissions(value) == wanted
    for name in ("View Channels", "Send Messages", "Attach Files", "Read Message History",
                 "Create Public Threads", "Send Messages in Threads"):
        assert name in readme
    assert f"({value})" in readme
