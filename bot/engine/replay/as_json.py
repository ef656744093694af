"""The ``wildstud replay --json`` object of a replay: :func:`report_json` (SPEC §9)."""

from __future__ import annotations

from typing import Any

from bot.engine.games.follow import WildEvent
from bot.engine.hand.hand import StudHand
from bot.engine.phh.history import player_label
from bot.engine.replay.report import ReplayReport


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
    :meth:`ReplayError.to_dict`). Results are ``None`` when the hand could not be dealt. A flop game
    adds ``boards`` (the board, or both when the hand was run twice; then each pot's ``run``, 1 or
    2, says which board it is half of) and its ``best`` fives are chosen with the board.
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
        if hand.game.positional:
            out["boards"] = [[c.code for c in board] for board in hand.boards]
        result = hand.result
        if result is not None:
            out["pots"] = [
                {
                    "amount": pot.amount,
                    "eligible": [player_label(s) for s in pot.eligible],
                    "winners": [player_label(s) for s in pot.winners],
                    "shares": [dict(pot.shares)[s] for s in pot.winners],
                    **({"run": pot.run + 1} if len(result.boards) > 1 else {}),
                }
                for pot in result.pots
            ]
            out["returned"] = list(result.returned)
            out["winnings"] = list(result.winnings)
            out["finishing_stacks"] = list(result.final_stacks)
            out["showdown"] = [_shown_entry(hand, seat) for seat in result.show_order
                               if seat in result.shown or seat in result.lows]
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


def _shown_entry(hand: StudHand, seat: int) -> dict[str, Any]:
    """One shown hand: its high value (``category`` ``None`` for a badugi's four cards) and, in a
    game with a low, the low as players say it and its cards (``None``: no low). In deuce-to-seven
    and badugi the ``description`` is the low's: that is what plays."""
    result = hand.result
    assert result is not None
    value = result.shown.get(seat)
    low = result.lows.get(seat)
    entry: dict[str, Any] = {
        "player": player_label(seat),
        "category": value.category.value if value is not None else None,
        "best": [c.code for c in value.best] if value is not None else [],
        "cards": [c.code for c in hand.cards(seat)],
        "description": (low.describe() if low is not None and (hand.game.is_draw or value is None)
                        else value.describe(kickers=True) if value is not None else ""),
        "wilds_used": value.wilds_used if value is not None else 0,
    }
    if hand.game.has_low:
        entry["low"] = low.name if low else None
        entry["low_best"] = [c.code for c in low.cards] if low else []
    return entry
