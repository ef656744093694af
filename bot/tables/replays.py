"""A finished hand, step by step, as one member saw it (``/hand replay`` and the summary's Replay
button, issue 24).

A replay is rebuilt from the stored hand alone (its deck order and action log, through
``reveal.stored_steps``, the one rebuild of a stored hand), so it works after a restart and for
every game the engine deals. It has one step for the deal and one for each stored action, and each
step holds exactly what the member had at that moment of the live hand:

* ``snapshot``: the table as everyone saw it then, built by the live snapshot builder
  (``bot.tables.snapshot.snapshot``) on the hand replayed that far, so it is the same frozen
  ``TableSnapshot`` the table service produced after that action: up cards, card backs, stacks,
  bets, the pot, the wilds, whose turn; a down card only once its hand was shown or turned face up
  when betting closed (never a folded or mucked hand);
* ``own``: the member's own cards then, by the private-view builder (``bot.render.views.private``,
  what their private message and "My cards" said, without the openings), or None for a member who
  was not dealt in (they see what a spectator saw);
* ``lines``: what the channel was told at that step (the public log lines of its events).

What the store does not keep is not replayed: the seats of members who were not dealt in, a seat
marked away or leaving during the hand, a turn's deadline, and settings waiting for the next deal.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.command import Command, Kind
from bot.render.narrate import Narrator
from bot.render.views import PrivateNotice, TableSnapshot, private
from bot.store import HandRecord, Store, StoreError
from bot.tables.codec import encode_action
from bot.tables.errors import TableError
from bot.tables.repository import table_shell
from bot.tables.reveal import stored_steps
from bot.tables.snapshot import snapshot
from bot.tables.state import LiveHand, SeatState, Table


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One step of a replay (see the module docstring)."""

    snapshot: TableSnapshot
    own: PrivateNotice | None
    lines: tuple[str, ...]

    @property
    def street(self) -> int:
        """The street the step is on (3 to 7)."""
        return self.snapshot.street or 3


@dataclass(frozen=True, slots=True)
class HandReplay:
    """A finished hand's steps as ``member`` saw them. ``seat``: the member's engine seat, or None
    when they were not dealt in. ``game``: the game's title."""

    hand_id: int
    hand_no: int
    game: str
    member: int
    seat: int | None
    steps: tuple[ReplayStep, ...]

    @property
    def last(self) -> int:
        """The number of the last step (the hand's final state)."""
        return len(self.steps) - 1

    def street_after(self, step: int) -> int | None:
        """The step a "Street" jump from ``step`` lands on: the first step of the next street, or
        the last step from the last street; None from the last step."""
        if step >= self.last:
            return None
        street = self.steps[step].street
        return next((i for i in range(step + 1, self.last + 1) if self.steps[i].street > street), self.last)


def hand_replay(record: HandRecord, member: int, table: Table) -> HandReplay:
    """The replay of finished hand ``record`` for ``member``. ``table``: the stored table's settings
    (``repository.table_shell``; its seats and hand are not read). Raises ``TableError`` for a hand
    that is not finished and ``ValueError`` for a record the engine cannot replay."""
    if record.status != "finished":
        raise TableError(f"Hand #{record.hand_no} is not finished ({record.status.replace('_', ' ')}).")
    replay_table = Table(
        key=table.key, table_id=record.table_id, dealer=table.dealer, stakes=table.stakes,
        rulings=table.rulings, options=table.options, names=dict(table.names),
    )
    players = {p.seat_no: p for p in record.players}
    steps: list[ReplayStep] = []
    live: LiveHand | None = None
    narrator: Narrator | None = None
    for engine, order, deal, told in stored_steps(record):
        if live is None:
            members = tuple(players[n].member_id for n in order)
            names = tuple(replay_table.name(m) for m in members)
            replay_table.seats = {
                n: SeatState(n, players[n].member_id, replay_table.name(players[n].member_id),
                             players[n].starting_stack)
                for n in order
            }
            live = LiveHand(
                hand_id=record.id, hand_no=record.hand_no, engine=engine, deal=deal, seat_nos=order,
                members=members, names=names, stakes=engine.stakes, rulings=engine.rulings,
                narrator=Narrator(names, showing_hand=engine.rulings.showing_hand,
                                  wild_ranks=engine.game.wilds.ranks),
                game=engine.game, actions=[record.actions[0]],
            )
            replay_table.hand = live
            narrator = live.narrator
        else:
            live.actions.append(record.actions[len(live.actions)])
        assert narrator is not None
        steps.append(_step(replay_table, live, member, narrator, told))
    assert live is not None
    engine = live.engine
    # Hands settled before players could show or muck stored no show lines: their showdown turned
    # every live hand over (as ``reveal.rebuild`` finishes them), one step per hand shown.
    while engine.phase == "showdown" and engine.actor is not None:
        told = len(engine.events)
        seat = engine.actor
        command = engine.verify(seat, Command(Kind.SHOW))
        engine.apply(seat, command)
        live.actions.append(encode_action(seat, command))
        steps.append(_step(replay_table, live, member, live.narrator, told))
    if not engine.is_over:
        raise ValueError("its stored actions stop before the end of the hand")
    return HandReplay(record.id, record.hand_no, engine.game.title, member, live.seat_of(member),
                      tuple(steps))


def _step(table: Table, live: LiveHand, member: int, narrator: Narrator, told: int) -> ReplayStep:
    engine = live.engine
    seat = live.seat_of(member)
    own = None
    if seat is not None:
        own = private(engine, seat, member=member, name=live.names[seat], hand_id=live.hand_id,
                      hand_no=live.hand_no, rulings=live.rulings)
    lines = tuple(line.text for line in narrator.lines(engine.events[told:]))
    return ReplayStep(snapshot(table, over=engine.is_over), own, lines)


async def stored_replay(store: Store, record: HandRecord, member: int) -> HandReplay:
    """:func:`hand_replay` for a hand in ``store`` (its table's settings read from the store).
    Raises ``TableError`` with the reason a member may read."""
    try:
        table = table_shell(await store.get_table(record.table_id))
    except StoreError as exc:
        raise TableError(f"Hand #{record.hand_no} cannot be replayed: {exc.reason}") from None
    try:
        return hand_replay(record, member, table)
    except ValueError as exc:
        raise TableError(f"Hand #{record.hand_no} cannot be replayed ({exc}).") from None
