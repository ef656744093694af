"""Writing PHH text (SPEC §9): :func:`export_phh` writes a ``StudHand`` -- finished or still in
progress -- as a PHH TOML history, with ``tomli-w``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import tomli_w

from bot.engine.cards.card import Card
from bot.engine.games.catalogue import DEFAULT_GAME
from bot.engine.games.follow import WildEvent
from bot.engine.phh.history import draw_variant_code, player_label, variant_code

if TYPE_CHECKING:  # pragma: no cover - annotations only (hand.py does not import this module)
    from bot.engine.hand.hand import StudHand

def export_phh(
    hand: StudHand,
    *,
    players: Sequence[str] | None = None,
    seats: Sequence[int] | None = None,
    deck_commitment: str | Mapping[str, Any] | None = None,
    fields: Mapping[str, Any] | None = None,
    hide_unshown: bool = False,
    viewer: int | None = None,
    header: bool = True,
) -> str:
    """Write ``hand`` (finished or in progress) as PHH TOML text (SPEC §9), with ``tomli-w``.

    Deal lines are written per street and per seat in the engine's deal order (third street as one
    line per seat: two down cards then the door card); the community card (and an
    ``indicator-card`` centre card) as ``d db``; burns are not written. Actions follow the log:
    ``pb`` (bring-in), ``cbr TO`` (complete, bet or raise to a street total), ``cc`` (check or call),
    ``f`` (fold), ``sm CARDS`` (show, all cards as dealt) and ``sm`` (muck); an action the timer took
    carries the commentary ``# timed out``. Fields: ``variant``, ``antes``, ``bring_in``,
    ``small_bet``/``big_bet`` or ``min_bet``, ``starting_stacks``, ``actions``, ``players`` and
    ``seats`` (if given), ``finishing_stacks`` and ``winnings`` (for a hand in progress: the stacks
    now and zeros, as PHH reads them), ``_rulings`` (all of them), ``_wild_ranks``, ``_wild_events``
    and ``_deck_commitment`` (if given). ``fields`` adds optional PHH fields (``hand``, ``table``,
    ``time``...). With ``hide_unshown`` the down cards of every hand not shown at showdown (folded,
    mucked, won without a showdown, or still in play) are written ``??``, as PHH writes unknown
    cards: that text is for players to read and cannot be replayed; ``viewer`` (a seat) keeps that
    seat's own down cards written, as that player saw the hand. ``header`` prepends a comment summary.

    Raises ``ValueError`` for ``players``/``seats`` of the wrong length.

    >>> from bot.engine.cards.deck import Deck
    >>> from bot.engine.hand.hand import StudHand
    >>> from bot.engine.betting.stakes import TableStakes
    >>> from bot.engine.phh.parser import parse_phh
    >>> hand = StudHand([500, 500], TableStakes(), source=Deck.seeded(3))
    >>> hand.timeout(hand.actor)            # the bring-in is posted
    >>> hand.fold(hand.actor)
    >>> history = parse_phh(export_phh(hand))
    >>> history.finishing_stacks == hand.result.final_stacks, [a.kind for a in history.actions][2:]
    (True, ['pb', 'f'])
    """
    from bot.engine.log import Action, Deal

    n = hand.seat_count
    if players is not None and len(players) != n:
        raise ValueError(f"players must name {n} players, got {len(players)}")
    if seats is not None and len(seats) != n:
        raise ValueError(f"seats must list {n} seat numbers, got {len(seats)}")
    result = hand.result
    shown = set(result.shown) | set(result.lows) if result is not None else set()
    hidden: set[Card] = set()
    hidden_deals: set[int] = set()      # draw games: the deals (by seq) of cards now discarded
    if hide_unshown:
        for seat in range(n):
            if seat not in shown and seat != viewer:
                hidden.update(hand.down_cards(seat))
        if hand.game.is_draw:
            hidden_deals = _discarded_deals(hand, viewer, shown)

    def code(card: Card) -> str:
        return "??" if card in hidden else card.code

    actions: list[str] = []
    run: list[Deal] = []
    # PHH lists the players from the first left of the button (p1) to the button (the last), as
    # pokerkit does; stud's seats are in that order already (its button is the last seat).
    first = hand.state.left_of(hand.button) if hand.game.is_draw else 0
    order = [(first + k) % n for k in range(n)]             # engine seat of p1, p2, ...

    def label(seat: int) -> str:
        return player_label((seat - first) % n)

    def ordered(values: Sequence[Any]) -> list[Any]:
        return [values[seat] for seat in order]

    by_street: dict[int, dict[int, list[str]]] = {}
    reshuffled = set(hand.reshuffled_at)
    notes: dict[int, str] = {}

    def write_holes() -> None:
        for street in sorted(by_street):
            for seat in sorted(by_street[street], key=lambda s: (s - first) % n):
                note = notes.pop(seat, "")
                actions.append(f"d dh {label(seat)} {''.join(by_street[street][seat])}{note}")
        by_street.clear()

    def flush() -> None:
        for deal in run:
            if deal.kind == "hole":
                assert deal.seat is not None
                text = "??" if deal.seq in hidden_deals else code(deal.card)
                by_street.setdefault(deal.street, {}).setdefault(deal.seat, []).append(text)
                if deal.seq in reshuffled:
                    notes[deal.seat] = "  # the discards were reshuffled into a new stub"
            elif deal.kind in ("community", "indicator"):
                write_holes()
                note = "  # indicator card" if deal.kind == "indicator" else ""
                actions.append(f"d db {deal.card.code}{note}")
        write_holes()
        run.clear()

    drawn = [0] * n                     # draws written so far, per seat
    for entry in hand.log:
        if isinstance(entry, Deal):
            if entry.kind != "burn":
                run.append(entry)
            continue
        assert isinstance(entry, Action)
        if entry.action in ("ante", "small_blind", "big_blind"):
            flush()                     # jacks or better dealt again: the new deal's own lines
            continue                    # forced bets are fields (antes, blinds_or_straddles)
        who = label(entry.seat)
        if entry.action == "draw":
            # Every discard of a draw comes before its deal lines, as PHH (and pokerkit) write it.
            discards = hand.discards(entry.seat)[drawn[entry.seat]]
            drawn[entry.seat] += 1
            secret = hide_unshown and entry.seat != viewer
            cards = "??" * len(discards) if secret else "".join(c.code for c in discards)
            text = f"{who} sd {cards}" if cards else f"{who} sd"
            actions.append(text + ("  # timed out" if entry.timed_out else ""))
            continue
        flush()
        if entry.action == "bring_in":
            text = f"{who} pb"
        elif entry.action in ("complete", "bet", "raise"):
            text = f"{who} cbr {entry.to}"
        elif entry.action in ("call", "check"):
            text = f"{who} cc"
        elif entry.action == "fold":
            text = f"{who} f"
        elif entry.action == "show":
            text = f"{who} sm {''.join(c.code for c in hand.cards(entry.seat))}"
        elif entry.action == "muck":
            text = f"{who} sm"
        elif entry.action in ("pay", "buy"):
            text = f"{who} _{entry.action} {entry.amount}"
        elif entry.action == "decline":
            text = f"{who} _decline"
        else:  # pragma: no cover - the log has no other actions
            raise ValueError(f"unknown action {entry.action!r} in the hand's log")
        if entry.timed_out:
            text += "  # timed out"
        actions.append(text)
    flush()

    stakes = hand.stakes
    draw_game = hand.game.is_draw
    data: dict[str, Any] = {"variant": draw_variant_code(stakes.structure, hand.game.name) if draw_game
                            else variant_code(stakes.structure, hand.game.split)}
    blinds = hand.game.has_blinds
    data["antes"] = [0 if blinds else stakes.ante] * n
    if not draw_game:
        data["bring_in"] = stakes.bring_in
    if blinds:
        # PHH order (p1 left of the button): small blind, big blind; heads-up too (pokerkit has the
        # button post the small blind then, as Wildstud does).
        data["blinds_or_straddles"] = [stakes.small_blind, stakes.big_blind] + [0] * (n - 2)
    if stakes.structure == "fixed-limit" and blinds:
        data["small_bet"] = stakes.blind_bet_unit(False)
        data["big_bet"] = stakes.blind_bet_unit(True)
    elif stakes.structure == "fixed-limit":
        data["small_bet"] = stakes.small_bet
        data["big_bet"] = stakes.big_bet
    elif blinds:
        data["min_bet"] = stakes.blind_bet_unit(False)
    else:
        data["min_bet"] = stakes.min_bet
    data["starting_stacks"] = ordered(hand.starting_stacks)
    data["actions"] = actions
    if players is not None:
        data["players"] = ordered(players)
    if seats is not None:
        data["seats"] = ordered(seats)
    if result is not None:
        data["finishing_stacks"] = ordered(result.final_stacks)
        data["winnings"] = ordered(result.winnings)
    else:
        data["finishing_stacks"] = [hand.stack(s) for s in order]
        data["winnings"] = [0] * n
    if fields:
        for key, value in fields.items():
            if key in data or key.startswith("_"):
                raise ValueError(f"fields may not set {key!r}: it is written from the hand")
            data[key] = value
    game = hand.game
    data["_game"] = game.name
    if game.wilds.shared:
        data["_wild_ranks"] = [r.char for r in hand.wild_ranks]
    if game.wilds.kind == "follow":
        data["_wild_events"] = [_wild_event_entry(e, code) for e in hand.wild_events]
    if game.wilds.per_player:
        # Only hands shown at showdown: anything else would tell a down card (research §1.6).
        data["_player_wild_ranks"] = [
            "".join(r.char for r in hand.seat_wilds(s)) if s in shown else "" for s in order
        ]
    if deck_commitment is not None:
        commitment = deck_commitment
        data["_deck_commitment"] = commitment if isinstance(commitment, str) else dict(commitment)
    data["_rulings"] = game.rulings_dict(hand.rulings)
    text = tomli_w.dumps(data)
    if not header:
        return text
    return _header(hand, hidden) + text


def _discarded_deals(hand: StudHand, viewer: int | None, shown: set[int]) -> set[int]:
    """Draw games, for players' eyes: the deals (``Deal.seq``) of every card a seat other than
    ``viewer`` received and no longer holds at the end (its discards), and every deal of a seat
    whose hand was not shown: nobody else ever learns them."""
    from bot.engine.log import Deal

    out: set[int] = set()
    for entry in hand.log:
        if not isinstance(entry, Deal) or entry.seat is None or entry.seat == viewer:
            continue
        if entry.seat not in shown or entry.card not in hand.cards(entry.seat):
            out.add(entry.seq)
    return out


def _wild_event_entry(e: WildEvent, code: Callable[[Card], str]) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "five": e.five.code,
        "seat": "" if e.five_seat is None else player_label(e.five_seat),
        "street": e.street,
        "follow_card": code(e.follow_card),   # a down card announced by rank keeps its suit secret
        "follow_seat": "" if e.follow_seat is None else player_label(e.follow_seat),
        "rank": e.rank.char,
        "how": e.how,
    }
    if e.replaces is not None:
        entry["replaces"] = e.replaces.char
    return entry


def _header(hand: StudHand, hidden: set[Card]) -> str:
    title = ("Sex in the Middle East (seven-card stud, fives wild)" if hand.game is DEFAULT_GAME
             else f"{hand.game.title} ({hand.game.name})")
    lines = [
        f"# Wildstud hand history: {title},",
        "# PHH format (uoftcprg/phh-std); p1 is the first seat left of the dealer.",
        f"# Stakes: {hand.stakes.describe()}.",
    ]
    changed = {k: v for k, v in hand.rulings.changed_from_default().items() if k in hand.game.rulings}
    named = ", ".join(f"{k} = {v}" for k, v in changed.items()) if changed else "all defaults"
    lines.append(f"# Rulings: {named}.")
    if hand.game.wilds.shared:
        lines.append("# Wild: " + ", ".join(r.char for r in hand.wild_ranks) + ".")
    for event in hand.wild_events:
        if event.follow_card in hidden:
            lines.append(f"#   {event.five} -> a face-down card: {event.rank.plural} are wild")
        else:
            lines.append(f"#   {event}")
    result = hand.result
    if result is None:
        lines.append("# The hand is still in progress.")
    else:
        for index, pot in enumerate(result.pots):
            name = "main pot" if index == 0 else f"side pot {index}"
            won = ", ".join(f"{player_label(s)} {c}" for s, c in pot.shares)
            lines.append(f"# {name} {pot.amount}: {won}")
    return "\n".join(lines) + "\n\n"
