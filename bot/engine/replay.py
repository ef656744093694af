"""Re-run a PHH hand history through the engine and check it (SPEC §9).

:func:`replay` builds a :class:`~bot.engine.hand.StudHand` with the history's stakes, rulings and
starting stacks, feeds it the history's cards through :class:`HistorySource` and applies every
action in order. It never raises for a bad history: the :class:`ReplayReport` it returns holds
the hand as far as it got and, if something was wrong, one :class:`ReplayError` with the
action's position (0-based ``index`` in ``actions`` and 1-based file ``line``) and a reason.

What is checked:

* every player action is legal (the engine refuses it with a reason otherwise);
* the deal lines agree with the engine's dealing: each seat's cards come from its ``d dh`` lines
  in file order, and the community card from ``d db`` -- the lines of one street may come in
  any player order, but the engine deals in the pass order of SPEC §2, which alone decides which
  card is "next" for the follow rule. A street's deal lines may not come before the betting round
  of the street before it is over, a player may not act before every card already dealt is
  written, no card may be missing, left over or dealt twice, and nobody is dealt a card after
  folding;
* ``sm`` lines show the cards the player was dealt (all of them, or the down cards alone; when
  betting closed early, also just the cards written so far);
* the recorded ``finishing_stacks``, ``winnings``, ``_wild_ranks`` and ``_wild_events`` (any that
  are present) equal the engine's.

Show and muck lines are optional: a showdown the history leaves open is finished with every
remaining hand shown (cards speak). A history that stops mid-hand replays as a hand in progress
(it must still list the cards of any street the engine has dealt, since the engine deals a street
the moment the round before it closes). Burns are not written in PHH: see :class:`HistorySource`.

>>> from bot.engine.phh import parse_phh
>>> text = '''
... variant = "F7S"
... antes = [5, 5]
... bring_in = 10
... small_bet = 20
... big_bet = 40
... starting_stacks = [500, 500]
... actions = ["d dh p1 Ah3cQc", "d dh p2 Kh7c5h", "p1 pb", "p2 f"]
... finishing_stacks = [505, 495]
... '''
>>> report = replay(parse_phh(text))
>>> report.ok, report.hand.result.winnings, report.hand.result.returned
(True, (10, 0), (10, 0))
>>> bad = replay(parse_phh(text.replace('"p1 pb"', '"p2 f"')))
>>> bad.error.kind, bad.error.index, bad.error.reason
('illegal-action', 2, 'it is not your turn: p1 is to act')
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.engine.cards import FULL_DECK, Card
from bot.engine.errors import IllegalAction
from bot.engine.events import (
    ActionTaken,
    BettingClosed,
    BringInSeat,
    BurnsScrambled,
    CommunityCardNeeded,
    FirstToAct,
    FollowNoted,
    HandMucked,
    HandShown,
    PotAwarded,
    ShowdownStarted,
    StreetStarted,
    UncalledReturned,
    WildRankAdded,
)
from bot.engine.follow import WildEvent
from bot.engine.hand import StudHand
from bot.engine.log import Action, Deal
from bot.engine.narration import Narrator
from bot.engine.phh import HandHistory, PhhAction, PhhError, RecordedWildEvent, parse_phh, player_label
from bot.engine.rulings import Rulings
from bot.engine.stakes import TableStakes
from bot.engine.vocab import STREET_NAMES, action_phrase, street_name

__all__ = [
    "ERROR_KINDS",
    "HistorySource",
    "ReplayError",
    "ReplayReport",
    "narrate",
    "replay",
    "replay_file",
    "replay_text",
    "report_json",
    "rulings_of",
    "stakes_of",
]

ERROR_KINDS = ("format", "illegal-action", "cards", "mismatch")
"""``format``: not a readable stud PHH file (or bad stakes/rulings); ``illegal-action``: the
engine refused an action; ``cards``: the deal or show lines do not fit the deal; ``mismatch``:
every action was legal but a recorded result differs from the engine's."""



