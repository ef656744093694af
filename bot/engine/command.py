"""One player action as a value: ``Command`` (kind and amount), in every spelling it has.

A ``Command`` is what a seat asks the engine to do, as python-chess's ``Move`` is one move in many
notations: ``Command.parse`` reads what players type (and the old stored codec text), ``phh`` and
``from_phh`` speak PHH action strings (``p2 cbr 40``), ``label`` is the player-facing wording.
``StudHand.verify(seat, command)`` answers "may seat 3 do this, and to how much?" by returning the
*resolved* command (``all_in`` becomes the call, bring-in or wager it is; ``timeout`` the check,
fold, bring-in, show or muck the timer takes; ``complete`` gets its amount); ``StudHand.apply``
performs it and returns the action record. A resolved command always has a PHH string, and
applying that string's command again gives the same hand: that is how a stored hand resumes.

Amounts are chips, the seat's street total *to* (SPEC §5), for ``complete``, ``bet``, ``raise``
and ``wager`` only.

>>> Command.parse("Raise 40"), Command.parse("all-in").phh_or_none(1)
(Command(kind=<Kind.RAISE: 'raise'>, amount=40, timed_out=False), None)
>>> Command(Kind.RAISE, 40).phh(1), Command.from_phh("p2 cbr 40")
('p2 cbr 40', (1, Command(kind=<Kind.WAGER: 'wager'>, amount=40, timed_out=False)))
>>> Command(Kind.FOLD, timed_out=True).phh(0), Command(Kind.RAISE, 1000).label
('p1 f  # timed out', 'raise to 1,000')
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum

from bot.engine import vocab
from bot.engine.cards.card import Card, parse_cards


class Kind(StrEnum):
    """What a command does. Equal to its name as a string (``Kind.ALL_IN == "all_in"``)."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    CHECK_OR_CALL = "check_or_call"
    """Check if nothing is owed, else call (PHH ``cc``)."""
    BRING_IN = "bring_in"
    COMPLETE = "complete"
    """Complete the bring-in; without an amount, to the small bet (or the minimum bet)."""
    BET = "bet"
    RAISE = "raise"
    WAGER = "wager"
    """Complete, bet or raise to ``amount``: whichever is legal now (PHH ``cbr``)."""
    ALL_IN = "all_in"
    SHOW = "show"
    MUCK = "muck"
    TIMEOUT = "timeout"
    """The seat's timer ran out (SPEC §7); the engine decides what that does. Not a player's action."""
    PAY = "pay"
    """A decision: match the pot (Baseball's face-up three); ``amount`` is the price, not a total."""
    BUY = "buy"
    """A decision: buy the extra card (Baseball's face-up four) for ``amount`` chips."""
    DECLINE = "decline"
    """A decision: no extra card, no chips."""
    DRAW = "draw"
    """A draw decision: discard ``cards`` (the discards; empty = stand pat) and be dealt as many."""
    STAND = "stand"
    """A draw decision: stand pat (draw no card; the same as a ``draw`` of no cards)."""
    DISCARD = "discard"
    """A decision: throw away the one card in ``cards`` (Crazy Pineapple, after the flop betting)."""
    RUN_TWICE = "run_twice"
    """A decision: agree to deal the rest of the board twice (all in before the river)."""
    RUN_ONCE = "run_once"
    """A decision: deal the rest of the board once (what the timer says)."""


AMOUNT_KINDS = frozenset({Kind.COMPLETE, Kind.BET, Kind.RAISE, Kind.WAGER})
"""Kinds that carry an amount (the street total); ``complete`` may leave it out."""

PRICE_KINDS = frozenset({Kind.PAY, Kind.BUY})
"""Decisions that carry a price (chips paid, not a street total); the hand fills it in."""

DECISION_KINDS = frozenset({Kind.PAY, Kind.BUY, Kind.DECLINE, Kind.DISCARD, Kind.RUN_TWICE,
                            Kind.RUN_ONCE, Kind.DRAW, Kind.STAND})
"""The answers to a decision (fold answers a pay-or-fold too)."""

