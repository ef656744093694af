"""The record of the night (issue 24): per-hand public stat lines, leaderboards by period, seasons.

One row per player of each settled hand in ``hand_stats`` (the stats migration), written once after the
hand is settled (:meth:`StatsStore.record_hand_stats`; ``bot.tables.stats`` computes the line from
what everyone at the table saw: the public actions, the pots and the shown hands). Every figure of
``/stats``, ``/stats table``, the period leaderboards and the season standings is then one indexed
aggregate over those rows, never a replay: a guild with 100,000 hands answers in milliseconds
(``benchmarks/bench_stats.py``).

A line's ``net`` must equal the player's final stack minus their starting stack in
``hand_players`` (the store checks it), so the stats and the ledger cannot disagree.

Leaderboard privacy: a member's own opt-out (``leaderboard_optouts``) and the guild's hidden role
(``leaderboard_settings``; the role's members are known to Discord, not to the store, so the caller
passes them in ``exclude``).

Seasons: at most one running season per guild (a unique partial index); a season is a named
window ``[started, ended)`` of time and its standings are the aggregates over that window, so an
ended season's final standings stay readable for as long as the hands are kept.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.store.backend import PostgresBackend
from bot.store.base import StoreBase, Tx, check_id, check_text, format_time, parse_time
from bot.store.errors import StoreError
from bot.store.pg_batch import HandLines, StatLine


@dataclass(frozen=True, slots=True)
class HandStatLine:
    """One player's public figures from one settled hand (what ``bot.tables.stats`` computes).

    ``net``: final stack minus starting stack. ``collected``: chips taken from the pots (0 when the
    player won nothing; uncalled chips returned are not collected). ``pot``: the hand's whole pot
    (every pot together, returned chips excluded; the same on each player's line). ``showdown``: the
    player's hand was live at a showdown. ``vpip``: the player put chips in voluntarily on the first
    betting round. ``bets``: bets, completions and raises; ``calls``: calls (checks, the bring-in and
    antes are neither).
    """

    member_id: int
    net: int
    collected: int
    pot: int
    showdown: bool
    vpip: bool
    bets: int
    calls: int


@dataclass(frozen=True, slots=True)
class GameTotals:
    """A member's aggregates over one game (or every game when ``game`` is None) and a window."""

    game: str | None
    hands: int
    won: int
    showdowns: int
    showdowns_won: int
    net: int
    biggest_pot_won: int
    vpip_hands: int
    bets: int
    calls: int

    @property
    def vpip(self) -> float | None:
        """VPIP: the share of hands (0..1) with chips put in voluntarily on the first round."""
        return self.vpip_hands / self.hands if self.hands else None

    @property
    def aggression(self) -> float | None:
        """The aggression factor, (bets + raises) / calls; None when there was no call."""
        return self.bets / self.calls if self.calls else None


def combine(rows: Iterable[GameTotals]) -> GameTotals | None:
    """Several games' totals as one (``game`` None); None for no rows.

    >>> a = GameTotals("a", 2, 1, 1, 0, 50, 150, 2, 2, 2)
    >>> b = GameTotals("b", 1, 0, 1, 0, -50, 0, 1, 0, 1)
    >>> combine([a, b])
    GameTotals(game=None, hands=3, won=1, showdowns=2, showdowns_won=0, net=0, biggest_pot_won=150, \
vpip_hands=3, bets=2, calls=3)
    """
    rows = list(rows)
    if not rows:
        return None
    return GameTotals(
        game=None,
        hands=sum(r.hands for r in rows),
        won=sum(r.won for r in rows),
        showdowns=sum(r.showdowns for r in rows),
        showdowns_won=sum(r.showdowns_won for r in rows),
        net=sum(r.net for r in rows),
        biggest_pot_won=max(r.biggest_pot_won for r in rows),
        vpip_hands=sum(r.vpip_hands for r in rows),
        bets=sum(r.bets for r in rows),
        calls=sum(r.calls for r in rows),
    )


@dataclass(frozen=True, slots=True)
class NetRow:
    """A member's net chips over a window, and the hands they played in it."""

    member_id: int
    net: int
    hands: int


@dataclass(frozen=True, slots=True)
class TableNight:
    """A table's figures since it opened: hands dealt, the biggest pot, each member's net."""

    table_id: int
    opened: datetime
    hands: int
    biggest_pot: int
    members: tuple[NetRow, ...]


@dataclass(frozen=True, slots=True)
class Season:
    """A named window of time in a guild; ``ended`` None while it runs."""

    id: int
    guild_id: int
    name: str
    started: datetime
    ended: datetime | None


_SEASON_COLUMNS = "id, guild_id, name, started, ended"
_TOTALS = (
    "COUNT(*), SUM(CASE WHEN collected > 0 THEN 1 ELSE 0 END), SUM(showdown),"
    " SUM(CASE WHEN showdown = 1 AND collected > 0 THEN 1 ELSE 0 END), SUM(net), MAX(collected),"
    " SUM(vpip), SUM(bets), SUM(calls)"
)


_DAY_TOTALS = (
    "SUM(hands), SUM(won), SUM(showdowns), SUM(showdowns_won), SUM(net), MAX(biggest), SUM(vpip),"
    " SUM(bets), SUM(calls)"
)
_BIGGEST = 5
"""Where the biggest pot is among the nine totals (a maximum; the others are sums)."""


def _window(clauses: list[str], params: list[object], since: datetime | None, until: datetime | None) -> None:
    if since is not None:
        clauses.append("ended >= ?")
        params.append(format_time(since))
    if until is not None:
        clauses.append("ended < ?")
        params.append(format_time(until))


@dataclass(frozen=True, slots=True)
class _Split:
    """A window ``[since, until)`` as whole UTC days read from ``member_days`` (``days``: first day,
    end day, each None for no bound; None for no whole day) and the cut ends read from the stat
    lines themselves (``edges``)."""

    days: tuple[str | None, str | None] | None
    edges: tuple[tuple[datetime | None, datetime | None], ...]


def _midnight(moment: datetime) -> datetime:
    return moment.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)


