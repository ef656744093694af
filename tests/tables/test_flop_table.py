"""Flop games at the table service (issue 21): the button and blinds each hand gets, the straddle and
bomb pots the table decides (stored with the hand, so a restart deals the same hand), run it twice
through the prompts (both boards on the table, each public), and Crazy Pineapple's discard."""

from __future__ import annotations

import random
import re
from pathlib import Path

from bot.engine.betting.stakes import PRESETS, TableStakes
from bot.engine.cards.card import Card
from bot.engine.hand.options import Post
from bot.store import Store
from bot.tables.codec import decode_options
from bot.tables.reveal import public_cards, rebuild
from bot.tables.snapshot import snapshot
from tests.reference_board import holdem_fives, ref_high
from tests.tables.helpers import Harness
from tests.tables.test_secrecy import card_tokens

NO_LIMIT = TableStakes.no_limit(ante=5, bring_in=10, min_bet=20, min_buy_in=5)


async def _flop_table(h: Harness, game: str, *stacks: int, stakes: TableStakes = PRESETS["small"]) -> None:
    names = ("Ann", "Bea", "Cid", "Dot")[: len(stacks)]
    await h.table(*zip(names, stacks, strict=True), stakes=stakes)
    await h.service.set_game(h.key, h.members["Ann"], game)


async def test_the_button_moves_and_the_blinds_follow_it_hand_after_hand(store: Store, db_path: Path) -> None:
    h = Harness(store, db_path, rng=random.Random(2))
    await _flop_table(h, "texas-holdem", 500, 500, 500)
    seen = []
    for _ in range(4):
        await h.service.deal(h.key, h.members["Ann"])
        live = h.service.table(h.key).hand
        assert live is not None and live.engine.button == len(live.seat_nos) - 1
        blinds = {s.name: s.blind for s in snapshot(h.service.table(h.key)).seats if s.blind}
        button = live.names[-1]
        seen.append((button, blinds))
        # The seat left of the button posts the small blind, the next the big blind.
        assert blinds == {live.names[0]: "SB", live.names[1]: "BB"}
        await h.passive()
    assert [b for b, _ in seen] == ["Ann", "Bea", "Cid", "Ann"]


async def test_heads_up_the_button_posts_the_small_blind(store: Store, db_path: Path) -> None:
    h = Harness(store, db_path)
    await _flop_table(h, "texas-holdem", 500, 500)
    await h.service.deal(h.key, h.members["Ann"])
    live = h.service.table(h.key).hand
    assert live is not None
    marks = {s.name: (s.blind, s.button) for s in snapshot(h.service.table(h.key)).seats}
    assert marks[live.names[-1]] == ("SB", True) and marks[live.names[0]] == ("BB", False)
    assert h.prompt().name == live.names[-1]            # the button acts first before the flop


async def test_a_straddle_and_a_called_bomb_pot_are_dealt_stored_and_dealt_again_after_a_restart(
    store: Store, db_path: Path
) -> None:
    h = Harness(store, db_path)
    await _flop_table(h, "omaha", 500, 500, 500, 500)
    await h.service.set_options(h.key, h.members["Ann"], straddle=True)
    await h.service.deal(h.key, h.members["Ann"])
    live = h.service.table(h.key).hand
    assert live is not None and live.engine.options.straddle
    assert live.actions[0].endswith("; straddle")
    assert "straddles for 40" in h.rec.text(h.key)
    await h.passive()
    said = await h.service.call_bomb_pot(h.key, h.members["Ann"])
    assert "everyone antes 100" in said                  # five big blinds of 20
    table = h.service.table(h.key)
    assert (await store.get_table(table.table_id)).settings["bomb_pot_next"] is True
    hand_id = await h.service.deal(h.key, h.members["Ann"])
    assert hand_id is not None
    live = table.hand
    assert live is not None and live.engine.options.bomb_pot == 100
    assert "Bomb pot: everyone antes 100" in h.rec.text(h.key)
    assert not table.bomb_pot_next and "bomb_pot_next" not in (await store.get_table(table.table_id)).settings
    record = await store.get_hand(hand_id)
    assert decode_options(record.actions[0]) == live.engine.options       # the restart deals it again
    engine, _, _ = rebuild(record)
    assert engine.options == live.engine.options and engine.board == live.engine.board


async def test_a_bomb_pot_is_refused_at_a_stud_table(store: Store, db_path: Path) -> None:
    h = Harness(store, db_path)
    await h.table(("Ann", 500), ("Bea", 500), stakes=PRESETS["small"])
    try:
        await h.service.call_bomb_pot(h.key, h.members["Ann"])
    except Exception as exc:                               # TableError, with the reason
        assert "Bomb pots are for the flop games" in str(exc)
    else:
        raise AssertionError("a stud table took a bomb pot")