@dataclass(frozen=True, slots=True)
class ReplayError:
    """What is wrong with a history.

    ``kind`` is one of :data:`ERROR_KINDS`. ``index``/``line``/``action`` locate the offending
    action (0-based position in ``actions``, 1-based file line, its text) when there is one; for a
    mismatch ``field`` names the recorded field (and ``line`` is that field's line), ``recorded``
    and ``engine`` give both values.
    """

    kind: str
    reason: str
    index: int | None = None
    line: int | None = None
    action: str | None = None
    field: str | None = None
    recorded: Any = None
    engine: Any = None

    @property
    def where(self) -> str:
        """``"action 5 (line 17)"``, ``"finishing_stacks (line 40)"`` or ``""``."""
        if self.index is not None:
            return f"action {self.index + 1}" + (f" (line {self.line})" if self.line is not None else "")
        if self.field is not None:
            return self.field + (f" (line {self.line})" if self.line is not None else "")
        return ""

    def __str__(self) -> str:
        where = self.where
        quoted = f" {self.action.strip()!r}" if self.action else ""
        return f"{where}{quoted}: {self.reason}" if where else self.reason

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: ``kind``, ``reason``, ``index``, ``line``, ``action``, ``position``
        (the 1-based action number) and, for a mismatch, ``field``, ``recorded``, ``engine``."""
        out: dict[str, Any] = {
            "kind": self.kind,
            "reason": self.reason,
            "index": self.index,
            "position": None if self.index is None else self.index + 1,
            "line": self.line,
            "action": self.action.strip() if self.action else None,
            "message": str(self),
        }
        if self.field is not None:
            out.update(field=self.field, recorded=self.recorded, engine=self.engine)
        return out


class _ReplayStop(Exception):
    """Internal: carries a ReplayError out of the engine's dealing."""

    def __init__(self, error: ReplayError) -> None:
        super().__init__(error.reason)
        self.error = error


class HistorySource:
    """A card source (``bot.engine.dealing.CardSource``) fed from a history's deal lines.

    Each seat's cards are queued in the order its ``d dh`` lines list them; ``d db`` cards (the
    community card, or an indicator card) are queued separately. The engine asks for a card for a
    given seat, in its own pass order, and gets that seat's next card; it also decides which cards
    are face up. ``remaining()`` counts the 52-card stub as the engine would see it.

    Burns (ruling ``burn_cards``) are not written in PHH, and which card was burned changes
    nothing but the stub count: a burn is a card the history never deals. If the history deals
    all of those (a seventh-street shortage scrambled the burns back and dealt them), a burn
    borrows one of the last cards the history deals: those are dealt only after the burns went
    back into the stub (TDA RP-10H), so no card is ever out twice.
    """

    __slots__ = ("_burned", "_center", "_late", "_out", "_queues", "_spare", "_taken", "_used", "missing")

    def __init__(self, history: HandHistory) -> None:
        n = history.player_count
        self._queues: list[list[Card]] = [[] for _ in range(n)]
        self._center: list[Card] = []
        order: list[Card] = []
        for action in history.actions:
            if action.kind == "dh":
                assert action.player is not None
                self._queues[action.player].extend(action.cards)
                order.extend(action.cards)
            elif action.kind == "db":
                self._center.extend(action.cards)
                order.extend(action.cards)
        used = set(order)
        self._spare = [c for c in FULL_DECK if c not in used]
        self._late = order[::-1]
        self._used: set[Card] = set()
        self._burned: set[Card] = set()
        self._taken = [0] * n
        self._out = 0
        self.missing: tuple[int | None, bool] | None = None

    def draw(self, seat: int | None, face_up: bool) -> Card:
        """The next card for ``seat`` (``None``: a burn if face down, else the next ``d db`` card).

        Raises ``LookupError`` when the history has no such card (``missing`` then says for whom).
        """
        if seat is None:
            if face_up:
                if not self._center:
                    self.missing = (None, True)
                    raise LookupError("the history has no 'd db' line for the card dealt in the centre")
                card = self._center.pop(0)
                self._used.add(card)
            else:
                card = self._burn()
        else:
            queue = self._queues[seat]
            if self._taken[seat] >= len(queue):
                self.missing = (seat, face_up)
                raise LookupError(f"the history does not say which card {player_label(seat)} was dealt")
            card = queue[self._taken[seat]]
            self._taken[seat] += 1
            self._used.add(card)
        self._out += 1
        return card

    def _burn(self) -> Card:
        burned, used = self._burned, self._used
        for card in self._spare:
            if card not in burned:
                burned.add(card)
                return card
        for card in self._late:
            if card not in burned and card not in used:
                burned.add(card)
                return card
        raise LookupError("no card is left to burn")

    def remaining(self) -> int:
        """Cards left in the stub: 52 minus the cards out (burns scrambled back count again)."""
        return 52 - self._out

    def scramble(self, cards: Sequence[Card]) -> None:
        """Burned cards go back into the stub (and may be burned, or dealt, again)."""
        self._out -= len(cards)
        self._burned.difference_update(cards)


