"""Interactions as the fake injects them, and what the bot answered.

:class:`FakeInteraction` is what the drivers (``fake.slash``, ``fake.click``, ...) return: the
INTERACTION_CREATE payload that was sent, every callback the bot posted (``callbacks``), the
message it created or edited, its followups, a modal it opened, autocomplete choices.

The helpers below build the ``data`` part of an application-command interaction from a command
path (``"table create"``) and a dict of option values, checked against the command's schema the way
the Discord client checks what a member types.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .models import (
    JSON,
    FakeAttachment,
    FakeChannel,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    iter_components,
)

if TYPE_CHECKING:
    from .server import FakeDiscord

#: Interaction types (Discord API).
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

#: Interaction callback types (Discord API).
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9

#: Application command option types (Discord API).
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 3, 4, 5, 6, 7, 8, 9, 10, 11


@dataclass(eq=False)
class FakeInteraction:
    """One interaction a member started, and everything the bot answered to it.

    Attributes:
        callbacks: every ``POST /interactions/{id}/{token}/callback`` body accepted, in order
            (normally one: ``{"type": 4|5|6|7|8|9, "data": {...}}``).
        original: the message the initial response created (types 4 and 5), or the component's
            message for types 6 and 7. It is live: later edits show up in it.
        followups: messages sent with ``interaction.followup.send``, in order (the first followup
            after a type-5 defer *is* ``original``, as on Discord, and is not repeated here).
        rejected: callbacks the fake refused, as ``"10062 Unknown interaction"`` (too late) or
            ``"40060 Interaction has already been acknowledged"``.
    """

    fake: FakeDiscord
    id: int
    token: str
    type: int
    user: FakeUser
    member: FakeMember | None
    channel: FakeChannel
    payload: JSON
    label: str
    created: float
    source_message: FakeMessage | None = None
    callbacks: list[JSON] = field(default_factory=list)
    original: FakeMessage | None = None
    followups: list[FakeMessage] = field(default_factory=list)
    rejected: list[str] = field(default_factory=list)

    # -- what the bot answered -------------------------------------------------------------

    @property
    def response_type(self) -> int | None:
        """The accepted initial callback type (4, 5, 6, 7, 8 or 9), or None if none yet."""
        return self.callbacks[0]["type"] if self.callbacks else None

    @property
    def responded(self) -> bool:
        """True once the bot acknowledged the interaction in time."""
        return bool(self.callbacks)

    @property
    def deferred(self) -> bool:
        """True if the initial response was a defer (type 5 or 6)."""
        return self.response_type in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE)

    @property
    def ephemeral(self) -> bool:
        """True if the interaction's own response message is ephemeral (flag 64)."""
        return (
            self.original is not None and self.original is not self.source_message and self.original.ephemeral
        )

    @property
    def messages(self) -> list[FakeMessage]:
        """Messages this interaction created: the response message (types 4/5) then followups."""
        own = [] if self.original is None or self.original is self.source_message else [self.original]
        return [m for m in own + self.followups if not m.deleted]

    @property
    def text(self) -> str:
        """The text of :attr:`messages`, joined by newlines (for a type 7 update see ``original``)."""
        return "\n".join(m.text for m in self.messages)

    @property
    def modal(self) -> JSON | None:
        """The modal the bot opened (``{"custom_id", "title", "components"}``), if it answered type 9."""
        for cb in self.callbacks:
            if cb["type"] == MODAL:
                data: JSON = cb.get("data") or {}
                return data
        return None

    @property
    def choices(self) -> list[JSON] | None:
        """Autocomplete choices (``[{"name", "value"}, ...]``) if the bot answered type 8."""
        for cb in self.callbacks:
            if cb["type"] == AUTOCOMPLETE_RESULT:
                data: JSON = cb.get("data") or {}
                return list(data.get("choices", []))
        return None

    @property
    def choice_values(self) -> list[Any]:
        """Just the values of :attr:`choices` (empty if none)."""
        return [c["value"] for c in self.choices or []]

    # -- waiting -----------------------------------------------------------------------------

    async def wait_until(self, predicate: Callable[[FakeInteraction], bool], within: float = 5.0) -> None:
        """Wait until ``predicate(self)`` holds; raises ``AssertionError`` after ``within`` s."""
        await self.fake.wait_for(lambda: predicate(self), within=within, what=f"{self.label}: condition")

    async def wait_response(self, within: float = 5.0) -> None:
        """Wait for the initial callback; if it was a type-5 defer, also for the deferred answer."""
        await self.fake.wait_for(self._answered, within=within, what=f"{self.label}: a response")

    async def wait_followups(self, count: int = 1, within: float = 5.0) -> None:
        """Wait until at least ``count`` followups were sent."""
        await self.fake.wait_for(
            lambda: len(self.followups) >= count, within=within, what=f"{self.label}: {count} followup(s)"
        )

    def _answered(self) -> bool:
        if not self.callbacks:
            return False
        if self.response_type == DEFERRED_CHANNEL_MESSAGE:
            return self.original is not None and not self.original.loading
        return True

    def __repr__(self) -> str:
        return f"<FakeInteraction {self.label!r} id={self.id} response_type={self.response_type}>"


