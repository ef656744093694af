"""``void [reason]`` in ``wildstud play``: the human at the keyboard is the dealer and may void the
hand in progress (a misdeal); driven through stdin and stdout in process."""

from __future__ import annotations

import asyncio
import io
import re
import sqlite3
from pathlib import Path

from bot.console.game import PlayConfig, play
from bot.store import Store


def audit_ok(db: Path) -> bool:
    async def check() -> bool:
        async with await Store.open(db) as store:
            return (await store.audit()).ok
    return asyncio.run(check())


def test_void_at_a_turn_gives_every_chip_back_and_the_same_dealer_deals_again(tmp_path: Path) -> None:
    db = tmp_path / "void.sqlite3"
    out = io.StringIO()
    config = PlayConfig(db=db, humans=["Ann"], bots=2, seed=4)
    # "void" between hands is refused (no hand yet); Enter deals; at Ann's first turn she voids the
    # hand; Enter deals hand #2; q at her next turn leaves it saved.
    typed = "void\n\nvoid  Misdeal: a card flashed\n\nq\n"
    assert asyncio.run(play(config, io.StringIO(typed), out)) == 0
    text = out.getvalue()
    assert "No hand is in progress, so there is nothing to void." in text
    # Ann deals and plays, so her void needs the others' consent; the computer players agree to a
    # misdeal before the showdown (issue 18).
    assert "Because Ann is dealt in, a void needs the agreement of" in text
    # Nobody at the keyboard may void without them: Discord's "or someone with Manage Server" is not
    # said here (the terminal's question ends with the players it needs).
    assert "Manage Server" not in text
    assert re.search(r"a void needs the agreement of \w+ and \w+\.\n", text), text
    voided = (r"Hand #1 is void: Ann voided it \(Misdeal: a card flashed\),"
              r" with the agreement of \w+ and \w+\.")
    assert re.search(voided, text)
    # Each computer player's answer is said once, by the table (it was said by the terminal too).
    agreed = re.search(r"(\w+) agrees to void hand #1; waiting for \w+\.", text)
    assert agreed is not None and f"{agreed.group(1)} agrees.\n" not in text
    assert "each stack is what it was before the hand" in text
    assert "Hand #1 deck: the" in text and "stay closed" in text   # opened as after any hand
    # A misdeal is re-dealt with the same button: the same dealer and deal order as hand #1.
    first = re.search(r"Hand #1: (.+?)\. ", text)
    second = re.search(r"Hand #2: (.+?)\. ", text)
    assert first is not None and second is not None and first.group(1) == second.group(1)
    assert "Hand #2 is saved" in text
    with sqlite3.connect(db) as conn:
        status = conn.execute("SELECT status, void_reason FROM hands WHERE hand_no = 1").fetchone()
        # Every player bought in with the whole 1,000 of a first balance; hand #2 (in progress)
        # keeps its starting stacks in the store, so the seats still hold 1,000 each.
        stacks = [row[0] for row in conn.execute("SELECT stack FROM seats")]
    assert status[0] == "voided" and "Misdeal: a card flashed" in status[1]
    assert stacks == [1000, 1000, 1000]
    assert audit_ok(db)


def test_help_mentions_void() -> None:
    out = io.StringIO()
    asyncio.run(play(PlayConfig(db=None, humans=["Ann"], bots=1, seed=2), io.StringIO("\n?\nq\n"), out))
    assert "void [reason]" in out.getvalue()


def test_hot_seat_void_asks_the_other_player_at_the_keyboard(tmp_path: Path) -> None:
    # Issue 18: Bea (in the hand, her ante in the pot) types void; Ann must agree. A "no" keeps the
    # hand going; a "yes" voids it, announced with who asked and who agreed.
    db = tmp_path / "hot.sqlite3"
    out = io.StringIO()
    config = PlayConfig(db=db, humans=["Ann", "Bea"], bots=0, seed=3)
    typed = "\n\nvoid misdeal\nno\nvoid misdeal\nyes\nq\n"
    assert asyncio.run(play(config, io.StringIO(typed), out)) == 0
    text = out.getvalue()
    assert "Because Bea is dealt in, a void needs the agreement of Ann" in text
    assert "Ann does not agree to void hand #1: it goes on." in text
    assert "Hand #1 is void: Bea voided it (misdeal), with the agreement of Ann." in text
    assert audit_ok(db)
