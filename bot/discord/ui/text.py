"""Text for Discord messages: code blocks, 2,000-character pieces, sentences, action verbs and
button labels."""

from __future__ import annotations

import re

from bot.engine import vocab
from bot.tables.notices import ActionOption


def code_block(text: str) -> str:
    """Text in a code block (monospace keeps the table's columns); backticks in names are softened.

    >>> code_block("Pot 25")
    '```\\nPot 25\\n```'
    """
    return "```\n" + text.replace("`", "\u02cb") + "\n```"


_ANYWHERE = re.compile(r"[\\*_~`|\[\]<>@]|:(?=/)")
"""Characters that start or end Markdown wherever they stand: the escape itself, emphasis,
underline, strike-through, code, spoilers, masked links, ``<@id>``/``<#id>``/``<t:…>``/``<url>``
forms, block quotes, ``@everyone`` and ``@here``; and the colon of ``https://`` (no autolink)."""

_LINE_START = re.compile(r"(?:(?<=[\n\r])|\A)([ \t]*)(#|-|\+|\d+(?=[.)]))")
"""What only counts at a line's start: headings (``#``, ``##``, ``###``), subtext (``-#``), and
list items (``-``, ``+``, ``1.``, ``1)``)."""


def plain(text: str) -> str:
    """``text`` (names, free text, or lines that hold them) shown as written in a Discord message:
    every Markdown construct Discord renders escaped with a backslash, so a name ``# Ann`` is no
    heading, ``[x](http://e.x)`` no link (however many on a line), ``*a*`` not italic, ``||a||`` no
    spoiler, ``<@id>`` or ``@everyone`` no mention, ``1. Ann`` no list (issue 17). Discord shows a
    backslash before punctuation as the punctuation alone, so the text reads as written.

    >>> print(plain("# Ann raises to 40"))
    \\# Ann raises to 40
    >>> print(plain("[x](http://e.x) calls 10 · [y](https://e.x) · <@1>"))
    \\[x\\](http\\://e.x) calls 10 · \\[y\\](https\\://e.x) · \\<\\@1\\>
    >>> print(plain("1. Ann"), plain("-# Bea"), plain("*Cid*"))
    1\\. Ann \\-# Bea \\*Cid\\*
    """
    text = _ANYWHERE.sub(lambda m: "\\" + m[0], text)
    return _LINE_START.sub(_escape_line_start, text)


_TIMESTAMP = re.compile(r"(<t:-?\d{1,13}(?::[tTdDfFR])?>)")
"""A Discord timestamp (``<t:UNIX:R>``): the one Markdown form the service writes on purpose."""


def plain_but_timestamps(text: str) -> str:
    """``plain(text)`` except Discord timestamps (``<t:1700000000:R>``), which stay live: for the
    service's texts that hold both names and a countdown (``/tournament``).

    >>> print(plain_but_timestamps("*Ann* is in; next level <t:1700000000:R>"))
    \\*Ann\\* is in; next level <t:1700000000:R>
    """
    return "".join(part if i % 2 else plain(part) for i, part in enumerate(_TIMESTAMP.split(text)))


def _escape_line_start(m: re.Match[str]) -> str:
    lead, marker = m[1], m[2]
    return f"{lead}{marker}\\" if marker[0].isdigit() else f"{lead}\\{marker}"


def split_text(text: str, limit: int = 2000) -> list[str]:
    """``text`` in pieces of at most ``limit`` characters, cut at line ends where possible.

    >>> split_text("ab\\ncd", limit=3)
    ['ab', 'cd']
    >>> split_text("")
    ['(nothing)']
    """
    if not text.strip():
        return ["(nothing)"]
    chunks: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:
            if current:
                chunks.append(current)
                current = ""
            chunks.append(line[:limit])
            line = line[limit:]
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            chunks.append(current)
            current = line
        else:
            current = candidate
    if current:
        chunks.append(current)
    return chunks


def sentence(text: str) -> str:
    """``text`` as a sentence: a capital first letter and a closing full stop (the engine's
    reasons are lower-case clauses such as "the smallest complete is to 20").

    >>> sentence("the smallest complete is to 20")
    'The smallest complete is to 20.'
    >>> sentence("It is not your turn: bob is to act.")
    'It is not your turn: bob is to act.'
    """
    text = text.strip()
    if not text:
        return text
    if text[-1] not in ".!?)":
        text += "."
    return text[0].upper() + text[1:]


WAGERS = vocab.WAGERS
"""The engine's names for a voluntary wager; only one of them is legal at a time."""


def button_label(option: ActionOption) -> str:
    """The label of an action's button: ``Fold``, ``Check``, ``Call 10``, ``Bring-in 10``,
    ``Complete to 20``, ``Bet 40``, ``Raise to 80``, ``Raise to 40-980`` (a range: asks for the
    amount), ``All-in 990``, ``Show``, ``Muck``.

    >>> button_label(ActionOption("call", 1000))
    'Call 1,000'
    >>> button_label(ActionOption("raise", 40, 40, 980))
    'Raise to 40-980'
    """
    label = vocab.button_label(option.action, option.amount, option.min_to, option.max_to)
    if option.cards:                      # Crazy Pineapple's discard: one button per card
        label += " " + " ".join(str(c) for c in option.cards)
    return label


def describe(action: str, amount: int | None) -> str:
    """``call 10``, ``raise to 80``, ``fold``: what a player did, in words."""
    return vocab.imperative(action, amount)


