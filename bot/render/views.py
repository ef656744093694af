"""What a table looks like, as frozen values every front end reads: the table snapshot at the end of
each update, the prompt of the player to act, and a player's own cards.

The table service builds a ``TableSnapshot`` from its live state (``bot.tables.snapshot``); the
builders here only read engine objects and plain values, so front ends, tests and the service all
see the same thing: ``table_view(snapshot)`` is the table block (``bot.render.table``),
``prompt(...)`` the player to act with the exact legal actions, ``private(...)`` one player's own
cards. A snapshot never holds a down card except the hands turned face up (betting closed), so it
may be shown to anyone.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property

from bot.engine.betting.round import LegalActions
from bot.engine.betting.stakes import TableStakes
from bot.engine.cards.card import Card, Rank
from bot.engine.command import AMOUNT_KINDS, PRICE_KINDS, Command, Kind
from bot.engine.games.catalogue import GAMES, Game
from bot.engine.games.follow import WildEvent
from bot.engine.games.rulings import Rulings
from bot.engine.hand.hand import StudHand
from bot.engine.hand.records import Decision
from bot.engine.values.evaluator_tables import WildInFlush
from bot.engine.vocab import imperative, stage_name
from bot.render.cards import chips
from bot.render.private import flop_best_now, flop_private_text, game_best_now, private_text
from bot.render.table import SeatView, TableView


@dataclass(frozen=True, slots=True)
class ActionOption:
    """One legal action for the player to act.

    ``action`` is one of ``fold check call bring_in complete bet raise all_in show muck``, at a
    decision ``pay buy decline`` or a draw's ``draw`` (``amount``: the most cards) and ``stand``.
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
    cards: tuple[Card, ...] = ()
    """The card a ``discard`` throws away (Crazy Pineapple)."""

    @property
    def needs_amount(self) -> bool:
        """True when the player chooses the amount (a range, as in pot and no limit)."""
        return self.min_to is not None and self.max_to is not None and self.min_to != self.max_to

    @property
    def command(self) -> Command:
        """The ``Command`` this option sends: a wager with its total (a range at ``amount``, its
        smallest), a decision's choice with its price, any other action bare."""
        kind = Kind(self.action)
        return Command(kind, self.amount if kind in AMOUNT_KINDS or kind in PRICE_KINDS else None,
                       cards=self.cards)


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


@dataclass(frozen=True)
class PrivateNotice:
    """One player's own cards, sent after every street (never anyone else's down cards).

    ``best`` is their best hand right now under ``wild_ranks`` (e.g. "three kings"), or an empty
    string when the engine cannot rank so few cards; ``text`` is the private message (with
    ``opening``, the openings of their down cards, at its end). Both are worked out from the
    fields the first time they are read: valuing a hand costs an evaluation, and a front end that
    sends nothing on this street (Discord's DMs go with a new down card) never pays for it.
    ``cards``: their cards as dealt; ``board``: the other players' up cards (a wild's stand-in
    avoids them).
    """

    member: int
    name: str
    hand_id: int
    street: int
    down_cards: tuple[Card, ...]
    up_cards: tuple[Card, ...]
    community_card: Card | None
    wild_ranks: tuple[Rank, ...]
    hand_no: int
    cards: tuple[Card, ...]
    board: tuple[Card, ...]
    wild_in_flush: WildInFlush
    ranking: str = "high"
    opening: str = ""
    game: str = ""
    """The hand's game (a ``GAMES`` name): a flop game reads its own best hand and text."""
    shared: tuple[Card, ...] = ()
    """A flop game's board so far (``down_cards`` are then the hole cards; ``board`` stays the
    other players' up cards, which a wild's stand-in avoids)."""
    decision: str | None = None
    """The kind of decision the hand waits for (``Decision.kind``), None at a bet: see ``stage``."""

    @property
    def stage(self) -> str:
        """Where the hand stands, in words (``bot.engine.vocab.stage_name``): ``fifth street``, or
        ``the draw`` while the players choose their draw."""
        return stage_name(self.street, self.decision)

    @cached_property
    def flop(self) -> Game | None:
        """The flop game of the hand, or None (stud)."""
        game = GAMES.get(self.game)
        return game if game is not None and game.positional and not game.is_draw else None

    @cached_property
    def best(self) -> str:
        if self.flop is not None:
            return flop_best_now(self.flop, self.down_cards, self.shared, self.wild_ranks, self.wild_in_flush)
        own = list(self.cards) + ([self.community_card] if self.community_card is not None else [])
        return game_best_now(own, self.wild_ranks, self.wild_in_flush, self.board, self.ranking)

    @cached_property
    def text(self) -> str:
        if self.flop is not None:
            return flop_private_text(self.hand_no, self.stage, self.down_cards, self.shared,
                                     self.best, self.wild_ranks) + self.opening
        return private_text(
            self.hand_no, self.stage, self.cards, self.up_cards, self.community_card,
            self.wild_ranks, self.wild_in_flush, self.board, self.ranking, best=self.best,
        ) + self.opening


