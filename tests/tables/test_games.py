"""A table's game (issue 12): the game setting, dealer's choice with its timer, restarts and stale
answers, rulings that belong to games, and the game every hand records."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.engine.betting.stakes import PRESETS
from bot.engine.cards.card import Rank
from bot.engine.games.catalogue import GAMES
from bot.store import Store
from bot.tables.errors import NotDealer, StaleAction, TableError
from bot.tables.games import dealable, dealable_games
from bot.tables.notices import NoticeKind, TableKey
from bot.tables.options import TableOptions
from bot.tables.reveal import rebuild, viewer_history
from tests.tables.helpers import Harness

THREE = (("Ann", 500), ("Bea", 500), ("Cid", 500))
SITME, STUD, DEUCES = "sex-in-the-middle-east", "seven-card-stud", "deuces-wild"


async def open_table(h: Harness, *, game: str | None = None, games: str | None = None,
                     key: TableKey | None = None) -> TableKey:
    """Ann (101, the dealer), Bea (102) and Cid (103) in seats 1, 2 and 3."""
    key = key or h.key
    await h.service.create_table(key, 101, stakes=PRESETS["small"], game=game, games=games)
    for i, (name, buy_in) in enumerate(THREE):
        h.members[name] = 101 + i
        await h.service.join(key, 101 + i, name, buy_in=buy_in)
    return key


def hand_starts(h: Harness) -> list[str]:
    return h.texts(NoticeKind.HAND_START)


def dealer_of(start_line: str) -> str:
    """The dealer named in ``Hand #n: Ann deals to ...``."""
    return start_line.split(": ", 1)[1].split(" deals", 1)[0]


async def stored_game(h: Harness, key: TableKey | None = None) -> str:
    hand = (await h.store.table_hands(h.service.table(key or h.key).table_id, limit=1))[0]
    return hand.game


# ----------------------------------------------------------------------------- the table's game
async def test_new_tables_deal_sex_in_the_middle_east_and_the_hand_records_it(
    store: Store, db_path: Path
) -> None:
    h = Harness(store, db_path)
    await open_table(h)
    assert h.service.games(h.key).setting == SITME
    await h.service.deal(h.key, 101)
    live = h.service.table(h.key).hand
    assert live is not None and live.engine.game.name == SITME and live.game.name == SITME
    assert Rank.FIVE in live.engine.wild_ranks            # fives are wild from the first card
    assert await stored_game(h) == SITME
    assert "Sex in the Middle East" in hand_starts(h)[0]
    await h.passive()


async def test_game_change_waits_for_the_next_deal_and_is_announced_before_it(
    store: Store, db_path: Path
) -> None:
    h = Harness(store, db_path)
    await open_table(h)
    await h.service.deal(h.key, 101)
    text = await h.service.set_game(h.key, 101, "Seven Card Stud")
    assert "Sex in the Middle East → Seven-Card Stud" in text and "next deal" in text
    live = h.service.table(h.key).hand
    assert live is not None and live.engine.game.name == SITME      # the hand in progress keeps its game
    assert not any("Seven-Card Stud" in t for t in h.texts())
    await h.passive()
    await h.service.deal(h.key, 101)
    notices = h.rec.public(h.key)
    announced = [i for i, n in enumerate(notices)
                 if n.kind is NoticeKind.SETTINGS and "Seven-Card Stud" in n.text]
    second = next(i for i, n in enumerate(notices) if n.kind is NoticeKind.HAND_START and "Hand #2" in n.text)
    assert len(announced) == 1 and announced[0] < second
    assert GAMES[STUD].describe() in notices[announced[0]].text
    live = h.service.table(h.key).hand
    assert live is not None and live.engine.game.name == STUD
    assert not live.engine.wild_ranks                                # no wild cards in plain stud
    assert await stored_game(h) == STUD
    await h.passive()
    assert not h.service.table(h.key).hand
    history = (await h.store.table_hands(h.service.table(h.key).table_id, limit=2))
    assert [x.game for x in history] == [STUD, SITME]


async def test_game_setting_and_list_survive_a_restart(db_path: Path) -> None:
    store = await Store.open(db_path)
    h = Harness(store, db_path)
    await open_table(h, game=STUD, games=f"{STUD}, {SITME}")
    await h.service.set_game(h.key, 101, "dealers-choice")
    await h.service.close()
    await store.close()
    store2 = await Store.open(db_path)
    try:
        h2 = Harness(store2, db_path)
        await h2.service.start()
        games = h2.service.games(h.key)
        assert (games.setting, games.pending, games.allowed) == (STUD, "dealers-choice", (STUD, SITME))
    finally:
        await h2.service.close()
        await store2.close()