async def test_run_it_twice_deals_two_boards_and_both_are_public(store: Store, db_path: Path) -> None:
    h = Harness(store, db_path, rng=random.Random(4))
    await _flop_table(h, "texas-holdem", 100, 100, stakes=NO_LIMIT)
    await h.service.set_ruling(h.key, h.members["Ann"], "run_it_twice", "on")
    hand_id = await h.service.deal(h.key, h.members["Ann"])
    assert hand_id is not None
    table = h.service.table(h.key)
    first = h.prompt()
    await h.service.act(h.key, first.member, first.hand_id, first.turn, first.option("all_in").command)
    call = h.prompt()
    await h.service.act(h.key, call.member, call.hand_id, call.turn, call.option("call").command)
    for _ in range(2):                                      # each player is asked, with two buttons
        ask = h.prompt()
        assert [o.action for o in ask.options] == ["run_twice", "run_once"], ask.options
        assert "run the rest of the board twice" in ask.text
        await h.service.act(h.key, ask.member, ask.hand_id, ask.turn, ask.option("run_twice").command)
    while table.hand is not None:
        await h.passive()
    final = [n.snapshot for n in h.rec.public(h.key) if getattr(n, "snapshot", None) is not None
             and n.snapshot.hand_id == hand_id][-1]
    assert len(final.boards) == 2 and all(len(b) == 5 for b in final.boards)
    record = await store.get_hand(hand_id)
    engine, _, _ = rebuild(record)
    both = {c for board in engine.boards for c in board}
    assert both == {c for board in final.boards for c in board}
    assert both <= set(public_cards(engine))
    log = h.rec.text(h.key)
    assert "Second run:" in log and "board 2's half" in log
    assert {c for c in card_tokens(log) if isinstance(c, Card)} >= both


async def test_crazy_pineapple_asks_each_player_to_discard_and_keeps_it_secret(
    store: Store, db_path: Path
) -> None:
    h = Harness(store, db_path, rng=random.Random(6))
    await _flop_table(h, "crazy-pineapple", 500, 500, 500)
    hand_id = await h.service.deal(h.key, h.members["Ann"])
    table = h.service.table(h.key)
    thrown: dict[int, Card] = {}
    while table.hand is not None:
        prompt = h.prompt()
        if prompt.options[0].action == "discard":
            assert len(prompt.options) == 3 and all(len(o.cards) == 1 for o in prompt.options)
            pick = prompt.options[-1]
            thrown[prompt.member] = pick.cards[0]
            await h.service.act(h.key, prompt.member, prompt.hand_id, prompt.turn, pick.command)
            continue
        step = next(o for o in prompt.options if o.action in ("check", "call", "show"))
        await h.service.act(h.key, prompt.member, prompt.hand_id, prompt.turn, step.command)
    assert len(thrown) == 3
    record = await store.get_hand(hand_id)
    engine, _, _ = rebuild(record)
    assert not set(thrown.values()) & set(public_cards(engine))   # discards are never opened
    assert not set(thrown.values()) & card_tokens(h.rec.text(h.key))


async def test_a_newcomer_waits_for_the_big_blind_or_posts_one(store: Store, db_path: Path) -> None:
    for ruling in ("wait", "post"):
        h = Harness(store, db_path, rng=random.Random(8))
        key = h.key if ruling == "wait" else type(h.key)(1, 101)
        names = ("Ann", "Bea", "Cid", "Dot")
        await h.table(*((n, 500) for n in names), key=key, stakes=PRESETS["small"])
        dealer = h.members["Ann"]
        await h.service.set_game(key, dealer, "texas-holdem")
        await h.service.set_options(key, dealer, join_blind=ruling)
        await h.service.deal(key, dealer)                 # Ann's button: Bea and Cid post the blinds
        await h.passive(key)
        await h.service.join(key, 1001 if ruling == "wait" else 1002, "Eve", buy_in=500)   # seat 5, waiting
        await h.service.deal(key, dealer)                 # Bea's button: Cid and Dot post the blinds
        live = h.service.table(key).hand
        assert live is not None
        if ruling == "wait":
            assert "Eve" not in live.names                # not her big blind yet
            assert "waits for the big blind" in h.rec.text(key)
        else:
            assert "Eve" in live.names                    # dealt in at once, posting a big blind
            seat = live.names.index("Eve")
            assert live.engine.options.posts == (Post(seat, live=20),)
            assert live.actions[0].endswith(f"; post p{seat + 1} 20 0")
            assert not h.service.table(key).seat_of(1002).waiting  # type: ignore[union-attr]


async def test_a_hand_run_twice_names_each_shown_hand_on_each_board(store: Store, db_path: Path) -> None:
    """At a run-it-twice showdown each shown hand is named on board 1 and on board 2 (the second
    board's winner was left unnamed), each as the slow reference values it."""
    h = Harness(store, db_path, rng=random.Random(4))
    await _flop_table(h, "texas-holdem", 100, 100, stakes=NO_LIMIT)
    await h.service.set_ruling(h.key, h.members["Ann"], "run_it_twice", "on")
    hand_id = await h.service.deal(h.key, h.members["Ann"])
    assert hand_id is not None
    first = h.prompt()
    await h.service.act(h.key, first.member, first.hand_id, first.turn, first.option("all_in").command)
    call = h.prompt()
    await h.service.act(h.key, call.member, call.hand_id, call.turn, call.option("call").command)
    for _ in range(2):
        ask = h.prompt()
        await h.service.act(h.key, ask.member, ask.hand_id, ask.turn, ask.option("run_twice").command)
    while h.service.table(h.key).hand is not None:
        await h.passive()
    engine, order, _ = rebuild(await store.get_hand(hand_id))
    assert len(engine.boards) == 2
    showdown = h.rec.showdowns(h.key)[-1].text
    for seat, seat_no in enumerate(order):
        name = ("Ann", "Bea")[seat_no - 1]                   # seated in seats 1 and 2
        line = next(line for line in showdown.splitlines() if line.startswith(f"{name} shows"))
        named = re.search(r"— board 1: (.+); board 2: (.+)$", line)
        assert named is not None, line
        for board, said in zip(engine.boards, named.groups(), strict=True):
            category = ref_high(holdem_fives(engine.down_cards(seat), board), ())[0]
            assert said.startswith(category.replace("_", " ").capitalize()), (name, board, said)
