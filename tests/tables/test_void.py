"""The dealer voids the hand in progress (a misdeal or dispute ruling; peers.md §4 item 9, SPEC §8).

Every test runs on a real SQLite file; the ``store`` fixture audits the chips after each test (the
ledger sums to the balances, stacks match buy-ins and hand results, unfinished hands hold their
starting stacks)."""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.stakes import PRESETS, TableStakes
from bot.store import Store
from bot.tables.errors import NotDealer, StaleAction, TableError
from bot.tables.fairness import check_openings
from bot.tables.notices import Actor, NoticeKind
from bot.tables.options import TableOptions
from bot.tables.reveal import reveal_of
from tests.tables.helpers import Harness, StackedRandom, stacked_deck, void_agreed

THREE = (("Ann", 500), ("Bea", 500), ("Cid", 500))
# Seats 1-3 are Ann, Bea, Cid; the first button is seat 1 (Ann), so the deal order is Bea, Cid, Ann.
BEA = "Ks Kd Kh 9c 8d 2c 3h"   # door K♥
CID = "Qs Qd 2h Jc 4d 4s 7c"   # door 2♥: the low door card, so Cid brings in
ANN = "As Ac 9h 9d 6h 6c Th"   # door 9♥
GUILD_START = 1000             # every member's first balance in a guild (store default)


def deck(hands: int = 1) -> StackedRandom:
    return StackedRandom(*(stacked_deck([BEA, CID, ANN]) for _ in range(hands)))


async def stacks_and_balances(h: Harness) -> tuple[dict[int, int], dict[int, int], dict[int, int]]:
    """Seat stacks as the store has them, as the service has them, and every member's balance."""
    table = h.service.table(h.key)
    stored = {s.member_id: s.stack for s in await h.store.seats(table.table_id)}
    memory = {s.member: s.stack for s in table.seats.values()}
    balances = {m: await h.store.balance(h.key.guild, m) for m in h.members.values()}
    return stored, memory, balances


async def third_street_and_a_bet(h: Harness) -> None:
    """Cid brings in 10, Ann completes to 20, Bea and Cid call; on fourth street the first to act
    bets 20. The pot is then 3 antes of 5 + 3 x 20 + 20 = 95, all of it from the starting stacks."""
    await h.act("Cid", "bring_in")
    await h.act("Ann", "complete")
    await h.act("Bea", "call")
    await h.act("Cid", "call")
    first = h.prompt()
    await h.service.act(h.key, first.member, first.hand_id, first.turn, "bet", 20)
    live = h.service.table(h.key).hand
    assert live is not None and live.engine.pot_total == 95


def commitment_of(deck_text: str, salt: str) -> str:
    """DESIGN "Fairness": SHA-256 of the deck codes run together, a colon and the salt (an
    independent recomputation, not the service's own verify)."""
    return hashlib.sha256(f"{deck_text}:{salt}".encode("ascii")).hexdigest()


@asynccontextmanager
async def restarted(h: Harness) -> AsyncIterator[Harness]:
    """The process dies (service and store close) and a new service starts on the same file."""
    await h.service.close()
    await h.store.close()
    async with await Store.open(h.path) as store:
        h2 = Harness(store, h.path, rng=deck())
        h2.members = dict(h.members)
        await h2.service.start()
        yield h2
        report = await store.audit()
        assert report.ok, report.all_problems()


