"""What a player may type at the terminal table, turned into a table-service action.

Accepted: the number of an option, or words -- ``fold`` (``f``), ``check`` (``k``), ``call``
(``c``), ``bring in`` (``bi``), ``complete``, ``bet 40`` / ``raise 80`` / ``raise to 80``
(``b``/``r``; in fixed limit the amount may be left out), ``all in`` (``a``, ``allin``, ``shove``),
at the showdown ``show`` or ``muck``, and at a decision its choices (Baseball: ``pay`` or ``fold``,
``buy`` or ``decline``; a draw game's draw: ``draw 1 3`` (the places of the cards to throw away, as
the terminal numbers your hand), ``draw Kh 5c`` (the cards), or ``stand``).
"Bet", "raise" and "complete" all mean the one wager allowed now. Amounts are street totals ("to").
An amount that does not fit is refused with what would: below zero, a fixed-limit total that is
not one of the listed ones, or a number after ``call``/``check``/``fold``/``all in`` other than
the chips that action puts in.

>>> from bot.tables.notices import ActionOption, Prompt
>>> p = Prompt(1, "Ann", 7, 3, (ActionOption("fold", label="fold"),
...            ActionOption("call", 10, label="call 10"),
...            ActionOption("raise", 40, 40, 40, label="raise to 40")), "")
>>> [parse_action(t, p).text for t in ("2", "r", "raise to 40", "c")]
['call', 'raise 40', 'raise 40', 'call']
>>> try:
...     parse_action("dance", p)
... except InputError as exc:
...     print(exc)
I don't understand 'dance'. Type a number (1-3) or one of: fold, call 10, raise to 40 (? for help).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.engine import vocab
from bot.engine.cards.card import Card, parse_cards
from bot.engine.command import Command, Kind
from bot.render.cards import chips
from bot.tables.notices import ActionOption, Prompt

WAGERS = vocab.WAGERS

_WORDS = {word: name for word, name in vocab.ALIASES.items() if name != "check_or_call"}
"""The words of ``bot.engine.vocab.ALIASES``; ``cc`` (check or call) is PHH's, not the terminal's."""

HELP = (
    "Type the number of an option, or: fold (f), check (k), call (c), bring in (bi), complete,\n"
    "bet N / raise N (b N, r N: N is your total for this street), all in (a);\n"
    "at the showdown, when a hand shown beats yours: show, or muck (give up the pot unseen);\n"
    "Baseball's questions: pay or fold (a face-up three), buy or decline (a face-up four);\n"
    "run twice or run once (everyone all-in, run it twice on); discard CARD (Crazy Pineapple).\n"
    "Draw games: draw 1 3 (throw away your 1st and 3rd cards), draw Kh 5c (those cards), stand.\n"
    "Other commands: cards (your cards again), table (the table), chips (everyone's chips),\n"
    "openings (your down cards' openings, to check against the deck after the hand),\n"
    "rulings (this hand's rulings), ruling NAME VALUE (change one from the next deal), help (?), quit (q),\n"
    "void [reason] (you deal: call a misdeal, the hand is void and every chip goes back)."
)


ECHO_LIMIT = 40
"""How much of a line the terminal repeats back when it does not understand it."""


def echo(text: str) -> str:
    """A typed line quoted back, cut to ``ECHO_LIMIT`` characters (a pasted page is not repeated).

    >>> echo("dance")
    "'dance'"
    >>> len(echo("x" * 5000)), echo("x" * 5000)[-3:]
    (43, "x…'")
    """
    text = text.strip()
    return repr(text if len(text) <= ECHO_LIMIT else text[:ECHO_LIMIT] + "…")


class InputError(ValueError):
    """The text is not an action; ``str(error)`` says why and what to type instead."""


MAX_DIGITS = 15
"""The longest number the terminal reads (more than all the chips there are); longer is refused
before ``int`` is asked (Python refuses 4,300 digits, and a pasted page is not an amount)."""


def is_number(word: str) -> bool:
    """Whether ``word`` is written in ASCII digits: ``str.isdigit`` alone also accepts "²" and "٣",
    which ``int`` refuses or reads as another number.

    >>> is_number("40"), is_number("²"), is_number("٣"), is_number("")
    (True, False, False, False)
    """
    return word.isascii() and word.isdigit()


def number(word: str) -> int:
    """``word`` (ASCII digits, see ``is_number``) as an int, or ``InputError`` if it is too long.

    >>> try:
    ...     number("9" * 5000)
    ... except InputError as exc:
    ...     print(exc)
    '9999999999999999999999999999999999999999…' is too large a number.
    """
    if len(word) > MAX_DIGITS:
        raise InputError(f"{echo(word)} is too large a number.")
    return int(word)


def _amount(text: str) -> int:
    cleaned = text.replace(",", "").replace("_", "")
    if not is_number(cleaned):
        raise InputError(f"{echo(text)} is not a number of chips.")
    return number(cleaned)


def _choices(prompt: Prompt) -> str:
    return ", ".join(o.label for o in prompt.options)


_NEGATIVE = re.compile(r"(?:^|[\s(])-\s*\d")


def _no_amount(action: str, rest: list[str], prompt: Prompt) -> None:
    """Refuse a number typed after an action that takes none, unless it is exactly the chips that
    action puts in (``call 20`` when the call is 20)."""
    numbers = [w for w in rest if _is_amount(w)]
    if not numbers:
        return
    typed = _amount(numbers[0])
    option = prompt.option(action)
    if option is not None and option.amount is not None and typed == option.amount:
        return
    if action == "call":
        call = prompt.option("call")
        if call is None:
            raise InputError(f"There is nothing to call. Your options: {_choices(prompt)}.")
        raise InputError(
            f"The call is {chips(call.amount or 0)}. To bet or raise, type raise N (N is your total)."
        )
    word = action.replace("_", " ")
    raise InputError(f"{word} takes no amount. Your options: {_choices(prompt)}.")


def _is_amount(word: str) -> bool:
    return is_number(word.replace(",", "").replace("_", ""))


def _nothing_more(action: str, rest: list[str], prompt: Prompt) -> None:
    """Refuse words after the action other than one amount (``call 33 please`` is not a call: a
    player who typed more than the action may have meant something else)."""
    # A wager's first word is its amount (a word that is not a number is refused as such below).
    extra = rest[1:] if rest and (action in WAGERS or _is_amount(rest[0])) else rest
    if not extra:
        return
    example = action.replace("_", " ")
    wager = next((o for o in prompt.options if o.action in WAGERS), None)
    if action in WAGERS and wager is not None:
        example = f"{wager.action} {wager.min_to if wager.needs_amount else wager.amount}"
    raise InputError(
        f"I don't understand {echo(' '.join(extra))} after {action.replace('_', ' ')}: type the "
        f"action alone, with an amount only for a bet or raise (e.g. {example})."
    )


_DRAW_HOW = "draw 1 3 (the places of the cards to throw away), draw Kh 5c (the cards), or stand"


def parse_draw(words: list[str], hand: Sequence[Card]) -> Command:
    """A draw: ``words`` after ``draw`` are 1-based places in ``hand`` or cards of it."""
    if not words:
        raise InputError(f"Say which cards to throw away: {_DRAW_HOW}.")
    if all(is_number(w) for w in words):
        places = [int(w) if len(w) <= MAX_DIGITS else 0 for w in words]
        bad = [p for p in places if not 1 <= p <= len(hand)]
        if bad:
            raise InputError(f"Your cards are numbered 1 to {len(hand)}: {bad[0]} is not one of them.")
        if len(set(places)) != len(places):
            raise InputError("Name each card once.")
        return Command(Kind.DRAW, cards=tuple(hand[p - 1] for p in places))
    try:
        cards = parse_cards(words)
    except ValueError as exc:
        raise InputError(f"{exc}. Draw with: {_DRAW_HOW}.") from None
    strangers = [str(c) for c in cards if c not in hand]
    if strangers:
        raise InputError(f"You do not hold {' '.join(strangers)}. Draw with: {_DRAW_HOW}.")
    if len(set(cards)) != len(cards):
        raise InputError("Name each card once.")
    return Command(Kind.DRAW, cards=tuple(cards))


def parse_action(text: str, prompt: Prompt, hand: Sequence[Card] = ()) -> Command:
    """The ``Command`` for ``TableService.act_on_prompt``; raises ``InputError`` with what to type.
    ``hand``: the player's cards in the order the terminal shows them (for a draw's places)."""
    if _NEGATIVE.search(text):
        raise InputError("An amount can't be negative: it is your total for this street, e.g. raise 40.")
    words = text.strip().lower().replace("-", " ").split()
    if words[:2] == ["all", "in"]:
        words = ["all_in", *words[2:]]
    if words[:2] == ["bring", "in"]:
        words = ["bring_in", *words[2:]]
    if words[:2] in (["run", "twice"], ["run", "once"]):
        words = [f"run_{words[1]}", *words[2:]]
    if words[:1] == ["discard"] and len(words) == 2:      # Crazy Pineapple: discard Kh
        chosen = next((o for o in prompt.options if o.cards and o.cards[0].code.lower() == words[1]), None)
        if chosen is None:
            raise InputError(f"Discard one of your down cards: {_choices(prompt)}.")
        return chosen.command
    if not words:
        raise InputError(f"Type your action: {_choices(prompt)} (? for help).")
    head = words[0]
    if is_number(head):
        if len(words) > 1:
            raise InputError(
                f"I don't understand {echo(' '.join(words[1:]))} after {head}: type the number alone."
            )
        index = int(head) if len(head) <= MAX_DIGITS else 0
        if not 1 <= index <= len(prompt.options):
            raise InputError(f"Choose a number from 1 to {len(prompt.options)}.")
        option = prompt.options[index - 1]
        if option.action == "draw":
            raise InputError(f"Say which cards to throw away: {_DRAW_HOW}.")
        if option.needs_amount:
            raise InputError(
                f"Say how much: {option.action} to between {option.min_to} and {option.max_to},"
                f" e.g. {option.action} {option.min_to}."
            )
        return option.command
    action = _WORDS.get(head)
    if action is None:
        raise InputError(
            f"I don't understand {echo(text)}. Type a number (1-{len(prompt.options)}) or one of: "
            f"{_choices(prompt)} (? for help)."
        )
    if action in ("draw", "stand"):
        if prompt.option("draw") is None:
            raise InputError(f"There is no draw now. Your options: {_choices(prompt)}.")
        if action == "stand":
            if words[1:] not in ([], ["pat"]):
                raise InputError(f"I don't understand {echo(text)}: type stand (or stand pat) alone.")
            return Command(Kind.STAND)
        return parse_draw(words[1:], hand)
    rest = [w for w in words[1:] if w != "to"]
    _nothing_more(action, rest, prompt)
    if action not in WAGERS:
        _no_amount(action, rest, prompt)
    if action == "call" and prompt.option("call") is None:
        if prompt.option("check") is not None:
            return Command(Kind.CHECK)
        if prompt.option("bring_in") is not None:
            return Command(Kind.BRING_IN)
    if action in WAGERS:
        options = [o for o in prompt.options if o.action in WAGERS]
        if not options:
            raise InputError(f"You can't bet or raise now. Your options: {_choices(prompt)}.")
        wager: ActionOption = options[0]
        if rest:
            amount = _amount(rest[0])
            fixed = [o.amount for o in options if not o.needs_amount and o.amount is not None]
            if len(fixed) == len(options) and amount not in fixed:
                verb = wager.label.rsplit(" ", 1)[0]          # "complete to", "bet", "raise to"
                raise InputError(
                    f"Not allowed: this is fixed limit: {verb} {' or '.join(chips(a) for a in fixed)}."
                )
            return Command(Kind(wager.action), amount)
        if len(options) == 1 and not wager.needs_amount:
            return Command(Kind(wager.action), wager.amount)
        if wager.needs_amount:
            raise InputError(
                f"Say how much: {wager.action} to between {wager.min_to} and {wager.max_to},"
                f" e.g. {wager.action} {wager.min_to}."
            )
        amounts = " or ".join(str(o.amount) for o in options)
        raise InputError(f"Say how much: {wager.action} {amounts}.")
    return Command(Kind(action))
