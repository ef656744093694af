"""What a finished hand opens of its deck commitment, and to whom (DESIGN "Fairness and secrecy").

After a hand everyone may see the openings of the cards everyone saw (:func:`public_cards`: up cards,
the community card, indicator cards, a flop game's board and the down cards of hands shown at
showdown or turned face up when betting closed); a player may also
see the openings of their own down cards (:func:`own_down_cards`). Nothing else is ever opened: a
folded or mucked hand, burned cards, the stub and the hand of a player who won without a showdown stay
closed. Hands stored under the old whole-deck commitment can only be checked with the whole deck,
which they keep revealing (:class:`HandReveal` ``deck``), so that they still verify.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from bot.engine.betting.stakes import TableStakes
from bot.engine.cards.card import Card
from bot.engine.cards.deck import Deck
from bot.engine.games.rulings import Rulings
from bot.engine.hand.hand import StudHand
from bot.engine.log import Action
from bot.store import HandRecord, Store, StoreError
from bot.tables.codec import decode_action, decode_options, decode_seats
from bot.tables.fairness import DealCommitment, Opening


def shown_seats(hand: StudHand) -> tuple[int, ...]:
    """Seats whose whole hand everyone has seen: each hand shown at the showdown so far, and every
    live hand once betting has closed with two or more of them (turned face up before the run-out,
    SPEC §6: they are always shown; in a draw game only once the hand is over, as the draws still to
    come are made blind). A hand that won uncontested or was mucked is not here."""
    live = hand.live_seats
    # A draw game keeps the hands face down while draws remain: they are shown at the showdown.
    if hand.betting_closed and len(live) >= 2 and (hand.is_over or not hand.game.is_draw):
        return live
    return tuple(dict.fromkeys(e.seat for e in hand.log if isinstance(e, Action) and e.action == "show"))


def public_cards(hand: StudHand) -> tuple[Card, ...]:
    """Every card everyone at the table saw, in no particular order: each seat's up cards (folded
    seats included: they were dealt face up), the community and indicator cards, and the down cards of
    every hand shown (``shown_seats``: at the showdown, or turned face up when betting closed).
    Burned cards are not public."""
    cards: list[Card] = []
    for seat in range(hand.seat_count):
        cards.extend(hand.up_cards(seat))
    if hand.community_card is not None:
        cards.append(hand.community_card)
    cards.extend(hand.indicator_cards)
    cards.extend(card for board in hand.boards for card in board)
    for seat in shown_seats(hand):
        cards.extend(hand.down_cards(seat))
    return tuple(dict.fromkeys(cards))


def own_down_cards(hand: StudHand, seat: int) -> tuple[Card, ...]:
    """``seat``'s down cards: what only that player may have opened privately."""
    return hand.down_cards(seat)


@dataclass(frozen=True, slots=True)
class HandReveal:
    """What may be shown of one stored hand's commitment.

    ``scheme`` ``"per-card"``: ``leaves`` (52 hashes) and ``openings`` (public ones, plus the asking
    member's own down cards when asked for). ``scheme`` ``"deck"`` (hands dealt before per-card
    commitments): ``salt`` and ``deck`` (the whole deck order as text), ``leaves``/``openings`` empty.
    ``own``: the openings that are the asking member's own down cards (a subset of ``openings``).
    """

    hand_id: int
    hand_no: int
    commitment: str
    scheme: str
    leaves: tuple[str, ...] = ()
    openings: tuple[Opening, ...] = ()
    own: tuple[Opening, ...] = ()
    salt: str = ""
    deck: str = ""

    def verify_command(self) -> str:
        """The ``wildstud verify`` command line that checks this reveal."""
        if self.scheme == "deck":
            return f"wildstud verify {self.commitment} {self.salt} {self.deck}"
        openings = " ".join(str(o) for o in self.openings)
        command = f"wildstud verify {self.commitment} --leaves {','.join(self.leaves)}"
        return command + (f" --open {openings}" if openings else "")


