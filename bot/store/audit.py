"""The audit: recompute every balance and stack from the ledger and compare.

Checked for every guild, in one read transaction (a consistent snapshot):

1. each member's ledger ``delta`` sum equals their balance (and no ledger rows without an account);
2. no balance and no seat stack is negative;
3. chips in play: for each table and member, buy-ins + top-ups - cash-outs + settled hand results
   (the ledger's ``stack_delta`` sum) equals the seat's stack (0 without a seat); a closed table has
   no seats; ledger rows name tables of their own guild;
4. each settled hand has one ``hand`` row per player, matching its final minus starting stack,
   summing to zero; unfinished and voided hands have none;
5. each unfinished hand's players still sit in their seats with the hand's starting stacks (so
   the seats' stacks hold the hand's pot; see :mod:`bot.store.hands`);
6. each movement conserves chips the way its kind says (:data:`bot.store.records.LedgerKind`):
   a buy-in, top-up or cash-out moves the same amount between balance and seat, a transfer's
   two rows cancel out, a hand result or a void never touches a balance, a grant or daily claim
   only adds, a take only removes. (Checks 1-3 compare sums per member, so a one-sided transfer
   whose balance was edited to match would pass them.)
7. tournaments: the pool equals the buy-ins and rebuys in the ledger less what was paid out of it;
   each entrant's ledger rows match what they paid (and, once it ended, their prize); an ended
   tournament holds no pool and its table is closed. Chips on a tournament's table are tournament
   chips: they are not counted as chips in play.
"""

from __future__ import annotations

from collections import defaultdict

from bot.store.base import StoreBase, Tx
from bot.store.records import AuditReport, GuildAudit