class Phase(StrEnum):
    """Where a table is: between hands, in a hand, at the end of a hand (its final state, before
    the table goes back to between hands), or at the end of a hand the dealer voided."""

    BETWEEN_HANDS = "between_hands"
    IN_HAND = "in_hand"
    OVER = "over"
    VOID = "void"


@dataclass(frozen=True, slots=True)
class SeatSnapshot:
    """One seat as everyone may see it.

    ``status``: ``active``, ``sitting_out`` or ``away``. ``dealt_in``: the seat plays the hand of
    the snapshot. ``up``: its face-up cards (every card once betting closed); ``hidden``: how many
    face-down cards to draw as backs. ``in_pot``: chips put in this hand; ``street_bet``: this
    street. ``button``: the seat deals this hand (between hands: the next one). ``drawn``: see
    below.
    """

    seat_no: int
    member: int
    name: str
    stack: int
    status: str = "active"
    leaving: bool = False
    dealt_in: bool = False
    folded: bool = False
    all_in: bool = False
    up: tuple[Card, ...] = ()
    hidden: int = 0
    in_pot: int = 0
    street_bet: int = 0
    to_act: bool = False
    button: bool = False
    drawn: tuple[int, ...] = ()
    """A draw game: how many cards each of the seat's draws so far took (0: stood pat). Public:
    everyone at a table sees how many cards a player throws away, never which."""
    waiting: bool = False
    """Not dealt in: waits for the big blind (``bot.tables.blinds``)."""
    blind: str = ""
    """A flop game's forced bet this seat posted this hand: ``SB``, ``BB`` or ``straddle``."""

    @property
    def ready(self) -> bool:
        """Would be dealt into the next hand: active, not leaving, with chips."""
        return self.status == "active" and not self.leaving and self.stack > 0


@dataclass(frozen=True, slots=True)
class TournamentBadge:
    """A tournament's table: its level and stakes, the next level's, when it comes (``next_at``:
    seconds since the epoch, for levels in minutes; ``hands_left`` for levels in hands), and the
    players left of the entrants."""

    tournament_id: int
    level: int
    stakes: str
    next_stakes: str
    next_at: float | None
    hands_left: int | None
    players_left: int
    entrants: int
    heads_up: bool = False

    def line(self, *, discord: bool = False) -> str:
        """``Tournament · level 3: 40/80, ante 10, bring-in 10 · next <t:...:R>: 60/120 ... · 4 of 6
        left``; ``discord`` uses Discord's live countdown, else the clock time (UTC)."""
        if self.next_at is not None:
            if discord:
                when = f"<t:{int(self.next_at)}:R>"
            else:
                when = "at " + time.strftime("%H:%M:%S UTC", time.gmtime(self.next_at))
        else:
            when = f"in {self.hands_left} hand{'s' if self.hands_left != 1 else ''}"
        left = "heads-up" if self.heads_up else f"{self.players_left} of {self.entrants} left"
        return (f"Tournament · level {self.level}: {self.stakes} · next {when}: {self.next_stakes}"
                f" · {left}")


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    """One table at one moment: the last item of every update, and what queries return.

    ``hand_no`` is the hand of the snapshot, or between hands the next one. ``stakes``/``rulings``
    are those in force (the hand's own during a hand); ``pending_stakes``/``pending_rulings`` wait
    for the next deal. ``wilds``: the wild list with origins. ``prompt``: the player to act, if the
    hand waits for one. ``names``: the display name of every member seen at the table.
    ``wild_events``: the engine's wild events of the hand (the cards behind ``wilds``, for
    pictures). ``log``: the table's ``log`` option (``bot.tables.options.LOG_MODES``).
    """

    table_id: int
    dealer: int
    phase: Phase
    hand_no: int
    stakes: TableStakes
    rulings: Rulings
    seats: tuple[SeatSnapshot, ...]
    hand_id: int | None = None
    street: int | None = None
    pot: int = 0
    wilds: tuple[str, ...] = ()
    community: Card | None = None
    prompt: Prompt | None = None
    pending_stakes: TableStakes | None = None
    pending_rulings: Rulings | None = None
    turn_timeout: float | None = None
    auto_deal_after: float | None = None
    void_reason: str | None = None
    names: tuple[tuple[int, str], ...] = ()
    wild_events: tuple[WildEvent, ...] = ()
    wild_ranks: tuple[Rank, ...] = ()
    log: str = "summary"
    tournament: TournamentBadge | None = None
    commitment: str = ""
    """The hand's deck commitment (SHA-256 hex), public from before its first card (issue 17: it
    stays on the table message for the whole hand); empty between hands."""
    game: str = ""
    """The game of the hand (a ``GAMES`` name); between hands, the game of the next deal (empty when
    the dealer chooses it)."""
    boards: tuple[tuple[Card, ...], ...] = ()
    """A flop game's board (one run), or both runs of a hand run twice; empty in stud."""
    board_size: int = 0
    """How many cards a full board holds (5 in the flop games, 0 in stud)."""
    decision: str | None = None
    """The kind of decision the hand waits for (``Decision.kind``: a draw, run it twice...), None at a
    bet or between hands: see ``stage``."""

    @property
    def stage(self) -> str:
        """Where the hand stands, in words (``bot.engine.vocab.stage_name``), for every front end's
        title: ``fifth street``; ``the draw`` while the players choose their draw, ``after the
        draw`` for the betting after it; ``pre-flop`` while run it twice is asked before the flop."""
        return stage_name(self.street or 3, self.decision)

    def seat_of(self, member: int) -> SeatSnapshot | None:
        """The member's seat, if seated."""
        return next((s for s in self.seats if s.member == member), None)

    def name(self, member: int) -> str:
        """A member's display name at this table (``player N`` if never seen)."""
        return dict(self.names).get(member, f"player {member}")

    @property
    def in_hand(self) -> bool:
        """A hand is being played."""
        return self.phase is Phase.IN_HAND


