"""Hand histories in the PHH format (``uoftcprg/phh-std``), SPEC §9.

A history is a TOML file. Wildstud reads and writes the stud subset of PHH:

* ``variant``: ``"F7S"`` (fixed limit), ``"P7S"`` (pot limit) or ``"N7S"`` (no limit);
* ``antes`` (one per player, all equal), ``bring_in``, ``small_bet`` and ``big_bet`` (fixed
  limit) or ``min_bet`` (pot and no limit), ``starting_stacks``;
* ``actions``: ``d dh p1 7c2dQc`` (two down cards and the door card), ``d dh p1 8h`` (a later
  card), ``d db 7d`` (the shortage community card), ``p1 pb`` (bring-in), ``p1 cbr 20``
  (complete, bet or raise *to* 20), ``p1 cc`` (check or call), ``p1 f`` (fold),
  ``p1 sm Ah3cQc9s5sTs4d`` (show the cards as dealt, or the down cards alone; ``p1 sm -`` shows
  the cards already dealt) and ``p1 sm`` (muck). A ``# text`` after an action is commentary;
  an empty string is a no-op;
* optional ``players``, ``seats``, ``finishing_stacks``, ``winnings``;
* game fields prefixed with an underscore: ``_rulings`` (a table of ruling name to option),
  ``_wild_ranks`` (rank characters in the order they became wild), ``_wild_events``,
  ``_deck_commitment``.

Player ``p1`` is the first seat dealt (left of the dealer); inside the engine that is seat 0.
:func:`parse_phh` turns text into a :class:`HandHistory` (cards and ranks as values, chips as
``int``); :func:`export_phh` writes a :class:`~bot.engine.hand.StudHand` -- finished or still
in progress -- back to PHH text. Malformed input raises :class:`PhhError` (a ``ValueError``)
naming the field or the action's position.

>>> h = parse_phh('''
... variant = "F7S"
... antes = [5, 5]
... bring_in = 10
... small_bet = 20
... big_bet = 40
... starting_stacks = [500, 500]
... actions = ["d dh p1 Ah3cQc", "d dh p2 Kh7c5h", "p1 pb  # queen brings in", "p2 f"]
... ''')
>>> h.variant, h.player_count, h.structure
('F7S', 2, 'fixed-limit')
>>> a = h.actions[0]
>>> a.kind, a.player, [c.code for c in a.cards], a.line
('dh', 0, ['Ah', '3c', 'Qc'], 8)
>>> h.actions[2].kind, h.actions[2].commentary
('pb', 'queen brings in')
"""

from __future__ import annotations

import re
import reprlib
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import tomli_w

from bot.engine.cards import FULL_DECK, Card, Rank, parse_cards
from bot.engine.follow import WildEvent
from bot.engine.games import DEFAULT_GAME, game_of

if TYPE_CHECKING:  # pragma: no cover - annotations only (hand.py does not import this module)
    from bot.engine.hand import StudHand

__all__ = [
    "STRUCTURE_OF_VARIANT",
    "VARIANT_OF_STRUCTURE",
    "ActionKind",
    "HandHistory",
    "PhhAction",
    "PhhError",
    "RecordedWildEvent",
    "export_phh",
    "parse_phh",
    "parse_seats_entry",
    "player_label",
    "seats_entry",
]

ActionKind = Literal["dh", "db", "pb", "cbr", "cc", "f", "sm", "noop", "_pay", "_buy", "_decline"]
"""What one ``actions`` entry does: deal to a hand (``dh``), deal the community card (``db``),
bring in (``pb``), complete/bet/raise to (``cbr``), check or call (``cc``), fold (``f``),
show or muck (``sm``), or nothing (``noop``: an empty string or a lone commentary). Baseball
adds ``_pay AMOUNT`` (match the pot for a face-up three), ``_buy AMOUNT`` and ``_decline`` (the
extra card for a face-up four); PHH readers do not know these, and only Wildstud replays Baseball."""

STRUCTURE_OF_VARIANT: dict[str, str] = {"F7S": "fixed-limit", "P7S": "pot-limit", "N7S": "no-limit"}
"""PHH variant code -> Wildstud betting structure (SPEC §9)."""

VARIANT_OF_STRUCTURE: dict[str, str] = {v: k for k, v in STRUCTURE_OF_VARIANT.items()}
"""Wildstud betting structure -> PHH variant code."""

_PLAYER_RE = re.compile(r"^p([1-9][0-9]*)$")
_AMOUNT_RE = re.compile(r"-?[0-9]+\Z", re.ASCII)


