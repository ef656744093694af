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
from bot.engine.log import FORCED, Action, Deal
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

    A flop game (issue 21) is written as PHH writes hold'em: ``p1`` is the seat left of the button
    (heads-up the big blind) and every per-player field runs from there round to the button;
    ``blinds_or_straddles`` (small blind, big blind) in place of ``bring_in``; ``antes`` of 0;
    ``small_bet``/``big_bet`` the big blind and twice it (fixed limit) or ``min_bet`` the big blind;
    the blinds are not actions (readers post them); the hole cards as one ``d dh`` line per player,
    each street's board cards as one ``d db`` line (``d db 7c8d9s``); the variant ``FT``, ``NT``,
    ``PO``, ``FO/8`` or an underscore code (``bot.engine.phh.history.FLOP_VARIANTS``).

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
    n = hand.seat_count
    if players is not None and len(players) != n:
        raise ValueError(f"players must name {n} players, got {len(players)}")
    if seats is not None and len(seats) != n:
        raise ValueError(f"seats must list {n} seat numbers, got {len(seats)}")
    flop = hand.game.family == "flop"
    # PHH numbers the players from the seat left of the button (p1) round to the button; stud's
    # seats are already in that order (seat 0 is first left of the dealer).
    first = (hand.button + 1) % n if hand.game.positional else 0       # flop and draw games
    order = [(first + k) % n for k in range(n)]          # PHH position -> the hand's seat
    position = {seat: k for k, seat in enumerate(order)}

    def label(seat: int) -> str:
        return player_label(position[seat])
    result = hand.result
    shown = set(result.shown) | set(result.lows) if result is not None else set()
    hidden: set[Card] = set()
    hidden_deals: set[int] = set()      # draw games: the deals (by seq) of cards now discarded
    if hide_unshown:
        for seat in range(n):
            if seat != viewer:
                hidden.update(hand.discarded(seat))     # a discard stays secret, shown hand or not
            if seat not in shown and seat != viewer:
                hidden.update(hand.down_cards(seat))
        if hand.game.is_draw:
            hidden_deals = _discarded_deals(hand, viewer, shown)

    def code(card: Card) -> str:
        return "??" if card in hidden else card.code

    actions: list[str] = []
    run: list[Deal] = []

    def ordered(values: Sequence[Any]) -> list[Any]:
        return [values[seat] for seat in order]

    by_street: dict[int, dict[int, list[str]]] = {}
    reshuffled = set(hand.reshuffled_at)
    notes: dict[int, str] = {}

    def write_holes() -> None:
        for street in sorted(by_street):
            for seat in sorted(by_street[street], key=lambda s: position[s]):
                note = notes.pop(seat, "")
                actions.append(f"d dh {label(seat)} {''.join(by_street[street][seat])}{note}")
        by_street.clear()

    def flush() -> None:
        # A flop game's board by street (the flop as one line), the second run's after the first's.
        board: dict[tuple[bool, int], list[Card]] = {}
        for deal in run:
            if deal.kind == "hole":
                assert deal.seat is not None
                text = "??" if deal.seq in hidden_deals else code(deal.card)
                by_street.setdefault(deal.street, {}).setdefault(deal.seat, []).append(text)
                if deal.seq in reshuffled:
                    notes[deal.seat] = "  # the discards were reshuffled into a new stub"
            elif deal.kind in ("board", "second_board"):
                write_holes()
                board.setdefault((deal.kind == "second_board", deal.street), []).append(deal.card)
            elif deal.kind in ("community", "indicator"):
                write_holes()
                note = "  # indicator card" if deal.kind == "indicator" else ""
                actions.append(f"d db {deal.card.code}{note}")
        write_holes()
        for (second, _), cards in sorted(board.items()):
            note = "  # second board" if second else ""
            actions.append(f"d db {''.join(c.code for c in cards)}{note}")
        run.clear()

    drawn = [0] * n                     # draws written so far, per seat
    for entry in hand.log:
        if isinstance(entry, Deal):
            if entry.kind != "burn":
                run.append(entry)
            continue
        assert isinstance(entry, Action)
        if entry.action in FORCED:              # antes and blinds: PHH readers post them
            if entry.action == "ante":
                flush()                         # jacks or better dealt again: the new deal's lines
            continue
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
        elif entry.action in ("decline", "run_twice", "run_once"):
            text = f"{who} _{entry.action}"
        elif entry.action == "discard":
            text = f"{who} _discard {''.join(code(c) for c in entry.cards)}"
        else:  # pragma: no cover - the log has no other actions
            raise ValueError(f"unknown action {entry.action!r} in the hand's log")
        if entry.timed_out:
            text += "  # timed out"
        actions.append(text)
    flush()

    stakes = hand.stakes
    draw_game = hand.game.is_draw
    data: dict[str, Any] = {"variant": draw_variant_code(stakes.structure, hand.game.name) if draw_game
                            else variant_code(stakes.structure, hand.game.split, hand.game.name)}
    if draw_game and hand.game.has_blinds:
        # Triple draw and badugi: PHH order (p1 left of the button): small blind, big blind
        # (heads-up too: pokerkit has the button post the small blind then, as Wildstud does).
        data["antes"] = [0] * n
        data["blinds_or_straddles"] = [stakes.small_blind, stakes.big_blind] + [0] * (n - 2)
        small_bet, big_bet = stakes.blind_bet_unit(False), stakes.blind_bet_unit(True)
        min_bet = stakes.big_blind
    elif draw_game:                                 # five-card draw: antes, no bring-in
        data["antes"] = [stakes.ante] * n
        small_bet, big_bet, min_bet = stakes.small_bet, stakes.big_bet, stakes.min_bet
    elif flop:
        data["antes"], data["blinds_or_straddles"] = _forced_bets(hand)
        if any(data["antes"]):
            data["ante_trimming_status"] = True     # antes count for the side pots, as Wildstud's do
        small_bet, big_bet = stakes.blind_bet_unit(False), stakes.blind_bet_unit(True)
        min_bet = stakes.big_blind
    else:
        data["antes"] = [stakes.ante] * n
        data["bring_in"] = stakes.bring_in
        small_bet, big_bet, min_bet = stakes.small_bet, stakes.big_bet, stakes.min_bet
    if stakes.structure == "fixed-limit":
        data["small_bet"] = small_bet
        data["big_bet"] = big_bet
    else:
        data["min_bet"] = min_bet
    data["starting_stacks"] = [hand.starting_stacks[s] for s in order]
    data["actions"] = actions
    if players is not None:
        data["players"] = [players[s] for s in order]
    if seats is not None:
        data["seats"] = [seats[s] for s in order]
    if result is not None:
        data["finishing_stacks"] = [result.final_stacks[s] for s in order]
        data["winnings"] = [result.winnings[s] for s in order]
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
    if flop and hand.options.posts and not hand.options.bomb_pot:
        # Blinds posted out of position (a new player's, missed blinds): PHH has no field for them.
        data["_posts"] = [{"player": label(p.seat), "live": p.live, "dead": p.dead}
                          for p in sorted(hand.options.posts, key=lambda p: position[p.seat])]
    if deck_commitment is not None:
        commitment = deck_commitment
        data["_deck_commitment"] = commitment if isinstance(commitment, str) else dict(commitment)
    data["_rulings"] = game.rulings_dict(hand.rulings)
    text = tomli_w.dumps(data)
    if not header:
        return text
    return _header(hand, hidden, label) + text


