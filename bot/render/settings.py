"""Stakes and rulings as text (SPEC §5, §8): the full list, and the changes announced before a deal.

>>> from bot.engine.games.rulings import Rulings
>>> from bot.engine.betting.stakes import PRESETS
>>> print(rulings_changes(Rulings(), Rulings(raise_cap="4")))
Ruling raise_cap: 3 → 4 (fixed limit: raises allowed after the bet)
>>> print(stakes_change(PRESETS["micro"], PRESETS["small"]))
Stakes: fixed limit 2/4, ante 1 and bring-in 1 → fixed limit 20/40, ante 5 and bring-in 10
"""

from __future__ import annotations

from collections.abc import Callable

from bot.engine.betting.stakes import TableStakes
from bot.engine.games.rulings import RULING_HELP, RULINGS, Rulings
from bot.render.cards import chips


def stakes_line(stakes: TableStakes, described: str | None = None) -> str:
    """One line: structure and amounts (``described``, default ``stakes.describe()``), then buy-in
    limits."""
    return (
        f"{described or stakes.describe()}; buy-in {chips(stakes.min_buy_in)} to {chips(stakes.max_buy_in)}"
    )


def rulings_table(rulings: Rulings) -> list[str]:
    """Every ruling, one line each: ``name: option`` with ``(default)`` or ``(changed)`` and help."""
    lines: list[str] = []
    for name, value in rulings.to_dict().items():
        mark = "default" if value == RULINGS[name][0] else "changed"
        lines.append(f"{name}: {value} ({mark}) - {RULING_HELP.get(name, '')}".rstrip(" -"))
    return lines


def rulings_changes(before: Rulings, after: Rulings) -> str:
    """The rulings that differ, one line each: ``Ruling name: old → new (help)``; "" if none."""
    old, new = before.to_dict(), after.to_dict()
    lines = [
        f"Ruling {name}: {old[name]} → {new[name]} ({RULING_HELP.get(name, name)})"
        for name in new
        if old[name] != new[name]
    ]
    return "\n".join(lines)


def stakes_change(
    before: TableStakes, after: TableStakes, described: Callable[[TableStakes], str] | None = None,
    described_after: Callable[[TableStakes], str] | None = None,
) -> str:
    """``Stakes: old → new`` (only the described amounts), or "" if unchanged. ``described`` says
    the stakes as the table's games play them (default ``TableStakes.describe``, stud's words);
    ``described_after`` the new ones, when the game changes with them."""
    if before == after:
        return ""
    old_text = (described or TableStakes.describe)(before)
    new_text = (described_after or described or TableStakes.describe)(after)
    if old_text == new_text:
        return f"Buy-in: {chips(before.min_buy_in)}-{chips(before.max_buy_in)} → " \
               f"{chips(after.min_buy_in)}-{chips(after.max_buy_in)}"
    return f"Stakes: {old_text} → {new_text}"
