"""The showdown as card rooms run it (issue 10): show order, show or muck, auto-muck, all-in hands
face up, an uncontested winner shows nothing, and hands stored before mucking still reveal the same.

The hands are stacked so the outcome is known without the engine: no five anywhere (so no wild
card but the fives, and none is dealt), three players in seats 1-3 with the button on seat 1, so
the deal order is Bea (p1), Cid (p2), Ann (p3):

* Bea ``Ks Kd | Kh 9c 8d 2c | 3h``: three kings, the best hand.
* Cid ``Qs Qd | Jh Jc 4d 4s | 7c``: two pair, queens and jacks; the best board (jacks and fours
  showing), so Cid acts first on seventh street.
* Ann ``As 2d | 3c 6h 7d 8h | Td``: ace-high, the worst; her 3♣ door card brings in.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from bot.engine.betting.round import LegalActions
from bot.engine.betting.stakes import PRESETS, TableStakes
from bot.engine.cards.card import Card, parse_cards
from bot.engine.errors import IllegalAction
from bot.store import Store
from bot.tables.errors import TableError
from bot.tables.notices import NoticeKind, PrivateNotice
from bot.tables.options import TableOptions
from bot.tables.reveal import reveal_of, viewer_history
from bot.tables.robot import Robot, Situation
from tests.tables.helpers import Harness, StackedRandom, stacked_deck
from tests.tables.test_secrecy import card_tokens

BEA = "Ks Kd Kh 9c 8d 2c 3h"
CID = "Qs Qd Jh Jc 4d 4s 7c"
ANN = "As 2d 3c 6h 7d 8h Td"
DOWN = {name: set(parse_cards(h.split()[0] + h.split()[1] + h.split()[6])) for name, h in
        (("Bea", BEA), ("Cid", CID), ("Ann", ANN))}
UP = {c for h in (BEA, CID, ANN) for c in parse_cards("".join(h.split()[2:6]))}


async def three(store: Store, db_path: Path, options: TableOptions | None = None) -> Harness:
    kwargs = {"options": options} if options is not None else {}
    h = Harness(store, db_path, rng=StackedRandom(stacked_deck([BEA, CID, ANN])), **kwargs)  # type: ignore[arg-type]
    await h.table(("Ann", 500), ("Bea", 500), ("Cid", 500), stakes=PRESETS["small"])
    return h


async def to_seventh(h: Harness) -> None:
    """Check, call or bring in until seventh street's betting begins."""
    while True:
        live = h.service.table(h.key).hand
        assert live is not None
        if live.engine.street == 7:
            return
        prompt = h.prompt()
        names = [o.action for o in prompt.options]
        action = "bring_in" if "bring_in" in names else ("check" if "check" in names else "call")
        await h.service.act(h.key, prompt.member, prompt.hand_id, prompt.turn, action)


def names_of(h: Harness, seats: tuple[int, ...]) -> list[str]:
    live_names = {m: n for n, m in h.members.items()}
    table = h.service.table(h.key)
    assert table.hand is not None
    return [live_names[table.hand.members[s]] for s in seats]