async def test_bad_game_input_is_refused_and_changes_nothing(store: Store, db_path: Path) -> None:
    h = Harness(store, db_path)
    await open_table(h, games=f"{STUD},{SITME}")
    before = h.service.games(h.key)
    with pytest.raises(TableError, match="Unknown game 'blackjack'"):
        await h.service.set_game(h.key, 101, "blackjack")
    with pytest.raises(NotDealer):
        await h.service.set_game(h.key, 102, STUD)
    with pytest.raises(TableError, match="Unknown game"):
        await h.service.set_games(h.key, 101, [STUD, "blackjack"])
    with pytest.raises(TableError, match="at least one game"):
        await h.service.set_games(h.key, 101, " , ")
    with pytest.raises(NotDealer):
        await h.service.set_games(h.key, 102, [STUD])
    with pytest.raises(TableError, match="Unknown game"):
        await h.service.create_table(TableKey(1, 555), 101, game="blackjack")
    assert not h.service.has_table(TableKey(1, 555))
    assert h.service.games(h.key) == before
    not_yet = [name for name in GAMES if not dealable(name)]
    if not_yet:         # games the engine does not deal yet are refused, not stored
        with pytest.raises(TableError, match="cannot be dealt yet"):
            await h.service.set_game(h.key, 101, not_yet[0])
        assert h.service.games(h.key) == before


# ----------------------------------------------------------------------------- rulings belong to games
async def test_a_ruling_of_another_game_is_refused_with_the_games_rulings(
    store: Store, db_path: Path
) -> None:
    h = Harness(store, db_path)
    await open_table(h, game=STUD)
    with pytest.raises(TableError) as refused:
        await h.service.set_ruling(h.key, 101, "five_follows_five", "absorb")
    reason = refused.value.reason
    assert "does not apply to seven-card-stud" in reason
    assert all(name in reason for name in GAMES[STUD].rulings)
    with pytest.raises(TableError, match="not an option"):
        await h.service.set_ruling(h.key, 101, "open_pair_double", "wild-aware")   # no wilds in stud
    assert h.service.table(h.key).pending_rulings is None
    assert "raise_cap: 3 → 4" in await h.service.set_ruling(h.key, 101, "raise_cap", "4")
    assert h.service.games(h.key).rulings == GAMES[STUD].rulings

    # Under dealer's choice a ruling applies if one of the allowed games has it.
    await h.service.set_game(h.key, 101, "dealers-choice")
    await h.service.set_games(h.key, 101, [STUD])
    with pytest.raises(TableError, match="none of this table's games"):
        await h.service.set_ruling(h.key, 101, "follow_target", "next-card-void")
    await h.service.set_games(h.key, 101, [STUD, SITME])
    assert "follow_target" in await h.service.set_ruling(h.key, 101, "follow_target", "next-card-void")


async def test_a_game_without_an_option_deals_with_its_default(store: Store, db_path: Path) -> None:
    """``wild-aware`` open pairs (a Sex in the Middle East option) cannot deal plain stud: that
    hand uses stud's default for it, and the table keeps its ruling for the games that have it."""
    h = Harness(store, db_path)
    await open_table(h)
    await h.service.set_ruling(h.key, 101, "open_pair_double", "wild-aware")
    await h.service.set_game(h.key, 101, STUD)
    await h.service.deal(h.key, 101)
    live = h.service.table(h.key).hand
    assert live is not None and live.engine.game.name == STUD
    assert live.rulings.open_pair_double == "natural-pair"
    assert h.service.table(h.key).rulings.open_pair_double == "wild-aware"
    await h.passive()
    # The hand keeps the rulings it was dealt under and its game, so it rebuilds as it was played.
    record = (await h.store.table_hands(h.service.table(h.key).table_id, limit=1))[0]
    assert record.game == STUD and record.rulings["open_pair_double"] == "natural-pair"
    engine, _, _ = rebuild(record)
    assert engine.game.name == STUD and engine.result is not None
    assert "p1" in viewer_history(record, 101)