class AuditStore(StoreBase):
    """The consistency audit (mixed into :class:`bot.store.Store`)."""

    async def audit(self, guild_id: int | None = None) -> AuditReport:
        """Audit one guild, or every guild; the report lists each discrepancy in words."""
        async with self._transaction(write=False) as tx:
            return await self._audit(tx, guild_id)

    async def _audit(self, tx: Tx, only: int | None) -> AuditReport:
        problems: dict[int, list[str]] = defaultdict(list)
        orphans: list[str] = []

        ledger_sum = {
            (g, m): s
            for g, m, s in await tx.all(
                "SELECT guild_id, member_id, SUM(delta) FROM ledger GROUP BY guild_id, member_id"
            )
        }
        balances = {(g, m): c for g, m, c in await tx.all("SELECT guild_id, member_id, chips FROM balances")}
        for key in sorted(set(ledger_sum) | set(balances)):
            guild, member = key
            if key not in balances:
                problems[guild].append(
                    f"member {member} has ledger rows summing to {ledger_sum[key]:,} but no balance"
                )
            elif key not in ledger_sum:
                problems[guild].append(
                    f"member {member} has a balance of {balances[key]:,} but no ledger rows"
                )
            elif ledger_sum[key] != balances[key]:
                problems[guild].append(
                    f"member {member}'s ledger sums to {ledger_sum[key]:,}"
                    f" but the balance is {balances[key]:,}"
                )
            if balances.get(key, 0) < 0:
                problems[guild].append(f"member {member} has a negative balance ({balances[key]:,})")

        for row_id, guild, member, kind, delta, stack_delta in await tx.all(
            "SELECT id, guild_id, member_id, kind, delta, stack_delta FROM ledger WHERE NOT CASE kind"
            "  WHEN 'starting' THEN delta >= 0 AND stack_delta = 0"
            "  WHEN 'grant' THEN delta > 0 AND stack_delta = 0"
            "  WHEN 'daily' THEN delta > 0 AND stack_delta = 0"
            "  WHEN 'take' THEN delta < 0 AND stack_delta = 0"
            "  WHEN 'transfer' THEN delta <> 0 AND stack_delta = 0"
            "  WHEN 'buy_in' THEN delta < 0 AND delta + stack_delta = 0"
            "  WHEN 'top_up' THEN delta < 0 AND delta + stack_delta = 0"
            "  WHEN 'cash_out' THEN delta >= 0 AND delta + stack_delta = 0"
            "  WHEN 'hand' THEN delta = 0"
            "  WHEN 'void' THEN delta = 0 AND stack_delta = 0"
            "  WHEN 'tournament_buy_in' THEN delta < 0 AND stack_delta = 0 AND tournament_id IS NOT NULL"
            "  WHEN 'tournament_prize' THEN delta > 0 AND stack_delta = 0 AND tournament_id IS NOT NULL"
            "  WHEN 'tournament_refund' THEN delta > 0 AND stack_delta = 0 AND tournament_id IS NOT NULL"
            "  WHEN 'tournament_chips' THEN delta = 0 AND tournament_id IS NOT NULL AND table_id IS NOT NULL"
            "  ELSE FALSE END ORDER BY id"
        ):
            problems[guild].append(
                f"ledger row {row_id} ({kind}) of member {member} moves {delta:+,} in the balance and"
                f" {stack_delta:+,} at the table, which a {kind} row cannot do"
            )
        for guild, key, count, total in await tx.all(
            "SELECT guild_id, op_key, COUNT(*), SUM(delta) FROM ledger WHERE kind = 'transfer'"
            " GROUP BY guild_id, op_key HAVING COUNT(*) <> 2 OR SUM(delta) <> 0 ORDER BY guild_id, op_key"
        ):
            problems[guild].append(
                f"transfer {key} has {count} ledger row(s) summing to {total:+,}: a transfer is two rows"
                " that cancel out"
            )

        tables = {t: (g, s) for t, g, s in await tx.all("SELECT id, guild_id, status FROM tables")}
        seats = {
            (t, m): (n, s)
            for t, n, m, s in await tx.all("SELECT table_id, seat_no, member_id, stack FROM seats")
        }
        stack_sum = {
            (t, m): s
            for t, m, s in await tx.all(
                "SELECT table_id, member_id, SUM(stack_delta) FROM ledger WHERE table_id IS NOT NULL"
                " GROUP BY table_id, member_id"
            )
        }
        for table_id, guild, member in await tx.all(
            "SELECT DISTINCT l.table_id, l.guild_id, l.member_id FROM ledger l"
            " JOIN tables t ON t.id = l.table_id"
            " WHERE l.guild_id <> t.guild_id"
        ):
            problems[guild].append(f"member {member}'s ledger names table {table_id} of another server")
        for key in sorted(set(stack_sum) | set(seats)):
            table_id, member = key
            if table_id not in tables:
                orphans.append(f"seat or ledger rows for missing table {table_id}")
                continue
            guild, status = tables[table_id]
            expected = stack_sum.get(key, 0)
            seat_no, stack = seats.get(key, (None, 0))
            if stack < 0:
                problems[guild].append(
                    f"member {member} has a negative stack ({stack:,}) at table {table_id}"
                )
            if expected != stack:
                where = f"seat {seat_no}" if seat_no is not None else "no seat"
                problems[guild].append(
                    f"table {table_id}: member {member}'s buy-ins, cash-outs and hand results come to"
                    f" {expected:,} but they have {stack:,} in play ({where})"
                )
            if status == "closed" and seat_no is not None:
                problems[guild].append(
                    f"table {table_id} is closed but member {member} still has seat {seat_no}"
                )

        hand_rows = await tx.all(
            "SELECT h.id, h.table_id, h.status, t.guild_id, p.seat_no, p.member_id, p.starting_stack,"
            " p.final_stack, (SELECT COUNT(*) FROM ledger l WHERE l.hand_id = h.id AND l.kind = 'hand'"
            "   AND l.member_id = p.member_id),"
            " (SELECT SUM(l.stack_delta) FROM ledger l WHERE l.hand_id = h.id AND l.kind = 'hand'"
            "   AND l.member_id = p.member_id)"
            " FROM hands h JOIN tables t ON t.id = h.table_id JOIN hand_players p ON p.hand_id = h.id"
            " ORDER BY h.id, p.seat_no"
        )
        totals: dict[int, int] = defaultdict(int)
        for hand_id, table_id, status, guild, seat_no, member, start, final, rows, delta in hand_rows:
            if status == "finished":
                totals[hand_id] += delta or 0
                if rows != 1 or final is None or delta != final - start:
                    problems[guild].append(
                        f"hand {hand_id}: member {member}'s settlement row does not match"
                        f" {start:,} -> {final if final is not None else '?'}"
                    )
            else:
                if rows:
                    problems[guild].append(f"hand {hand_id} is {status} but has settlement rows")
                if status == "in_progress":
                    now = seats.get((table_id, member))
                    if now != (seat_no, start):
                        problems[guild].append(
                            f"hand {hand_id} is in progress but member {member}'s seat no longer holds"
                            f" their starting stack of {start:,} in seat {seat_no}"
                        )
        guild_of_hand = {h: (g, s) for h, _, s, g, *_ in hand_rows}
        for hand_id, total in totals.items():
            if total != 0:
                problems[guild_of_hand[hand_id][0]].append(
                    f"hand {hand_id}'s results sum to {total:,}, not 0"
                )
        for hand_id, guild in await tx.all(
            "SELECT DISTINCT l.hand_id, l.guild_id FROM ledger l LEFT JOIN hand_players p"
            " ON p.hand_id = l.hand_id AND p.member_id = l.member_id"
            " WHERE l.hand_id IS NOT NULL AND p.hand_id IS NULL"
        ):
            problems[guild].append(f"hand {hand_id} has ledger rows for a member not dealt in")

        tournament_tables = await self._audit_tournaments(tx, problems)

        guilds: list[GuildAudit] = []
        guild_ids = sorted(
            {g for g, _ in balances}
            | {g for g, _ in ledger_sum}
            | {g for g, _ in tables.values()}
            | set(problems)
        )
        for guild in guild_ids:
            if only is not None and guild != only:
                continue
            in_play = sum(
                stack
                for (table_id, _), (_, stack) in seats.items()
                if table_id in tables and tables[table_id][0] == guild and table_id not in tournament_tables
            )
            guilds.append(
                GuildAudit(
                    guild_id=guild,
                    members=sum(1 for g, _ in balances if g == guild),
                    balances=sum(c for (g, _), c in balances.items() if g == guild),
                    in_play=in_play,
                    problems=problems.get(guild, []),
                )
            )
        return AuditReport(guilds=guilds, problems=orphans if only is None else [])

    async def _audit_tournaments(self, tx: Tx, problems: dict[int, list[str]]) -> set[int]:
        """Check 7; returns the ids of the tournaments' tables."""
        net = {
            (t, m): int(s)
            for t, m, s in await tx.all(
                "SELECT tournament_id, member_id, SUM(delta) FROM ledger WHERE tournament_id IS NOT NULL"
                " AND kind <> 'tournament_chips' GROUP BY tournament_id, member_id"
            )
        }
        entries = {
            (t, m): (p, z)
            for t, m, p, z in await tx.all(
                "SELECT tournament_id, member_id, paid, prize FROM tournament_entries"
            )
        }
        tables: set[int] = set()
        for tid, guild, status, pool, table_id, table_status in await tx.all(
            "SELECT t.id, t.guild_id, t.status, t.pool, t.table_id, b.status FROM tournaments t"
            " LEFT JOIN tables b ON b.id = t.table_id ORDER BY t.id"
        ):
            if table_id is not None:
                tables.add(table_id)
            ended = status in ("finished", "cancelled")
            held = -sum(v for (t, _), v in net.items() if t == tid)
            if held != pool:
                problems[guild].append(
                    f"tournament {tid}: the ledger holds {held:,} chips for it but its pool is {pool:,}"
                )
            if ended and pool != 0:
                problems[guild].append(f"tournament {tid} is {status} but its pool still holds {pool:,}")
            if ended and table_id is not None and table_status != "closed":
                problems[guild].append(f"tournament {tid} is {status} but its table {table_id} is open")
            members = {m for (t, m) in net if t == tid} | {m for (t, m) in entries if t == tid}
            for member in sorted(members):
                paid, prize = entries.get((tid, member), (0, None))
                expected = (prize or 0) - paid if ended else -paid
                if net.get((tid, member), 0) != expected:
                    problems[guild].append(
                        f"tournament {tid}: member {member}'s ledger rows come to"
                        f" {net.get((tid, member), 0):+,} but their entry says {expected:+,}"
                    )
        return tables