@dataclass
class ReplayReport:
    """The outcome of a replay.

    ``history``: the parsed history (``None`` if it could not be read). ``hand``: the engine's hand
    as far as the replay got (``None`` if it could not even be dealt). ``error``: the first problem,
    or ``None``. ``applied``: how many entries of ``actions`` were applied. ``spans``: for each
    applied action, ``(index, first_event, end_event)`` -- the engine events it caused (events
    before the first action come from the antes and the third-street deal).
    ``auto_shown``: seats the replay showed because the history left the showdown open.
    ``checked``: the recorded results were compared with the engine's (``check_results``).
    """

    history: HandHistory | None
    hand: StudHand | None = None
    error: ReplayError | None = None
    applied: int = 0
    spans: list[tuple[int, int, int]] = field(default_factory=list)
    auto_shown: list[int] = field(default_factory=list)
    checked: bool = False

    @property
    def ok(self) -> bool:
        """No error."""
        return self.error is None

    @property
    def complete(self) -> bool:
        """The hand reached its end."""
        return self.hand is not None and self.hand.is_over


def stakes_of(history: HandHistory) -> TableStakes:
    """The history's stakes as ``TableStakes`` (raises ``StakesError``, a ``ValueError``)."""
    if history.structure == "fixed-limit":
        assert history.small_bet is not None and history.big_bet is not None
        return TableStakes.fixed_limit(ante=history.ante, bring_in=history.bring_in,
                                       small_bet=history.small_bet, big_bet=history.big_bet)
    assert history.min_bet is not None
    make = TableStakes.pot_limit if history.structure == "pot-limit" else TableStakes.no_limit
    return make(ante=history.ante, bring_in=history.bring_in, min_bet=history.min_bet)


def rulings_of(history: HandHistory) -> Rulings:
    """The history's ``_rulings`` as ``Rulings`` (defaults for the rest; raises ``RulingError``)."""
    return Rulings.from_dict(dict(history.rulings))


def replay_text(text: str, *, check_results: bool = True) -> ReplayReport:
    """Parse PHH text and :func:`replay` it; a parse error becomes a ``format`` error."""
    try:
        history = parse_phh(text)
    except PhhError as exc:
        return ReplayReport(None, error=ReplayError("format", exc.reason, exc.index, exc.line))
    report = replay(history, check_results=check_results)
    if report.error is not None and report.error.kind == "mismatch" and report.error.field:
        _locate_field(report, text)
    return report


def replay_file(path: str | Path, *, check_results: bool = True) -> ReplayReport:
    """Read a ``.toml``/``.phh`` file and replay it (``OSError`` propagates)."""
    return replay_text(Path(path).read_text(encoding="utf-8"), check_results=check_results)


def _locate_field(report: ReplayReport, text: str) -> None:
    err = report.error
    assert err is not None and err.field is not None
    for number, line in enumerate(text.splitlines(), 1):
        if re.match(rf"\s*{re.escape(err.field)}\s*=", line):
            report.error = ReplayError(err.kind, err.reason, None, number, None, err.field,
                                       err.recorded, err.engine)
            return


def replay(history: HandHistory, *, check_results: bool = True) -> ReplayReport:
    """Re-run ``history`` through the engine; see the module docstring for what is checked.

    With ``check_results`` false the recorded results are not compared (only legality).
    Never raises for a bad history; the report carries the error.
    """
    report = ReplayReport(history)
    try:
        stakes = stakes_of(history)
        rulings = rulings_of(history)
    except ValueError as exc:
        report.error = ReplayError("format", str(exc))
        return report
    duplicate = _first_duplicate(history)
    if duplicate is not None:
        report.error = duplicate
        return report
    source = HistorySource(history)
    manual = any(a.kind == "sm" for a in history.actions)
    try:
        hand = StudHand(list(history.starting_stacks), stakes, rulings, source, manual_showdown=manual,
                        game=history.game)
    except LookupError:
        report.error = _missing_card_error(source, None, history)
        return report
    except ValueError as exc:
        report.error = ReplayError("format", str(exc))
        return report
    report.hand = hand
    try:
        written = _cumulative_deal_counts(history)
        for action in history.actions:
            _apply(hand, history, source, action, report, written)
            report.applied += 1
        _finish(hand, report)
    except _ReplayStop as stop:
        report.error = stop.error
        return report
    if check_results:
        report.error = _compare(hand, history)
        report.checked = True
    return report


def _first_duplicate(history: HandHistory) -> ReplayError | None:
    """Each card exists once: the first deal line that deals a card a second time."""
    seen: dict[Card, PhhAction] = {}
    for action in history.actions:
        if action.kind not in ("dh", "db"):
            continue
        for card in action.cards:
            if card in seen:
                first = seen[card]
                where = f"line {first.line}" if first.line is not None else f"action {first.index + 1}"
                return ReplayError("cards", f"{card.code} is dealt twice (first at {where}): each card "
                                   "exists once in the deck", action.index, action.line, action.text)
            seen[card] = action
    return None