def action_options(legal: LegalActions) -> tuple[ActionOption, ...]:
    """The prompt's buttons from the engine's legal actions, with exact amounts.

    Fixed limit gives one option per legal total; pot and no limit one option with a range.
    """
    out: list[ActionOption] = []
    if legal.fold:
        out.append(ActionOption("fold", label="fold"))
    if legal.check:
        out.append(ActionOption("check", label="check"))
    if legal.call is not None:
        out.append(ActionOption("call", legal.call, label=f"call {chips(legal.call)}"))
    if legal.bring_in is not None:
        out.append(ActionOption("bring_in", legal.bring_in, label=f"bring in {chips(legal.bring_in)}"))
    if legal.wager is not None and legal.min_to is not None and legal.max_to is not None:
        wager = legal.wager
        verb = imperative(wager)
        if legal.to_options:
            for to in legal.to_options:
                out.append(ActionOption(wager, to, to, to, label=f"{verb} {chips(to)}"))
        elif legal.min_to == legal.max_to:
            out.append(ActionOption(wager, legal.min_to, legal.min_to, legal.max_to,
                                    label=f"{verb} {chips(legal.min_to)}"))
        else:
            out.append(ActionOption(wager, legal.min_to, legal.min_to, legal.max_to,
                                    label=f"{verb} {chips(legal.min_to)}-{chips(legal.max_to)}"))
    if legal.all_in_to is not None:
        out.append(ActionOption("all_in", legal.all_in_to, label=f"all-in ({chips(legal.all_in_to)})"))
    if legal.show:
        out.append(ActionOption("show", label="show"))
    if legal.muck:
        out.append(ActionOption("muck", label="muck"))
    return tuple(out)


