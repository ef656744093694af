"""The seven-card stud family as data (issue 12): every game the dealer may name.

A ``Game`` says how a hand differs from plain seven-card stud: its streets (the stud deal pattern
for every game here), its wild model, Baseball's extra card and three-up payment, how each pot is
split, and which rulings apply. ``GAMES`` maps each contract name to its game, in menu order;
``sex-in-the-middle-east`` is first and the default everywhere. The rules and the choice of each
default are in docs/rules.md ("Dealer's choice"), with their sources.

>>> DEFAULT_GAME.name, [g for g in GAMES][:2]
('sex-in-the-middle-east', ['sex-in-the-middle-east', 'seven-card-stud'])
>>> game_of("Follow The Queen").wilds.trigger
<Rank.QUEEN: 12>
>>> try:
...     game_of("seven-card-stud").check_ruling("five_follows_five")
... except ValueError as exc:
...     print(str(exc)[:71])
ruling five_follows_five does not apply to seven-card-stud: its rulings
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, get_args

from bot.engine.betting.stakes import TableStakes
from bot.engine.cards.card import Rank
from bot.engine.errors import RulingError
from bot.engine.games.rulings import RULINGS, Rulings
from bot.engine.games.streets import (
    BADUGI_STREETS,
    FIVE_CARD_DRAW_STREETS,
    HOLDEM_STREETS,
    OMAHA_STREETS,
    PINEAPPLE_STREETS,
    POSITIONAL,
    RAZZ_STREETS,
    STREETS,
    TRIPLE_DRAW_STREETS,
    Street,
)
from bot.engine.vocab import normalise

WildKind = Literal["fixed", "follow", "low-hole"]
FollowMode = Literal["accumulate", "replace"]
Split = Literal["high", "high-spade", "low-spade", "low", "high-low", "deuce-to-seven", "badugi"]
"""How each pot is split: to the best hand; halved with the best spade dealt face down; to the best
ace-to-five low (razz); halved between the best high and the best eight-or-better low (stud hi-lo);
to the best deuce-to-seven low (triple draw); to the best badugi."""
Family = Literal["stud", "flop", "draw"]
"""The families of games: seven-card stud and its variants; the flop (board) games; the draw
games."""
WILD_KINDS: tuple[WildKind, ...] = get_args(WildKind)
FOLLOW_MODES: tuple[FollowMode, ...] = get_args(FollowMode)
SPLITS: tuple[Split, ...] = get_args(Split)


@dataclass(frozen=True, slots=True)
class WildModel:
    """Which ranks are wild in a game.

    ``kind``: ``"fixed"`` (``ranks`` only, the same for everyone), ``"follow"`` (``ranks`` always,
    plus the rank of the card after a face-up ``trigger``; ``mode`` ``"accumulate"`` keeps every
    follower, ``"replace"`` keeps only the latest) or ``"low-hole"`` (per player: the rank of the
    player's lowest down card, in that player's hand only, beside ``ranks`` for everyone: Kings and
    Little Ones' kings). ``ranks`` is empty for no wild cards.
    """

    kind: WildKind
    ranks: frozenset[Rank] = frozenset()
    trigger: Rank | None = None
    mode: FollowMode = "accumulate"

    def __post_init__(self) -> None:
        if self.kind not in WILD_KINDS or self.mode not in FOLLOW_MODES:
            raise ValueError(f"bad wild model {self.kind!r}/{self.mode!r}")
        if (self.kind == "follow") != (self.trigger is not None):
            raise ValueError("a follow wild model needs a trigger rank, and only it")

    @property
    def per_player(self) -> bool:
        """Wild ranks differ between players (low-hole-wild)."""
        return self.kind == "low-hole"

    @property
    def shared(self) -> bool:
        """Some rank is wild for everyone (fixed with ranks, a follow game, or Kings and Little
        Ones' kings beside each player's own low card)."""
        return self.kind == "follow" or bool(self.ranks)


BETTING_RULINGS = ("high_hand_tiebreak", "open_pair_double", "raise_cap", "heads_up_uncapped",
                   "burn_cards", "odd_chip")
"""The rulings of every game (SPEC §5-§6)."""

_WILD_VALUE_RULINGS = ("wild_in_flush", "natural_wins_ties")


@dataclass(frozen=True, slots=True)
class Game:
    """One game of the stud family.

    ``name``: the contract name (PHH ``_game``, commands, JSON). ``title``: for people. ``rules``:
    a short rules text for announcements. ``streets``: third to seventh street (``dealing.STREETS``).
    ``wilds``: the ``WildModel``. ``extra_card``: a rank that earns its holder one more card when
    dealt face up (Baseball's four), or ``None``. ``pay_rank``: a rank whose face-up card asks its
    holder to match the pot or fold under ``three_up = pay-the-pot-or-fold`` (Baseball's three).
    ``split``: ``"high"`` (best hand takes each pot), ``"high-spade"`` / ``"low-spade"`` (each pot
    halved between the best hand and the highest / lowest spade dealt face down). ``rulings``: the
    ruling names that apply, in SPEC order. ``limited``: ruling options not offered in this game,
    as ``(name, options offered)`` pairs. ``exact_hole``: a hand plays exactly this many of its own
    cards with the rest from the board (Omaha: 2, with 3 of the board); 0 for any of them.
    """

    name: str
    title: str
    rules: str
    wilds: WildModel
    rulings: tuple[str, ...]
    streets: tuple[Street, ...] = STREETS
    extra_card: Rank | None = None
    pay_rank: Rank | None = None
    split: Split = "high"
    limited: tuple[tuple[str, tuple[str, ...]], ...] = ()
    exact_hole: int = 0

    def __post_init__(self) -> None:
        if self.split not in SPLITS:
            raise ValueError(f"bad split {self.split!r}")
        for name in self.rulings:
            if name not in RULINGS:  # pragma: no cover - a programming error in GAMES
                raise ValueError(f"unknown ruling {name}")

    def check_ruling(self, name: str) -> str:
        """The canonical ruling name if it applies to this game.

        Accepts what ``Rulings.parse_ruling`` accepts; raises ``RulingError`` naming the rulings of
        this game when the ruling is unknown or belongs to other games.
        """
        key = normalise(name)
        if key not in self.rulings:
            what = f"ruling {key} does not apply to" if key in RULINGS else f"unknown ruling {name!r} for"
            raise RulingError(f"{what} {self.name}: its rulings are {', '.join(self.rulings)}")
        return key

    def options(self, name: str) -> tuple[str, ...]:
        """The options of ruling ``name`` offered in this game, the default first."""
        key = self.check_ruling(name)
        return dict(self.limited).get(key, RULINGS[key])

    def parse_ruling(self, name: str, value: str) -> tuple[str, str]:
        """``Rulings.parse_ruling`` restricted to this game: ``(name, option)`` or ``RulingError``."""
        key = self.check_ruling(name)
        key, option = Rulings.parse_ruling(key, value)
        offered = self.options(key)
        if option not in offered:
            raise RulingError(f"{option!r} is not an option of ruling {key} in {self.name}: "
                              f"choose one of {', '.join(offered)}")
        return key, option

    def rulings_dict(self, rulings: Rulings) -> dict[str, str]:
        """``{name: option}`` for this game's rulings only (what a hand history records)."""
        everything = rulings.to_dict()
        return {name: everything[name] for name in self.rulings}

    def check_rulings(self, rulings: Rulings) -> None:
        """``RulingError`` if an option this game does not offer is chosen (e.g. ``wild-aware``
        open pairs in a game without wild cards). Rulings of other games are ignored."""
        values = rulings.to_dict()
        for name, offered in self.limited:
            if name in self.rulings and values[name] not in offered:
                raise RulingError(f"{values[name]!r} is not an option of ruling {name} in {self.name}: "
                                  f"choose one of {', '.join(offered)}")

    @property
    def is_draw(self) -> bool:
        """A draw game: some street has a draw (all cards down, discards secret)."""
        return any(street.draw for street in self.streets)

    @property
    def positional(self) -> bool:
        """A flop or draw game: a button, the action by position (its streets open so)."""
        return self.streets[0].opener in POSITIONAL

    @property
    def has_blinds(self) -> bool:
        """The game posts blinds (the flop games, triple draw and badugi; not five-card draw)."""
        return any(street.opener == "blinds" for street in self.streets)

    @property
    def board_size(self) -> int:
        """Cards a full board holds (0 for stud)."""
        return sum(street.board for street in self.streets)

    @property
    def family(self) -> Family:
        """``"stud"``, ``"flop"`` or ``"draw"`` (the menu's groups)."""
        if self.is_draw:
            return "draw"
        return "flop" if self.positional else "stud"

    @property
    def has_low(self) -> bool:
        """Some pot (or half of it) goes to a low: razz and stud hi-lo (ace-to-five), deuce-to-seven
        triple draw, badugi."""
        return self.split in ("low", "high-low", "deuce-to-seven", "badugi")

    @property
    def low_only(self) -> bool:
        """Every pot goes to the best low (razz, deuce-to-seven, badugi): no high hand plays."""
        return self.split in ("low", "deuce-to-seven", "badugi")

    def describe(self) -> str:
        """``"Title: rules"`` in one line, for announcements."""
        return f"{self.title}: {self.rules}"

    def describe_stakes(self, stakes: TableStakes) -> str:
        """The stakes as a hand of this game plays them: stud's ante and bring-in
        (``TableStakes.describe``); a game with blinds (the flop games, triple draw, badugi) its
        blinds (the table's, or its standard ones: ``with_standard_blinds``) with the bets they give
        (fixed limit's small bet is the big blind, its big bet twice that); five-card draw its ante
        and the table's bets.

        >>> from bot.engine.betting.stakes import PRESETS
        >>> holdem = GAMES["texas-holdem"]
        >>> holdem.describe_stakes(PRESETS["small"]), holdem.describe_stakes(PRESETS["no-limit"])
        ('fixed limit 20/40, blinds 10/20', 'no limit, blinds 10/20')
        >>> GAMES["five-card-draw"].describe_stakes(PRESETS["small"])
        'fixed limit 20/40, ante 5'
        >>> GAMES["razz"].describe_stakes(PRESETS["small"])
        'fixed limit 20/40, ante 5 and bring-in 10'
        """
        if not self.positional:
            return stakes.describe()
        if not self.has_blinds:
            # Five-card draw: an ante each and no bring-in, betting the table's own bets.
            if stakes.structure == "fixed-limit":
                head = f"fixed limit {stakes.small_bet:,}/{stakes.big_bet:,}"
            else:
                head = f"{stakes.structure.replace('-', ' ')}, minimum bet {stakes.min_bet:,}"
            return f"{head}, ante {stakes.ante:,}"
        blinds = stakes.with_standard_blinds()
        if blinds.structure == "fixed-limit":
            head = f"fixed limit {blinds.blind_bet_unit(False):,}/{blinds.blind_bet_unit(True):,}"
        else:
            head = blinds.structure.replace("-", " ")
        return f"{head}, blinds {blinds.small_blind:,}/{blinds.big_blind:,}"


_NO_WILD_PAIRS = (("open_pair_double", ("natural-pair", "off")),)
DRAW_BETTING_RULINGS = ("raise_cap", "heads_up_uncapped")
"""The betting rulings of the draw games (no bring-in, no showing hand, no open pair, no burns; the
odd chip goes to the first winner left of the button, as in the flop games)."""
_FIVE_CARD_DRAW_RULINGS = ("openers", "draw_limit", "reshuffle")
_LOW_RULINGS = tuple(r for r in BETTING_RULINGS if r != "open_pair_double")
"""Razz and hi-lo: an open pair on fourth street changes no limit there, so that ruling does not apply."""

_GAME_LIST = (
    Game(
        "sex-in-the-middle-east", "Sex in the Middle East",
        "seven-card stud; fives wild, and each face-up five makes the rank of the next up card wild "
        "too, for the rest of the hand (wild ranks pile up)",
        WildModel("follow", frozenset({Rank.FIVE}), Rank.FIVE, "accumulate"),
        ("follow_target", "five_follows_five", "wild_in_flush", "natural_wins_ties", "showing_hand",
         *BETTING_RULINGS),
    ),
    Game(
        "seven-card-stud", "Seven-Card Stud",
        "seven-card stud, no wild cards",
        WildModel("fixed"), BETTING_RULINGS, limited=_NO_WILD_PAIRS,
    ),
    Game(
        "follow-the-queen", "Follow the Queen",
        "seven-card stud; queens wild, and a face-up queen makes the rank of the next up card wild, "
        "replacing the previous one",
        WildModel("follow", frozenset({Rank.QUEEN}), Rank.QUEEN, "replace"),
        ("queen_last", "queen_follows_queen", "follower_until_replaced", *_WILD_VALUE_RULINGS,
         "showing_hand", *BETTING_RULINGS),
    ),
    Game(
        "baseball", "Baseball",
        "seven-card stud; threes and nines wild; a face-up four earns an extra card; a face-up "
        "three is wild (or its player matches the pot or folds)",
        WildModel("fixed", frozenset({Rank.THREE, Rank.NINE})),
        ("three_up", "four_card", "four_card_face", *_WILD_VALUE_RULINGS, "showing_hand",
         *BETTING_RULINGS),
        extra_card=Rank.FOUR, pay_rank=Rank.THREE,
    ),
    Game(
        "deuces-wild", "Deuces Wild",
        "seven-card stud; twos wild",
        WildModel("fixed", frozenset({Rank.TWO})),
        (*_WILD_VALUE_RULINGS, "showing_hand", *BETTING_RULINGS),
    ),
    Game(
        "low-hole-wild", "Low Hole Wild",
        "seven-card stud; your lowest down card, and every card of its rank in your hand, is wild "
        "for you only (the last card can change it)",
        WildModel("low-hole"),
        ("low_hole_ace", *_WILD_VALUE_RULINGS, *BETTING_RULINGS), limited=_NO_WILD_PAIRS,
    ),
    Game(
        "high-chicago", "High Chicago",
        "seven-card stud, no wild cards; half the pot to the best hand, half to the highest spade "
        "dealt face down (the best hand takes all if nobody has one)",
        WildModel("fixed"), BETTING_RULINGS, split="high-spade", limited=_NO_WILD_PAIRS,
    ),
    Game(
        "low-chicago", "Low Chicago",
        "seven-card stud, no wild cards; half the pot to the best hand, half to the lowest spade "
        "dealt face down (the best hand takes all if nobody has one)",
        WildModel("fixed"), ("low_chicago_ace", *BETTING_RULINGS), split="low-spade",
        limited=_NO_WILD_PAIRS,
    ),
    Game(
        "razz", "Razz",
        "seven-card stud for the lowest hand, ace to five: aces low, straights and flushes do not "
        "count, pairs do; the highest door card brings in and the lowest showing hand acts first",
        WildModel("fixed"), _LOW_RULINGS, split="low", streets=RAZZ_STREETS,
    ),
    Game(
        "seven-card-stud-hi-lo", "Seven-Card Stud Hi-Lo",
        "seven-card stud, no wild cards; half the pot to the best high hand, half to the best low "
        "of five different ranks from ace to eight (no such low: the high takes all)",
        WildModel("fixed"), _LOW_RULINGS, split="high-low",
    ),
)

FLOP_RULINGS = ("wild_rank", "wild_in_flush", "natural_wins_ties", "flop_ante", "run_it_twice",
                "raise_cap", "heads_up_uncapped")
"""The rulings of every flop game: a wild rank (and how wild cards play), the ante, run it twice,
fixed limit's cap. The flop games always burn before the board,
and give an odd chip to the first winner left of the button (docs/rules.md, "Flop games")."""

_FLOP_LIST = (
    Game(
        "texas-holdem", "Texas Hold'em",
        "two down cards each and a board of five (flop, turn, river); the best five of your seven "
        "cards; blinds, and the action goes round from the button",
        WildModel("fixed"), FLOP_RULINGS, streets=HOLDEM_STREETS,
    ),
    Game(
        "omaha", "Omaha",
        "four down cards each and a board of five; your hand is exactly two of your cards with "
        "exactly three of the board",
        WildModel("fixed"), FLOP_RULINGS, streets=OMAHA_STREETS, exact_hole=2,
    ),
    Game(
        "omaha-hi-lo", "Omaha Hi-Lo",
        "Omaha split: half the pot to the best high hand, half to the best low of five different "
        "ranks from ace to eight (no such low: the high takes all); each half is its own two of "
        "your cards with three of the board",
        WildModel("fixed"), FLOP_RULINGS, streets=OMAHA_STREETS, exact_hole=2, split="high-low",
    ),
    Game(
        "crazy-pineapple", "Crazy Pineapple",
        "three down cards each; after the betting on the flop everyone discards one; then as "
        "Hold'em, the best five of your two cards and the board",
        WildModel("fixed"), FLOP_RULINGS, streets=PINEAPPLE_STREETS,
    ),
)

_DRAW_LIST = (
    Game(
        "five-card-draw", "Five-Card Draw",
        "five cards down after an ante, a bet, one draw of up to three cards (four when you show an "
        "ace), a bet; the best high hand wins",
        WildModel("fixed"), (*_FIVE_CARD_DRAW_RULINGS, *DRAW_BETTING_RULINGS),
        streets=FIVE_CARD_DRAW_STREETS,
    ),
    Game(
        "kings-and-little-ones", "Kings and Little Ones",
        "five-card draw; kings are wild, and your lowest card (every card of its rank in your hand) "
        "is wild for you only",
        WildModel("low-hole", frozenset({Rank.KING})),
        ("low_hole_ace", *_FIVE_CARD_DRAW_RULINGS, *_WILD_VALUE_RULINGS, *DRAW_BETTING_RULINGS),
        streets=FIVE_CARD_DRAW_STREETS,
    ),
    Game(
        "deuce-to-seven-triple-draw", "Deuce-to-Seven Triple Draw",
        "blinds, five cards down, three draws of as many cards as you like with a bet before each "
        "and after the last; the lowest hand wins: aces are high, straights and flushes count "
        "against you, and 7-5-4-3-2 is the best",
        WildModel("fixed"), ("reshuffle", *DRAW_BETTING_RULINGS), streets=TRIPLE_DRAW_STREETS,
        split="deuce-to-seven",
    ),
    Game(
        "badugi", "Badugi",
        "blinds, four cards down, three draws with a bet before each and after the last; the best "
        "hand has four cards of four different suits and ranks, the lowest wins (aces low: "
        "A-2-3-4 of four suits is the best)",
        WildModel("fixed"), ("reshuffle", *DRAW_BETTING_RULINGS), streets=BADUGI_STREETS,
        split="badugi",
    ),
)

GAMES: Mapping[str, Game] = {game.name: game for game in (*_GAME_LIST, *_FLOP_LIST, *_DRAW_LIST)}
"""Every game by name, in menu order (the default first)."""

DEFAULT_GAME = GAMES["sex-in-the-middle-east"]
"""The game of a table or a history that names none."""

DEALERS_CHOICE = "dealers-choice"
"""The table setting (not a game) under which each dealer names the game."""


def game_of(name: str | Game | None) -> Game:
    """The game called ``name`` (any case, spaces or underscores for dashes); ``None`` is the
    default game and a ``Game`` is returned as it is. Raises ``ValueError`` listing the names."""
    if name is None:
        return DEFAULT_GAME
    if isinstance(name, Game):
        return name
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    game = GAMES.get(key)
    if game is None:
        raise ValueError(f"unknown game {name!r}: the games are {', '.join(GAMES)}")
    return game