# ----------------------------------------------------------------------------- the dealer voids
async def test_dealer_voids_mid_hand_every_chip_goes_back_and_the_button_stays(
    store: Store, db_path: Path
) -> None:
    h = Harness(store, db_path, rng=deck(2))
    await h.table(*THREE, stakes=PRESETS["small"])
    ann, bea = h.members["Ann"], h.members["Bea"]
    before = await stacks_and_balances(h)
    # Nothing was played yet: each stack is the 500 buy-in, each balance 1,000 - 500.
    assert before == ({m: 500 for m in h.members.values()},) * 2 + ({m: 500 for m in h.members.values()},)
    hand_id = await h.service.deal(h.key, ann)
    live = h.service.table(h.key).hand
    assert live is not None and live.names == ("Bea", "Cid", "Ann")
    await third_street_and_a_bet(h)
    stale = h.prompt()
    actions_before = (await store.get_hand(hand_id)).actions

    told = await void_agreed(h, ann, "  two cards   exposed on the deal ")
    assert "Hand #1 is void" in told
    # The stacks and balances are what they were before the hand, to the chip.
    assert await stacks_and_balances(h) == before
    assert h.service.table(h.key).hand is None
    record = await store.get_hand(hand_id)
    assert record.status == "voided" and record.actions == actions_before
    assert record.void_reason is not None and "two cards exposed on the deal" in record.void_reason
    assert "Ann" in record.void_reason
    # The ledger keeps the void, with its reason, for every player and with no chip moved.
    for member in h.members.values():
        voids = [e for e in await store.member_ledger(h.key.guild, member) if e.kind == "void"]
        assert len(voids) == 1 and (voids[0].delta, voids[0].stack_delta) == (0, 0)
        assert "two cards exposed on the deal" in voids[0].reason
    await h.audit_ok()

    # The channel: who voided it and why, and that every chip went back; then the deck reveal,
    # which still matches the commitment announced before the first card.
    void = [n for n in h.rec.public(h.key, NoticeKind.VOID) if n.hand_id == hand_id]
    assert len(void) == 1
    assert "Ann voided it (two cards exposed on the deal)" in void[0].text
    assert "back with its owner" in void[0].text and "before the hand" in void[0].text
    reveal = [n.text for n in h.rec.public(h.key, NoticeKind.REVEAL)]
    assert len(reveal) == 1
    # Only the up cards dealt before the void are opened; the deck order itself is never published.
    assert f"/hand verify {record.hand_no}" in reveal[0] and "".join(record.deck) not in reveal[0]
    assert "wildstud verify" not in reveal[0]     # only whoever runs the bot could run it (issue 17)
    opened = reveal_of(record)
    assert opened.scheme == "per-card"
    assert check_openings(record.commitment, opened.leaves, opened.openings).ok
    # Opened: exactly the up cards the channel was shown (two each on fourth street); no down card.
    channel = "\n".join(n.text for n in h.rec.public(h.key) if n.kind != NoticeKind.REVEAL)
    assert len(opened.openings) == 6 and all(str(o.card) in channel for o in opened.openings)
    downs = {c for seat in range(3) for c in live.engine.down_cards(seat)}
    assert downs and not downs & {o.card for o in opened.openings}
    # The table notice after the void is the between-hands one, with the stacks restored.
    last_table = h.rec.public(h.key, NoticeKind.TABLE)[-1]
    assert last_table.hand_id is None and "Between hands (next: hand #2)" in last_table.text

    # The voided hand's prompt is refused and changes nothing.
    with pytest.raises(StaleAction):
        await h.service.act(h.key, stale.member, stale.hand_id, stale.turn, "call")
    with pytest.raises(TableError, match="nothing to void"):
        await void_agreed(h, ann, "again")        # a double click
    assert await stacks_and_balances(h) == before

    # A misdeal is re-dealt with the same button: Ann (seat 1) deals hand #2 as she dealt #1.
    await h.service.deal(h.key, bea, dealer_rights=True)
    hand2 = h.service.table(h.key).hand
    assert hand2 is not None and hand2.hand_no == 2 and hand2.names == ("Bea", "Cid", "Ann")
    await h.passive()
    # After a hand played out, the button moves one seat as usual (SPEC §2): Bea deals hand #3.
    await h.service.deal(h.key, ann)
    hand3 = h.service.table(h.key).hand
    assert hand3 is not None and hand3.names[-1] == "Bea"
    await h.passive()


async def test_only_the_dealer_may_void_and_a_refusal_changes_nothing(store: Store, db_path: Path) -> None:
    h = Harness(store, db_path, rng=deck())
    await h.table(*THREE, stakes=PRESETS["small"])
    ann, bea = h.members["Ann"], h.members["Bea"]
    hand_id = await h.service.deal(h.key, ann)
    await h.act("Cid", "bring_in")
    prompt = h.prompt()
    pot = h.service.table(h.key).hand.engine.pot_total  # type: ignore[union-attr]
    actions = (await store.get_hand(hand_id)).actions
    notices = len(h.rec.of(h.key))
    for member in (bea, 999):            # a player at the table; a stranger
        with pytest.raises(NotDealer):
            await void_agreed(h, member, "I don't like my cards")
    with pytest.raises(TableError, match="200 characters"):
        await void_agreed(h, ann, "x" * 201)
    live = h.service.table(h.key).hand
    assert live is not None and live.hand_id == hand_id and live.engine.pot_total == pot
    assert (await store.get_hand(hand_id)).status == "in_progress"
    assert (await store.get_hand(hand_id)).actions == actions
    assert len(h.rec.of(h.key)) == notices and h.prompt() == prompt
    # The hand plays on from the same prompt.
    await h.service.act(h.key, prompt.member, prompt.hand_id, prompt.turn, "call")
    # Dealer rights granted by the front end (a dealer role, Manage Server) may void; a blank
    # reason becomes the default one. Manage Server voids without asking the others.
    asked = len(h.rec.void_requests(h.key))
    await h.service.void_hand(h.key, Actor(bea, manage_server=True), "   ", dealer_rights=True,
                              name="Bea the floor")
    assert len(h.rec.void_requests(h.key)) == asked
    assert (await store.get_hand(hand_id)).void_reason == "voided by the dealer (voided by Bea the floor)"
    assert "Bea the floor voided it (voided by the dealer)" in h.texts(NoticeKind.VOID)[-1]