def prompt(
    engine: StudHand, seat: int, *, member: int, name: str, hand_id: int, turn: int,
    deadline: float | None = None, reminder: bool = False,
) -> Prompt:
    """The prompt of engine ``seat`` (the player to act) in ``engine``'s hand, answered with
    ``hand_id`` and ``turn``: its legal actions, or at a decision the decision's choices."""
    decision = engine.decision
    where = f"{stage_name(engine.street, pending(engine))}, pot {chips(engine.pot_total)}"
    if decision is not None and decision.seat == seat:
        options = decision_options(decision)
        labels = " · ".join(o.label for o in options)
        if decision.kind == "draw":
            most = decision.amount
            asks = f"your draw: throw away up to {most} card{'s' if most != 1 else ''} or stand pat"
        elif decision.kind == "run_twice":
            asks = "everyone is all-in: run the rest of the board twice (every player must agree)?"
        elif decision.kind == "discard":
            asks = "discard one of your down cards"
        else:
            card = Card.parse(decision.card)
            asks = (f"your {card} earns an extra card" if decision.kind == "buy"
                    else f"your {card} asks you to match the pot or fold")
        return Prompt(
            member=member, name=name, hand_id=hand_id, turn=turn, options=options,
            text=f"{name}, {asks} ({where}): {labels}", deadline=deadline, reminder=reminder,
            pot=engine.pot_total,
        )
    legal = engine.legal_actions(seat)
    options = action_options(legal)
    labels = " · ".join(o.label for o in options)
    return Prompt(
        member=member, name=name, hand_id=hand_id, turn=turn, options=options,
        text=f"{name}, your turn ({where}): {labels}", deadline=deadline, reminder=reminder,
        to_call=legal.call or 0, pot=engine.pot_total,
    )


def decision_options(decision: Decision) -> tuple[ActionOption, ...]:
    """A decision's choices as the prompt's buttons, the yes (with its price) first: ``pay 45`` and
    ``fold``, or ``buy the card for 20`` and ``decline``; a draw's ``draw`` (``amount``: the most
    cards it may take; the cards are chosen privately) and ``stand``."""
    if decision.kind == "draw":
        most = decision.amount
        return (ActionOption("draw", most, label=f"draw up to {most}"),
                ActionOption("stand", label="stand pat"))
    out: list[ActionOption] = []
    for command in decision.choices:
        action = command.kind.value
        amount = command.amount
        label = imperative(action, None if amount is None else chips(amount))
        if command.cards:                     # a discard names its card
            label = f"{label} {' '.join(str(c) for c in command.cards)}"
        out.append(ActionOption(action, amount, label=label, cards=command.cards))
    return tuple(out)


def private(
    engine: StudHand, seat: int, *, member: int, name: str, hand_id: int, hand_no: int, rulings: Rulings
) -> PrivateNotice:
    """Engine ``seat``'s own cards now, for that player only (``member``); its hand value and text
    are worked out when first read. In a flop game ``down_cards`` are the hole cards and ``shared``
    the board."""
    up = engine.up_cards(seat)
    # The other players' up cards: a wild's stand-in avoids them (issue 14).
    board = tuple(c for s in range(engine.seat_count) if s != seat for c in engine.up_cards(s))
    ranking = engine.game.split if engine.game.has_low else "high"
    return PrivateNotice(
        member=member, name=name, hand_id=hand_id, street=engine.street, decision=pending(engine),
        down_cards=engine.down_cards(seat), up_cards=up, community_card=engine.community_card,
        wild_ranks=own_wild_ranks(engine, seat), hand_no=hand_no, cards=engine.cards(seat), board=board,
        wild_in_flush=rulings.wild_in_flush, ranking=ranking, game=engine.game.name,
        shared=engine.board if engine.game.positional else (),
    )


def pending(engine: StudHand) -> str | None:
    """The kind of decision ``engine``'s hand waits for (public: everyone sees whose draw or question
    it is), None at a bet: what ``stage_name`` names the street by."""
    decision = engine.decision
    return decision.kind if decision is not None else None


def own_wild_ranks(engine: StudHand, seat: int) -> tuple[Rank, ...]:
    """The ranks wild for ``seat``'s own hint, exactly the showdown's set (``seat_wilds``), in the
    order they became wild (a low-hole-wild player's own rank is theirs alone)."""
    wild = engine.seat_wilds(seat)
    shared = tuple(r for r in engine.wild_ranks if r in wild)
    return shared + tuple(sorted(wild - set(shared), reverse=True))


