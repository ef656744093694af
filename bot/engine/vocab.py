"""The one vocabulary of a hand: street names, action names and their words, name normalisation.

Every module that names a street or an action in words takes it from here: the engine (its
``repr`` and refusals), ``Command`` (what players type, PHH, labels), the narrators (the live table
log and ``wildstud replay``), the Discord buttons and the terminal. Poker's standard terms
(bring-in, complete, bet, raise, call, check, fold, all-in, show, muck; third to seventh street).

>>> street_name(3), street_ordinal(7), normalise(" All-In "), normalise("allin")
('third street', '7th', 'all_in', 'all_in')
>>> stage_name(24, "draw"), stage_name(24), stage_name(11, "run_twice"), stage_name(4, "buy")
('the draw', 'after the draw', 'pre-flop', 'fourth street')
>>> action_phrase("raise", 40, 40), action_phrase("call", 20, 60), imperative("all_in", 990)
('raises to 40', 'calls 20', 'go all-in for 990')
>>> button_label("raise", 40, 40, 980), button_label("bring_in", 10)
('Raise to 40-980', 'Bring-in 10')
"""

from __future__ import annotations

from collections.abc import Callable

STREET_NAMES: dict[int, str] = {
    3: "third street", 4: "fourth street", 5: "fifth street", 6: "sixth street", 7: "seventh street",
    10: "pre-flop", 11: "flop", 12: "turn", 13: "river",
    20: "before the draw", 21: "after the first draw", 22: "after the second draw",
    23: "after the third draw", 24: "after the draw",
}
"""Street number -> its name: stud's 3..7, the flop games' 10..13, the draw games' betting rounds
20..24 (20 before any draw, 21-23 after the first to third draw of a triple draw game, 24 after a
single draw game's one draw; ``bot.engine.games.streets``)."""

DRAW_NAMES: dict[int, str] = {21: "first draw", 22: "second draw", 23: "third draw", 24: "the draw"}
"""A draw game's betting round -> the name of the draw before it, while the players choose their
cards: "after the draw" is the betting once everyone has drawn."""

BOARD_BEFORE: dict[int, int] = {11: 10, 12: 11, 13: 12}
"""A flop game's board street -> the street before it: the questions asked before a street's board
cards (run it twice, Crazy Pineapple's discard) are asked where the hand stands, on the street
before (the flop games' numbers, ``bot.engine.games.streets``)."""

STREET_ORDINALS: dict[int, str] = {3: "3rd", 4: "4th", 5: "5th", 6: "6th", 7: "7th",
                                   10: "pre-flop", 11: "flop", 12: "turn", 13: "river"}
"""Street number -> the short form used in the wild list."""

WAGERS = ("complete", "bet", "raise")
"""The engine's names for a voluntary wager; only one of them is legal at a time."""

ALIASES: dict[str, str] = {
    "f": "fold", "fold": "fold",
    "k": "check", "x": "check", "check": "check",
    "c": "call", "call": "call",
    "cc": "check_or_call", "check_or_call": "check_or_call",
    "bi": "bring_in", "bring": "bring_in", "bring_in": "bring_in", "bringin": "bring_in",
    "complete": "complete", "comp": "complete",
    "b": "bet", "bet": "bet", "r": "raise", "raise": "raise",
    "a": "all_in", "allin": "all_in", "all_in": "all_in", "shove": "all_in", "jam": "all_in",
    "show": "show", "muck": "muck",
    "draw": "draw", "stand": "stand", "stand_pat": "stand", "pat": "stand",
    "pay": "pay", "buy": "buy", "decline": "decline", "discard": "discard",
    "run_twice": "run_twice", "twice": "run_twice", "rit": "run_twice",
    "run_once": "run_once", "once": "run_once",
}
"""What a player may type for each action (the terminal's short forms included) -> its name."""

_THIRD_PERSON: dict[str, Callable[[str, str], str]] = {
    "ante": lambda paid, to: f"antes {paid}",
    "small_blind": lambda paid, to: f"posts the small blind of {paid}",
    "big_blind": lambda paid, to: f"posts the big blind of {paid}",
    "straddle": lambda paid, to: f"straddles for {paid}",
    "dead_blind": lambda paid, to: f"posts a dead blind of {paid}",
    "bring_in": lambda paid, to: f"brings in for {paid}",
    "complete": lambda paid, to: f"completes to {to}",
    "bet": lambda paid, to: f"bets {to}",
    "raise": lambda paid, to: f"raises to {to}",
    "call": lambda paid, to: f"calls {paid}",
    "check": lambda paid, to: "checks",
    "fold": lambda paid, to: "folds",
    "show": lambda paid, to: "shows",
    "muck": lambda paid, to: "mucks",
    "pay": lambda paid, to: f"pays {paid} to match the pot",
    "buy": lambda paid, to: f"buys the extra card for {paid}",
    "decline": lambda paid, to: "declines the extra card",
    "draw": lambda paid, to: "stands pat" if to == "0" else f"draws {to}",
    "discard": lambda paid, to: "discards",
    "run_twice": lambda paid, to: "agrees to run it twice",
    "run_once": lambda paid, to: "runs it once",
}

