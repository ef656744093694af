"""Frozen snapshots of the live table state (``bot.render.views.TableSnapshot``) and the views
built from it: what updates end with and what queries return, so no front end reads live state.

Only what everyone may see goes in: up cards, card backs, stacks and bets; a down card only once
betting has closed and the live hands are turned face up (SPEC §6), or once its hand was shown at
the showdown (a mucked hand stays face down).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.engine.cards.card import Card
from bot.engine.games.catalogue import GAMES
from bot.engine.hand.hand import StudHand
from bot.engine.log import Action
from bot.render.views import (
    Phase,
    PrivateNotice,
    Prompt,
    SeatSnapshot,
    TableSnapshot,
    pending,
    private,
    prompt,
)
from bot.render.wilds import wild_list
from bot.tables.notices import Notice, PublicNotice, TableNotice
from bot.tables.reveal import opening_text, shown_seats
from bot.tables.state import LiveHand, Table


def hand_prompt(table: Table, *, reminder: bool = False) -> Prompt | None:
    """The prompt of the player to act in the table's hand, if it waits for one."""
    live = table.hand
    if live is None or live.void_reason is not None or live.engine.actor is None:
        return None
    seat = live.engine.actor
    return prompt(
        live.engine, seat, member=live.members[seat], name=live.names[seat], hand_id=live.hand_id,
        turn=live.turn, deadline=live.deadline, reminder=reminder,
    )


def own_cards(live: LiveHand, seat: int) -> PrivateNotice:
    """Engine ``seat``'s own cards now, for that player only, with the openings of their down cards
    (to check against the commitment once the hand is over)."""
    notice = private(
        live.engine, seat, member=live.members[seat], name=live.names[seat], hand_id=live.hand_id,
        hand_no=live.hand_no, rulings=live.rulings,
    )
    return replace(notice, opening=opening_text(live.deal, live.engine.down_cards(seat)))


