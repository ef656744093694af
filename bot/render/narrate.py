"""The public hand log: engine events -> lines for the table's channel (and the terminal).

``Narrator`` reads a hand's events incrementally (``narrator.lines(hand.events_since(i))``) and
returns ``Line(kind, text)`` pairs, where ``kind`` is a ``bot.tables.notices.NoticeKind`` value
(``"street"``, ``"action"``, ``"wild"``, ``"result"``, ``"info"``). It never reveals a down card,
except when betting has closed and the live hands are turned face up (SPEC §6) or a hand is shown
at showdown.

One street's cards make one line (``Fourth street: Ann 9♦ · Bea 5♠ · Cid K♦``); the antes make one
line; each action makes one line (``Bea raises to 40``); each new wild rank makes one line with its
origin.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from bot.engine.cards import Card, Rank
from bot.engine.evaluator import HandValue
from bot.engine.events import (
    ActionTaken,
    BettingClosed,
    BringInSeat,
    BurnsScrambled,
    CardDealt,
    CommunityCardNeeded,
    Event,
    FirstToAct,
    FollowNoted,
    HandEnded,
    HandMucked,
    HandShown,
    PotAwarded,
    ShowdownStarted,
    StreetStarted,
    UncalledReturned,
    WildRankAdded,
)
from bot.engine.log import Action
from bot.engine.showing import showing_value
from bot.render.cards import cards as card_text
from bot.render.cards import chips, rank_list, street_name
from bot.render.wilds import wild_line


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the public log; ``kind`` is a ``NoticeKind`` value."""

    kind: str
    text: str


def dealt_cards(cards: Sequence[Card], up: Iterable[Card]) -> str:
    """A player's own cards in the order dealt, down cards in brackets: ``[7♣ K♦] K♠ 5♥ [3♥]``.

    >>> from bot.engine.cards import parse_cards
    >>> cs = parse_cards("7c Kd Ks 5h 3h")
    >>> dealt_cards(cs, parse_cards("Ks 5h"))
    '[7♣ K♦] K♠ 5♥ [3♥]'
    """
    ups = set(up)
    parts: list[str] = []
    run: list[str] = []
    for c in cards:
        if c in ups:
            if run:
                parts.append("[" + " ".join(run) + "]")
                run = []
            parts.append(str(c))
        else:
            run.append(str(c))
    if run:
        parts.append("[" + " ".join(run) + "]")
    return " ".join(parts)


def hand_value_text(value: HandValue, in_play: Collection[Card] = ()) -> str:
    """The hand's name, the five cards as they play, and what each wild card stood for (a card
    neither in the hand nor in ``in_play``, the board's other cards, where the hand allows one).

    >>> from bot.engine.cards import Rank, parse_cards
    >>> from bot.engine.evaluator import evaluate
    >>> hand_value_text(evaluate(parse_cards("9s Kd Qd 9c 5c 8d 7d"), {Rank.FIVE, Rank.NINE}))
    'Royal flush: A♦ K♦ Q♦ J♦ T♦ (wild: 9♠ as A♦, 9♣ as J♦, 5♣ as T♦)'

    A wild card that plays as itself says so (rather than "5♠ as 5♠"):

    >>> hand_value_text(evaluate(parse_cards("3s 4c 6d 7c 5s Th As"), {Rank.FIVE}))
    'Straight, seven high: 7♣ 6♦ 5♠ 4♣ 3♠ (wild: 5♠ as itself)'
    """
    wilds = value.wilds_shown(in_play)
    played = [wilds.get(c, c) for c in value.best]
    text = f"{value.describe(kickers=True)}: {card_text(played)}"
    if wilds:
        text += " (wild: " + ", ".join(
            f"{w} as itself" if stands == w else f"{w} as {stands}" for w, stands in wilds.items()
        ) + ")"
    return text


def action_text(action: Action, name: str) -> str:
    """One action in words: ``Bea raises to 40``, ``Cid calls 20 and is all-in``."""
    kind = action.action
    if kind == "ante":
        text = f"{name} antes {chips(action.amount)}"
    elif kind == "bring_in":
        text = f"{name} brings in for {chips(action.amount)}"
    elif kind == "complete":
        text = f"{name} completes to {chips(action.to)}"
    elif kind == "bet":
        text = f"{name} bets {chips(action.to)}"
    elif kind == "raise":
        text = f"{name} raises to {chips(action.to)}"
    elif kind == "call":
        text = f"{name} calls {chips(action.amount)}"
    elif kind == "check":
        text = f"{name} checks"
    elif kind == "fold":
        text = f"{name} folds"
    elif kind == "show":
        text = f"{name} shows"
    elif kind == "muck":
        text = f"{name} mucks"
    else:
        text = f"{name} {kind.replace('_', ' ')}"
    if action.all_in and kind not in ("show", "muck"):
        text += " and is all-in"
    if action.timed_out:
        text += " (out of time)"
    return text


