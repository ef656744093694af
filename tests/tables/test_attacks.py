"""Attacks on the table service by a tester who did not write it: seats changing between and during
hands, stale and forged actions, timers racing clicks, queued settings, restarts on the same file,
broken front ends, and secrecy of down cards (issue 5; SPEC §2, §7, §8; DESIGN "Fairness and
secrecy"; peers.md §3 #20, #25, #29, #30).

Every test runs on a real SQLite file; the ``store`` fixture audits the chips after each test
(the ledger sums to the balances, stacks match buy-ins and results)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.engine.betting.stakes import PRESETS, TableStakes
from bot.engine.errors import IllegalAction
from bot.render.cards import HIDDEN
from bot.render.table import TableView
from bot.store import Store
from bot.tables.errors import StaleAction, TableError
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
from bot.tables.recording import RecordingPresenter
from bot.tables.service import TableService
from tests.tables.helpers import NO_TIMERS, Harness, StackedRandom, stacked_deck

NL = TableStakes.no_limit(ante=5, bring_in=10, min_bet=20, min_buy_in=5, max_buy_in=2000)
THREE = (("Ann", 500), ("Bea", 500), ("Cid", 500))
# Seats 1-3 are Ann, Bea, Cid; the first button is seat 1, so the deal order is Bea, Cid, Ann.
BEA = "Ks Kd Kh 9c 8d 2c 3h"   # door K♥
CID = "Qs Qd 2h Jc 4d 4s 7c"   # door 2♥: the low door card, so Cid brings in
ANN = "As Ac 9h 9d 6h 6c Th"   # door 9♥


def deck() -> StackedRandom:
    return StackedRandom(stacked_deck([BEA, CID, ANN]))


@asynccontextmanager
async def restarted(h: Harness, options: TableOptions | None = None) -> AsyncIterator[Harness]:
    """The process dies (the service and its store close) and a new service starts on the same file.
    Yields the new harness; its store is closed (and audited) on the way out, pass or fail."""
    await h.service.close()
    await h.store.close()
    async with await Store.open(h.path) as store:
        h2 = Harness(store, h.path, options=options or NO_TIMERS)
        h2.members = dict(h.members)
        await h2.service.start()
        yield h2
        report = await store.audit()
        assert report.ok, report.all_problems()


async def stacks(store: Store, h: Harness) -> dict[str, int]:
    seats = await store.seats(h.service.table(h.key).table_id)
    by_member = {s.member_id: s.stack for s in seats}
    return {name: by_member[m] for name, m in h.members.items() if m in by_member}


# ----------------------------------------------------------------------------- leaving and restarts
async def test_a_player_who_left_mid_hand_is_still_leaving_after_a_restart(db_path: Path) -> None:
    # SPEC §7: "a player who leaves mid-hand is folded at their turn". The leave was accepted and
    # confirmed to the player; a restart of the bot must not quietly cancel it, or the player is
    # prompted (and, with a timer, charged time and marked away) in a hand they left, dealt into
    # the next one, and their chips stay on the table instead of going back to their balance.
    async with await Store.open(db_path) as store:
        h = Harness(store, db_path, rng=deck())
        await h.table(*THREE, stakes=PRESETS["small"])
        bea = h.members["Bea"]
        await h.service.deal(h.key, h.members["Ann"])
        await h.act("Cid", "bring_in")                  # deal order Bea, Cid, Ann: Ann is next
        assert "fold at your turn" in await h.service.leave(h.key, bea)
        async with restarted(h) as h2:
            await h2.act("Ann", "call")
            # Bea's turn: she is folded for leaving, never asked.
            assert "Bea folds" in h2.texts(NoticeKind.ACTION)
            assert all(p.member != bea for p in h2.rec.prompts(h.key))
            await h2.passive()
            assert h2.service.table(h.key).seat_of(bea) is None
            # Bea paid her ante only: 1,000 - 500 buy-in + 495 cashed out.
            assert await h2.store.balance(h.key.guild, bea) == 995


async def test_a_leave_cut_short_by_a_crash_after_the_hand_is_settled_completes_on_restart(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The process dies after the hand is settled but before the leaving player is cashed out. On
    # restart there is no hand to finish, so the cash-out must happen then; otherwise the seat is
    # "leaving" for ever: never dealt in, never paid out.
    async with await Store.open(db_path) as store:
        h = Harness(store, db_path, rng=deck())
        await h.table(*THREE, stakes=PRESETS["small"])
        bea = h.members["Bea"]
        await h.service.deal(h.key, h.members["Ann"])
        await h.act("Cid", "bring_in")
        await h.service.leave(h.key, bea)

        async def die(*args: object) -> str:
            raise RuntimeError("the process dies here")

        monkeypatch.setattr(h.service.seating, "cash_out", die)
        await h.act("Ann", "call")                      # Bea folds at her turn
        with pytest.raises(RuntimeError, match="dies"):
            await h.passive()
        assert (await store.get_hand(h.prompt().hand_id)).status == "finished"
        async with restarted(h) as h2:
            table = h2.service.table(h.key)
            assert table.seat_of(bea) is None
            assert await h2.store.balance(h.key.guild, bea) == 995
            assert "Bea leaves the table with 495 chips." in h2.texts(NoticeKind.SEATING)
            await h2.service.deal(h.key, h.members["Ann"])
            hand = table.hand
            assert hand is not None and set(hand.names) == {"Ann", "Cid"}
            await h2.passive()


async def test_a_hand_finished_just_before_a_restart_still_tells_who_won(db_path: Path) -> None:
    # The service stores an action before it tells anyone (DESIGN "One action, end to end"). If the
    # process dies after storing the action that ends the hand, the restart settles the hand; the
    # channel must then still hear how it ended (who won what), or players see chips move with no
    # explanation.
    async with await Store.open(db_path) as store:
        h = Harness(store, db_path, rng=deck())
        await h.table(*THREE, stakes=PRESETS["small"])
        await h.service.deal(h.key, h.members["Ann"])
        await h.act("Cid", "bring_in")
        await h.act("Ann", "fold")
        last = h.prompt()
        assert last.name == "Bea"
        # Bea's fold ends the hand (only Cid is left): stored, then the process dies before telling.
        await store.append_action(last.hand_id, last.turn, "p1 f")
        async with restarted(h) as h2:
            assert h2.service.table(h.key).hand is None
            told = "\n".join(h2.texts())
            assert "Bea folds" in told
            # Cid's bring-in of 10 is uncalled and comes back; he wins the antes (3 x 5 = 15).
            assert "Cid wins the pot of 15; everyone else folded" in told
            assert any("Hand #1 deck: the" in t for t in h2.texts(NoticeKind.REVEAL))
            assert await stacks(h2.store, h2) == {"Ann": 495, "Bea": 495, "Cid": 510}


async def test_a_showdown_finished_just_before_a_restart_names_the_hands(db_path: Path) -> None:
    # As above, with the hand ending at the showdown: the showdown summary must name both hands
    # and the winner (peers.md §3 #12: a showdown post names the hands).
    async with await Store.open(db_path) as store:
        h = Harness(store, db_path, rng=deck())
        await h.table(("Bea", 500), ("Cid", 500), stakes=PRESETS["small"])
        await h.service.deal(h.key, h.members["Bea"])
        table = h.service.table(h.key)
        seventh = 0
        while True:
            prompt = h.prompt()
            live = table.hand
            assert live is not None
            names = [o.action for o in prompt.options]
            action = "bring_in" if "bring_in" in names else ("check" if "check" in names else "call")
            if live.engine.street == 7:
                seventh += 1
                if seventh == 2:   # the second check on seventh street ends the hand: store it only
                    seat = live.seat_of(prompt.member)
                    assert seat is not None and action == "check"
                    await store.append_action(prompt.hand_id, prompt.turn, f"p{seat + 1} cc")
                    break
            await h.service.act(h.key, prompt.member, prompt.hand_id, prompt.turn, action)
        async with restarted(h) as h2:
            assert h2.service.table(h.key).hand is None
            showdowns = h2.rec.showdowns(h.key)
            assert len(showdowns) == 1
            text = showdowns[0].text
            assert "Bea shows" in text and "Cid shows" in text and " wins the pot of " in text
            assert {name for name, _ in showdowns[0].shown} == {"Bea", "Cid"}


async def test_the_button_moves_on_after_a_restart_between_hands(db_path: Path) -> None:
    # SPEC §2: the deal rotates one occupied seat per hand. A restart between hands must not send
    # the button back to seat 1 (which would let the same players act first again).
    async with await Store.open(db_path) as store:
        h = Harness(store, db_path)
        await h.table(*THREE, stakes=PRESETS["small"])
        buttons: list[str] = []
        for _ in range(2):
            await h.service.deal(h.key, h.members["Ann"])
            hand = h.service.table(h.key).hand
            assert hand is not None
            buttons.append(hand.names[-1])
            await h.passive()
        async with restarted(h) as h2:
            await h2.service.deal(h.key, h.members["Ann"])
            hand = h2.service.table(h.key).hand
            assert hand is not None
            buttons.append(hand.names[-1])
            assert hand.hand_no == 3
            assert buttons == ["Ann", "Bea", "Cid"]
            await h2.passive()


async def test_a_restart_re_arms_the_timer_and_the_old_button_still_works(db_path: Path) -> None:
    # DESIGN "Persistence and recovery": buttons posted before a restart still work (same hand and
    # turn), stale ones are refused, and the timer is re-armed for the player to act.
    options = TableOptions(turn_timeout=60, reminder_after=None)
    async with await Store.open(db_path) as store:
        h = Harness(store, db_path, rng=deck(), options=options)
        await h.table(*THREE, stakes=PRESETS["small"])
        await h.service.deal(h.key, h.members["Ann"])
        stale = h.prompt()
        await h.act("Cid", "bring_in")
        button = h.prompt()                              # Ann's prompt, posted before the restart
        async with restarted(h, options) as h2:
            with pytest.raises(StaleAction):
                await h2.service.act(h.key, stale.member, stale.hand_id, stale.turn, "bring_in")
            assert h2.prompt().deadline == 60            # the new clock starts at 0: a full 60 s
            await h2.service.act(h.key, button.member, button.hand_id, button.turn, "call")
            assert h2.texts(NoticeKind.ACTION)[-1] == "Ann calls 10"
            await h2.clock.advance(60)                   # Bea cannot check, so she folds
            assert h2.texts(NoticeKind.ACTION)[-1] == "Bea folds (out of time)"
            await h2.service.back(h.key, h.members["Bea"])
            await h2.passive()


# ----------------------------------------------------------------------------- seats during a hand
async def test_leaving_when_the_bring_in_is_owed_posts_it_then_folds_at_the_next_turn(
    store: Store, db_path: Path
) -> None:
    # A leaving player is folded at their turn, but the bring-in is forced (SPEC §7: "a pending
    # bring-in is posted"), so it is posted first; their next turn folds them. Chips in stay in.
    h = Harness(store, db_path, rng=deck())
    await h.table(*THREE, stakes=PRESETS["small"])
    cid = h.members["Cid"]
    await h.service.deal(h.key, h.members["Ann"])
    assert h.prompt().name == "Cid"
    await h.service.leave(h.key, cid)
    actions = h.texts(NoticeKind.ACTION)
    assert actions[-1].startswith("Cid brings in for 10")
    await h.act("Ann", "complete", 20)
    await h.act("Bea", "call")
    assert h.texts(NoticeKind.ACTION)[-1] == "Cid folds"
    await h.passive()
    # Cid lost his ante and bring-in: 1,000 - 15.
    assert h.service.table(h.key).seat_of(cid) is None
    assert await store.balance(h.key.guild, cid) == 985


async def test_everyone_but_one_leaving_mid_hand_ends_it_and_cashes_everyone_out(
    store: Store, db_path: Path
) -> None:
    h = Harness(store, db_path, rng=deck())
    await h.table(*THREE, stakes=PRESETS["small"])
    await h.service.deal(h.key, h.members["Ann"])
    await h.act("Cid", "bring_in")
    await h.service.leave(h.key, h.members["Bea"])       # not her turn: she folds when it comes
    await h.service.leave(h.key, h.members["Ann"])       # Ann's turn: folds now, then Bea folds
    table = h.service.table(h.key)
    assert table.hand is None
    assert [s.name for s in table.seats.values()] == ["Cid"]
    # Cid takes the three antes; his bring-in comes back. Ann and Bea lose their antes.
    assert await store.balance(h.key.guild, h.members["Ann"]) == 995
    assert await store.balance(h.key.guild, h.members["Bea"]) == 995
    assert await stacks(store, h) == {"Cid": 510}
    with pytest.raises(TableError, match="two players"):
        await h.service.deal(h.key, h.members["Ann"])


async def test_sitting_out_mid_hand_plays_this_hand_and_skips_the_next(store: Store, db_path: Path) -> None:
    # The sit-out command says "from the next hand"; the hand in progress is played out.
    h = Harness(store, db_path, rng=deck())
    await h.table(*THREE, stakes=PRESETS["small"])
    ann = h.members["Ann"]
    await h.service.deal(h.key, ann)
    await h.service.sit_out(h.key, h.members["Bea"])
    await h.act("Cid", "bring_in")
    await h.act("Ann", "call")
    assert h.prompt().name == "Bea"                       # still asked in this hand
    await h.passive()
    await h.service.deal(h.key, ann)
    hand = h.service.table(h.key).hand
    assert hand is not None and "Bea" not in hand.names
    await h.passive()
    await h.service.back(h.key, h.members["Bea"])
    await h.service.deal(h.key, ann)
    hand = h.service.table(h.key).hand
    assert hand is not None and "Bea" in hand.names
    await h.passive()


async def test_joining_mid_hand_never_changes_whose_turn_it_is(store: Store, db_path: Path) -> None:
    # peers.md §3 #29: a join during a hand "stole" another player's choice in another bot.
    h = Harness(store, db_path, rng=deck())
    await h.table(*THREE, stakes=PRESETS["small"])
    await h.service.deal(h.key, h.members["Ann"])
    before = h.prompt()
    await h.service.join(h.key, 4242, "Dot", buy_in=400, seat_no=4)
    assert h.prompt() == before
    with pytest.raises(TableError, match="not in this hand"):
        await h.service.act(h.key, 4242, before.hand_id, before.turn, "call")
    await h.passive()
    await h.service.deal(h.key, h.members["Ann"])
    hand = h.service.table(h.key).hand
    assert hand is not None and "Dot" in hand.names
    await h.passive()


async def test_a_timer_racing_a_leave_folds_the_seat_once(store: Store, db_path: Path) -> None:
    import asyncio

    h = Harness(store, db_path, rng=deck(), options=TableOptions(turn_timeout=60, reminder_after=None))
    await h.table(*THREE, stakes=PRESETS["small"])
    await h.service.deal(h.key, h.members["Ann"])
    await h.act("Cid", "bring_in")
    await h.clock.advance(59)
    await asyncio.gather(h.service.leave(h.key, h.members["Ann"]), h.clock.advance(1))
    folds = [t for t in h.texts(NoticeKind.ACTION) if t.startswith("Ann")]
    assert len(folds) == 1 and folds[0].startswith("Ann folds")
    await h.service.back(h.key, h.members["Bea"])
    await h.passive()
    assert h.service.table(h.key).seat_of(h.members["Ann"]) is None


# ----------------------------------------------------------------------------- forged and stale actions
@pytest.mark.parametrize("action", ["timeout", "ante", "p1 raise 40", "show\nraise", ""])
async def test_a_player_cannot_send_what_is_not_a_players_action(
    store: Store, db_path: Path, action: str
) -> None:
    # "timeout" is what the table does when time runs out (it logs "(out of time)" and may post the
    # bring-in for the player): a front end must not be able to claim it for a player. Nothing a
    # player sends outside the listed actions may reach the log.
    h = Harness(store, db_path, rng=deck())
    await h.table(*THREE, stakes=PRESETS["small"])
    await h.service.deal(h.key, h.members["Ann"])
    prompt = h.prompt()
    with pytest.raises(IllegalAction):
        await h.service.act(h.key, prompt.member, prompt.hand_id, prompt.turn, action)
    assert h.prompt() == prompt
    hand = (await store.table_hands(h.service.table(h.key).table_id, limit=1))[0]
    assert len(hand.actions) == 1                          # only the deal order
    await h.passive()


async def test_turn_numbers_from_the_future_or_nonsense_are_refused(store: Store, db_path: Path) -> None:
    h = Harness(store, db_path, rng=deck())
    await h.table(*THREE, stakes=PRESETS["small"])
    await h.service.deal(h.key, h.members["Ann"])
    prompt = h.prompt()
    for turn in (prompt.turn + 1, 0, -1, 10**12):
        with pytest.raises(StaleAction):
            await h.service.act(h.key, prompt.member, prompt.hand_id, turn, "bring_in")
    with pytest.raises(TableError):
        await h.service.act(TableKey(9, 9), prompt.member, prompt.hand_id, prompt.turn, "bring_in")
    for amount in (-20, 0, True):
        with pytest.raises(IllegalAction):
            await h.service.act(h.key, prompt.member, prompt.hand_id, prompt.turn, "complete", amount)
    assert h.prompt() == prompt
    await h.passive()


# ----------------------------------------------------------------------------- settings (SPEC §8)
async def test_stakes_queued_during_a_hand_apply_from_the_next_deal_only(store: Store, db_path: Path) -> None:
    h = Harness(store, db_path, rng=deck())
    await h.table(*THREE, stakes=PRESETS["small"])
    ann = h.members["Ann"]
    await h.service.deal(h.key, ann)
    reply = await h.service.set_stakes(h.key, ann, PRESETS["micro"])
    assert "next deal" in reply
    live = h.service.table(h.key).hand
    assert live is not None and live.stakes == PRESETS["small"]
    await h.act("Cid", "bring_in")
    assert h.texts(NoticeKind.ACTION)[-1] == "Cid brings in for 10"     # still the small stakes
    assert h.texts(NoticeKind.SETTINGS) == []
    await h.passive()
    start = len(h.rec.of(h.key))
    await h.service.deal(h.key, ann)
    kinds = [n.kind for n in h.rec.of(h.key)[start:] if isinstance(n, PublicNotice)]
    assert kinds.index(NoticeKind.SETTINGS) < kinds.index(NoticeKind.HAND_START)
    live = h.service.table(h.key).hand
    assert live is not None and live.stakes == PRESETS["micro"]
    await h.passive()
    # A change made and then taken back before the deal is no change: nothing is announced.
    await h.service.set_stakes(h.key, ann, PRESETS["medium"])
    await h.service.set_stakes(h.key, ann, PRESETS["micro"])
    await h.service.set_ruling(h.key, ann, "raise_cap", "4")
    await h.service.set_ruling(h.key, ann, "raise_cap", "3")
    start = len(h.rec.of(h.key))
    await h.service.deal(h.key, ann)
    assert not any(isinstance(n, PublicNotice) and n.kind == NoticeKind.SETTINGS
                   for n in h.rec.of(h.key)[start:])
    await h.passive()


async def test_between_hands_the_table_shows_who_deals_next_and_the_next_stakes(
    store: Store, db_path: Path
) -> None:
    # The between-hands table is headed "next: hand #N". Its dealer mark and stakes must be those
    # of that next hand: marking the last hand's dealer there reads as "Ann deals next" when Bea
    # will, and showing the old stakes hides a change the dealer has already queued.
    h = Harness(store, db_path, rng=deck())
    await h.table(*THREE, stakes=PRESETS["small"])
    ann = h.members["Ann"]
    await h.service.deal(h.key, ann)
    assert h.service.table(h.key).hand is not None
    assert h.service.table(h.key).hand.names[-1] == "Ann"           # type: ignore[union-attr]
    await h.service.set_stakes(h.key, ann, PRESETS["micro"])
    await h.passive()
    view = h.service.table_view(h.key)
    assert view.title.startswith("Between hands (next: hand #2)")
    assert [s.name for s in view.seats if s.dealer] == ["Bea"]
    assert view.stakes == PRESETS["micro"].describe()
    await h.service.deal(h.key, ann)
    hand = h.service.table(h.key).hand
    assert hand is not None and hand.names[-1] == "Bea"
    await h.passive()


# ----------------------------------------------------------------------------- secrecy
class Watchdog(RecordingPresenter):
    """Records like ``RecordingPresenter`` and checks, at the moment each notice is sent, that it
    shows no down card it should not (DESIGN "Fairness and secrecy"):

    * public posts and prompts: nobody's down cards while betting is open; once the hands are
      turned face up (all-in) or shown, still never a folded player's;
    * private messages and replies: never another player's down cards.
    The deck reveal after the hand (``REVEAL``) is excluded: it is the fair-deal proof."""

    def __init__(self) -> None:
        super().__init__()
        self.service: TableService | None = None
        self.checked = 0

    def _downs(self, table: TableKey) -> tuple[dict[int, set[str]], set[int], bool]:
        assert self.service is not None
        live = self.service.table(table).hand
        if live is None:
            return {}, set(), True
        engine = live.engine
        downs = {live.members[s]: {str(c) for c in engine.down_cards(s)} for s in range(len(live.members))}
        folded = {live.members[s] for s in range(len(live.members)) if engine.folded(s)}
        return downs, folded, engine.betting_closed or engine.is_over

    def _check(self, table: TableKey, text: str, allowed: set[int] | None) -> None:
        downs, folded, open_hands = self._downs(table)
        for member, cards in downs.items():
            if allowed is not None and member in allowed:
                continue
            if allowed is None and open_hands and member not in folded:
                continue
            leaked = [c for c in cards if c in text]
            assert not leaked, (member, leaked, text)
        self.checked += 1

    async def post(self, table: TableKey, notice: PublicNotice) -> None:
        if notice.kind != NoticeKind.REVEAL:
            self._check(table, notice.text, None)
            if isinstance(notice.table, TableView):
                for seat in notice.table.seats:
                    self._check(table, " ".join(str(c) for c in seat.up), None)
        await super().post(table, notice)

    async def prompt(self, table: TableKey, notice: Prompt) -> None:
        self._check(table, notice.text, None)
        await super().prompt(table, notice)

    async def private(self, table: TableKey, notice: PrivateNotice) -> None:
        self._check(table, notice.text, {notice.member})
        self._check(table, " ".join(str(c) for c in notice.down_cards + notice.up_cards), {notice.member})
        await super().private(table, notice)

    async def reply(self, table: TableKey, notice: Reply) -> None:
        self._check(table, notice.text, {notice.member})
        await super().reply(table, notice)

    async def showdown(self, table: TableKey, notice: ShowdownNotice) -> None:
        self._check(table, notice.text, None)
        await super().showdown(table, notice)


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_no_notice_ever_shows_a_down_card_it_should_not(store: Store, db_path: Path, seed: int) -> None:
    # Random legal play with all-ins (no limit, short stacks), folds, leaving mid-hand, timeouts
    # and sitting out; every notice is checked as it is sent.
    rng = random.Random(seed)
    h = Harness(store, db_path, rng=random.Random(seed),
                options=TableOptions(turn_timeout=30, reminder_after=20))
    watchdog = Watchdog()
    watchdog.service = h.service
    h.service.presenter = watchdog
    h.rec = watchdog
    buy_ins = [60, 200, 900] if seed % 2 else [40, 100, 400]
    players = [(name, rng.choice(buy_ins)) for name in ("Ann", "Bea", "Cid", "Dot", "Eve")]
    await h.table(*players, stakes=NL if seed % 2 else PRESETS["micro"])
    members = list(h.members.values())
    for _ in range(6):
        for member in members:
            seat = h.service.table(h.key).seat_of(member)
            if seat is not None and seat.status != "active":
                await h.service.back(h.key, member)
        try:
            await h.service.deal(h.key, members[0], dealer_rights=True)
        except TableError:
            break
        while h.service.table(h.key).hand is not None:
            prompt = h.prompt()
            roll = rng.random()
            if roll < 0.05:
                await h.service.leave(h.key, prompt.member)
            elif roll < 0.12:
                await h.clock.advance(30)
            else:
                option = rng.choice(prompt.options)
                await h.service.act(h.key, prompt.member, prompt.hand_id, prompt.turn, option.action,
                                    option.amount)
    assert watchdog.checked > 100
    assert any(HIDDEN in n.text for n in watchdog.public(h.key, NoticeKind.TABLE))


# ----------------------------------------------------------------------------- a broken front end
class ExplodingPresenter(RecordingPresenter):
    """Records every notice, then raises: a front end that is broken everywhere."""

    async def post(self, table: TableKey, notice: PublicNotice) -> None:
        await super().post(table, notice)
        raise RuntimeError("post failed")

    async def private(self, table: TableKey, notice: PrivateNotice) -> None:
        await super().private(table, notice)
        raise RuntimeError("dm failed")

    async def prompt(self, table: TableKey, notice: Prompt) -> None:
        await super().prompt(table, notice)
        raise RuntimeError("prompt failed")

    async def reply(self, table: TableKey, notice: Reply) -> None:
        await super().reply(table, notice)
        raise RuntimeError("reply failed")

    async def showdown(self, table: TableKey, notice: ShowdownNotice) -> None:
        await super().showdown(table, notice)
        raise RuntimeError("showdown failed")


async def test_a_front_end_that_raises_everywhere_never_stops_a_hand(db_path: Path) -> None:
    # Issue 5: the hand never waits on (or dies with) a front end. Every presenter call raises;
    # commands, timers, leaving, the showdown, settling and a restart all still work.
    options = TableOptions(turn_timeout=60, reminder_after=30)
    async with await Store.open(db_path) as store:
        h = Harness(store, db_path, rng=deck(), options=options)
        h.rec = ExplodingPresenter()
        h.service.presenter = h.rec
        await h.table(("Ann", 500), ("Bea", 500), ("Cid", 500), ("Dot", 500), stakes=PRESETS["small"])
        await h.service.deal(h.key, h.members["Ann"])
        await h.clock.advance(60)                         # whoever is first times out
        await h.service.leave(h.key, h.members["Dot"])
        first = h.prompt()
        await h.service.act(h.key, first.member, first.hand_id, first.turn,
                            "call" if first.option("call") else "check")
        await h.service.close()
        await store.close()
        async with await Store.open(db_path) as store2:
            h2 = Harness(store2, db_path, options=options)
            h2.rec = ExplodingPresenter()
            h2.service.presenter = h2.rec
            h2.members = dict(h.members)
            await h2.service.start()
            table = h2.service.table(h.key)
            while table.hand is not None:
                prompt = h2.service.current_prompt(h.key)    # the front end can always ask
                assert prompt is not None
                names = [o.action for o in prompt.options]
                action = "bring_in" if "bring_in" in names else ("check" if "check" in names else "call")
                action = "show" if "show" in names else action
                await h2.service.act(h.key, prompt.member, prompt.hand_id, prompt.turn, action)
            assert h2.rec.showdowns(h.key) or any(" wins " in t for t in h2.texts(NoticeKind.RESULT))
            dot = h.members["Dot"]
            assert table.seat_of(dot) is None
            # Everyone started with 1,000: three buy-ins of 500 at the table, Dot cashed out.
            assert sum((await stacks(store2, h2)).values()) + await store2.balance(h.key.guild, dot) \
                == 3 * 500 + 1000
            assert (await store2.audit()).ok


async def test_an_auto_dealing_table_keeps_dealing_after_a_restart_between_hands(db_path: Path) -> None:
    # A table set to deal by itself (TableOptions.auto_deal_after) schedules the next deal when a
    # hand ends, in memory. After a restart between hands nobody joins or comes back, so unless the
    # start-up schedules it again the table waits for ever for a deal nobody is expected to ask for.
    options = TableOptions(turn_timeout=None, reminder_after=None, auto_deal_after=5)
    async with await Store.open(db_path) as store:
        h = Harness(store, db_path, options=options)
        await h.table(("Ann", 500), ("Bea", 500), stakes=PRESETS["small"])
        await h.clock.advance(5)
        assert h.service.table(h.key).hand is not None
        await h.passive()
        async with restarted(h, options) as h2:
            await h2.clock.advance(5)
            hand = h2.service.table(h.key).hand
            assert hand is not None and hand.hand_no == 2
            await h2.passive()


async def test_no_top_up_for_a_player_in_the_hand(store: Store, db_path: Path) -> None:
    # A top-up while dealt in would change a stack the engine is playing with; it waits for the
    # end of the hand (and a player who is seated but not dealt in may top up at once).
    h = Harness(store, db_path, rng=deck())
    await h.table(*THREE, stakes=PRESETS["small"])
    await h.service.deal(h.key, h.members["Ann"])
    with pytest.raises(TableError, match="between hands"):
        await h.service.top_up(h.key, h.members["Ann"], 100)
    await h.service.join(h.key, 4242, "Dot", buy_in=400)
    assert (await h.service.top_up(h.key, 4242, 100)).stack == 500
    await h.passive()
    before = h.service.table(h.key).seat_of(h.members["Ann"])
    assert before is not None
    stack = before.stack
    assert (await h.service.top_up(h.key, h.members["Ann"], 100)).stack == stack + 100


# ----------------------------------------------------------------------------- everything at once
@pytest.mark.parametrize("seed", [11, 12, 13, 14])
async def test_commands_clicks_and_timers_all_at_once_only_refuse_and_conserve_chips(
    store: Store, db_path: Path, seed: int
) -> None:
    # Batches of concurrent calls, as many Discord users and timers would make them: the current
    # prompt answered twice, old prompts replayed, seats joining, leaving, sitting out and coming
    # back, the dealer dealing and changing stakes and rulings, time passing. Whatever the
    # interleaving, a call either works or is refused with a reason (the IllegalAction family);
    # nothing else may escape, and every chip is accounted for at the end.
    import asyncio

    rng = random.Random(seed)
    h = Harness(store, db_path, rng=random.Random(seed),
                options=TableOptions(turn_timeout=20, reminder_after=10, auto_deal_after=3))
    await h.table(*[(f"P{i}", 400) for i in range(5)], stakes=PRESETS["small"])
    members = [*h.members.values(), 7001, 7002]               # two more who join and leave
    names = {m: n for n, m in h.members.items()} | {7001: "Q1", 7002: "Q2"}
    dealer = h.members["P0"]
    old_prompts: list[Prompt] = []

    def ops() -> list[object]:
        batch: list[object] = []
        prompt = h.service.current_prompt(h.key)
        for _ in range(rng.randint(2, 6)):
            roll = rng.random()
            m = rng.choice(members)
            if prompt is not None and roll < 0.4:
                option = rng.choice(prompt.options)
                batch.append(h.service.act(h.key, prompt.member, prompt.hand_id, prompt.turn,
                                           option.action, option.amount))
                old_prompts.append(prompt)
            elif old_prompts and roll < 0.5:
                old = rng.choice(old_prompts)
                batch.append(h.service.act(h.key, old.member, old.hand_id, old.turn, "call"))
            elif roll < 0.58:
                batch.append(h.service.leave(h.key, m))
            elif roll < 0.66:
                batch.append(h.service.join(h.key, m, names[m], buy_in=400))
            elif roll < 0.72:
                batch.append(h.service.sit_out(h.key, m))
            elif roll < 0.8:
                batch.append(h.service.back(h.key, m))
            elif roll < 0.86:
                batch.append(h.service.deal(h.key, dealer, dealer_rights=True))
            elif roll < 0.9:
                batch.append(h.service.set_stakes(h.key, dealer, rng.choice([PRESETS["micro"],
                                                                              PRESETS["small"]])))
            elif roll < 0.93:
                batch.append(h.service.set_ruling(h.key, dealer, "raise_cap", rng.choice(["3", "4"])))
            else:
                batch.append(h.clock.advance(rng.choice([1, 5, 10, 20])))
        return batch

    for _ in range(150):
        results = await asyncio.gather(*ops(), return_exceptions=True)   # type: ignore[call-overload]
        for result in results:
            assert result is None or not isinstance(result, BaseException) or \
                isinstance(result, IllegalAction), repr(result)
    # Wind down: let timers and the table finish whatever hand is on.
    for member in members:
        try:
            await h.service.back(h.key, member)
        except IllegalAction:
            pass
    table = h.service.table(h.key)
    table.options = TableOptions(turn_timeout=None, reminder_after=None)
    if table.auto_deal is not None:
        table.auto_deal.cancel()
        table.auto_deal = None
    await h.passive()
    assert table.hand is None
    seated = sum(s.stack for s in await store.seats(table.table_id))
    banked = sum([await store.balance(h.key.guild, m) for m in members])
    assert seated + banked == 1000 * len(members)                # everyone started with 1,000
    assert table.hands_dealt >= 3


async def test_repeated_leave_and_sit_out_are_told_once_and_back_takes_a_leave_back(
    store: Store, db_path: Path
) -> None:
    # A double click (or an impatient player) must not repeat the seating line in the channel each
    # time. And "back" is how a player takes back what they asked for: after a mistaken leave they
    # keep their seat and play on (a fold that already happened stays).
    h = Harness(store, db_path, rng=deck())
    await h.table(*THREE, stakes=PRESETS["small"])
    bea, cid = h.members["Bea"], h.members["Cid"]
    await h.service.deal(h.key, h.members["Ann"])
    await h.act("Cid", "bring_in")
    await h.service.leave(h.key, bea)
    assert "already leaving" in await h.service.leave(h.key, bea)
    await h.service.sit_out(h.key, cid)
    assert "already sitting out" in await h.service.sit_out(h.key, cid)
    seating = h.texts(NoticeKind.SEATING)
    assert sum("Bea will leave" in t for t in seating) == 1
    assert sum("Cid sits out" in t for t in seating) == 1
    assert "stay" in await h.service.back(h.key, bea)
    assert "Bea stays at the table." in h.texts(NoticeKind.SEATING)
    await h.act("Ann", "call")
    assert h.prompt().name == "Bea"                 # asked, not folded: the leave was taken back
    await h.passive()
    assert h.service.table(h.key).seat_of(bea) is not None
    await h.service.back(h.key, cid)
    await h.service.deal(h.key, h.members["Ann"])
    hand = h.service.table(h.key).hand
    assert hand is not None and set(hand.names) == {"Ann", "Bea", "Cid"}
    await h.passive()