# ----------------------------------------------------------------------------- dealer's choice
async def test_dealers_choice_asks_the_button_and_only_they_choose(store: Store, db_path: Path) -> None:
    h = Harness(store, db_path)
    await open_table(h, game="dealers-choice", games=f"{SITME}, {STUD}")
    assert await h.service.deal(h.key, 101) is None
    assert h.service.table(h.key).hand is None                    # no card before the choice
    (asked,) = h.rec.choices(h.key)
    # The first deal's button is the first ready seat (seat 1, Ann): she deals and chooses.
    assert (asked.member, asked.name) == (101, "Ann")
    assert [name for name, _ in asked.games] == [SITME, STUD]
    assert dict(asked.games)[STUD] == GAMES[STUD].describe()
    assert asked.fallback == SITME and asked.deadline is None          # NO_TIMERS: no timer
    with pytest.raises(TableError, match="Ann deals this hand"):
        await h.service.choose_game(h.key, 102, asked.choice_id, STUD)
    with pytest.raises(TableError, match="not on this table's list"):
        await h.service.choose_game(h.key, 101, asked.choice_id, DEUCES)
    with pytest.raises(TableError, match="choosing the game"):
        await h.service.deal(h.key, 101)
    assert h.service.table(h.key).hand is None and h.service.pending_choice(h.key) is not None
    hand_id = await h.service.choose_game(h.key, 101, asked.choice_id, "seven card stud")
    assert hand_id is not None
    live = h.service.table(h.key).hand
    assert live is not None and live.hand_id == hand_id and live.engine.game.name == STUD
    chosen = [t for t in h.texts(NoticeKind.SETTINGS) if t.startswith("Ann chooses")]
    assert len(chosen) == 1 and GAMES[STUD].describe() in chosen[0]
    assert "raise_cap 3" in chosen[0] and "follow_target" not in chosen[0]   # the game's rulings only
    assert dealer_of(hand_starts(h)[0]) == "Ann"
    with pytest.raises(StaleAction, match="already chosen"):           # a second click, or a stale menu
        await h.service.choose_game(h.key, 101, asked.choice_id, SITME)
    assert live.engine.game.name == STUD
    await h.passive()
    assert await stored_game(h) == STUD


async def test_dealers_choice_timer_falls_back_to_the_default_game(store: Store, db_path: Path) -> None:
    h = Harness(store, db_path, options=TableOptions(turn_timeout=45, reminder_after=None))
    await open_table(h, game="dealers-choice", games=f"{STUD}, {SITME}")
    await h.service.deal(h.key, 101)
    (asked,) = h.rec.choices(h.key)
    assert asked.deadline == 45
    await h.clock.advance(44)
    assert h.service.table(h.key).hand is None
    await h.clock.advance(1)
    live = h.service.table(h.key).hand
    assert live is not None and live.engine.game.name == SITME
    assert any(t.startswith("Ann did not choose in time") for t in h.texts(NoticeKind.SETTINGS))
    with pytest.raises(StaleAction):
        await h.service.choose_game(h.key, 101, asked.choice_id, STUD)
    assert h.service.pending_choice(h.key) is None


async def test_fallback_is_the_first_allowed_game_without_the_default(store: Store, db_path: Path) -> None:
    h = Harness(store, db_path, options=TableOptions(turn_timeout=10, reminder_after=None))
    await open_table(h, game="dealers-choice", games=STUD)
    await h.service.deal(h.key, 101)
    await h.clock.advance(10)
    live = h.service.table(h.key).hand
    assert live is not None and live.engine.game.name == STUD


async def test_a_restart_during_the_choice_asks_again_and_the_old_menu_is_stale(db_path: Path) -> None:
    store = await Store.open(db_path)
    h = Harness(store, db_path)
    await open_table(h, game="dealers-choice", games=f"{SITME},{STUD}")
    await h.service.deal(h.key, 101)
    (first,) = h.rec.choices(h.key)
    await h.service.close()
    await store.close()                       # the process dies while Ann chooses

    store2 = await Store.open(db_path)
    try:
        h2 = Harness(store2, db_path)
        await h2.service.start()
        (again,) = h2.rec.choices(h.key)
        assert (again.member, again.games) == (first.member, first.games)
        assert again.choice_id != first.choice_id
        assert any("restarted while Ann was choosing" in t for t in h2.texts(NoticeKind.INFO))
        assert h2.service.table(h.key).hand is None
        # The old menu is told the truth: the question was asked again (not "already chosen").
        with pytest.raises(StaleAction, match="asked again after the bot restarted: Ann chooses"):
            await h2.service.choose_game(h.key, 101, first.choice_id, STUD)
        with pytest.raises(StaleAction, match="asked again after the bot restarted"):
            h2.service.check_choice(h.key, 101, first.choice_id)
        with pytest.raises(StaleAction, match="never asked that question"):   # a forged number
            h2.service.check_choice(h.key, 101, again.choice_id + 5)
        await h2.service.choose_game(h.key, 101, again.choice_id, STUD)
        with pytest.raises(StaleAction, match="already chosen"):
            await h2.service.choose_game(h.key, 101, first.choice_id, STUD)
        live = h2.service.table(h.key).hand
        assert live is not None and live.engine.game.name == STUD
        await h2.passive()
        assert (await store2.audit()).ok
    finally:
        await h2.service.close()
        await store2.close()


