"""Plain records returned by the store (frozen dataclasses; chips are ``int``, times are aware UTC).

Stakes, rulings and table settings are JSON objects (``dict[str, Any]``) the store keeps verbatim;
hand actions and card codes are opaque strings. The store knows no poker rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal

JSONObject = dict[str, Any]
"""A JSON-able mapping (stakes, rulings, table settings)."""

SeatStatus = Literal["active", "sitting_out", "away"]
SEAT_STATUSES: tuple[SeatStatus, ...] = ("active", "sitting_out", "away")

HandStatus = Literal["in_progress", "finished", "voided"]
TableStatus = Literal["open", "closed"]

LedgerKind = Literal[
    "starting", "transfer", "grant", "take", "daily", "buy_in", "top_up", "cash_out", "hand", "void",
    "tournament_buy_in", "tournament_prize", "tournament_refund", "tournament_chips",
]
"""What a ledger row records.

``delta`` moves the member's balance, ``stack_delta`` their seat stack at ``table_id``:

* ``starting`` (+delta, once per member and guild), ``transfer`` (one row per side), ``grant``,
  ``take``, ``daily``: balance only.
* ``buy_in``, ``top_up``: ``delta = -x``, ``stack_delta = +x``; ``cash_out``: the reverse.
* ``hand``: a settled hand's result, ``delta = 0``, ``stack_delta = final - starting``; one row per
  player dealt in; the rows of one hand sum to zero.
* ``void``: a voided hand, both deltas 0 (stacks were never moved during the hand); the reason
  says why.
