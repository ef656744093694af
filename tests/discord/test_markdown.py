"""Names and free text in public messages render as written (issue 17): ``plain`` escapes every
Markdown construct Discord renders. Checked by a small independent reader of the escaped text's
structure (a backslash takes the next character literally; what is left must hold no Markdown
mark, no line may start a heading, subtext or list), and end to end through the fake Discord:
two masked-link names on one line, the thread hand log, the /chips replies, the void question."""

from __future__ import annotations

import re
from pathlib import Path

import discord
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from bot.discord.ui.text import plain
from bot.discord.ui.voiding import void_line
from bot.tables.notices import VoidConsentNotice
from tests.discord.helpers import new_bot, open_table, play_passively
from tests.fakediscord import FakeDiscord, start_bot

MARKS = set("\\*_~`|[]<>@")
"""Characters that may never stand unescaped in escaped text."""


def read(escaped: str) -> tuple[str, list[tuple[str, bool]]]:
    """The text Discord shows for ``escaped`` and its characters with whether each was escaped.
    Fails when an unescaped Markdown mark is left (a backslash escapes any next character)."""
    chars: list[tuple[str, bool]] = []
    i = 0
    while i < len(escaped):
        if escaped[i] == "\\":
            assert i + 1 < len(escaped), "a trailing backslash"
            chars.append((escaped[i + 1], True))
            i += 2
        else:
            assert escaped[i] not in MARKS, f"unescaped {escaped[i]!r} in {escaped!r}"
            chars.append((escaped[i], False))
            i += 1
    return "".join(c for c, _ in chars), chars


def lines(chars: list[tuple[str, bool]]) -> list[list[tuple[str, bool]]]:
    out: list[list[tuple[str, bool]]] = [[]]
    for c, esc in chars:
        if c in "\r\n" and not esc:
            out.append([])
        else:
            out[-1].append((c, esc))
    return out


def assert_inert(escaped: str, original: str) -> None:
    shown, chars = read(escaped)
    assert shown == original                                     # nothing lost, nothing added
    for i, (c, esc) in enumerate(chars):                         # no autolink: "https://" broken
        if c == ":" and not esc and i + 1 < len(chars) and chars[i + 1][0] == "/":
            raise AssertionError(f"a live scheme in {escaped!r}")
    for line in lines(chars):
        rest = [(c, e) for c, e in line]
        while rest and rest[0][0] in " \t" and not rest[0][1]:
            rest.pop(0)
        if not rest:
            continue
        first, esc = rest[0]
        assert esc or first not in "#-+", f"a heading, subtext or list item: {escaped!r}"
        digits = 0
        while digits < len(rest) and rest[digits][0].isdigit():
            digits += 1
        if digits and digits < len(rest) and rest[digits][0] in ".)":
            assert rest[digits][1], f"an ordered list item: {escaped!r}"


HOSTILE = st.text(alphabet=st.sampled_from(list("#-+>*_~`|[]()<>@:/\\!.1 \n\ttAx")), max_size=40)


@given(st.one_of(HOSTILE, st.text(max_size=40)))
@example("[Ann](https://evil.ex/a) [Bea](https://evil.ex/b)")
@example("# [FREE](https://evil.ex)")
@example("-# small ||spoiler|| <@1> <t:1:R> @everyone 1. x")
def test_escaped_text_renders_no_markdown(text: str) -> None:
    assert_inert(plain(text), text)


def test_the_reader_catches_what_discord_would_render() -> None:
    # The reader must reject what discord.utils.escape_markdown leaves live (what we used before).
    for bad in ("[Ann](https://e.x/a) [Bea](https://e.x/b)", "1. Ann", "<@1>"):
        with pytest.raises(AssertionError):
            assert_inert(discord.utils.escape_markdown(bad), bad)


LINK = re.compile(r"(?<!\\)\[(Ann|Bea|FREE[^\]]*)\]\(https?://")


async def test_two_masked_link_names_on_a_line_are_both_escaped(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice = guild.member("alice")
    a = guild.add_member("a", nick="[Ann](https://evil.ex/a)")
    b = guild.add_member("b", nick="[Bea](https://evil.ex/b)")
    poker = guild.channel("poker")
    await open_table(fake, alice, poker, [a, b])
    await fake.slash(alice, "table deal", channel=poker)
    texts = [m.text for m in fake.channel_messages(poker)]
    assert any("Ann" in t and "Bea" in t for t in texts)
    assert not [line for t in texts for line in t.splitlines() if LINK.search(line)]


async def test_the_thread_hand_log_escapes_names(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice = guild.member("alice")
    evil = guild.add_member("evil", nick="# [FREE](https://evil.ex)")
    poker = guild.channel("poker")
    await open_table(fake, alice, poker, [alice, evil], log="thread")
    await fake.slash(alice, "table deal", channel=poker)
    await play_passively(fake, guild, poker, 1)
    seen = []
    for channel in list(fake.channels.values()):
        if channel is poker:
            continue
        try:
            seen += [m.text for m in fake.channel_messages(channel)]
        except Exception:
            continue
    assert any("FREE" in t for t in seen)                        # the thread's log was read
    bad = [line for t in seen for line in t.splitlines() if line.startswith("# ") or LINK.search(line)]
    assert not bad


async def test_chips_replies_escape_names_and_reasons(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    evil = guild.add_member("evil", nick="# [FREE CHIPS](https://evil.example)")
    bob = guild.member("bob")
    poker = guild.channel("poker")
    given_ = await fake.slash(evil, "chips give", {"member": bob, "amount": 1}, channel=poker)
    board = await fake.slash(bob, "chips leaderboard", channel=poker)
    settle = await fake.slash(bob, "chips settle", channel=poker)
    for res in (given_, board, settle):
        assert not [line for line in res.text.splitlines() if line.startswith("# ") or LINK.search(line)]
    assert "\\# \\[FREE CHIPS\\](https\\://evil.example) gives" in given_.text
    assert "\\[FREE CHIPS\\]" in board.text


def test_the_void_question_escapes_the_asker_and_the_reason() -> None:
    reason = "# FREE CHIPS [here](https://evil.example) @everyone"
    line = void_line(VoidConsentNotice(1, 2, 3, 4, "[Ann](https://e.x)", reason, ((7, "Bea"),), ""))
    assert line.startswith("<@7> do you agree")                    # the mention asked for stays live
    tail = line.split("(asked by ", 1)[1].rsplit(")?", 1)[0]
    assert_inert(tail, f"[Ann](https://e.x): {reason}")


async def test_stats_and_season_replies_escape_names(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """``/stats table`` and ``/season standings`` are public replies: a player nicknamed with a
    heading and a masked link is neither (they were printed as written)."""
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    evil = guild.add_member("evil", nick="# [FREE CHIPS](https://evil.example)")
    alice = guild.member("alice")
    poker = guild.channel("poker")
    started = await fake.slash(guild.member("owner"), "season start", {"name": "**Loud**"}, channel=poker)
    assert "starts now" in started.text, started.text
    await open_table(fake, alice, poker, [alice, evil])
    await fake.slash(alice, "table deal", channel=poker)
    await play_passively(fake, guild, poker, 1)
    night = await fake.slash(alice, "stats table", channel=poker)
    season = await fake.slash(alice, "season standings", {"by": "chips"}, channel=poker)
    for res in (night, season):
        assert "\\[FREE CHIPS\\]" in res.text, res.text
        assert not [line for line in res.text.splitlines() if line.startswith("# ") or LINK.search(line)]
    assert "\\*\\*Loud\\*\\*" in season.text, season.text