# -- building application-command data ---------------------------------------------------------


@dataclass
class Resolved:
    """The ``data.resolved`` maps of an interaction, filled while encoding options."""

    users: dict[str, JSON] = field(default_factory=dict)
    members: dict[str, JSON] = field(default_factory=dict)
    roles: dict[str, JSON] = field(default_factory=dict)
    channels: dict[str, JSON] = field(default_factory=dict)
    attachments: dict[str, JSON] = field(default_factory=dict)

    def payload(self) -> JSON:
        """Only the non-empty maps, as Discord sends them."""
        out: JSON = {}
        for key in ("users", "members", "roles", "channels", "attachments"):
            value = getattr(self, key)
            if value:
                out[key] = value
        return out


def _infer_type(value: Any) -> int:
    if isinstance(value, bool):
        return BOOLEAN
    if isinstance(value, int):
        return INTEGER
    if isinstance(value, float):
        return NUMBER
    if isinstance(value, str):
        return STRING
    if isinstance(value, FakeMember | FakeUser):
        return USER
    if isinstance(value, FakeRole):
        return ROLE
    if isinstance(value, FakeChannel):
        return CHANNEL
    if isinstance(value, FakeAttachment):
        return ATTACHMENT
    raise TypeError(f"cannot send {value!r} as a slash-command option")


def encode_value(value: Any, opt_type: int, name: str, resolved: Resolved, *, focused: bool) -> JSON:
    """One option ``{"name", "type", "value"}``, adding users/roles/... to ``resolved``.

    A focused autocomplete option is sent as the raw string the member is typing.
    """
    option: JSON = {"name": name, "type": opt_type}
    if focused:
        option["value"] = value if isinstance(value, str) else str(value)
        option["focused"] = True
        return option
    if opt_type in (USER, MENTIONABLE) and isinstance(value, FakeMember | FakeUser):
        user = value.user if isinstance(value, FakeMember) else value
        resolved.users[str(user.id)] = user.payload()
        if isinstance(value, FakeMember):
            resolved.members[str(user.id)] = value.payload(with_user=False, with_permissions=True)
        option["value"] = str(user.id)
    elif opt_type in (ROLE, MENTIONABLE) and isinstance(value, FakeRole):
        resolved.roles[str(value.id)] = value.payload()
        option["value"] = str(value.id)
    elif opt_type == CHANNEL and isinstance(value, FakeChannel):
        ch = value.payload()
        ch["permissions"] = str((1 << 53) - 1)
        resolved.channels[str(value.id)] = ch
        option["value"] = str(value.id)
    elif opt_type == ATTACHMENT and isinstance(value, FakeAttachment):
        resolved.attachments[str(value.id)] = value.payload()
        option["value"] = str(value.id)
    elif opt_type == STRING and isinstance(value, str):
        option["value"] = value
    elif opt_type == INTEGER and isinstance(value, int) and not isinstance(value, bool):
        option["value"] = value
    elif opt_type == NUMBER and isinstance(value, int | float) and not isinstance(value, bool):
        option["value"] = value
    elif opt_type == BOOLEAN and isinstance(value, bool):
        option["value"] = value
    else:
        raise TypeError(f"option {name!r} has type {opt_type}; the Discord client would not accept {value!r}")
    return option


def _check_schema_value(spec: JSON, value: Any) -> None:
    name = spec["name"]
    choices = spec.get("choices")
    if choices:
        allowed = [c["value"] for c in choices]
        if value not in allowed:
            raise ValueError(f"option {name!r} must be one of {allowed}, not {value!r}")
    if isinstance(value, int | float) and not isinstance(value, bool):
        if "min_value" in spec and value < spec["min_value"]:
            raise ValueError(f"option {name!r} is below its min_value {spec['min_value']}")
        if "max_value" in spec and value > spec["max_value"]:
            raise ValueError(f"option {name!r} is above its max_value {spec['max_value']}")
    if isinstance(value, str):
        if "min_length" in spec and len(value) < spec["min_length"]:
            raise ValueError(f"option {name!r} is shorter than min_length {spec['min_length']}")
        if "max_length" in spec and len(value) > spec["max_length"]:
            raise ValueError(f"option {name!r} is longer than max_length {spec['max_length']}")


