"""The public hand log: engine events -> lines for the table's channel (and the terminal).

``TableNarrator`` (also called ``Narrator``) is the live table's voice of the one narrator,
``bot.engine.narration.narrator.Narrator``, which ``wildstud replay`` speaks too. It reads a hand's events
incrementally (``narrator.lines(hand.events_since(i))``) and returns ``Line(kind, text)`` pairs,
where ``kind`` is a ``bot.tables.notices.NoticeKind`` value
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

from bot.engine.cards.card import Card, Rank
from bot.engine.games.streets import AFTER_DRAW, BEFORE_DRAW, PRE_FLOP
from bot.engine.hand.events import (
    ActionTaken,
    BettingClosed,
    BringInSeat,
    BurnsScrambled,
    CommunityCardNeeded,
    DiscardsReshuffled,
    DrawAceShown,
    Event,
    FirstToAct,
    FollowNoted,
    HandMucked,
    HandShown,
    NobodyOpened,
    OpenersShown,
    PotAwarded,
    ShowdownStarted,
    UncalledReturned,
    WildRankAdded,
)
from bot.engine.log import Action, Deal
from bot.engine.narration.narrator import Narrator as EventNarrator
from bot.engine.values.ace_to_five import ace_to_five
from bot.engine.values.evaluator import HandValue
from bot.engine.values.low import LowValue
from bot.engine.values.showing import ShowingHand, showing_value
from bot.engine.vocab import action_phrase
from bot.render.cards import cards as card_text
from bot.render.cards import chips, rank_list, street_name
from bot.render.wilds import wild_line

FORCED_BLINDS = frozenset({"small_blind", "big_blind", "straddle", "run_twice", "run_once"})
"""What a flop game's players do as a street opens, before its cards, each said at once without
closing the street's deal block: the blinds and straddle, and the answers to run it twice."""

NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the public log; ``kind`` is a ``NoticeKind`` value."""

    kind: str
    text: str


def dealt_cards(cards: Sequence[Card], up: Iterable[Card]) -> str:
    """A player's own cards in the order dealt, down cards in brackets: ``[7♣ K♦] K♠ 5♥ [3♥]``.

    >>> from bot.engine.cards.card import parse_cards
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


def low_value_text(value: LowValue) -> str:
    """A low as players say it, with its five cards: ``eight-six low: 8♥ 6♣ 4♦ 3♠ A♠``."""
    return f"{value.name}: {card_text(value.cards)}"


