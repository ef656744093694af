"""Whole hands through the table service: showdown, folds, side pots, eight players.

Each deck is stacked (tests/tables/helpers.stacked_deck) so the expected result can be worked out
by hand; the comment on each case says how.
"""

from __future__ import annotations

import re
from pathlib import Path

from bot.engine.betting.stakes import PRESETS, TableStakes
from bot.store import Store
from bot.tables.notices import NoticeKind
from tests.tables.helpers import Harness, StackedRandom, stacked_deck

# Deal order for a first hand at seats 1-3: the button starts on seat 1 (Ann), so Bea (seat 2) is
# dealt first, then Cid, then Ann. Hands are written: down, down, door, 4th, 5th, 6th, 7th.
BEA = "Ks Kd Kh 9c 8d 2c 3h"   # three kings, no wilds
CID = "Qs Qd Jh Jc 4d 4s 7c"   # two pair, queens and jacks (fours too)
ANN = "5h As Ac 9d 6h 2d Th"   # As Ac plus the 5♥ (wild, face down): three aces
SHOWDOWN_DECK = stacked_deck([BEA, CID, ANN])


async def test_three_player_hand_to_showdown(store: Store, db_path: Path) -> None:
    h = Harness(store, db_path, rng=StackedRandom(SHOWDOWN_DECK))
    await h.table(("Ann", 500), ("Bea", 500), ("Cid", 500), stakes=PRESETS["small"])
    await h.service.deal(h.key, h.members["Ann"])
    # Door cards Kh, Jh, Ac: the jack is lowest, so Cid brings in (SPEC §5).
    assert h.prompt().name == "Cid"
    await h.passive()
    # Antes 3 x 5 + bring-in 10 called twice = 45; nobody bets later. Ann's three aces (one a wild
    # five) beat Bea's three kings: Ann 500 - 15 + 45 = 530, the others 500 - 15 = 485.
    seats = {s.member_id: s.stack for s in await store.seats(h.service.table(h.key).table_id)}
    assert seats == {h.members["Ann"]: 530, h.members["Bea"]: 485, h.members["Cid"]: 485}
    showdown = h.rec.showdowns(h.key)
    assert len(showdown) == 1
    assert "Ann wins the pot of 45" in showdown[0].text
    assert "5♥ as A" in showdown[0].text          # what the wild stood for
    assert showdown[0].winnings == {h.members["Ann"]: 45}
    # The deck is revealed after the hand and matches the commitment announced before it.
    start = h.texts(NoticeKind.HAND_START)[0]
    reveal = h.texts(NoticeKind.REVEAL)[0]
    digest = re.findall(r"\b[0-9a-f]{64}\b", start)[0]
    assert "Hand #1 deck: the" in reveal and digest not in reveal and "/hand verify 1" in reveal
    hand = (await store.table_hands(h.service.table(h.key).table_id))[0]
    assert hand.status == "finished" and hand.phh and "Ann" in hand.phh


async def test_everyone_folds_to_a_bet(store: Store, db_path: Path) -> None:
    h = Harness(store, db_path, rng=StackedRandom(SHOWDOWN_DECK))
    await h.table(("Ann", 500), ("Bea", 500), ("Cid", 500), stakes=PRESETS["small"])
    await h.service.deal(h.key, h.members["Ann"])
    await h.act("Cid", "bring_in")
    await h.act("Ann", "complete")
    await h.act("Bea", "fold")
    await h.act("Cid", "fold")
    # Pot: antes 15 + Cid's 10 + Ann's 20. Only 10 of Ann's 20 was called, so 10 goes back to her
    # (not winnings) and she wins 35: 500 - 5 - 20 + 10 + 35 = 520; Bea 495; Cid 485.
    seats = {s.member_id: s.stack for s in await store.seats(h.service.table(h.key).table_id)}
    assert seats == {h.members["Ann"]: 520, h.members["Bea"]: 495, h.members["Cid"]: 485}
    log = "\n".join(h.texts())
    assert "10 uncalled goes back to Ann" in log
    assert "Ann wins the pot of 35; everyone else folded" in log
    assert h.rec.showdowns(h.key) == []
    # Nobody's down cards were shown publicly (the deck reveal lists codes, not symbols).
    for card in ("K♠", "K♦", "Q♠", "Q♦", "5♥", "A♠"):
        assert all(card not in n.text for n in h.rec.public(h.key) if n.kind != NoticeKind.REVEAL)


async def test_all_in_with_side_pot(store: Store, db_path: Path) -> None:
    stakes = TableStakes.no_limit(ante=5, bring_in=10, min_bet=20, min_buy_in=50, max_buy_in=1000)
    h = Harness(store, db_path, rng=StackedRandom(SHOWDOWN_DECK))
    await h.table(("Ann", 100), ("Bea", 300), ("Cid", 300), stakes=stakes)
    await h.service.deal(h.key, h.members["Ann"])
    await h.act("Cid", "bring_in")
    await h.act("Ann", "all_in")                    # 95 after her ante
    await h.act("Bea", "call")
    await h.act("Cid", "call")
    # Fourth street: Cid shows a pair of jacks (Jh Jc), the best board, and acts first.
    await h.act("Cid", "bet", 100)
    await h.act("Bea", "call")
    await h.passive()
    # Contributions: Ann 100, Bea 200, Cid 200. Main pot 3 x 100 = 300 for all three; side pot
    # 2 x 100 = 200 for Bea and Cid. Ann (three aces) wins the main pot, Bea (three kings) the side
    # pot over Cid (two pair): Ann 300, Bea 300 - 200 + 200 = 300, Cid 100.
    seats = {s.member_id: s.stack for s in await store.seats(h.service.table(h.key).table_id)}
    assert seats == {h.members["Ann"]: 300, h.members["Bea"]: 300, h.members["Cid"]: 100}
    text = h.rec.showdowns(h.key)[0].text
    assert "Ann wins the main pot of 300" in text
    assert "Bea wins side pot 1 of 200" in text


async def test_eight_players_get_a_community_card(store: Store, db_path: Path) -> None:
    import random

    h = Harness(store, db_path, rng=random.Random(11))
    names = ["Ann", "Bea", "Cid", "Dot", "Eve", "Fay", "Gus", "Hal"]
    await h.table(*[(n, 400) for n in names], stakes=PRESETS["small"])
    table = h.service.table(h.key)
    await h.service.deal(h.key, h.members["Ann"])
    engine = table.hand.engine if table.hand else None
    assert engine is not None
    await h.passive()
    # 8 players x 6 cards = 48 dealt by sixth street; 4 left for 8 live players, so seventh street
    # is one community card for all (SPEC §2).
    assert engine.community_card is not None
    assert any("community card" in t for t in h.texts(NoticeKind.STREET))
    seventh = [n for n in h.rec.privates(h.key) if n.street == 7]
    assert len(seventh) == 8
    assert {n.community_card for n in seventh} == {engine.community_card}
    assert all(len(n.down_cards) + len(n.up_cards) == 6 for n in seventh)
    seats = await store.seats(table.table_id)
    assert sum(s.stack for s in seats) == 8 * 400
    # A ninth player cannot sit down.
    try:
        await h.service.join(h.key, 999, "Ivy", buy_in=400)
    except Exception as exc:
        assert "full" in str(exc)
    else:  # pragma: no cover
        raise AssertionError("a ninth seat was given")
