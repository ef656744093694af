"""Discord's REST rate limits, as the fake applies them (Discord docs, "Rate Limits").

* **Per-route buckets**, counted per top-level resource of the path (``channel_id``, ``guild_id``,
  or the webhook id + token). Every answer from a limited route carries
  ``X-RateLimit-Limit``, ``-Remaining``, ``-Reset`` (epoch seconds), ``-Reset-After`` (seconds)
  and ``-Bucket`` (an opaque hash that leaves the top-level resource out, as Discord's does).
* Creating, editing and deleting messages in one channel share **one bucket of 5 per 5 s**.
* **Interaction callbacks and the interaction's webhook** (follow-ups, ``@original``) share one
  bucket per interaction token (5 per 5 s) and do not count towards the global limit.
* **The global limit**: 50 requests per second per bot token, over every other route.
* Over a limit: **429** with ``{"message", "retry_after" (seconds), "global"}``, ``Retry-After``,
  ``X-RateLimit-Scope`` (``user`` or ``global``), ``X-RateLimit-Global: true`` for the global
  limit, and ``Via`` (discord.py treats a 429 without it as a Cloudflare ban).

Windows are fixed: a bucket's window opens with its first request and resets ``per`` seconds
later. ``time_scale`` multiplies every window (and so every ``Reset-After`` and ``retry_after``):
0.01 turns "5 per 5 s" into "5 per 50 ms", so tests run fast while discord.py still paces itself
exactly as it would against Discord. The limits cannot be switched off.
"""

from __future__ import annotations

import asyncio
import contextvars
import hashlib
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord
import yarl

#: (limit, seconds) of each kind of bucket, before the time scale.
MESSAGES = (5, 5.0)
INTERACTION = (5, 5.0)
GLOBAL = (50, 1.0)
COMMANDS = (10, 10.0)
DEFAULT = (50, 1.0)


@dataclass
class Bucket:
    """One fixed window: ``count`` requests since ``opened`` (monotonic seconds)."""

    name: str
    limit: int
    per: float
    opened: float | None = None
    count: int = 0

    def roll(self, now: float, per: float) -> None:
        """Open a new window (of ``per`` seconds) if none is open at ``now``."""
        if self.opened is None or now >= self.opened + self.per:
            self.opened = now
            self.per = per
            self.count = 0

    def reset_after(self, now: float) -> float:
        return max(0.0, (self.opened if self.opened is not None else now) + self.per - now)


@dataclass(frozen=True)
class Decision:
    """What the limiter said about one request.

    ``bucket``: the fake's bucket key (kind + top-level resource). ``limited``: ``None`` if the
    request went through, else ``"user"`` (its route bucket was full) or ``"global"``.
    ``remaining``/``reset_after``: as reported in the headers. ``counts_global``: whether the
    request counts towards the global limit.
    """

    bucket: str
    limit: int
    remaining: int
    reset_after: float
    limited: str | None
    retry_after: float
    counts_global: bool
    headers: dict[str, str]


def _ms_up(seconds: float) -> float:
    """Seconds rounded up to the millisecond: a client that waits what it is told is never early."""
    return math.ceil(seconds * 1000) / 1000


def _hash(kind: str) -> str:
    return hashlib.sha1(kind.encode()).hexdigest()[:16]


def classify(method: str, template: str, params: dict[str, str]) -> tuple[str, str, tuple[int, float], bool]:
    """``(kind, top-level resource, (limit, seconds), counts towards global)`` of one route.

    ``template`` is the fake's route pattern (``/channels/{channel_id}/messages``); ``params``
    the values matched in the path.
    """
    if template.startswith(("/interactions/", "/webhooks/")):
        # The callback and the interaction's own webhook: one bucket per interaction token.
        return "interaction", params.get("token", ""), INTERACTION, False
    if template in ("/channels/{channel_id}/messages", "/channels/{channel_id}/messages/{message_id}") and (
        method in ("POST", "PATCH", "DELETE")
    ):
        return "channel-messages", params["channel_id"], MESSAGES, True
    if "{channel_id}" in template:
        return f"{method} {template}", params["channel_id"], DEFAULT, True
    if template.startswith("/applications/") and template.endswith("/commands") and method == "PUT":
        return "commands", params.get("guild_id", "global"), COMMANDS, True
    if "{guild_id}" in template:
        return f"{method} {template}", params["guild_id"], DEFAULT, True
    return f"{method} {template}", "", DEFAULT, True


