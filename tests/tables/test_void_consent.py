"""The dealer's void needs consent once it could serve the one asking (issue 18): a dealer in the
hand (with chips in it) or anyone after the showdown has begun asks every other player still in
the hand; Manage Server voids at once; every void says who asked, why and who agreed."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.engine.betting.stakes import TableStakes
from bot.store import Store
from bot.tables.errors import StaleAction, TableError
from bot.tables.notices import Actor, NoticeKind
from tests.engine.helpers import command
from tests.tables.helpers import Harness

THREE = (("Ann", 500), ("Bea", 500), ("Cid", 500))


async def test_a_dealer_in_the_hand_needs_everyones_consent(store: Store, db_path: Path) -> None:
    h = Harness(store, db_path)
    await h.table(*THREE)                     # Ann (the first seat) is the dealer, and plays
    ann, bea, cid = (h.members[n] for n in ("Ann", "Bea", "Cid"))
    hand_id = await h.service.deal(h.key, ann)
    told = await h.service.void_hand(h.key, ann, "misdeal")
    assert "not void yet" in told and "Ann is dealt in" in told and "Bea and Cid" in told
    assert (await store.get_hand(hand_id)).status == "in_progress"
    [request] = h.rec.void_requests(h.key)
    assert {m for m, _ in request.needed} == {bea, cid} and request.asker == "Ann"
    assert any("Ann asks to void hand #1 (misdeal)" in t for t in h.texts(NoticeKind.INFO))
    # On Discord the floor may overrule the players, and the question says who (the terminal, with
    # nobody above the players, says nothing of it: tests/console/test_void.py).
    assert any(t.endswith("needs the agreement of Bea and Cid (or someone with Manage Server).")
               for t in h.texts(NoticeKind.INFO))
    assert told.endswith("who are asked now (or someone with Manage Server may void it).")
    with pytest.raises(TableError, match="Only Bea and Cid"):
        await h.service.answer_void(h.key, ann, request.request_id, True)     # not her own consent
    # One refusal ends the request: the hand goes on.
    assert "goes on" in await h.service.answer_void(h.key, cid, request.request_id, False)
    with pytest.raises(StaleAction):
        await h.service.answer_void(h.key, bea, request.request_id, True)
    assert (await store.get_hand(hand_id)).status == "in_progress"
    # Asked again, both agree: void, announced with who asked, why and who agreed.
    await h.service.void_hand(h.key, ann, "misdeal")
    request = h.rec.void_requests(h.key)[-1]
    assert "waiting for Cid" in await h.service.answer_void(h.key, bea, request.request_id, True)
    assert "is void" in await h.service.answer_void(h.key, cid, request.request_id, True)
    hand = await store.get_hand(hand_id)
    assert hand.status == "voided"
    assert hand.void_reason == "misdeal (voided by Ann, with the agreement of Bea and Cid)"
    assert "Ann voided it (misdeal), with the agreement of Bea and Cid" in h.texts(NoticeKind.VOID)[-1]
    await h.audit_ok()


async def test_manage_server_voids_at_once_and_a_request_lapses_with_the_hand(
        store: Store, db_path: Path) -> None:
    h = Harness(store, db_path)
    await h.table(*THREE)
    ann = h.members["Ann"]
    await h.service.deal(h.key, ann)
    await h.service.void_hand(h.key, ann, "misdeal")
    request = h.rec.void_requests(h.key)[-1]
    await h.service.void_hand(h.key, Actor(ann, "Ann", manage_server=True), "the floor's ruling")
    assert "Ann voided it (the floor's ruling)" in h.texts(NoticeKind.VOID)[-1]
    with pytest.raises(StaleAction):       # the request ended with the hand
        await h.service.answer_void(h.key, h.members["Bea"], request.request_id, True)
    await h.audit_ok()


async def test_after_the_showdown_has_begun_even_a_dealer_out_of_the_hand_needs_consent(
        tmp_path: Path) -> None:
    # A dealer who does not play (the table's creator, not seated): before the showdown they void
    # at once; once a hand has been shown at the showdown, the players still in it must agree.
    for seed in range(40):
        async with await Store.open(tmp_path / f"s{seed}.sqlite3") as store:
            h = Harness(store, tmp_path / f"s{seed}.sqlite3", rng=random.Random(seed))
            await h.table(("Ann", 500), ("Bea", 500), dealer=999)
            hand_id = await h.service.deal(h.key, 999)
            table = h.service.table(h.key)
            while table.hand is not None:
                prompt = h.prompt()
                names = [o.action for o in prompt.options]
                if "muck" in names:
                    break                   # a beaten hand is asked to show or muck: mid-showdown
                action = next(a for a in ("bring_in", "check", "call") if a in names)
                await h.service.act(h.key, prompt.member, prompt.hand_id, prompt.turn, command(action))
            if table.hand is None:
                continue
            told = await h.service.void_hand(h.key, 999, "dispute")
            assert "the showdown has begun" in told
            assert "Ann and Bea" in told or "Bea and Ann" in told
            assert (await store.get_hand(hand_id)).status == "in_progress"
            return
    raise AssertionError("no seed reached a show-or-muck question")


async def test_a_dealer_out_of_the_hand_voids_at_once_before_the_showdown(
        store: Store, db_path: Path) -> None:
    h = Harness(store, db_path)
    await h.table(("Ann", 500), ("Bea", 500), dealer=999)
    hand_id = await h.service.deal(h.key, 999)
    assert "is void" in await h.service.void_hand(h.key, 999, "misdeal")
    assert (await store.get_hand(hand_id)).status == "voided"
    assert h.rec.void_requests(h.key) == []


async def test_an_agreement_given_before_the_showdown_does_not_count_after_it(tmp_path: Path) -> None:
    # Bea agrees on third street; once the showdown has begun (the winner known), Cid's click on
    # the same request must not complete it: the request lapsed, and the hand is not void.
    for seed in range(60):
        path = tmp_path / f"s{seed}.sqlite3"
        async with await Store.open(path) as store:
            h = Harness(store, path, rng=random.Random(seed))
            await h.table(*THREE)
            ann, bea, cid = (h.members[n] for n in ("Ann", "Bea", "Cid"))
            hand_id = await h.service.deal(h.key, ann)
            await h.service.void_hand(h.key, ann, "misdeal")
            request = h.rec.void_requests(h.key)[-1]
            assert "waiting for Cid" in await h.service.answer_void(h.key, bea, request.request_id, True)
            table = h.service.table(h.key)
            while table.hand is not None:
                prompt = h.prompt()
                names = [o.action for o in prompt.options]
                if "muck" in names:
                    break
                action = next(a for a in ("bring_in", "check", "call") if a in names)
                await h.service.act(h.key, prompt.member, prompt.hand_id, prompt.turn, command(action))
            if table.hand is None:
                continue
            # The request lapsed as the showdown began, and the channel was told.
            assert h.service.void_request(h.key) is None
            assert any("lapsed: the reason for consent is now that the showdown has begun" in t
                       for t in h.texts(NoticeKind.INFO))
            with pytest.raises(StaleAction):
                await h.service.answer_void(h.key, cid, request.request_id, True)
            assert (await store.get_hand(hand_id)).status == "in_progress"
            assert h.service.void_request(h.key) is None
            # Asked again, the new request says why: the showdown has begun.
            assert "the showdown has begun" in await h.service.void_hand(h.key, ann, "dispute")
            return
    raise AssertionError("no seed reached a show-or-muck question")


async def test_a_dealer_dealt_in_needs_consent_with_no_chips_in(tmp_path: Path) -> None:
    # Ante 0: a dealer who plays has no chip in the hand until they act, yet has seen their own
    # down cards; voiding alone would re-deal a bad start and throw away everyone else's.
    stakes = TableStakes.fixed_limit(ante=0, bring_in=10, small_bet=20, big_bet=40)
    for seed in range(20):
        path = tmp_path / f"s{seed}.sqlite3"
        async with await Store.open(path) as store:
            h = Harness(store, path, rng=random.Random(seed))
            await h.table(*THREE, stakes=stakes)
            ann = h.members["Ann"]
            hand_id = await h.service.deal(h.key, ann)
            live = h.service.table(h.key).hand
            assert live is not None
            seat = live.seat_of(ann)
            assert seat is not None
            if live.engine.stack(seat) < live.engine.starting_stacks[seat]:
                continue                                # Ann brought it in: chips in, another seed
            told = await h.service.void_hand(h.key, ann, "misdeal")
            assert "not void yet" in told and "Ann is dealt in" in told
            assert (await store.get_hand(hand_id)).status == "in_progress"
            return
    raise AssertionError("no seed left Ann without chips in the hand")
