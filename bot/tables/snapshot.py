"""Frozen snapshots of the live table state (``bot.render.views.TableSnapshot``) and the views
built from it: what updates end with and what queries return, so no front end reads live state.

Only what everyone may see goes in: up cards, card backs, stacks and bets; a down card only once
betting has closed and the live hands are turned face up (SPEC §6), or once its hand was shown at
the showdown (a mucked hand stays face down).
"""

from __future__ import annotations

from dataclasses import replace

from bot.render.table import format_table
from bot.render.views import (
    Phase,
    PrivateNotice,
    Prompt,
    SeatSnapshot,
    TableSnapshot,
    private,
    prompt,
    table_view,
)
from bot.render.wilds import wild_list
from bot.tables.notices import NoticeKind, PublicNotice
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
    return replace(notice, text=notice.text + opening_text(live.deal, live.engine.down_cards(seat)))


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
        ready = [s.seat_no for s in seats if s.ready]
        button = table.coming_button(ready) if ready else None
        return TableSnapshot(
            phase=Phase.BETWEEN_HANDS, hand_no=table.hands_dealt + 1, stakes=table.stakes,
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
    shown = set(shown_seats(engine))    # from the log: a hand is face up from the moment it is shown
    out: list[SeatSnapshot] = []
    for s in seats:
        i = index.get(s.seat_no)
        if i is None or live.members[i] != s.member:
            out.append(SeatSnapshot(s.seat_no, s.member, s.name, s.stack, s.status, s.leaving))
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
            to_act=actor == i and not over, button=i == len(live.seat_nos) - 1,
            drawn=engine.drawn(i),
        ))
    return TableSnapshot(
        phase=Phase.OVER if over or engine.is_over else Phase.IN_HAND,
        hand_no=live.hand_no, stakes=live.stakes, rulings=live.rulings, seats=tuple(out),
        hand_id=live.hand_id, street=engine.street, pot=engine.pot_total, commitment=live.deal.digest,
        wilds=tuple(wild_list(engine.wild_ranks, engine.wild_events, live.names,
                              per_player=engine.game.wilds.per_player)),
        community=engine.community_card, prompt=None if over else hand_prompt(table),
        wild_events=tuple(engine.wild_events),
        wild_ranks=tuple(engine.wild_ranks),
        **common,  # type: ignore[arg-type]
    )


def table_notice(table: Table, *, over: bool = False) -> PublicNotice:
    """A ``TABLE`` notice: the table block now, with its view and snapshot."""
    snap = snapshot(table, over=over)
    view = table_view(snap)
    return PublicNotice(NoticeKind.TABLE, format_table(view), snap.hand_id, view, snap)
