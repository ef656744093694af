"""The terminal's presenter: prints the table's public log like the Discord channel reads, keeps each
player's private cards for the moment they may see them, and remembers the latest prompt."""

from __future__ import annotations

import os
from collections import deque
from typing import TextIO

from bot.console.terminal import Style
from bot.tables.notices import (
    GameChoiceNotice,
    NoticeKind,
    NoticePresenter,
    PrivateNotice,
    Prompt,
    PublicNotice,
    Reply,
    ShowdownNotice,
    TableKey,
    VoidConsentNotice,
)
from bot.tables.reveal import OWN_OPENINGS_CHECK, HandReveal
from bot.tables.tournaments import STANDINGS_HEAD

_TINTS = {
    NoticeKind.WILD: "magenta",
    NoticeKind.RESULT: "green",
    NoticeKind.SETTINGS: "cyan",
    NoticeKind.NO_DEAL: "red",
    NoticeKind.VOID: "red",
}


class ConsolePresenter(NoticePresenter):
    """Prints notices for one table (``key``) to ``out``.

    ``humans``: members at this keyboard. Their private cards are kept (``unseen``) and shown with
    their prompt (in hot seat only after the keyboard has been passed to them). Table-state
    notices are printed between hands (the stacks); during a hand the game prints the table when a
    human is to act.
    """

    def __init__(self, out: TextIO, style: Style, key: TableKey, humans: set[int]) -> None:
        self.out = out
        self.style = style
        self.key = key
        self.humans = humans
        self.cards: dict[int, PrivateNotice] = {}
        self.last_prompt: Prompt | None = None
        self.recent: deque[str] = deque(maxlen=14)
        self.hand_ended = False
        self.unseen: dict[int, PrivateNotice] = {}
        self.last_hand = False
        self.showdown_told: set[str] = set()
        """Showdown lines already printed in this hand (before a show-or-muck prompt)."""
        self.db: str | None = None
        """The database file of this run (None: in memory), for the reveal's verify command."""
        self.out_closed = False
        """Set once writing to ``out`` failed because its reader went away (a closed pipe)."""
        self.reveals: dict[int, HandReveal] = {}
        """The deck reveals of this run's hands, by hand number (for ``verify``)."""
        self.print_checks = False
        """Print each hand's whole check with its reveal (``play --auto --verify``)."""
        self.ask_for_check = "Type verify for the command that checks them."
        """How the player asks for the check of an in-memory database's hand."""
        self.own_standings = False
        """A finished tournament's standings are printed by the terminal itself, with each balance
        (``TerminalTournament.results``): the table's notice is cut before its own list."""
        self.held: list[tuple[str, bool]] | None = None
        """Lines kept back while the service starts (``hold``), printed after the banner."""
        """Set for the last hand of an ``--auto`` run: the summary follows, not another hand, so the
        between-hands table ("next: hand #N") is left out."""

    @property
    def solo(self) -> bool:
        return len(self.humans) == 1

    def hold(self) -> None:
        """Keep what is said from now on until :meth:`unhold` (the start-up's resume notices come
        after the banner, which names the game of the hand that resumes)."""
        self.held = []

    def unhold(self) -> list[tuple[str, bool]]:
        """Stop holding; returns what was held, for :meth:`say_all`."""
        held, self.held = self.held or [], None
        return held

    def say_all(self, held: list[tuple[str, bool]]) -> None:
        for text, public in held:
            self.say(text, public=public)

    def say(self, text: str = "", *, public: bool = True) -> None:
        """Print a line (or block); public lines are kept for a redraw after the screen is cleared
        (private ones never are, so the next player at the keyboard cannot see them)."""
        if self.held is not None:
            self.held.append((text, public))
            return
        try:
            print(text, file=self.out, flush=True)
        except BrokenPipeError:
            # The reader went away (``wildstud play --auto | head``): stop writing; the game loop
            # sees ``out_closed`` and ends the run instead of logging a failure per notice.
            self.out_closed = True
            self.out = open(os.devnull, "w")
        if text and public:
            self.recent.append(text)

    def styled(self, kind: NoticeKind, text: str) -> str:
        s = self.style
        if kind == NoticeKind.HAND_START:
            head, _, rest = text.partition("\n")
            return s.bold(f"── {head}") + ("\n" + s.dim("   " + rest) if rest else "")
        if kind == NoticeKind.STREET:
            return s.bold(text)
        if kind in (NoticeKind.REVEAL, NoticeKind.SEATING):
            return s.dim(text)
        tint = _TINTS.get(kind)
        return s.tint(tint, text) if tint else text

    async def post(self, table: TableKey, notice: PublicNotice) -> None:
        if table != self.key:
            return
        if notice.kind == NoticeKind.TABLE:
            if notice.hand_id is None and self.hand_ended and self.last_hand:
                self.hand_ended = False
            elif notice.hand_id is None and self.hand_ended:
                lines = notice.text.splitlines()
                if lines and lines[-1].startswith("Waiting for"):
                    lines = lines[:-1]      # the terminal asks (or deals) right after this
                self.say(self.style.dim("\n".join(lines)))
                self.hand_ended = False
            return
        if notice.kind in (NoticeKind.REVEAL, NoticeKind.VOID):
            self.hand_ended = True
        if notice.kind == NoticeKind.HAND_START:
            self.recent.clear()
            self.showdown_told.clear()
            self.say()
        if notice.kind == NoticeKind.RESULT and (notice.text.startswith("Showdown\n") or self.showdown_told):
            # The showdown so far, told before someone is asked to show or muck (the first time
            # under a "Showdown" heading, then only the lines added since); the showdown notice at
            # the end repeats all of it, and only its new lines are printed then.
            self.showdown_told.update(notice.text.splitlines())
        text = self.reveal_text(notice) if notice.kind == NoticeKind.REVEAL else notice.text
        if self.own_standings and notice.kind == NoticeKind.RESULT:
            text = text.partition(f"\n{STANDINGS_HEAD}\n")[0]
        self.say(self.styled(notice.kind, text))

    def private_text(self, notice: PrivateNotice) -> str:
        """A player's own cards as the terminal says them, without the line of their down cards'
        openings (long hex; ``openings`` prints it, see :meth:`openings_text`)."""
        return "\n".join(line for line in notice.text.splitlines() if OWN_OPENINGS_CHECK not in line)

    def openings_text(self, notice: PrivateNotice) -> str | None:
        """The player's down cards' openings, checked with ``wildstud verify --hand ... --member ...``
        here, not Discord's ``/hand verify``; None before any down card."""
        where = f" --db {self.db}" if self.db is not None else ""
        here = f"check them after the hand with wildstud verify --hand {notice.hand_id} " \
               f"--member {notice.member}{where}"
        lines = [line.strip() for line in notice.text.splitlines() if OWN_OPENINGS_CHECK in line]
        return lines[0].replace(OWN_OPENINGS_CHECK, here) if lines else None

    def reveal_text(self, notice: PublicNotice) -> str:
        """The end-of-hand reveal as the terminal says it: ``/hand verify`` is Discord's, so name the
        ``wildstud verify`` command that checks the opened cards here when the database is a file
        (``db``). With an in-memory database the check is the whole self-contained command line
        (kilobytes of hex): printed only when asked for (``verify``, ``--verify``, ``print_checks``)."""
        reveal = notice.reveal
        if reveal is None:
            return notice.text
        self.reveals[reveal.hand_no] = reveal
        if self.print_checks:
            return f"{self.reveal_head(reveal)}\n{self.check_text(reveal)}"
        return f"{self.reveal_head(reveal)} {self.check_hint(reveal)}"

    @staticmethod
    def reveal_head(reveal: HandReveal) -> str:
        if reveal.scheme == "deck":
            return f"Hand #{reveal.hand_no} deck and salt are opened, to check against the commitment."
        count = len(reveal.openings)
        return (f"Hand #{reveal.hand_no} deck: the {count} cards everyone saw are opened against the "
                f"commitment; the other {52 - count} stay closed.")

    def check_hint(self, reveal: HandReveal) -> str:
        """Where the check is, in one short sentence."""
        if self.db is not None:
            return f"Check them with: wildstud verify --hand {reveal.hand_id} --db {self.db}"
        return self.ask_for_check

    def check_text(self, reveal: HandReveal) -> str:
        """The command that checks ``reveal``: from the database file, else self-contained."""
        if self.db is not None:
            return f"wildstud verify --hand {reveal.hand_id} --db {self.db}"
        return reveal.verify_command()

    async def private(self, table: TableKey, notice: PrivateNotice) -> None:
        if table != self.key:
            return
        self.cards[notice.member] = notice
        if notice.member in self.humans:
            self.unseen[notice.member] = notice      # shown at their turn (see TerminalGame)

    async def prompt(self, table: TableKey, notice: Prompt) -> None:
        if table == self.key:
            self.last_prompt = notice

    async def reply(self, table: TableKey, notice: Reply) -> None:
        if table == self.key and notice.member in self.humans:
            self.say(self.style.tint("yellow", notice.text), public=False)

    async def showdown(self, table: TableKey, notice: ShowdownNotice) -> None:
        if table == self.key:
            lines = notice.text.splitlines()
            if self.showdown_told:
                lines = [line for line in lines if line not in self.showdown_told]
                self.showdown_told.clear()
            self.say(self.style.tint("green", "\n".join(lines)))

    async def choose_game(self, table: TableKey, notice: GameChoiceNotice) -> None:
        """Dealer's choice: print the question (the game asks the chooser, ``TerminalGame``)."""
        if table == self.key:
            self.say(self.style.tint("cyan", notice.text))


    async def ask_void(self, table: TableKey, notice: VoidConsentNotice) -> None:
        """A void that needs consent: its question is posted as a line (the game asks each
        player, ``TerminalGame.void``)."""


def _indent(text: str) -> str:
    return "\n".join("   " + line for line in text.splitlines())
