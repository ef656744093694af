"""``TableService.act_on_prompt``: acting on whatever one is prompted for (the slash commands and
the terminal), resolved against the prompt under the table lock (issue 9)."""

from __future__ import annotations

import pytest

from bot.engine.errors import IllegalAction
from bot.store import Store
from bot.tables.errors import TableError
from bot.tables.notices import Actor
from tests.tables.test_updates import ANN, BEA, CID, KEY, open_three


async def test_words_resolve_to_what_the_prompt_allows(store: Store) -> None:
    service, _, _ = await open_three(store)          # fixed limit 20/40, ante 5, bring-in 10
    with pytest.raises(TableError, match="Nobody is to act"):
        await service.act_on_prompt(KEY, CID, "call")
    await service.deal(KEY, Actor(ANN, "Ann", dealer_rights=True))
    with pytest.raises(TableError, match="not your turn: Cid is to act"):
        await service.act_on_prompt(KEY, ANN, "fold")
    with pytest.raises(TableError, match="not in this hand"):
        await service.act_on_prompt(KEY, 4242, "fold")
    # Cid owes the bring-in: "call" posts it.
    assert await service.act_on_prompt(KEY, CID, "call") == ("bring_in", 10)
    # Ann may complete: "bet" means the one wager legal now, at its one fixed total.
    assert await service.act_on_prompt(KEY, Actor(ANN, "Ann"), "bet") == ("complete", 20)
    # Bea: a raise of a size fixed limit does not allow is the engine's refusal; nothing moves.
    prompt = service.current_prompt(KEY)
    with pytest.raises(IllegalAction):
        await service.act_on_prompt(KEY, BEA, "raise", 999)
    assert service.current_prompt(KEY) == prompt
    assert await service.act_on_prompt(KEY, BEA, "call") == ("call", 20)
    with pytest.raises(TableError, match="is not an action"):
        await service.act_on_prompt(KEY, CID, "timeout")
    # Three antes, Cid's bring-in, Ann's and Bea's 20; Cid is next, owing 10 more.
    assert service.snapshot(KEY).pot == 3 * 5 + 10 + 20 + 20
    now = service.current_prompt(KEY)
    assert now is not None and now.member == CID and now.to_call == 10