class PhhError(ValueError):
    """A history that cannot be read: a missing or mistyped field, or an action that is not PHH.

    ``index`` is the 0-based position in ``actions`` and ``line`` the 1-based line of the file,
    when the problem is in one action (both ``None`` otherwise).
    """

    def __init__(self, message: str, *, index: int | None = None, line: int | None = None) -> None:
        where = ""
        if index is not None:
            where = f"action {index + 1}" + (f" (line {line})" if line is not None else "") + ": "
        super().__init__(where + message)
        self.reason = message
        self.index = index
        self.line = line


@dataclass(frozen=True, slots=True)
class PhhAction:
    """One entry of ``actions``, parsed.

    ``index`` is its 0-based position in the array and ``line`` its 1-based line in the file
    (``None`` when the text was not found, e.g. for a history built in memory). ``player`` is the
    0-based seat (``p1`` -> 0) or ``None`` for the community card and no-ops. ``cards`` are the
    cards dealt (``dh``/``db``) or shown (``sm``; empty for a muck, and for ``sm -``, which shows
    the cards already dealt: ``show_dealt`` is then ``True``). ``amount`` is the "to" total of a
    ``cbr``.
    """

    index: int
    text: str
    kind: ActionKind
    player: int | None = None
    cards: tuple[Card, ...] = ()
    amount: int | None = None
    show_dealt: bool = False
    commentary: str | None = None
    line: int | None = None

    @property
    def label(self) -> str:
        """The actor as written: ``"d"`` for the dealer, ``"p3"`` for a player, ``""`` for a no-op."""
        if self.kind in ("dh", "db"):
            return "d"
        return "" if self.player is None else player_label(self.player)

    @property
    def is_muck(self) -> bool:
        """True for ``pN sm`` without cards (the player gives up the pot unseen)."""
        return self.kind == "sm" and not self.cards and not self.show_dealt

    @property
    def is_deal(self) -> bool:
        """True for ``d dh`` and ``d db`` lines."""
        return self.kind in ("dh", "db")

    @property
    def where(self) -> str:
        """Human position, e.g. ``"action 12 (line 40)"``."""
        return f"action {self.index + 1}" + (f" (line {self.line})" if self.line is not None else "")


@dataclass(frozen=True, slots=True)
class RecordedWildEvent:
    """One entry of ``_wild_events``: the face-up five that armed a follow and the card that set
    the rank. Seats are 0-based (``None`` for a community or indicator card); ``street`` is 3..7."""

    five: Card | None
    seat: int | None
    rank: Rank
    follow_card: Card | None = None
    follow_seat: int | None = None
    street: int | None = None
    how: str | None = None


@dataclass(frozen=True, slots=True)
class HandHistory:
    """A parsed PHH stud history. Chips are ``int``; seats are 0-based in deal order (p1 = 0).

    ``structure`` is derived from ``variant``. ``rulings`` is the ``_rulings`` table as given
    (names and option strings; :meth:`rulings_obj` validates them). ``recorded_*`` fields are the
    results written in the file, to be compared with a replay; ``None`` when absent. ``extra``
    keeps every other top-level field (optional PHH fields like ``hand`` or ``table``).
    """

    variant: str
    antes: tuple[int, ...]
    bring_in: int
    starting_stacks: tuple[int, ...]
    actions: tuple[PhhAction, ...]
    small_bet: int | None = None
    big_bet: int | None = None
    min_bet: int | None = None
    players: tuple[str, ...] | None = None
    seats: tuple[int, ...] | None = None
    finishing_stacks: tuple[int, ...] | None = None
    winnings: tuple[int, ...] | None = None
    rulings: Mapping[str, str] = field(default_factory=dict)
    wild_ranks: tuple[Rank, ...] | None = None
    wild_events: tuple[RecordedWildEvent, ...] | None = None
    deck_commitment: Any = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    game: str = "sex-in-the-middle-east"

    @property
    def player_count(self) -> int:
        """Number of players dealt in."""
        return len(self.starting_stacks)

    @property
    def structure(self) -> str:
        """``"fixed-limit"``, ``"pot-limit"`` or ``"no-limit"``."""
        return STRUCTURE_OF_VARIANT[self.variant]

    @property
    def ante(self) -> int:
        """The (uniform) ante."""
        return self.antes[0] if self.antes else 0

    def name(self, seat: int) -> str:
        """The player's name from ``players`` if given, else the PHH label ``p1``..``pN``."""
        if self.players is not None and self.players[seat]:
            return self.players[seat]
        return player_label(seat)

    def stakes_dict(self) -> dict[str, Any]:
        """The stakes as plain data for ``TableStakes.from_dict`` (keys: structure, ante, bring_in,
        small_bet, big_bet or min_bet)."""
        out: dict[str, Any] = {"structure": self.structure, "ante": self.ante, "bring_in": self.bring_in}
        if self.structure == "fixed-limit":
            out["small_bet"] = self.small_bet
            out["big_bet"] = self.big_bet
        else:
            out["min_bet"] = self.min_bet
        return out