def _apply(hand: StudHand, history: HandHistory, source: HistorySource, action: PhhAction,
           report: ReplayReport, written: list[tuple[tuple[int, ...], int]]) -> None:
    start = len(hand.events)
    if action.kind == "noop":
        report.spans.append((action.index, start, start))
        return
    if action.kind in ("dh", "db"):
        _check_deal_line(hand, action, written[action.index])
        report.spans.append((action.index, start, start))
        return
    seat = action.player
    assert seat is not None
    if action.kind != "sm":
        _check_cards_written(hand, history, action, written[action.index])
    elif hand.is_over:
        # A player may show after everyone else folded; it changes nothing.
        _check_shown_cards(hand, action, seat, written[action.index][0][seat])
        report.spans.append((action.index, start, start))
        return
    try:
        if action.kind == "pb":
            hand.bring_in(seat)
        elif action.kind == "cbr":
            assert action.amount is not None
            hand.bet_or_raise_to(seat, action.amount)
        elif action.kind == "cc":
            hand.check_or_call(seat)
        elif action.kind == "f":
            hand.fold(seat)
        elif action.kind in ("_pay", "_buy", "_decline"):
            decision = hand.decision
            if decision is not None and action.amount is not None and action.amount != decision.amount:
                raise IllegalAction(f"the {decision.card} asks for {decision.amount}, not {action.amount}")
            hand.act(seat, action.kind[1:])
        elif action.is_muck:
            hand.muck(seat)
        else:
            _check_shown_cards(hand, action, seat, written[action.index][0][seat])
            hand.show(seat)
    except IllegalAction as exc:
        # The engine numbers seats from 1 ("seat 4"); the file calls the same player p4.
        reason = re.sub(r"\bseat (\d+)\b", r"p\1", exc.reason)
        raise _ReplayStop(ReplayError("illegal-action", reason, action.index, action.line, action.text)) \
            from None
    except LookupError:
        raise _ReplayStop(_missing_card_error(source, action, history)) from None
    except ValueError as exc:  # e.g. the engine saw a card twice
        raise _ReplayStop(ReplayError("cards", str(exc), action.index, action.line, action.text)) from None
    report.spans.append((action.index, start, len(hand.events)))


def _cumulative_deal_counts(history: HandHistory) -> list[tuple[tuple[int, ...], int]]:
    """For each action index: the cards each seat got in the file's deal lines up to and including
    that action, and the number of ``d db`` cards so far."""
    counts = [0] * history.player_count
    center = 0
    out: list[tuple[tuple[int, ...], int]] = []
    for a in history.actions:
        if a.kind == "dh":
            assert a.player is not None
            counts[a.player] += len(a.cards)
        elif a.kind == "db":
            center += 1
        out.append((tuple(counts), center))
    return out


def _center_cards(hand: StudHand) -> int:
    return (1 if hand.community_card is not None else 0) + len(hand.indicator_cards)


def _check_deal_line(hand: StudHand, action: PhhAction, written: tuple[tuple[int, ...], int]) -> None:
    counts, center = written

    def stop(reason: str) -> _ReplayStop:
        return _ReplayStop(ReplayError("cards", reason, action.index, action.line, action.text))

    if action.kind == "db":
        if _center_cards(hand) < center:
            if hand.is_over:
                raise stop("the hand is over: no more cards are dealt")
            raise stop("no card is dealt in the centre here: a community card comes only on seventh street "
                       "when the stub is short (SPEC §2)")
        return
    seat = action.player
    assert seat is not None
    who = player_label(seat)
    if len(hand.cards(seat)) < counts[seat]:
        if hand.folded(seat):
            raise stop(f"{who} has folded: folded players are dealt no more cards")
        if hand.is_over:
            raise stop("the hand is over: no more cards are dealt")
        if hand.community_card is not None:
            raise stop(f"seventh street is a community card ('d db'), not a card for {who}")
        if hand.street == 7:
            raise stop(f"{who} would get more than seven cards: no street comes after seventh street")
        raise stop(f"too early: this card is dealt only when the betting on {STREET_NAMES[hand.street]} "
                   "is over")