def replay_stored(record: HandRecord) -> tuple[StudHand, tuple[int, ...], DealCommitment, int]:
    """Replay a stored hand's log through the engine, as far as it goes: ``(engine, table seat
    numbers in deal order, deal, events before its last stored action)``. The one rebuild of a
    stored hand: a restart resumes from it (``bot.tables.runner``), reveals read it, and a replay
    steps through it (:func:`stored_steps`).

    The hand is dealt as the game it recorded (``HandRecord.game``). Raises ``ValueError`` if the
    record is not self-consistent (no deal order, a deck that does not match its commitment, an
    action the engine refuses, a game this version does not know).
    """
    *_, last = stored_steps(record)      # the deal is always yielded
    return last


def stored_steps(
    record: HandRecord,
) -> Iterator[tuple[StudHand, tuple[int, ...], DealCommitment, int]]:
    """:func:`replay_stored` one stored action at a time: the same engine object is yielded after the
    deal and again after each stored action (read it before going on), with the table seat numbers
    in deal order, the deal, and how many of its events came before that action (0 for the deal).
    Raises ``ValueError`` as ``replay_stored`` does, when it gets there."""
    if not record.actions:
        raise ValueError("the hand has no deal order")
    order = decode_seats(record.actions[0])
    players = {p.seat_no: p for p in record.players}
    if sorted(order) != sorted(players):
        raise ValueError("the deal order does not match the players")
    deck = tuple(Card.parse(code) for code in record.deck)
    deal = DealCommitment.from_parts(deck, record.salt)
    if deal.digest != record.commitment:
        raise ValueError("the stored deck does not match its commitment")
    # The deal order ends with the button (bot.tables.runner): the flop games go by it.
    engine = StudHand([players[n].starting_stack for n in order], TableStakes.from_dict(record.stakes),
                      Rulings.from_dict(record.rulings), Deck.from_order(deck), manual_showdown=True,
                      game=record.game, button=len(order) - 1, options=decode_options(record.actions[0]))
    yield engine, order, deal, 0
    for text in record.actions[1:]:
        told = len(engine.events)
        seat, command = decode_action(text)
        engine.apply(seat, command)
        yield engine, order, deal, told


def rebuild(record: HandRecord) -> tuple[StudHand, tuple[int, ...], DealCommitment]:
    """:func:`replay_stored`, with a finished hand's showdown completed: ``(engine, seat numbers in
    deal order, deal)``. Raises ``ValueError`` as ``replay_stored`` does."""
    engine, order, deal, _ = replay_stored(record)
    if record.status == "finished":
        # Hands settled before players could show or muck stored no show lines: their showdown
        # turned every live hand over (SPEC §9), so it is finished that way here.
        while engine.phase == "showdown" and engine.actor is not None:
            engine.show(engine.actor)
    return engine, order, deal


def reveal_of(record: HandRecord, member: int | None = None) -> HandReveal:
    """The reveal of a finished or voided hand, for anyone, or for ``member`` (their own down cards'
    openings added when they were dealt in). Raises ``ValueError`` while the hand is being played and
    for an inconsistent record."""
    if record.status == "in_progress":
        raise ValueError(f"hand {record.id} is still being played; its cards are opened when it ends")
    engine, order, deal = rebuild(record)
    if deal.scheme == "deck":
        return HandReveal(record.id, record.hand_no, deal.digest, "deck", salt=deal.salt, deck=deal.deck)
    own: tuple[Opening, ...] = ()
    if member is not None:
        seat_of = {p.member_id: order.index(p.seat_no) for p in record.players}
        if member in seat_of:
            own = deal.openings(own_down_cards(engine, seat_of[member]))
    public = deal.openings(public_cards(engine))
    return HandReveal(record.id, record.hand_no, deal.digest, "per-card", leaves=deal.leaves,
                      openings=_merge(public, own), own=own)


def _merge(*groups: Iterable[Opening]) -> tuple[Opening, ...]:
    found = {o.position: o for group in groups for o in group}
    return tuple(found[p] for p in sorted(found))


