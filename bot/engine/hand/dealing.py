"""Dealing and opening the betting rounds for ``StudHand`` (SPEC §2-§5).

The antes, each street's cards in the pass order of SPEC §2 (burns, the seventh-street community
card in a shortage, indicator cards), the wild ranks kept in step with the follow tracker, and the
start of each betting round: the bring-in by the lowest door card on third street, then the best
showing hand first. ``StreetDealing`` is a mixin of ``StudHand``; the attributes it names are the
hand's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.engine.betting.round import BettingRound
from bot.engine.cards.card import Card, Rank
from bot.engine.cards.deck import CardSource
from bot.engine.games.follow import FollowNote
from bot.engine.games.low import high_door_index, low_hand_index
from bot.engine.games.streets import STREETS
from bot.engine.hand.events import (
    BettingClosed,
    BringInSeat,
    BurnsScrambled,
    CommunityCardNeeded,
    Event,
    FirstToAct,
    FollowNoted,
    StreetStarted,
    WildRankAdded,
)
from bot.engine.log import Action, Deal, LogEntry
from bot.engine.values.showing import door_card_key

if TYPE_CHECKING:  # pragma: no cover - annotations only
    from collections.abc import Iterator

    from bot.engine.betting.stakes import TableStakes
    from bot.engine.games.baseball import Decision
    from bot.engine.games.catalogue import Game
    from bot.engine.games.rulings import Rulings
    from bot.engine.games.wilds import WildTracker
    from bot.engine.values.showing import ShowingValue

_DOOR_CACHE: dict[tuple[str, Card, bool], tuple[int, int, int]] = {}


class StreetDealing:
    """The deal and the start of each betting round for ``StudHand`` (mixin)."""

    game: Game
    rulings: Rulings
    stakes: TableStakes
    _n: int
    _source: CardSource
    _stacks: list[int]
    _contrib: list[int]
    _street_bets: list[int]
    _folded: list[bool]
    _cards: list[list[Card]]
    _up: list[list[Card]]
    _up_ranks: list[tuple[Rank, ...]]
    _up_mask: list[int]
    _wild_mask: int
    _down: list[list[Card]]
    _community: Card | None
    _indicators: list[Card]
    _burns: list[Card]
    _seen: set[Card]
    _deal_seq: int
    _log: list[LogEntry]
    _events: list[Event | Deal | Action]
    _follow: WildTracker
    _wild_tuple: tuple[Rank, ...]
    _street: int
    _round: BettingRound | None
    _actor: int | None
    _phase: str
    _betting_closed: bool
    _high_hands: dict[int, int]
    _first_actors: dict[int, int | None]
    _bring_in_seat: int | None
    _dealer: Iterator[Decision] | None

    if TYPE_CHECKING:  # StudHand's own, named here for the type checker
        def _record(self, action: Action) -> None: ...
        def _showing(self, seat: int) -> ShowingValue: ...
        def _return_uncalled(self) -> None: ...
        def _begin_showdown(self) -> None: ...
        def _run_dealer(self) -> None: ...
        def _deal_steps(self, street: int) -> Iterator[Decision]: ...

    def _post_antes(self) -> None:
        ante = self.stakes.ante
        if ante <= 0:
            return
        for seat in range(self._n):
            chips = min(ante, self._stacks[seat])
            self._stacks[seat] -= chips
            self._contrib[seat] += chips
            self._record(Action(3, seat, "ante", chips, 0, self._stacks[seat] == 0))

    def _draw(self, street: int, seat: int | None, face_up: bool, kind: str) -> Card:
        card = self._source.draw(seat, face_up)
        if card in self._seen:
            raise ValueError(f"the card source dealt {card.code} twice")
        self._seen.add(card)
        deal = Deal(self._deal_seq, street, seat, card, face_up, kind)
        self._deal_seq += 1
        self._log.append(deal)
        self._events.append(deal)
        if kind == "burn":
            self._burns.append(card)
            return card
        if seat is not None:
            self._cards[seat].append(card)
            (self._up if face_up else self._down)[seat].append(card)
            if face_up:
                self._add_up_rank(seat, card)
        elif kind == "community":
            self._community = card
        else:
            self._indicators.append(card)
        notes = self._follow.on_deal(deal)
        if notes:
            self._note(notes)
        return card

    def _add_up_rank(self, seat: int, card: Card) -> None:
        rank = card.rank
        self._up_ranks[seat] = tuple(sorted((*self._up_ranks[seat], rank)))
        self._up_mask[seat] |= 1 << rank

    def _sync_wilds(self) -> None:
        """Copy the tracker's wild ranks (they may grow, be replaced or vanish in some games)."""
        ranks = tuple(self._follow.wild_ranks)
        self._wild_tuple = ranks
        mask = 0
        for rank in ranks:
            mask |= 1 << rank
        self._wild_mask = mask

    def _note(self, notes: tuple[FollowNote, ...]) -> None:
        follow = self._follow
        self._sync_wilds()
        for note in notes:
            if note.kind == "added":
                self._events.append(WildRankAdded(follow.events[-1], self._wild_tuple))
            else:
                self._events.append(FollowNoted(note))

    def _proceed_from(self, street: int) -> None:
        """Deal ``street`` and start its betting; while betting is closed, deal on to the showdown."""
        if self.game.extra_card is not None or self.game.pay_rank is not None:
            self._dealer = self._deal_steps(street)
            self._run_dealer()
            return
        while True:
            self._street = street
            self._phase = "dealing"
            bets = self._street_bets
            for seat in range(self._n):
                bets[seat] = 0
            self._events.append(StreetStarted(street))
            if street == 7:
                self._deal_seventh()
            else:
                self._deal_street(street)
            if not self._betting_closed and self._start_round(street):
                return
            if street == 7:
                self._finish_cards()
                self._begin_showdown()
                return
            street += 1

    def _deal_street(self, street: int) -> None:
        spec = STREETS[street - 3]
        if spec.burn and self.rulings.burn_cards == "on":
            self._draw(street, None, False, "burn")
        for face_up in spec.passes:
            self._deal_pass(street, face_up)

    def _deal_pass(self, street: int, face_up: bool) -> None:
        """One card to each live seat in seat order (the hot path of ``_draw``, inlined)."""
        draw = self._source.draw
        seen, log, events = self._seen, self._log, self._events
        cards, pile, folded = self._cards, (self._up if face_up else self._down), self._folded
        up_ranks, up_mask = self._up_ranks, self._up_mask
        follow = self._follow
        trigger = follow.trigger
        seq = self._deal_seq
        for seat in range(self._n):
            if folded[seat]:
                continue
            card = draw(seat, face_up)
            size = len(seen)
            seen.add(card)
            if len(seen) == size:
                raise ValueError(f"the card source dealt {card.code} twice")
            deal = Deal(seq, street, seat, card, face_up, "hole")
            seq += 1
            log.append(deal)
            events.append(deal)
            cards[seat].append(card)
            pile[seat].append(card)
            if face_up:
                rank = card.rank
                up_ranks[seat] = tuple(sorted((*up_ranks[seat], rank)))
                up_mask[seat] |= 1 << rank
            if (face_up and card.rank is trigger) or follow.pending is not None:
                notes = follow.on_deal(deal)
                if notes:
                    self._note(notes)
        self._deal_seq = seq

    def _deal_seventh(self) -> None:
        """Seventh street: down cards, or one community card in a shortage (SPEC §2, TDA RP-10H)."""
        source = self._source
        live = [i for i in range(self._n) if not self._folded[i]]
        burn = self.rulings.burn_cards == "on"
        indicator = self.rulings.follow_target == "indicator-card"
        needed = len(live) + (1 if burn else 0) + (1 if indicator and self._follow.pending else 0)
        if source.remaining() < needed and burn and self._burns:
            scrambled = tuple(self._burns)
            source.scramble(scrambled)
            self._burns.clear()
            self._seen.difference_update(scrambled)
            self._events.append(BurnsScrambled(scrambled))
        community = source.remaining() < needed
        if community:
            self._events.append(CommunityCardNeeded(source.remaining(), len(live)))
        if burn and source.remaining() >= (2 if community else needed):
            self._draw(7, None, False, "burn")
        if community:
            self._draw(7, None, True, "community")
            self._indicators_while_pending(0)
            notes = self._follow.last_up()
            if notes:
                self._note(notes)
            return
        self._indicators_while_pending(len(live))
        self._deal_pass(7, False)
        notes = self._follow.last_up()        # no up card is left to follow (follow-the-queen)
        if notes:
            self._note(notes)

    def _indicators_while_pending(self, keep: int) -> None:
        """``indicator-card``: no up card will follow, so turn stub cards in the centre while a follow
        is armed (a five turned there arms another under ``chain``), keeping ``keep`` cards."""
        if self.rulings.follow_target != "indicator-card":
            return
        while self._follow.pending is not None and self._source.remaining() > keep:
            self._draw(7, None, True, "indicator")

    def _finish_cards(self) -> None:
        notes = self._follow.lapse()
        if notes:
            self._note(notes)

    # ------------------------------------------------------------------ betting rounds
    def _able(self) -> list[int]:
        return [i for i in range(self._n) if not self._folded[i] and self._stacks[i] > 0]

    def _start_round(self, street: int) -> bool:
        """Set up betting on ``street``; False if at most one player can bet (betting closes)."""
        if len(self._able()) <= 1:
            self._close_betting(street)
            return False
        stakes, rulings = self.stakes, self.rulings
        cap, uncapped = rulings.raise_cap_count, rulings.heads_up_uncapped == "on"
        if street == 3:
            low = self._low_door_seat()
            seat = low
            passed_from: int | None = None
            if self._stacks[low] == 0:
                passed_from = low
                seat = next(s for s in ((low + k) % self._n for k in range(1, self._n))
                            if self._stacks[s] > 0 and not self._folded[s])
            self._bring_in_seat = low
            rnd = BettingRound(street, stakes, self._stacks, self._street_bets, self._contrib,
                               self._folded, bring_in_seat=seat, bring_in_may_fold=passed_from is not None,
                               raise_cap=cap, heads_up_uncapped=uncapped)
            self._events.append(BringInSeat(seat, self._up[low][0], passed_from,
                                            self.game.bring_in == "high-card"))
            first: int | None = seat
        else:
            open_pair = street == 4 and stakes.is_fixed_limit and self._open_pair()
            rnd = BettingRound(street, stakes, self._stacks, self._street_bets, self._contrib,
                               self._folded, open_pair=open_pair, raise_cap=cap, heads_up_uncapped=uncapped)
            same_as_sixth = street == 7 and self._community is not None and 6 in self._high_hands
            high = self._high_hands[6] if same_as_sixth else self._high_hand_seat()
            self._high_hands[street] = high
            first = rnd.first_actor(high)
            self._events.append(FirstToAct(street, high, first, same_as_sixth,
                                           self.game.acts_first == "low-hand"))
        if first is None:  # pragma: no cover - two players can bet, so someone must act
            self._close_betting(street)
            return False
        self._round = rnd
        self._first_actors[street] = first
        self._actor = first
        self._phase = "betting"
        return True

    def _close_betting(self, street: int) -> None:
        if not self._betting_closed:
            self._betting_closed = True
            self._return_uncalled()
            self._events.append(BettingClosed(street))

    def _low_door_seat(self) -> int:
        """The bring-in: lowest door card with the wild set now (SPEC §5, ``showing_hand``); in
        razz the highest door card (``games.low.high_door_index``)."""
        if self.game.bring_in == "high-card":
            live = [s for s in range(self._n) if not self._folded[s]]
            return live[high_door_index([self._up[s][0] for s in live])]
        wild = self._follow.wild_set
        how = self.rulings.showing_hand
        up = self._up

        def key(seat: int) -> tuple[int, int, int]:
            card = up[seat][0]
            memo = (how, card, card.rank in wild)
            value = _DOOR_CACHE.get(memo)
            if value is None:
                value = _DOOR_CACHE[memo] = door_card_key(card, wild, showing_hand=how)
            return value

        return min((s for s in range(self._n) if not self._folded[s]), key=key)

    def _high_hand_seat(self) -> int:
        """The live seat with the best showing hand; ties by position or by the highest card by suit.
        In razz the lowest showing hand (``games.low.low_hand_index``)."""
        by_suit = self.rulings.high_hand_tiebreak == "suit"
        if self.game.acts_first == "low-hand":
            live = {s: self._up[s] for s in range(self._n) if not self._folded[s]}
            return low_hand_index(live, by_suit=by_suit)
        best_seat = -1
        folded, ups = self._folded, self._up
        if not by_suit:                       # position: the first seat clockwise wins a tie
            best = -1
            for seat in range(self._n):
                if not folded[seat]:
                    value = self._showing(seat).strength
                    if value > best:
                        best, best_seat = value, seat
            return best_seat
        best_key: tuple[int, tuple[Card, ...]] | None = None
        for seat in range(self._n):
            if self._folded[seat]:
                continue
            up = ups[seat]
            key = (self._showing(seat).strength, tuple(sorted(up, reverse=True)))
            if best_key is None or key > best_key:
                best_key, best_seat = key, seat
        return best_seat

    def _open_pair(self) -> bool:
        """Fourth street: does any live player show a pair (SPEC §5, ``open_pair_double``)?"""
        rule = self.rulings.open_pair_double
        if rule == "off" or "open_pair_double" not in self.game.rulings:
            return False
        wild = self._follow.wild_set
        for seat in range(self._n):
            if self._folded[seat]:
                continue
            a, b = self._up[seat][:2]
            if a.rank == b.rank:
                return True
            if rule == "wild-aware" and (a.rank in wild or b.rank in wild):
                return True
        return False
