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

from bot.console.commands import HELP, InputError, parse_action
from bot.console.presenter import ConsolePresenter
from bot.console.terminal import LineReader, Style
from bot.engine.errors import IllegalAction
from bot.engine.rulings import RULINGS, Rulings
from bot.engine.stakes import PRESETS, TableStakes
from bot.render.cards import chips
from bot.render.settings import rulings_table
from bot.store import Store
from bot.tables.notices import Prompt, TableKey
from bot.tables.options import TableOptions
from bot.tables.robot import Robot, robot_names, situation
from bot.tables.service import TableService

GUILD = 1
PLAY_CHANNEL = 1
AUTO_CHANNEL = 2
ROBOT_BASE = 900
"""Computer players are members 900..907 (the same names every run, so their chips carry over)."""
HOUSE_TOP_UP = 1000
"""A player who cannot afford the minimum buy-in is staked back up to this by the house."""

TERMINAL_OPTIONS = TableOptions(turn_timeout=None, reminder_after=None)
"""No timers in the terminal (SPEC §7: off in the terminal)."""


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
    stakes: str = "small"
    color: bool = False
    tty: bool = False
    """Output is an interactive terminal: in hot seat the screen is cleared between players."""


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
        self.robots: dict[int, str] = {ROBOT_BASE + i: name for i, name in enumerate(robots)}
        seed = config.seed
        self.rng: random.Random | None = random.Random(seed) if seed is not None else None
        self.brains: dict[int, Robot] = {}
        self.presenter = ConsolePresenter(stdout, self.style, self.key, set(self.humans))
        self.store: Store | None = None
        self.service: TableService | None = None
        self.start_stacks: dict[int, int] = {}
        self.last_human: int | None = None

    # ------------------------------------------------------------------ output
    def say(self, text: str = "") -> None:
        self.presenter.say(text)

    def players(self) -> dict[int, str]:
        return {**self.humans, **self.robots}

    # ------------------------------------------------------------------ the run
    async def run(self) -> int:
        """Play until done (auto), or until the player quits; returns the exit status."""
        path: str | Path = self.config.db if self.config.db is not None else ":memory:"
        self.store = await Store.open(path)
        try:
            self.service = TableService(self.store, self.presenter, rng=self.rng,
                                        default_options=TERMINAL_OPTIONS)
            self.welcome()
            await self.service.start()
            await self.open_table()
            if self.rng is not None and self.config.seed is not None:
                # The same seed gives the same run, but a later run at a saved table gets new decks.
                self.rng.seed(f"{self.config.seed}:{self.service.table(self.key).hands_dealt}")
            try:
                await self.loop()
            except Quit:
                await self.goodbye()
                return 0
            await self.summary()
            return 0
        finally:
            if self.service is not None:
                await self.service.close()
            await self.store.close()

    def welcome(self) -> None:
        s = self.style
        self.say(s.bold("Wildstud: Sex in the Middle East"))
        self.say("Seven-card stud, fives wild. Whenever a five is dealt face up, the rank of the next up")
        self.say("card becomes wild too, for the rest of the hand. Wild ranks pile up; best high hand wins.")
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

    async def open_table(self) -> None:
        service = self.service
        assert service is not None
        stakes = _stakes(self.config.stakes)
        if not service.has_table(self.key):
            dealer = next(iter(self.humans), None) or next(iter(self.robots))
            await service.create_table(self.key, dealer, stakes=stakes)
        else:
            table = service.table(self.key)
            if table.stakes != stakes and (table.pending_stakes or table.stakes) != stakes:
                await service.set_stakes(self.key, table.dealer, stakes, dealer_rights=True)

    async def loop(self) -> None:
        service = self.service
        assert service is not None
        played = 0
        while True:
            if self.presenter.out_closed:
                return
            table = service.table(self.key)
            if table.hand is None:
                if self.config.auto and played >= self.config.hands:
                    return
                await self.seat_players()
                if not self.config.auto:
                    await self.between_hands()
                    await self.seat_players()
                if not self.start_stacks:
                    self.start_stacks = {s.member: s.stack for s in table.seats.values()}
                self.presenter.last_hand = self.config.auto and played + 1 >= self.config.hands
                try:
                    await service.deal(self.key, table.dealer, dealer_rights=True)
                except IllegalAction as exc:
                    self.say(self.style.tint("red", exc.reason))
                    if self.config.auto:
                        return
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
        table = service.table(self.key)
        wanted = self.players()
        stakes = table.pending_stakes or table.stakes
        for seat in list(table.seats.values()):
            if seat.member not in wanted:
                await service.leave(self.key, seat.member)
            elif seat.stack <= 0:
                await service.leave(self.key, seat.member)
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
            buy_in = min(balance, table.stakes.max_buy_in)
            await service.join(self.key, member, name, buy_in=buy_in)

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
        live = service.table(self.key).hand
        assert live is not None
        seat = live.seat_of(prompt.member)
        assert seat is not None
        action, amount = self.brain(prompt.member).decide(situation(live.engine, seat))
        try:
            await service.act(self.key, prompt.member, prompt.hand_id, prompt.turn, action, amount)
        except IllegalAction:  # never expected; fall back to the safest legal action
            names = [o.action for o in prompt.options]
            fallback = next(a for a in ("check", "bring_in", "call", "fold", "show") if a in names)
            await service.act(self.key, prompt.member, prompt.hand_id, prompt.turn, fallback)

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
        if prompt.option("check") is not None:
            # Folding when a check is free is legal but never wise: keep it off the numbered list
            # (typing "fold" still works).
            prompt = replace(prompt, options=tuple(o for o in prompt.options if o.action != "fold"))
        while True:
            self.say(self.prompt_text(prompt))
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
            if word.split()[:1] == ["void"]:
                if await self.void(line.strip()[4:], name):
                    return
                continue
            try:
                action, amount = parse_action(line, prompt)
                await service.act(self.key, prompt.member, prompt.hand_id, prompt.turn, action, amount)
            except InputError as exc:
                self.say(s.tint("yellow", str(exc)))
                continue
            except IllegalAction as exc:
                self.say(s.tint("yellow", f"Not allowed: {exc.reason}"))
                continue
            return

    async def void(self, reason: str, name: str) -> bool:
        """The dealer's misdeal: void the hand in progress (``name`` is who typed it, for the log).
        Returns whether it was voided; a refusal is printed."""
        service = self.service
        assert service is not None
        table = service.table(self.key)
        try:   # the channel notice says what happened; the confirmation would repeat it
            await service.void_hand(self.key, table.dealer, reason, dealer_rights=True, name=name)
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
        live = service.table(self.key).hand
        if live is None or not self.presenter.solo:
            return
        for member, notice in list(self.presenter.unseen.items()):
            seat = live.seat_of(member)
            if member != to_act and seat is not None and live.engine.is_all_in(seat):
                self.presenter.say(self.style.tint("cyan", "\n".join(
                    "   " + line for line in notice.text.splitlines())), public=False)
                del self.presenter.unseen[member]

    def show_cards(self, member: int) -> None:
        service = self.service
        assert service is not None
        try:
            notice = service.my_cards(self.key, member)
        except IllegalAction:
            return
        text = "\n".join("   " + line for line in notice.text.splitlines())
        self.presenter.say(self.style.tint("cyan", text), public=False)

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
                self.say("Enter: deal · chips: everyone's chips · rulings: the house rulings · "
                         "ruling NAME VALUE: change one (from the next deal) · stakes micro|small|medium|"
                         "pot-limit|no-limit · q: quit")
            elif head == "chips":
                await self.show_chips()
            elif head == "void":
                await self.void(" ".join(words[1:]), "")     # refused: no hand is in progress
            elif head == "rulings":
                table = service.table(self.key)
                self.say(rulings_text(table.pending_rulings or table.rulings))
            elif head == "ruling" and len(words) == 3:
                table = service.table(self.key)
                try:
                    self.say(await service.set_ruling(self.key, table.dealer, words[1], words[2],
                                                      dealer_rights=True))
                except IllegalAction as exc:
                    self.say(s.tint("yellow", exc.reason))
            elif head == "stakes" and len(words) == 2:
                table = service.table(self.key)
                try:
                    stakes = _stakes(words[1])
                except ValueError as exc:
                    self.say(s.tint("yellow", str(exc)))
                    continue
                self.say(await service.set_stakes(self.key, table.dealer, stakes, dealer_rights=True))
            elif head == "ruling":
                self.say(s.tint("yellow", "Type ruling NAME VALUE, e.g. ruling raise_cap 4 (rulings lists "
                                          "every ruling and its options)."))
            elif head == "stakes":
                self.say(s.tint("yellow", f"Type stakes and one of: {', '.join(PRESETS)}."))
            else:
                self.say(s.tint("yellow", f"I don't understand {line.strip()!r}; ? lists the commands."))

    async def show_chips(self) -> None:
        service, store = self.service, self.store
        assert service is not None and store is not None
        table = service.table(self.key)
        for member, name in self.players().items():
            seat = table.seat_of(member)
            stack = seat.stack if seat is not None else 0
            balance = await store.balance(GUILD, member)
            self.say(f"  {name}: {chips(stack)} at the table, {chips(balance)} in the bank")

    async def summary(self) -> None:
        service = self.service
        assert service is not None
        table = service.table(self.key)
        s = self.style
        self.say()
        self.say(s.bold(f"Chips after {table.hands_dealt} hands:"))
        rows = sorted(table.seats.values(), key=lambda seat: (-seat.stack, seat.name))
        width = max((len(seat.name) for seat in rows), default=0)
        for seat in rows:
            start = self.start_stacks.get(seat.member)
            change = "" if start is None else f"  ({seat.stack - start:+,})"
            self.say(f"  {seat.name:<{width}}  {chips(seat.stack):>7}{change}")

    async def goodbye(self) -> None:
        service = self.service
        assert service is not None
        table = service.table(self.key)
        if table.hand is not None:
            saved = f"Hand #{table.hand.hand_no} is saved; run wildstud play again to finish it."
            self.say(self.style.dim(saved))
        else:
            self.say(self.style.dim("Your chips are saved. Run wildstud play again to keep playing."))


def rulings_text(rulings: Rulings) -> str:
    """The rulings for the next deal, each with the other options it could take, and how to change
    one (a newcomer should not have to guess a ruling's values).

    >>> print(rulings_text(Rulings()).splitlines()[3])
        or: absorb
    """
    lines: list[str] = []
    for name, line in zip(rulings.to_dict(), rulings_table(rulings), strict=True):
        lines.append(line)
        others = [o for o in RULINGS[name] if o != getattr(rulings, name)]
        lines.append("    or: " + " · ".join(others))
    lines.append("Change one with: ruling NAME VALUE (it applies from the next deal).")
    return "\n".join(lines)


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
