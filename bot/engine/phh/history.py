"""A parsed PHH hand history (SPEC §9): ``HandHistory``, its ``PhhAction`` entries, recorded
``_wild_events`` (``RecordedWildEvent``), ``PhhError``, the variant codes and the player labels.

The format itself is described in ``bot.engine.phh.history``; ``bot.engine.phh.parser`` builds these.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from bot.engine.cards.card import Card, Rank

ActionKind = Literal["dh", "db", "pb", "cbr", "cc", "f", "sm", "sd", "noop", "_pay", "_buy", "_decline",
                     "_discard", "_run_twice", "_run_once"]
"""What one ``actions`` entry does: deal to a hand (``dh``), deal the community card (``db``),
bring in (``pb``), complete/bet/raise to (``cbr``), check or call (``cc``), fold (``f``),
show or muck (``sm``), or nothing (``noop``: an empty string or a lone commentary). Baseball
adds ``_pay AMOUNT`` (match the pot for a face-up three), ``_buy AMOUNT`` and ``_decline`` (the
extra card for a face-up four); PHH readers do not know these, and only Wildstud replays Baseball.
The flop games add ``_discard CARD`` (Crazy Pineapple's discard), ``_run_twice`` and ``_run_once``
(a player's answer when asked to run the rest of the board twice)."""

_PREFIX: dict[str, str] = {"F": "fixed-limit", "P": "pot-limit", "N": "no-limit"}
FAMILY_OF_SPLIT: dict[str, str] = {"low": "R", "high-low": "7S/8"}
"""A game's ``split`` -> its PHH variant family; every other game is ``7S`` (seven-card stud)."""

GAME_OF_FAMILY: dict[str, str | None] = {"7S": None, "R": "razz", "7S/8": "seven-card-stud-hi-lo"}
"""PHH variant family -> the game a history without ``_game`` is (``None``: the default game)."""

STRUCTURE_OF_VARIANT: dict[str, str] = {
    prefix + family: structure for family in GAME_OF_FAMILY for prefix, structure in _PREFIX.items()
}
"""PHH variant code -> Wildstud betting structure (SPEC §9): ``F7S``, ``FR`` (razz) and ``F7S/8``
(stud hi-lo) are the standard fixed-limit codes; ``P``/``N`` name pot and no limit the same way."""

VARIANT_OF_STRUCTURE: dict[str, str] = {"fixed-limit": "F7S", "pot-limit": "P7S", "no-limit": "N7S"}
"""Wildstud betting structure -> PHH variant code of the seven-card stud family."""

DRAW_FAMILIES: dict[str, tuple[str, ...]] = {
    "5CD": ("five-card-draw", "kings-and-little-ones"),
    "2L3D": ("deuce-to-seven-triple-draw",),
    "B": ("badugi",),
}
"""Draw variant family -> its games (the first when a history names no ``_game``)."""

_STANDARD_DRAW = {"F2L3D", "FB"}
"""The draw variants PHH and pokerkit define (fixed-limit triple draw and badugi); every other
draw variant is Wildstud's own and starts with an underscore: ``_F5CD``, ``_P5CD``, ``_N5CD``
(five-card draw and Kings and Little Ones), ``_P2L3D``, ``_N2L3D``, ``_PB``, ``_NB``."""

DRAW_VARIANTS: dict[str, tuple[str, str]] = {
    (code if code in _STANDARD_DRAW else "_" + code): (structure, family)
    for family in DRAW_FAMILIES for prefix, structure in _PREFIX.items()
    for code in (prefix + family,)
}
"""Draw variant code -> (betting structure, family)."""

STRUCTURE_OF_VARIANT.update({code: structure for code, (structure, _family) in DRAW_VARIANTS.items()})


def draw_variant_code(structure: str, game: str) -> str:
    """The PHH variant of a draw game's hand: ``F2L3D``, ``FB``, or Wildstud's ``_F5CD``..."""
    family = next(f for f, games in DRAW_FAMILIES.items() if game in games)
    code = VARIANT_OF_STRUCTURE[structure][0] + family
    return code if code in _STANDARD_DRAW else "_" + code

_FLOP_FAMILIES: dict[str, tuple[str, str]] = {
    "texas-holdem": ("T", "FN"),
    "omaha": ("O", "P"),
    "omaha-hi-lo": ("O/8", "F"),
    "crazy-pineapple": ("CP", ""),
}
"""A flop game -> its PHH family letter(s) and the structures (``F``, ``P``, ``N``) pokerkit has a
standard variant for: ``FT``, ``NT``, ``PO`` and ``FO/8``. Every other structure of a flop game is
written with a leading underscore (``_PT`` pot-limit hold'em, ``_FO`` and ``_NO`` Omaha, ``_PO/8``
and ``_NO/8`` Omaha hi-lo, ``_FCP``/``_PCP``/``_NCP`` Crazy Pineapple): PHH has no code for them, and
the underscore keeps other readers from taking the file for a game they know."""

FLOP_VARIANTS: dict[str, tuple[str, str]] = {
    ("" if prefix in standard else "_") + prefix + family: (game, structure)
    for game, (family, standard) in _FLOP_FAMILIES.items()
    for prefix, structure in _PREFIX.items()
}
"""PHH variant code of a flop game -> ``(game, structure)``."""

STRUCTURE_OF_VARIANT.update({code: structure for code, (_, structure) in FLOP_VARIANTS.items()})


def variant_code(structure: str, split: str, game: str | None = None) -> str:
    """The PHH variant of a hand: ``F7S``, ``FR`` (razz: ``split = "low"``) or ``F7S/8`` (stud
    hi-lo: ``"high-low"``), with ``P``/``N`` for pot and no limit; a flop ``game`` its own code
    (``FT``, ``NT``, ``PO``, ``FO/8``, or an underscore code: ``FLOP_VARIANTS``)."""
    if game is not None and game in _FLOP_FAMILIES:
        return next(code for code, key in FLOP_VARIANTS.items() if key == (game, structure))
    return VARIANT_OF_STRUCTURE[structure][0] + FAMILY_OF_SPLIT.get(split, "7S")

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


class UnknownVariant(PhhError):
    """A history of a variant Wildstud does not deal (hold'em, Omaha...): an unusable file."""


@dataclass(frozen=True, slots=True)
class PhhAction:
    """One entry of ``actions``, parsed.

    ``index`` is its 0-based position in the array and ``line`` its 1-based line in the file
    (``None`` when the text was not found, e.g. for a history built in memory). ``player`` is the
    0-based seat (``p1`` -> 0) or ``None`` for the community card and no-ops. ``cards`` are the
    cards dealt (``dh``/``db``) or shown (``sm``; empty for a muck, and for ``sm -``, which shows
    the cards already dealt: ``show_dealt`` is then ``True``) or discarded (``sd``; empty: stand
    pat). ``amount`` is the "to" total of a
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
    starting_stacks: tuple[int, ...]
    actions: tuple[PhhAction, ...]
    bring_in: int = 0
    blinds_or_straddles: tuple[int, ...] = ()
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
    posts: tuple[tuple[int, int, int], ...] = ()
    """A flop game's ``_posts``: ``(seat, live, dead)`` of each blind posted out of position."""

    @property
    def is_flop(self) -> bool:
        """A flop game (blinds, a button, a board): ``FT``, ``NT``, ``PO``, ``FO/8``..."""
        return self.variant in FLOP_VARIANTS

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
        small_bet, big_bet or min_bet; a flop game's small_blind and big_blind too)."""
        out: dict[str, Any] = {"structure": self.structure, "ante": self.ante, "bring_in": self.bring_in}
        if self.is_flop:
            out["small_blind"], out["big_blind"] = self.blinds_or_straddles[:2]
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