def player_label(seat: int) -> str:
    """PHH label of a 0-based seat: ``player_label(0) == "p1"``."""
    return f"p{seat + 1}"


def seats_entry(seat_nos: Sequence[int]) -> str:
    """The deal order as the first entry of a stored action log: table seats in deal order (PHH's
    ``seats``), ``seats_entry((3, 5, 1)) == "seats 3 5 1"``."""
    return "seats " + " ".join(str(s) for s in seat_nos)


def parse_seats_entry(text: str) -> tuple[int, ...]:
    """Table seats in deal order from ``seats_entry`` text (two or more); ``ValueError`` otherwise."""
    parts = text.split()
    if len(parts) < 3 or parts[0] != "seats" or not all(p.isdigit() and p.isascii() for p in parts[1:]):
        raise ValueError(f"not a deal-order entry: {text!r}")
    return tuple(int(p) for p in parts[1:])


# ---------------------------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------------------------


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
    if not isinstance(variant, str) or variant not in STRUCTURE_OF_VARIANT:  # an array is unhashable
        raise PhhError(f"variant must be one of F7S, P7S, N7S (seven-card stud), not {reprlib.repr(variant)}")
    if "blinds_or_straddles" in data:
        raise PhhError("blinds_or_straddles has no place in stud: use antes and bring_in")
    stacks = _chips_list(data, "starting_stacks", positive=True)
    n = len(stacks)
    if not 2 <= n <= 8:
        raise PhhError(f"starting_stacks must list 2 to 8 players, not {n}")
    antes = _chips_list(data, "antes", length=n)
    if len(set(antes)) > 1:
        raise PhhError(f"antes must be the same for every player, got {list(antes)}")
    bring_in = _chips(data, "bring_in", positive=True)
    small_bet = big_bet = min_bet = None
    if variant == "F7S":
        small_bet = _chips(data, "small_bet", positive=True)
        big_bet = _chips(data, "big_bet", positive=True)
        if "min_bet" in data:
            raise PhhError("min_bet is for pot and no limit (P7S, N7S); F7S uses small_bet and big_bet")
    else:
        min_bet = _chips(data, "min_bet", positive=True)
        for key in ("small_bet", "big_bet"):
            if key in data:
                raise PhhError(f"{key} is for fixed limit (F7S); {variant} uses min_bet")
    raw_actions = data.get("actions")
    if not isinstance(raw_actions, list) or not all(isinstance(a, str) for a in raw_actions):
        raise PhhError("actions must be an array of strings")
    lines = _action_lines(text, raw_actions) if text is not None else [None] * len(raw_actions)
    actions = tuple(_parse_action(i, s, n, lines[i]) for i, s in enumerate(raw_actions))

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

    game = DEFAULT_GAME.name
    if "_game" in data:
        try:
            game = game_of(str(data["_game"])).name
        except ValueError as exc:
            raise PhhError(f"_game: {exc}") from None
    known = {
        "_game", "variant", "antes", "bring_in", "small_bet", "big_bet", "min_bet", "starting_stacks",
        "actions", "players", "seats", "finishing_stacks", "winnings", "_rulings", "_wild_ranks",
        "_wild_events", "_deck_commitment",
    }
    extra = {k: v for k, v in data.items() if k not in known}
    return HandHistory(
        variant=str(variant),
        antes=antes,
        bring_in=bring_in,
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
    )


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


def _parse_action(index: int, text: str, n: int, line: int | None) -> PhhAction:
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
            if len(cards) != 1:
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
    if verb == "_decline":
        if args:
            raise bad("'_decline' takes no argument")
        return PhhAction(index, text, "_decline", seat, commentary=commentary, line=line)
    if verb == "sd":
        raise bad("'sd' (stand pat/discard) is for draw games, not stud")
    raise bad(f"unknown action {verb!r}: use pb, cbr, cc, f or sm")


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


# ---------------------------------------------------------------------------------------------
# Export
# ---------------------------------------------------------------------------------------------


