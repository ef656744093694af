"""Playing hands through the rate-limited fake Discord and measuring what each action cost, from the
requests the fake recorded (``fake.traffic``): the end-to-end budget tests and
``benchmarks/bench_discord_budget.py`` share it.

An *action* is one member's interaction that moves the table: the deal (the Deal button or
``/table deal``) and every click on the table message's action buttons. Per action we count the
requests to the table channel's message bucket (the 5-per-5-s one), the requests under the global
limit (channel messages anywhere, DMs, opening a DM channel...), the interaction requests (callback
and webhook, exempt from both), 429s and every time discord.py waited on a limit.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

from tests.discord.helpers import current_prompt, hand_over, label_starting, live_table, prompted_member
from tests.fakediscord import FakeChannel, FakeDiscord, FakeGuild, FakeMember


@dataclass
class ActionCost:
    """What one action cost (see the module docstring)."""

    label: str
    channel: int
    global_counted: int
    interaction: int
    rate_limited: int
    waited: int


@dataclass
class HandCost:
    """Every action of one hand, the waits discord.py made, and the wall time of the hand."""

    players: int
    actions: list[ActionCost] = field(default_factory=list)
    pacing_waits: int = 0
    wall_seconds: float = 0.0

    @property
    def channel_per_action(self) -> float:
        return sum(a.channel for a in self.actions) / len(self.actions)

    @property
    def global_per_action(self) -> float:
        return sum(a.global_counted for a in self.actions) / len(self.actions)

    @property
    def interaction_per_action(self) -> float:
        return sum(a.interaction for a in self.actions) / len(self.actions)

    @property
    def most_channel(self) -> int:
        return max(a.channel for a in self.actions)

    @property
    def waits(self) -> int:
        return sum(a.waited + a.rate_limited for a in self.actions) + self.pacing_waits


def _cost(fake: FakeDiscord, channel: FakeChannel, mark: int, label: str) -> ActionCost:
    recs = fake.requests[mark:]
    traffic = fake.traffic(mark)
    return ActionCost(
        label=label,
        channel=sum(1 for r in recs if r.bucket == f"channel-messages:{channel.id}"),
        global_counted=traffic.global_counted,
        interaction=traffic.interaction,
        rate_limited=traffic.rate_limited,
        waited=traffic.waited,
    )


async def play_hand(
    fake: FakeDiscord,
    guild: FakeGuild,
    channel: FakeChannel,
    dealer: FakeMember,
    hand_no: int,
    players: int,
    *,
    pace: float = 0.0,
) -> HandCost:
    """Deal with the Deal button on the table message, then play every turn by clicking the table
    message only (check, else call, else the bring-in), ``pace`` seconds between actions; returns
    what each action cost."""
    cost = HandCost(players)
    waits_before = len(fake.rate_limit_waits)
    started = time.perf_counter()
    table = live_table(fake, channel)
    mark = len(fake.requests)
    res = await fake.click(dealer, table, label="Deal")
    assert res.response_type == 7, (res.response_type, res.text)
    cost.actions.append(_cost(fake, channel, mark, "Deal"))
    while not hand_over(fake, channel, hand_no):
        if pace:
            await asyncio.sleep(pace)
        prompt = current_prompt(fake, channel)
        label = label_starting(prompt, "Check", "Call", "Bring-in", "Show")
        assert label is not None, prompt.button_labels
        mark = len(fake.requests)
        res = await fake.click(prompted_member(guild, prompt), prompt, label=label)
        assert res.response_type == 7 and not res.rejected, (res.response_type, res.text)
        cost.actions.append(_cost(fake, channel, mark, label))
        assert len(cost.actions) < 200
    cost.wall_seconds = time.perf_counter() - started
    cost.pacing_waits = len(fake.rate_limit_waits) - waits_before
    return cost


async def play_draw_hand(
    fake: FakeDiscord,
    guild: FakeGuild,
    channel: FakeChannel,
    dealer: FakeMember,
    hand_no: int,
    players: int,
    *,
    draw: int = 2,
) -> HandCost:
    """A draw game's hand, as ``play_hand`` plays stud, except at a draw: the player opens the
    private picker ("Choose discards"), picks their first ``draw`` cards (fewer if fewer may be
    drawn) and clicks "Draw N" there; the three interactions are counted as one action (the draw),
    ``Draw N``. Returns what each action cost."""
    cost = HandCost(players)
    waits_before = len(fake.rate_limit_waits)
    started = time.perf_counter()
    table = live_table(fake, channel)
    mark = len(fake.requests)
    res = await fake.click(dealer, table, label="Deal")
    assert res.response_type == 7, (res.response_type, res.text)
    cost.actions.append(_cost(fake, channel, mark, "Deal"))
    while not hand_over(fake, channel, hand_no):
        prompt = current_prompt(fake, channel)
        member = prompted_member(guild, prompt)
        mark = len(fake.requests)
        if "Choose discards" in prompt.button_labels:
            opened = await fake.click(member, prompt, label="Choose discards")
            (picker,) = [m for m in opened.followups if m.ephemeral]
            select = next(c for c in picker.all_components() if c.get("type") == 3)
            values = [o["value"] for o in select["options"]][: min(draw, select["max_values"])]
            await fake.select(member, picker, values, custom_id=select["custom_id"])
            label = f"Draw {len(values)}"
            res = await fake.click(member, picker, label=label)
            assert not res.rejected, res.callbacks
        else:
            label = label_starting(prompt, "Check", "Call", "Show") or ""
            res = await fake.click(member, prompt, label=label)
            assert res.response_type == 7 and not res.rejected, (res.response_type, res.text)
        cost.actions.append(_cost(fake, channel, mark, label))
        assert len(cost.actions) < 200
    cost.wall_seconds = time.perf_counter() - started
    cost.pacing_waits = len(fake.rate_limit_waits) - waits_before
    return cost