* ``tournament_buy_in`` (a buy-in or rebuy into a tournament's pool, ``delta = -x``),
  ``tournament_prize`` and ``tournament_refund`` (from the pool, ``delta = +x``): balance only,
  with ``tournament_id``. ``tournament_chips``: tournament chips put on or taken off a seat at the
  tournament's table (``delta = 0``, ``stack_delta = +-x``); they never touch a balance.
"""


@dataclass(frozen=True)
class GuildSettings:
    """A guild's economy settings (defaults apply until an admin changes them)."""

    guild_id: int
    starting_chips: int = 1000
    daily_amount: int = 0
    """Chips per daily claim; 0 means the daily claim is off (the default)."""
    daily_cooldown: timedelta = timedelta(days=1)
    dealer_role_id: int | None = None

    @property
    def daily_enabled(self) -> bool:
        """Whether members may claim daily chips."""
        return self.daily_amount > 0


@dataclass(frozen=True)
class Receipt:
    """The outcome of a balance movement.

    ``applied`` is False when the idempotency key had already been used for the same movement (a
    retry): nothing moved the second time. ``balances`` are the members' balances now.
    """

    op_key: str
    applied: bool
    balances: dict[int, int]


@dataclass(frozen=True)
class LedgerEntry:
    """One row of the append-only ledger (see :data:`LedgerKind` for what the deltas mean)."""

    id: int
    guild_id: int
    member_id: int
    delta: int
    stack_delta: int
    kind: str
    reason: str
    op_key: str
    counterparty_id: int | None
    actor_id: int | None
    table_id: int | None
    hand_id: int | None
    created: datetime


@dataclass(frozen=True)
class LeaderboardRow:
    """A member's balance and the chips they have in play at the guild's open tables."""

    member_id: int
    balance: int
    in_play: int

    @property
    def total(self) -> int:
        """Balance plus chips in play."""
        return self.balance + self.in_play


@dataclass(frozen=True)
class TableRecord:
    """A table: its channel, dealer (creator), stakes, rulings and settings as stored."""

    id: int
    guild_id: int
    channel_id: int
    dealer_id: int
    stakes: JSONObject
    rulings: JSONObject
    settings: JSONObject
    status: TableStatus
    created: datetime
    closed: datetime | None


@dataclass(frozen=True)
class Seat:
    """A seat at a table; ``stack`` is the member's chips in play there."""

    table_id: int
    seat_no: int
    member_id: int
    stack: int
    status: SeatStatus


@dataclass(frozen=True)
class SeatReceipt:
    """The outcome of a buy-in, top-up or cash-out.

    ``amount`` is the chips moved (for a cash-out: the stack returned to the balance); ``seat`` is
    the seat afterwards (None after a cash-out); ``balance`` the member's balance now. ``applied``
    is False for a retry with an already used key.
    """

    op_key: str
    applied: bool
    amount: int
    seat: Seat | None
    balance: int


@dataclass(frozen=True)
class HandPlayer:
    """A player dealt into a hand: their seat, starting stack and (once settled) final stack."""

    seat_no: int
    member_id: int
    starting_stack: int
    final_stack: int | None = None


@dataclass(frozen=True)
class HandRecord:
    """Everything the store keeps about a hand: enough to rebuild it by replaying ``actions``.

    ``deck`` is the deck order as card codes (top card first); ``actions`` are the logged action
    texts in sequence order (``actions[0]`` has seq 1). ``game`` is the name of the game the hand
    was dealt as (``bot.engine.games``; hands from before issue 12 are ``sex-in-the-middle-east``).
    """

    id: int
    table_id: int
    guild_id: int
    channel_id: int
    hand_no: int
    deck: tuple[str, ...]
    commitment: str
    salt: str
    stakes: JSONObject
    rulings: JSONObject
    status: HandStatus
    players: tuple[HandPlayer, ...]
    actions: tuple[str, ...]
    phh: str | None
    void_reason: str | None
    started: datetime
    ended: datetime | None
    game: str = "sex-in-the-middle-east"

    @property
    def next_seq(self) -> int:
        """The sequence number the next action must use."""
        return len(self.actions) + 1


@dataclass(frozen=True)
class Settlement:
    """A settled hand: each member's net result (``final - starting``) and the final stacks by seat."""

    hand_id: int
    applied: bool
    net: dict[int, int]
    final_stacks: dict[int, int]


@dataclass(frozen=True)
class Payment:
    """One line of a settle-up: ``payer`` pays ``payee`` ``amount`` chips."""

    payer: int
    payee: int
    amount: int


@dataclass(frozen=True)
class SettleUp:
    """Net hand results per member over ``[since, until)`` and the fewest payments that square them."""

    guild_id: int
    since: datetime
    until: datetime
    net: dict[int, int]
    payments: list[Payment]


@dataclass(frozen=True)
class GuildAudit:
    """The audit of one guild: totals and every discrepancy found (empty when consistent)."""

    guild_id: int
    members: int
    balances: int
    in_play: int
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when no discrepancy was found."""
        return not self.problems


@dataclass(frozen=True)
class AuditReport:
    """The audit of a whole database: one :class:`GuildAudit` per guild, plus problems that belong
    to no guild (for example a ledger row whose table is missing)."""

    guilds: list[GuildAudit]
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when every guild is consistent."""
        return not self.problems and all(g.ok for g in self.guilds)

    def all_problems(self) -> list[str]:
        """Every discrepancy, guild by guild."""
        return [*self.problems, *(p for g in self.guilds for p in g.problems)]


TournamentStatus = Literal["registering", "running", "finished", "cancelled"]


@dataclass(frozen=True)
class TournamentRecord:
    """A tournament as stored: the money side (``buy_in``, ``pool``: the chips held for prizes;
    ``paid``: each entrant's buy-ins and rebuys; ``prizes``: what each was paid at the end), the
    level clock (``level``, ``level_started``), its table once started, and ``state``: the
    tournament model's own data, kept verbatim."""

    id: int
    guild_id: int
    channel_id: int
    organiser_id: int
    table_id: int | None
    status: TournamentStatus
    buy_in: int
    pool: int
    level: int
    level_started: datetime | None
    state: JSONObject
    created: datetime
    ended: datetime | None
    paid: dict[int, int]
    prizes: dict[int, int]