def _forced_bets(hand: StudHand) -> tuple[list[int], list[int]]:
    """A flop game's ``antes`` and ``blinds_or_straddles``, in position order from the seat left of
    the button, as pokerkit reads them: the small blind, the big blind, then a straddle (heads-up
    too: the readers know the button posts the small blind); a big blind ante is the big blind's
    entry of ``antes`` (index 1, heads-up as well); a bomb pot has everyone's ante and no blinds."""
    n = hand.seat_count
    stakes, options = hand.stakes, hand.options
    if options.bomb_pot:
        return [options.bomb_pot] * n, [0] * n
    blinds = [stakes.small_blind, stakes.big_blind] + [0] * (n - 2)
    if any(type(e) is Action and e.action == "straddle" for e in hand.log):
        blinds[2] = 2 * stakes.big_blind
    antes = [0] * n
    if hand.rulings.flop_ante == "per-player" and stakes.ante > 0:
        antes = [stakes.ante] * n
    elif hand.rulings.flop_ante == "big-blind":
        antes[1] = stakes.big_blind
    return antes, blinds


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


def _header(hand: StudHand, hidden: set[Card], label: Callable[[int], str]) -> str:
    title = ("Sex in the Middle East (seven-card stud, fives wild)" if hand.game is DEFAULT_GAME
             else f"{hand.game.title} ({hand.game.name})")
    lines = [
        f"# Wildstud hand history: {title},",
        "# PHH format (uoftcprg/phh-std); p1 is the first seat left of the dealer"
        + (" (the button)." if hand.game.positional else "."),
        f"# Stakes: {hand.game.describe_stakes(hand.stakes)}.",
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
            won = ", ".join(f"{label(s)} {c}" for s, c in pot.shares)
            lines.append(f"# {name} {pot.amount}: {won}")
    return "\n".join(lines) + "\n\n"
