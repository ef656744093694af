"""Views whose items discord.py does not dispatch: the click router (``bot.discord.clicks``) does.

Every control of Wildstud is a ``DynamicItem`` whose ``custom_id`` carries what it needs (table,
hand, turn, amount...). discord.py would dispatch such an item by rebuilding the whole message's
view from the interaction's copy of the message (``View.from_message``) on every click, and would
keep a copy of every view sent or edited in (``ViewStore.add_view``, walking all its items on every
edit of the table message). Neither is needed: the router builds the one item from its
``custom_id``. These views tell discord.py they are finished (nothing of theirs waits for a click)
and not dispatchable, so discord.py stores none of them on any path (a channel message, an
interaction's answer, a followup, an edit); their dynamic items are therefore never registered
with discord.py either, and a click reaches exactly one callback: the router's.
"""

from __future__ import annotations

import discord


class RoutedLayout(discord.ui.LayoutView):
    """A Components V2 layout (no timeout) whose items the click router dispatches."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_dispatchable(self) -> bool:
        return False

    def is_finished(self) -> bool:
        return True


class RoutedView(discord.ui.View):
    """A classic view (rows of buttons or a select; no timeout) whose items the click router
    dispatches."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_dispatchable(self) -> bool:
        return False

    def is_finished(self) -> bool:
        return True
