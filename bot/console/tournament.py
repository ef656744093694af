"""``wildstud play --tournament PRESET``: a sit-and-go in the terminal, you against computer
players (or, with ``--auto``, computer players only, to the end).

The tournament is the table service's (``bot.tables.tournaments``): the same buy-ins, levels,
eliminations and prizes as in Discord. The terminal deals each hand itself as soon as the last
ends. Levels run on the wall clock when a person plays; with ``--auto`` (nobody waits for anyone)
a level lasts as many hands as the preset's minutes, about a hand a minute, a live table's pace.
The buy-in is 100 chips from each player's balance (the house stakes a player who has less). A
tournament left unfinished (q, Ctrl-C) resumes on the next run with the same ``--db``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from bot.console.game import (
    GUILD,
    HOUSE_TOP_UP,
    TERMINAL_FLOOR,
    TERMINAL_OPTIONS,
    PlayConfig,
    Quit,
    TerminalGame,
    is_robot,
)
from bot.console.presenter import ConsolePresenter
from bot.engine.errors import IllegalAction
from bot.engine.games.catalogue import DEFAULT_GAME
from bot.render.cards import chips
from bot.store import Store
from bot.tables.notices import Actor, TableKey
from bot.tables.service import TableService
from bot.tables.tournaments import ordinal
from bot.tournament.model import GamePlan, Options, Tournament
from bot.tournament.structure import LevelLength, Structure

TOURNAMENT_CHANNEL = 3
BUY_IN = 100


class TerminalTournament(TerminalGame):
    """One run of a terminal sit-and-go (the table's turns are :class:`TerminalGame`'s)."""

    def __init__(self, config: PlayConfig, preset: str, stdin: TextIO, stdout: TextIO) -> None:
        super().__init__(config, stdin, stdout)
        self.preset = preset
        self.key = TableKey(GUILD, TOURNAMENT_CHANNEL + (10 if config.auto else 0))
        # The tournament's own table key: a presenter for it, told what the game's was told (the
        # database, --verify, and in --auto where the check is, since nobody types ``verify``).
        game_presenter = self.presenter
        self.presenter = ConsolePresenter(stdout, self.style, self.key, set(self.humans))
        self.presenter.db = game_presenter.db
        self.presenter.print_checks = game_presenter.print_checks
        self.presenter.ask_for_check = game_presenter.ask_for_check
        self.presenter.own_standings = True          # results() lists them, with each balance
        self.tournament_id: int | None = None

    async def run(self) -> int:
        path: str | Path = self.config.db if self.config.db is not None else ":memory:"
        self.store = await Store.open(path)
        try:
            self.service = TableService(self.store, self.presenter, rng=self.rng,
                                        default_options=TERMINAL_OPTIONS, floor=TERMINAL_FLOOR)
            self.service.tournaments.auto_deal_after = None      # the terminal deals itself
            await self.service.start()
            await self.enter()
            try:
                await self.play_out()
            except Quit:
                self.say("The tournament is saved; run the same command again to go on.")
                return 0
            await self.results()
            return 0
        finally:
            if self.service is not None:
                await self.service.close()
            await self.store.close()

    async def enter(self) -> None:
        """Resume this channel's tournament, or open one and seat everyone (it starts when full)."""
        service, store = self.service, self.store
        assert service is not None and store is not None
        record = await store.tournament_in_channel(self.key.channel)
        if record is not None and record.status == "running":
            self.tournament_id = record.id
            self.say(self.style.bold(f"Tournament #{record.id} resumes."))
            return
        players = self.players()
        organiser = next(iter(players))
        if record is not None:             # registering, left from an interrupted start
            await service.tournaments.cancel(self.key, Actor(organiser, dealer_rights=True))
        length = None
        if self.config.auto:
            length = LevelLength("hands", Structure.preset(self.preset).length.amount)
        options = Options(
            plan=GamePlan.parse(self.config.game or DEFAULT_GAME.name),
            structure=Structure.preset(self.preset, length),
            buy_in=BUY_IN, seats=len(players),
        )
        self.say(self.style.bold(f"Sit-and-go ({self.preset}): ")
                 + await service.tournaments.create(self.key, Actor(organiser), options))
        for member, name in players.items():
            balance = await store.balance(GUILD, member)
            if balance < BUY_IN:
                gift = HOUSE_TOP_UP - balance
                await store.grant(GUILD, member, gift, reason="terminal tournament: the house stakes them")
                self.say(self.style.dim(f"{name} is out of chips; the house stakes them {chips(gift)}."))
            await service.tournaments.join(self.key, Actor(member, name), f"terminal-{member}")
        found = await store.tournament_in_channel(self.key.channel)
        assert found is not None
        self.tournament_id = found.id

    async def play_out(self) -> None:
        service = self.service
        assert service is not None
        while service.has_table(self.key):
            if self.presenter.out_closed:
                raise Quit
            table = service.snapshot(self.key)
            choice = service.pending_choice(self.key) if not table.in_hand else None
            if choice is not None:
                await self.answer_choice(choice)
                continue
            if not table.in_hand:
                try:
                    await service.deal(self.key)
                except IllegalAction as exc:
                    self.say(self.style.tint("red", exc.reason))
                    raise Quit from None
                continue
            prompt = service.current_prompt(self.key)
            if prompt is None:  # pragma: no cover - a live hand always has someone to act
                return
            self.show_unseen_cards(prompt.member)
            if is_robot(prompt.member):
                await self.robot_turn(prompt)
            else:
                await self.human_turn(prompt)

    async def results(self) -> None:
        """The standings and prizes, and everyone's balance now."""
        store = self.store
        assert store is not None and self.tournament_id is not None
        record = await store.get_tournament(self.tournament_id)
        players = self.players()
        self.say(self.style.bold(f"Tournament #{record.id} is over. Standings and prizes"
                                 f" (pool {chips(sum(record.paid.values()))}):"))
        model = Tournament.from_dict(record.state)
        for row in model.standings():
            prize = record.prizes.get(row.member, 0)
            balance = await store.balance(GUILD, row.member)
            name = players.get(row.member, row.name)
            tied = "  (tied)" if row.tied else ""
            self.say(f"  {ordinal(row.place):>4} {name:<10} prize {chips(prize):>6}"
                     f"   balance {chips(balance)}{tied}")