def export_phh(
    hand: StudHand,
    *,
    players: Sequence[str] | None = None,
    seats: Sequence[int] | None = None,
    deck_commitment: str | Mapping[str, Any] | None = None,
    fields: Mapping[str, Any] | None = None,
    hide_unshown: bool = False,
    viewer: int | None = None,
    header: bool = True,
) -> str:
    """Write ``hand`` (finished or in progress) as PHH TOML text (SPEC §9), with ``tomli-w``.

    Deal lines are written per street and per seat in the engine's deal order (third street as one
    line per seat: two down cards then the door card); the community card (and an
    ``indicator-card`` centre card) as ``d db``; burns are not written. Actions follow the log:
    ``pb`` (bring-in), ``cbr TO`` (complete, bet or raise to a street total), ``cc`` (check or call),
    ``f`` (fold), ``sm CARDS`` (show, all cards as dealt) and ``sm`` (muck); an action the timer took
    carries the commentary ``# timed out``. Fields: ``variant``, ``antes``, ``bring_in``,
    ``small_bet``/``big_bet`` or ``min_bet``, ``starting_stacks``, ``actions``, ``players`` and
    ``seats`` (if given), ``finishing_stacks`` and ``winnings`` (for a hand in progress: the stacks
    now and zeros, as PHH reads them), ``_rulings`` (all of them), ``_wild_ranks``, ``_wild_events``
    and ``_deck_commitment`` (if given). ``fields`` adds optional PHH fields (``hand``, ``table``,
    ``time``...). With ``hide_unshown`` the down cards of every hand not shown at showdown (folded,
    mucked, won without a showdown, or still in play) are written ``??``, as PHH writes unknown
    cards: that text is for players to read and cannot be replayed; ``viewer`` (a seat) keeps that
    seat's own down cards written, as that player saw the hand. ``header`` prepends a comment summary.

    Raises ``ValueError`` for ``players``/``seats`` of the wrong length.

    >>> from bot.engine.cards import Deck
    >>> from bot.engine.hand import StudHand
    >>> from bot.engine.stakes import TableStakes
    >>> hand = StudHand([500, 500], TableStakes(), source=Deck.seeded(3))
    >>> hand.timeout(hand.actor)            # the bring-in is posted
    >>> hand.fold(hand.actor)
    >>> history = parse_phh(export_phh(hand))
    >>> history.finishing_stacks == hand.result.final_stacks, [a.kind for a in history.actions][2:]
    (True, ['pb', 'f'])
    """
    from bot.engine.log import Action, Deal

    n = hand.seat_count
    if players is not None and len(players) != n:
        raise ValueError(f"players must name {n} players, got {len(players)}")
    if seats is not None and len(seats) != n:
        raise ValueError(f"seats must list {n} seat numbers, got {len(seats)}")
    result = hand.result
    shown = set(result.shown) if result is not None else set()
    hidden: set[Card] = set()
    if hide_unshown:
        for seat in range(n):
            if seat not in shown and seat != viewer:
                hidden.update(hand.down_cards(seat))

    def code(card: Card) -> str:
        return "??" if card in hidden else card.code

    actions: list[str] = []
    run: list[Deal] = []

    by_street: dict[int, dict[int, list[Card]]] = {}

    def write_holes() -> None:
        for street in sorted(by_street):
            for seat, cards in by_street[street].items():
                actions.append(f"d dh {player_label(seat)} {''.join(code(c) for c in cards)}")
        by_street.clear()

    def flush() -> None:
        for deal in run:
            if deal.kind == "hole":
                assert deal.seat is not None
                by_street.setdefault(deal.street, {}).setdefault(deal.seat, []).append(deal.card)
            elif deal.kind in ("community", "indicator"):
                write_holes()
                note = "  # indicator card" if deal.kind == "indicator" else ""
                actions.append(f"d db {deal.card.code}{note}")
        write_holes()
        run.clear()

    for entry in hand.log:
        if isinstance(entry, Deal):
            if entry.kind != "burn":
                run.append(entry)
            continue
        assert isinstance(entry, Action)
        if entry.action == "ante":
            continue
        flush()
        who = player_label(entry.seat)
        if entry.action == "bring_in":
            text = f"{who} pb"
        elif entry.action in ("complete", "bet", "raise"):
            text = f"{who} cbr {entry.to}"
        elif entry.action in ("call", "check"):
            text = f"{who} cc"
        elif entry.action == "fold":
            text = f"{who} f"
        elif entry.action == "show":
            text = f"{who} sm {''.join(c.code for c in hand.cards(entry.seat))}"
        elif entry.action == "muck":
            text = f"{who} sm"
        elif entry.action in ("pay", "buy"):
            text = f"{who} _{entry.action} {entry.amount}"
        elif entry.action == "decline":
            text = f"{who} _decline"
        else:  # pragma: no cover - the log has no other actions
            raise ValueError(f"unknown action {entry.action!r} in the hand's log")
        if entry.timed_out:
            text += "  # timed out"
        actions.append(text)
    flush()

    stakes = hand.stakes
    data: dict[str, Any] = {"variant": VARIANT_OF_STRUCTURE[stakes.structure]}
    data["antes"] = [stakes.ante] * n
    data["bring_in"] = stakes.bring_in
    if stakes.structure == "fixed-limit":
        data["small_bet"] = stakes.small_bet
        data["big_bet"] = stakes.big_bet
    else:
        data["min_bet"] = stakes.min_bet
    data["starting_stacks"] = list(hand.starting_stacks)
    data["actions"] = actions
    if players is not None:
        data["players"] = list(players)
    if seats is not None:
        data["seats"] = list(seats)
    if result is not None:
        data["finishing_stacks"] = list(result.final_stacks)
        data["winnings"] = list(result.winnings)
    else:
        data["finishing_stacks"] = [hand.stack(s) for s in range(n)]
        data["winnings"] = [0] * n
    if fields:
        for key, value in fields.items():
            if key in data or key.startswith("_"):
                raise ValueError(f"fields may not set {key!r}: it is written from the hand")
            data[key] = value
    game = hand.game
    data["_game"] = game.name
    if game.wilds.shared:
        data["_wild_ranks"] = [r.char for r in hand.wild_ranks]
    if game.wilds.kind == "follow":
        data["_wild_events"] = [_wild_event_entry(e, code) for e in hand.wild_events]
    if game.wilds.per_player:
        # Only hands shown at showdown: anything else would tell a down card (research §1.6).
        data["_player_wild_ranks"] = [
            "".join(r.char for r in hand.seat_wilds(s)) if s in shown else "" for s in range(n)
        ]
    if deck_commitment is not None:
        commitment = deck_commitment
        data["_deck_commitment"] = commitment if isinstance(commitment, str) else dict(commitment)
    data["_rulings"] = game.rulings_dict(hand.rulings)
    text = tomli_w.dumps(data)
    if not header:
        return text
    return _header(hand, hidden) + text