async def test_no_hand_in_progress_is_refused(store: Store, db_path: Path) -> None:
    h = Harness(store, db_path)
    await h.table(*THREE, stakes=PRESETS["small"])
    ann = h.members["Ann"]
    with pytest.raises(TableError, match="No hand is in progress"):
        await void_agreed(h, ann, "misdeal")
    await h.service.deal(h.key, ann)
    await h.passive()
    with pytest.raises(TableError, match="No hand is in progress"):    # a finished hand stays finished
        await void_agreed(h, ann, "misdeal")
    hand = (await store.table_hands(h.service.table(h.key).table_id, limit=1))[0]
    assert hand.status == "finished"
    assert not h.texts(NoticeKind.VOID)


async def test_close_mid_hand_points_at_hand_void_then_closes_after_it(store: Store, db_path: Path) -> None:
    h = Harness(store, db_path, rng=deck())
    await h.table(*THREE, stakes=PRESETS["small"])
    ann = h.members["Ann"]
    await h.service.deal(h.key, ann)
    await h.act("Cid", "bring_in")
    with pytest.raises(TableError, match="/hand void"):
        await h.service.close_table(h.key, ann)
    await void_agreed(h, ann, "the game is over for tonight")
    returned = await h.service.close_table(h.key, ann)
    # Each player gets back the 500 bought in: the void returned the antes and the bring-in.
    assert returned == {m: 500 for m in h.members.values()}
    for member in h.members.values():
        assert await store.balance(h.key.guild, member) == GUILD_START


async def test_a_seat_that_left_during_the_voided_hand_is_cashed_out_in_full(
    store: Store, db_path: Path
) -> None:
    h = Harness(store, db_path, rng=deck())
    await h.table(*THREE, stakes=PRESETS["small"])
    ann, bea = h.members["Ann"], h.members["Bea"]
    await h.service.deal(h.key, ann)
    await h.act("Cid", "bring_in")
    assert "fold at your turn" in await h.service.leave(h.key, bea)    # Bea acts after Ann
    await void_agreed(h, ann, "misdeal")
    assert h.service.table(h.key).seat_of(bea) is None
    # Bea's ante came back with the void, so she leaves with all 500 she bought in.
    assert await store.balance(h.key.guild, bea) == GUILD_START
    assert any("Bea leaves the table with 500 chips" in t for t in h.texts(NoticeKind.SEATING))


async def test_void_stops_the_turn_timers(store: Store, db_path: Path) -> None:
    h = Harness(store, db_path, rng=deck(), options=TableOptions(turn_timeout=30, reminder_after=15))
    await h.table(*THREE, stakes=PRESETS["small"])
    ann = h.members["Ann"]
    await h.service.deal(h.key, ann)
    assert h.clock.pending > 0
    await void_agreed(h, ann, "misdeal")
    assert h.clock.pending == 0
    told = len(h.rec.of(h.key))
    await h.clock.advance(120)
    # Nobody was reminded, timed out or marked away after the void: nothing more was said.
    assert len(h.rec.of(h.key)) == told
    assert all(s.status == "active" for s in h.service.table(h.key).seats.values())


# ----------------------------------------------------------------------------- restarts
async def test_void_after_a_restart_mid_hand(db_path: Path) -> None:
    store = await Store.open(db_path)
    h = Harness(store, db_path, rng=deck())
    await h.table(*THREE, stakes=PRESETS["small"])
    ann = h.members["Ann"]
    before = await stacks_and_balances(h)
    hand_id = await h.service.deal(h.key, ann)
    await third_street_and_a_bet(h)
    stale = h.prompt()
    async with restarted(h) as h2:
        assert h2.service.table(h.key).hand is not None            # resumed
        await void_agreed(h2, ann, "dispute over the fourth-street bet")
        assert await stacks_and_balances(h2) == before
        assert (await h2.store.get_hand(hand_id)).status == "voided"
        with pytest.raises(StaleAction):                            # a button from before the restart
            await h2.service.act(h2.key, stale.member, stale.hand_id, stale.turn, "call")
        await h2.service.deal(h2.key, ann)
        hand2 = h2.service.table(h2.key).hand
        assert hand2 is not None and hand2.names == ("Bea", "Cid", "Ann")   # same button
        await h2.passive()


