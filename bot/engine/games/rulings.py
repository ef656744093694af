"""The dealer's rulings (SPEC §3-§6): every open point of the rules sheet as a named option.

Each ruling is a string field of ``Rulings`` whose value is one of the options in ``RULINGS``
(default first). Names and option strings are exactly those of SPEC.md.

>>> r = Rulings()
>>> r.follow_target, r.raise_cap
('next-up-card', '3')
>>> r2 = r.with_ruling("five_follows_five", "absorb")
>>> r2.changed_from_default()
{'five_follows_five': 'absorb'}
>>> Rulings.from_dict(r2.to_dict()) == r2
True
>>> Rulings.parse_ruling("raise-cap", "none")
('raise_cap', 'none')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Literal, get_args, get_type_hints

from bot.engine.cards.card import Rank
from bot.engine.errors import RulingError
from bot.engine.values.evaluator_tables import WildInFlush
from bot.engine.values.showing import ShowingHand
from bot.engine.vocab import normalise

FollowTarget = Literal["next-up-card", "next-card-void", "next-card-announced", "indicator-card"]
Chain = Literal["chain", "absorb"]
OffOn = Literal["off", "on"]
"""A switch that is off by default."""
OnOff = Literal["on", "off"]
"""A switch that is on by default."""
HighHandTiebreak = Literal["position", "suit"]
OpenPairDouble = Literal["natural-pair", "wild-aware", "off"]
RaiseCap = Literal["3", "4", "none"]
OddChip = Literal["high-card-by-suit", "left-of-dealer"]
QueenLast = Literal["only-queens", "no-wilds", "keep-follower"]
ThreeUp = Literal["wild", "pay-the-pot-or-fold"]
FourCard = Literal["free", "bought"]
FourCardFace = Literal["down", "up"]
LowHoleAce = Literal["high", "low", "either"]
LowChicagoAce = Literal["ace-high", "ace-low"]
Openers = Literal["anything", "jacks-or-better"]
DrawLimit = Literal["three-or-four-with-ace", "three", "five"]
Reshuffle = Literal["discards", "discards-and-folds"]
WildRank = Literal["none", "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines",
                   "tens", "jacks", "queens", "kings", "aces"]
FlopAnte = Literal["none", "per-player", "big-blind"]

WILD_RANK_NAMES: tuple[str, ...] = get_args(WildRank)[1:]
"""``wild_rank``'s ranks, twos to aces (index + 2 is the rank)."""

RULING_HELP: dict[str, str] = {
    "follow_target": "which card after a face-up five sets the new wild rank",
    "five_follows_five": "whether a five that follows a five arms a new follow",
    "wild_in_flush": "what a wild card plays as in a flush",
    "natural_wins_ties": "whether the hand with fewer wild cards wins a tie",
    "showing_hand": "whether wild up cards count for the bring-in and who acts first",
    "high_hand_tiebreak": "who acts first between equal showing hands",
    "open_pair_double": "fixed limit: whether an open pair on fourth street allows the big bet",
    "raise_cap": "fixed limit: raises allowed after the bet",
    "heads_up_uncapped": "fixed limit: no raise cap when a round starts heads-up",
    "burn_cards": "burn one card before fourth to seventh street",
    "odd_chip": "who gets the odd chips of a split pot",
    "queen_last": "follow-the-queen: what is wild when a queen is the last up card",
    "queen_follows_queen": "follow-the-queen: whether a queen that follows a queen arms a new follow",
    "follower_until_replaced": "follow-the-queen: whether the old follower stays wild until the next one",
    "three_up": "baseball: a face-up three is wild, or its player must match the pot or fold",
    "four_card": "baseball: the extra card for a face-up four is free or bought",
    "four_card_face": "baseball: the extra card is dealt down or up",
    "low_hole_ace": "low-hole-wild, kings-and-little-ones: an ace is the highest or the lowest card "
                    "(either: whichever makes the player's hand better)",
    "low_chicago_ace": "low-chicago: the ace of spades is high or the lowest spade",
    "openers": "five-card draw: any hand may open the betting, or only jacks or better",
    "draw_limit": "five-card draw: the most cards one player may draw",
    "reshuffle": "draw games: what is shuffled into a new stub when the deck runs out",
    "wild_rank": "flop games: a rank the dealer makes wild (every card of it, hole or board)",
    "flop_ante": "flop games: an ante from every player, or one from the big blind for the table",
    "run_it_twice": "flop games: all-in players before the river are asked to deal the rest twice",
}
"""One line per ruling, for help text."""


