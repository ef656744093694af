"""``wildstud play`` and the games (issue 12): ``--game NAME``, ``--game dealers-choice`` (the human
picks at their deal, computer players pick at random from the list), and ``game``/``games`` between
hands."""

from __future__ import annotations

import asyncio
import io
import os
import re
import subprocess
import sys
from pathlib import Path

from bot.console.game import GUILD, PlayConfig, play
from bot.engine.games.catalogue import GAMES
from bot.store import Store
from bot.tables.games import dealable_games

ROOT = Path(__file__).resolve().parents[2]


def run(config: PlayConfig, typed: str = "") -> str:
    out = io.StringIO()
    assert asyncio.run(play(config, io.StringIO(typed), out)) == 0
    return out.getvalue()


def stored_games(db: Path) -> list[str]:
    """The game of every hand in the terminal's database, oldest first."""
    async def read() -> list[str]:
        async with await Store.open(db) as store:
            return [g for _, g in sorted((await store.hand_games(GUILD)).items())]
    return asyncio.run(read())


def test_auto_dealers_choice_computer_players_pick_from_the_list_reproducibly(tmp_path: Path) -> None:
    db = tmp_path / "auto.sqlite3"
    config = PlayConfig(db=db, bots=3, auto=True, hands=3, seed=11, game="dealers-choice")
    text = run(config)
    again = tmp_path / "again.sqlite3"      # the same seed on another file: the same run, but its path
    second = run(PlayConfig(db=again, bots=3, auto=True, hands=3, seed=11, game="dealers-choice"))
    assert text.replace(str(db), "DB") == second.replace(str(again), "DB")
    assert text.count("Dealer's choice: ") == 3
    picks = re.findall(r"^(\w+) chooses ([^:]+):", text, re.MULTILINE)
    titles = {GAMES[name].title: name for name in dealable_games()}
    assert len(picks) == 3 and all(title in titles for _, title in picks)
    # The player who chooses is the one who deals the hand, and the hand is dealt as that game.
    dealers = re.findall(r"Hand #\d+: (\w+) deals to [^.]+\. ([^,]+),", text)
    assert [(who, titles[t]) for who, t in picks] == [(who, titles[t]) for who, t in dealers]
    assert len({who for who, _ in dealers}) == 3                 # the deal moves round the table
    assert stored_games(db) == [titles[t] for _, t in picks]


def test_the_human_picks_the_game_when_it_is_their_deal(tmp_path: Path) -> None:
    db = tmp_path / "human.sqlite3"
    # Enter deals; Ann (seat 1) is on the button of the first deal and chooses: a game not on the
    # list is refused with the reason, then she types one by name.
    text = run(PlayConfig(db=db, humans=["Ann"], bots=2, seed=3, game="dealers-choice"),
               "\nblackjack\nseven card stud\nq\n")
    assert "Ann, you deal: choose the game" in text
    assert "No game here is called 'blackjack'" in text          # the refusal of blackjack
    assert "Ann chooses Seven-Card Stud: seven-card stud, no wild cards" in text
    assert re.search(r"Hand #1: Ann deals to [^.]+\. Seven-Card Stud,", text)
    assert stored_games(db) == ["seven-card-stud"]


