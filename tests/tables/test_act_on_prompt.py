"""``TableService.act_on_prompt``: acting on whatever one is prompted for (the slash commands and
the terminal), resolved against the prompt under the table lock (issue 9)."""

from __future__ import annotations

import pytest

from bot.engine.command import Command, Kind
from bot.engine.errors import IllegalAction
from bot.store import Store
from bot.tables.errors import TableError
from bot.tables.notices import Actor
from tests.engine.helpers import command
from tests.tables.test_updates import ANN, BEA, CID, KEY, open_three


async def test_words_resolve_to_what_the_prompt_allows(store: Store) -> None:
    service, _, _ = await open_three(store)          # fixed limit 20/40, ante 5, bring-in 10
    with pytest.raises(TableError, match="Nobody is to act"):
        await service.act_on_prompt(KEY, CID, command("call"))
    await service.deal(KEY, Actor(ANN, "Ann", dealer_rights=True))
    with pytest.raises(TableError, match="not your turn: Cid is to act"):
        await service.act_on_prompt(KEY, ANN, command("fold"))
    with pytest.raises(TableError, match="not in this hand"):
        await service.act_on_prompt(KEY, 4242, command("fold"))
    # Cid owes the bring-in: "call" posts it.
    assert await service.act_on_prompt(KEY, CID, command("call")) == (Command(Kind.BRING_IN), 10)
    # Ann may complete: "bet" means the one wager legal now, at its one fixed total.
    done = await service.act_on_prompt(KEY, Actor(ANN, "Ann"), command("bet"))
    assert done == (Command(Kind.COMPLETE, 20), 20)
    # Bea: a raise of a size fixed limit does not allow is the engine's refusal; nothing moves.
    prompt = service.current_prompt(KEY)
    with pytest.raises(IllegalAction):
        await service.act_on_prompt(KEY, BEA, command("raise", 999))
    assert service.current_prompt(KEY) == prompt
    assert await service.act_on_prompt(KEY, BEA, command("call")) == (Command(Kind.CALL), 20)
    with pytest.raises(TableError, match="not a player's action"):
        await service.act_on_prompt(KEY, CID, command("timeout"))
    # Three antes, Cid's bring-in, Ann's and Bea's 20; Cid is next, owing 10 more.
    assert service.snapshot(KEY).pot == 3 * 5 + 10 + 20 + 20
    now = service.current_prompt(KEY)
    assert now is not None and now.member == CID and now.to_call == 10
