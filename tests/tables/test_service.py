"""The table service's rules around hands: turns and stale actions, timers, rulings, seats, privacy,
separate tables, and restarts (issue 5; SPEC §7-§8; peers.md §3 scenarios 20, 21, 25, 29, 30, 35)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from bot.engine.betting.stakes import PRESETS
from bot.engine.errors import IllegalAction
from bot.store import Store
from bot.tables.errors import NotDealer, StaleAction, TableError
from bot.tables.notices import (
    NoticeKind,
    PrivateNotice,
    Prompt,
    PublicNotice,
    Reply,
    ShowdownNotice,
    TableKey,
)
from bot.tables.options import TableOptions
from tests.tables.helpers import Harness, StackedRandom, stacked_deck

THREE = (("Ann", 500), ("Bea", 500), ("Cid", 500))


async def stored_actions(h: Harness) -> tuple[str, ...]:
    hand = (await h.store.table_hands(h.service.table(h.key).table_id, limit=1))[0]
    return hand.actions


# ----------------------------------------------------------------------------- stale and refused actions
async def test_stale_duplicate_and_out_of_turn_actions_change_nothing(store: Store, db_path: Path) -> None:
    h = Harness(store, db_path)
    await h.table(*THREE, stakes=PRESETS["small"])
    await h.service.deal(h.key, h.members["Ann"])
    first = h.prompt()
    await h.service.act(h.key, first.member, first.hand_id, first.turn, "bring_in")
    before = await stored_actions(h)
    pot = h.service.table(h.key).hand.engine.pot_total  # type: ignore[union-attr]
    # The same click again (a double click, or a retry): its turn has passed.
    with pytest.raises(StaleAction):
        await h.service.act(h.key, first.member, first.hand_id, first.turn, "bring_in")
    now = h.prompt()
    # A button from another hand.
    with pytest.raises(StaleAction):
        await h.service.act(h.key, now.member, now.hand_id + 1, now.turn, "call")
    # Someone else pressing the current button.
    other = next(m for m in h.members.values() if m != now.member)
    with pytest.raises(TableError, match="not your turn"):
        await h.service.act(h.key, other, now.hand_id, now.turn, "call")
    # A bet of a size fixed limit does not allow (the engine's refusal, same family).
    with pytest.raises(IllegalAction):
        await h.service.act(h.key, now.member, now.hand_id, now.turn, "raise", 35)
    assert await stored_actions(h) == before
    assert h.service.table(h.key).hand.engine.pot_total == pot  # type: ignore[union-attr]
    assert h.prompt() == now


# ----------------------------------------------------------------------------- timers (SPEC §7)
async def test_timeout_reminds_then_checks_or_folds_and_marks_away(store: Store, db_path: Path) -> None:
    options = TableOptions(turn_timeout=60, reminder_after=30)
    h = Harness(store, db_path, rng=StackedRandom(stacked_deck(["Ks Kd Kh 9c 8d 2c 3h",
                                                                 "Qs Qd Jh Jc 4d 4s 7c",
                                                                 "5h As Ac 9d 6h 2d Th"])),
                options=options)
    await h.table(*THREE, stakes=PRESETS["small"])
    await h.service.deal(h.key, h.members["Ann"])
    assert h.prompt().name == "Cid"             # Cid's J♥ is the low door card
    assert h.prompt().deadline == 60            # dealt at t = 0 with a 60 s timer
    await h.clock.advance(30)
    reminder = h.prompt()
    assert reminder.reminder and reminder.name == "Cid" and reminder.turn == 2
    assert reminder.deadline == 60              # the reminder keeps the same deadline
    await h.clock.advance(30)
    # Out of time with a bring-in owed: the bring-in is posted, never completed (SPEC §7).
    log = h.texts(NoticeKind.ACTION)
    assert log[-1] == "Cid brings in for 10 (out of time)"
    assert any(isinstance(r, Reply) and r.member == h.members["Cid"] for r in h.rec.of(h.key))
    assert h.prompt().name == "Ann"
    await h.clock.advance(60)
    # Ann faces the bring-in: no check is possible, so she folds.
    assert h.texts(NoticeKind.ACTION)[-1] == "Ann folds (out of time)"
    await h.act("Bea", "fold")
    assert h.service.table(h.key).hand is None
    assert h.clock.pending == 0                  # timers are cancelled when the hand ends
    seats = {s.member_id: s.status for s in await store.seats(h.service.table(h.key).table_id)}
    assert seats[h.members["Ann"]] == "away" and seats[h.members["Cid"]] == "away"
    # Away players sit out: only Bea is ready, so there is no deal, and the reason says why.
    with pytest.raises(TableError, match="only Bea is ready"):
        await h.service.deal(h.key, h.members["Ann"])
    assert "Ann is away" in h.texts(NoticeKind.NO_DEAL)[-1]
    await h.service.back(h.key, h.members["Ann"])
    await h.service.deal(h.key, h.members["Ann"])
    hand = h.service.table(h.key).hand
    assert hand is not None and set(hand.names) == {"Ann", "Bea"}


# ----------------------------------------------------------------------------- rulings (SPEC §8)
async def test_ruling_change_waits_for_the_next_deal_and_is_announced_before_it(
    store: Store, db_path: Path
) -> None:
    h = Harness(store, db_path)
    await h.table(*THREE, stakes=PRESETS["small"])
    ann, bea = h.members["Ann"], h.members["Bea"]
    await h.service.deal(h.key, ann)
    with pytest.raises(NotDealer):
        await h.service.set_ruling(h.key, bea, "raise_cap", "4")
    reply = await h.service.set_ruling(h.key, ann, "raise-cap", "4")
    assert "3 → 4" in reply and "next deal" in reply
    with pytest.raises(TableError, match="choose one of"):
        await h.service.set_ruling(h.key, ann, "raise_cap", "7")
    # A member with dealer rights (e.g. Manage Server) may change rulings too.
    await h.service.set_ruling(h.key, bea, "odd_chip", "left-of-dealer", dealer_rights=True)
    assert h.texts(NoticeKind.SETTINGS) == []
    first = h.service.table(h.key).hand
    assert first is not None and first.rulings.raise_cap == "3"
    await h.passive()
    count_before = len(h.rec.of(h.key))
    await h.service.deal(h.key, ann)
    after = h.rec.of(h.key)[count_before:]
    kinds = [n.kind for n in after if isinstance(n, PublicNotice)]
    assert kinds.index(NoticeKind.SETTINGS) < kinds.index(NoticeKind.HAND_START)
    settings = next(n.text for n in after if isinstance(n, PublicNotice) and n.kind == NoticeKind.SETTINGS)
    assert "raise_cap: 3 → 4" in settings and "odd_chip" in settings
    hands = await store.table_hands(h.service.table(h.key).table_id)
    assert hands[0].rulings["raise_cap"] == "4" and hands[1].rulings["raise_cap"] == "3"
    await h.passive()
    # No change, no announcement on the hand after.
    count_before = len(h.rec.of(h.key))
    await h.service.deal(h.key, ann)
    assert not any(isinstance(n, PublicNotice) and n.kind == NoticeKind.SETTINGS
                   for n in h.rec.of(h.key)[count_before:])


# ----------------------------------------------------------------------------- seats and the button
async def test_button_moves_and_players_without_chips_or_sitting_out_are_not_dealt(
    store: Store, db_path: Path
) -> None:
    h = Harness(store, db_path)
    await h.table(("Ann", 500), ("Bea", 500), ("Cid", 500), ("Dot", 500), stakes=PRESETS["small"])
    ann = h.members["Ann"]
    buttons = []
    for _ in range(3):
        await h.service.deal(h.key, ann)
        hand = h.service.table(h.key).hand
        assert hand is not None
        buttons.append(hand.names[-1])
        assert hand.names[0] != hand.names[-1]
        await h.passive()
    # SPEC §2: the deal rotates one seat per hand, and dealing starts left of the button.
    assert buttons == ["Ann", "Bea", "Cid"]
    await h.service.sit_out(h.key, h.members["Dot"])
    await h.service.deal(h.key, ann)
    hand = h.service.table(h.key).hand
    assert hand is not None and "Dot" not in hand.names and hand.names[-1] == "Ann"
    await h.passive()


async def test_fewer_than_two_players_means_no_deal(store: Store, db_path: Path) -> None:
    h = Harness(store, db_path)
    await h.table(("Ann", 500), stakes=PRESETS["small"])
    with pytest.raises(TableError, match="two players"):
        await h.service.deal(h.key, h.members["Ann"])
    assert h.texts(NoticeKind.NO_DEAL)
    with pytest.raises(NotDealer):
        await h.service.deal(h.key, 555)


async def test_leaving_mid_hand_folds_at_that_turn_and_cashes_out_after(store: Store, db_path: Path) -> None:
    h = Harness(store, db_path, rng=StackedRandom(stacked_deck(["Ks Kd Kh 9c 8d 2c 3h",
                                                                 "Qs Qd Jh Jc 4d 4s 7c",
                                                                 "5h As Ac 9d 6h 2d Th"])))
    await h.table(*THREE, stakes=PRESETS["small"])
    bea = h.members["Bea"]
    await h.service.deal(h.key, h.members["Ann"])
    await h.act("Cid", "bring_in")
    message = await h.service.leave(h.key, bea)        # Bea acts after Ann
    assert "fold at your turn" in message
    await h.act("Ann", "call")
    # Bea's turn came: she was folded for leaving; her ante stays in the pot.
    assert "Bea folds" in h.texts(NoticeKind.ACTION)
    await h.passive()
    assert h.service.table(h.key).seat_of(bea) is None
    # Bea paid only her 5 ante: 1,000 starting chips - 500 buy-in + 495 back = 995.
    assert await store.balance(h.key.guild, bea) == 995
    # Leaving between hands cashes out at once.
    assert "went back" in await h.service.leave(h.key, h.members["Cid"])


# ----------------------------------------------------------------------------- private messages
def without_stand_ins(text: str) -> str:
    """``text`` less the cards wilds stand for ("... 8♥ 8♠ 2♣ (wild: 6♥ as 8♠)" -> "... 8♥ 2♣"): a
    stand-in is picked from public cards only, so it may name a card hidden in someone's hand by
    chance -- that tells nothing, whereas avoiding hidden cards would."""
    out = []
    for line in text.split("\n"):
        match = re.search(r" \(wild: ([^)]*)\)", line)
        if match:
            head = line[: match.start()]
            for part in match.group(1).split(", "):
                stands = part.split(" as ")[-1]
                if stands != "itself":
                    at = head.rfind(f" {stands}")
                    head = head[:at] + head[at + 1 + len(stands):] if at >= 0 else head
            line = head + line[match.end():]
        out.append(line)
    return "\n".join(out)


async def test_private_messages_never_show_another_players_down_cards(store: Store, db_path: Path) -> None:
    h = Harness(store, db_path, rng=random.Random(3))
    await h.table(("Ann", 600), ("Bea", 600), ("Cid", 600), ("Dot", 600), stakes=PRESETS["small"])
    table = h.service.table(h.key)
    rng = random.Random(5)
    for _ in range(4):
        start = len(h.rec.log)
        await h.service.deal(h.key, h.members["Ann"])
        live = table.hand
        assert live is not None
        engine = live.engine
        while table.hand is not None:
            prompt = h.prompt()
            option = rng.choice(prompt.options)
            await h.service.act(
                h.key, prompt.member, prompt.hand_id, prompt.turn, option.action, option.amount
            )
        downs = {live.members[s]: engine.down_cards(s) for s in range(len(live.members))}
        folded = {live.members[s] for s in range(len(live.members)) if engine.folded(s)}
        for rec in h.rec.log[start:]:
            notice = rec.notice
            if isinstance(notice, PrivateNotice):
                assert set(notice.down_cards) <= set(downs[notice.member])
                for member, cards in downs.items():
                    if member != notice.member:
                        text = without_stand_ins(notice.text)
                        assert not any(str(c) in text for c in cards), (notice.text, cards)
            elif isinstance(notice, (PublicNotice, ShowdownNotice)) and getattr(notice, "kind", None) != \
                    NoticeKind.REVEAL:
                # Folded hands are never shown in the channel (peers.md §3, scenario 20).
                for member in folded:
                    text = without_stand_ins(notice.text)
                    assert not any(str(c) in text for c in downs[member]), notice.text


async def test_undeliverable_private_message_is_reported_once_and_never_blocks(
    store: Store, db_path: Path
) -> None:
    h = Harness(store, db_path)
    await h.table(*THREE, stakes=PRESETS["small"])
    h.rec.closed_dms.add(h.members["Bea"])
    await h.service.deal(h.key, h.members["Ann"])
    await h.passive()
    failed = h.texts(NoticeKind.DM_FAILED)
    assert len(failed) == 1 and "Bea" in failed[0]
    assert h.rec.privates(h.key, h.members["Bea"]) == []
    # The fallback ("My cards"): her own cards, on demand, during the next hand.
    await h.service.deal(h.key, h.members["Ann"])
    mine = h.service.my_cards(h.key, h.members["Bea"])
    assert mine.member == h.members["Bea"] and len(mine.down_cards) == 2
    with pytest.raises(TableError):
        h.service.my_cards(h.key, 4242)


# ----------------------------------------------------------------------------- two tables
async def test_two_tables_never_see_each_others_notices(store: Store, db_path: Path) -> None:
    h = Harness(store, db_path, rng=random.Random(9))
    one, two = TableKey(1, 100), TableKey(2, 200)
    await h.table(("Ann", 500), ("Bea", 500), key=one, stakes=PRESETS["small"])
    await h.table(("Cid", 500), ("Dot", 500), ("Eve", 500), key=two, stakes=PRESETS["small"])
    table_one, table_two = h.service.table(one), h.service.table(two)
    await h.service.deal(one, h.members["Ann"])
    await h.service.deal(two, h.members["Cid"])
    while table_one.hand is not None or table_two.hand is not None:   # interleave the two hands
        for key, table in ((one, table_one), (two, table_two)):
            if table.hand is not None:
                prompt = h.prompt(key)
                passive = ("bring_in", "check", "call", "show")
                action = next(o.action for o in prompt.options if o.action in passive)
                await h.service.act(key, prompt.member, prompt.hand_id, prompt.turn, action)
    members = {one: {h.members["Ann"], h.members["Bea"]},
               two: {h.members["Cid"], h.members["Dot"], h.members["Eve"]}}
    names = {one: {"Ann", "Bea"}, two: {"Cid", "Dot", "Eve"}}
    for key, other in ((one, two), (two, one)):
        for notice in h.rec.of(key):
            if isinstance(notice, (PrivateNotice, Prompt, Reply)):
                assert notice.member in members[key]
            text = notice.text
            assert not any(name in text for name in names[other]), text


# ----------------------------------------------------------------------------- restart and recovery
async def test_restart_mid_hand_resumes_with_the_same_cards_and_pots(db_path: Path) -> None:
    store = await Store.open(db_path)
    h = Harness(store, db_path, rng=random.Random(21))
    await h.table(*THREE, stakes=PRESETS["small"])
    await h.service.deal(h.key, h.members["Ann"])
    for _ in range(5):                       # third street and into fourth
        prompt = h.prompt()
        action = next(o.action for o in prompt.options if o.action in ("bring_in", "call", "check"))
        await h.service.act(h.key, prompt.member, prompt.hand_id, prompt.turn, action)
    live = h.service.table(h.key).hand
    assert live is not None
    before = live.engine
    seen = {
        "cards": [before.cards(s) for s in range(3)],
        "pots": before.pots(), "pot": before.pot_total, "stacks": [before.stack(s) for s in range(3)],
        "actor": before.actor, "wilds": before.wild_ranks, "street": before.street,
    }
    old_prompt = h.prompt()
    await h.service.close()
    await store.close()                       # the process dies here

    store2 = await Store.open(db_path)
    try:
        h2 = Harness(store2, db_path)
        h2.members = dict(h.members)
        assert await h2.service.start() == [h.key]
        resumed = h2.service.table(h.key).hand
        assert resumed is not None
        after = resumed.engine
        assert seen == {
            "cards": [after.cards(s) for s in range(3)],
            "pots": after.pots(), "pot": after.pot_total, "stacks": [after.stack(s) for s in range(3)],
            "actor": after.actor, "wilds": after.wild_ranks, "street": after.street,
        }
        assert any("resumes after a restart" in t for t in h2.texts(NoticeKind.INFO))
        prompt = h2.prompt()
        assert (prompt.member, prompt.hand_id, prompt.turn) == (old_prompt.member, old_prompt.hand_id,
                                                                old_prompt.turn)
        assert {n.member for n in h2.rec.privates(h.key)} == set(h.members.values())
        await h2.passive()
        seats = await store2.seats(h2.service.table(h.key).table_id)
        assert sum(s.stack for s in seats) == 1500
        assert (await store2.audit()).ok
    finally:
        await store2.close()


async def test_a_hand_that_cannot_be_replayed_is_voided_and_chips_go_back(db_path: Path) -> None:
    store = await Store.open(db_path)
    h = Harness(store, db_path)
    await h.table(*THREE, stakes=PRESETS["small"])
    await h.service.deal(h.key, h.members["Ann"])
    prompt = h.prompt()
    await h.service.act(h.key, prompt.member, prompt.hand_id, prompt.turn, "bring_in")
    # A log entry the engine cannot apply (a damaged or foreign log).
    await store.append_action(prompt.hand_id, prompt.turn + 1, "p1 cbr 99999")
    await h.service.close()
    await store.close()

    store2 = await Store.open(db_path)
    try:
        h2 = Harness(store2, db_path)
        await h2.service.start()
        assert h2.service.table(h.key).hand is None
        assert "void" in h2.texts(NoticeKind.VOID)[0]
        hand = await store2.get_hand(prompt.hand_id)
        assert hand.status == "voided"
        seats = await store2.seats(h2.service.table(h.key).table_id)
        assert sorted(s.stack for s in seats) == [500, 500, 500]     # antes and bring-in returned
        assert (await store2.audit()).ok
        await h2.service.deal(h.key, h.members["Ann"])                # the table plays on
        assert h2.service.table(h.key).hand is not None
    finally:
        await store2.close()


# ----------------------------------------------------------------------------- one lock per table
async def test_simultaneous_clicks_and_timer_apply_exactly_one_action(store: Store, db_path: Path) -> None:
    import asyncio

    h = Harness(store, db_path, options=TableOptions(turn_timeout=60, reminder_after=None))
    await h.table(*THREE, stakes=PRESETS["small"])
    await h.service.deal(h.key, h.members["Ann"])
    first = h.prompt()
    before = await stored_actions(h)
    results = await asyncio.gather(
        h.service.act(h.key, first.member, first.hand_id, first.turn, "bring_in"),
        h.service.act(h.key, first.member, first.hand_id, first.turn, "bring_in"),
        return_exceptions=True,
    )
    assert sum(r is None for r in results) == 1
    assert sum(isinstance(r, StaleAction) for r in results) == 1
    assert len(await stored_actions(h)) == len(before) + 1
    # A click racing the timer: whichever takes the lock first acts; the other changes nothing.
    second = h.prompt()
    await h.clock.advance(59)
    results = await asyncio.gather(
        h.service.act(h.key, second.member, second.hand_id, second.turn, "call"),
        h.clock.advance(1),
        return_exceptions=True,
    )
    assert all(r is None or isinstance(r, StaleAction) for r in results)
    assert len(await stored_actions(h)) == len(before) + 2
