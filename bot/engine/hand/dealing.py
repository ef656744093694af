"""Dealing cards into a ``HandState`` (SPEC §1-§3): the antes, one card, one pass around the table,
the seventh-street shortage (the community card, TDA RP-10H), indicator cards, and the wild ranks
kept in step with the game's wild tracker.

Every card leaves the stub through ``draw`` or, for a whole pass, ``deal_pass`` (the hot path,
inlined); both log a ``Deal``, tell the wild tracker and note what it says.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.engine.hand.events import BurnsScrambled, CommunityCardNeeded, FollowNoted, WildRankAdded
from bot.engine.log import Action, Deal, DealKind

if TYPE_CHECKING:  # pragma: no cover - annotations only
    from bot.engine.cards.card import Card
    from bot.engine.games.follow import FollowNote
    from bot.engine.hand.state import HandState


def post_antes(state: HandState) -> None:
    """Every seat posts the ante (all-in if short). Games with blinds (the flop games, triple draw,
    badugi) post no ante."""
    ante = state.stakes.ante
    if ante <= 0 or state.game.has_blinds:
        return
    street = state.street
    for index, seat in enumerate(state.seats):
        chips = min(ante, seat.stack)
        seat.stack -= chips
        seat.contributed += chips
        state.record(Action(street, index, "ante", chips, 0, seat.stack == 0))


def draw(state: HandState, street: int, seat: int | None, face_up: bool, kind: DealKind) -> Card:
    """One card off the stub to ``seat`` (or the centre: a burn, the community or an indicator card)."""
    card = state.source.draw(seat, face_up)
    if card in state.seen:
        raise ValueError(f"the card source dealt {card.code} twice")
    state.seen.add(card)
    deal = Deal(state.deal_seq, street, seat, card, face_up, kind)
    state.deal_seq += 1
    state.log.append(deal)
    state.events.append(deal)
    if kind == "burn":
        state.burns.append(card)
        return card
    if seat is not None:
        record = state.seats[seat]
        record.cards.append(card)
        (record.up if face_up else record.down).append(card)
        if face_up:
            record.add_up_rank(card.rank)
    elif kind == "board":
        state.board.append(card)
    elif kind == "second_board":
        state.second_board.append(card)
    elif kind == "community":
        state.community = card
    else:
        state.indicators.append(card)
    notes = state.follow.on_deal(deal)
    if notes:
        note(state, notes)
    return card


def deal_pass(state: HandState, street: int, face_up: bool, first: int = 0) -> None:
    """One card to each live seat in seat order from seat ``first`` (the flop games start left of
    the button; stud's seats are already in deal order) (``draw`` inlined: the engine's hot path)."""
    source_draw = state.source.draw
    seen, log, events = state.seen, state.log, state.events
    follow = state.follow
    trigger = follow.trigger
    seq = state.deal_seq
    seats = state.seats
    order = enumerate(seats) if first == 0 else ((i % state.n, seats[i % state.n])
                                                 for i in range(first, first + state.n))
    for index, seat in order:
        if seat.folded:
            continue
        card = source_draw(index, face_up)
        size = len(seen)
        seen.add(card)
        if len(seen) == size:
            raise ValueError(f"the card source dealt {card.code} twice")
        deal = Deal(seq, street, index, card, face_up, "hole")
        seq += 1
        log.append(deal)
        events.append(deal)
        seat.cards.append(card)
        if face_up:
            seat.up.append(card)
            seat.add_up_rank(card.rank)
        else:
            seat.down.append(card)
        if (face_up and card.rank is trigger) or follow.pending is not None:
            notes = follow.on_deal(deal)
            if notes:
                note(state, notes)
    state.deal_seq = seq


def sync_wilds(state: HandState) -> None:
    """Copy the tracker's wild ranks (they may grow, be replaced or vanish in some games)."""
    ranks = tuple(state.follow.wild_ranks)
    state.wild_tuple = ranks
    mask = 0
    for rank in ranks:
        mask |= 1 << rank
    state.wild_mask = mask


def note(state: HandState, notes: tuple[FollowNote, ...]) -> None:
    """Tell the narration what the wild tracker noted."""
    follow = state.follow
    sync_wilds(state)
    for entry in notes:
        if entry.kind == "added":
            state.events.append(WildRankAdded(follow.events[-1], state.wild_tuple))
        else:
            state.events.append(FollowNoted(entry))


def deal_last_down(state: HandState, street: int) -> None:
    """The last down card to every live seat, or one community card when the stub cannot give each
    a card (SPEC §2, TDA RP-10H: the burns go back into the stub first when burns are on)."""
    source = state.source
    live = state.live_seats()
    burn = state.rulings.burn_cards == "on"
    indicator = state.rulings.follow_target == "indicator-card"
    needed = len(live) + (1 if burn else 0) + (1 if indicator and state.follow.pending else 0)
    if source.remaining() < needed and burn and state.burns:
        scrambled = tuple(state.burns)
        source.scramble(scrambled)
        state.burns.clear()
        state.seen.difference_update(scrambled)
        state.events.append(BurnsScrambled(scrambled))
    community = source.remaining() < needed
    if community:
        state.events.append(CommunityCardNeeded(source.remaining(), len(live)))
    if burn and source.remaining() >= (2 if community else needed):
        draw(state, street, None, False, "burn")
    if community:
        draw(state, street, None, True, "community")
        indicators_while_pending(state, street, 0)
    else:
        indicators_while_pending(state, street, len(live))
        deal_pass(state, street, False)
    notes = state.follow.last_up()        # no up card is left to follow (follow-the-queen)
    if notes:
        note(state, notes)


def indicators_while_pending(state: HandState, street: int, keep: int) -> None:
    """``indicator-card``: no up card will follow, so turn stub cards in the centre while a follow
    is armed (a five turned there arms another under ``chain``), keeping ``keep`` cards."""
    if state.rulings.follow_target != "indicator-card":
        return
    while state.follow.pending is not None and state.source.remaining() > keep:
        draw(state, street, None, True, "indicator")


def finish_cards(state: HandState) -> None:
    """Every card is out: a follow still armed lapses."""
    notes = state.follow.lapse()
    if notes:
        note(state, notes)
