"""Components V2 (message flag ``IS_COMPONENTS_V2``, 1 << 15), checked as Discord checks them.

A message with the flag carries its whole body in ``components``: no ``content``, ``embeds``,
``poll`` or ``stickers``; the flag, once on a message, cannot be removed. Its tree:

* top level: action row (1), section (9), text display (10), media gallery (12), file (13),
  separator (14), container (17);
* a container holds the same except another container;
* a section holds 1 to 3 text displays and one accessory, a button (2) or a thumbnail (11);
* an action row holds 1 to 5 buttons or exactly one select;
* a media gallery holds 1 to 10 items, each ``{"media": {"url"}}``;
* every media URL is ``http(s)://`` or ``attachment://NAME``, where NAME is a file uploaded with
  the same request (on an edit, also a file the message keeps); a file component (13) takes
  ``attachment://`` only;
* at most 40 components in all (every nesting level counts) and at most 4,000 characters of text
  over all text displays.

Refusals raise ``DiscordError`` 400 / 50035 with Discord's ``errors`` shape
(``{"components.0.components.1": {"_errors": [{"code", "message"}]}}``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

JSON = dict[str, Any]

IS_COMPONENTS_V2 = 1 << 15

ACTION_ROW, BUTTON, SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER = (
    1,
    2,
    9,
    10,
    11,
    12,
    13,
    14,
    17,
)
SELECTS = frozenset({3, 5, 6, 7, 8})
TOP_LEVEL = frozenset({ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER})
IN_CONTAINER = TOP_LEVEL - {CONTAINER}
MAX_COMPONENTS = 40
MAX_TEXT = 4000


def check_v2(
    payload: JSON,
    uploads: Iterable[str],
    *,
    error: Callable[[str, str, str], Exception],
    current_flags: int | None = None,
    current_content: str = "",
    current_embeds: int = 0,
    kept: Iterable[str] = (),
) -> bool:
    """Check a message body (create when ``current_flags`` is ``None``, else an edit of a message
    with those flags). ``uploads``: file names uploaded with the request; ``kept``: names of files
    an edited message keeps. ``error(field, code, message)`` builds the exception to raise.

    Returns whether the message is (or becomes) a Components V2 message.
    """
    flags = payload.get("flags")
    new_v2 = bool(int(flags or 0) & IS_COMPONENTS_V2)
    old_v2 = bool((current_flags or 0) & IS_COMPONENTS_V2)
    if old_v2 and flags is not None and not new_v2:
        raise error(
            "flags",
            "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG",
            "The IS_COMPONENTS_V2 flag cannot be removed from a message",
        )
    if not (new_v2 or old_v2):
        return False
    content = payload.get("content", current_content if current_flags is not None else "")
    if content:
        raise error(
            "content",
            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
            "The 'content' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
        )
    embeds = payload.get("embeds") if "embeds" in payload else ([None] * current_embeds)
    if embeds:
        raise error(
            "embeds",
            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
            "The 'embeds' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
        )
    for legacy in ("poll", "sticker_ids"):
        if payload.get(legacy):
            raise error(
                legacy,
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                f"The '{legacy}' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
            )
    if "components" not in payload:
        return True
    components = payload.get("components") or []
    files = set(uploads) | set(kept)
    state = {"count": 0, "text": 0}
    for i, comp in enumerate(components):
        _check(comp, f"components.{i}", TOP_LEVEL, files, state, error)
    if state["count"] > MAX_COMPONENTS:
        raise error(
            "components",
            "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED",
            f"A message can have at most {MAX_COMPONENTS} components, got {state['count']}",
        )
    if state["text"] > MAX_TEXT:
        raise error(
            "components",
            "COMPONENT_MAX_TOTAL_TEXT_EXCEEDED",
            f"The text of all components can be at most {MAX_TEXT} characters, got {state['text']}",
        )
    return True


def _check(
    comp: JSON,
    where: str,
    allowed: frozenset[int],
    files: set[str],
    state: dict[str, int],
    error: Callable[[str, str, str], Exception],
) -> None:
    state["count"] += 1
    kind = comp.get("type")
    if kind not in allowed:
        raise error(where, "UNION_TYPE_CHOICES", f"Component type {kind} is not allowed here")
    if kind == CONTAINER:
        inner = comp.get("components") or []
        if not inner:
            raise error(
                f"{where}.components", "BASE_TYPE_BAD_LENGTH", "A container holds at least 1 component"
            )
        for j, child in enumerate(inner):
            _check(child, f"{where}.components.{j}", IN_CONTAINER, files, state, error)
    elif kind == SECTION:
        inner = comp.get("components") or []
        if not 1 <= len(inner) <= 3:
            raise error(f"{where}.components", "BASE_TYPE_BAD_LENGTH", "A section holds 1 to 3 text displays")
        for j, child in enumerate(inner):
            _check(child, f"{where}.components.{j}", frozenset({TEXT_DISPLAY}), files, state, error)
        accessory = comp.get("accessory")
        if accessory is None:
            raise error(f"{where}.accessory", "BASE_TYPE_REQUIRED", "A section needs an accessory")
        _check(accessory, f"{where}.accessory", frozenset({BUTTON, THUMBNAIL}), files, state, error)
    elif kind == ACTION_ROW:
        inner = comp.get("components") or []
        selects = [c for c in inner if c.get("type") in SELECTS]
        if not 1 <= len(inner) <= 5 or (selects and len(inner) > 1):
            raise error(
                f"{where}.components",
                "BASE_TYPE_BAD_LENGTH",
                "A row holds 1 to 5 buttons or exactly one select",
            )
        for j, child in enumerate(inner):
            _check(child, f"{where}.components.{j}", frozenset({BUTTON} | SELECTS), files, state, error)
    elif kind == TEXT_DISPLAY:
        content = comp.get("content")
        if not isinstance(content, str) or not content:
            raise error(f"{where}.content", "BASE_TYPE_REQUIRED", "A text display needs content")
        state["text"] += len(content)
    elif kind == MEDIA_GALLERY:
        items = comp.get("items") or []
        if not 1 <= len(items) <= 10:
            raise error(f"{where}.items", "BASE_TYPE_BAD_LENGTH", "A media gallery holds 1 to 10 items")
        for j, item in enumerate(items):
            _media((item.get("media") or {}).get("url"), f"{where}.items.{j}.media.url", files, error)
    elif kind == THUMBNAIL:
        _media((comp.get("media") or {}).get("url"), f"{where}.media.url", files, error)
    elif kind == FILE:
        url = (comp.get("file") or {}).get("url")
        if not (isinstance(url, str) and url.startswith("attachment://")):
            raise error(
                f"{where}.file.url",
                "UNFURLED_MEDIA_ITEM_INVALID_SCHEME",
                "A file component takes an attachment:// URL",
            )
        _media(url, f"{where}.file.url", files, error)
    elif kind == SEPARATOR:
        spacing = comp.get("spacing", 1)
        if spacing not in (1, 2):
            raise error(f"{where}.spacing", "BASE_TYPE_CHOICES", "Spacing is 1 (small) or 2 (large)")


def _media(url: Any, where: str, files: set[str], error: Callable[[str, str, str], Exception]) -> None:
    if not isinstance(url, str) or not url:
        raise error(where, "BASE_TYPE_REQUIRED", "A media item needs a URL")
    if url.startswith("attachment://"):
        name = url[len("attachment://") :]
        if name not in files:
            raise error(
                where,
                "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
                f"attachment://{name} does not match a file uploaded with this request",
            )
    elif not url.startswith(("https://", "http://")):
        raise error(where, "UNFURLED_MEDIA_ITEM_INVALID_SCHEME", "Media URLs are http(s):// or attachment://")
