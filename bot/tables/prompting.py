"""Acting on whatever one is prompted for: a slash command or a typed word turned into the command
the prompt allows (``TableService.act_on_prompt``)."""

from __future__ import annotations

from bot.engine.command import Command, Kind
from bot.render.cards import chips
from bot.tables.errors import TableError
from bot.tables.notices import Prompt

WAGERS = (Kind.COMPLETE, Kind.BET, Kind.RAISE)
"""The engine's kinds of voluntary wager; only one of them is legal at a time."""


def resolve(prompt: Prompt, command: Command) -> Command:
    """Turn what a player asked for into the command the prompt allows.

    ``call`` checks when nothing is owed and posts the bring-in when that is what is owed;
    ``bet``, ``raise`` and ``complete`` mean whichever wager is legal now (complete, bet or raise)
    and need an amount unless only one total is legal. Anything the prompt does not allow goes to
    the engine, which refuses it with its reason.
    """
    kind = command.kind
    if kind is Kind.CALL and prompt.option("call") is None:
        if prompt.option("check") is not None:
            return Command(Kind.CHECK)
        if prompt.option("bring_in") is not None:
            return Command(Kind.BRING_IN)
    if kind in WAGERS:
        options = [o for o in prompt.options if o.action in WAGERS]
        if not options:
            raise TableError("You can't bet or raise now.")
        name = Kind(options[0].action)
        if command.amount is None:
            totals = sorted({o.amount for o in options if o.amount is not None and not o.needs_amount})
            if len(totals) == 1 and not any(o.needs_amount for o in options):
                return Command(name, totals[0])
            low, high = options[0].min_to, options[0].max_to
            if options[0].needs_amount and low is not None and high is not None:
                raise TableError(
                    f"Say how much (amount: your total for this street): from {chips(low)} to {chips(high)}."
                )
            raise TableError(
                "Say how much (amount: your total for this street): "
                + " or ".join(chips(t) for t in totals)
                + "."
            )
        return Command(name, command.amount)
    return command
