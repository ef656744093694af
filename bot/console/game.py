"""``wildstud play``: a table in the terminal, on the same table service the Discord bot uses.

* You against 1 to 7 computer players (``bots``), or several people taking turns at one keyboard
  (``humans`` with more than one name: "hot seat"; each player's down cards appear only at their
  turn, after a "pass the keyboard" pause).
* ``auto``: computer players only, for ``hands`` hands; prints the whole log and everyone's chips.
  With a ``seed`` the run is reproducible (the shuffles come from ``random.Random(seed)``; real
  play uses the OS CSPRNG).
* ``void [reason]`` at a turn: the human at the keyboard is the dealer (solo and hot seat alike)
  and voids the hand in progress, a misdeal: every chip goes back to where it was before the hand
  and the next deal keeps the button (``TableService.void_hand``).
* ``game``: the table's game, or ``dealers-choice``: then the player who deals each hand picks its
  game first (a computer player at random from the table's list, with the table's rng; the human at
  the keyboard by number or name). Between hands ``games`` lists the games, ``game NAME`` changes
  the game from the next deal and ``games NAME,NAME`` sets the dealer's-choice list.
* Chips live in the local SQLite store (``db``), so they carry over between runs; ``auto`` uses an
  in-memory database unless ``db`` is given. Quitting (``q``, Ctrl-C or end of input) mid-hand
  leaves the hand in the store, and the next run resumes it.

The terminal is guild 1; the interactive table is channel 1, the automatic one channel 2.
"""

from __future__ import annotations

import hashlib
import os
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TextIO

from bot.console.commands import HELP, MAX_DIGITS, InputError, echo, is_number, parse_action
from bot.console.presenter import ConsolePresenter
from bot.console.terminal import LineReader, Style
from bot.engine.betting.stakes import PRESETS, TableStakes
from bot.engine.cards.card import Card
from bot.engine.command import Command, Kind
from bot.engine.errors import IllegalAction
from bot.engine.games.catalogue import DEALERS_CHOICE, DEFAULT_GAME, GAMES
from bot.engine.games.rulings import RULINGS, Rulings
from bot.render.cards import chips
from bot.render.settings import rulings_changes, rulings_table
from bot.store import Store
from bot.tables.games import GameSettings, PendingChoice, games_list_text, setting_title
from bot.tables.notices import Actor, Prompt, TableKey, TableSnapshot
from bot.tables.options import TableOptions
from bot.tables.robot import ROBOT_POOL, Robot, robot_names
from bot.tables.service import TableService

GUILD = 1
PLAY_CHANNEL = 1
AUTO_CHANNEL = 2
ROBOT_BASE = 900
MAX_HAND_NUMBER = 2**63 - 1
"""The largest number a stored hand can have (the database's integers)."""
"""Computer players are members 900..907 (the same names every run, so their chips carry over)."""
HOUSE_TOP_UP = 1000
"""A player who cannot afford the minimum buy-in is staked back up to this by the house."""

TERMINAL_OPTIONS = TableOptions(turn_timeout=None, reminder_after=None)
"""No timers in the terminal (SPEC §7: off in the terminal)."""

TERMINAL_FLOOR = ""
"""Nobody at the keyboard is above the players (Discord's Manage Server has no terminal peer): a
void that needs their consent needs it, and the question says so without an "or"."""


def is_robot(member: int) -> bool:
    """Whether ``member`` is one of the terminal's computer players."""
    return ROBOT_BASE <= member < ROBOT_BASE + 8


def human_id(name: str) -> int:
    """A stable member id for a name typed at the terminal (so chips follow the name across runs)."""
    digest = hashlib.sha256(name.strip().lower().encode("utf-8")).digest()
    return 10_000 + int.from_bytes(digest[:4], "big")


@dataclass
class PlayConfig:
    """What ``wildstud play`` was asked to do (see the module docstring)."""

    db: str | Path | None
    """A SQLite path or a ``postgresql://`` URL; None: a throwaway in-memory database."""
    humans: list[str] = field(default_factory=list)
    bots: int = 3
    auto: bool = False
    hands: int = 3
    seed: int | None = None
    stakes: str | None = None
    """A preset name; ``None`` keeps a saved table's stakes (a new table gets ``small``)."""
    color: bool = False
    game: str | None = None
    """The table's game (a game name or ``dealers-choice``); None keeps the table's (a new table:
    Sex in the Middle East)."""
    tty: bool = False
    """Output is an interactive terminal: in hot seat the screen is cleared between players."""
    verify: bool = False
    """Print each hand's whole deck check with its reveal (long with an in-memory database)."""


class Quit(Exception):
    """The player asked to leave (q, Ctrl-D / end of input)."""


