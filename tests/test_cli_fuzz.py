"""Fuzzing the command line (issue 14): malformed hand histories for ``replay``, malformed JSON lines
for ``evaluate --jsonl`` and damaged or foreign files for the ``--db`` commands.

Whatever the input, the command must end with exit status 0, 1 or 2 (never an exception escaping
``main``, which would be a traceback), print at most one line on standard error (exactly one when it
refuses the input with 2), and leave the input file byte for byte as it was.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.cli import main
from bot.store import Store

HANDS = sorted((Path(__file__).parent / "hands").glob("*.toml"))
FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def run_main(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    """``main(argv)`` with standard input, output and error captured in memory."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(argv)
    finally:
        sys.stdin = saved
    return status, out.getvalue(), err.getvalue()


def check_outcome(status: int, err: str) -> None:
    assert status in (0, 1, 2), status
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) <= 1, err
    if status == 2:
        assert len(lines) == 1 and lines[0].strip(), err


# -- values in TOML and JSON ---------------------------------------------------------------------
scalars = st.one_of(
    st.integers(-(2**70), 2**70), st.floats(allow_nan=False, allow_infinity=False), st.booleans(),
    st.text(max_size=20), st.sampled_from(["F7S", "N7S", "P7S", "p1 cc", "d dh p1 ????", "Ah", "5"]),
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from("abc"), inner, max_size=3),
    max_leaves=12,
)


def toml_value(value: Any) -> str:
    """Render ``value`` as a TOML value (inline arrays and tables)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return "{" + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + "}"


@st.composite
def broken_history(draw: st.DrawFn) -> bytes:
    """A hand history from tests/hands with a few lines changed, dropped, cut short or nested deep."""
    lines = draw(st.sampled_from(HANDS)).read_text(encoding="utf-8").splitlines()
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(lines) - 1))
        kind = draw(st.sampled_from(["value", "drop", "deep", "noise", "cut"]))
        key = lines[at].split("=")[0].strip() or "variant"
        if kind == "value":
            lines[at] = f"{key} = {toml_value(draw(values))}"
        elif kind == "drop":
            del lines[at]
        elif kind == "deep":
            depth = draw(st.integers(100, 1500))
            lines[at] = f"{key} = " + "[" * depth + "]" * depth
        elif kind == "noise":
            lines[at] = draw(st.text(max_size=40))
        else:
            lines[at] = lines[at][: draw(st.integers(0, len(lines[at])))]
        if not lines:
            break
    text = "\n".join(lines).encode("utf-8", "surrogatepass")
    if draw(st.booleans()):                  # a flipped byte or two (maybe not UTF-8 any more)
        for _ in range(draw(st.integers(1, 2))):
            if text:
                i = draw(st.integers(0, len(text) - 1))
                text = text[:i] + bytes([draw(st.integers(0, 255))]) + text[i + 1 :]
    return text


@FUZZ
@given(data=broken_history(), as_json=st.booleans())
@example(data=b'variant = ["F7S"]\n', as_json=False)       # the kinds the issue found
@example(data=b'variant = {a = 1}\n', as_json=True)
@example(data=b"x = " + b"[" * 600 + b"]" * 600 + b"\n", as_json=False)
def test_replay_of_a_broken_history(data: bytes, as_json: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "hand.toml"
        path.write_bytes(data)
        status, _, err = run_main(["replay", str(path), *(["--json"] if as_json else [])])
        check_outcome(status, err)
        assert path.read_bytes() == data


json_lines = st.one_of(
    values.map(lambda v: json.dumps(v)),
    st.builds(lambda cards, wild: json.dumps({"cards": cards, "wild": wild}), values, values),
    st.integers(100, 3000).map(lambda d: '{"cards": ' + "[" * d + "]" * d + "}"),
    st.text(max_size=60).filter(lambda t: "\n" not in t and "\r" not in t),
)
GOOD = '{"cards": ["Ah", "Kd", "5c", "2s", "9h"]}'


@FUZZ
@given(lines=st.lists(json_lines, min_size=1, max_size=5))
def test_evaluate_jsonl_answers_every_line(lines: list[str]) -> None:
    # A good line goes last: a bad line before it must not cost the later answers.
    text = "\n".join([*lines, GOOD]) + "\n"
    status, out, err = run_main(["evaluate", "--jsonl"], stdin=text)
    check_outcome(status, err)
    expected = [line for line in text.split("\n") if line.strip()]   # lines end at "\n" only
    answers = out.split("\n")[:-1]
    assert len(answers) == len(expected)
    assert all(isinstance(json.loads(a), dict) for a in answers)
    assert "category" in json.loads(answers[-1])


@functools.cache
def sample_database() -> bytes:
    """The bytes of a small, used database (a transfer, a table, a settled hand)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "db.sqlite3"

        async def build() -> None:
            async with await Store.open(path) as store:
                await store.transfer(100, 11, 12, 100)
                table = await store.create_table(100, 9000, 11)
                await store.buy_in(100, table.id, 11, 300)
                await store.buy_in(100, table.id, 12, 300)
                hand = await store.create_hand(table.id, players={1: 11, 2: 12}, deck="Ah", commitment="c",
                                               salt="s")
                await store.append_action(hand, 1, "p1 cbr 20")
                await store.settle_hand(hand, {1: 350, 2: 250}, "phh")

        asyncio.run(build())
        return path.read_bytes()


@st.composite
def damaged_database(draw: st.DrawFn) -> bytes:
    data = sample_database()
    kind = draw(st.sampled_from(["flip", "flip", "cut", "random", "header"]))
    if kind == "random":
        return draw(st.binary(max_size=4096))
    if kind == "cut":
        return data[: draw(st.integers(0, len(data)))]
    if kind == "header":                       # the 100-byte file header, where the schema and sizes live
        i = draw(st.integers(0, 99))
        return data[:i] + bytes([draw(st.integers(0, 255))]) + data[i + 1 :]
    out = bytearray(data)
    for _ in range(draw(st.integers(1, 8))):
        out[draw(st.integers(0, len(out) - 1))] = draw(st.integers(0, 255))
    return bytes(out)


@FUZZ
@given(
    data=damaged_database(),
    command=st.sampled_from([["audit"], ["ledger", "--guild", "100"], ["ledger", "--guild", "100", "--csv"],
                             ["verify", "--hand", "1"], ["verify", "--hand", "2"]]),
)
def test_db_commands_on_a_damaged_database(data: bytes, command: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "db.sqlite3"
        path.write_bytes(data)
        status, _, err = run_main([*command, "--db", str(path)])
        check_outcome(status, err)
        assert path.read_bytes() == data