async def test_three_dealers_in_a_row_pick_three_games(store: Store, db_path: Path) -> None:
    h = Harness(store, db_path, rng=random.Random(5))
    picks = [STUD, SITME, DEUCES if dealable(DEUCES) else STUD]
    await open_table(h, game="dealers-choice")
    choosers: list[str] = []
    for n, pick in enumerate(picks, 1):
        await h.service.deal(h.key, 101)
        asked = h.rec.choices(h.key)[-1]
        choosers.append(asked.name)
        await h.service.choose_game(h.key, asked.member, asked.choice_id, pick)
        live = h.service.table(h.key).hand
        assert live is not None and live.hand_no == n and live.engine.game.name == pick
        assert dealer_of(hand_starts(h)[-1]) == asked.name          # the chooser deals it
        await h.passive()
    assert choosers == ["Ann", "Bea", "Cid"]                         # the button moves a seat a hand
    hands = await h.store.table_hands(h.service.table(h.key).table_id, limit=3)
    assert [x.game for x in reversed(hands)] == picks


async def test_closing_the_table_during_a_choice_cancels_its_timer(store: Store, db_path: Path) -> None:
    h = Harness(store, db_path, options=TableOptions(turn_timeout=30, reminder_after=None))
    await open_table(h, game="dealers-choice")
    await h.service.deal(h.key, 101)
    assert h.clock.pending == 1
    await h.service.close_table(h.key, 101)
    assert h.clock.pending == 0
    await h.clock.advance(60)
    assert not h.service.has_table(h.key)


async def test_a_choice_lapses_when_the_chooser_is_gone_and_the_button_is_asked(
    store: Store, db_path: Path
) -> None:
    h = Harness(store, db_path)
    await open_table(h, game="dealers-choice")
    await h.service.deal(h.key, 101)
    (first,) = h.rec.choices(h.key)
    assert first.name == "Ann"
    await h.service.sit_out(h.key, 101)            # Ann walks away from the menu
    await h.service.deal(h.key, 101)                # the dealer deals again: Bea's seat has the button
    second = h.rec.choices(h.key)[-1]
    assert second.name == "Bea" and second.choice_id != first.choice_id
    with pytest.raises(StaleAction):
        await h.service.choose_game(h.key, 101, first.choice_id, STUD)
    await h.service.choose_game(h.key, 102, second.choice_id, STUD)
    live = h.service.table(h.key).hand
    assert live is not None and live.members == (103, 102)   # Cid then Bea (the button)


@pytest.mark.parametrize("game", [g for g in dealable_games() if g != SITME])
async def test_every_game_deals_and_finishes_at_a_table(store: Store, db_path: Path, game: str) -> None:
    # Each game of the family plays a whole hand at the table service with its default rulings, and
    # every chip is accounted for afterwards.
    h = Harness(store, db_path, rng=random.Random(len(game)))
    await open_table(h, game=game)
    await h.service.deal(h.key, 101)
    assert await stored_game(h) == game
    await h.passive()
    assert h.service.table(h.key).hand is None
    await h.audit_ok()


@pytest.mark.parametrize(("game", "first"), [
    ("seven-card-stud", "no wild cards"), ("deuces-wild", "twos are wild"),
    ("follow-the-queen", "queens are wild"), ("baseball", "threes and nines are wild"),
    (SITME, "fives are wild"),
])
async def test_the_wild_list_names_the_games_own_wild_ranks(
    store: Store, db_path: Path, game: str, first: str
) -> None:
    # A newcomer saw "fives are wild" above plain stud: the wild list now comes from the game.
    h = Harness(store, db_path)
    await open_table(h, game=game)
    await h.service.deal(h.key, 101)
    snap = h.service.snapshot(h.key)
    assert snap.wilds[0] == first
    assert set(snap.wild_ranks) == set(h.service.table(h.key).hand.engine.wild_ranks)  # type: ignore[union-attr]
    await h.passive()
