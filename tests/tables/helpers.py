"""Test helpers for the table service: stacked decks, a harness around service + recorder + clock."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

from bot.engine.betting.stakes import TableStakes
from bot.engine.cards.card import FULL_DECK, Card, parse_cards
from bot.store import Store
from bot.tables.clock import FakeClock
from bot.tables.notices import Actor, NoticeKind, Prompt, TableKey
from bot.tables.options import TableOptions
from bot.tables.recording import RecordingPresenter
from bot.tables.service import TableService
from tests.engine.helpers import command

NO_TIMERS = TableOptions(turn_timeout=None, reminder_after=None)


def stacked_deck(hands: Sequence[str]) -> list[Card]:
    """A deck order that deals ``hands[i]`` (seven cards: down, down, door, 4th, 5th, 6th, 7th) to
    engine seat ``i`` when nobody folds, in SPEC §2 pass order; the other cards follow in
    ``FULL_DECK`` order. Written independently of the engine's dealer."""
    cards = [parse_cards(h) for h in hands]
    order: list[Card] = []
    for position in range(7):          # pass 1, 2 (down), 3 (door), then one card per street
        for seat_cards in cards:
            if position < len(seat_cards):
                order.append(seat_cards[position])
    rest = [c for c in FULL_DECK if c not in set(order)]
    assert len(set(order)) == len(order), "a card is given twice"
    return order + rest


class StackedRandom(random.Random):
    """A ``random.Random`` whose ``shuffle`` lays out the given deck orders, one per hand, then
    shuffles normally (seeded). Salts still come from ``randbytes``."""

    def __init__(self, *orders: Sequence[Card], seed: int = 1) -> None:
        super().__init__(seed)
        self.orders = [list(o) for o in orders]

    def shuffle(self, x: list[Card]) -> None:  # type: ignore[override]
        if self.orders:
            x[:] = self.orders.pop(0)
        else:
            super().shuffle(x)


class Harness:
    """A service on a real SQLite file, a recording presenter and a fake clock."""

    def __init__(self, store: Store, path: Path, *, rng: random.Random | None = None,
                 options: TableOptions = NO_TIMERS) -> None:
        self.store = store
        self.path = path
        self.rec = RecordingPresenter()
        self.clock = FakeClock()
        self.service = TableService(self.store, self.rec, clock=self.clock, rng=rng or random.Random(7),
                                    default_options=options)
        self.key = TableKey(1, 100)
        self.members: dict[str, int] = {}

    async def table(self, *players: tuple[str, int], key: TableKey | None = None,
                    stakes: TableStakes | None = None, dealer: int | None = None) -> TableKey:
        """Open a table and seat ``(name, buy_in)`` players in seats 1, 2, ...; members are 101, 102..."""
        key = key or self.key
        start = 101 + len(self.members)
        dealer = dealer if dealer is not None else start
        await self.service.create_table(key, dealer, stakes=stakes)
        for i, (name, buy_in) in enumerate(players):
            member = start + i
            self.members[name] = member
            await self.service.join(key, member, name, buy_in=buy_in)
        return key

    def prompt(self, key: TableKey | None = None) -> Prompt:
        prompt = self.rec.last_prompt(key or self.key)
        assert prompt is not None, "nobody was prompted"
        return prompt

    async def act(
        self, name: str, action: str, amount: int | None = None, key: TableKey | None = None
    ) -> None:
        """Act as ``name``, who must be the player prompted now."""
        prompt = self.prompt(key)
        assert prompt.name == name, f"{prompt.name} is to act, not {name}"
        await self.service.act(key or self.key, prompt.member, prompt.hand_id, prompt.turn,
                               command(action, amount))

    async def passive(self, key: TableKey | None = None) -> None:
        """Play the current hand to its end: bring in, call, or check (never fold, never bet), show
        when asked to show or muck (so every live hand is turned over, as before mucking), decline
        a card and pay the pot when Baseball asks, run it once, discard the first card (Crazy
        Pineapple), and stand pat at a draw."""
        key = key or self.key
        table = self.service.table(key)
        while table.hand is not None:
            prompt = self.prompt(key)
            names = [o.action for o in prompt.options]
            action = "bring_in" if "bring_in" in names else ("check" if "check" in names else "call")
            if "show" in names:
                action = "show"
            if "decline" in names or "pay" in names:     # Baseball's questions: no card, stay in
                action = "decline" if "decline" in names else "pay"
            if "stand" in names:                         # a draw game's draw: stand pat
                action = "stand"
            if "run_once" in names or "discard" in names:   # run it once; Crazy Pineapple: the first card
                option = prompt.options[-1] if "run_once" in names else prompt.options[0]
                await self.service.act(key, prompt.member, prompt.hand_id, prompt.turn, option.command)
                continue
            await self.service.act(key, prompt.member, prompt.hand_id, prompt.turn, command(action))

    def texts(self, kind: NoticeKind | None = None, key: TableKey | None = None) -> list[str]:
        return [n.text for n in self.rec.public(key or self.key, kind)]

    async def audit_ok(self) -> None:
        report = await self.store.audit()
        assert report.ok, report.all_problems()


async def void_agreed(h: Harness, who: Actor | int, reason: str = "", **kwargs: object) -> str:
    """``who`` voids the hand; when that needs the other players' consent (``bot.tables.voiding``),
    each player asked agrees. Returns the last confirmation (the void's own once it is done)."""
    asked = len(h.rec.void_requests(h.key))
    told = await h.service.void_hand(h.key, who, reason, **kwargs)  # type: ignore[arg-type]
    requests = h.rec.void_requests(h.key)
    if len(requests) > asked:
        request = requests[-1]
        for member, _ in request.needed:
            told = await h.service.answer_void(h.key, member, request.request_id, True)
    return told