DRAW_KINDS = frozenset({Kind.DRAW, Kind.STAND})
"""The answers to a draw decision (``stand`` is a draw of no cards)."""

CARD_KINDS = frozenset({Kind.DISCARD, Kind.DRAW})
"""Kinds that name cards (``Command.cards``)."""

PLAYER_KINDS = frozenset(Kind) - {Kind.TIMEOUT, Kind.WAGER}
"""What a player may ask for by name (``wager`` is PHH's, ``timeout`` the timer's)."""

TIMED_OUT = "timed out"
"""The PHH commentary of an action the timer took."""

_PHH_RE = re.compile(
    r"^p([1-9][0-9]*) (f|cc|pb|cbr [1-9][0-9]*|sm|sm -|sm [2-9TJQKA][cdhs](?:[2-9TJQKA][cdhs])*"
    r"|_pay [1-9][0-9]*|_buy [1-9][0-9]*|_decline|_discard [2-9TJQKA][cdhs]|_run_twice|_run_once"
    r"|sd|sd [2-9TJQKA][cdhs](?:[2-9TJQKA][cdhs])*)$"
)
_LEGACY_RE = re.compile(r"^p([1-9][0-9]*) ([a-z_]+)(?: ([0-9]+))?$")


@dataclass(frozen=True, slots=True, repr=False)
class Command:
    """``kind`` and, for a wager, ``amount`` (chips, the street total "to"); ``timed_out`` marks a
    resolved command the timer took; ``cards``: the card a ``discard`` throws away, or a ``draw``'s
    discards (secret: only the drawing player and the history file ever see them; empty = stand
    pat). Raises ``ValueError`` for an amount on a kind without one, an amount that is not an
    ``int``, cards on a kind without them, or a card named twice. Whether the amount (or the
    discard) is legal is the hand's to say: ``StudHand.verify`` raises ``IllegalAction`` with the
    reason."""

    kind: Kind
    amount: int | None = None
    timed_out: bool = False
    cards: tuple[Card, ...] = field(default=(), repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.kind, Kind):
            raise ValueError(f"not a command kind: {self.kind!r}")
        if self.cards:
            if self.kind not in CARD_KINDS:
                raise ValueError(f"{vocab.verb(self.kind)} takes no cards")
            if not isinstance(self.cards, tuple) or not all(isinstance(c, Card) for c in self.cards):
                raise ValueError(f"not cards: {self.cards!r}")
            if self.kind is Kind.DISCARD and len(self.cards) != 1:
                raise ValueError("discard one card")
            if len(set(self.cards)) != len(self.cards):
                raise ValueError("a card can be discarded only once")
        amount = self.amount
        if amount is not None:
            if self.kind not in AMOUNT_KINDS and self.kind not in PRICE_KINDS:
                raise ValueError(f"{vocab.verb(self.kind)} takes no amount")
            if not isinstance(amount, int) or isinstance(amount, bool):
                raise ValueError(f"the amount must be a whole number of chips, not {amount!r}")

    def __repr__(self) -> str:
        cards = f", cards={self.cards!r}" if self.cards else ""     # only a discard names cards
        if self.kind is Kind.DRAW and self.cards:                  # a draw's discards stay secret
            cards = f", cards=<{len(self.cards)} secret>"
        return (f"Command(kind={self.kind!r}, amount={self.amount!r}, timed_out={self.timed_out!r}"
                f"{cards})")

    # ------------------------------------------------------------------ building
    @classmethod
    def named(cls, name: str, amount: int | None = None) -> Command:
        """The command a front end sends: ``name`` in any spelling players use (``All In``,
        ``bring-in``, ``k``), ``amount`` kept only for a wager. ``ValueError`` for an unknown name
        or a missing or bad wager amount."""
        key = vocab.ALIASES.get(vocab.normalise(name))
        if key is None:
            raise ValueError(f"unknown action {name!r}")
        kind = Kind(key)
        return cls(kind, amount if kind in AMOUNT_KINDS or kind in PRICE_KINDS else None)

    @classmethod
    def parse(cls, text: str) -> Command:
        """What a player types, or one old stored codec entry without its seat: ``raise 40``,
        ``raise to 40``, ``All-in``, ``bring in``, ``timeout``. ``ValueError`` if it is not one."""
        words = text.strip().lower().replace(",", "").split()
        if words and words[0] in ("draw", "sd"):
            try:
                cards = tuple(parse_cards(words[1:]))
            except ValueError as exc:
                raise ValueError(f"not a draw: {text.strip()!r} ({exc}); say the cards, e.g. "
                                 "draw Kh 5c") from None
            return cls(Kind.DRAW, cards=cards)
        words = [w for w in words if w != "to"]
        amount: int | None = None
        if words and words[-1].isdigit() and words[-1].isascii():
            amount = int(words.pop())
        if not words:
            raise ValueError(f"not an action: {text!r}")
        if words[0] == "discard" and len(words) == 2 and amount is None:
            try:
                card = Card.parse(words[1])
            except ValueError:
                raise ValueError(f"not a card to discard: {words[1]!r}") from None
            return cls(Kind.DISCARD, cards=(card,))
        name = "_".join(words)
        if name == "timeout":
            if amount is not None:
                raise ValueError(f"not an action: {text!r}")
            return cls(Kind.TIMEOUT)
        key = vocab.ALIASES.get(vocab.normalise(name))
        if key is None:
            raise ValueError(f"unknown action {text.strip()!r}")
        return cls(Kind(key), amount)

    @classmethod
    def from_codec(cls, text: str) -> tuple[int, Command]:
        """``(engine seat, command)`` of an entry of the stored log before PHH (schema 3):
        ``p2 raise 40``, ``p1 bring_in``, ``p3 timeout``. ``ValueError`` for anything else."""
        match = _LEGACY_RE.match(text.strip())
        if match is None:
            raise ValueError(f"not an action entry: {text!r}")
        seat = int(match.group(1)) - 1
        rest = match.group(2) + ("" if match.group(3) is None else " " + match.group(3))
        return seat, cls.parse(rest)

    @classmethod
    def from_phh(cls, text: str) -> tuple[int, Command]:
        """``(engine seat, command)`` of one PHH player action (``p2 cbr 40``, ``p1 cc``, ``p3 f``,
        ``p1 pb``, ``p2 sm`` (muck), ``p2 sm -`` or ``p2 sm CARDS`` (show), and Wildstud's decisions
        ``p1 _pay 45``, ``p1 _buy 20``, ``p1 _decline``); the commentary
        ``# timed out`` sets ``timed_out``. ``cbr`` reads as ``wager`` and ``cc`` as
        ``check_or_call``: PHH does not say which of them it was. ``ValueError`` otherwise."""
        body, sep, comment = text.partition("#")
        match = _PHH_RE.match(" ".join(body.split()))
        if match is None:
            raise ValueError(f"not a PHH player action: {text!r}")
        seat = int(match.group(1)) - 1
        verb, _, arg = match.group(2).partition(" ")
        timed_out = bool(sep) and comment.strip() == TIMED_OUT
        if verb == "sd":
            return seat, cls(Kind.DRAW, None, timed_out, tuple(parse_cards(arg)) if arg else ())
        kind = {"f": Kind.FOLD, "cc": Kind.CHECK_OR_CALL, "pb": Kind.BRING_IN,
                "cbr": Kind.WAGER, "_pay": Kind.PAY, "_buy": Kind.BUY, "_decline": Kind.DECLINE,
                "_discard": Kind.DISCARD, "_run_twice": Kind.RUN_TWICE, "_run_once": Kind.RUN_ONCE}.get(verb)
        if kind is None:
            kind = Kind.SHOW if arg else Kind.MUCK
        if kind is Kind.DISCARD:
            return seat, cls(kind, None, timed_out, (Card.parse(arg),))
        priced = verb in ("cbr", "_pay", "_buy")
        return seat, cls(kind, int(arg) if priced else None, timed_out)

    # ------------------------------------------------------------------ spellings
    @property
    def resolved(self) -> bool:
        """Whether the command names exactly one PHH action (``all_in``, ``timeout`` and a
        ``complete`` without its amount need the hand to say what they are)."""
        if self.kind in (Kind.ALL_IN, Kind.TIMEOUT):
            return False
        if self.kind in AMOUNT_KINDS or self.kind in PRICE_KINDS:
            return self.amount is not None and self.amount > 0
        if self.kind is Kind.DISCARD:
            return bool(self.cards)
        return True

    def phh(self, seat: int) -> str:
        """The PHH action string for engine ``seat`` (0 = ``p1``): ``p1 f``, ``p1 cc``, ``p1 pb``,
        ``p1 cbr 20``, ``p1 sm -`` (show the cards dealt), ``p1 sm`` (muck); ``  # timed out``
        follows an action the timer took. ``ValueError`` for a command that is not ``resolved``."""
        text = self.phh_or_none(seat)
        if text is None:
            raise ValueError(f"{self.label!r} must be resolved by the hand before it has a PHH form")
        return text

    def phh_or_none(self, seat: int) -> str | None:
        """``phh(seat)``, or ``None`` for a command that is not ``resolved``."""
        if not self.resolved:
            return None
        kind = self.kind
        if kind is Kind.FOLD:
            verb = "f"
        elif kind in (Kind.CHECK, Kind.CALL, Kind.CHECK_OR_CALL):
            verb = "cc"
        elif kind is Kind.BRING_IN:
            verb = "pb"
        elif kind is Kind.SHOW:
            verb = "sm -"
        elif kind is Kind.MUCK:
            verb = "sm"
        elif kind in (Kind.DECLINE, Kind.RUN_TWICE, Kind.RUN_ONCE):
            verb = f"_{kind.value}"
        elif kind is Kind.DISCARD:
            verb = f"_discard {self.cards[0].code}"
        elif kind in DRAW_KINDS:
            verb = "sd " + "".join(c.code for c in self.cards) if self.cards else "sd"
        elif kind in PRICE_KINDS:
            verb = f"_{kind.value} {self.amount}"
        else:
            verb = f"cbr {self.amount}"
        text = f"p{seat + 1} {verb}"
        return f"{text}  # {TIMED_OUT}" if self.timed_out else text

    @property
    def text(self) -> str:
        """The command as a player would type it, read back by ``parse``: ``raise 40``, ``all_in``,
        ``discard 7h``, ``draw Kh 5c`` (a draw's text names its discards: it is for its player
        only)."""
        if self.kind is Kind.DRAW:
            return " ".join(("draw", *(c.code for c in self.cards)))
        if self.cards:
            return f"{self.kind.value} {' '.join(card.code for card in self.cards)}"
        return self.kind.value if self.amount is None else f"{self.kind.value} {self.amount}"

    @property
    def label(self) -> str:
        """The player-facing wording: ``raise to 1,000``, ``bring in``, ``go all-in``, ``fold``;
        a draw says how many cards, never which (``draw 2``, ``stand pat``)."""
        if self.kind is Kind.DRAW:
            return f"draw {len(self.cards)}" if self.cards else "stand pat"
        if self.kind is Kind.WAGER:
            return "bet or raise" if self.amount is None else f"bet or raise to {self.amount:,}"
        if self.cards:
            return f"{vocab.verb(self.kind)} {' '.join(card.code for card in self.cards)}"
        if self.amount is None:
            return vocab.verb(self.kind)
        return vocab.imperative(self.kind, self.amount)

    def as_phh(self) -> Command:
        """The command PHH keeps of this one: ``check``/``call`` become ``check_or_call`` and a
        wager with its amount becomes ``wager`` (what ``from_phh(self.phh(seat))`` gives back)."""
        if not self.resolved:
            raise ValueError(f"{self.label!r} must be resolved by the hand first")
        if self.kind in (Kind.CHECK, Kind.CALL):
            return Command(Kind.CHECK_OR_CALL, None, self.timed_out)
        if self.kind is Kind.STAND:
            return Command(Kind.DRAW, None, self.timed_out)
        if self.kind in AMOUNT_KINDS:
            return Command(Kind.WAGER, self.amount, self.timed_out)
        return self