async def test_with_no_bet_on_seventh_the_first_to_act_shows_first_and_a_beaten_hand_may_muck(
    store: Store, db_path: Path
) -> None:
    h = await three(store, db_path)
    hand_id = await h.service.deal(h.key, h.members["Ann"])
    await to_seventh(h)
    live = h.service.table(h.key).hand
    assert live is not None
    for name in ("Cid", "Ann", "Bea"):          # Cid is high (jacks and fours showing): he acts first
        await h.act(name, "check")
    # Nobody bet on seventh: Cid, the first to act, shows first; then clockwise Ann, then Bea.
    assert names_of(h, live.engine.show_order) == ["Cid", "Ann", "Bea"]
    # Cid had to show (nothing was shown before him): nobody asked him. Ann's ace-high is beaten
    # by his two pair, so she is asked, with exactly show and muck.
    prompt = h.prompt()
    assert prompt.name == "Ann" and [o.action for o in prompt.options] == ["show", "muck"]
    assert any("Cid shows" in t for t in h.texts(NoticeKind.RESULT))   # she sees what beat her
    await h.act("Ann", "muck")
    # Bea's three kings beat Cid's shown two pair: shown without asking, and she takes the pot.
    (showdown,) = h.rec.showdowns(h.key)
    assert [name for name, _ in showdown.shown] == ["Cid", "Bea"]
    assert "Ann mucks" in showdown.text
    assert set(showdown.winnings) == {h.members["Bea"]}
    assert [p.name for p in h.rec.prompts(h.key) if p.options[0].action == "show"] == ["Ann"]
    # Ann's down cards are nowhere public; Cid's and Bea's are opened.
    record = await store.get_hand(hand_id)
    public = reveal_of(record)
    opened = {o.card for o in public.openings}
    assert opened == UP | DOWN["Cid"] | DOWN["Bea"]
    assert not card_tokens(h.rec.text(h.key)) & DOWN["Ann"]
    # The stored history writes her muck as "p3 sm" with no cards (SPEC §9).
    assert record.phh is not None
    sm_lines = [line for line in record.phh.splitlines() if " sm" in line]
    assert [line.strip().strip('",') for line in sm_lines if "p3" in line] == ["p3 sm"]
    assert DOWN["Ann"] <= card_tokens(viewer_history(record, h.members["Ann"]))
    assert not DOWN["Ann"] & card_tokens(viewer_history(record, h.members["Cid"]))


async def test_the_last_aggressor_on_seventh_shows_first(store: Store, db_path: Path) -> None:
    h = await three(store, db_path)
    await h.service.deal(h.key, h.members["Ann"])
    await to_seventh(h)
    await h.act("Cid", "check")
    await h.act("Ann", "bet", 40)               # Ann bets seventh: she shows first
    await h.act("Bea", "call")
    await h.act("Cid", "call")
    live = h.service.table(h.key).hand
    assert live is not None
    assert names_of(h, live.engine.show_order) == ["Ann", "Bea", "Cid"]
    # Ann shows (first); Bea beats her and must show; Cid's two pair is beaten by Bea: asked.
    prompt = h.prompt()
    assert prompt.name == "Cid" and [o.action for o in prompt.options] == ["show", "muck"]
    await h.act("Cid", "show")                  # he may show a beaten hand
    (showdown,) = h.rec.showdowns(h.key)
    assert [name for name, _ in showdown.shown] == ["Ann", "Bea", "Cid"]
    assert set(showdown.winnings) == {h.members["Bea"]}


async def test_muck_and_show_only_at_the_showdown_and_never_a_winner_muck(
    store: Store, db_path: Path
) -> None:
    h = await three(store, db_path)
    await h.service.deal(h.key, h.members["Ann"])
    prompt = h.prompt()
    with pytest.raises(IllegalAction, match="nothing to show"):
        await h.service.act_on_prompt(h.key, prompt.member, "muck")
    await to_seventh(h)
    for name in ("Cid", "Ann"):
        await h.act(name, "check")
    before = len(h.rec.of(h.key))
    await h.act("Bea", "check")
    # Bea's winning hand was never offered a muck: the only prompt is Ann's.
    assert [p.name for p in h.rec.prompts(h.key)[-1:]] == ["Ann"]
    assert len(h.rec.of(h.key)) > before


async def test_a_timeout_at_the_show_or_muck_prompt_mucks_the_beaten_hand(
    store: Store, db_path: Path
) -> None:
    h = await three(store, db_path, TableOptions(turn_timeout=60, reminder_after=None))
    await h.service.deal(h.key, h.members["Ann"])
    await to_seventh(h)
    for name in ("Cid", "Ann", "Bea"):
        await h.act(name, "check")
    assert h.prompt().name == "Ann"
    await h.clock.advance(60)
    (showdown,) = h.rec.showdowns(h.key)
    assert "Ann mucks" in showdown.text and [n for n, _ in showdown.shown] == ["Cid", "Bea"]
    assert any("mucked your beaten hand" in r.text for r in h.rec.replies(h.members["Ann"]))
    assert not card_tokens(h.rec.text(h.key)) & DOWN["Ann"]