class TerminalGame:
    """One run of the terminal table."""

    def __init__(self, config: PlayConfig, stdin: TextIO, stdout: TextIO) -> None:
        self.config = config
        self.out = stdout
        self.reader = LineReader(stdin)
        self.style = Style(config.color)
        self.key = TableKey(GUILD, AUTO_CHANNEL if config.auto else PLAY_CHANNEL)
        names = [n.strip() for n in config.humans if n.strip()]
        self.humans: dict[int, str] = {human_id(n): n for n in names}
        robots = robot_names(config.bots, avoid=names)
        # Each computer player keeps its number across runs (a saved table seats the same "Ada"),
        # also when a human takes a name from the pool.
        self.robots: dict[int, str] = {ROBOT_BASE + ROBOT_POOL.index(name): name for name in robots}
        seed = config.seed
        self.rng: random.Random | None = random.Random(seed) if seed is not None else None
        self.brains: dict[int, Robot] = {}
        self.presenter = ConsolePresenter(stdout, self.style, self.key, set(self.humans))
        self.presenter.db = str(config.db) if config.db is not None else None
        self.presenter.print_checks = config.verify
        if config.auto:
            self.presenter.ask_for_check = "wildstud play --auto --verify prints the whole check."
        self.store: Store | None = None
        self.service: TableService | None = None
        self.start_stacks: dict[int, int] = {}
        self.last_human: int | None = None

    def dealer(self, table: TableSnapshot) -> Actor:
        """The human at the keyboard deals (solo and hot seat alike): the table's dealer, with
        dealer rights."""
        return Actor(table.dealer, table.name(table.dealer), dealer_rights=True)

    # ------------------------------------------------------------------ output
    def say(self, text: str = "") -> None:
        self.presenter.say(text)

    def players(self) -> dict[int, str]:
        return {**self.humans, **self.robots}

    # ------------------------------------------------------------------ the run
    async def run(self) -> int:
        """Play until done (auto), or until the player quits; returns the exit status."""
        path: str | Path = self.config.db if self.config.db is not None else ":memory:"
        self.store = await Store.open(path)   # before the try: a failed open leaves nothing to close
        try:
            self.service = TableService(self.store, self.presenter, rng=self.rng,
                                        default_options=TERMINAL_OPTIONS, floor=TERMINAL_FLOOR)
            self.presenter.hold()        # "Hand #N resumes..." comes after the banner
            try:
                await self.service.start()
            finally:
                held = self.presenter.unhold()
            self.welcome()
            self.presenter.say_all(held)
            self.resume_note()
            await self.open_table()
            if self.rng is not None and self.config.seed is not None:
                # The same seed gives the same run, but a later run at a saved table gets new decks.
                now = self.service.snapshot(self.key)
                hands_dealt = now.hand_no if now.in_hand else now.hand_no - 1   # between hands: the next
                self.rng.seed(f"{self.config.seed}:{hands_dealt}")
            try:
                await self.loop()
            except Quit:
                await self.goodbye()
                return 0
            await self.summary()
            if self.config.auto and self.config.db is not None:
                await self.stand_up()
            return 0
        finally:
            if self.service is not None:
                await self.service.close()
            await self.store.close()

    def welcome(self) -> None:
        """The banner: the game of the hand that resumes first if there is one (``--game`` applies
        from the deal after it, see :meth:`resume_note`), else the game asked for, else the game
        the saved table deals next (it named the default game over a saved table's own)."""
        s = self.style
        game = self.resumed_game() or self.config.game or self.table_game()
        if game is None or game == DEFAULT_GAME.name:
            self.say(s.bold("Wildstud: Sex in the Middle East"))
            self.say("Seven-card stud, fives wild. Whenever a five is dealt face up, the rank of the next up")
            self.say("card becomes wild too, for the rest of the hand. Wild ranks pile up; best high hand "
                     "wins.")
        elif game == DEALERS_CHOICE:
            self.say(s.bold("Wildstud: dealer's choice"))
            self.say("Before each hand the player who deals it picks the game (games lists them).")
        else:
            self.say(s.bold(f"Wildstud: {GAMES[game].title}"))
            self.say(GAMES[game].describe())
        who = ", ".join(self.robots.values())
        if self.config.auto:
            hands = self.config.hands
            self.say(f"Computer players: {who}. Playing {hands} hand{'s' if hands != 1 else ''}.")
        else:
            you = ", ".join(self.humans.values())
            self.say(f"At the table: {you}" + (f", and the computer players {who}." if who else "."))
            if self.config.db is not None:
                self.say(s.dim(f"Chips are kept in {self.config.db}; quit any time with q or Ctrl-C."))
            self.say(s.dim("Type ? at any prompt for help."))

    def resumed_game(self) -> str | None:
        """The game of the unfinished hand this run resumes first (None if there is none)."""
        service = self.service
        assert service is not None
        if not service.has_table(self.key):
            return None
        return service.games(self.key).hand_game

    def table_game(self) -> str | None:
        """The game setting a saved table deals from its next deal (None: no saved table)."""
        service = self.service
        assert service is not None
        if not service.has_table(self.key):
            return None
        games = service.games(self.key)
        return games.pending or games.setting

    def resume_note(self) -> None:
        """An unfinished hand from an earlier run is played out first (the table has said that it
        resumes), by the players it was dealt to: when they are not this run's line-up, say who
        finishes it and who sits down after it; and a ``--game`` that waits for the next deal."""
        service = self.service
        assert service is not None
        if not service.has_table(self.key):
            return
        table = service.snapshot(self.key)
        if table.hand_id is None:
            return
        names = [seat.name for seat in table.seats if seat.dealt_in]
        wanted = list(self.players().values())
        if sorted(names) != sorted(wanted):
            self.say(self.style.bold(f"Hand #{table.hand_no} is finished by the players it was dealt to, "
                                     f"{_and(names)}; then {_and(wanted)} sit down."))
        asked, resumed = self.config.game, self.resumed_game()
        if asked is not None and resumed is not None and asked != resumed:
            self.say(self.style.dim(f"From the next hand: {setting_title(asked, ())}."))

    async def open_table(self) -> None:
        service = self.service
        assert service is not None
        stakes = _stakes(self.config.stakes or "small")
        if not service.has_table(self.key):
            dealer = next(iter(self.humans), None) or next(iter(self.robots))
            await service.create_table(self.key, dealer, stakes=stakes, game=self.config.game)
        else:
            table = service.snapshot(self.key)
            if self.config.stakes is not None:
                # Only stakes asked for on the command line replace the saved ones (like rulings, the
                # stakes set with "stakes ..." are kept from run to run), and the change is said.
                if table.stakes != stakes and (table.pending_stakes or table.stakes) != stakes:
                    self.say(await service.set_stakes(self.key, self.dealer(table), stakes))
            if self.config.game is not None and service.games(self.key).game != self.config.game:
                await service.set_game(self.key, self.dealer(table), self.config.game)

    async def loop(self) -> None:
        service = self.service
        assert service is not None
        played = 0
        while True:
            if self.presenter.out_closed:
                return
            table = service.snapshot(self.key)
            choice = service.pending_choice(self.key) if not table.in_hand else None
            if choice is not None:
                # Dealer's choice: the deal waits for the game (also a question asked before a
                # restart); the hand is dealt as soon as it is chosen.
                if await self.answer_choice(choice) is not None:
                    self.last_human = None
                    played += 1
                continue
            if not table.in_hand:
                if self.config.auto and played >= self.config.hands:
                    return
                await self.seat_players()
                if not self.config.auto:
                    await self.between_hands()
                    await self.seat_players()
                table = service.snapshot(self.key)
                if not self.start_stacks:
                    self.start_stacks = {s.member: s.stack for s in table.seats}
                self.presenter.last_hand = self.config.auto and played + 1 >= self.config.hands
                try:
                    dealt = await service.deal(self.key, self.dealer(table))
                except IllegalAction as exc:
                    self.say(self.style.tint("red", exc.reason))
                    if self.config.auto:
                        return
                    continue
                if dealt is None:          # dealer's choice: asked next time round
                    continue
                # Everyone watched the showdown: in hot seat, whoever is at the keyboard now is
                # unknown, so the first player of the new hand is asked for it like any other.
                self.last_human = None
                played += 1
                continue
            prompt = service.current_prompt(self.key)
            if prompt is None:  # pragma: no cover - a live hand always has someone to act
                return
            self.show_unseen_cards(prompt.member)
            if is_robot(prompt.member):
                await self.robot_turn(prompt)
            else:
                await self.human_turn(prompt)

    # ------------------------------------------------------------------ seating
    async def seat_players(self) -> None:
        """Between hands: seat everyone wanted, stake the broke, let go of anyone not playing now."""
        service, store = self.service, self.store
        assert service is not None and store is not None
        table = service.snapshot(self.key)
        wanted = self.players()
        stakes = table.pending_stakes or table.stakes
        for seat in table.seats:
            if seat.member not in wanted:
                await service.leave(self.key, seat.member)
            elif seat.stack <= 0:
                await service.leave(self.key, seat.member)
        table = service.snapshot(self.key)                     # after the leaves
        for member, name in wanted.items():
            current = table.seat_of(member)
            if current is not None:
                if current.status != "active":
                    await service.back(self.key, member)
                continue
            balance = await store.balance(GUILD, member)
            if balance < stakes.min_buy_in:
                gift = max(HOUSE_TOP_UP, stakes.min_buy_in) - balance
                await store.grant(GUILD, member, gift, reason="terminal table: the house stakes a player")
                self.say(self.style.dim(f"{name} is out of chips; the house stakes them {chips(gift)}."))
                balance += gift
            buy_in = min(balance, service.snapshot(self.key).stakes.max_buy_in)
            await service.join(self.key, member, name, buy_in=buy_in)

    # ------------------------------------------------------------------ dealer's choice
    async def answer_choice(self, choice: PendingChoice) -> int | None:
        """The dealer's choice: a computer player picks at random from the list (with the table's
        rng, so a seeded run repeats); the human whose deal it is picks by number or name.
        Returns the hand id dealt (None if it could not be dealt)."""
        service = self.service
        assert service is not None
        if choice.member not in self.humans:
            pick = service.rng.choice(choice.games)
            return await service.choose_game(self.key, choice.member, choice.choice_id, pick)
        s = self.style
        self.say(s.bold(f"{choice.name}, you deal: choose the game") + " (number or name):")
        for i, name in enumerate(choice.games, 1):
            self.say(f"  {i}) {GAMES[name].describe()}")
        while True:
            line = (await self.read("game> ")).strip()
            word = line.lower()
            if word in ("q", "quit", "exit"):
                raise Quit
            if is_number(word) and len(word) <= MAX_DIGITS and 1 <= int(word) <= len(choice.games):
                line = choice.games[int(word) - 1]
            elif not word:
                continue
            try:
                return await service.choose_game(self.key, choice.member, choice.choice_id, line)
            except IllegalAction as exc:
                # The menu is above: one short line, not the whole list again.
                reason = exc.reason
                if reason.startswith("Choose one of"):
                    reason = (f"No game here is called {echo(line)}: type its number (1 to"
                              f" {len(choice.games)}) or its name from the list above.")
                self.say(s.tint("yellow", reason))

    # ------------------------------------------------------------------ turns
    def brain(self, member: int) -> Robot:
        """The computer player for ``member`` (also one left over from an earlier run's hand)."""
        robot = self.brains.get(member)
        if robot is None:
            seed = self.config.seed
            robot = Robot(random.Random(f"{seed}:{member}") if seed is not None else random.Random())
            self.brains[member] = robot
        return robot

    async def robot_turn(self, prompt: Prompt) -> None:
        service = self.service
        assert service is not None
        command = self.brain(prompt.member).decide(service.situation(self.key, prompt.member))
        try:
            await service.act_on_prompt(self.key, prompt.member, command)
        except IllegalAction:  # never expected; fall back to the safest legal action
            names = [o.action for o in prompt.options]
            fallback = next(a for a in ("check", "bring_in", "call", "decline", "fold", "show") if a in names)
            await service.act_on_prompt(self.key, prompt.member, Command(Kind(fallback)))

    async def human_turn(self, prompt: Prompt) -> None:
        service = self.service
        assert service is not None
        s = self.style
        name = prompt.name
        hot_seat = not self.presenter.solo or prompt.member not in self.humans
        if hot_seat and self.last_human != prompt.member:
            if self.config.tty:
                # Home, clear the screen, and erase the scrollback (ESC [3J) so the last player's
                # cards are not one scroll away.
                print("\x1b[H\x1b[2J\x1b[3J", end="", file=self.out)
                for line in list(self.presenter.recent):
                    print(line, file=self.out)
            self.say(s.bold(f"Pass the keyboard to {name}, then press Enter."))
            await self.read(f"{name}> ")
        self.last_human = prompt.member
        self.say(s.dim(service.status_text(self.key)))
        self.show_cards(prompt.member)
        self.presenter.unseen.pop(prompt.member, None)
        hand = self.own_cards(prompt.member)
        if prompt.option("draw") is not None:     # a draw: number the cards for "draw 1 3"
            self.presenter.say(s.tint("cyan", "   " + "  ".join(
                f"{i}) {card}" for i, card in enumerate(hand, 1))), public=False)
        if prompt.option("check") is not None:
            # Folding when a check is free is legal but never wise: keep it off the numbered list
            # (typing "fold" still works).
            prompt = replace(prompt, options=tuple(o for o in prompt.options if o.action != "fold"))
        while True:
            # Private: a Crazy Pineapple discard names the player's hole cards, and the screen is
            # redrawn from the public lines for the next player at the keyboard.
            self.presenter.say(self.prompt_text(prompt), public=False)
            line = await self.read("> ")
            word = line.strip().lower()
            if word in ("q", "quit", "exit"):
                raise Quit
            if word in ("?", "h", "help"):
                self.say(HELP)
                continue
            if word in ("cards", "my cards"):
                self.show_cards(prompt.member)
                continue
            if word == "table":
                self.say(service.status_text(self.key))
                continue
            if word in ("rulings", "chips"):      # read-only: answered without leaving the turn
                if word == "chips":
                    await self.show_chips()
                else:
                    table = service.snapshot(self.key)
                    playing = GAMES.get(service.games(self.key).hand_game or "")
                    applies = playing.rulings if playing is not None else None
                    self.say("This hand is dealt under:\n" + rulings_text(table.rulings, applies))
                    if table.pending_rulings is not None:
                        changes = rulings_changes(table.rulings, table.pending_rulings)
                        self.say(s.dim(f"From the next deal: {changes}"))
                continue
            if word.split()[:1] == ["ruling"]:    # what the rulings list offers, also mid-hand
                await self.change_ruling(word.split()[1:])
                continue
            if word == "openings":
                self.show_openings(prompt.member)
                continue
            if word.split()[:1] == ["verify"]:
                self.say(s.tint("yellow", "The deck is opened when the hand ends: type verify between "
                                          "hands for the check (openings shows your down cards' openings)."))
                continue
            if word.split()[:1] == ["void"]:
                if await self.void(line.strip()[4:], name):
                    return
                continue
            try:
                await service.act_on_prompt(self.key, Actor(prompt.member, name),
                                            parse_action(line, prompt, hand))
            except InputError as exc:                   # may name the player's own cards
                self.presenter.say(s.tint("yellow", str(exc)), public=False)
                continue
            except IllegalAction as exc:                # may name them too ("discard one of ...")
                self.presenter.say(s.tint("yellow", f"Not allowed: {exc.reason}"), public=False)
                continue
            return

    async def void(self, reason: str, name: str) -> bool:
        """The dealer's misdeal: void the hand in progress (``name`` is who typed it, for the log).
        Returns whether it was voided; a refusal is printed."""
        service = self.service
        assert service is not None
        table = service.snapshot(self.key)
        # Whoever types it at the keyboard rules as the dealer (hot seat: the player whose turn it is).
        member = next((m for m, n in self.humans.items() if n == name), table.dealer)
        try:   # the channel notice says what happened; the confirmation would repeat it
            await service.void_hand(self.key, Actor(member, name, dealer_rights=True), reason, name=name)
            request = service.void_request(self.key)
            if request is None:
                return True
            # The void needs the others' consent (bot.tables.voiding): each human at the keyboard
            # is asked; a computer player agrees to a misdeal before the showdown, never after it
            # has begun (it would be giving back a pot it may be winning).
            for member, who in request.needed.items():
                if member in self.robots:      # the table's notice says what they answered
                    agree = "showdown" not in request.why
                else:
                    answer = (await self.read(f"{who}, do you agree to void this hand? (yes/no) ")).strip()
                    agree = answer.lower() in ("y", "yes")
                await service.answer_void(self.key, member, request.request_id, agree)
                if not agree:
                    return False
        except IllegalAction as exc:
            self.say(self.style.tint("yellow", exc.reason))
            return False
        return True

    def prompt_text(self, prompt: Prompt) -> str:
        s = self.style
        owe = f", {chips(prompt.to_call)} to call" if prompt.to_call else ""
        head = s.bold(f"{prompt.name}, your turn") + f" (pot {chips(prompt.pot)}{owe}):"
        options = "  ".join(f"{i}) {o.label}" for i, o in enumerate(prompt.options, 1))
        return f"{head}\n  {s.tint('cyan', options)}"

    def show_unseen_cards(self, to_act: int) -> None:
        """A solo player who will not be asked to act this street (all-in) still sees each new card."""
        service = self.service
        assert service is not None
        table = service.snapshot(self.key)
        if not table.in_hand or not self.presenter.solo:
            return
        for member, notice in list(self.presenter.unseen.items()):
            seat = table.seat_of(member)
            if member != to_act and seat is not None and seat.dealt_in and seat.all_in:
                self.presenter.say(self.style.tint("cyan", "\n".join(
                    "   " + line for line in self.presenter.private_text(notice).splitlines())), public=False)
                del self.presenter.unseen[member]

    def show_cards(self, member: int) -> None:
        service = self.service
        assert service is not None
        try:
            notice = service.my_cards(self.key, member)
        except IllegalAction:
            return
        text = "\n".join("   " + line for line in self.presenter.private_text(notice).splitlines())
        self.presenter.say(self.style.tint("cyan", text), public=False)

    def own_cards(self, member: int) -> tuple[Card, ...]:
        """The member's cards in the order the terminal shows them (down, then up)."""
        service = self.service
        assert service is not None
        try:
            notice = service.my_cards(self.key, member)
        except IllegalAction:
            return ()
        return (*notice.down_cards, *notice.up_cards)

    async def read(self, prompt: str) -> str:
        """One line of input; end of input means quit."""
        print(prompt, end="", file=self.out, flush=True)
        line = await self.reader.read()
        if line is None:
            print(file=self.out)
            raise Quit
        return line

    async def between_hands(self) -> None:
        service = self.service
        assert service is not None
        s = self.style
        while True:
            line = await self.read(s.bold("Press Enter to deal") + " (q to quit, ? for more): ")
            words = line.strip().split()
            if not words or words[0].lower() in ("d", "deal"):
                return
            head = words[0].lower()
            if head in ("q", "quit", "exit"):
                raise Quit
            if head in ("?", "h", "help"):
                self.say("Enter: deal · chips: everyone's chips · history [N] [NAME]: write hand N's "
                         "history file as NAME saw it · verify [N]: the command that checks hand N's "
                         "deck · rulings: the house rulings · "
                         "ruling NAME VALUE: change one (from the next deal) · stakes micro|small|medium|"
                         "pot-limit|no-limit · games: the games · game NAME: the game from the next deal "
                         "(or dealers-choice) · games NAME,NAME: the dealer's-choice list · "
                         "straddle on|off · bomb-pot next|off|every N [ante N]: the flop games' straddle "
                         "and bomb pots · join-blind wait|post: newcomers wait for the big blind or post"
                         " one · q: quit")
            elif head == "chips":
                await self.show_chips()
            elif head == "history":
                await self.write_history(words[1:])
            elif head == "void":
                await self.void(" ".join(words[1:]), "")     # refused: no hand is in progress
            elif head == "rulings":
                table = service.snapshot(self.key)
                applies = service.games(self.key).rulings
                self.say(rulings_text(table.pending_rulings or table.rulings, applies))
            elif head == "games" and len(words) == 1:
                self.say(games_text(service.games(self.key)))
            elif head in ("game", "games"):
                table = service.snapshot(self.key)
                rest = " ".join(words[1:])
                try:
                    if head == "game":
                        self.say(await service.set_game(self.key, self.dealer(table), rest))
                    else:
                        self.say(await service.set_games(self.key, self.dealer(table), split_list(rest)))
                except IllegalAction as exc:
                    self.say(s.tint("yellow", exc.reason))
            elif head == "join-blind" and len(words) == 2 and words[1] in ("wait", "post"):
                table = service.snapshot(self.key)
                await service.set_options(self.key, self.dealer(table), join_blind=words[1])
                self.say("Newcomers wait for the big blind." if words[1] == "wait"
                         else "Newcomers post a big blind and play at once.")
            elif head in ("straddle", "bomb-pot", "bombpot"):
                await self.flop_option(head, words[1:])
            elif head == "ruling":
                await self.change_ruling(words[1:])
            elif head == "verify":
                await self.verify(words[1:])
            elif head == "stakes" and len(words) == 2:
                table = service.snapshot(self.key)
                try:
                    stakes = _stakes(words[1])
                except ValueError as exc:
                    self.say(s.tint("yellow", str(exc)))
                    continue
                self.say(await service.set_stakes(self.key, self.dealer(table), stakes))
            elif head == "stakes":
                self.say(s.tint("yellow", f"Type stakes and one of: {', '.join(PRESETS)}."))
            else:
                self.say(s.tint("yellow", f"I don't understand {echo(line)}; ? lists the commands."))

    async def flop_option(self, head: str, words: list[str]) -> None:
        """``straddle on|off`` and ``bomb-pot next|off|every N [ante N]``: the flop games' straddle
        and bomb pots (the dealer, the keyboard), from the next deal."""
        service = self.service
        assert service is not None
        s = self.style
        dealer = self.dealer(service.snapshot(self.key))
        try:
            if head == "straddle" and words in (["on"], ["off"]):
                options = await service.set_options(self.key, dealer, straddle=words[0] == "on")
                self.say("Straddle on: the player under the gun posts twice the big blind in every flop hand."
                         if options.straddle else "Straddle off.")
                return
            if head != "straddle":
                ante = None
                if (len(words) >= 3 and words[-2] == "ante" and is_number(words[-1])
                        and len(words[-1]) <= MAX_DIGITS):
                    ante, words = int(words[-1]), words[:-2]
                if ante == 0:
                    self.say(s.tint("yellow", "A bomb pot's ante is at least 1: bomb-pot next ante N."))
                    return
                if ante is not None:
                    await service.set_options(self.key, dealer, bomb_pot_ante=ante)
                if words == ["next"]:
                    called = service.bomb_pot_called(self.key)
                    text = await service.call_bomb_pot(self.key, dealer)
                    if called:       # nothing changed, so the table announced nothing: answer here
                        self.say(text)
                    return
                if words == ["off"]:
                    await service.call_bomb_pot(self.key, dealer, on=False)
                    await service.set_options(self.key, dealer, bomb_pot_every=None)
                    self.say("No bomb pots.")
                    return
                if len(words) == 2 and words[0] == "every" and is_number(words[1]) and len(words[1]) <= 4:
                    if not 1 <= int(words[1]) <= 1000:
                        self.say(s.tint("yellow", "bomb-pot every N takes N from 1 to 1,000 (every Nth hand);"
                                                  " bomb-pot off stops them."))
                        return
                    options = await service.set_options(self.key, dealer, bomb_pot_every=int(words[1]))
                    self.say(f"Every hand numbered a multiple of {options.bomb_pot_every} is a bomb pot when"
                             " it is a flop game.")
                    return
                if ante is not None and not words:
                    self.say(f"A bomb pot's ante is {chips(ante)}.")
                    return
        except IllegalAction as exc:
            self.say(s.tint("yellow", exc.reason))
            return
        self.say(s.tint("yellow", "Type straddle on|off, or bomb-pot next|off|every N, optionally with "
                                  "ante N."))

    async def change_ruling(self, words: list[str]) -> None:
        """``ruling NAME VALUE``, between hands or during one: the dealer (the keyboard) changes one
        ruling from the next deal."""
        service = self.service
        assert service is not None
        s = self.style
        if len(words) != 2:
            self.say(s.tint("yellow", "Type ruling NAME VALUE, e.g. ruling raise_cap 4 (rulings lists "
                                      "every ruling and its options)."))
            return
        table = service.snapshot(self.key)
        try:
            self.say(await service.set_ruling(self.key, self.dealer(table), words[0], words[1]))
        except IllegalAction as exc:
            self.say(s.tint("yellow", exc.reason))

    def show_openings(self, member: int) -> None:
        """``openings``: the player's own down cards' openings (long hex), asked for, not shown with
        every turn."""
        service = self.service
        assert service is not None
        try:
            notice = service.my_cards(self.key, member)
        except IllegalAction as exc:
            self.say(self.style.tint("yellow", exc.reason))
            return
        text = self.presenter.openings_text(notice)
        line = "   " + (text or "You have no down card yet.")
        self.presenter.say(self.style.tint("cyan", line), public=False)

    async def verify(self, words: list[str]) -> None:
        """``verify [N]``: the command that checks hand N's opened deck (default: the last hand of
        this run), from the database file, or whole when the database is in memory."""
        service, store = self.service, self.store
        assert service is not None and store is not None
        s = self.style
        numbers = [int(w) for w in words if is_number(w) and len(w) <= MAX_DIGITS]
        if len(numbers) != len(words):
            self.say(s.tint("yellow", "Type verify, or verify N for hand #N."))
            return
        reveals = self.presenter.reveals
        number = numbers[0] if numbers else (max(reveals) if reveals else None)
        if number is not None and number in reveals:
            self.say(self.presenter.check_text(reveals[number]))
            return
        if self.config.db is not None:      # a hand of an earlier run: its check reads the file
            table = service.snapshot(self.key)
            hand = await store.hand_by_number(table.table_id, number, finished=True)
            if hand is not None and hand.status == "finished":
                self.say(f"wildstud verify --hand {hand.id} --db {self.config.db}")
                return
        self.say(s.tint("yellow", f"There is no finished hand #{number} here." if number is not None
                        else "No hand has finished at this table yet."))

    async def write_history(self, words: list[str]) -> None:
        """``history [N] [NAME]``: write finished hand N (default: the last) as a PHH file in the
        current folder, as NAME saw it (default: the one player at the keyboard): their own down
        cards, every card shown to the table, ``??`` for the cards they never saw."""
        service, store = self.service, self.store
        assert service is not None and store is not None
        s = self.style
        # Hand numbers in ASCII digits only ("²" and "٣" are digits to str.isdigit, not to int),
        # and no larger than a hand number can be (the database's integers stop at 2**63).
        typed = [w for w in words if is_number(w)]
        names = [w for w in words if not is_number(w)]
        table = service.snapshot(self.key)
        if typed and len(typed[0]) > MAX_DIGITS:
            self.say(s.tint("yellow", f"There is no finished hand #{echo(typed[0])[1:-1]} here."))
            return
        number = int(typed[0]) if typed else None
        hand = None
        if number is None or 0 < number <= MAX_HAND_NUMBER:
            hand = await store.hand_by_number(table.table_id, number, finished=True)
        if hand is None or hand.status != "finished":
            self.say(s.tint("yellow", f"There is no finished hand #{number} here." if number is not None
                            else "No hand has finished at this table yet."))
            return
        humans = {n.lower(): m for m, n in self.humans.items()}
        solo = next(iter(self.humans)) if len(humans) == 1 else None
        viewer = humans.get(names[0].lower()) if names else solo
        if names and viewer is None:
            self.say(s.tint("yellow", f"{echo(names[0])} is not a player at this keyboard."))
            return
        if solo is None and viewer is not None:
            # Hot seat: whoever is at the keyboard could type another player's name, and the file
            # stays in this folder for everyone here to open; so only the table's view is written.
            self.say(s.tint("yellow", "With several players at one keyboard, history writes the hand as "
                                      "the table saw it (no one's down cards): the file stays in this "
                                      "folder, where everyone here can open it."))
            viewer = None
        from bot.tables.reveal import viewer_history

        text = viewer_history(hand, viewer, dict(table.names))
        seat = next((p.seat_no for p in hand.players if p.member_id == viewer), None)
        path = _write_new(f"wildstud-hand-{hand.hand_no}", text)
        who = f"as {self.humans[viewer]} saw it" if viewer is not None and seat is not None else (
            "as the table saw it")
        self.say(f"Hand #{hand.hand_no} {who}: written to {path}.")
        if "??" in text:
            self.say(s.dim("Cards nobody showed you are written ??; wildstud replay needs every card, "
                           "so it replays this file only when none is hidden."))
        else:
            self.say(s.dim(f"Replay it with: wildstud replay {path}"))

    async def show_chips(self) -> None:
        service, store = self.service, self.store
        assert service is not None and store is not None
        table = service.snapshot(self.key)
        for member, name in self.players().items():
            seat = table.seat_of(member)
            stack = seat.stack if seat is not None else 0
            balance = await store.balance(GUILD, member)
            self.say(f"  {name}: {chips(stack)} at the table, {chips(balance)} in the bank")

    async def summary(self) -> None:
        service = self.service
        assert service is not None
        table = service.snapshot(self.key)
        s = self.style
        self.say()
        hands = table.hand_no - 1
        self.say(s.bold(f"Chips after {hands} hand{'' if hands == 1 else 's'}:"))
        rows = sorted(table.seats, key=lambda seat: (-seat.stack, seat.name))
        width = max((len(seat.name) for seat in rows), default=0)
        for seat in rows:
            start = self.start_stacks.get(seat.member)
            change = "" if start is None else f"  ({seat.stack - start:+,})"
            self.say(f"  {seat.name:<{width}}  {chips(seat.stack):>7}{change}")

    async def stand_up(self) -> None:
        """After ``--auto``'s last hand into a kept database, the computer players leave the table:
        their chips go back to their balances, so the database holds no chips in play, and the next
        run (auto or at the keyboard) seats them with their own chips rather than the house's. The
        table stays, so its hand numbers go on (#2 after #1: a number names one of its hands)."""
        service = self.service
        assert service is not None
        table = service.snapshot(self.key)
        if table.in_hand:        # stopped mid-hand: the hand stays for the next run to finish
            return
        for seat in table.seats:                     # each says "... leaves the table with N chips."
            await service.leave(self.key, seat.member)

    async def goodbye(self) -> None:
        service = self.service
        assert service is not None
        table = service.snapshot(self.key)
        if table.in_hand:
            saved = f"Hand #{table.hand_no} is saved; run wildstud play again to finish it."
            self.say(self.style.dim(saved))
        else:
            self.say(self.style.dim("Your chips are saved. Run wildstud play again to keep playing."))