def _split(since: datetime | None, until: datetime | None) -> _Split:
    """Split a window into whole days and cut ends.

    >>> at = lambda d, h: datetime(2026, 3, d, h, tzinfo=UTC)
    >>> _split(None, None)
    _Split(days=(None, None), edges=())
    >>> s = _split(at(1, 20), at(4, 6)); s.days, [(a.day, b.day) for a, b in s.edges]
    (('2026-03-02', '2026-03-04'), [(1, 2), (4, 4)])
    >>> s = _split(at(1, 20), at(1, 22)); s.days, len(s.edges)
    (None, 1)
    >>> _split(at(2, 0), None).days, _split(at(2, 0), None).edges
    (('2026-03-02', None), ())
    """
    start = since if since is None or since == _midnight(since) else _midnight(since) + timedelta(days=1)
    end = until if until is None else _midnight(until)
    if start is not None and end is not None and start >= end:
        return _Split(None, ((since, until),))  # no whole day inside: all from the lines
    edges: list[tuple[datetime | None, datetime | None]] = []
    if since is not None and start is not None and start > since:
        edges.append((since, start))
    if until is not None and end is not None and end < until:
        edges.append((end, until))
    return _Split((_day(start), _day(end)), tuple(edges))


def _day(moment: datetime | None) -> str | None:
    return None if moment is None else moment.strftime("%Y-%m-%d")


def _add(into: dict[Any, list[int]], key: Any, values: Sequence[Any]) -> None:
    """Add one group's totals into ``into[key]`` (sums, and the maximum for the biggest pot)."""
    numbers = [int(v or 0) for v in values]
    if key not in into:
        into[key] = numbers
        return
    have = into[key]
    for i, value in enumerate(numbers):
        have[i] = max(have[i], value) if i == _BIGGEST else have[i] + value


def _season(row: Sequence[object]) -> Season:
    return Season(
        id=int(row[0]),  # type: ignore[call-overload]
        guild_id=int(row[1]),  # type: ignore[call-overload]
        name=str(row[2]),
        started=parse_time(str(row[3])),
        ended=None if row[4] is None else parse_time(str(row[4])),
    )


