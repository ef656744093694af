"""Re-run a PHH hand history through the engine and check it (SPEC §9).

:func:`replay` builds a :class:`~bot.engine.hand.hand.StudHand` with the history's stakes, rulings and
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

The report and error types (and ``stakes_of``/``rulings_of``) are in ``report``, the ``--json``
object (``report_json``) in ``as_json`` and the narration (``narrate``) in ``story``.

>>> from bot.engine.phh.parser import parse_phh
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
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.engine.cards.card import FULL_DECK, Card
from bot.engine.command import Command, Kind
from bot.engine.errors import IllegalAction
from bot.engine.games.catalogue import game_of
from bot.engine.games.follow import WildEvent
from bot.engine.hand.hand import StudHand
from bot.engine.hand.options import NO_OPTIONS
from bot.engine.log import Deal
from bot.engine.phh.history import (
    HandHistory,
    PhhAction,
    PhhError,
    RecordedWildEvent,
    UnknownVariant,
    player_label,
)
from bot.engine.phh.parser import parse_phh
from bot.engine.replay.report import ReplayError, ReplayReport, flop_setup, rulings_of, stakes_of
from bot.engine.vocab import STREET_NAMES

__all__ = ["HistorySource", "replay", "replay_file", "replay_text"]


class _ReplayStop(Exception):
    """Internal: carries a ReplayError out of the engine's dealing."""

    def __init__(self, error: ReplayError) -> None:
        super().__init__(error.reason)
        self.error = error


class HistorySource:
    """A card source (``bot.engine.cards.deck.CardSource``) fed from a history's deal lines.

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

    def reshuffle(self, cards: Sequence[Card]) -> None:
        """A draw game's discards go back into the stub: the history's deal lines say what came."""
        self._out -= len(cards)



def replay_text(text: str, *, check_results: bool = True) -> ReplayReport:
    """Parse PHH text and :func:`replay` it; a parse error becomes a ``format`` error."""
    try:
        history = parse_phh(text)
    except PhhError as exc:
        kind = "variant" if isinstance(exc, UnknownVariant) else "format"
        return ReplayReport(None, error=ReplayError(kind, exc.reason, exc.index, exc.line))
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
    options = NO_OPTIONS
    try:
        rulings = rulings_of(history)
        if history.is_flop:
            stakes, rulings, options = flop_setup(history, rulings)
        else:
            stakes = stakes_of(history)
    except ValueError as exc:
        report.error = ReplayError("format", str(exc))
        return report
    # A draw game deals a discard again after a reshuffle; the engine itself refuses a card that
    # is in play twice.
    duplicate = None if game_of(history.game).is_draw else _first_duplicate(history)
    if duplicate is not None:
        report.error = duplicate
        return report
    source = HistorySource(history)
    manual = any(a.kind == "sm" for a in history.actions)
    try:
        # A flop game's p1 is the seat left of the button: the button is the last seat.
        button = history.player_count - 1 if history.is_flop or game_of(history.game).is_draw else 0
        hand = StudHand(list(history.starting_stacks), stakes, rulings, source, manual_showdown=manual,
                        game=history.game, button=button, options=options)
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
    if _tabled_or_lone(hand, action, seat, written[action.index][0][seat]):
        report.spans.append((action.index, start, len(hand.events)))
        return
    if action.kind not in ("sm", "sd"):      # a draw's deal lines follow every discard of the round
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
        elif action.kind == "_discard":
            hand.apply(seat, Command(Kind.DISCARD, cards=action.cards))
        elif action.kind in ("_run_twice", "_run_once"):
            hand.apply(seat, Command(Kind(action.kind[1:])))
        elif action.kind in ("_pay", "_buy", "_decline"):
            decision = hand.decision
            if decision is not None and action.amount is not None and action.amount != decision.amount:
                raise IllegalAction(f"the {decision.card} asks for {decision.amount}, not {action.amount}")
            hand.apply(seat, Command(Kind(action.kind[1:])))
        elif action.kind == "sd":
            hand.apply(seat, Command(Kind.DRAW, cards=action.cards))
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


def _tabled_or_lone(hand: StudHand, action: PhhAction, seat: int, written_count: int) -> bool:
    """Another tool's all-in notation (pokerkit's): True when ``action`` needs nothing more.

    Once the betting is closed every live hand is tabled at once, so the file may write the shows
    in any order, before the last cards (with the cards dealt so far) and again after seventh
    street: a show out of the engine's order tables every hand still to show, and a show of a
    hand already shown only has its cards checked. A check by the one player left with chips
    (pokerkit still asks that player to act) changes nothing."""
    if action.kind == "cc":
        able = [s for s in hand.live_seats if not hand.is_all_in(s)]
        return not hand.is_over and (hand.betting_closed or hand.phase == "showdown") and able == [seat]
    if not hand.betting_closed:
        return False
    if action.kind != "sm" or action.is_muck:
        return False
    shown = hand.result.shown if hand.result is not None else {}
    waiting = hand.phase == "showdown" and seat != hand.actor and seat in hand.show_order
    if seat not in shown and not waiting and not hand.is_over:
        return False
    _check_shown_cards(hand, action, seat, written_count)
    while waiting and hand.phase == "showdown" and hand.actor is not None:
        hand.show(hand.actor)
    return True


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
            center += len(a.cards)
        out.append((tuple(counts), center))
    return out


def _center_cards(hand: StudHand) -> int:
    """Cards dealt face up to the centre so far: the community card, indicator cards, a flop game's
    board (both boards when it is run twice)."""
    return sum(1 for entry in hand.log if type(entry) is Deal and entry.seat is None and entry.face_up)


def _board_street(cards: int) -> str:
    """The street that deals a flop game's ``cards``-th board card (1-based)."""
    return "flop" if cards <= 3 else "turn" if cards == 4 else "river"