def rulings_text(rulings: Rulings, names: Sequence[str] | None = None) -> str:
    """The rulings for the next deal (those in ``names``, the table's game's, when given), each
    with the other options it could take, and how to change one (a newcomer should not have to
    guess a ruling's values).

    >>> print(rulings_text(Rulings()).splitlines()[3])
        or: absorb
    """
    lines: list[str] = []
    for name, line in zip(rulings.to_dict(), rulings_table(rulings), strict=True):
        if names is not None and name not in names:
            continue
        lines.append(line)
        others = [o for o in RULINGS[name] if o != getattr(rulings, name)]
        lines.append("    or: " + " · ".join(others))
    lines.append("Change one with: ruling NAME VALUE (it applies from the next deal).")
    return "\n".join(lines)


def _write_new(stem: str, text: str) -> Path:
    """Write ``text`` to ``stem.phh`` in the current folder, or ``stem-2.phh``... (never overwrites)."""
    path, copy = Path(f"{stem}.phh"), 1
    while path.exists():
        copy += 1
        path = Path(f"{stem}-{copy}.phh")
    path.write_text(text, encoding="utf-8")
    return path


def _and(names: Sequence[str]) -> str:
    """``Ann, Bea and Cid``."""
    return ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else "".join(names)
def games_text(games: GameSettings) -> str:
    """Every game the table may deal, by family, one a line (the game of the next deal marked, and
    under dealer's choice the games on the list), then how to change them."""
    return (games_list_text(games) + "\nChange it with: game NAME (or game dealers-choice); games"
            " NAME,NAME sets the dealer's-choice list.")


def split_list(text: str) -> list[str]:
    """A typed list of games: comma separated, or (without a comma) space separated."""
    return text.split(",") if "," in text else text.split()


def _stakes(name: str) -> TableStakes:
    key = name.strip().lower()
    if key not in PRESETS:
        raise ValueError(f"unknown stakes {name!r}: choose one of {', '.join(PRESETS)}")
    return PRESETS[key]


async def play(config: PlayConfig, stdin: TextIO, stdout: TextIO) -> int:
    """Run the terminal table (see ``TerminalGame``); returns the exit status."""
    return await TerminalGame(config, stdin, stdout).run()


def names_for(seats: Sequence[str] | None, name: str | None) -> list[str]:
    """The humans at the keyboard: ``--seats`` names, else ``--name``, else the login name (if it is
    a plain word and not ``root``), else ``Player``."""
    if seats:
        return list(seats)
    if name and name.strip():
        return [name.strip()]
    login = (os.environ.get("USER") or os.environ.get("USERNAME") or "").strip()
    if login.isalpha() and login.lower() != "root" and len(login) <= 16:
        return [login.capitalize()]
    return ["Player"]