class RateLimiter:
    """The fake's rate limits: per-route buckets and the global limit (see the module docstring).

    ``time_scale`` (> 0) multiplies every window; change it at any time (new windows use it).
    """

    def __init__(self, time_scale: float = 0.01) -> None:
        self.time_scale = time_scale
        self.buckets: dict[str, Bucket] = {}
        self.global_bucket: dict[str, Bucket] = {}

    @property
    def time_scale(self) -> float:
        """Seconds of fake time per second of Discord's windows (1.0 = real Discord)."""
        return self._time_scale

    @time_scale.setter
    def time_scale(self, value: float) -> None:
        if not value > 0:
            raise ValueError("time_scale must be > 0: the rate limits cannot be turned off")
        self._time_scale = float(value)

    def check(self, method: str, template: str, params: dict[str, str], token: str) -> Decision:
        """Count one request (unless refused) and say whether it may go through."""
        now = time.monotonic()
        kind, resource, (limit, per), counts_global = classify(method, template, params)
        key = f"{kind}:{resource}" if resource else kind
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = self.buckets[key] = Bucket(key, limit, per * self._time_scale)
        bucket.roll(now, per * self._time_scale)
        if counts_global:
            glob = self.global_bucket.get(token)
            if glob is None:
                glob = self.global_bucket[token] = Bucket("global", GLOBAL[0], GLOBAL[1] * self._time_scale)
            glob.roll(now, GLOBAL[1] * self._time_scale)
            if glob.count >= glob.limit:
                retry = _ms_up(glob.reset_after(now))
                return Decision(
                    key,
                    limit,
                    max(0, limit - bucket.count),
                    bucket.reset_after(now),
                    "global",
                    retry,
                    counts_global,
                    self._limited_headers(retry, is_global=True),
                )
        if bucket.count >= bucket.limit:
            retry = _ms_up(bucket.reset_after(now))
            headers = self._headers(kind, bucket, now)
            headers.update(self._limited_headers(retry, is_global=False))
            return Decision(key, limit, 0, retry, "user", retry, counts_global, headers)
        bucket.count += 1
        if counts_global:
            glob.count += 1
        return Decision(
            key,
            limit,
            bucket.limit - bucket.count,
            bucket.reset_after(now),
            None,
            0.0,
            counts_global,
            self._headers(kind, bucket, now),
        )

    @staticmethod
    def _headers(kind: str, bucket: Bucket, now: float) -> dict[str, str]:
        after = _ms_up(bucket.reset_after(now))
        return {
            "X-RateLimit-Limit": str(bucket.limit),
            "X-RateLimit-Remaining": str(max(0, bucket.limit - bucket.count)),
            "X-RateLimit-Reset": f"{time.time() + after:.3f}",
            "X-RateLimit-Reset-After": f"{after:.3f}",
            "X-RateLimit-Bucket": _hash(kind),
        }

    @staticmethod
    def _limited_headers(retry: float, *, is_global: bool) -> dict[str, str]:
        headers = {
            "Via": "1.1 google",
            "Retry-After": str(max(1, math.ceil(retry))),
            "X-RateLimit-Scope": "global" if is_global else "user",
        }
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        return headers

    @staticmethod
    def body(decision: Decision) -> dict[str, object]:
        """The 429 JSON body for a refused request."""
        return {
            "message": "You are being rate limited.",
            "retry_after": _ms_up(decision.retry_after),
            "global": decision.limited == "global",
        }


# -- the client side: how long discord.py held a request back -----------------------------------

_ROUTE: contextvars.ContextVar[tuple[str, str] | None] = contextvars.ContextVar(
    "fake_discord_route", default=None
)


def install_wait_probe(note: Callable[[str, str, float], None]) -> Callable[[], None]:
    """Time discord.py's own pacing: wrap ``HTTPClient.request`` (to know the route) and
    ``Ratelimit.acquire`` (where discord.py waits for a bucket it knows is exhausted), and call
    ``note(method, path, seconds)`` for each request that waited. Returns the function that undoes
    the patch. (Interaction callbacks and webhooks go through discord.py's webhook adapter, which
    instead sleeps after an answer with ``X-RateLimit-Remaining: 0``; the server sees those.)
    """
    client = discord.http.HTTPClient
    limit = discord.http.Ratelimit
    orig_request = client.request
    orig_acquire = limit.acquire

    async def request(self: Any, route: discord.http.Route, **kwargs: Any) -> Any:
        token = _ROUTE.set((route.method, yarl.URL(route.url).path))
        try:
            return await orig_request(self, route, **kwargs)
        finally:
            _ROUTE.reset(token)

    async def acquire(self: Any) -> None:
        loop = asyncio.get_running_loop()
        start = loop.time()
        await orig_acquire(self)
        waited = loop.time() - start
        where = _ROUTE.get()
        if waited > 1e-4 and where is not None:
            note(where[0], where[1], waited)

    client.request = request  # type: ignore[method-assign,assignment]
    limit.acquire = acquire  # type: ignore[method-assign]

    def undo() -> None:
        client.request = orig_request  # type: ignore[method-assign]
        limit.acquire = orig_acquire  # type: ignore[method-assign]

    return undo
