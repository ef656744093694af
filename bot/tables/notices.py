"""What the table service says, and the presenter interface front ends implement.

The table service (``bot.tables.service``) never talks to Discord or a terminal directly. Every
operation on a table (a command, a click, a timer, a restart) produces ONE ``Update``: the notices
it caused, in order, ending with a frozen ``TableSnapshot`` of the table, handed to the front end
in one call, ``await presenter.update(key, update)``. The notices are:

* ``PublicNotice`` -- a public post for the table's channel. ``kind`` lets a front
  end choose how to show it: ``NoticeKind.TABLE`` carries the whole table state (Discord edits one
  message per hand with it), the other kinds are short log lines (an action, a new street, a new
  wild rank, settings announced before a deal, a hand's result, the deck reveal...).
* ``PrivateNotice`` -- one player's own cards and best hand now (after every street), addressed
  to that member only. When it cannot be delivered (Discord error 50007) the front end calls
  ``update.undelivered``, which gives the channel notice to show instead (once per player).
* ``Prompt`` -- the player to act, with the exact legal actions and amounts, and the hand id and
  turn number their answer must carry.
* ``Reply`` -- a message for one player only (e.g. "you timed out and are marked away");
  refusals of a player's own command come back to the caller as ``TableError`` instead.
* ``ShowdownNotice`` -- the shown hands, what each wild stood for, and who won each pot, built
  from the engine's result.

* ``GameChoiceNotice`` -- dealer's choice: the player on the button picks the coming deal's game.
* ``VoidConsentNotice`` -- a void that needs the other players' agreement asks for it.

``NoticePresenter`` takes an update one notice at a time, for front ends written that way.

Every notice carries finished text (from ``bot.render``) so all front ends say the same words,
plus structured fields for front ends that lay things out themselves (buttons, embeds).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import NamedTuple, Protocol

from bot.render.table import TableView, format_table
from bot.render.views import ActionOption, PrivateNotice, Prompt, TableSnapshot, table_view
from bot.tables.reveal import HandReveal

__all__ = [
    "ActionOption",
    "Actor",
    "GameChoiceNotice",
    "Notice",
    "NoticeKind",
    "NoticePresenter",
    "Presenter",
    "PrivateNotice",
    "Prompt",
    "PublicNotice",
    "Reply",
    "ShowdownNotice",
    "TableKey",
    "TableNotice",
    "TableSnapshot",
    "Undeliverable",
    "Update",
    "VoidConsentNotice",
]

log = logging.getLogger(__name__)


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
    """After the hand: the openings of the cards everyone saw (``PublicNotice.reveal``), to check
    against the commitment; nothing else is opened."""
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
    table: TableView | None = None
    """For ``TABLE`` notices: the ``bot.render.table.TableView`` drawn in ``text``."""
    snapshot: TableSnapshot | None = None
    """For ``TABLE`` notices: the table at that moment (``bot.render.views.TableSnapshot``)."""
    reveal: HandReveal | None = None
    """For ``REVEAL`` notices: the public openings (or a whole-deck reveal) as data, so each front
    end can say how to check them its own way (``text`` says it for Discord: ``/hand verify``;
    ``HandReveal.verify_command`` is the self-contained ``wildstud verify`` line)."""


class TableNotice(PublicNotice):
    """A ``TABLE`` notice made from its snapshot alone: the table block (``table``, a
    ``TableView``) and its text are drawn the first time they are read, so a front end that draws
    the table its own way (Discord) never pays for them."""

    def __init__(self, snapshot: TableSnapshot) -> None:
        for name, value in (("kind", NoticeKind.TABLE), ("hand_id", snapshot.hand_id),
                            ("snapshot", snapshot), ("reveal", None)):
            object.__setattr__(self, name, value)

    @cached_property
    def table(self) -> TableView:
        assert self.snapshot is not None
        return table_view(self.snapshot)

    @cached_property
    def text(self) -> str:
        return format_table(self.table)


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


@dataclass(frozen=True, slots=True)
class GameChoiceNotice:
    """Dealer's choice: ``member`` (``name``), on the button of the coming deal, picks its game.

    ``choice_id``: the number the answer must carry (``TableService.choose_game``); ``games``:
    ``(name, "Title: rules")`` pairs to choose from, in menu order; ``fallback``: the game the
    timer picks at ``deadline`` (the service clock's time; None: no timer). ``text``: the question
    as one line, for front ends that only print.
    """

    table_id: int
    choice_id: int
    member: int
    name: str
    games: tuple[tuple[str, str], ...]
    fallback: str
    deadline: float | None
    text: str


@dataclass(frozen=True, slots=True)
class VoidConsentNotice:
    """A void that needs consent (``TableService.void_hand``): ``asker`` asked to void hand
    ``hand_id`` for ``reason``; each of ``needed`` (``(member, name)``, the other players still in
    the hand) is asked to agree (``TableService.answer_void`` with ``request_id``). ``text``: the
    question as one line, for front ends that only print."""

    table_id: int
    request_id: int
    hand_id: int
    hand_no: int
    asker: str
    reason: str
    needed: tuple[tuple[int, str], ...]
    text: str


Notice = PublicNotice | PrivateNotice | Prompt | Reply | ShowdownNotice | GameChoiceNotice | VoidConsentNotice
"""Anything the table service says."""


class Undeliverable(Exception):
    """Raised by ``Presenter.private`` when the message cannot reach the player.

    ``reason`` is for the channel notice (e.g. "their DMs are closed").
    """

    def __init__(self, reason: str = "their direct messages are closed") -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Update:
    """Everything one operation on a table caused (a command, a click, a timer, a restart), in
    order, ending with the table as it is now.

    ``notices``: public notices, prompts, replies, the showdown and each player's private notice
    (addressed to its member), in the order they happened. ``table``: the snapshot at the end, or
    None when the operation closed the table (``table_id`` still says which table it was).
    ``now``: the service clock's time (prompts carry clock deadlines). ``private_timeout``: the
    longest a private notice may take to deliver (seconds). ``undelivered(notice, reason)``: call
    it when a private notice could not be delivered; it returns the notice to show in the channel
    instead (said once per player per table), or None. ``number``: the update's place among the
    table's updates (1, 2, ...). ``superseded``: a newer update of the same table was already made
    when this one was delivered, so its ``table`` will be shown right after: a front end may skip
    drawing this one's table (never its notices) and show only the newest.
    """

    table_id: int
    notices: tuple[Notice, ...]
    table: TableSnapshot | None
    now: float = 0.0
    private_timeout: float = 5.0
    undelivered: Callable[[PrivateNotice, str], PublicNotice | None] = field(
        default=lambda notice, reason: None, compare=False, repr=False
    )
    number: int = 0
    superseded: bool = False


class Presenter(Protocol):
    """A front end: Discord, the terminal, or a test recorder.

    The service calls ``update`` once per operation, just after releasing the table's lock (the
    update is frozen: the table may already be changing again), one call at a time per table, so
    one table's updates arrive in order. An exception is logged and swallowed by the service so
    that a broken front end cannot stall a hand.
    """

    async def update(self, table: TableKey, update: Update) -> None:
        """Show ``update``: every notice in order, and the table as it is now."""


class NoticePresenter:
    """A ``Presenter`` that takes an update one notice at a time: subclasses implement ``post``,
    ``private``, ``prompt``, ``reply`` and ``showdown`` (and ``updated``, called once at the end).

    A failing notice is logged and the rest of the update still goes out. Consecutive private
    notices are delivered concurrently, each within ``update.private_timeout`` seconds; one that
    raises ``Undeliverable`` (or times out, or fails) is replaced by the channel notice
    ``update.undelivered`` gives, at its place in the update.
    """

    async def update(self, table: TableKey, update: Update) -> None:
        batch: list[PrivateNotice] = []
        for notice in update.notices:
            if isinstance(notice, PrivateNotice):
                batch.append(notice)
                continue
            if batch:
                await self._deliver(table, update, batch)
                batch = []
            await self._one(table, notice)
        if batch:
            await self._deliver(table, update, batch)
        await _logged(self.updated(table, update))

    async def _one(self, table: TableKey, notice: Notice) -> None:
        if isinstance(notice, PublicNotice):
            await _logged(self.post(table, notice))
        elif isinstance(notice, Prompt):
            await _logged(self.prompt(table, notice))
        elif isinstance(notice, Reply):
            await _logged(self.reply(table, notice))
        elif isinstance(notice, ShowdownNotice):
            await _logged(self.showdown(table, notice))
        elif isinstance(notice, GameChoiceNotice):
            await _logged(self.choose_game(table, notice))
        elif isinstance(notice, VoidConsentNotice):
            await _logged(self.ask_void(table, notice))

    async def _deliver(self, table: TableKey, update: Update, notices: list[PrivateNotice]) -> None:
        failures = await asyncio.gather(
            *(self._private(table, n, update.private_timeout) for n in notices)
        )
        for notice, failure in zip(notices, failures, strict=True):
            if failure is not None:
                told = update.undelivered(notice, failure)
                if told is not None:
                    await self._one(table, told)

    async def _private(self, table: TableKey, notice: PrivateNotice, seconds: float) -> str | None:
        try:
            async with asyncio.timeout(seconds):
                await self.private(table, notice)
        except Undeliverable as exc:
            return exc.reason
        except TimeoutError:
            return "the message timed out"
        except Exception as exc:  # a broken front end must not stall the hand
            log.exception("private message failed")
            return f"error: {exc}"
        return None

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

    async def choose_game(self, table: TableKey, notice: GameChoiceNotice) -> None:
        """Ask the dealer's-choice chooser for the game (a select menu on Discord)."""

    async def ask_void(self, table: TableKey, notice: VoidConsentNotice) -> None:
        """Ask the players still in a hand whether they agree to void it (buttons on Discord)."""

    async def updated(self, table: TableKey, update: Update) -> None:
        """The update's notices are out; ``update.table`` is the table now."""


async def _logged(call: Awaitable[None]) -> None:
    """Await one presenter call; a failure is logged, never allowed to stop the hand."""
    try:
        await call
    except Exception:
        log.exception("presenter call failed")


@dataclass(frozen=True, slots=True)
class Actor:
    """Who asks for a table command: the member, their display name, and whether they have dealer
    rights at every table of the server (SPEC §8: Manage Server or the dealer role; a table's
    creator is always its dealer). Front ends work it out once per request."""

    member: int
    name: str = ""
    dealer_rights: bool = False
    manage_server: bool = False
    """Discord's Manage Server permission (the server's own admins): voids without anyone's
    consent (``TableService.void_hand``)."""