class Narrator:
    """Turns one hand's events into log lines. ``names``: the players in deal order (engine seats).

    Keep one narrator per hand and feed it every event once, in order.
    """

    def __init__(self, names: Sequence[str], *, showing_hand: str = "wild-aware") -> None:
        self.names = list(names)
        self.showing_hand = showing_hand
        self._wild: set[Rank] = {Rank.FIVE}
        self._held: list[list[Card]] = [[] for _ in names]
        self._up: list[list[Card]] = [[] for _ in names]
        self._street: int | None = None
        self._street_cards: list[tuple[int | None, Card, str]] = []
        self._street_notes: list[Line] = []
        self._antes: list[Action] = []
        self._open_hands = False
        self._folded: set[int] = set()
        self._side_pots = False
        self._shown: set[Card] = set()

    def _name(self, seat: int | None) -> str:
        if seat is None:
            return "the community card"
        return self.names[seat] if 0 <= seat < len(self.names) else f"seat {seat + 1}"

    # -- buffering of one street's cards and one round of antes --------------------------------
    def _flush(self, out: list[Line]) -> None:
        if self._antes:
            out.append(Line("action", self._antes_text()))
            self._antes = []
        if self._street is not None:
            out.append(Line("street", self._street_text()))
            out.extend(self._street_notes)
            self._street = None
            self._street_cards = []
            self._street_notes = []

    def _antes_text(self) -> str:
        amounts = {a.amount for a in self._antes}
        total = sum(a.amount for a in self._antes)
        if len(amounts) == 1:
            each = chips(next(iter(amounts)))
            text = f"Antes: {each} each from {len(self._antes)} players (pot {chips(total)})"
        else:
            text = "Antes: " + ", ".join(f"{self._name(a.seat)} {chips(a.amount)}" for a in self._antes)
            text += f" (pot {chips(total)})"
        short = [self._name(a.seat) for a in self._antes if a.all_in]
        if short:
            text += "; all-in for the ante: " + ", ".join(short)
        return text

    def _street_text(self) -> str:
        street = self._street or 3
        head = street_name(street).capitalize()
        shown = [(seat, c, kind) for seat, c, kind in self._street_cards if kind != "down"]
        downs = [seat for seat, _, kind in self._street_cards if kind == "down"]
        parts: list[str] = []
        for seat, c, kind in shown:
            if kind == "community":
                parts.append(f"community card {c} (everyone's seventh card)")
            elif kind == "indicator":
                parts.append(f"indicator card {c} turned up in the centre")
            else:
                parts.append(f"{self._name(seat)} {c}")
        if street == 3:
            text = f"{head}: two down cards each, door cards " + " · ".join(parts)
        elif parts and downs:
            text = f"{head}: " + " · ".join(parts) + "; down cards to " + ", ".join(
                dict.fromkeys(self._name(s) for s in downs))
        elif parts:
            text = f"{head}: " + " · ".join(parts)
        else:
            text = f"{head}: one down card each to " + ", ".join(dict.fromkeys(self._name(s) for s in downs))
        return text

    # -- events ----------------------------------------------------------------------------------
    def lines(self, events: Iterable[Event]) -> list[Line]:
        """Log lines for these events (the next ones of the hand, in order)."""
        out: list[Line] = []
        for event in events:
            self._one(event, out)
        self._flush(out)
        return out

    def _one(self, event: Event, out: list[Line]) -> None:
        if isinstance(event, ActionTaken) and event.action.action == "ante":
            self._antes.append(event.action)
            return
        if isinstance(event, StreetStarted):
            self._flush(out)
            self._street = event.street
            return
        if isinstance(event, CardDealt):
            deal = event.deal
            if deal.kind == "burn":
                return
            if deal.seat is not None:
                self._held[deal.seat].append(deal.card)
                if deal.face_up:
                    self._up[deal.seat].append(deal.card)
            if deal.kind in ("community", "indicator"):
                self._street_cards.append((None, deal.card, deal.kind))
            elif deal.face_up or self._open_hands:
                self._street_cards.append((deal.seat, deal.card, "up"))
            else:
                self._street_cards.append((deal.seat, deal.card, "down"))
            return
        if isinstance(event, WildRankAdded):
            self._wild.update(event.wild_ranks)
            now = rank_list(event.wild_ranks)
            line = Line("wild", f"{wild_line(event.event, self.names)}. Wild now: {now}")
            (self._street_notes if self._street is not None else out).append(line)
            return
        if isinstance(event, FollowNoted):
            text = self._follow_text(event)
            if text:
                (self._street_notes if self._street is not None else out).append(Line("wild", text))
            return
        if isinstance(event, (CommunityCardNeeded, BurnsScrambled)):
            text = (
                f"Only {event.stub} cards are left for {event.live} players: one community card is dealt"
                " face up for everyone"
                if isinstance(event, CommunityCardNeeded)
                else "The burned cards are shuffled back into the stub"
            )
            (self._street_notes if self._street is not None else out).append(Line("info", text))
            return
        self._flush(out)
        if isinstance(event, ActionTaken):
            if event.action.action in ("show", "muck"):
                return  # told by HandShown / HandMucked
            if event.action.action == "fold":
                self._folded.add(event.action.seat)
            out.append(Line("action", action_text(event.action, self._name(event.action.seat))))
        elif isinstance(event, BringInSeat):
            if event.passed_from is not None:
                text = (f"{self._name(event.passed_from)} has the low door card but is all-in; "
                        f"{self._name(event.seat)} must bring in")
            else:
                text = f"{self._name(event.seat)} has the low door card ({event.door}) and must bring in"
            out.append(Line("info", text))
        elif isinstance(event, FirstToAct):
            if event.seat is None:
                return
            if event.same_as_sixth:
                text = f"Seventh street is a community card, so the order of sixth street stands: " \
                       f"{self._name(event.seat)} acts first"
            elif event.high_hand == event.seat:
                up = self._up[event.seat]
                showing = showing_value(up, self._wild, showing_hand=self.showing_hand).describe()
                text = f"{self._name(event.seat)} is high with {card_text(up)} ({showing}) and acts first"
            else:
                text = (f"{self._name(event.high_hand)} is high but all-in; "
                        f"{self._name(event.seat)} acts first")
            out.append(Line("info", text))
        elif isinstance(event, BettingClosed):
            self._open_hands = True
            live = [s for s in range(len(self.names)) if s not in self._folded]
            shown = " · ".join(f"{self._name(s)} {dealt_cards(self._held[s], self._up[s])}" for s in live)
            out.append(Line("info", f"No more betting is possible: the hands are turned face up. {shown}"))
        elif isinstance(event, UncalledReturned):
            back = f"{chips(event.amount)} uncalled goes back to {self._name(event.seat)}"
            out.append(Line("result", back))
        elif isinstance(event, ShowdownStarted):
            out.append(Line("result", "Showdown"))
        elif isinstance(event, HandShown):
            # In play: every up card on the board and the hands shown before this one.
            seen = {c for seat, up in enumerate(self._up) if seat != event.seat for c in up}
            seen.update(self._shown)
            text = (f"{self._name(event.seat)} shows {dealt_cards(event.cards, self._up[event.seat])}"
                    f" — {hand_value_text(event.value, seen)}")
            self._shown.update(event.cards)
            out.append(Line("result", text))
        elif isinstance(event, HandMucked):
            out.append(Line("result", f"{self._name(event.seat)} mucks"))
        elif isinstance(event, PotAwarded):
            out.append(Line("result", self._pot_text(event)))
        elif isinstance(event, HandEnded):
            return

    def _follow_text(self, event: FollowNoted) -> str:
        note = event.note
        who = self._name(note.five_seat)
        if note.kind == "armed":
            owner = "on the community card" if note.five_seat is None else f"to {who}"
            return f"{note.five} is dealt face up {owner}: {note.awaits}"
        if note.kind == "already-wild" and note.card is not None and note.rank is not None:
            return f"{note.card} follows {note.five}, but {note.rank.plural} are already wild"
        if note.kind == "void":
            return f"The card after {note.five} was dealt face down: no new wild rank"
        if note.kind == "lapsed":
            return f"No up card came after {note.five}: it adds no wild rank"
        return ""

    def _pot_text(self, event: PotAwarded) -> str:
        if event.pot_index > 0:
            self._side_pots = True
        label = f"side pot {event.pot_index}" if event.pot_index else (
            "the main pot" if self._side_pots else "the pot")
        winners = [(self._name(seat), amount) for seat, amount in event.shares]
        if event.by_fold:
            return f"{winners[0][0]} wins {label} of {chips(event.amount)}; everyone else folded"
        if len(winners) == 1:
            return f"{winners[0][0]} wins {label} of {chips(event.amount)}"
        split = ", ".join(f"{n} {chips(a)}" for n, a in winners)
        return f"{label.capitalize()} of {chips(event.amount)} is split: {split}" + event.odd_chip_note(
            self._name)