def _check_cards_written(hand: StudHand, history: HandHistory, action: PhhAction,
                         written: tuple[tuple[int, ...], int]) -> None:
    """Before a player acts, every card the engine has dealt must already be in a deal line."""
    counts, center = written
    for seat in range(history.player_count):
        dealt = len(hand.cards(seat))
        if dealt > counts[seat]:
            street = _street_of_card(counts[seat])
            raise _ReplayStop(ReplayError(
                "cards",
                f"{player_label(seat)}'s {street} card must be dealt (a 'd dh' line) before "
                f"{action.label} acts",
                action.index, action.line, action.text))
    if _center_cards(hand) > center:
        raise _ReplayStop(ReplayError(
            "cards", f"the community card must be dealt (a 'd db' line) before {action.label} acts",
            action.index, action.line, action.text))


def _street_of_card(position: int) -> str:
    """The street on which a seat's ``position``-th card (0-based) is dealt."""
    return STREET_NAMES[3 if position < 3 else min(position + 1, 7)]


def _check_shown_cards(hand: StudHand, action: PhhAction, seat: int, written_count: int) -> None:
    """A show line lists the player's cards as dealt -- all of them, or the down cards alone. When
    betting closed early, the line may come before the remaining deal lines (SPEC §9): then the
    cards written so far (or their down cards) are accepted too."""
    if not action.cards:
        return
    shown = sorted(action.cards)
    own = hand.cards(seat)
    down = set(hand.down_cards(seat))
    written = own[:written_count]
    accepted = (own, tuple(c for c in own if c in down), written, tuple(c for c in written if c in down))
    if any(shown == sorted(cards) for cards in accepted):
        return
    dealt = "".join(c.code for c in own)
    raise _ReplayStop(ReplayError(
        "cards",
        f"{player_label(seat)} shows {''.join(c.code for c in action.cards)} but was dealt {dealt} "
        "(list all the cards as dealt, or the down cards alone)",
        action.index, action.line, action.text))


def _missing_card_error(source: HistorySource, action: PhhAction | None, history: HandHistory) -> ReplayError:
    missing = source.missing
    if missing is not None and missing[0] is None:
        reason = "the history has no 'd db' line for the card dealt in the centre (community card)"
    elif missing is not None:
        seat = missing[0]
        assert seat is not None
        reason = (f"the history does not say which card {player_label(seat)} is dealt next "
                  "(a 'd dh' line is missing)")
    else:
        reason = "the history ran out of cards"
    if action is None:
        first = next((a for a in history.actions if a.kind != "noop"), None)
        return ReplayError("cards", reason + " on third street", None if first is None else first.index,
                           None if first is None else first.line, None if first is None else first.text)
    return ReplayError("cards", reason + " after this action", action.index, action.line, action.text)


def _finish(hand: StudHand, report: ReplayReport) -> None:
    """A showdown the history leaves open: the remaining hands are shown (cards speak, SPEC §9)."""
    while hand.phase == "showdown" and hand.actor is not None:
        seat = hand.actor
        report.auto_shown.append(seat)
        start = len(hand.events)
        hand.show(seat)
        report.spans.append((-1, start, len(hand.events)))


def _compare(hand: StudHand, history: HandHistory) -> ReplayError | None:
    result = hand.result
    if result is not None:
        finishing: tuple[int, ...] = result.final_stacks
        winnings: tuple[int, ...] = result.winnings
    else:  # a hand in progress: stacks after the actions, nothing won yet (PHH)
        finishing = tuple(hand.stack(s) for s in range(hand.seat_count))
        winnings = (0,) * hand.seat_count
    checks: list[tuple[str, Any, Any]] = []
    if history.finishing_stacks is not None:
        checks.append(("finishing_stacks", list(history.finishing_stacks), list(finishing)))
    if history.winnings is not None:
        checks.append(("winnings", list(history.winnings), list(winnings)))
    if history.wild_ranks is not None:
        recorded_ranks = [r.char for r in history.wild_ranks]
        checks.append(("_wild_ranks", recorded_ranks, [r.char for r in hand.wild_ranks]))
    if history.wild_events is not None:
        recorded_events = history.wild_events
        recorded = [_event_key(e.five, e.follow_card, e.rank.char, _recorded_details(e))
                    for e in recorded_events]
        engine = [
            _event_key(e.five, e.follow_card, e.rank.char,
                       _engine_details(e, recorded_events[i] if i < len(recorded_events) else None))
            for i, e in enumerate(hand.wild_events)
        ]
        checks.append(("_wild_events", recorded, engine))
    bad = [(name, rec, eng) for name, rec, eng in checks if rec != eng]
    if not bad:
        return None
    reason = "; ".join(f"{name} recorded {rec} but the engine gives {eng}" for name, rec, eng in bad)
    name, rec, eng = bad[0]
    return ReplayError("mismatch", reason, field=name, recorded=rec, engine=eng)