async def test_automuck_mucks_without_asking_and_survives_a_restart(db_path: Path) -> None:
    store = await Store.open(db_path)
    h = await three(store, db_path)
    with pytest.raises(TableError, match="not seated"):
        await h.service.set_automuck(h.key, 999, True)
    said = await h.service.set_automuck(h.key, h.members["Ann"], True)
    assert "Auto-muck is on" in said
    await h.service.close()
    await store.close()
    store = await Store.open(db_path)
    try:
        h2 = Harness(store, db_path, rng=StackedRandom(stacked_deck([BEA, CID, ANN])))
        h2.members = h.members
        await h2.service.start()
        assert h2.service.table(h.key).automuck == {h.members["Ann"]}
        await h2.service.deal(h.key, h.members["Ann"])
        await to_seventh(h2)
        for name in ("Cid", "Ann", "Bea"):
            await h2.act(name, "check")
        (showdown,) = h2.rec.showdowns(h.key)          # over without asking anyone
        assert "Ann mucks" in showdown.text
        assert not any(p.options[0].action == "show" for p in h2.rec.prompts(h.key))
        off = await h2.service.set_automuck(h.key, h.members["Ann"], False)
        assert "Auto-muck is off" in off and h2.service.table(h.key).automuck == set()
        assert (await store.audit()).ok
    finally:
        await store.close()


async def test_turning_automuck_on_while_asked_mucks_at_once(store: Store, db_path: Path) -> None:
    h = await three(store, db_path)
    await h.service.deal(h.key, h.members["Ann"])
    await to_seventh(h)
    for name in ("Cid", "Ann", "Bea"):
        await h.act(name, "check")
    assert h.prompt().name == "Ann"
    await h.service.set_automuck(h.key, h.members["Ann"], True)
    assert h.service.table(h.key).hand is None
    assert "Ann mucks" in h.rec.showdowns(h.key)[0].text


async def test_all_in_hands_are_face_up_before_the_run_out_and_count_as_shown(
    store: Store, db_path: Path
) -> None:
    nl = TableStakes.no_limit(ante=5, bring_in=10, min_bet=20, min_buy_in=5, max_buy_in=2000)
    cid, bea = "Qs Qd Jh Jc 4d 4s 7c", "Ks Kd Kh 9c 8d 2c 3h"
    h = Harness(store, db_path, rng=StackedRandom(stacked_deck([cid, bea])))
    await h.table(("Bea", 500), ("Cid", 100), stakes=nl)
    hand_id = await h.service.deal(h.key, h.members["Bea"])
    await h.act("Cid", "all_in")
    await h.act("Bea", "call")
    # Turned face up at once, down cards named in the channel, before fourth street is dealt.
    text = h.rec.text(h.key)
    face_up = text.index("the hands are turned face up")
    assert face_up < text.index("Fourth street")
    announced = card_tokens(text[face_up: text.index("Fourth street")])
    assert {Card.parse(c) for c in ("Qs", "Qd", "Ks", "Kd")} <= announced
    assert not any(p.options and p.options[0].action in ("show", "muck") for p in h.rec.prompts(h.key))
    record = await store.get_hand(hand_id)
    opened = {o.card for o in reveal_of(record).openings}
    assert set(parse_cards("QsQd7cKsKd3h")) <= opened
    # Both shown, the best board (Cid's jacks and fours) first.
    assert [n for n, _ in h.rec.showdowns(h.key)[0].shown] == ["Cid", "Bea"]