_IMPERATIVE = {
    "fold": "fold", "check": "check", "call": "call", "check_or_call": "check or call",
    "bring_in": "bring in", "complete": "complete to", "bet": "bet", "raise": "raise to",
    "all_in": "go all-in for", "show": "show", "muck": "muck", "timeout": "time out",
    "draw": "draw", "stand": "stand pat",
    "pay": "pay", "buy": "buy the card for", "decline": "decline the card", "discard": "discard",
    "run_twice": "run it twice", "run_once": "run it once",
}

_BARE = {"check_or_call": "check or call", "bring_in": "bring in", "all_in": "go all-in",
         "timeout": "time out", "run_twice": "run it twice", "run_once": "run it once",
         "stand": "stand pat"}

_BUTTON_HEADS = {
    "fold": "Fold", "check": "Check", "call": "Call", "bring_in": "Bring-in", "complete": "Complete to",
    "bet": "Bet", "raise": "Raise to", "all_in": "All-in", "show": "Show", "muck": "Muck",
    "draw": "Draw", "stand": "Stand pat",
    "pay": "Pay", "buy": "Buy card", "decline": "Decline", "discard": "Discard",
    "run_twice": "Run it twice", "run_once": "Run it once",
}

_NO_AMOUNT = ("fold", "check", "show", "muck", "decline", "run_twice", "run_once", "stand")


def normalise(name: str) -> str:
    """A name as the code spells it: trimmed, lower case, ``-`` and spaces as ``_``; ``allin`` and
    ``bringin`` (the hyphen dropped) mean ``all_in`` and ``bring_in``. Used for actions and
    ruling names alike."""
    text = "_".join(name.strip().lower().replace("-", " ").replace("_", " ").split())
    return {"allin": "all_in", "bringin": "bring_in"}.get(text, text)


def street_name(street: int) -> str:
    """``third street`` .. ``seventh street`` (``street N`` outside 3..7)."""
    return STREET_NAMES.get(street, f"street {street}")


def stage_name(street: int, decision: str | None = None) -> str:
    """Where a hand on ``street`` stands while it waits for ``decision`` (the kind of the pending
    ``Decision``, None at a bet), as the table names it to everyone: a draw names the draw
    (``the draw``, ``first draw``; the street's own name, ``after the draw``, is its betting); run it
    twice and a discard are asked before the street's board cards, on the street before (``pre-flop``
    when the flop is next); otherwise (a bet, a baseball card's question) the street's name."""
    if decision == "draw" and street in DRAW_NAMES:
        return DRAW_NAMES[street]
    if decision in ("run_twice", "discard"):
        return street_name(BOARD_BEFORE.get(street, street))
    return street_name(street)


def street_ordinal(street: int) -> str:
    """``3rd`` .. ``7th`` (the short form used in the wild list)."""
    return STREET_ORDINALS.get(street, str(street))


def action_phrase(action: str, paid: object, to: object) -> str:
    """What a seat did, in the third person: ``brings in for 10``, ``raises to 40``, ``calls 20``.

    ``action``: a log action name (``bot.engine.log.ACTIONS``); ``paid``: the chips put in with it
    and ``to``: the street total after it, already written as the caller wants them shown (``1,000``
    at the table, ``1000`` in a replay). An unknown name is written with spaces.
    """
    phrase = _THIRD_PERSON.get(action)
    return phrase(str(paid), str(to)) if phrase is not None else action.replace("_", " ")


def verb(action: str) -> str:
    """An action's name in words, without an amount: ``bring in``, ``go all-in``, ``raise``."""
    return _BARE.get(action, action.replace("_", " "))


def imperative(action: str, amount: str | int | None = None) -> str:
    """What a player chose, as they would say it before the amount: ``call 10``, ``raise to 80``,
    ``fold``; without an amount the words the amount would follow (``raise to``, ``go all-in for``)."""
    verb = _IMPERATIVE.get(action, action.replace("_", " "))
    if amount is None or action in _NO_AMOUNT:
        return verb
    return f"{verb} {amount:,}" if isinstance(amount, int) else f"{verb} {amount}"


def button_label(action: str, amount: int | None = None, min_to: int | None = None,
                 max_to: int | None = None) -> str:
    """The label of an action's button: ``Fold``, ``Call 10``, ``Bring-in 10``, ``Complete to 20``,
    ``Bet 40``, ``Raise to 80``, ``Raise to 40-980`` (a range: the player names the amount),
    ``All-in 990``, ``Show``, ``Muck``; at most 80 characters (Discord's limit)."""
    head = _BUTTON_HEADS.get(action, action.replace("_", " ").title())
    if action in WAGERS and min_to is not None and max_to is not None and min_to != max_to:
        return f"{head} {min_to:,}-{max_to:,}"[:80]
    if amount is None or action in _NO_AMOUNT:
        return head[:80]
    return f"{head} {amount:,}"[:80]