def _event_key(five: Card | None, follow: Card | None, rank: str, details: str = "") -> str:
    return f"{five.code if five else '?'}>{follow.code if follow else '?'}={rank}{details}"


def _recorded_details(e: RecordedWildEvent) -> str:
    """The optional fields a ``_wild_events`` entry records (seat, street, follow seat, how), as
    text to compare; fields it leaves out (or empty) are not compared."""
    parts = []
    if e.seat is not None:
        parts.append(f"five to {player_label(e.seat)}")
    if e.street is not None:
        parts.append(f"street {e.street}")
    if e.follow_seat is not None:
        parts.append(f"follow to {player_label(e.follow_seat)}")
    if e.how is not None:
        parts.append(e.how)
    return f" ({', '.join(parts)})" if parts else ""


def _engine_details(e: WildEvent, recorded: RecordedWildEvent | None) -> str:
    """The engine's values of the fields ``recorded`` gives (see :func:`_recorded_details`)."""
    if recorded is None:
        return ""
    parts = []
    if recorded.seat is not None:
        parts.append("five to " + ("the centre" if e.five_seat is None else player_label(e.five_seat)))
    if recorded.street is not None:
        parts.append(f"street {e.street}")
    if recorded.follow_seat is not None:
        parts.append("follow to " + ("the centre" if e.follow_seat is None else player_label(e.follow_seat)))
    if recorded.how is not None:
        parts.append(e.how)
    return f" ({', '.join(parts)})" if parts else ""


# ---------------------------------------------------------------------------------------------
# JSON
# ---------------------------------------------------------------------------------------------


def _wild_event_json(event: WildEvent) -> dict[str, Any]:
    follow_seat = None if event.follow_seat is None else player_label(event.follow_seat)
    return {
        "five": event.five.code,
        "seat": None if event.five_seat is None else player_label(event.five_seat),
        "street": event.street,
        "follow_card": event.follow_card.code,
        "follow": event.follow_card.code,
        "follow_seat": follow_seat,
        "follow_street": event.follow_street,
        "rank": event.rank.char,
        "how": event.how,
    }


def report_json(report: ReplayReport) -> dict[str, Any]:
    """The ``wildstud replay --json`` object (player labels ``p1``.., card codes, rank chars).

    Keys: ``ok``, ``complete`` (the hand reached its end), ``variant``, ``players`` (labels),
    ``names`` (the ``players`` field, or labels), ``rulings`` (the full set used),
    ``wild_ranks``, ``wild_events`` (``five``, ``seat``, ``street``, ``follow_card`` (alias
    ``follow``), ``follow_seat``, ``follow_street``, ``rank``, ``how``), ``pots`` (``amount``,
    ``eligible``, ``winners``, ``shares``: chips per winner in the order of ``winners``),
    ``returned`` (uncalled chips per player), ``winnings``, ``finishing_stacks``, ``showdown``
    (in show order: ``player``, ``category``, ``best`` (five card codes), ``cards`` (as dealt),
    ``description``, ``wilds_used``), ``mucked`` and ``error`` (``None`` or
    :meth:`ReplayError.to_dict`). Results are ``None`` when the hand could not be dealt.
    """
    history, hand = report.history, report.hand
    out: dict[str, Any] = {"ok": report.ok, "complete": report.complete}
    if history is not None:
        n = history.player_count
        out["variant"] = history.variant
        out["players"] = [player_label(s) for s in range(n)]
        out["names"] = [history.name(s) for s in range(n)]
    if hand is None:
        out.update(rulings=None, wild_ranks=None, wild_events=None, pots=None, returned=None,
                   winnings=None, finishing_stacks=None, showdown=None, mucked=None)
    else:
        out["game"] = hand.game.name
        out["rulings"] = hand.game.rulings_dict(hand.rulings)
        out["wild_ranks"] = [r.char for r in hand.wild_ranks]
        out["wild_events"] = [_wild_event_json(e) for e in hand.wild_events]
        result = hand.result
        if result is not None:
            out["pots"] = [
                {
                    "amount": pot.amount,
                    "eligible": [player_label(s) for s in pot.eligible],
                    "winners": [player_label(s) for s in pot.winners],
                    "shares": [dict(pot.shares)[s] for s in pot.winners],
                }
                for pot in result.pots
            ]
            out["returned"] = list(result.returned)
            out["winnings"] = list(result.winnings)
            out["finishing_stacks"] = list(result.final_stacks)
            out["showdown"] = [
                {
                    "player": player_label(seat),
                    "category": result.shown[seat].category.value,
                    "best": [c.code for c in result.shown[seat].best],
                    "cards": [c.code for c in hand.cards(seat)],
                    "description": result.shown[seat].describe(kickers=True),
                    "wilds_used": result.shown[seat].wilds_used,
                }
                for seat in result.show_order
                if seat in result.shown
            ]
            out["mucked"] = [player_label(s) for s in result.mucked]
        else:
            n = hand.seat_count
            out["pots"] = [
                {"amount": p.amount, "eligible": [player_label(s) for s in p.eligible], "winners": [],
                 "shares": []}
                for p in hand.pots()
            ]
            out["returned"] = [0] * n
            out["winnings"] = [0] * n
            out["finishing_stacks"] = [hand.stack(s) for s in range(n)]
            out["showdown"] = []
            out["mucked"] = []
    out["error"] = None if report.error is None else report.error.to_dict()
    return out


