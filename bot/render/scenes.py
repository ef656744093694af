"""The pictures of a table snapshot and of a player's own cards: the frozen values front ends hold
(``bot.render.views``) turned into the picture snapshots ``bot.render.pictures`` draws.

``table_picture`` reads only a ``TableSnapshot`` (up cards and how many down cards), so the table
picture can be shown to anyone; ``hand_picture`` reads one player's ``PrivateNotice`` and goes to
that player only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.engine.cards.card import Card, Rank
from bot.engine.games.follow import WildEvent
from bot.engine.values.evaluator_tables import WildInFlush
from bot.render.pictures import HandPicture, SeatPicture, TablePicture, WildRank, wilds_from_events
from bot.render.views import Phase, PrivateNotice, SeatSnapshot, TableSnapshot, drew_note, table_view

MAX_PICTURE_SEATS = 8
"""The most seats a table picture draws (a table has at most 8)."""


def _note(seat: SeatSnapshot, phase: Phase) -> str:
    if phase is Phase.IN_HAND or phase is Phase.OVER:
        if not seat.dealt_in:
            return "waits for big blind" if seat.waiting and seat.ready else "not dealt in"
        # The latest draw only: it fits beside a bet on a phone (the text table and the log keep
        # every draw: "draws 2, 1, pat").
        drew = "" if seat.folded else drew_note(seat.drawn[-1:])
        if seat.all_in and not seat.folded:
            return f"all-in, {drew}" if drew else "all-in"
        if drew:
            return drew
    if seat.leaving:
        return "leaving"
    return {"sitting_out": "sitting out", "away": "away"}.get(seat.status, "")


def table_picture(snapshot: TableSnapshot, *, four_colour: bool = True) -> TablePicture | None:
    """The picture of ``snapshot`` (the title of its text table, every seat clockwise with its up
    cards and down cards as backs, the pot, the wilds with their cards), or None for a table with
    no seat (nothing to draw)."""
    seats = snapshot.seats[:MAX_PICTURE_SEATS]
    if not seats:
        return None
    in_hand = snapshot.phase in (Phase.IN_HAND, Phase.OVER)
    pictures = tuple(
        SeatPicture(
            name=seat.name,
            stack=seat.stack,
            up=seat.up if in_hand else (),
            down=seat.hidden if in_hand else 0,
            folded=seat.folded and in_hand,
            to_act=seat.to_act and snapshot.phase is Phase.IN_HAND,
            dealer=seat.button,
            bet=seat.street_bet if snapshot.phase is Phase.IN_HAND else 0,
            note=_note(seat, snapshot.phase),
            blind=seat.blind if in_hand else "",
        )
        for seat in seats
    )
    title = table_view(snapshot).title
    wilds = picture_wilds(snapshot.wild_ranks, snapshot.wild_events) if in_hand else ()
    return TablePicture(title, pictures, snapshot.pot if in_hand else 0, wilds,
                        snapshot.community if in_hand else None, four_colour=four_colour,
                        boards=snapshot.boards if in_hand else (),
                        board_size=snapshot.board_size if in_hand else 0, table=snapshot.table_id)


def picture_wilds(wild_ranks: Sequence[Rank], events: Iterable[WildEvent]) -> tuple[WildRank, ...]:
    """The wild ranks in force as picture entries: the game's fixed ranks first (no origin), then
    each rank a follow made wild and still wild, with the cards that made it (a follower replaced
    in Follow the Queen is gone)."""
    made = {ev.rank: ev for ev in events if ev.rank in wild_ranks}      # the latest event per rank
    fixed = tuple(WildRank(rank) for rank in wild_ranks if rank not in made)
    return fixed + wilds_from_events(made[r] for r in wild_ranks if r in made)


def hand_picture(
    notice: PrivateNotice, hand_no: int, events: tuple[WildEvent, ...] = (),
    wild_in_flush: WildInFlush = "any-card",
    *, four_colour: bool = True, discards: tuple[Card, ...] = (), lines: tuple[str, ...] = (),
    new: tuple[Card, ...] = (), title: str = "",
) -> HandPicture:
    """One player's own cards (``notice``) in the order dealt (two down cards, the up cards, then the
    seventh-street down card), down cards marked, with the wild ranks (their origins from
    ``events`` when known). For that player only. ``discards``: a draw game's picker marks the
    cards chosen to throw away; ``lines`` replace the best-hand and wild lines under the title;
    ``new``: the cards just drawn, tagged; ``title``: instead of the hand, street and name."""
    down = notice.down_cards
    cards = tuple(down[:2]) + tuple(notice.up_cards) + tuple(down[2:])
    wilds = picture_wilds(notice.wild_ranks, events)
    title = title or f"Hand #{hand_no} · {notice.stage} · {notice.name}"
    return HandPicture(title, cards, tuple(notice.up_cards), wilds, notice.community_card, wild_in_flush,
                       ranking=notice.ranking, four_colour=four_colour, board=notice.shared, game=notice.game,
                       discards=discards, lines=lines, new=new)