def table_view(snapshot: TableSnapshot) -> TableView:
    """The table block of ``snapshot`` (``format_table`` lays it out): between hands the next
    hand's number, dealer button and stakes; in a hand the seats, cards, pot, wilds and whose turn;
    after a void every seat back at its stack, no cards, no pot. ``Phase.OVER`` reads "Hand over."."""
    s = snapshot
    if s.phase is Phase.BETWEEN_HANDS:
        seats = tuple(
            SeatView(seat.seat_no, seat.name, seat.stack, _between_status(seat), (), 0, 0, 0, False,
                     seat.button)
            for seat in s.seats
        )
        ready = sum(1 for seat in s.seats if seat.ready)
        footer = "Waiting for the dealer to deal."
        if ready < 2:
            footer = "Waiting for players (two are needed)."
        if s.auto_deal_after is not None and ready >= 2:
            footer = f"The next hand is dealt in {s.auto_deal_after:g} seconds."
        title = f"{_mark(s)}Between hands (next: hand #{s.hand_no})"
        return TableView(title, snapshot_stakes(s), seats, 0, (), footer)
    if s.phase is Phase.VOID:
        seats = tuple(
            SeatView(seat.seat_no, seat.name, seat.stack, "" if seat.dealt_in else "not dealt in", (), 0,
                     0, 0, False, seat.button)
            for seat in s.seats
        )
        return TableView(f"Hand #{s.hand_no} · void", snapshot_stakes(s), seats, 0, (),
                         f"Void: {s.void_reason}. Every chip went back.")
    seats = tuple(_hand_seat(seat) for seat in s.seats)
    title = f"{_mark(s)}Hand #{s.hand_no} · {s.stage}"
    if s.phase is Phase.OVER:
        # The final picture is the showdown's (not "seventh street"), or the pot won uncontested.
        live = sum(1 for seat in s.seats if seat.dealt_in and not seat.folded)
        title = f"{_mark(s)}Hand #{s.hand_no} · {'showdown' if live > 1 else 'won without a showdown'}"
    footer = "Hand over." if s.phase is Phase.OVER else _turn_footer(s.prompt)
    return TableView(title, snapshot_stakes(s), seats, s.pot, s.wilds, footer, s.community, s.boards)


def snapshot_stakes(s: TableSnapshot) -> str:
    """The stakes line of a snapshot as its game plays them (a flop game's blinds, stud's ante and
    bring-in: ``Game.describe_stakes``): the hand's, or between hands those of the next deal (the table's
    stakes as they are when the dealer chooses the game)."""
    stakes = (s.pending_stakes or s.stakes) if s.phase is Phase.BETWEEN_HANDS else s.stakes
    return GAMES[s.game].describe_stakes(stakes) if s.game in GAMES else stakes.describe()


def _mark(s: TableSnapshot) -> str:
    """``Tournament, level 3 · `` at a tournament's table (its text table and its picture)."""
    return f"Tournament, level {s.tournament.level} · " if s.tournament is not None else ""


def _between_status(seat: SeatSnapshot) -> str:
    status = {"sitting_out": "sitting out", "away": "away"}.get(seat.status, "")
    if not status and seat.stack <= 0:
        status = "out of chips"
    return "leaving" if seat.leaving else status


def drew_note(drawn: Sequence[int]) -> str:
    """How many cards a seat drew, as the table says it: ``drew 3`` or ``stood pat`` after one draw,
    ``draws 2, 1, pat`` after several, "" before the first (or in a game without a draw).

    >>> drew_note(()), drew_note((3,)), drew_note((0,)), drew_note((2, 1, 0))
    ('', 'drew 3', 'stood pat', 'draws 2, 1, pat')
    """
    if not drawn:
        return ""
    if len(drawn) == 1:
        return f"drew {drawn[0]}" if drawn[0] else "stood pat"
    return "draws " + ", ".join(str(n) if n else "pat" for n in drawn)


def _hand_seat(seat: SeatSnapshot) -> SeatView:
    if not seat.dealt_in:
        status = "waits for the big blind" if seat.waiting and seat.ready else "not dealt in"
        return SeatView(seat.seat_no, seat.name, seat.stack, status, (), 0, 0, 0, False, False)
    status = "folded" if seat.folded else ("all-in" if seat.all_in else "")
    if seat.leaving and not status:
        status = "leaving"
    drew = drew_note(seat.drawn)
    if drew and status != "folded":
        status = f"{status}, {drew}" if status else drew
    return SeatView(seat.seat_no, seat.name, seat.stack, status, seat.up, seat.hidden, seat.in_pot,
                    seat.street_bet, seat.to_act, seat.button, seat.blind)


def _turn_footer(prompt: Prompt | None) -> str:
    if prompt is None:
        return ""
    draw = prompt.option("draw")
    if draw is not None and draw.amount is not None:
        return f"{prompt.name} to draw: up to {chips(draw.amount)} or stand pat"
    bring_in = prompt.option("bring_in")
    if bring_in is not None and bring_in.amount is not None:
        return f"{prompt.name} to act: bring in {chips(bring_in.amount)} or complete"
    owe = prompt.to_call
    return f"{prompt.name} to act" + (f": {chips(owe)} to call" if owe else "")
