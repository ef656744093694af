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

from bot.engine.errors import RulingError
from bot.engine.vocab import normalise

RULINGS: dict[str, tuple[str, ...]] = {
    # SPEC §3: which card resolves a follow, and a five that follows a five.
    "follow_target": ("next-up-card", "next-card-void", "next-card-announced", "indicator-card"),
    "five_follows_five": ("chain", "absorb"),
    # SPEC §4: hand values at showdown.
    "wild_in_flush": ("any-card", "highest-missing"),
    "natural_wins_ties": ("off", "on"),
    # SPEC §5: betting order and limits.
    "showing_hand": ("wild-aware", "natural"),
    "high_hand_tiebreak": ("position", "suit"),
    "open_pair_double": ("natural-pair", "wild-aware", "off"),
    "raise_cap": ("3", "4", "none"),
    "heads_up_uncapped": ("on", "off"),
    "burn_cards": ("off", "on"),
    # SPEC §6: odd chips of a split pot.
    "odd_chip": ("high-card-by-suit", "left-of-dealer"),
    # Issue 12 games (docs/rules.md, "Dealer's choice"); each applies only to its game (games.catalogue).
    "queen_last": ("only-queens", "no-wilds", "keep-follower"),
    "queen_follows_queen": ("chain", "absorb"),
    "follower_until_replaced": ("on", "off"),
    "three_up": ("wild", "pay-the-pot-or-fold"),
    "four_card": ("free", "bought"),
    "four_card_face": ("down", "up"),
    "low_hole_ace": ("high", "low"),
    "low_chicago_ace": ("ace-high", "ace-low"),
}
"""Every ruling name with its options, the default first (SPEC §3-§6)."""

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
    "low_hole_ace": "low-hole-wild: an ace is the highest or the lowest down card",
    "low_chicago_ace": "low-chicago: the ace of spades is high or the lowest spade",
}
"""One line per ruling, for help text."""


@dataclass(frozen=True, slots=True)
class Rulings:
    """The rulings a hand is dealt under; every field is one option string of ``RULINGS``.

    Build with keywords (``Rulings(raise_cap="4")``), from a mapping (``from_dict``) or by changing
    one ruling (``with_ruling``). Invalid values raise ``RulingError`` listing the valid options.
    """

    follow_target: str = "next-up-card"
    five_follows_five: str = "chain"
    wild_in_flush: str = "any-card"
    natural_wins_ties: str = "off"
    showing_hand: str = "wild-aware"
    high_hand_tiebreak: str = "position"
    open_pair_double: str = "natural-pair"
    raise_cap: str = "3"
    heads_up_uncapped: str = "on"
    burn_cards: str = "off"
    odd_chip: str = "high-card-by-suit"
    queen_last: str = "only-queens"
    queen_follows_queen: str = "chain"
    follower_until_replaced: str = "on"
    three_up: str = "wild"
    four_card: str = "free"
    four_card_face: str = "down"
    low_hole_ace: str = "high"
    low_chicago_ace: str = "ace-high"

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
        values: dict[str, str] = {}
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
        return replace(self, **{key: option})

    def changed_from_default(self) -> dict[str, str]:
        """Only the rulings whose option differs from the default, ``{name: option}``."""
        return {name: value for name, value in self.to_dict().items() if value != RULINGS[name][0]}

    @property
    def raise_cap_count(self) -> int | None:
        """Raises allowed after the bet in fixed limit (``None`` = no cap)."""
        return None if self.raise_cap == "none" else int(self.raise_cap)


DEFAULT_RULINGS = Rulings()
"""The defaults of SPEC.md (bold in its tables)."""
