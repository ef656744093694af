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
from bot.tables.reveal import OWN_OPENINGS_CHECK

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
        """Set for the last hand of an ``--auto`` run: the summary follows, not another hand, so the
        between-hands table ("next: hand #N") is left out."""

    @property
    def solo(self) -> bool:
        return len(self.humans) == 1

    def say(self, text: str = "", *, public: bool = True) -> None:
        """Print a line (or block); public lines are kept for a redraw after the screen is cleared
        (private ones never are, so the next player at the keyboard cannot see them)."""
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
        if notice.kind == NoticeKind.RESULT and notice.text.startswith("Showdown\n"):
            # The showdown so far, told before someone is asked to show or muck; the showdown
            # notice at the end repeats it, and only its new lines are printed then.
            self.showdown_told.update(notice.text.splitlines())
        text = self.reveal_text(notice) if notice.kind == NoticeKind.REVEAL else notice.text
        self.say(self.styled(notice.kind, text))

    def private_text(self, notice: PrivateNotice) -> str:
        """A player's own cards as the terminal says them: their openings are checked with
        ``wildstud verify --hand ... --member ...`` here, not Discord's ``/hand verify``."""
        where = f" --db {self.db}" if self.db is not None else ""
        here = f"check them after the hand with wildstud verify --hand {notice.hand_id} " \
               f"--member {notice.member}{where}"
        return notice.text.replace(OWN_OPENINGS_CHECK, here)

    def reveal_text(self, notice: PublicNotice) -> str:
        """The end-of-hand reveal as the terminal says it: ``/hand verify`` is Discord's, so name the
        ``wildstud verify`` command that checks the opened cards here -- from the database when it is
        a file (``db``), else the whole self-contained command line (an in-memory database is gone
        when the run ends)."""
        reveal = notice.reveal
        if reveal is None:
            return notice.text
        if reveal.scheme == "deck":
            return f"Hand #{reveal.hand_no} deck and salt, to check against the commitment:\n" \
                   f"{reveal.verify_command()}"
        count = len(reveal.openings)
        head = (f"Hand #{reveal.hand_no} deck: the {count} cards everyone saw are opened against the "
                f"commitment; the other {52 - count} stay closed.")
        if self.db is not None:
            return f"{head} Check them with: wildstud verify --hand {reveal.hand_id} --db {self.db}"
        return (f"{head} This run's database is in memory, so here is the whole check (the 52 leaves and"
                f" the openings):\n{reveal.verify_command()}")

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