async def stored_reveal(store: Store, hand_id: int, member: int | None = None) -> HandReveal:
    """:func:`reveal_of` for a hand in ``store``. Raises ``LookupError`` if there is no such hand."""
    try:
        record = await store.get_hand(hand_id)
    except StoreError as exc:
        reason = exc.reason.rstrip(".")
        raise LookupError(f"hand {hand_id}: {reason[:1].lower()}{reason[1:]}") from None
    return reveal_of(record, member)


def viewer_history(record: HandRecord, member: int | None, names: dict[int, str] | None = None) -> str:
    """A finished hand's PHH text as ``member`` saw it: every shown hand, their own down cards, and
    ``??`` for every other down card (PHH's unknown card); ``member`` ``None`` gives a spectator's
    view (no down card but those shown). ``names`` maps member ids to display names (default:
    ``member <id>``). Raises ``ValueError`` while the hand is being played or for an inconsistent
    record. The text reads like any history but cannot be replayed (its unknown cards)."""
    from bot.engine.phh.export import export_phh

    if record.status == "in_progress":
        raise ValueError(f"hand {record.id} is still being played")
    engine, order, deal = rebuild(record)
    by_seat = {p.seat_no: p.member_id for p in record.players}
    members = [by_seat[n] for n in order]
    viewer = members.index(member) if member in members else None
    labels = [(names or {}).get(m, f"member {m}") for m in members]
    return export_phh(engine, players=labels, seats=list(order), deck_commitment=deal.digest,
                      fields={"hand": record.hand_no}, hide_unshown=True, viewer=viewer)


def live_reveal(hand_no: int, hand_id: int, deal: DealCommitment, hand: StudHand) -> HandReveal:
    """The public reveal of a hand just finished or voided at the table (what ``reveal_of`` gives a
    spectator for the stored hand): the leaves and the openings of ``public_cards``, or the whole
    deck for a whole-deck commitment."""
    if deal.scheme == "deck":
        return HandReveal(hand_id, hand_no, deal.digest, "deck", salt=deal.salt, deck=deal.deck)
    return HandReveal(hand_id, hand_no, deal.digest, "per-card", leaves=deal.leaves,
                      openings=_merge(deal.openings(public_cards(hand))))


def reveal_text(hand_no: int, hand_id: int, deal: DealCommitment, hand: StudHand) -> str:
    """The public notice after a hand (finished or voided): what is opened and how to check it.

    Per-card: how many cards are opened and how every player checks them (``/hand verify``, which
    prints the leaves and openings; ``wildstud verify --hand`` is for whoever runs the bot, so it
    is not offered here); nothing else is opened. A
    whole-deck commitment (a hand resumed from before per-card commitments) still reveals its deck, as
    was promised when it was dealt."""
    if deal.scheme == "deck":
        return (f"Hand #{hand_no} deck and salt, to check against the commitment:\n"
                f"wildstud verify {deal.digest} {deal.salt} {deal.deck}")
    count = len(public_cards(hand))
    return (f"Hand #{hand_no} deck: the {count} cards everyone saw are opened against the commitment; "
            f"the other {52 - count} stay closed. Check them with /hand verify {hand_no}.")


def opening_text(deal: DealCommitment, down_cards: Iterable[Card]) -> str:
    """For a player's private message: the openings of their own down cards (empty for a whole-deck
    commitment or no down cards), to check against the leaves published after the hand."""
    cards = tuple(down_cards)
    if deal.scheme != "per-card" or not cards:
        return ""
    openings = " ".join(str(o) for o in deal.openings(cards))
    return f"\nYour down cards' openings ({OWN_OPENINGS_CHECK}): {openings}"


OWN_OPENINGS_CHECK = "check them after the hand with /hand verify"
"""How the private message says a player checks their own openings (Discord's words; the terminal
says its own, see ``bot.console.presenter.ConsolePresenter.private_text``)."""
