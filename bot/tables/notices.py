"""What the table service says, and the presenter interface front ends implement.

The table service (``bot.tables.service``) never talks to Discord or a terminal directly. It
emits *notices* to a ``Presenter``:

* ``post(table, PublicNotice)`` -- a public post for the table's channel. ``kind`` lets a front
  end choose how to show it: ``NoticeKind.TABLE`` carries the whole table state (Discord edits one
  message per hand with it), the other kinds are short log lines (an action, a new street, a new
  wild rank, settings announced before a deal, a hand's result, the deck reveal...).
* ``private(table, PrivateNotice)`` -- one player's own cards and best hand now (after every
  street). Raise ``Undeliverable`` when it cannot be delivered (Discord error 50007); the service
  records it, tells the channel once, and never waits for it beyond a short timeout.
* ``prompt(table, Prompt)`` -- the player to act, with the exact legal actions and amounts, and
  the hand id and turn number their answer must carry.
* ``reply(table, Reply)`` -- a message for one player only (e.g. "you timed out and are marked
  away"); refusals of a player's own command come back to the caller as ``TableError`` instead.
* ``showdown(table, ShowdownNotice)`` -- the shown hands, what each wild stood for, and who won
  each pot.

Every notice carries finished text (from ``bot.render``) so all front ends say the same words,
plus structured fields for front ends that lay things out themselves (buttons, embeds).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import NamedTuple, Protocol

from bot.engine.cards import Card, Rank


class TableKey(NamedTuple):
    """A table's identity: one table per (guild, channel). The terminal uses guild 0."""

    guild: int
    channel: int

    def __str__(self) -> str:
        return f"{self.guild}/{self.channel}"


class NoticeKind(StrEnum):
    """What a public notice is about, so front ends can render each kind its own way."""

    TABLE = "table"
    """The full table state: seats, up cards, stacks, pot, wild list, whose turn it is."""
    HAND_START = "hand_start"
    """A hand begins: its number, the dealer, who is dealt in, antes, the deck commitment."""
    STREET = "street"
    """A street was dealt (the up cards each live player received)."""
    ACTION = "action"
    """One player's action (including forced ones: ante, bring-in, timeout)."""
    WILD = "wild"
    """A rank became wild, with its origin ("5♥ (Bea, 3rd) → 2♦: twos are wild")."""
    SETTINGS = "settings"
    """Stakes or rulings changed; announced before the deal that uses them."""
    SEATING = "seating"
    """Someone joined, left, sat out, came back, was marked away or was cashed out."""
    RESULT = "result"
    """Who won which pot (or everyone folded), uncalled bets returned."""
    REVEAL = "reveal"
    """The deck order and salt after the hand, to check against the commitment."""
    NO_DEAL = "no_deal"
    """A deal was asked for but cannot happen, with the reason."""
    DM_FAILED = "dm_failed"
    """A player's private message could not be delivered (said once per player per table)."""
    VOID = "void"
    """A hand was voided (e.g. it could not be resumed after a restart); chips went back."""
    INFO = "info"
    """Anything else worth a line in the channel (a resumed hand, a reminder of whose turn)."""


@dataclass(frozen=True, slots=True)
class PublicNotice:
    """A post for the table's channel. ``table`` is set for ``NoticeKind.TABLE`` notices."""

    kind: NoticeKind
    text: str
    hand_id: int | None = None
    table: object | None = None
    """For ``TABLE`` notices: a ``bot.render.view.TableView`` snapshot (kept as ``object`` here to
    avoid an import cycle; front ends may ``isinstance``-check it)."""


@dataclass(frozen=True, slots=True)
class PrivateNotice:
    """One player's own cards, sent after every street (never anyone else's down cards).

    ``best`` is their best hand right now under ``wild_ranks`` (e.g. "three kings"), or an empty
    string when the engine cannot rank so few cards.
    """

    member: int
    name: str
    hand_id: int
    street: int
    down_cards: tuple[Card, ...]
    up_cards: tuple[Card, ...]
    community_card: Card | None
    wild_ranks: tuple[Rank, ...]
    best: str
    text: str


@dataclass(frozen=True, slots=True)
class ActionOption:
    """One legal action for the player to act.

    ``action`` is one of ``fold check call bring_in complete bet raise all_in show muck``.
    ``amount`` is the chips the button would put the player's street total *to* (call, bring-in,
    complete, a fixed-limit bet/raise, all-in) or None (fold, check, show, muck). For pot and no
    limit ``bet``/``raise``, ``min_to``..``max_to`` is the allowed range of "to" totals and
    ``amount`` is the minimum.
    """

    action: str
    amount: int | None = None
    min_to: int | None = None
    max_to: int | None = None
    label: str = ""

    @property
    def needs_amount(self) -> bool:
        """True when the player chooses the amount (a range, as in pot and no limit)."""
        return self.min_to is not None and self.max_to is not None and self.min_to != self.max_to


@dataclass(frozen=True, slots=True)
class Prompt:
    """The player to act and exactly what they may do.

    Their answer must carry ``hand_id`` and ``turn``: ``TableService.act`` refuses an action meant
    for another hand or turn (a stale button, a double click). ``deadline`` is the clock time the
    timer fires (None when timers are off); ``reminder`` is True for the reminder re-prompt.
    """

    member: int
    name: str
    hand_id: int
    turn: int
    options: tuple[ActionOption, ...]
    text: str
    deadline: float | None = None
    reminder: bool = False
    to_call: int = 0
    pot: int = 0

    def option(self, action: str) -> ActionOption | None:
        """The option for ``action``, or None if it is not legal now."""
        for opt in self.options:
            if opt.action == action:
                return opt
        return None


@dataclass(frozen=True, slots=True)
class Reply:
    """A message for one player only."""

    member: int
    text: str


@dataclass(frozen=True, slots=True)
class ShowdownNotice:
    """The end of a hand that reached showdown: shown hands and pot awards, as text and data.

    ``shown`` maps each shown player's name to their rendered hand line; ``winnings`` maps member
    ids to chips won from pots (returned uncalled bets are not winnings).
    """

    hand_id: int
    text: str
    shown: tuple[tuple[str, str], ...] = ()
    winnings: dict[int, int] = field(default_factory=dict)


class Undeliverable(Exception):
    """Raised by ``Presenter.private`` when the message cannot reach the player.

    ``reason`` is for the channel notice (e.g. "their DMs are closed").
    """

    def __init__(self, reason: str = "their direct messages are closed") -> None:
        super().__init__(reason)
        self.reason = reason


class Presenter(Protocol):
    """A front end: the Discord cogs, the terminal, or a test recorder.

    Methods should return quickly; the service awaits ``private`` with a timeout and treats a
    timeout like ``Undeliverable``. Other exceptions from a presenter are logged and swallowed
    by the service so that a broken front end cannot stall a hand.
    """

    async def post(self, table: TableKey, notice: PublicNotice) -> None:
        """Show a public notice in the table's channel."""

    async def private(self, table: TableKey, notice: PrivateNotice) -> None:
        """Deliver a player's own cards; raise ``Undeliverable`` if that is impossible."""

    async def prompt(self, table: TableKey, notice: Prompt) -> None:
        """Ask the player to act (buttons in Discord, a prompt line in the terminal)."""

    async def reply(self, table: TableKey, notice: Reply) -> None:
        """Tell one player something only they should see."""

    async def showdown(self, table: TableKey, notice: ShowdownNotice) -> None:
        """Show the showdown summary in the channel."""