@dataclass(frozen=True, slots=True)
class Rulings:
    """The rulings a hand is dealt under; every field is one option of its ``Literal`` type (the
    option strings are contracts: histories, commands and docs spell them so).

    Build with keywords (``Rulings(raise_cap="4")``), from a mapping (``from_dict``) or by changing
    one ruling (``with_ruling``). Invalid values raise ``RulingError`` listing the valid options.
    """

    follow_target: FollowTarget = "next-up-card"
    five_follows_five: Chain = "chain"
    wild_in_flush: WildInFlush = "any-card"
    natural_wins_ties: OffOn = "off"
    showing_hand: ShowingHand = "wild-aware"
    high_hand_tiebreak: HighHandTiebreak = "position"
    open_pair_double: OpenPairDouble = "natural-pair"
    raise_cap: RaiseCap = "3"
    heads_up_uncapped: OnOff = "on"
    burn_cards: OffOn = "off"
    odd_chip: OddChip = "high-card-by-suit"
    queen_last: QueenLast = "only-queens"
    queen_follows_queen: Chain = "chain"
    follower_until_replaced: OnOff = "on"
    three_up: ThreeUp = "wild"
    four_card: FourCard = "free"
    four_card_face: FourCardFace = "down"
    low_hole_ace: LowHoleAce = "high"
    low_chicago_ace: LowChicagoAce = "ace-high"
    openers: Openers = "anything"
    draw_limit: DrawLimit = "three-or-four-with-ace"
    reshuffle: Reshuffle = "discards"
    wild_rank: WildRank = "none"
    flop_ante: FlopAnte = "none"
    run_it_twice: OffOn = "off"

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            options = RULINGS[f.name]
            if value not in options:
                raise RulingError(
                    f"{value!r} is not an option of ruling {f.name}: choose one of {', '.join(options)}"
                )

    @staticmethod
    def parse_ruling(name: str, value: str) -> tuple[str, str]:
        """Normalise and check one ``name``/``value`` pair typed by a person.

        Accepts dashes or spaces for underscores in the name and any case; returns the canonical
        ``(name, value)``. Raises ``RulingError`` listing the valid names or options.

        >>> Rulings.parse_ruling("Odd Chip", "LEFT-OF-DEALER")
        ('odd_chip', 'left-of-dealer')
        """
        key = normalise(name)
        if key not in RULINGS:
            raise RulingError(f"unknown ruling {name!r}: the rulings are {', '.join(RULINGS)}")
        option = value.strip().lower()
        options = RULINGS[key]
        if option not in options:
            raise RulingError(
                f"{value!r} is not an option of ruling {key}: choose one of {', '.join(options)}"
            )
        return key, option

    @classmethod
    def from_dict(cls, data: Mapping[str, str]) -> Rulings:
        """Rulings from ``{name: option}``; missing names keep their defaults.

        Raises ``RulingError`` for an unknown name or option.
        """
        values: dict[str, Any] = {}
        for name, value in data.items():
            key, option = cls.parse_ruling(name, str(value))
            values[key] = option
        return cls(**values)

    def to_dict(self) -> dict[str, str]:
        """Every ruling as ``{name: option}``, in SPEC order."""
        return asdict(self)

    def with_ruling(self, name: str, value: str) -> Rulings:
        """A copy with one ruling changed (name and value parsed as in ``parse_ruling``)."""
        key, option = self.parse_ruling(name, value)
        changed: dict[str, Any] = {key: option}
        return replace(self, **changed)

    def changed_from_default(self) -> dict[str, str]:
        """Only the rulings whose option differs from the default, ``{name: option}``."""
        return {name: value for name, value in self.to_dict().items() if value != RULINGS[name][0]}

    @property
    def wild_rank_value(self) -> Rank | None:
        """The rank ``wild_rank`` makes wild, or ``None``."""
        if self.wild_rank == "none":
            return None
        return Rank(WILD_RANK_NAMES.index(self.wild_rank) + 2)

    @property
    def raise_cap_count(self) -> int | None:
        """Raises allowed after the bet in fixed limit (``None`` = no cap)."""
        return None if self.raise_cap == "none" else int(self.raise_cap)


RULINGS: dict[str, tuple[str, ...]] = {
    name: get_args(hint) for name, hint in get_type_hints(Rulings).items()
}
"""Every ruling name with its options, the default first (SPEC §3-§6; issue 12's games last)."""

DEFAULT_RULINGS = Rulings()
"""The defaults of SPEC.md (bold in its tables)."""
