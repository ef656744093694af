"""The replay's narrator voice: :func:`narrate` tells a replayed hand street by street.

``_Narrator`` is the replay's voice of the one narrator (``bot.engine.narration.narrator``): deals of one
street grouped by seat, down cards too (a history is public), amounts as plain numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from bot.engine.cards.card import Rank
from bot.engine.hand.events import (
    ActionTaken,
    BettingClosed,
    BringInSeat,
    BurnsScrambled,
    CardDealt,
    CommunityCardNeeded,
    DiscardsReshuffled,
    DrawAceShown,
    FirstToAct,
    FollowNoted,
    HandMucked,
    HandShown,
    NobodyOpened,
    OpenersShown,
    PotAwarded,
    ShowdownStarted,
    StreetStarted,
    UncalledReturned,
    WildRankAdded,
)
from bot.engine.hand.hand import StudHand
from bot.engine.log import Action, Deal
from bot.engine.narration.narrator import Narrator
from bot.engine.phh.history import player_label
from bot.engine.replay.report import ReplayReport, stakes_of
from bot.engine.vocab import action_phrase, street_name


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
        stakes_text = _flop_stakes(hand) if hand is not None and hand.game.positional \
            else stakes_of(history).describe()
    except ValueError:
        stakes_text = "invalid stakes"
    lines.append(f"{history.variant}: {stakes_text}; {n} players")
    if hand is not None and hand.game.name != "sex-in-the-middle-east":
        lines.append(f"game: {hand.game.describe()}")
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
    narrator = _Narrator(who, [who(s) for s in range(n)], hand.game.wilds.ranks)
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


def _flop_stakes(hand: StudHand) -> str:
    """A flop game's stakes as the replay's first line says them: ``no limit, blinds 5/10``, with a
    straddle, a bomb pot or the antes."""
    stakes, options, ante = hand.stakes, hand.options, hand.rulings.flop_ante
    parts = [stakes.structure.replace("-", " ")]
    if options.bomb_pot:
        parts.append(f"a bomb pot: antes of {options.bomb_pot} each, no blinds "
                     f"(the big blind {stakes.big_blind})")
    else:
        parts.append(f"blinds {stakes.small_blind}/{stakes.big_blind}")
        if any(type(e) is Action and e.action == "straddle" for e in hand.log):
            parts.append(f"a straddle of {2 * stakes.big_blind}")
        if ante == "per-player" and stakes.ante:
            parts.append(f"antes of {stakes.ante}")
        elif ante == "big-blind":
            parts.append(f"a big blind ante of {stakes.big_blind}")
    return ", ".join(parts)


class _Narrator(Narrator[str]):
    """The replay's voice of the one narrator: deals of one street grouped by seat, down cards too
    (a history is public), amounts as plain numbers."""

    def __init__(
        self, who: Callable[[int | None], str], names: Sequence[str], wild_ranks: Iterable[Rank]
    ) -> None:
        super().__init__(names, wild_ranks)
        self.who = who
        self.seen_board: list[Deal] = []

    def antes_lines(self, antes: Sequence[Action]) -> list[str]:
        amounts = {a.amount for a in antes}
        if len(amounts) == 1 and not any(a.all_in for a in antes):
            return [f"  antes: {amounts.pop()} each"]
        return [f"  {self.who(a.seat)} antes {a.amount}{' (all-in)' if a.all_in else ''}" for a in antes]

    def deal_lines(self, street: int | None, cards: Sequence[Deal]) -> list[str]:
        by_seat: dict[str, list[str]] = {}
        for d in cards:
            where = {"board": "the board", "second_board": "the second board"}.get(d.kind) or self.who(d.seat)
            by_seat.setdefault(where, []).append(f"{d.card}{'' if d.face_up else ' (down)'}")
        return [f"  {where}: {' '.join(dealt)}" for where, dealt in by_seat.items()]

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
        end = "high" if ev.high_card else "low"
        if ev.passed_from is not None:
            self.say(f"  {who(ev.passed_from)} has the {end} door card ({ev.door}) but is all-in: "
                     f"{who(ev.seat)} brings in, completes or folds")
        else:
            self.say(f"  {who(ev.seat)} has the {end} door card ({ev.door}) and must bring in")

    def visit_first_to_act(self, ev: FirstToAct) -> None:
        who = self.who
        extra = " (as on sixth street: community card)" if ev.same_as_sixth else ""
        end = "low" if ev.low else "high"
        if ev.seat is not None and ev.seat != ev.high_hand:
            self.say(f"  {who(ev.high_hand)} shows the {end} hand (all-in); {who(ev.seat)} acts first")
        else:
            self.say(f"  {who(ev.high_hand)} shows the {end} hand and acts first{extra}")

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

    @property
    def runs_twice(self) -> bool:
        """The hand was run twice (a second board was dealt)."""
        return any(d.kind == "second_board" for d in self.seen_board)

    def visit_card_dealt(self, event: CardDealt) -> None:
        super().visit_card_dealt(event)
        if event.deal.kind == "second_board":
            self.seen_board.append(event.deal)

    def visit_hand_shown(self, ev: HandShown) -> None:
        worth = _worth(ev)
        if ev.run_twice:                      # the hand is worth something on each board
            worth = f"board 1: {worth}; board 2: {_worth(ev.on_second_board())}"
        self.say(f"  {self.who(ev.seat)} shows {' '.join(str(c) for c in ev.cards)}: {worth}")

    def visit_discards_reshuffled(self, ev: DiscardsReshuffled) -> None:
        self.say(f"  the deck ran out: {ev.size} discards shuffled into a new stub for {self.who(ev.seat)}")

    def visit_draw_ace_shown(self, ev: DrawAceShown) -> None:
        self.say(f"  {self.who(ev.seat)} shows {ev.card} to draw four")

    def visit_openers_shown(self, ev: OpenersShown) -> None:
        self.say(f"  {self.who(ev.seat)} shows openers {' '.join(str(c) for c in ev.cards)}")

    def visit_nobody_opened(self, ev: NobodyOpened) -> None:
        self.say("  nobody opens: everyone antes again and the cards are dealt again")

    def visit_hand_mucked(self, ev: HandMucked) -> None:
        self.say(f"  {self.who(ev.seat)} mucks")

    def visit_pot_awarded(self, ev: PotAwarded) -> None:
        super().visit_pot_awarded(ev)
        name = "main pot" if ev.pot_index == 0 else f"side pot {ev.pot_index}"
        if self.runs_twice:
            name += " (second board)" if ev.run else " (first board)"
        shares = ev.halves_note(self.who) or ", ".join(f"{self.who(s)} {c}" for s, c in ev.shares)
        folded = " (everyone else folded)" if ev.by_fold else ""
        self.say(f"  {name} {ev.amount}: {shares}{folded}{ev.odd_chip_note(self.who)}")


def _worth(ev: HandShown) -> str:
    """What a shown hand is worth, as the replay says it."""
    if (ev.ranking == "low" and ev.low is not None) or ev.value is None:
        return ev.describe()
    worth = f"{ev.value.describe(kickers=True)} ({' '.join(str(c) for c in ev.value.best)})"
    if ev.ranking == "high-low":
        worth += f"; {ev.low.describe()[0].lower()}{ev.low.describe()[1:]}" if ev.low else "; no low"
    return worth