class StatsStore(StoreBase):
    """Stat lines, leaderboards by period, opt-outs and seasons (see the module docstring)."""

    # -- writing the lines ----------------------------------------------------------------------

    async def record_hand_stats(self, hand_id: int, lines: Iterable[HandStatLine]) -> bool:
        """Store the stat lines of a settled hand, one per player dealt in; returns True if stored
        now (False if the hand already has its lines: idempotent).

        Raises :class:`StoreError` if the hand is not finished, the lines do not name exactly its
        players, or a line's ``net`` is not that player's final minus starting stack.
        """
        check_id(hand_id, "hand")
        given = {line.member_id: line for line in lines}
        backend = self._backend
        if isinstance(backend, PostgresBackend) and given:
            # Stored with the others arriving meanwhile when certainly stored now; a repeat or a
            # refusal is decided below (see bot.store.pg_batch).
            batched = HandLines(hand_id, tuple(
                StatLine(m, x.net, x.collected, x.pot, int(x.showdown), int(x.vpip), x.bets, x.calls)
                for m, x in given.items()
            ))
            if await backend.stat_lines.submit(batched):
                return True

        async def body(tx: Tx) -> bool:
            # A hot path (every hand): the hand's row locked, so writers of one hand's lines take
            # turns and the count below cannot be stale; the day totals are atomic upserts. Run
            # serializable, neighbouring hands' lines aborted each other (see bot.store.backend).
            await tx.lock("hands", "id", hand_id)
            hand = await tx.one(
                "SELECT h.status, h.table_id, t.guild_id, h.game, h.ended FROM hands h"
                " JOIN tables t ON t.id = h.table_id WHERE h.id = ?",
                (hand_id,),
            )
            if hand is None:
                raise StoreError("There is no such hand.")
            if hand[0] != "finished":
                raise StoreError("Only a settled hand has stats.")
            if await tx.value("SELECT COUNT(*) FROM hand_stats WHERE hand_id = ?", (hand_id,)):
                return False
            players = {
                int(r[0]): int(r[1]) - int(r[2])
                for r in await tx.all(
                    "SELECT member_id, final_stack, starting_stack FROM hand_players WHERE hand_id = ?",
                    (hand_id,),
                )
            }
            if set(players) != set(given):
                raise StoreError("The stat lines must name exactly the players dealt into the hand.")
            for member_id, line in sorted(given.items()):
                if line.net != players[member_id]:
                    raise StoreError(
                        f"Member {member_id}'s net {line.net:+,} differs from the settlement's"
                        f" {players[member_id]:+,}."
                    )
                if min(line.collected, line.pot, line.bets, line.calls) < 0:
                    raise StoreError("Stat counts cannot be negative.")
                await tx.run(
                    "INSERT INTO hand_stats (hand_id, member_id, guild_id, table_id, game, ended, net,"
                    " collected, pot, showdown, vpip, bets, calls)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        hand_id,
                        member_id,
                        hand[2],
                        hand[1],
                        hand[3],
                        hand[4],
                        line.net,
                        line.collected,
                        line.pot,
                        int(line.showdown),
                        int(line.vpip),
                        line.bets,
                        line.calls,
                    ),
                )
                await tx.run(
                    "INSERT INTO member_days (guild_id, member_id, day, game, hands, won, showdowns,"
                    " showdowns_won, net, biggest, vpip, bets, calls)"
                    " VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?)"
                    " ON CONFLICT (guild_id, member_id, day, game) DO UPDATE SET"
                    " hands = member_days.hands + 1, won = member_days.won + excluded.won,"
                    " showdowns = member_days.showdowns + excluded.showdowns,"
                    " showdowns_won = member_days.showdowns_won + excluded.showdowns_won,"
                    " net = member_days.net + excluded.net,"
                    " biggest = CASE WHEN excluded.biggest > member_days.biggest THEN excluded.biggest"
                    " ELSE member_days.biggest END,"
                    " vpip = member_days.vpip + excluded.vpip, bets = member_days.bets + excluded.bets,"
                    " calls = member_days.calls + excluded.calls",
                    (
                        hand[2],
                        member_id,
                        str(hand[4])[:10],
                        hand[3],
                        int(line.collected > 0),
                        int(line.showdown),
                        int(line.showdown and line.collected > 0),
                        line.net,
                        line.collected,
                        int(line.vpip),
                        line.bets,
                        line.calls,
                    ),
                )
            return True

        return await self._write(body, locking=True)

    async def hands_without_stats(self, *, limit: int = 500) -> list[int]:
        """Ids of settled hands that have no stat lines yet (hands settled before stats were kept, or
        whose lines were not written), oldest first, at most ``limit``."""
        async with self._transaction(write=False) as tx:
            rows = await tx.all(
                "SELECT h.id FROM hands h WHERE h.status = 'finished'"
                " AND NOT EXISTS (SELECT 1 FROM hand_stats s WHERE s.hand_id = h.id)"
                " ORDER BY h.id LIMIT ?",
                (limit,),
            )
        return [int(r[0]) for r in rows]

    # -- reading --------------------------------------------------------------------------------

    async def member_stats(
        self,
        guild_id: int,
        member_id: int,
        *,
        game: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
    ) -> list[GameTotals]:
        """The member's totals per game (games by name) in ``[since, until)``; one game if given.
        Empty when they played no hand in the window."""
        check_id(member_id, "member")
        rows = await self.guild_stats(guild_id, member_id=member_id, game=game, since=since, until=until)
        return [totals for _, totals in rows]

    async def guild_stats(
        self,
        guild_id: int,
        *,
        member_id: int | None = None,
        game: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
    ) -> list[tuple[int, GameTotals]]:
        """``(member id, totals)`` per member and game in ``[since, until)``, by member then game;
        optionally one member's, one game's."""
        check_id(guild_id, "server")
        clauses: list[str] = ["guild_id = ?"]
        params: list[object] = [guild_id]
        if member_id is not None:
            clauses.append("member_id = ?")
            params.append(check_id(member_id, "member"))
        if game is not None:
            clauses.append("game = ?")
            params.append(game)
        totals: dict[Any, list[int]] = {}
        async with self._transaction(write=False) as tx:
            for group, values in await self._totals(tx, clauses, params, since, until, "member_id, game"):
                _add(totals, group, values)
        return [
            (
                int(member),
                GameTotals(
                    game=str(game_name),
                    hands=t[0],
                    won=t[1],
                    showdowns=t[2],
                    showdowns_won=t[3],
                    net=t[4],
                    biggest_pot_won=t[5],
                    vpip_hands=t[6],
                    bets=t[7],
                    calls=t[8],
                ),
            )
            for (member, game_name), t in sorted(
                totals.items(), key=lambda kv: (int(kv[0][0]), str(kv[0][1]))
            )
        ]

    async def _totals(
        self,
        tx: Tx,
        clauses: list[str],
        params: list[object],
        since: datetime | None,
        until: datetime | None,
        group: str,
    ) -> list[tuple[tuple[Any, ...], Sequence[Any]]]:
        """The nine totals per ``group`` (columns of ``member_days``; ``day`` is the UTC date of a stat
        line's ``ended``) over ``[since, until)``: whole days from ``member_days``, the cut ends from
        ``hand_stats``; ``(group values, totals)`` pairs, a group possibly more than once (add them
        up with :func:`_add`)."""
        width = group.count(",") + 1
        line_group = ", ".join("SUBSTR(ended, 1, 10)" if g.strip() == "day" else g for g in group.split(","))
        found: list[tuple[tuple[Any, ...], Sequence[Any]]] = []
        split = _split(since, until)
        for edge_since, edge_until in split.edges:
            where, values = list(clauses), list(params)
            _window(where, values, edge_since, edge_until)
            rows = await tx.all(
                f"SELECT {line_group}, {_TOTALS} FROM hand_stats"
                f" WHERE {' AND '.join(where)} GROUP BY {line_group}",
                values,
            )
            found += [(tuple(r[:width]), r[width:]) for r in rows]
        if split.days is not None:
            where, values = list(clauses), list(params)
            first, end = split.days
            if first is not None:
                where.append("day >= ?")
                values.append(first)
            if end is not None:
                where.append("day < ?")
                values.append(end)
            rows = await tx.all(
                f"SELECT {group}, {_DAY_TOTALS} FROM member_days"
                f" WHERE {' AND '.join(where)} GROUP BY {group}",
                values,
            )
            found += [(tuple(r[:width]), r[width:]) for r in rows]
        return found

    async def net_series(
        self,
        guild_id: int,
        member_id: int,
        *,
        game: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        hourly: bool = False,
    ) -> list[tuple[datetime, int]]:
        """The member's net chips per day (per hour with ``hourly``) in ``[since, until)``, oldest
        first: ``(start of the day or hour, net chips)``, only days or hours with hands."""
        check_id(guild_id, "server")
        check_id(member_id, "member")
        clauses: list[str] = ["guild_id = ?", "member_id = ?"]
        params: list[object] = [guild_id, member_id]
        if game is not None:
            clauses.append("game = ?")
            params.append(game)
        buckets: dict[Any, list[int]] = {}
        async with self._transaction(write=False) as tx:
            if hourly:
                where, values = list(clauses), list(params)
                _window(where, values, since, until)
                rows = await tx.all(
                    f"SELECT SUBSTR(ended, 1, 13), SUM(net) FROM hand_stats WHERE {' AND '.join(where)}"
                    " GROUP BY SUBSTR(ended, 1, 13)",
                    values,
                )
                for bucket, net in rows:
                    _add(buckets, str(bucket) + ":00:00.000000Z", [net])
            else:
                for (bucket,), totals in await self._totals(tx, clauses, params, since, until, "day"):
                    _add(buckets, str(bucket)[:10] + "T00:00:00.000000Z", [totals[4]])
        return [(parse_time(key), value[0]) for key, value in sorted(buckets.items())]

    async def net_leaderboard(
        self,
        guild_id: int,
        *,
        since: datetime | None = None,
        until: datetime | None = None,
        exclude: Iterable[int] = (),
        limit: int = 10,
    ) -> list[NetRow]:
        """Members by net chips from hands in ``[since, until)``, best first (ties by member id),
        leaving out every member who opted out and every member in ``exclude`` (the guild's hidden
        role, which only Discord knows)."""
        check_id(guild_id, "server")
        if limit < 1:
            raise StoreError("The leaderboard needs at least one row.")
        left_out = {check_id(m, "member") for m in exclude}
        totals: dict[Any, list[int]] = {}
        async with self._transaction(write=False) as tx:
            for (member,), values in await self._totals(
                tx, ["guild_id = ?"], [guild_id], since, until, "member_id"
            ):
                _add(totals, int(member), values)
            left_out |= {
                int(r[0])
                for r in await tx.all(
                    "SELECT member_id FROM leaderboard_optouts WHERE guild_id = ?", (guild_id,)
                )
            }
        rows = [NetRow(member_id=m, net=t[4], hands=t[0]) for m, t in totals.items() if m not in left_out]
        rows.sort(key=lambda r: (-r.net, r.member_id))
        return rows[:limit]

    async def table_night(self, table_id: int) -> TableNight:
        """The table's figures since it opened: hands settled, the biggest pot, each member's net
        (biggest winner first). Raises :class:`StoreError` if there is no such table."""
        check_id(table_id, "table")
        async with self._transaction(write=False) as tx:
            opened = await tx.value("SELECT created FROM tables WHERE id = ?", (table_id,))
            if opened is None:
                raise StoreError("There is no such table.")
            summary = await tx.one(
                "SELECT COUNT(DISTINCT hand_id), MAX(pot) FROM hand_stats WHERE table_id = ?", (table_id,)
            )
            rows = await tx.all(
                "SELECT member_id, SUM(net), COUNT(*) FROM hand_stats WHERE table_id = ?"
                " GROUP BY member_id ORDER BY SUM(net) DESC, member_id",
                (table_id,),
            )
        assert summary is not None
        return TableNight(
            table_id=table_id,
            opened=parse_time(str(opened)),
            hands=int(summary[0]),
            biggest_pot=int(summary[1] or 0),
            members=tuple(NetRow(int(r[0]), int(r[1]), int(r[2])) for r in rows),
        )

    async def guild_table_ids(self, guild_id: int) -> list[int]:
        """Every table the guild ever opened, oldest first (their settings keep the players' names)."""
        check_id(guild_id, "server")
        async with self._transaction(write=False) as tx:
            rows = await tx.all("SELECT id FROM tables WHERE guild_id = ? ORDER BY id", (guild_id,))
        return [int(r[0]) for r in rows]

    async def finished_hand_ids(self, guild_id: int, *, since: datetime | None = None) -> list[int]:
        """Ids of the guild's settled hands (ended at or after ``since``), oldest first."""
        check_id(guild_id, "server")
        clauses: list[str] = ["t.guild_id = ?", "h.status = 'finished'"]
        params: list[object] = [guild_id]
        if since is not None:
            clauses.append("h.ended >= ?")
            params.append(format_time(since))
        async with self._transaction(write=False) as tx:
            rows = await tx.all(
                f"SELECT h.id FROM hands h JOIN tables t ON t.id = h.table_id WHERE {' AND '.join(clauses)}"
                " ORDER BY h.ended, h.id",
                params,
            )
        return [int(r[0]) for r in rows]

    # -- leaderboard privacy --------------------------------------------------------------------

    async def set_leaderboard_optout(self, guild_id: int, member_id: int, hidden: bool) -> None:
        """Leave the member off the period leaderboards (``hidden``) or put them back."""
        check_id(guild_id, "server")
        check_id(member_id, "member")
        async with self._transaction() as tx:
            await tx.run(
                "DELETE FROM leaderboard_optouts WHERE guild_id = ? AND member_id = ?", (guild_id, member_id)
            )
            if hidden:
                await tx.run(
                    "INSERT INTO leaderboard_optouts (guild_id, member_id, updated) VALUES (?, ?, ?)",
                    (guild_id, member_id, tx.now),
                )

    async def leaderboard_optout(self, guild_id: int, member_id: int) -> bool:
        """Whether the member left the period leaderboards."""
        check_id(guild_id, "server")
        check_id(member_id, "member")
        async with self._transaction(write=False) as tx:
            found = await tx.value(
                "SELECT COUNT(*) FROM leaderboard_optouts WHERE guild_id = ? AND member_id = ?",
                (guild_id, member_id),
            )
        return bool(found)

    async def leaderboard_optouts(self, guild_id: int) -> set[int]:
        """Every member of the guild who left the leaderboards."""
        check_id(guild_id, "server")
        async with self._transaction(write=False) as tx:
            rows = await tx.all("SELECT member_id FROM leaderboard_optouts WHERE guild_id = ?", (guild_id,))
        return {int(r[0]) for r in rows}

    async def set_leaderboard_hidden_role(self, guild_id: int, role_id: int | None) -> None:
        """The server role whose members the period leaderboards leave out (None: no such role)."""
        check_id(guild_id, "server")
        if role_id is not None:
            check_id(role_id, "role")
        async with self._transaction() as tx:
            await tx.run("DELETE FROM leaderboard_settings WHERE guild_id = ?", (guild_id,))
            await tx.run(
                "INSERT INTO leaderboard_settings (guild_id, hidden_role_id, updated) VALUES (?, ?, ?)",
                (guild_id, role_id, tx.now),
            )

    async def leaderboard_hidden_role(self, guild_id: int) -> int | None:
        """The guild's hidden role, if any."""
        check_id(guild_id, "server")
        async with self._transaction(write=False) as tx:
            value = await tx.value(
                "SELECT hidden_role_id FROM leaderboard_settings WHERE guild_id = ?", (guild_id,)
            )
        return None if value is None else int(value)

    # -- seasons --------------------------------------------------------------------------------

    async def start_season(self, guild_id: int, name: str, *, by: int) -> Season:
        """Start a season named ``name`` now. Raises :class:`StoreError` if one is running."""
        check_id(guild_id, "server")
        check_id(by, "member")
        name = check_text(name, "season name", limit=100)
        async with self._transaction() as tx:
            running = await tx.one(
                "SELECT name FROM seasons WHERE guild_id = ? AND ended IS NULL", (guild_id,)
            )
            if running is not None:
                raise StoreError(f"The season {running[0]!r} is running; end it first with /season end.")
            _, season_id = await tx.run(
                "INSERT INTO seasons (guild_id, name, started, started_by) VALUES (?, ?, ?, ?)",
                (guild_id, name, tx.now, by),
            )
            row = await tx.one(f"SELECT {_SEASON_COLUMNS} FROM seasons WHERE id = ?", (season_id,))
        assert row is not None
        return _season(row)

    async def end_season(self, guild_id: int, *, by: int) -> Season:
        """End the running season now. Raises :class:`StoreError` if none is running."""
        check_id(guild_id, "server")
        check_id(by, "member")
        async with self._transaction() as tx:
            row = await tx.one(
                f"SELECT {_SEASON_COLUMNS} FROM seasons WHERE guild_id = ? AND ended IS NULL", (guild_id,)
            )
            if row is None:
                raise StoreError("No season is running; start one with /season start.")
            await tx.run("UPDATE seasons SET ended = ?, ended_by = ? WHERE id = ?", (tx.now, by, row[0]))
            ended = await tx.one(f"SELECT {_SEASON_COLUMNS} FROM seasons WHERE id = ?", (row[0],))
        assert ended is not None
        return _season(ended)

    async def seasons(self, guild_id: int) -> list[Season]:
        """The guild's seasons, newest first (the running one, if any, first)."""
        check_id(guild_id, "server")
        async with self._transaction(write=False) as tx:
            rows = await tx.all(
                f"SELECT {_SEASON_COLUMNS} FROM seasons WHERE guild_id = ? ORDER BY started DESC, id DESC",
                (guild_id,),
            )
        return [_season(r) for r in rows]
