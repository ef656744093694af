"""The unfinished hands of a database written before the log was PHH still resume.

``tests/fixtures/codec-v3.sqlite3`` was made by the code of schema 3 (see the docstring of
``tests/store/test_action_log_migration.py`` for the script that played it): two tables, each with
one finished and one unfinished hand, the log in the old codec text. Opening it runs migration 4;
the service must then resume both unfinished hands exactly where they stopped. The reference is
the old resume path, rebuilt here: the old commands split by hand and fed to the engine's string
``act`` (as the code of schema 3 did), never through ``Command`` or the migration.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from bot.engine.betting.stakes import TableStakes
from bot.engine.cards.card import Card
from bot.engine.cards.deck import Deck
from bot.engine.games.rulings import Rulings
from bot.engine.hand.hand import StudHand
from bot.store import Store
from bot.store.records import HandRecord
from bot.tables.notices import NoticeKind, TableKey
from tests.tables.helpers import Harness

FIXTURE = Path(__file__).parent.parent / "fixtures" / "codec-v3.sqlite3"
MEMBERS = {"Ann": 101, "Bea": 102, "Cid": 103, "Dan": 201, "Eve": 202}


def _old_log(path: Path, hand_id: int) -> list[str]:
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT action FROM hand_actions WHERE hand_id = ? ORDER BY seq", (hand_id,))
        return [r[0] for r in rows.fetchall()]


def _reference(record: HandRecord, old: list[str]) -> StudHand:
    """The hand as the code of schema 3 rebuilt it from its codec log."""
    order = [int(s) for s in old[0].split()[1:]]
    starting = {p.seat_no: p.starting_stack for p in record.players}
    hand = StudHand([starting[n] for n in order], TableStakes.from_dict(record.stakes),
                    Rulings.from_dict(record.rulings), Deck.from_order([Card.parse(c) for c in record.deck]))
    for text in old[1:]:
        words = text.split()
        hand.act(int(words[0][1:]) - 1, words[1], int(words[2]) if len(words) == 3 else None)
    return hand


async def test_both_unfinished_hands_resume_where_they_stopped(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    shutil.copyfile(FIXTURE, path)
    old = {hand_id: _old_log(path, hand_id) for hand_id in (2, 4)}
    async with await Store.open(path) as store:
        h = Harness(store, path)
        h.members = dict(MEMBERS)
        await h.service.start()
        for key, hand_id in ((TableKey(1, 100), 2), (TableKey(1, 200), 4)):
            live = h.service.table(key).hand
            assert live is not None and live.hand_id == hand_id
            reference = _reference(await store.get_hand(hand_id), old[hand_id])
            assert live.engine.log == reference.log
            assert live.engine.actor == reference.actor is not None
            assert [live.engine.stack(s) for s in range(live.engine.seat_count)] == [
                reference.stack(s) for s in range(reference.seat_count)]
            prompt = h.rec.last_prompt(key)
            assert prompt is not None and prompt.hand_id == hand_id
            assert prompt.member == live.members[reference.actor]
            assert any("resumes after a restart" in t for t in h.texts(NoticeKind.INFO, key))
        # Table 2: Eve bet 50 and Dan raised to 150, so Eve is to act with 100 to call.
        prompt = h.rec.last_prompt(TableKey(1, 200))
        assert prompt is not None and prompt.name == "Eve" and prompt.to_call == 100
        # Bea's timer folded her in hand 2 and marked her away; that stays so.
        bea = h.service.table(TableKey(1, 100)).seat_of(MEMBERS["Bea"])
        assert bea is not None and bea.status == "away"
        for key in (TableKey(1, 100), TableKey(1, 200)):
            await h.passive(key)
            assert h.service.table(key).hand is None
        for hand_id in (2, 4):
            record = await store.get_hand(hand_id)
            assert record.status == "finished"
            # PHH from here on; a showdown's shows are stored too (`sm -`, issue 10's show or muck).
            verbs = {a.split()[1] for a in record.actions[1:]}
            assert verbs <= {"pb", "cbr", "cc", "f", "sm"}
        report = await store.audit()
        assert report.ok, report.all_problems()
        await h.service.close()