def snapshot(table: Table, *, over: bool = False) -> TableSnapshot:
    """The table now. ``over``: the hand just ended and is still held (its final state)."""
    common = dict(
        table_id=table.table_id,
        dealer=table.dealer,
        pending_stakes=table.pending_stakes,
        pending_rulings=table.pending_rulings,
        turn_timeout=table.options.turn_timeout,
        auto_deal_after=table.options.auto_deal_after,
        names=tuple(sorted(table.names.items())),
        log=table.options.log,
        tournament=table.tournament.badge() if table.tournament is not None else None,
    )
    seats = sorted(table.seats.values(), key=lambda s: s.seat_no)
    live = table.hand
    if live is None:
        ready = table.button_seats()
        button = table.coming_button(ready) if ready else None
        game = table.pending_game or table.game
        return TableSnapshot(
            phase=Phase.BETWEEN_HANDS, hand_no=table.hands_dealt + 1, stakes=table.stakes,
            game=game if game in GAMES else "",
            rulings=table.rulings,
            seats=tuple(
                SeatSnapshot(s.seat_no, s.member, s.name, s.stack, s.status, s.leaving,
                             button=s.seat_no == button)
                for s in seats
            ),
            **common,  # type: ignore[arg-type]
        )
    dealt = dict(zip(live.seat_nos, live.members, strict=True))
    if live.void_reason is not None:
        return TableSnapshot(
            phase=Phase.VOID, hand_no=live.hand_no, stakes=live.stakes, rulings=live.rulings,
            hand_id=live.hand_id, street=live.engine.street, void_reason=live.void_reason,
            commitment=live.deal.digest,
            seats=tuple(
                SeatSnapshot(s.seat_no, s.member, s.name, s.stack, s.status, s.leaving,
                             dealt_in=dealt.get(s.seat_no) == s.member,
                             button=s.seat_no == live.button_seat_no)
                for s in seats
            ),
            **common,  # type: ignore[arg-type]
        )
    engine = live.engine
    actor = engine.actor
    index = {n: i for i, n in enumerate(live.seat_nos)}
    blinds = posted_blinds(engine)
    shown = set(shown_seats(engine))    # from the log: a hand is face up from the moment it is shown
    out: list[SeatSnapshot] = []
    for s in seats:
        i = index.get(s.seat_no)
        if i is None or live.members[i] != s.member:
            out.append(SeatSnapshot(s.seat_no, s.member, s.name, s.stack, s.status, s.leaving,
                                    waiting=s.waiting))
            continue
        folded = engine.folded(i)
        up = () if folded else engine.up_cards(i)
        hidden = 0 if folded else len(engine.down_cards(i))
        if (engine.betting_closed and not folded and not engine.game.is_draw) or i in shown:
            up, hidden = engine.cards(i), 0      # the live hands are turned face up, or were shown
        out.append(SeatSnapshot(
            s.seat_no, s.member, s.name, engine.stack(i), s.status, s.leaving, dealt_in=True,
            folded=folded, all_in=engine.is_all_in(i), up=up, hidden=hidden,
            in_pot=engine.contribution(i), street_bet=engine.street_contribution(i),
            to_act=actor == i and not over, button=i == len(live.seat_nos) - 1, blind=blinds.get(i, ""),
            drawn=engine.drawn(i),
        ))
    return TableSnapshot(
        phase=Phase.OVER if over or engine.is_over else Phase.IN_HAND,
        hand_no=live.hand_no, stakes=live.stakes, rulings=live.rulings, seats=tuple(out),
        hand_id=live.hand_id, street=engine.street, pot=engine.pot_total, commitment=live.deal.digest,
        # A flop game says nothing of wild cards unless the dealer made a rank wild.
        wilds=tuple(wild_list(engine.wild_ranks, engine.wild_events, live.names,
                              per_player=engine.game.wilds.per_player))
        if engine.wild_ranks or not live.game.positional else (),
        community=engine.community_card, prompt=None if over else hand_prompt(table),
        wild_events=tuple(engine.wild_events),
        wild_ranks=tuple(engine.wild_ranks),
        game=live.game.name, boards=hand_boards(engine), board_size=live.game.board_size,
        decision=None if over else pending(engine),
        **common,  # type: ignore[arg-type]
    )


BLIND_MARKS = {"small_blind": "SB", "big_blind": "BB", "straddle": "straddle"}
"""The log's forced bets of the flop games -> the mark the table shows beside the seat."""


def posted_blinds(engine: StudHand) -> dict[int, str]:
    """Engine seat -> ``SB``/``BB``/``straddle`` for each forced bet the hand's log holds (empty in
    stud): read from what was posted, so a short stack all-in for its blind is marked too."""
    return {e.seat: BLIND_MARKS[e.action] for e in engine.log
            if isinstance(e, Action) and e.action in BLIND_MARKS}


def hand_boards(engine: StudHand) -> tuple[tuple[Card, ...], ...]:
    """A flop game's board as dealt so far: one, or both runs once the players agreed to run it
    twice (empty in stud)."""
    return engine.boards if engine.game.positional else ()


def table_notice(table: Table, *, over: bool = False) -> PublicNotice:
    """A ``TABLE`` notice: the table now, as a snapshot (its view and text are drawn when read)."""
    return TableNotice(snapshot(table, over=over))


def current(table: Table, notices: Sequence[Notice]) -> TableSnapshot:
    """The table now, at the end of an operation that said ``notices``: when it ended on a new turn
    (the runner told the table, then the prompt taken from that same snapshot, and nothing since),
    that snapshot, else a new one."""
    last = notices[-1] if notices else None
    live = table.hand
    if isinstance(last, Prompt) and live is not None and (last.hand_id, last.turn, last.deadline) == (
        live.hand_id, live.turn, live.deadline
    ):
        for notice in reversed(notices):
            if isinstance(notice, TableNotice) and notice.snapshot is not None:
                if notice.snapshot.prompt is last:
                    return notice.snapshot
                break
    return snapshot(table)