async def test_a_restart_between_the_void_and_the_next_deal_keeps_the_button(db_path: Path) -> None:
    store = await Store.open(db_path)
    h = Harness(store, db_path, rng=deck())
    await h.table(*THREE, stakes=PRESETS["small"])
    ann = h.members["Ann"]
    await h.service.deal(h.key, ann)
    await h.passive()                    # hand #1, Ann's button, played out
    await h.service.deal(h.key, ann)     # hand #2: the button moves to Bea (seat 2)
    live = h.service.table(h.key).hand
    assert live is not None and live.names[-1] == "Bea"
    await h.act(live.names[live.engine.actor or 0], "bring_in")
    await void_agreed(h, ann, "misdeal")
    async with restarted(h) as h2:
        view = h2.service.status_text(h2.key)
        # The between-hands table marks the next dealer with D: Bea again.
        assert re.search(r"D Bea\b", view), view
        await h2.service.deal(h2.key, ann)
        hand3 = h2.service.table(h2.key).hand
        assert hand3 is not None and hand3.hand_no == 3 and hand3.names[-1] == "Bea"
        await h2.passive()


# ----------------------------------------------------------------------------- any moment of any hand
SHORT_FL = TableStakes.fixed_limit(
    ante=5, bring_in=10, small_bet=20, big_bet=40, min_buy_in=5, max_buy_in=2000
)
SHORT_NL = TableStakes.no_limit(ante=5, bring_in=10, min_bet=20, min_buy_in=5, max_buy_in=2000)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 16),
    stakes=st.sampled_from([SHORT_FL, SHORT_NL]),
    buy_ins=st.lists(st.integers(5, 900), min_size=2, max_size=5),
)
async def test_void_at_any_point_restores_every_stack(
    seed: int, steps: int, stakes: TableStakes, buy_ins: list[int]
) -> None:
    # Whatever was bet before the void (random legal actions and amounts: folds, raises, all-ins
    # of short stacks, side pots), every seat ends with the stack it had before the hand, every
    # balance is unchanged and the audit is green.
    async with await Store.open(":memory:") as store:
        h = Harness(store, Path(":memory:"), rng=random.Random(seed))
        await h.table(*((f"P{i}", b) for i, b in enumerate(buy_ins)), stakes=stakes)
        dealer = h.members["P0"]
        before = await stacks_and_balances(h)
        pick = random.Random(seed + 1)
        hand_id = await h.service.deal(h.key, dealer)
        for _ in range(steps):
            if h.service.table(h.key).hand is None:
                break
            prompt = h.prompt()
            # Mostly stay in without shoving, so that most examples still have a hand to void.
            stay = [o for o in prompt.options if o.action not in ("fold", "all_in")]
            option = pick.choice(stay if stay and pick.random() < 0.85 else prompt.options)
            amount = option.amount
            if option.needs_amount:
                assert option.min_to is not None and option.max_to is not None
                amount = pick.randint(option.min_to, option.max_to)
            await h.service.act(h.key, prompt.member, prompt.hand_id, prompt.turn, option.action, amount)
        if h.service.table(h.key).hand is None:
            return                        # the hand ended on its own before the void
        await void_agreed(h, dealer, "misdeal")
        assert await stacks_and_balances(h) == before
        assert (await store.get_hand(hand_id)).status == "voided"
        assert [n.hand_id for n in h.rec.public(h.key, NoticeKind.VOID)] == [hand_id]
        report = await store.audit()
        assert report.ok, report.all_problems()


async def test_a_void_request_from_before_a_restart_cannot_answer_one_after_it(db_path: Path) -> None:
    # Request numbers lived in memory and started again at 1 after a restart, so the Agree button of
    # a request made before it answered a new request made after it in the same hand.
    store = await Store.open(db_path)
    h = Harness(store, db_path, rng=deck())
    await h.table(*THREE, stakes=PRESETS["small"])
    ann, bea, cid = (h.members[n] for n in ("Ann", "Bea", "Cid"))
    hand_id = await h.service.deal(h.key, ann)
    await h.service.void_hand(h.key, ann, "misdeal")
    old = h.rec.void_requests(h.key)[-1]
    async with restarted(h) as h2:
        await h2.service.void_hand(h2.key, ann, "misdeal")
        new = h2.rec.void_requests(h2.key)[-1]
        assert new.hand_id == old.hand_id and new.request_id != old.request_id
        for member in (bea, cid):                                   # buttons from before the restart
            with pytest.raises(StaleAction):
                await h2.service.answer_void(h2.key, member, old.request_id, True)
        assert (await h2.store.get_hand(hand_id)).status == "in_progress"
        assert h2.service.void_request(h2.key) is not None          # the new request still stands
        await h2.passive()