def _check_deal_line(hand: StudHand, action: PhhAction, written: tuple[tuple[int, ...], int]) -> None:
    counts, center = written

    def stop(reason: str) -> _ReplayStop:
        return _ReplayStop(ReplayError("cards", reason, action.index, action.line, action.text))

    if action.kind == "db":
        if _center_cards(hand) < center:
            if hand.is_over:
                raise stop("the hand is over: no more cards are dealt")
            if hand.game.positional:
                if center > hand.game.board_size:
                    raise stop(f"the board holds {hand.game.board_size} cards: 'd db' deals {center}")
                raise stop(f"too early: the {_board_street(center)} is dealt only when the betting "
                           f"on {STREET_NAMES[hand.street]} is over")
            raise stop("no card is dealt in the centre here: a community card comes only on seventh street "
                       "when the stub is short (SPEC §2)")
        return
    seat = action.player
    assert seat is not None
    who = player_label(seat)
    if dealt_count(hand, seat) < counts[seat]:
        if hand.folded(seat):
            raise stop(f"{who} has folded: folded players are dealt no more cards")
        if hand.is_over:
            raise stop("the hand is over: no more cards are dealt")
        if hand.community_card is not None:
            raise stop(f"seventh street is a community card ('d db'), not a card for {who}")
        if hand.game.positional:
            raise stop(f"{who} is dealt {len(hand.cards(seat))} cards in {hand.game.title}, "
                       f"not {counts[seat]}")
        if hand.street == 7:
            raise stop(f"{who} would get more than seven cards: no street comes after seventh street")
        raise stop(f"too early: this card is dealt only when the betting on {STREET_NAMES[hand.street]} "
                   "is over")


def _check_cards_written(hand: StudHand, history: HandHistory, action: PhhAction,
                         written: tuple[tuple[int, ...], int]) -> None:
    """Before a player acts, every card the engine has dealt must already be in a deal line."""
    counts, center = written
    for seat in range(history.player_count):
        dealt = dealt_count(hand, seat)
        if dealt > counts[seat]:
            street = "pre-flop" if hand.game.positional else _street_of_card(counts[seat])
            raise _ReplayStop(ReplayError(
                "cards",
                f"{player_label(seat)}'s {street} card must be dealt (a 'd dh' line) before "
                f"{action.label} acts",
                action.index, action.line, action.text))
    if _center_cards(hand) > center:
        what = f"the {_board_street(len(hand.board))}" if hand.game.positional else "the community card"
        raise _ReplayStop(ReplayError(
            "cards", f"{what} must be dealt (a 'd db' line) before {action.label} acts",
            action.index, action.line, action.text))


def dealt_count(hand: StudHand, seat: int) -> int:
    """How many cards ``seat`` has been dealt (a draw game's discards included)."""
    if not hand.game.is_draw:
        return len(hand.cards(seat))
    return sum(1 for entry in hand.log if type(entry) is Deal and entry.seat == seat)


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
    if missing is not None and missing[0] is None and history.is_flop:
        reason = "the history has no 'd db' line for the next board card"
    elif missing is not None and missing[0] is None:
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
