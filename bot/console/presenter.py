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
)

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
            self.say()
        self.say(self.styled(notice.kind, notice.text))

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
            self.say(self.style.tint("green", notice.text))

    async def choose_game(self, table: TableKey, notice: GameChoiceNotice) -> None:
        """Dealer's choice: print the question (the game asks the chooser, ``TerminalGame``)."""
        if table == self.key:
            self.say(self.style.tint("cyan", notice.text))


def _indent(text: str) -> str:
    return "\n".join("   " + line for line in text.splitlines())