def _wild_event_entry(e: WildEvent, code: Callable[[Card], str]) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "five": e.five.code,
        "seat": "" if e.five_seat is None else player_label(e.five_seat),
        "street": e.street,
        "follow_card": code(e.follow_card),   # a down card announced by rank keeps its suit secret
        "follow_seat": "" if e.follow_seat is None else player_label(e.follow_seat),
        "rank": e.rank.char,
        "how": e.how,
    }
    if e.replaces is not None:
        entry["replaces"] = e.replaces.char
    return entry


def _header(hand: StudHand, hidden: set[Card]) -> str:
    title = ("Sex in the Middle East (seven-card stud, fives wild)" if hand.game is DEFAULT_GAME
             else f"{hand.game.title} ({hand.game.name})")
    lines = [
        f"# Wildstud hand history: {title},",
        "# PHH format (uoftcprg/phh-std); p1 is the first seat left of the dealer.",
        f"# Stakes: {hand.stakes.describe()}.",
    ]
    changed = {k: v for k, v in hand.rulings.changed_from_default().items() if k in hand.game.rulings}
    named = ", ".join(f"{k} = {v}" for k, v in changed.items()) if changed else "all defaults"
    lines.append(f"# Rulings: {named}.")
    if hand.game.wilds.shared:
        lines.append("# Wild: " + ", ".join(r.char for r in hand.wild_ranks) + ".")
    for event in hand.wild_events:
        if event.follow_card in hidden:
            lines.append(f"#   {event.five} -> a face-down card: {event.rank.plural} are wild")
        else:
            lines.append(f"#   {event}")
    result = hand.result
    if result is None:
        lines.append("# The hand is still in progress.")
    else:
        for index, pot in enumerate(result.pots):
            name = "main pot" if index == 0 else f"side pot {index}"
            won = ", ".join(f"{player_label(s)} {c}" for s, c in pot.shares)
            lines.append(f"# {name} {pot.amount}: {won}")
    return "\n".join(lines) + "\n\n"
