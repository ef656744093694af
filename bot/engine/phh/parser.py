"""Reading PHH text (SPEC §9): :func:`parse_phh` turns TOML text into a ``HandHistory``.

Malformed input raises ``PhhError`` (a ``ValueError``) naming the field or the action's position
(0-based index and 1-based file line). The format is described in ``bot.engine.phh.history``.
"""

from __future__ import annotations

import re
import reprlib
import tomllib
from collections.abc import Mapping, Sequence
from typing import Any

from bot.engine.cards.card import FULL_DECK, Card, Rank, parse_cards
from bot.engine.games.catalogue import DEFAULT_GAME, game_of
from bot.engine.phh.history import (
    _AMOUNT_RE,
    _PLAYER_RE,
    DRAW_FAMILIES,
    DRAW_VARIANTS,
    FLOP_VARIANTS,
    GAME_OF_FAMILY,
    STRUCTURE_OF_VARIANT,
    HandHistory,
    PhhAction,
    PhhError,
    RecordedWildEvent,
    UnknownVariant,
    variant_code,
)


def parse_phh(text: str) -> HandHistory:
    """Parse PHH TOML text into a :class:`HandHistory` (SPEC §9).

    Checks types and the stud field set of the variant (``small_bet``/``big_bet`` for F7S,
    ``min_bet`` for P7S/N7S, no ``blinds_or_straddles``), array lengths against the player
    count, equal antes, whole-chip amounts, the grammar of every action, player labels within
    range, and known cards (``??`` cannot be replayed). Game rules (who may act, which cards are
    legal) are the replay's business, not the parser's.

    Raises :class:`PhhError`.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PhhError(f"not valid TOML: {exc}") from None
    except RecursionError:  # tomllib recurses once per nesting level
        raise PhhError("not valid TOML for a hand history: arrays or tables nested too deeply") from None
    return _from_mapping(data, text)


def _from_mapping(data: Mapping[str, Any], text: str | None) -> HandHistory:
    variant = data.get("variant")
    if not isinstance(variant, str):
        raise PhhError(f"variant must be a string such as F7S, FR or F7S/8, not {reprlib.repr(variant)}")
    if variant not in STRUCTURE_OF_VARIANT:
        raise UnknownVariant(f"variant {reprlib.repr(variant)} is not a game Wildstud deals: it reads "
                             "seven-card stud (F7S, P7S, N7S), razz (FR, PR, NR), stud hi-lo "
                             "(F7S/8, P7S/8, N7S/8), Texas Hold'em (FT, NT, _PT), Omaha (PO, _FO, "
                             "_NO), Omaha hi-lo (FO/8, _PO/8, _NO/8), Crazy Pineapple (_FCP, _PCP, "
                             "_NCP), deuce-to-seven triple draw (F2L3D), badugi (FB) and its own "
                             "five-card draw (_F5CD, _P5CD, _N5CD)")
    structure = STRUCTURE_OF_VARIANT[variant]
    flop = variant in FLOP_VARIANTS
    draw_family = DRAW_VARIANTS[variant][1] if variant in DRAW_VARIANTS else None
    if "blinds_or_straddles" in data and not flop and draw_family in (None, "5CD"):
        raise PhhError("blinds_or_straddles has no place in stud or five-card draw: use antes"
                       + (" and bring_in" if draw_family is None else ""))
    stacks = _chips_list(data, "starting_stacks", positive=True)
    n = len(stacks)
    if not 2 <= n <= 8:
        raise PhhError(f"starting_stacks must list 2 to 8 players, not {n}")
    antes = _chips_list(data, "antes", length=n)
    blinds: tuple[int, ...] = ()
    if flop:
        bring_in = 0
        if "bring_in" in data:
            raise PhhError(f"bring_in has no place in {variant}: a flop game has blinds_or_straddles")
        blinds = _chips_list(data, "blinds_or_straddles", length=n)
    else:
        if len(set(antes)) > 1:
            raise PhhError(f"antes must be the same for every player, got {list(antes)}")
        if draw_family is None:
            bring_in = _chips(data, "bring_in", positive=True)
        elif "bring_in" in data:
            raise PhhError("bring_in is for stud: a draw game has no bring-in")
        else:
            bring_in = 0
    small_bet = big_bet = min_bet = None
    if structure == "fixed-limit":
        small_bet = _chips(data, "small_bet", positive=True)
        big_bet = _chips(data, "big_bet", positive=True)
        if "min_bet" in data:
            raise PhhError(f"min_bet is for pot and no limit; {variant} uses small_bet and big_bet")
    else:
        min_bet = _chips(data, "min_bet", positive=True)
        for key in ("small_bet", "big_bet"):
            if key in data:
                raise PhhError(f"{key} is for fixed limit; {variant} uses min_bet")
    raw_actions = data.get("actions")
    if not isinstance(raw_actions, list) or not all(isinstance(a, str) for a in raw_actions):
        raise PhhError("actions must be an array of strings")
    lines = _action_lines(text, raw_actions) if text is not None else [None] * len(raw_actions)
    draw = draw_family is not None
    actions = tuple(_parse_action(i, s, n, lines[i], flop, draw=draw) for i, s in enumerate(raw_actions))

    players = None
    if "players" in data:
        p = data["players"]
        if not isinstance(p, list) or len(p) != n or not all(isinstance(x, str) for x in p):
            raise PhhError(f"players must be an array of {n} strings")
        players = tuple(p)
    seats = None
    if "seats" in data:
        s = data["seats"]
        if not isinstance(s, list) or len(s) != n or not all(_is_int(x) for x in s):
            raise PhhError(f"seats must be an array of {n} integers")
        seats = tuple(int(x) for x in s)
    finishing = _chips_list(data, "finishing_stacks", length=n) if "finishing_stacks" in data else None
    winnings = _chips_list(data, "winnings", length=n) if "winnings" in data else None

    rulings: dict[str, str] = {}
    if "_rulings" in data:
        r = data["_rulings"]
        if not isinstance(r, dict):
            raise PhhError("_rulings must be a table of ruling = \"option\"")
        for k, v in r.items():
            if isinstance(v, bool) or not isinstance(v, str | int):
                raise PhhError(f"_rulings.{k} must be a string such as \"chain\"")
            rulings[str(k)] = str(v)
    wild_ranks = None
    if "_wild_ranks" in data:
        w = data["_wild_ranks"]
        if not isinstance(w, list) or not all(isinstance(x, str) for x in w):
            raise PhhError("_wild_ranks must be an array of rank characters such as [\"5\", \"2\"]")
        try:
            wild_ranks = tuple(Rank.parse(x) for x in w)
        except ValueError as exc:
            raise PhhError(f"_wild_ranks: {exc}") from None
    wild_events = None
    if "_wild_events" in data:
        wild_events = _parse_wild_events(data["_wild_events"], n)
    posts = _parse_posts(data["_posts"], n) if "_posts" in data else ()

    if draw_family is not None:
        return _draw_history(data, text, variant, draw_family, antes, stacks, actions, small_bet, big_bet,
                             min_bet, players, seats, finishing, winnings, rulings, wild_ranks, wild_events)
    if flop:
        game = FLOP_VARIANTS[variant][0]
    else:
        game = GAME_OF_FAMILY[variant[1:]] or DEFAULT_GAME.name
    if "_game" in data:
        try:
            named = game_of(str(data["_game"]))
        except ValueError as exc:
            raise PhhError(f"_game: {exc}") from None
        written = variant_code(structure, named.split, named.name)
        if written != variant:
            raise PhhError(f"_game {named.name} is written as variant {written}, not {variant}")
        game = named.name
    known = {
        "_game", "variant", "antes", "bring_in", "blinds_or_straddles", "small_bet", "big_bet", "min_bet",
        "starting_stacks",
        "actions", "players", "seats", "finishing_stacks", "winnings", "_rulings", "_wild_ranks",
        "_wild_events", "_deck_commitment", "_posts",
    }
    extra = {k: v for k, v in data.items() if k not in known}
    return HandHistory(
        variant=str(variant),
        antes=antes,
        bring_in=bring_in,
        blinds_or_straddles=blinds,
        starting_stacks=stacks,
        actions=actions,
        small_bet=small_bet,
        big_bet=big_bet,
        min_bet=min_bet,
        players=players,
        seats=seats,
        finishing_stacks=finishing,
        winnings=winnings,
        rulings=rulings,
        wild_ranks=wild_ranks,
        wild_events=wild_events,
        deck_commitment=data.get("_deck_commitment"),
        extra=extra,
        game=game,
        posts=posts,
    )


def _draw_history(data: Mapping[str, Any], text: str | None, variant: str, family: str,
                  antes: tuple[int, ...], stacks: tuple[int, ...], actions: tuple[PhhAction, ...],
                  small_bet: int | None, big_bet: int | None, min_bet: int | None,
                  players: tuple[str, ...] | None, seats: tuple[int, ...] | None,
                  finishing: tuple[int, ...] | None, winnings: tuple[int, ...] | None,
                  rulings: dict[str, str], wild_ranks: tuple[Rank, ...] | None,
                  wild_events: tuple[RecordedWildEvent, ...] | None) -> HandHistory:
    """A draw game's history: the game from ``_game`` (one of the variant family's) or the family's
    first; blinds (``blinds_or_straddles``) for triple draw and badugi."""
    games = DRAW_FAMILIES[family]
    game = games[0]
    if "_game" in data:
        try:
            named = game_of(str(data["_game"]))
        except ValueError as exc:
            raise PhhError(f"_game: {exc}") from None
        if named.name not in games:
            raise PhhError(f"_game {named.name} is not a game of variant {variant} "
                           f"(its games: {', '.join(games)})")
        game = named.name
    blinds: tuple[int, ...] | None = None
    if "blinds_or_straddles" in data:
        blinds = _chips_list(data, "blinds_or_straddles", length=len(stacks))
    known = {
        "_game", "variant", "antes", "small_bet", "big_bet", "min_bet", "starting_stacks", "actions",
        "players", "seats", "finishing_stacks", "winnings", "_rulings", "_wild_ranks", "_wild_events",
        "_deck_commitment", "blinds_or_straddles",
    }
    extra = {k: v for k, v in data.items() if k not in known}
    return HandHistory(variant=variant, antes=antes, bring_in=0, starting_stacks=stacks, actions=actions,
                       blinds_or_straddles=blinds or (),
                       small_bet=small_bet, big_bet=big_bet, min_bet=min_bet, players=players, seats=seats,
                       finishing_stacks=finishing, winnings=winnings, rulings=rulings,
                       wild_ranks=wild_ranks, wild_events=wild_events,
                       deck_commitment=data.get("_deck_commitment"), extra=extra, game=game)


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _as_chips(key: str, x: object, *, positive: bool) -> int:
    if isinstance(x, float) and x.is_integer():
        x = int(x)
    if not _is_int(x):
        raise PhhError(f"{key} must be whole chips (integers), got {x!r}")
    assert isinstance(x, int)
    if x < 0 or (positive and x == 0):
        raise PhhError(f"{key} must be {'more than zero' if positive else 'zero or more'}, got {x}")
    return x


def _chips(data: Mapping[str, Any], key: str, *, positive: bool = False) -> int:
    if key not in data:
        raise PhhError(f"missing field {key}")
    return _as_chips(key, data[key], positive=positive)


def _chips_list(
    data: Mapping[str, Any], key: str, *, length: int | None = None, positive: bool = False
) -> tuple[int, ...]:
    if key not in data:
        raise PhhError(f"missing field {key}")
    value = data[key]
    if not isinstance(value, list):
        raise PhhError(f"{key} must be an array of integers")
    if length is not None and len(value) != length:
        raise PhhError(f"{key} must have one entry per player ({length}), got {len(value)}")
    return tuple(_as_chips(key, x, positive=positive) for x in value)


def _parse_player(token: str, n: int, index: int, line: int | None) -> int:
    m = _PLAYER_RE.match(token)
    if m is None:
        raise PhhError(f"expected a player like p1, got {token!r}", index=index, line=line)
    seat = int(m.group(1)) - 1
    if seat >= n:
        raise PhhError(f"{token} does not exist: this hand has {n} players", index=index, line=line)
    return seat


_CARD_BY_CODE: dict[str, Card] = {c.code: c for c in FULL_DECK}


def _parse_cards(token: str, index: int, line: int | None) -> tuple[Card, ...]:
    if len(token) % 2 == 0:  # fast path: canonical codes such as "7c2dQc"
        fast = [_CARD_BY_CODE.get(token[i : i + 2]) for i in range(0, len(token), 2)]
        if all(c is not None for c in fast):
            return tuple(c for c in fast if c is not None)
    if "?" in token:
        raise PhhError(f"unknown cards ({token!r}) cannot be replayed: every card must be known",
                       index=index, line=line)
    try:
        return tuple(parse_cards(token))
    except ValueError as exc:
        raise PhhError(str(exc), index=index, line=line) from None


def _parse_action(index: int, text: str, n: int, line: int | None, flop: bool = False, *,
                  draw: bool = False) -> PhhAction:
    """Parse one action string (PHH grammar ``[[Actor Action[ Arguments...]][ # Commentary]]``)."""
    body, sep, comment = text.partition("#")
    commentary = comment.strip() if sep else None
    words = body.split()
    if not words:
        return PhhAction(index, text, "noop", commentary=commentary, line=line)

    def bad(msg: str) -> PhhError:
        return PhhError(msg, index=index, line=line)

    actor, verb, args = words[0], (words[1] if len(words) > 1 else ""), words[2:]
    if actor == "d":
        if verb == "dh":
            if len(args) != 2:
                raise bad(f"expected 'd dh pN CARDS', got {text.strip()!r}")
            seat = _parse_player(args[0], n, index, line)
            cards = _parse_cards(args[1], index, line)
            if not cards:
                raise bad("a deal line needs at least one card")
            return PhhAction(index, text, "dh", seat, cards, commentary=commentary, line=line)
        if verb == "db":
            if len(args) != 1:
                raise bad(f"expected 'd db CARD', got {text.strip()!r}")
            cards = _parse_cards(args[0], index, line)
            if flop and not 1 <= len(cards) <= 5:
                raise bad("'d db' deals board cards: the flop (three), the turn or the river (one)")
            if not flop and len(cards) != 1:
                raise bad("stud has one community card at most: 'd db' deals exactly one card")
            return PhhAction(index, text, "db", None, cards, commentary=commentary, line=line)
        raise bad(f"unknown dealer action {verb!r}: stud uses 'd dh' and 'd db'")
    seat = _parse_player(actor, n, index, line)
    if verb in ("pb", "cc", "f"):
        if args:
            raise bad(f"'{verb}' takes no argument, got {' '.join(args)!r}")
        return PhhAction(index, text, verb, seat, commentary=commentary, line=line)  # type: ignore[arg-type]
    if verb == "cbr":
        if len(args) != 1:
            raise bad("expected 'pN cbr AMOUNT' (the total for the street)")
        if not _AMOUNT_RE.match(args[0]):  # not int(): it also takes "+20", "2_0" and non-ASCII digits
            raise bad(f"cbr needs a whole number of chips, got {args[0]!r}")
        amount = int(args[0])
        if amount <= 0:
            raise bad(f"cbr needs an amount above zero, got {amount}")
        return PhhAction(index, text, "cbr", seat, amount=amount, commentary=commentary, line=line)
    if verb == "sm":
        if len(args) > 1:
            raise bad("expected 'pN sm' (muck) or 'pN sm CARDS' (show)")
        if not args:
            return PhhAction(index, text, "sm", seat, commentary=commentary, line=line)
        if args[0] == "-":
            return PhhAction(index, text, "sm", seat, show_dealt=True, commentary=commentary, line=line)
        cards = _parse_cards(args[0], index, line)
        return PhhAction(index, text, "sm", seat, cards, commentary=commentary, line=line)
    if verb in ("_pay", "_buy"):
        if len(args) != 1 or not _AMOUNT_RE.match(args[0]):
            raise bad(f"expected 'pN {verb} AMOUNT' (whole chips)")
        return PhhAction(index, text, verb, seat, amount=int(args[0]),  # type: ignore[arg-type]
                         commentary=commentary, line=line)
    if verb in ("_decline", "_run_twice", "_run_once"):
        if args:
            raise bad(f"'{verb}' takes no argument")
        return PhhAction(index, text, verb, seat, commentary=commentary, line=line)  # type: ignore[arg-type]
    if verb == "_discard":
        cards = _parse_cards(args[0], index, line) if len(args) == 1 else ()
        if len(cards) != 1:
            raise bad("expected 'pN _discard CARD' (the one card thrown away)")
        return PhhAction(index, text, "_discard", seat, cards, commentary=commentary, line=line)
    if verb == "sd":
        if not draw:
            raise bad("'sd' (stand pat/discard) is for draw games, not stud")
        if len(args) > 1:
            raise bad("expected 'pN sd' (stand pat) or 'pN sd CARDS' (the discards)")
        cards = _parse_cards(args[0], index, line) if args else ()
        return PhhAction(index, text, "sd", seat, cards, commentary=commentary, line=line)
    raise bad(f"unknown action {verb!r}: use pb, cbr, cc, f, sm or sd")


def _parse_wild_events(value: object, n: int) -> tuple[RecordedWildEvent, ...]:
    if not isinstance(value, list) or not all(isinstance(x, dict) for x in value):
        raise PhhError("_wild_events must be an array of tables")
    out: list[RecordedWildEvent] = []
    for i, ev in enumerate(value):
        where = f"_wild_events[{i}]"
        if "rank" not in ev:
            raise PhhError(f"{where}: missing rank (the rank that became wild, such as \"2\")")
        name = "rank"
        try:
            rank = Rank.parse(str(ev["rank"]))
            name = "five"
            five = _opt_card(ev.get("five"))
            name = "follow_card"
            follow_card = _opt_card(ev.get("follow_card", ev.get("follow")))
            name = "seat"
            seat = _opt_seat(ev.get("seat"), n)
            name = "follow_seat"
            follow_seat = _opt_seat(ev.get("follow_seat"), n)
            name = "street"
            street = ev.get("street")
            if street is not None and not _is_int(street):
                raise ValueError(f"must be an integer 3..7, not {street!r}")
            how = ev.get("how")
        except ValueError as exc:
            raise PhhError(f"{where}: {name}: {exc}") from None
        out.append(RecordedWildEvent(five, seat, rank, follow_card, follow_seat, street,
                                     None if how is None else str(how)))
    return tuple(out)


def _parse_posts(value: object, n: int) -> tuple[tuple[int, int, int], ...]:
    """``_posts``: an array of tables ``{player = "p4", live = 20, dead = 10}`` (blinds posted out
    of position: ``live`` chips are the player's bet, ``dead`` chips go to the pot)."""
    if not isinstance(value, list) or not all(isinstance(x, dict) for x in value):
        raise PhhError("_posts must be an array of tables such as {player = \"p4\", live = 20, dead = 0}")
    out: list[tuple[int, int, int]] = []
    for i, post in enumerate(value):
        try:
            seat = _opt_seat(post.get("player"), n)
        except ValueError as exc:
            raise PhhError(f"_posts[{i}]: player: {exc}") from None
        if seat is None:
            raise PhhError(f"_posts[{i}]: missing player")
        live = _as_chips(f"_posts[{i}].live", post.get("live", 0), positive=False)
        dead = _as_chips(f"_posts[{i}].dead", post.get("dead", 0), positive=False)
        out.append((seat, live, dead))
    return tuple(out)


def _opt_card(value: object) -> Card | None:
    """A card code field of ``_wild_events`` (absent or empty: ``None``); ``ValueError`` if bad."""
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise ValueError(f"expected a card code such as \"5h\", not {value!r}")
    return Card.parse(value)


def _opt_seat(value: object, n: int) -> int | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str) or (m := _PLAYER_RE.match(value)) is None or int(m.group(1)) > n:
        raise ValueError(f"bad player {value!r}")
    return int(m.group(1)) - 1


def _action_lines(text: str, actions: Sequence[str]) -> list[int | None]:
    """Find the 1-based line of each action string in the TOML text, in order.

    Searches forward from the ``actions =`` key for each string written in double or single
    quotes; an action written with escapes (never produced by Wildstud) gets ``None``.
    """
    lines = text.splitlines()
    start = next((i for i, ln in enumerate(lines) if re.match(r"\s*actions\s*=", ln)), None)
    out: list[int | None] = [None] * len(actions)
    if start is None:
        return out
    row, col = start, lines[start].index("=") + 1
    for k, action in enumerate(actions):
        needles = (f'"{action}"', f"'{action}'")
        r, c = row, col
        found = False
        while r < len(lines):
            line = lines[r]
            hits = [(line.find(nd, c), nd) for nd in needles]
            hits = [(pos, nd) for pos, nd in hits if pos >= 0]
            if hits:
                pos, nd = min(hits)
                out[k] = r + 1
                row, col = r, pos + len(nd)
                found = True
                break
            r, c = r + 1, 0
        if not found:
            break
    return out