def test_game_commands_between_hands_and_the_setting_is_kept(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    text = run(PlayConfig(db=db, humans=["Ann"], bots=1, seed=2),
               "games\ngame blackjack\ngame seven-card-stud\nrulings\nq\n")
    for name in dealable_games():
        assert f"{name}: {GAMES[name].rules}" in text
    assert "Unknown game 'blackjack'" in text
    assert "Sex in the Middle East → Seven-Card Stud" in text
    rulings = text.split("Takes effect from the next deal.")[1]
    assert "raise_cap: 3 (default)" in rulings and "follow_target" not in rulings   # stud's rulings
    # The next run deals the game set before quitting, announced before the hand.
    again = run(PlayConfig(db=db, humans=["Ann"], bots=1, seed=2), "\nq\n")
    assert again.startswith("Wildstud: Seven-Card Stud\n")       # the banner names it too
    assert again.index("Game: Sex in the Middle East → Seven-Card Stud") < again.index("Hand #1:")
    assert re.search(r"Hand #1: \w+ deals to [^.]+\. Seven-Card Stud,", again)


def test_play_game_option() -> None:
    env = {**os.environ, "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"}
    bad = subprocess.run([sys.executable, "-m", "bot", "play", "--auto", "--game", "blackjack"],
                         capture_output=True, text=True, cwd=ROOT, env=env, timeout=60, check=False)
    assert bad.returncode == 2 and "--game: Unknown game 'blackjack'" in bad.stderr
    text = run(PlayConfig(db=None, bots=2, auto=True, hands=1, seed=5, game="seven-card-stud"))
    assert "Wildstud: Seven-Card Stud" in text
    assert re.search(r"Hand #1: \w+ deals to [^.]+\. Seven-Card Stud,", text)


def test_each_family_names_its_own_forced_bets() -> None:
    """The stakes line says what the game posts: stud an ante and a bring-in, Hold'em blinds,
    five-card draw an ante (it said "blinds 10/20" and then took antes)."""
    expected = {"seven-card-stud": "ante 5 and bring-in 10", "texas-holdem": "blinds 10/20",
                "five-card-draw": "ante 5", "badugi": "blinds 10/20"}
    for game, forced in expected.items():
        text = run(PlayConfig(db=None, bots=3, auto=True, hands=1, seed=5, game=game))
        head = re.search(r"Hand #1: [^\n]*", text)
        assert head is not None and head.group(0).endswith(f", {forced}."), (game, head)
        opened = re.search(r"Table open: ([^;]*);", text)
        assert opened is not None and opened.group(1).endswith(forced), (game, opened)


def test_a_bomb_pot_call_is_announced_once() -> None:
    """``bomb-pot next`` printed its confirmation and then the table's own notice of it, the same
    line twice; a second call (nothing changes) still gets its answer."""
    text = run(PlayConfig(db=None, bots=3, auto=False, hands=1, seed=5, game="texas-holdem"),
               "bomb-pot next\nbomb-pot next\nbomb-pot next\nquit\n")
    assert text.count("Bomb pot for the next flop hand: everyone antes") == 1
    assert text.count("A bomb pot is already called for the next flop hand.") == 2   # each repeat answered


def test_a_stakes_change_at_a_blinds_table_is_said_in_blinds() -> None:
    """New stakes at an Omaha table were announced in stud's words ('ante 5 and bring-in 10')
    while the hand then posted blinds."""
    text = run(PlayConfig(db=None, bots=3, auto=False, hands=1, seed=5, game="omaha"),
               "stakes pot-limit\n\nq\n")
    changes = re.findall(r"Stakes: [^\n]*", text)
    assert changes and all(c == "Stakes: fixed limit 20/40, blinds 10/20 → pot limit, blinds 10/20"
                           for c in changes), changes


def test_bomb_pot_numbers_out_of_range_are_refused_in_the_commands_words() -> None:
    """``bomb-pot every 0`` answered with an internal field name ("bomb_pot_every must be a whole
    number above zero (or none)")."""
    text = run(PlayConfig(db=None, bots=3, auto=False, hands=1, seed=5, game="texas-holdem"),
               "bomb-pot every 0\nbomb-pot next ante 0\nq\n")
    assert "bomb_pot" not in text
    assert "bomb-pot every N takes N from 1 to 1,000" in text and "ante is at least 1" in text


def test_a_player_seated_again_in_a_blinds_game_hears_they_wait_for_the_big_blind(tmp_path: Path) -> None:
    """Broke, staked again and seated: the next hand was dealt without them and nothing said why
    (they wait for the big blind, as a newcomer does)."""
    text = run(PlayConfig(db=tmp_path / "t.sqlite3", humans=["Player"], bots=3, auto=False, seed=31,
                          game="texas-holdem", stakes="no-limit"), "\nraise 7\nraise 70\nall in\n\nq\n")
    assert "the house stakes them 1,000" in text
    assert "Player sits down in seat 1 with 1,000 chips. Player is dealt in when the big blind comes round." \
        in text


def test_a_bad_game_choice_gets_one_line_not_the_menu_again() -> None:
    """A dealer's bad entry reprinted the whole numbered menu and then every game's name."""
    text = run(PlayConfig(db=None, humans=["Ann"], bots=2, auto=False, seed=4, game="dealers-choice"),
               "\nfoo\n99\nomaha\nq\n")
    assert text.count("you deal: choose the game") == 1 and text.count("  12) Omaha:") == 1
    assert "No game here is called 'foo': type its number (1 to 18) or its name" in text
    assert "No game here is called '99'" in text and "Ann chooses Omaha" in text