async def test_an_uncontested_winner_shows_nothing(store: Store, db_path: Path) -> None:
    h = await three(store, db_path)
    hand_id = await h.service.deal(h.key, h.members["Ann"])
    await h.act("Ann", "bring_in")
    await h.act("Bea", "complete")               # Bea completes; everyone folds to her
    await h.act("Cid", "fold")
    await h.act("Ann", "fold")
    assert h.service.table(h.key).hand is None and not h.rec.showdowns(h.key)
    record = await store.get_hand(hand_id)
    for member in (None, h.members["Ann"], h.members["Cid"]):
        seen = card_tokens(h.rec.text(h.key)) | card_tokens(viewer_history(record, member))
        seen |= {o.card for o in reveal_of(record, member).openings}
        mine = {h.members["Ann"]: DOWN["Ann"], h.members["Cid"]: DOWN["Cid"]}.get(member or 0, set())
        assert not seen & (DOWN["Bea"] | DOWN["Ann"] | DOWN["Cid"]) - mine
    assert {o.card for o in reveal_of(record).openings} == set(parse_cards("KhJh3c"))
    # Bea sees her own cards, in her DM only.
    bea = [n for n in h.rec.of(h.key) if isinstance(n, PrivateNotice) and n.member == h.members["Bea"]]
    assert bea and set(parse_cards("KsKd")) <= card_tokens(bea[-1].text)


async def test_a_hand_stored_without_show_lines_reveals_every_live_hand_as_before(
    store: Store, db_path: Path
) -> None:
    h = await three(store, db_path)
    hand_id = await h.service.deal(h.key, h.members["Ann"])
    await h.passive()                            # everyone shows when asked
    record = await store.get_hand(hand_id)
    old = dataclasses.replace(record, actions=tuple(a for a in record.actions if a.split()[1:2] != ["sm"]))
    assert len(old.actions) < len(record.actions)
    assert reveal_of(old).openings == reveal_of(record).openings
    assert {o.card for o in reveal_of(old).openings} == UP | DOWN["Ann"] | DOWN["Bea"] | DOWN["Cid"]
    assert viewer_history(old, None).count(" sm ") == 3


def test_a_computer_player_mucks_a_beaten_hand_and_shows_otherwise() -> None:
    import random

    base = dict(down=tuple(parse_cards("2h 3d 9s")), up=tuple(parse_cards("4c 7d 8s Jc")),
                opponents_up=(tuple(parse_cards("Kc Kd Qs Qh")),), dead=(), community=None,
                wild_ranks=(), wild_in_flush="any-card", street=7, pot=300)
    muck = Situation(**base, legal=LegalActions(0, show=True, muck=True))  # type: ignore[arg-type]
    show = Situation(**base, legal=LegalActions(0, show=True))  # type: ignore[arg-type]
    assert Robot(random.Random(1)).decide(muck) == ("muck", None)
    assert Robot(random.Random(1)).decide(show) == ("show", None)


async def test_a_showdown_under_way_resumes_after_a_restart(db_path: Path) -> None:
    store = await Store.open(db_path)
    h = await three(store, db_path)
    await h.service.deal(h.key, h.members["Ann"])
    await to_seventh(h)
    for name in ("Cid", "Ann", "Bea"):
        await h.act(name, "check")
    assert h.prompt().name == "Ann"                 # Cid has shown; Ann is asked
    await h.service.close()
    await store.close()
    store = await Store.open(db_path)
    try:
        h2 = Harness(store, db_path)
        h2.members = h.members
        await h2.service.start()
        # Ann is asked again, after the hands shown so far are told again.
        prompt = h2.prompt(h.key)
        assert prompt.name == "Ann" and [o.action for o in prompt.options] == ["show", "muck"]
        told = [t for t in h2.texts(NoticeKind.RESULT) if t.startswith("Showdown")]
        assert told and "Cid shows" in told[-1] and "Bea" not in told[-1]
        await h2.act("Ann", "muck")
        (showdown,) = h2.rec.showdowns(h.key)
        assert [n for n, _ in showdown.shown] == ["Cid", "Bea"] and "Ann mucks" in showdown.text
        assert set(showdown.winnings) == {h.members["Bea"]}
        assert (await store.audit()).ok
    finally:
        await store.close()