# ---------------------------------------------------------------------------------------------
# Narration
# ---------------------------------------------------------------------------------------------


def narrate(report: ReplayReport) -> list[str]:
    """The hand told street by street, for ``wildstud replay FILE``: cards dealt (down cards too,
    since a history is public), wild ranks added and why, the bring-in and who acts first, every
    action, uncalled bets returned, the showdown with each hand's best five, the pots and winners,
    and the final stacks; the error, if any, where it happened."""
    history, hand = report.history, report.hand
    lines: list[str] = []
    if history is None:
        lines.append(f"error: {report.error}")
        return lines
    n = history.player_count

    def who(seat: int | None) -> str:
        if seat is None:
            return "the centre"
        label = player_label(seat)
        name = history.name(seat)
        return label if name == label else f"{label} ({name})"

    stakes_text = ""
    try:
        stakes_text = stakes_of(history).describe()
    except ValueError:
        stakes_text = "invalid stakes"
    lines.append(f"{history.variant}: {stakes_text}; {n} players")
    if hand is not None:
        changed = hand.rulings.changed_from_default()
        lines.append("rulings: " + (", ".join(f"{k} = {v}" for k, v in changed.items()) if changed
                                    else "all defaults"))
    lines.append("starting stacks: " + ", ".join(f"{who(s)} {history.starting_stacks[s]}" for s in range(n)))
    if hand is None:
        if report.error is not None:
            lines.append(f"error: {report.error}")
        return lines

    events = hand.events
    narrator = _Narrator(who, [who(s) for s in range(n)])
    first = report.spans[0][1] if report.spans else len(events)
    narrator.feed(events[:first])
    for _index, start, end in report.spans:
        narrator.feed(events[start:end])
    narrator.flush()
    lines.extend(narrator.take())
    if report.error is not None:
        lines.append(f"error: {report.error}")
        return lines
    result = hand.result
    if result is None:
        lines.append("the history stops here: the hand is still in progress")
        lines.append("stacks: " + ", ".join(f"{who(s)} {hand.stack(s)}" for s in range(n)))
        return lines
    lines.append("winnings: " + ", ".join(f"{who(s)} {result.winnings[s]}" for s in range(n)))
    lines.append("finishing stacks: " + ", ".join(f"{who(s)} {result.final_stacks[s]}" for s in range(n)))
    recorded = any(x is not None for x in (history.finishing_stacks, history.winnings, history.wild_ranks,
                                            history.wild_events))
    if not recorded:
        lines.append("replayed without error")
    elif report.checked:
        lines.append("the recorded results agree with the engine")
    else:
        lines.append("the recorded results were not checked")
    return lines