def encode_options(
    specs: list[JSON] | None,
    values: Mapping[str, Any],
    resolved: Resolved,
    *,
    focused: str | None,
    where: str,
) -> list[JSON]:
    """Encode leaf options for one (sub)command.

    With ``specs`` (the command's schema), option names, types, ``required``, choices and
    min/max are checked like the Discord client does (raising ``ValueError``/``TypeError``);
    without a schema, types are inferred from the Python values.
    """
    if focused is not None and focused not in values:
        raise ValueError(f"focused option {focused!r} has no value")
    out: list[JSON] = []
    if specs is None:
        for name, value in values.items():
            out.append(encode_value(value, _infer_type(value), name, resolved, focused=name == focused))
        return out
    by_name = {s["name"]: s for s in specs}
    unknown = set(values) - set(by_name)
    if unknown:
        raise ValueError(f"{where} has no option(s) {sorted(unknown)}; it has {sorted(by_name)}")
    for spec in specs:
        name = spec["name"]
        if name not in values:
            if spec.get("required") and focused is None:
                raise ValueError(f"{where} requires option {name!r}")
            continue
        value = values[name]
        is_focused = name == focused
        if not is_focused:
            _check_schema_value(spec, value)
        out.append(encode_value(value, int(spec["type"]), name, resolved, focused=is_focused))
    return out


def build_command_data(
    path: str,
    values: Mapping[str, Any],
    schema: JSON | None,
    *,
    command_id: int,
    guild_id: int | None,
    focused: str | None = None,
) -> JSON:
    """The ``data`` of an APPLICATION_COMMAND (or AUTOCOMPLETE) interaction for ``path``.

    ``path`` is the command as a member types it without the slash: ``"chips balance"`` or
    ``"ruling set"`` or a three-part ``"group sub command"``.
    """
    parts = path.strip().lstrip("/").split()
    if not 1 <= len(parts) <= 3:
        raise ValueError(f"bad command path {path!r}")
    resolved = Resolved()
    # Walk the schema down to the leaf command, remembering the chain of subcommand nodes.
    chain: list[tuple[str, int]] = []
    node_options: list[JSON] | None = None if schema is None else list(schema.get("options", []))
    for depth, part in enumerate(parts[1:], start=1):
        if node_options is None:
            kind = SUB_COMMAND if depth == len(parts) - 1 else SUB_COMMAND_GROUP
        else:
            match = [
                o for o in node_options if o["name"] == part and o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)
            ]
            if not match:
                subs = [o["name"] for o in node_options if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]
                raise ValueError(f"/{' '.join(parts[:depth])} has no subcommand {part!r}; it has {subs}")
            kind = int(match[0]["type"])
            node_options = list(match[0].get("options", []))
        chain.append((part, kind))
    if node_options is not None and any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in node_options):
        raise ValueError(f"/{' '.join(parts)} is a group: name one of its subcommands")
    leaf = encode_options(node_options, values, resolved, focused=focused, where=f"/{' '.join(parts)}")
    options = leaf
    for name, kind in reversed(chain):
        options = [{"name": name, "type": kind, "options": options}]
    data: JSON = {"id": str(command_id), "name": parts[0], "type": 1, "options": options}
    res = resolved.payload()
    if res:
        data["resolved"] = res
    if guild_id is not None:
        data["guild_id"] = str(guild_id)
    return data


def modal_submit_components(modal: JSON, values: Mapping[str, Any]) -> list[JSON]:
    """The ``data.components`` of a MODAL_SUBMIT, mirroring the modal's layout.

    ``values`` is keyed by a text input's ``custom_id`` or its label (the Label component's
    label for the newer layout). A string value fills a text input; a list of strings fills a
    select. Unknown keys raise ``ValueError``; required inputs left out raise too.
    """
    used: set[str] = set()

    def fill(component: JSON, label: str | None) -> JSON:
        ctype = component.get("type")
        custom_id = component.get("custom_id", "")
        keys = [k for k in (custom_id, label, component.get("label")) if k]
        key = next((k for k in keys if k in values), None)
        if ctype == 4:  # text input
            if key is None:
                if component.get("required", True) and not component.get("value"):
                    raise ValueError(f"modal input {keys[-1] if keys else custom_id!r} is required")
                value = component.get("value") or ""
            else:
                used.add(key)
                value = str(values[key])
            return {"type": 4, "custom_id": custom_id, "value": value}
        if key is not None:
            used.add(key)
            raw = values[key]
            chosen = [str(v) for v in raw] if isinstance(raw, list | tuple) else [str(raw)]
        else:
            chosen = []
        return {"type": ctype, "custom_id": custom_id, "values": chosen}

    out: list[JSON] = []
    for comp in modal.get("components", []):
        if comp.get("type") == 1:
            out.append({"type": 1, "components": [fill(c, None) for c in comp.get("components", [])]})
        elif comp.get("type") == 18:
            out.append({"type": 18, "component": fill(comp["component"], comp.get("label"))})
        elif comp.get("type") == 10:
            continue
        else:
            out.append(fill(comp, None))
    unknown = set(values) - used
    if unknown:
        have = [c.get("custom_id") or c.get("label") for c in iter_components(modal.get("components", []))]
        raise ValueError(f"modal has no input(s) {sorted(unknown)}; it has {have}")
    return out
