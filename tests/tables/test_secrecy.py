"""Secrets stay secret (issue 10; DESIGN "Fairness and secrecy").

Over random hands with random folds, nothing a member can see (the channel, their own private
messages, the history ``/hand history`` gives them, the reveal ``/hand verify`` gives them) holds a
down card of another player's hand that was not shown at the showdown. Each text is scanned for card
tokens in both notations (``Qc`` and ``Q♣``, also inside run-together PHH deal strings such as
``7c2dQc``) and what is found is compared with what was public, worked out here from the engine's
own deal: every up card, and the down cards of the hands shown.
"""

from __future__ import annotations

import asyncio
import random
import re
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.cards import Card
from bot.engine.stakes import PRESETS
from bot.store import Store
from bot.tables.notices import PrivateNotice
from bot.tables.reveal import reveal_of, viewer_history
from tests.tables.helpers import Harness

_RUN = re.compile(r"[0-9A-Za-z?]+")
_CODE = re.compile(r"(?:[2-9TJQKA][cdhs]|\?\?)+")
_SYMBOL = re.compile(r"(?<![0-9A-Za-z])(10|[2-9TJQKA])([♣♦♥♠])")


_STAND_IN = re.compile(r"\bas (10|[2-9TJQKA])([♣♦♥♠])")


def card_tokens(text: str) -> set[Card]:
    """Every card named in ``text``: whole runs made only of PHH codes (``Qc``, ``7c2dQc``) and
    symbol cards (``Q♣``, ``10♥``). Hex digests never match: they are runs with other characters.
    What a wild card stands for (``5♣ as K♠``, and that K♠ in the best five beside it) is not a dealt
    card: it names no one's hole card, so it is left out."""
    stand_ins = {Card.parse(rank + suit) for rank, suit in _STAND_IN.findall(text)}
    return _tokens(text) - stand_ins


def _tokens(text: str) -> set[Card]:
    found: set[Card] = set()
    for run in _RUN.findall(text):
        if _CODE.fullmatch(run):
            found.update(Card.parse(run[i:i + 2]) for i in range(0, len(run), 2) if run[i:i + 2] != "??")
    for rank, suit in _SYMBOL.findall(text):
        found.add(Card.parse(rank + suit))
    return found


def test_card_tokens_reads_both_notations_and_ignores_hex() -> None:
    expected = {Card.parse(c) for c in ("7c", "2d", "Qc", "Th", "Qc")}
    assert card_tokens("d dh p1 7c2dQc and 10♥, Q♣") == expected
    assert card_tokens("commitment 5c2dab9f 12:Qc:0a1b") == {Card.parse("Qc")}
    assert card_tokens("d dh p2 ????Kh") == {Card.parse("Kh")}
    assert card_tokens("A♦ A♠ Q♦ (wild: 5♣ as A♠)") == {Card.parse(c) for c in ("Ad", "Qd", "5c")}


async def play_one(seed: int, players: int, choices: list[int]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "ws.sqlite3"
        async with await Store.open(path) as store:
            h = Harness(store, path, rng=random.Random(seed))
            names = ["Ann", "Bea", "Cid", "Dee"][:players]
            await h.table(*((n, 500) for n in names), stakes=PRESETS["small"])
            hand_id = await h.service.deal(h.key, h.members["Ann"])
            live = h.service.table(h.key).hand
            assert live is not None
            engine = live.engine
            step = 0
            while h.service.table(h.key).hand is not None:
                prompt = h.prompt()
                options = [o for o in prompt.options if not o.needs_amount]
                pick = options[choices[step % len(choices)] % len(options)]
                step += 1
                await h.service.act(h.key, prompt.member, prompt.hand_id, prompt.turn, pick.action,
                                    pick.amount)
            result = engine.result
            assert result is not None
            members = list(live.members)
            public = {c for s in range(players) for c in engine.up_cards(s)}
            public |= {c for s in result.shown for c in engine.down_cards(s)}
            record = await store.get_hand(hand_id)
            channel = h.rec.text(h.key)
            for seat, member in enumerate(members):
                own = set(engine.down_cards(seat))
                allowed = public | own
                seen = card_tokens(channel)
                for notice in h.rec.of(h.key):
                    if isinstance(notice, PrivateNotice) and notice.member == member:
                        seen |= card_tokens(notice.text)
                seen |= card_tokens(viewer_history(record, member))
                reveal = reveal_of(record, member)
                seen |= {o.card for o in reveal.openings}
                seen |= card_tokens(reveal.verify_command())
                leaked = seen - allowed
                assert not leaked, (h.rec.text(h.key), leaked)
                # And what they may see they do see: their own down cards are opened to them.
                assert {o.card for o in reveal.own} == own
            # A spectator (nobody at the table) sees only the public cards.
            spectator = card_tokens(channel) | card_tokens(viewer_history(record, None))
            spectator |= {o.card for o in reveal_of(record).openings}
            assert spectator <= public and {o.card for o in reveal_of(record).openings} == public


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 4), st.lists(st.integers(0, 5), min_size=1, max_size=12))
def test_no_member_ever_sees_an_unshown_down_card_of_another(
    seed: int, players: int, choices: list[int]
) -> None:
    asyncio.run(play_one(seed, players, choices))


async def test_history_command_spectator_member_and_full(store: Store, db_path: Path) -> None:
    import subprocess
    import sys

    h = Harness(store, db_path, rng=random.Random(5))
    await h.table(("Ann", 500), ("Bea", 500), ("Cid", 500), stakes=PRESETS["small"])
    hand_id = await h.service.deal(h.key, h.members["Ann"])
    live = h.service.table(h.key).hand
    assert live is not None
    await h.service.act(h.key, h.prompt().member, h.prompt().hand_id, h.prompt().turn, "bring_in")
    first = h.prompt()                                  # the next player folds to the bring-in
    await h.service.act(h.key, first.member, first.hand_id, first.turn, "fold")
    await h.passive()
    folded = live.members.index(first.member)
    hole = set(live.engine.down_cards(folded))

    def history(*extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "bot", "history", "--hand", str(hand_id), "--db",
                               str(db_path), *extra], capture_output=True, text=True, check=False,
                              cwd=Path(__file__).resolve().parents[2])

    spectator = history()
    assert spectator.returncode == 0, spectator.stderr
    assert not card_tokens(spectator.stdout) & hole and "??" in spectator.stdout
    own = history("--member", str(first.member))
    assert own.returncode == 0 and hole <= card_tokens(own.stdout)
    full = history("--full")
    assert full.returncode == 0 and hole <= card_tokens(full.stdout)
    assert "--full: this history includes every player's down cards" in full.stdout
    missing = subprocess.run([sys.executable, "-m", "bot", "history", "--hand", "99", "--db",  # noqa: ASYNC221
                              str(db_path)], capture_output=True, text=True, check=False)
    assert missing.returncode == 2 and "hand 99" in missing.stderr