class _Narrator(Narrator[str]):
    """The replay's voice of the one narrator: deals of one street grouped by seat, down cards too
    (a history is public), amounts as plain numbers."""

    def __init__(self, who: Callable[[int | None], str], names: Sequence[str]) -> None:
        super().__init__(names)
        self.who = who

    def antes_lines(self, antes: Sequence[Action]) -> list[str]:
        amounts = {a.amount for a in antes}
        if len(amounts) == 1 and not any(a.all_in for a in antes):
            return [f"  antes: {amounts.pop()} each"]
        return [f"  {self.who(a.seat)} antes {a.amount}{' (all-in)' if a.all_in else ''}" for a in antes]

    def deal_lines(self, street: int | None, cards: Sequence[Deal]) -> list[str]:
        by_seat: dict[int | None, list[str]] = {}
        for d in cards:
            by_seat.setdefault(d.seat, []).append(f"{d.card}{'' if d.face_up else ' (down)'}")
        return [f"  {self.who(seat)}: {' '.join(dealt)}" for seat, dealt in by_seat.items()]

    def keep_card(self, deal: Deal) -> None:
        if deal.kind == "burn":
            self.note("  a card is burned")
        elif deal.kind in ("community", "indicator"):
            self.note(f"  {deal.kind} card: {deal.card}")
        else:
            super().keep_card(deal)

    def visit_wild_rank_added(self, ev: WildRankAdded) -> None:
        super().visit_wild_rank_added(ev)
        who, e = self.who, ev.event
        wild = " ".join(r.char for r in ev.wild_ranks)
        how = {"announced": " (dealt face down; its rank is announced)",
               "indicator": " (an indicator card)"}.get(e.how, "")
        self.note(f"  wild: {e.five} ({who(e.five_seat)}) → {e.follow_card} "
                  f"({who(e.follow_seat)}){how}: {e.rank.plural} are wild [wild now: {wild}]")

    def visit_follow_noted(self, ev: FollowNoted) -> None:
        note, who = ev.note, self.who
        text = {
            "armed": f"  {note.five} is dealt face up to {who(note.five_seat)}: {note.awaits}",
            "already-wild": f"  {note.card} follows {note.five}, but its rank is already wild",
            "void": f"  {note.card} follows {note.five} face down: the follow is void",
            "lapsed": f"  no card follows {note.five}: its follow lapses",
        }.get(note.kind)
        if text:
            self.note(text)

    def visit_community_card_needed(self, ev: CommunityCardNeeded) -> None:
        self.note(f"  {ev.stub} cards left for {ev.live} players: one community card")

    def visit_burns_scrambled(self, ev: BurnsScrambled) -> None:
        self.note(f"  the {len(ev.cards)} burned cards go back into the stub")

    def visit_street_started(self, ev: StreetStarted) -> None:
        super().visit_street_started(ev)
        self.say(f"— {street_name(ev.street)} —")

    def visit_bring_in_seat(self, ev: BringInSeat) -> None:
        who = self.who
        if ev.passed_from is not None:
            self.say(f"  {who(ev.passed_from)} has the low door card ({ev.door}) but is all-in: "
                     f"{who(ev.seat)} brings in, completes or folds")
        else:
            self.say(f"  {who(ev.seat)} has the low door card ({ev.door}) and must bring in")

    def visit_first_to_act(self, ev: FirstToAct) -> None:
        who = self.who
        extra = " (as on sixth street: community card)" if ev.same_as_sixth else ""
        if ev.seat is not None and ev.seat != ev.high_hand:
            self.say(f"  {who(ev.high_hand)} shows the high hand (all-in); {who(ev.seat)} acts first")
        else:
            self.say(f"  {who(ev.high_hand)} shows the high hand and acts first{extra}")

    def visit_action_taken(self, ev: ActionTaken) -> None:
        super().visit_action_taken(ev)
        a = ev.action
        if a.action == "ante":
            return
        timed = " (timed out)" if a.timed_out else ""
        self.say(f"  {self.who(a.seat)} {action_phrase(a.action, a.amount, a.to)}"
                 + (" and is all-in" if a.all_in else "") + timed)

    def visit_betting_closed(self, ev: BettingClosed) -> None:
        super().visit_betting_closed(ev)
        self.say("  betting is closed: the hands are turned up and the rest is dealt without betting")

    def visit_uncalled_returned(self, ev: UncalledReturned) -> None:
        self.say(f"  {ev.amount} uncalled goes back to {self.who(ev.seat)}")

    def visit_showdown_started(self, ev: ShowdownStarted) -> None:
        self.say("— showdown — order: " + ", ".join(self.who(s) for s in ev.order))

    def visit_hand_shown(self, ev: HandShown) -> None:
        best = " ".join(str(c) for c in ev.value.best)
        self.say(f"  {self.who(ev.seat)} shows {' '.join(str(c) for c in ev.cards)}: "
                 f"{ev.value.describe(kickers=True)} ({best})")

    def visit_hand_mucked(self, ev: HandMucked) -> None:
        self.say(f"  {self.who(ev.seat)} mucks")

    def visit_pot_awarded(self, ev: PotAwarded) -> None:
        super().visit_pot_awarded(ev)
        name = "main pot" if ev.pot_index == 0 else f"side pot {ev.pot_index}"
        shares = ", ".join(f"{self.who(s)} {c}" for s, c in ev.shares)
        folded = " (everyone else folded)" if ev.by_fold else ""
        self.say(f"  {name} {ev.amount}: {shares}{folded}{ev.odd_chip_note(self.who)}")
