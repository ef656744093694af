"""Speed and size of the card pictures (PNG bytes), one core.

Run by hand (not part of the tests)::

    .venv/bin/python benchmarks/bench_pictures.py               # the figures below, default sizes
    .venv/bin/python benchmarks/bench_pictures.py --states 1000 --runs 7 --json out.json

Four figures, each the time to get the PNG bytes (draw, palette, encode), as wall time and as
CPU time of this process (the machine may be shared: CPU time is the steadier figure):

* **table, a hand's clicks** (4 and 8 seats): the table picture after every action of seeded
  random hands (bets, calls, folds, the player to act moving on, a card dealt to every seat at each
  street, wild ranks made by a follow), as a running bot redraws it. Only what changed is drawn
  again; the rest comes from the layer caches (``bot.render.layers``). Target (issue 20): <= 2 ms
  for 8 seats.
* **table, many tables** (``--tables N``, default 1,000): the clicks of N 8-seat tables taken in
  turn (one click per table, round after round), as a bot serving that many busy tables redraws
  them: a table's layers kept since its last click some N pictures before are mostly gone, and its
  picture is put together on its last one (``bot.render.layers.FRAMES``). The first round is not
  counted.
* **table, cold**: a different random 8-seat moment every time (new stacks, bets, cards and
  names' states at every seat), so every seat layer is drawn afresh: the worst case of a redraw.
* **DM picture, new hands as in play** (``--hands`` random stud hands of 6 players, every street's
  DM of every player: the cards so far, a new title and "Best now" line, fives wild and a rank made
  wild by a follow): every picture is new, as in a running bot; a player's cards come back from
  their previous DM, framed or tagged anew. A few hands are drawn first, not counted (a running
  bot has drawn every card face once). Target: <= 3 ms.
* **DM picture, repeated** (6 cards, two wild ranks): the same 60 pictures drawn again, all from
  the caches: the floor, not what a bot pays (kept beside the figure above to compare).
* **7-hand showdown, new** (20 random showdowns never drawn before, a winner each) and
  **repeated** (the same drawn again). Target: <= 20 ms for a new one.

Issue 11's limit on size still holds: an 8-seat table picture <= 150 KB.

``--encoders`` compares ways to write the same 8-seat table pictures instead (CPU ms and bytes):
Pillow's PNG at each zlib level from the palette image, PNG from RGB, JPEG, lossless WebP, and
ISA-L's deflate of unfiltered palette rows (what ``bot.render.layers.png`` does) at levels 0 to 3.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine.cards.card import FULL_DECK, Card, Rank
from bot.render.pictures import (
    HandPicture,
    SeatPicture,
    ShowdownPicture,
    ShownHand,
    TablePicture,
    WildRank,
    hand_png,
    showdown_png,
    table_png,
)

TABLE_TARGET_MS = 2.0
DM_TARGET_MS = 3.0
SHOWDOWN_TARGET_MS = 20.0
TARGET_BYTES = 150_000
NAMES = ("Ann", "Bea", "Cid", "Dot", "Eve the Magnificent", "Fay", "Gus", "Hal")
STREETS = ("third street", "fourth street", "fifth street", "sixth street", "seventh street")

T = TypeVar("T")


def make_state(rng: random.Random) -> TablePicture:
    """One random 8-seat table moment: every seat 2 or 3 down cards and 1 to 4 up cards from one
    shuffled deck, a stack, a bet, one seat to act, some folded, one or two ranks beyond fives wild."""
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    to_act = rng.randrange(8)
    seats = []
    for i, name in enumerate(NAMES):
        n_up = rng.randint(1, 4)
        up = tuple(deck.pop() for _ in range(n_up))
        folded = i != to_act and rng.random() < 0.25
        seats.append(SeatPicture(
            name=name, stack=rng.randrange(0, 20_000), up=up, down=2 if n_up < 4 else rng.choice((2, 3)),
            folded=folded, to_act=i == to_act, dealer=i == 0, bet=rng.choice((0, 0, 20, 40, 80)),
            note="all-in" if rng.random() < 0.05 else "",
        ))
    ranks = rng.sample([r for r in Rank if r is not Rank.FIVE], rng.randint(1, 2))
    wilds = (WildRank(Rank.FIVE), *(WildRank(r, deck.pop(), deck.pop()) for r in ranks))
    return TablePicture(title=f"Hand #{rng.randrange(1, 999)} · sixth street · fixed limit 20/40",
                        seats=tuple(seats), pot=rng.randrange(40, 5_000), wilds=wilds)


def hand_clicks(
    rng: random.Random, n_seats: int, hand_no: int, table: int | None = None
) -> Iterator[TablePicture]:
    """The table picture after every action of one random stud hand at ``n_seats`` seats, at
    ``table`` (its id, as the bot's pictures have: its next picture is put together from its last)."""
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    stacks = [rng.randrange(500, 5_000) for _ in range(n_seats)]
    ups: list[tuple[Card, ...]] = [() for _ in range(n_seats)]
    downs = [2] * n_seats
    folded = [False] * n_seats
    wilds: tuple[WildRank, ...] = (WildRank(Rank.FIVE),)
    pot = 0
    for street_no, street in enumerate(STREETS):
        for i in range(n_seats):
            if folded[i]:
                continue
            if street_no == 4:
                downs[i] += 1
            else:
                card = deck.pop()
                ups[i] = (*ups[i], card)
                if card.rank is Rank.FIVE and len(wilds) < 3:
                    follow = deck[-1]
                    wilds = (*wilds, WildRank(follow.rank, card, follow))
        bets = [0] * n_seats
        live = [i for i in range(n_seats) if not folded[i]]
        for i in live:
            if sum(not f for f in folded) == 1:
                break
            seats = tuple(
                SeatPicture(NAMES[j], stacks[j], ups[j], downs[j], folded[j], j == i, j == 0, bets[j])
                for j in range(n_seats)
            )
            title = f"Hand #{hand_no} · {street} · fixed limit 20/40"
            yield TablePicture(title, seats, pot, wilds, table=table)
            move = rng.random()
            if move < 0.15 and street_no < 4:
                folded[i] = True
            elif move < 0.6:
                bet = 20 * (1 + street_no // 2)
                bets[i] += bet
                stacks[i] -= bet
                pot += bet


def dm_pictures(rng: random.Random, n_seats: int, hand_no: int) -> Iterator[HandPicture]:
    """Every DM picture of one random stud hand at ``n_seats`` seats, in the order a bot draws them:
    at each street each player's own cards so far (two down cards, the up cards, the seventh-street
    down card), with fives wild and the ranks made wild by a follow."""
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    downs = [[deck.pop(), deck.pop()] for _ in range(n_seats)]
    ups: list[list[Card]] = [[] for _ in range(n_seats)]
    wilds: tuple[WildRank, ...] = (WildRank(Rank.FIVE),)
    for street_no, street in enumerate(STREETS):
        for i in range(n_seats):
            if street_no == 4:
                downs[i].append(deck.pop())
                continue
            card = deck.pop()
            ups[i].append(card)
            if card.rank is Rank.FIVE and len(wilds) < 3:
                follow = deck[-1]
                wilds = (*wilds, WildRank(follow.rank, card, follow))
        for i in range(n_seats):
            cards = (*downs[i][:2], *ups[i], *downs[i][2:])
            yield HandPicture(f"Hand #{hand_no} · {street} · {NAMES[i]}", cards, tuple(ups[i]), wilds)


def showdown_pictures(rng: random.Random, n: int, wilds: tuple[WildRank, ...]) -> list[ShowdownPicture]:
    """``n`` random 7-hand showdowns, the first hand winning."""
    deck = list(FULL_DECK)
    out = []
    for h in range(n):
        rng.shuffle(deck)
        hands = tuple(ShownHand(name, tuple(deck[7 * i: 7 * i + 7]), 120 if i == 0 else 0)
                      for i, name in enumerate(NAMES[:7]))
        out.append(ShowdownPicture(f"Hand #{h} · showdown", hands, wilds))
    return out


def timed(items: list[T], draw: Callable[[T], bytes]) -> dict[str, float]:
    """Wall and CPU milliseconds per item (median and 95th percentile) and PNG sizes."""
    wall: list[float] = []
    cpu: list[float] = []
    sizes: list[int] = []
    for item in items:
        w0, c0 = time.perf_counter(), time.process_time()
        png = draw(item)
        cpu.append((time.process_time() - c0) * 1000)
        wall.append((time.perf_counter() - w0) * 1000)
        sizes.append(len(png))
    wall.sort()
    cpu.sort()
    return {
        "median_ms": statistics.median(wall), "p95_ms": wall[max(0, int(len(wall) * 0.95) - 1)],
        "cpu_median_ms": statistics.median(cpu), "cpu_p95_ms": cpu[max(0, int(len(cpu) * 0.95) - 1)],
        "max_bytes": max(sizes), "median_bytes": statistics.median(sizes), "n": len(items),
    }


def line(name: str, r: dict[str, float], target: float | None = None) -> str:
    goal = f" (target <= {target:g})" if target is not None else ""
    return (f"{name}: median {r['median_ms']:.2f} ms wall, {r['cpu_median_ms']:.2f} ms CPU{goal}; "
            f"p95 {r['p95_ms']:.2f} / {r['cpu_p95_ms']:.2f} ms; PNG median {r['median_bytes']:,.0f} B, "
            f"largest {r['max_bytes']:,} B; n={r['n']}")


def encoders(rng: random.Random, n: int = 30) -> None:
    """Print CPU ms and median bytes of each way to write ``n`` random 8-seat table pictures."""
    import io

    from isal import isal_zlib
    from PIL import Image

    from bot.render.layers import to_palette
    from bot.render.pictures import _palette, render_table

    rgbs = [render_table(make_state(rng)) for _ in range(n)]
    palettes = [to_palette(img, _palette()) for img in rgbs]

    def saved(fmt: str, **options: Any) -> Callable[[Image.Image], bytes]:
        def write(img: Image.Image) -> bytes:
            buf = io.BytesIO()
            img.save(buf, fmt, **options)
            return buf.getvalue()
        return write

    def deflate(level: int) -> Callable[[bytes], bytes]:
        return lambda data: isal_zlib.compress(data, level)

    def rows(img: Image.Image) -> bytes:
        framed = Image.new("P", (img.width + 1, img.height), 0)
        framed.paste(img, (1, 0))
        return framed.tobytes()

    raw = [rows(img) for img in palettes]
    ways: list[tuple[str, list[Any], Callable[[Any], bytes]]] = [
        (f"Pillow PNG, palette, zlib level {lv}", palettes, saved("PNG", compress_level=lv))
        for lv in (0, 1, 3, 6, 9)
    ]
    ways += [
        ("Pillow PNG, RGB, zlib level 1", rgbs, saved("PNG", compress_level=1)),
        ("JPEG quality 90 (lossy)", rgbs, saved("JPEG", quality=90)),
        ("WebP lossless, method 0, palette", palettes, saved("WEBP", lossless=True, method=0)),
        ("palette to PNG rows (mapping, no deflate)", rgbs, lambda im: rows(to_palette(im, _palette()))),
    ]
    ways += [(f"ISA-L deflate level {lv}, unfiltered rows", raw, deflate(lv)) for lv in (0, 1, 2, 3)]
    for name, items, write in ways:
        start = time.process_time()
        sizes = [len(write(item)) for item in items]
        ms = (time.process_time() - start) * 1000 / len(items)
        print(f"{name}: {ms:.2f} ms CPU, median {statistics.median(sizes):,.0f} B")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--states", type=int, default=300, help="cold table states per run")
    parser.add_argument("--hands", type=int, default=20, help="hands played for the clicks figures")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--json", type=Path, help="write the figures here as JSON")
    parser.add_argument("--encoders", action="store_true", help="compare ways to write the PNG instead")
    parser.add_argument("--tables", type=int, default=1000, help="tables taken in turn (0: skip that figure)")
    parser.add_argument("--rounds", type=int, default=3, help="clicks per table for --tables")
    args = parser.parse_args(argv)

    rng = random.Random(args.seed)
    if args.encoders:
        encoders(rng)
        return 0
    first = make_state(rng)
    start = time.perf_counter()
    table_png(first)
    cold_ms = (time.perf_counter() - start) * 1000

    deck = list(FULL_DECK)
    rng.shuffle(deck)
    own = tuple(deck[:6])
    dm_first = HandPicture("Hand #41 · sixth street · Ann", own, own[2:], first.wilds)
    start = time.perf_counter()
    hand_png(dm_first)
    dm_cold_ms = (time.perf_counter() - start) * 1000

    out: dict[str, Any] = {"first_table_ms": cold_ms, "first_dm_ms": dm_cold_ms}
    print(f"python {platform.python_version()} on {platform.machine()}, {args.runs} runs")
    print(f"first table picture (cold caches): {cold_ms:.1f} ms; first DM picture: {dm_cold_ms:.1f} ms")
    for n_seats in (4, 8):
        clicks = [[p for h in range(args.hands) for p in hand_clicks(rng, n_seats, 100 + h, n_seats)]
                  for _ in range(args.runs)]
        runs = [timed(run, table_png) for run in clicks]
        best = min(runs, key=lambda r: r["cpu_median_ms"])
        out[f"clicks_{n_seats}"] = best
        target = TABLE_TARGET_MS if n_seats == 8 else None
        print(line(f"table, a hand's clicks, {n_seats} seats", best, target))
    if args.tables:
        played = [list(hand_clicks(rng, 8, 200 + t, 200 + t))[: args.rounds + 1] for t in range(args.tables)]
        for clicks in played:
            table_png(clicks[0])                                # the first round: not counted
        turns = [c[r] for r in range(1, args.rounds + 1) for c in played if r < len(c)]
        many = timed(turns, table_png)
        out["many_tables"] = many
        print(line(f"table, {args.tables:,} tables in turn, 8 seats", many))
    runs = [timed([make_state(rng) for _ in range(args.states)], table_png) for _ in range(args.runs)]
    cold = min(runs, key=lambda r: r["cpu_median_ms"])
    out["cold_8"] = cold
    print(line("table, cold, 8 seats", cold))

    for h in range(4):                                  # every card face drawn once, as in a running bot
        for pic in dm_pictures(rng, 6, 900 + h):
            hand_png(pic)
    dealt = [[p for h in range(args.hands) for p in dm_pictures(rng, 6, 1_000 * (run + 1) + h)]
             for run in range(args.runs)]
    dm_new = min((timed(pics, hand_png) for pics in dealt), key=lambda r: r["cpu_median_ms"])
    dms = []
    for h in range(60):
        rng.shuffle(deck)
        cards = tuple(deck[:6])
        dms.append(HandPicture(f"Hand #{h} · sixth street · Ann", cards, cards[2:], first.wilds))
    timed(dms, hand_png)                                # drawn once: the timed runs repeat them
    dm = min((timed(dms, hand_png) for _ in range(args.runs)), key=lambda r: r["cpu_median_ms"])
    sd_new = min((timed(showdown_pictures(rng, 20, first.wilds), showdown_png) for _ in range(args.runs)),
                 key=lambda r: r["cpu_median_ms"])
    sds = showdown_pictures(rng, 20, first.wilds)
    timed(sds, showdown_png)
    sd = min((timed(sds, showdown_png) for _ in range(args.runs)), key=lambda r: r["cpu_median_ms"])
    out["dm_new"], out["dm"], out["showdown_new"], out["showdown"] = dm_new, dm, sd_new, sd
    print(line("DM picture, new hands as in play (3 to 7 cards)", dm_new, DM_TARGET_MS))
    print(line("DM picture, repeated (6 cards, all from the caches)", dm))
    print(line("7-hand showdown, new", sd_new, SHOWDOWN_TARGET_MS))
    print(line("7-hand showdown, repeated", sd))

    ok = (out["clicks_8"]["cpu_median_ms"] <= TABLE_TARGET_MS and dm_new["cpu_median_ms"] <= DM_TARGET_MS
          and sd_new["cpu_median_ms"] <= SHOWDOWN_TARGET_MS and cold["max_bytes"] <= TARGET_BYTES)
    print("within targets (CPU medians)" if ok else "OVER TARGET")
    if args.json:
        args.json.write_text(json.dumps(out, indent=2))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