def hand_value_text(value: HandValue, in_play: Collection[Card] = ()) -> str:
    """The hand's name, the five cards as they play, and what each wild card stood for (a card
    neither in the hand nor in ``in_play``, the board's other cards, where the hand allows one).

    >>> from bot.engine.cards.card import Rank, parse_cards
    >>> from bot.engine.values.evaluator import evaluate
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
    text = f"{name} {action_phrase(kind, chips(action.amount), chips(action.to))}"
    if action.all_in and kind not in ("show", "muck"):
        text += " and is all-in"
    if action.timed_out:
        text += " (out of time)"
    return text


_COUNTS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven"}
_DRAWS = {BEFORE_DRAW + 1: "the first draw", BEFORE_DRAW + 2: "the second draw",
          BEFORE_DRAW + 3: "the third draw", AFTER_DRAW: "the draw"}
"""The heading of each draw, by the betting round it opens (``bot.engine.games.streets.draw_streets``)."""


def _draw_deal_lines(street: int, receivers: Sequence[str]) -> list[Line]:
    """A draw game's deal: the first cards (``Before the draw: five down cards each to Ann, Bea and
    Cid``), then each draw's heading; the cards a draw brings are never named, nor whose they are
    (the player's own line says how many: ``Ann draws 2``).

    >>> [line.text for line in _draw_deal_lines(BEFORE_DRAW, ["Ann", "Bea"] * 5)]
    ['Before the draw: five down cards each to Ann and Bea']
    >>> [line.text for line in _draw_deal_lines(BEFORE_DRAW + 1, [])], _draw_deal_lines(AFTER_DRAW, ["Ann"])
    (['The first draw: each player in turn throws away cards and is dealt as many, or stands pat'], [])
    """
    if street == BEFORE_DRAW:
        names = list(dict.fromkeys(receivers))
        if not names:
            return []
        each = _COUNTS.get(len(receivers) // len(names), str(len(receivers) // len(names)))
        who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        return [Line("street", f"{street_name(street).capitalize()}: {each} down cards each to {who}")]
    if receivers:
        return []
    draw = _DRAWS.get(street, "the draw")
    return [Line("street", f"{draw.capitalize()}: each player in turn throws away cards and is dealt as"
                           " many, or stands pat")]


class TableNarrator(EventNarrator[Line]):
    """The live table's voice of the one narrator (``bot.engine.narration.narrator.Narrator``).

    ``names``: the players in deal order (engine seats). Keep one narrator per hand and feed it
    every event once, in order: ``narrator.lines(hand.events_since(i))``.
    """

    def __init__(
        self,
        names: Sequence[str],
        *,
        showing_hand: ShowingHand = "wild-aware",
        wild_ranks: Iterable[Rank] = (Rank.FIVE,),
    ) -> None:
        super().__init__(names, wild_ranks)
        self.showing_hand = showing_hand
        self._shown: set[Card] = set()
        self.twice = False
        """The hand was run twice (a ``run_twice`` answer agreed): its pots go half to each board."""

    def _name(self, seat: int | None) -> str:
        return self.name(seat)

    # -- the deal block ----------------------------------------------------------------------------
    def antes_lines(self, antes: Sequence[Action]) -> list[Line]:
        amounts = {a.amount for a in antes}
        total = sum(a.amount for a in antes)
        if len(amounts) == 1:
            each = chips(next(iter(amounts)))
            text = f"Antes: {each} each from {len(antes)} players (pot {chips(total)})"
        else:
            text = "Antes: " + ", ".join(f"{self._name(a.seat)} {chips(a.amount)}" for a in antes)
            text += f" (pot {chips(total)})"
        short = [self._name(a.seat) for a in antes if a.all_in]
        if short:
            text += "; all-in for the ante: " + ", ".join(short)
        return [Line("action", text)]

    def before(self, event: Event) -> None:
        # A flop game's blinds (and straddle) are posted as its first street opens, before its
        # cards: each is said at once, and the street's deal block stays open for the cards.
        if isinstance(event, ActionTaken) and event.action.action in FORCED_BLINDS:
            return
        super().before(event)

    def flush(self) -> None:
        # A street whose cards wait for the players' answers (run it twice is asked as the street
        # opens, one answer an operation): its deal block stays open until the cards come.
        if self._block and not self._antes and not any(d.kind != "burn" for d in self._cards):
            self._out.extend(self._notes)
            self._notes = []
            return
        super().flush()

    def deal_lines(self, street: int | None, cards: Sequence[Deal]) -> list[Line]:
        street = street or 3
        if street >= BEFORE_DRAW:
            return _draw_deal_lines(street, [self._name(d.seat) for d in cards if d.kind == "hole"])
        head = street_name(street).capitalize()
        board = [d.card for d in cards if d.kind == "board"]
        second = [d.card for d in cards if d.kind == "second_board"]
        if board or second:
            lines = [Line("street", f"{head}: {card_text(board)}")] if board else []
            if second:                # run twice: the second run's cards, dealt after the first's
                lines.append(Line("street", f"Second run: {card_text(second)}"))
            return lines
        if not any(d.kind != "burn" for d in cards):
            return []                 # nothing dealt in this block (a street's cards come later)
        holes = [d for d in cards if d.kind == "hole" and not d.face_up]
        if street >= PRE_FLOP and holes and len(holes) == len(cards) - sum(d.kind == "burn" for d in cards):
            per_seat = len(holes) // max(1, len({d.seat for d in holes}))
            return [Line("street", f"{head}: {NUMBER_WORDS.get(per_seat, str(per_seat))} down cards each")]
        parts: list[str] = []
        downs: list[int | None] = []
        for deal in cards:
            if deal.kind == "burn":
                continue
            if deal.kind == "community":
                parts.append(f"community card {deal.card} (everyone's seventh card)")
            elif deal.kind == "indicator":
                parts.append(f"indicator card {deal.card} turned up in the centre")
            elif deal.face_up or self.open_hands:
                parts.append(f"{self._name(deal.seat)} {deal.card}")
            else:
                downs.append(deal.seat)
        if street == 3:
            text = f"{head}: two down cards each, door cards " + " · ".join(parts)
        elif parts and downs:
            text = f"{head}: " + " · ".join(parts) + "; down cards to " + ", ".join(
                dict.fromkeys(self._name(s) for s in downs))
        elif parts:
            text = f"{head}: " + " · ".join(parts)
        else:
            text = f"{head}: one down card each to " + ", ".join(dict.fromkeys(self._name(s) for s in downs))
        return [Line("street", text)]

    def visit_wild_rank_added(self, event: WildRankAdded) -> None:
        super().visit_wild_rank_added(event)
        now = rank_list(event.wild_ranks)
        self.note(Line("wild", f"{wild_line(event.event, self.names)}. Wild now: {now}"))

    def visit_follow_noted(self, event: FollowNoted) -> None:
        text = self._follow_text(event)
        if text:
            self.note(Line("wild", text))

    def visit_community_card_needed(self, event: CommunityCardNeeded) -> None:
        self.note(Line("info", f"Only {event.stub} cards are left for {event.live} players: one community"
                               " card is dealt face up for everyone"))

    def visit_burns_scrambled(self, event: BurnsScrambled) -> None:
        self.note(Line("info", "The burned cards are shuffled back into the stub"))

    # -- one line each -----------------------------------------------------------------------------
    def visit_action_taken(self, event: ActionTaken) -> None:
        super().visit_action_taken(event)
        action = event.action
        if action.action == "run_twice":
            self.twice = True
        if action.action in ("ante", "show", "muck"):
            return  # the antes are one line; show and muck are told by HandShown / HandMucked
        self.say(Line("action", action_text(action, self._name(action.seat))))

    def visit_bring_in_seat(self, event: BringInSeat) -> None:
        end = "high" if event.high_card else "low"
        if event.passed_from is not None:
            text = (f"{self._name(event.passed_from)} has the {end} door card but is all-in; "
                    f"{self._name(event.seat)} must bring in")
        else:
            text = f"{self._name(event.seat)} has the {end} door card ({event.door}) and must bring in"
        self.say(Line("info", text))

    def visit_first_to_act(self, event: FirstToAct) -> None:
        if event.seat is None:
            return
        if event.same_as_sixth:
            text = f"Seventh street is a community card, so the order of sixth street stands: " \
                   f"{self._name(event.seat)} acts first"
        elif event.high_hand == event.seat:
            up = self.up[event.seat]
            if event.low:
                text = f"{self._name(event.seat)} is low with {card_text(up)} ({ace_to_five(up).name}) " \
                       "and acts first"
            else:
                showing = showing_value(up, self.wild, showing_hand=self.showing_hand).describe()
                text = f"{self._name(event.seat)} is high with {card_text(up)} ({showing}) and acts first"
        else:
            text = (f"{self._name(event.high_hand)} is {'low' if event.low else 'high'} but all-in; "
                    f"{self._name(event.seat)} acts first")
        self.say(Line("info", text))

    def visit_betting_closed(self, event: BettingClosed) -> None:
        super().visit_betting_closed(event)
        if event.street >= BEFORE_DRAW:
            # A draw game: the draws still to come are the players' own choices, made blind, so the
            # hands stay face down until the showdown (docs/playing.md, "Draw games").
            self.open_hands = False
            self.say(Line("info", "No more betting is possible: the draws still to come are made, then"
                                  " the showdown"))
            return
        shown = " · ".join(
            f"{self._name(s)} {dealt_cards(self.held[s], self.up[s])}" for s in self.live_seats)
        self.say(Line("info", f"No more betting is possible: the hands are turned face up. {shown}"))

    def visit_uncalled_returned(self, event: UncalledReturned) -> None:
        self.say(Line("result", f"{chips(event.amount)} uncalled goes back to {self._name(event.seat)}"))

    def visit_showdown_started(self, event: ShowdownStarted) -> None:
        self.say(Line("result", "Showdown"))

    def visit_hand_shown(self, event: HandShown) -> None:
        cards = dealt_cards(event.cards, self.up[event.seat])
        # In play: every other seat's up cards and the hands shown before this one (issue 14: a
        # wild is shown as a card not in play where the hand allows one).
        seen = {c for seat, up in enumerate(self.up) if seat != event.seat for c in up}
        seen.update(self._shown)
        self._shown.update(event.cards)
        value = _worth(event, seen)
        if event.run_twice:                   # the hand is worth something on each board
            value = f"board 1: {value}; board 2: {_worth(event.on_second_board(), seen)}"
        self.say(Line("result", f"{self._name(event.seat)} shows {cards} — {value}"))

    def visit_discards_reshuffled(self, event: DiscardsReshuffled) -> None:
        self.say(Line("info", f"The deck ran out: {event.size} discards are shuffled into a new stub "
                              f"for {self._name(event.seat)}'s draw"))

    def visit_draw_ace_shown(self, event: DrawAceShown) -> None:
        self.say(Line("info", f"{self._name(event.seat)} shows the {event.card} kept to draw four"))

    def visit_openers_shown(self, event: OpenersShown) -> None:
        cards = " ".join(str(c) for c in event.cards)
        self.say(Line("result", f"{self._name(event.seat)} shows openers: {cards}"))

    def visit_nobody_opened(self, event: NobodyOpened) -> None:
        self.say(Line("info", "Nobody opens (jacks or better): everyone antes again and the cards are "
                              "dealt again"))

    def visit_hand_mucked(self, event: HandMucked) -> None:
        self.say(Line("result", f"{self._name(event.seat)} mucks"))

    def visit_pot_awarded(self, event: PotAwarded) -> None:
        super().visit_pot_awarded(event)
        self.twice = self.twice or event.run == 1
        self.say(Line("result", self._pot_text(event)))

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
        label = f"side pot {event.pot_index}" if event.pot_index else (
            "the main pot" if self.side_pots else "the pot")
        winners = [(self._name(seat), amount) for seat, amount in event.shares]
        if event.run or self.twice:           # run twice: each board wins its half of every pot
            half = f"board {event.run + 1}'s half of {label}"
            if len(winners) == 1:              # the amount is the half, not the pot ("wins 410,")
                return f"{winners[0][0]} wins {chips(event.amount)}, {half}"
            label = half
        if event.by_fold:
            return f"{winners[0][0]} wins {label} of {chips(event.amount)}; everyone else folded"
        if len(winners) == 1:
            return f"{winners[0][0]} wins {label} of {chips(event.amount)}"
        halves = event.halves_note(self._name, chips)
        if halves:
            return f"{label.capitalize()} of {chips(event.amount)} is split: {halves}"
        split = ", ".join(f"{n} {chips(a)}" for n, a in winners)
        return f"{label.capitalize()} of {chips(event.amount)} is split: {split}" + event.odd_chip_note(
            self._name)


def _worth(event: HandShown, seen: set[Card]) -> str:
    """What a shown hand is worth, as the table says it (``seen``: the cards in play a wild's
    stand-in avoids)."""
    if event.ranking == "low" and event.low is not None:
        return low_value_text(event.low)
    if event.value is None:
        return event.describe()
    value = hand_value_text(event.value, seen)
    if event.ranking == "high-low":
        value += f"; {low_value_text(event.low)}" if event.low else "; no low"
    return value


Narrator = TableNarrator
"""The name the table service and ``LiveHand`` use."""
