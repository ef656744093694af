"""The click router: every click on a Wildstud control reaches its callback from here.

Each control is a ``DynamicItem`` whose ``custom_id`` carries all it needs (``ws:act:TABLE:HAND:
TURN:...``), shown in views that discord.py does not dispatch (``bot.discord.ui.routed``). On a
component interaction the router finds the one class whose template the ``custom_id`` matches,
builds the item from it and runs its callback: one item per click, where discord.py would rebuild
the whole message's view from the interaction's copy of it and then swap the item in. The item is
built from its ``custom_id`` alone, so a click on a button the message no longer shows (a client
still showing it before the last edit) is answered by that button's own check, with its reason
(a turn that is over, a table that was closed). A ``custom_id`` no control of Wildstud has is
answered ``OUTDATED`` when the message shows it (an older release's control) and ``NOT_MINE``
otherwise (forged, junk). discord.py dispatches no control of Wildstud (it keeps none of their views).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import discord

NOT_MINE = ("That control is not on this message (or was never one of mine), so it does nothing: "
            "use the buttons on the table message.")
"""The answer to a click whose custom_id no button of Wildstud has: a forged or junk id (issue 17:
it went unanswered, "This interaction failed")."""

OUTDATED = ("That control was made by an older version of Wildstud and does nothing now: use the "
            "buttons on the table message (or the slash commands).")
"""The answer to a click on a control the message does show whose custom_id no control of this
version has (a message posted by an older release that no one has redrawn since)."""

Control = type[discord.ui.DynamicItem[Any]]


class ClickRouter:
    """The controls' classes (``add``, by the cogs at start-up) and the dispatch of a click."""

    def __init__(self) -> None:
        self._controls: list[Control] = []

    def add(self, *controls: Control) -> None:
        """Route clicks whose ``custom_id`` matches one of ``controls``' templates to it."""
        for control in controls:
            if control not in self._controls:
                self._controls.append(control)

    @property
    def controls(self) -> tuple[Control, ...]:
        return tuple(self._controls)

    def control_for(self, custom_id: str) -> tuple[Control, Any] | None:
        """The class whose template ``custom_id`` matches, with the match; None for no class."""
        for control in self._controls:
            match = control.__discord_ui_compiled_template__.fullmatch(custom_id)
            if match is not None:
                return control, match
        return None

    async def route(self, interaction: discord.Interaction[Any]) -> None:
        """Answer a component interaction (any other kind is left alone)."""
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = str(dict(interaction.data or {}).get("custom_id", ""))
        found = self.control_for(custom_id)
        if found is not None:
            control, match = found
            item = await control.from_custom_id(interaction, discord.ui.Button(custom_id=custom_id), match)
            await item.callback(interaction)
            return
        message = interaction.message
        shown = message is not None and custom_id in set(_custom_ids(message.components))
        with contextlib.suppress(discord.HTTPException):
            await interaction.response.send_message(OUTDATED if shown else NOT_MINE, ephemeral=True)


def _custom_ids(components: Any) -> Iterator[str]:
    for component in components or ():
        custom_id = getattr(component, "custom_id", None)
        if isinstance(custom_id, str):
            yield custom_id
        yield from _custom_ids(getattr(component, "children", None))
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield from _custom_ids([accessory])
