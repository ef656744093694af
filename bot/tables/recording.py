"""A presenter that records every notice: for tests, and for front ends' own tests.

>>> import asyncio
>>> from bot.tables.notices import NoticeKind, PublicNotice, TableKey
>>> rec = RecordingPresenter()
>>> asyncio.run(rec.post(TableKey(1, 2), PublicNotice(NoticeKind.INFO, "hello")))
>>> [n.text for n in rec.public(TableKey(1, 2))]
['hello']
"""

from __future__ import annotations

from dataclasses import dataclass

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
    Undeliverable,
    VoidConsentNotice,
)

Notice = PublicNotice | PrivateNotice | Prompt | Reply | ShowdownNotice | GameChoiceNotice | VoidConsentNotice


@dataclass(frozen=True, slots=True)
class Recorded:
    """One notice and the table it was for."""

    table: TableKey
    notice: Notice


class RecordingPresenter(NoticePresenter):
    """Keeps every notice in ``log`` in order. Members in ``closed_dms`` get ``Undeliverable``."""

    def __init__(self) -> None:
        self.log: list[Recorded] = []
        self.closed_dms: set[int] = set()

    async def post(self, table: TableKey, notice: PublicNotice) -> None:
        self.log.append(Recorded(table, notice))

    async def private(self, table: TableKey, notice: PrivateNotice) -> None:
        if notice.member in self.closed_dms:
            raise Undeliverable("their direct messages are closed")
        self.log.append(Recorded(table, notice))

    async def prompt(self, table: TableKey, notice: Prompt) -> None:
        self.log.append(Recorded(table, notice))

    async def reply(self, table: TableKey, notice: Reply) -> None:
        self.log.append(Recorded(table, notice))

    async def showdown(self, table: TableKey, notice: ShowdownNotice) -> None:
        self.log.append(Recorded(table, notice))

    async def choose_game(self, table: TableKey, notice: GameChoiceNotice) -> None:
        self.log.append(Recorded(table, notice))

    async def ask_void(self, table: TableKey, notice: VoidConsentNotice) -> None:
        self.log.append(Recorded(table, notice))

    # -- reading the record ---------------------------------------------------------------------
    def of(self, table: TableKey | None = None) -> list[Notice]:
        """Every notice (for one table, if given), in order."""
        return [r.notice for r in self.log if table is None or r.table == table]

    def public(self, table: TableKey | None = None, kind: NoticeKind | None = None) -> list[PublicNotice]:
        """Public notices, optionally of one table and one kind."""
        return [
            n for n in self.of(table) if isinstance(n, PublicNotice) and (kind is None or n.kind == kind)
        ]

    def privates(self, table: TableKey | None = None, member: int | None = None) -> list[PrivateNotice]:
        """Private messages delivered, optionally to one member."""
        return [
            n for n in self.of(table)
            if isinstance(n, PrivateNotice) and (member is None or n.member == member)
        ]

    def prompts(self, table: TableKey | None = None) -> list[Prompt]:
        """Prompts to act, in order."""
        return [n for n in self.of(table) if isinstance(n, Prompt)]

    def last_prompt(self, table: TableKey | None = None) -> Prompt | None:
        """The latest prompt (the player to act now, if the hand is waiting)."""
        prompts = self.prompts(table)
        return prompts[-1] if prompts else None

    def replies(self, member: int | None = None) -> list[Reply]:
        """Messages for one player."""
        return [n for n in self.of() if isinstance(n, Reply) and (member is None or n.member == member)]

    def choices(self, table: TableKey | None = None) -> list[GameChoiceNotice]:
        """The dealer's-choice questions asked, oldest first."""
        return [n for n in self.of(table) if isinstance(n, GameChoiceNotice)]

    def void_requests(self, table: TableKey | None = None) -> list[VoidConsentNotice]:
        """The requests for consent to a void, oldest first."""
        return [n for n in self.of(table) if isinstance(n, VoidConsentNotice)]

    def showdowns(self, table: TableKey | None = None) -> list[ShowdownNotice]:
        """Showdown summaries."""
        return [n for n in self.of(table) if isinstance(n, ShowdownNotice)]

    def text(self, table: TableKey | None = None) -> str:
        """Every public line and showdown of a table, joined (what its channel reads)."""
        parts: list[str] = []
        for n in self.of(table):
            if isinstance(n, (PublicNotice, ShowdownNotice)):
                parts.append(n.text)
        return "\n".join(parts)
