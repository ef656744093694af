"""A table's game (issue 12): the game it deals, dealer's choice, and the rulings of its games.

A table's ``game`` setting is a game name (``bot.engine.games.catalogue.GAMES``) or ``dealers-choice``: then,
before each deal, the player on the button (the seat that deals it) picks the game from the table's
allowed list (``allowed_games``; empty means every game the engine deals). While they choose, the
table holds a ``PendingChoice``: the timer, a restart and a stale select all meet it (the timer
picks the fallback game, a restart asks again with a new choice number, and an answer carrying an
old number is refused). Everything here is kept in the table's settings JSON
(``bot.tables.repository``), so it survives a restart.

>>> fallback_game(("seven-card-stud", "deuces-wild"))
'seven-card-stud'
>>> fallback_game(())
'sex-in-the-middle-east'
>>> parse_game_list("seven card stud, Deuces Wild")
('seven-card-stud', 'deuces-wild')

Games come in families (``FAMILIES``): ``stud`` (up and down cards, a bring-in), ``flop`` (down
cards and a shared board, blinds and a button) and ``draw`` (closed hands, draws between betting
rounds). ``/table games`` and the terminal's ``games`` list them by family.

>>> GAMES["seven-card-stud"].family, GAMES["texas-holdem"].family
('stud', 'flop')
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine.betting.stakes import PRESETS, TableStakes
from bot.engine.cards.deck import Deck
from bot.engine.games.catalogue import DEALERS_CHOICE, DEFAULT_GAME, GAMES, Game, game_of
from bot.engine.games.rulings import RULINGS, Rulings
from bot.engine.hand.hand import StudHand
from bot.tables.errors import TableError

__all__ = [
    "DEALERS_CHOICE",
    "FAMILIES",
    "GameSettings",
    "PendingChoice",
    "allowed_or_all",
    "applicable_rulings",
    "check_game_setting",
    "dealable",
    "dealable_games",
    "fallback_game",
    "game_rulings_text",
    "games_by_family",
    "games_list_text",
    "parse_game_list",
    "rulings_for",
    "setting_games",
    "setting_stakes",
    "setting_title",
]


@functools.cache
def dealable(name: str) -> bool:
    """Whether the engine deals game ``name`` yet (a game still being built raises
    ``NotImplementedError`` in ``StudHand``; this asks once per process)."""
    try:
        StudHand([100, 100], PRESETS["small"].with_standard_blinds(), Rulings(), Deck.seeded(0), game=name)
    except NotImplementedError:
        return False
    return True


FAMILIES: tuple[str, ...] = ("stud", "flop", "draw")
"""The families of games, in the order menus list them."""

FAMILY_TITLES = {"stud": "Stud", "flop": "Flop games (Hold'em and Omaha)", "draw": "Draw"}


def setting_stakes(stakes: TableStakes, setting: str, allowed: Sequence[str] = ()) -> str:
    """The stakes as the games of a table's setting play them (``Game.describe_stakes``): one flop
    game's blinds, stud's ante and bring-in, and both for a dealer's choice that has both families.

    >>> from bot.engine.betting.stakes import PRESETS, TableStakes
    >>> setting_stakes(PRESETS["small"], "texas-holdem")
    'fixed limit 20/40, blinds 10/20'
    >>> setting_stakes(PRESETS["small"], DEALERS_CHOICE, ("razz", "texas-holdem"))
    'fixed limit 20/40, ante 5 and bring-in 10; blinds 10/20'
    >>> setting_stakes(PRESETS["small"], DEALERS_CHOICE, ("texas-holdem", "omaha", "five-card-draw"))
    'fixed limit 20/40, blinds 10/20; fixed limit 20/40, ante 5'
    >>> setting_stakes(PRESETS["small"], DEALERS_CHOICE, ("razz", "five-card-draw"))
    'fixed limit 20/40, ante 5 and bring-in 10'
    """
    games = [GAMES[g] for g in setting_games(setting, allowed)]
    if all(g.positional for g in games):
        # The blinds games and five-card draw (an ante): each way once, in the menu's order.
        return "; ".join(dict.fromkeys(g.describe_stakes(stakes) for g in games))
    if any(g.has_blinds for g in games):
        return stakes.with_standard_blinds().describe()
    return stakes.describe()        # stud's words cover five-card draw's ante and bets too


def games_by_family(names: Iterable[str]) -> list[tuple[str, tuple[str, ...]]]:
    """``names`` grouped by family, in ``FAMILIES`` order (each family's games in the order given);
    families with none are left out.

    >>> games_by_family(["seven-card-stud", "razz"])
    [('stud', ('seven-card-stud', 'razz'))]
    """
    names = list(names)
    grouped = [(f, tuple(n for n in names if GAMES[n].family == f)) for f in FAMILIES]
    return [(f, group) for f, group in grouped if group]


def games_list_text(settings: GameSettings, *, marker: str = "*") -> str:
    """Every game the table may deal, by family, one a line with its short rules; the game of the
    next deal (or under dealer's choice every game on the list) marked with ``marker``."""
    lines = [f"Game: {setting_title(settings.game, settings.allowed)}"]
    chosen = set(settings.allowed) if settings.game == DEALERS_CHOICE else {settings.game}
    for fam, names in games_by_family(dealable_games()):
        lines.append(f"{FAMILY_TITLES[fam]}:")
        for name in names:
            mark = marker if name in chosen else " " * len(marker)
            lines.append(f" {mark} {name}: {GAMES[name].rules}")
    return "\n".join(lines)


def dealable_games() -> tuple[str, ...]:
    """Every game the engine deals, in menu order (the default first)."""
    return tuple(name for name in GAMES if dealable(name))


def check_game(name: str) -> Game:
    """The game called ``name`` if the engine deals it; ``TableError`` (one line) otherwise."""
    try:
        game = game_of(name)
    except ValueError:
        raise TableError(f"Unknown game {name!r}: the games are {', '.join(dealable_games())}.") from None
    if not dealable(game.name):
        raise TableError(f"{game.title} cannot be dealt yet: the games are {', '.join(dealable_games())}.")
    return game


def check_game_setting(name: str) -> str:
    """A table's game setting from what a person typed: a game name or ``dealers-choice``
    (``dealer's choice``, ``dealers choice`` too); ``TableError`` otherwise."""
    key = name.strip().lower().replace("'", "").replace("_", "-").replace(" ", "-")
    if key == DEALERS_CHOICE:
        return DEALERS_CHOICE
    return check_game(name).name


def parse_game_list(text: str | Sequence[str]) -> tuple[str, ...]:
    """Game names from a comma (or space-and-comma) list, or a sequence of names; each checked,
    duplicates dropped, in the order given. ``TableError`` for an unknown game or an empty list."""
    parts = [text] if isinstance(text, str) else list(text)
    names: list[str] = []
    for part in parts:
        for item in part.split(","):
            if item.strip():
                game = check_game(item).name
                if game not in names:
                    names.append(game)
    if not names:
        raise TableError(f"Name at least one game: {', '.join(dealable_games())}.")
    return tuple(names)


def allowed_or_all(allowed: Sequence[str]) -> tuple[str, ...]:
    """The dealer's-choice list in force: ``allowed`` (games the engine deals), or every dealable
    game when it is empty."""
    games = tuple(name for name in allowed if name in GAMES and dealable(name))
    return games or dealable_games()


def setting_games(setting: str, allowed: Sequence[str] = ()) -> tuple[str, ...]:
    """The games a table's setting may deal: its one game, or under dealer's choice the list in
    force (``allowed_or_all``)."""
    return allowed_or_all(allowed) if setting == DEALERS_CHOICE else (setting,)


def fallback_game(allowed: Sequence[str]) -> str:
    """The game a dealer's choice falls back to when its timer runs out: the default game when it
    is allowed, else the first allowed game."""
    games = allowed_or_all(allowed)
    return DEFAULT_GAME.name if DEFAULT_GAME.name in games else games[0]


def setting_title(setting: str, allowed: Sequence[str] = ()) -> str:
    """``Sex in the Middle East`` or ``dealer's choice (Seven-Card Stud, Deuces Wild)``."""
    if setting == DEALERS_CHOICE:
        return "dealer's choice (" + ", ".join(GAMES[g].title for g in allowed_or_all(allowed)) + ")"
    return GAMES[setting].title


def applicable_rulings(setting: str, allowed: Sequence[str] = ()) -> tuple[str, ...]:
    """The ruling names that apply at a table with this game setting, in SPEC order: the game's,
    or under dealer's choice those of any allowed game."""
    games = setting_games(setting, allowed)
    wanted = {name for g in games for name in GAMES[g].rulings}
    return tuple(name for name in RULINGS if name in wanted)


def parse_ruling_for(setting: str, allowed: Sequence[str], name: str, value: str) -> tuple[str, str]:
    """``(name, option)`` if some game of the setting offers it; ``TableError`` naming the rulings
    (or options) that apply otherwise."""
    games = setting_games(setting, allowed)
    return _parse_ruling_for(games, setting, allowed, name, value)


def _parse_ruling_for(
    games: Sequence[str], setting: str, allowed: Sequence[str], name: str, value: str
) -> tuple[str, str]:
    first: Exception | None = None
    for g in games:
        try:
            return GAMES[g].parse_ruling(name, value)
        except ValueError as exc:
            first = first or exc
    if setting == DEALERS_CHOICE:
        rulings = ", ".join(applicable_rulings(setting, allowed))
        raise TableError(f"{name!r} = {value!r} applies to none of this table's games: "
                         f"their rulings are {rulings}.")
    raise TableError(str(first))


def rulings_for(game: Game, rulings: Rulings) -> Rulings:
    """``rulings`` with every option the game does not offer replaced by the game's default for it
    (e.g. ``wild-aware`` open pairs at a game without wild cards), so any table's rulings can deal
    any game."""
    values = rulings.to_dict()
    for name, offered in game.limited:
        if name in game.rulings and values[name] not in offered:
            values[name] = offered[0]
    return Rulings.from_dict(values)


def game_rulings_text(game: Game, rulings: Rulings) -> str:
    """``Rulings: name option, ...`` for the game's rulings only (what its announcement says)."""
    shown = game.rulings_dict(rulings_for(game, rulings))
    return "Rulings: " + ", ".join(f"{name} {option}" for name, option in shown.items())


@dataclass(frozen=True, slots=True)
class PendingChoice:
    """A dealer's choice waiting for its answer.

    ``choice_id``: the number an answer must carry (a new one for every question, also after a
    restart). ``member``/``name``: who chooses (the player on the button of the coming deal).
    ``games``: the names they may choose from; ``fallback``: the game the timer picks.
    ``deadline``: the service clock's time the timer fires (None: no timer). ``first_id``: the
    number this question was first asked under (asked again after a restart, it keeps it; None:
    it is ``choice_id``), so an answer to an earlier asking is told the question was asked again.
    """

    choice_id: int
    member: int
    name: str
    games: tuple[str, ...]
    fallback: str
    deadline: float | None = None
    first_id: int | None = None

    @property
    def first(self) -> int:
        """The number this question was first asked under."""
        return self.choice_id if self.first_id is None else self.first_id

    def to_dict(self) -> dict[str, Any]:
        """For the settings JSON (the deadline is not kept: a restart asks again)."""
        return {"id": self.choice_id, "member": self.member, "name": self.name, "games": list(self.games),
                "fallback": self.fallback, "first": self.first}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PendingChoice:
        """From the settings JSON (``ValueError``/``KeyError`` if it is not one)."""
        return cls(int(data["id"]), int(data["member"]), str(data["name"]),
                   tuple(str(g) for g in data["games"]), str(data["fallback"]),
                   first_id=int(data.get("first", data["id"])))


@dataclass(frozen=True, slots=True)
class GameSettings:
    """A table's game, as a front end reads it (``TableService.games``).

    ``setting``: a game name or ``dealers-choice`` (in force); ``pending``: the setting from the
    next deal, if changed. ``allowed``: the dealer's-choice list in force (never empty). ``hand_game``:
    the game of the hand in progress (None between hands). ``choice``: the dealer's choice waiting
    for an answer, if any. ``rulings``: the ruling names that apply (see ``applicable_rulings``).
    """

    setting: str
    pending: str | None
    allowed: tuple[str, ...]
    hand_game: str | None
    choice: PendingChoice | None
    rulings: tuple[str, ...]

    @property
    def game(self) -> str:
        """The setting that the next deal uses."""
        return self.pending or self.setting


def titles(names: Iterable[str]) -> str:
    """``Seven-Card Stud, Deuces Wild``."""
    return ", ".join(GAMES[n].title for n in names)
