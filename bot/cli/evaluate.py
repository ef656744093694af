"""``wildstud evaluate``: the best five-card hand of 5 to 7 cards with wild ranks (SPEC §4).

Two ways to use it::

    wildstud evaluate Ah Kd 5c 2s 9h 9d Tc --wild 2
    echo '{"cards": ["Ah", "Kd", "5c", "2s", "9h"], "wild": ["5", "2"]}' | wildstud evaluate --jsonl

Fives are always wild (the game's rule; ``--no-fives`` turns that off) and ``--wild`` adds ranks
(repeat it or give several: ``--wild 2 J``). In ``--jsonl`` mode each input line follows the same
default: fives are wild, ``"wild"`` adds ranks and ``"no_fives": true`` makes fives natural; a line
may also carry ``"wild_in_flush"``; each
output line is ``{"category", "strength", "best", "wilds_as"}`` with cards as file codes
(``"Ah"``), or ``{"error": "..."}`` for a bad line, and the command goes on to the next line.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from typing import Any, TextIO

from bot.engine.cards.card import Rank, parse_cards
from bot.engine.values.evaluator import WILD_IN_FLUSH_OPTIONS, HandValue, evaluate


def register(subparsers: Any) -> None:
    """Add the ``evaluate`` sub-command to the ``wildstud`` parser."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "evaluate",
        help="the best five-card hand with wild ranks (fives are always wild)",
        description=(
            "Evaluate 5 to 7 cards (e.g. Ah Kd 5c 2s 9h 9d Tc; 10h and A♥ work too). "
            "Fives are wild; --wild adds ranks."
        ),
    )
    parser.add_argument("cards", nargs="*", metavar="CARD", help="5 to 7 cards such as Ah Kd 5c")
    parser.add_argument(
        "--wild",
        action="extend",
        nargs="+",
        default=[],
        metavar="RANK",
        help="another wild rank (2-9, T, J, Q, K, A); repeat it or give several",
    )
    parser.add_argument("--no-fives", action="store_true", help="do not make fives wild")
    parser.add_argument(
        "--wild-in-flush",
        choices=WILD_IN_FLUSH_OPTIONS,
        default="any-card",
        help="a wild in a flush: any-card (every wild is an ace, default) or highest-missing",
    )
    parser.add_argument(
        "--jsonl",
        action="store_true",
        help='read JSON lines {"cards": [...], "wild": [...]} on stdin, write one JSON line each; '
        'fives are wild there too unless the line says "no_fives": true',
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the command; returns the exit status (2 for bad input on the command line)."""
    if args.jsonl:
        if args.cards:
            print("wildstud evaluate: give cards as arguments or with --jsonl, not both", file=sys.stderr)
            return 2
        evaluate_lines(sys.stdin, sys.stdout)
        return 0
    try:
        wild = set() if args.no_fives else {Rank.FIVE}
        tokens = list(args.cards)
        for token in _split(args.wild):
            if len(token) >= 2 and token != "10" and _is_card(token):
                tokens.append(token)  # "--wild 2 Ah Kd ...": the cards came after the ranks
            else:
                wild.add(Rank.parse(token))
        if not tokens:
            raise ValueError("give 5 to 7 cards, e.g. wildstud evaluate Ah Kd 5c 2s 9h 9d Tc --wild 2")
        cards = parse_cards(" ".join(tokens))
        hand = evaluate(cards, frozenset(wild), wild_in_flush=args.wild_in_flush)
    except ValueError as exc:
        print(f"wildstud evaluate: {exc}", file=sys.stderr)
        return 2
    print(render_text(hand))
    return 0


def _is_card(token: str) -> bool:
    try:
        parse_cards(token)
    except ValueError:
        return False
    return True


def _split(tokens: Iterable[str]) -> list[str]:
    """``["2", "J,Q"]`` -> ``["2", "J", "Q"]``."""
    return [part for token in tokens for part in token.replace(",", " ").split()]


def render_text(hand: HandValue) -> str:
    """The hand in words for a terminal: the phrase, the best five, and what each wild is."""
    wild_ranks = sorted(hand.wild_ranks, reverse=True)
    lines = [
        hand.describe(kickers=True),
        "best five: " + " ".join(str(c) for c in hand.best),
    ]
    if hand.wilds_as:
        lines.append("wilds: " + ", ".join(f"{w} as {c}" for w, c in hand.wilds_as.items()))
    else:
        lines.append("wilds: none used")
    lines.append("wild ranks: " + (" ".join(r.char for r in wild_ranks) if wild_ranks else "none"))
    return "\n".join(lines)


def hand_json(hand: HandValue) -> dict[str, Any]:
    """The JSON object for one evaluated hand (cards as file codes)."""
    return {
        "category": hand.category.value,
        "strength": hand.strength,
        "best": [c.code for c in hand.best],
        "wilds_as": {w.code: c.code for w, c in hand.wilds_as.items()},
    }


def _is_rank_token(value: object) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def evaluate_line(line: str) -> dict[str, Any]:
    """Evaluate one JSON input line; a bad line gives ``{"error": reason}``."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        return {"error": f"not a JSON object: {exc.msg} at column {exc.colno}"}
    except RecursionError:  # the json module recurses once per nesting level
        return {"error": "not a JSON object for a hand: arrays or objects nested too deeply"}
    if not isinstance(data, dict):
        return {"error": 'expected a JSON object like {"cards": ["Ah", ...], "wild": ["5"]}'}
    cards = data.get("cards")
    wild = data.get("wild", [])
    ruling = data.get("wild_in_flush", "any-card")
    no_fives = data.get("no_fives", False)
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        return {"error": '"cards" must be a list of card codes such as "Ah"'}
    if not isinstance(wild, list) or not all(_is_rank_token(r) for r in wild):
        return {"error": '"wild" must be a list of ranks such as "5", "2", "J"'}
    if not isinstance(no_fives, bool):
        return {"error": '"no_fives" must be true or false'}
    if not isinstance(ruling, str):
        return {"error": f'"wild_in_flush" must be one of {", ".join(WILD_IN_FLUSH_OPTIONS)}'}
    try:
        ranks = frozenset(Rank.parse(str(r)) for r in wild) | (frozenset() if no_fives else {Rank.FIVE})
        hand = evaluate(parse_cards(cards), ranks, wild_in_flush=ruling)
    except ValueError as exc:
        return {"error": str(exc)}
    return hand_json(hand)


def evaluate_lines(source: TextIO, sink: TextIO) -> None:
    """Read JSON lines from ``source`` and write one JSON line per non-blank input to ``sink``."""
    for line in source:
        if not line.strip():
            continue
        sink.write(json.dumps(evaluate_line(line), ensure_ascii=False) + "\n")
        sink.flush()
