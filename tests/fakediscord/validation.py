"""Validation of message payloads against the limits Discord enforces.

Real Discord answers 400 ``{"code": 50035, "message": "Invalid Form Body", "errors": ...}`` when a
message breaks a limit; the fake does the same, so the bot's tests catch these bugs before
production does.
"""

from __future__ import annotations

from typing import Any

from .models import FLAG_COMPONENTS_V2, JSON

CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TOTAL_MAX = 6000
ATTACHMENTS_MAX = 10
ATTACHMENT_SIZE_LIMIT = 25 * 1024 * 1024
V2_COMPONENTS_MAX = 40  # every component of a components-v2 message, nested ones included
V2_TEXT_MAX = 4000  # the characters of all its text displays together
MEDIA_DESCRIPTION_MAX = 1024
# Component types: 1 action row, 2 button, 3-8 selects, 9 section, 10 text display,
# 11 thumbnail, 12 media gallery, 13 file, 14 separator, 17 container.
V2_ONLY = frozenset({9, 10, 11, 12, 13, 14, 17})
V2_TOP = frozenset({1, 9, 10, 12, 13, 14, 17})
IN_CONTAINER = frozenset({1, 9, 10, 12, 13, 14})
IN_ROW = frozenset({2, 3, 5, 6, 7, 8})


class _Errors:
    def __init__(self) -> None:
        self.tree: JSON = {}

    def add(self, path: list[str | int], code: str, message: str) -> None:
        node = self.tree
        for part in path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def __bool__(self) -> bool:
        return bool(self.tree)


def _check_len(
    errors: _Errors, path: list[str | int], value: Any, maximum: int, *, minimum: int = 0
) -> int:
    if value is None:
        if minimum:
            errors.add(path, "BASE_TYPE_REQUIRED", "This field is required")
        return 0
    text = str(value)
    if len(text) > maximum:
        errors.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {maximum} or fewer in length.")
    elif len(text) < minimum:
        errors.add(path, "BASE_TYPE_MIN_LENGTH", f"Must be {minimum} or more in length.")
    return len(text)


def _validate_embed(errors: _Errors, path: list[str | int], embed: JSON) -> int:
    total = 0
    total += _check_len(errors, [*path, "title"], embed.get("title"), 256)
    total += _check_len(errors, [*path, "description"], embed.get("description"), 4096)
    fields = embed.get("fields") or []
    if len(fields) > 25:
        errors.add([*path, "fields"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    for i, fld in enumerate(fields):
        total += _check_len(errors, [*path, "fields", i, "name"], fld.get("name"), 256, minimum=1)
        total += _check_len(
            errors, [*path, "fields", i, "value"], fld.get("value"), 1024, minimum=1
        )
    footer = embed.get("footer") or {}
    total += _check_len(errors, [*path, "footer", "text"], footer.get("text"), 2048)
    author = embed.get("author") or {}
    total += _check_len(errors, [*path, "author", "name"], author.get("name"), 256)
    return total


def _validate_components(
    errors: _Errors, components: list[JSON], *, v2: bool, custom_ids: set[str]
) -> None:
    if not v2 and len(components) > 5:
        errors.add(["components"], "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
    for i, comp in enumerate(components):
        _validate_component(errors, ["components", i], comp, custom_ids=custom_ids, top=True, v2=v2)
        if v2 and comp.get("type") not in V2_TOP:
            errors.add(
                ["components", i, "type"],
                "COMPONENT_LAYOUT_INVALID",
                f"Component type {comp.get('type')} cannot be at the top of a message.",
            )
    if v2:
        walked = list(_walk(components))
        if len(walked) > V2_COMPONENTS_MAX:
            errors.add(
                ["components"],
                "COMPONENTS_V2_MAX_COMPONENTS_EXCEEDED",
                f"A message can have at most {V2_COMPONENTS_MAX} components (got {len(walked)}).",
            )
        text = sum(len(str(c.get("content") or "")) for c in walked if c.get("type") == 10)
        if text > V2_TEXT_MAX:
            errors.add(
                ["components"],
                "COMPONENTS_V2_MAX_TEXT_LENGTH_EXCEEDED",
                f"The text displays of a message hold at most {V2_TEXT_MAX} characters "
                f"(got {text}).",
            )


def _walk(components: list[JSON]) -> list[JSON]:
    """Every component of a tree, nested ones (children, accessories) included."""
    found: list[JSON] = []
    for comp in components:
        found.append(comp)
        found.extend(_walk(list(comp.get("components") or [])))
        for slot in ("accessory", "component"):
            if isinstance(comp.get(slot), dict):
                found.extend(_walk([comp[slot]]))
    return found


def _validate_v2_component(errors: _Errors, path: list[str | int], comp: JSON) -> None:
    """The rules of the layout components: what a container, a section and a gallery hold."""
    ctype = comp.get("type")
    children = list(comp.get("components") or [])
    if ctype == 17:
        if not children or len(children) > 40:
            errors.add([*path, "components"], "BASE_TYPE_BAD_LENGTH", "Must be 1 or more.")
        for i, child in enumerate(children):
            if child.get("type") not in IN_CONTAINER:
                errors.add(
                    [*path, "components", i, "type"],
                    "COMPONENT_LAYOUT_INVALID",
                    f"A container cannot hold component type {child.get('type')}.",
                )
        colour = comp.get("accent_color")
        if colour is not None and not (isinstance(colour, int) and 0 <= colour <= 0xFFFFFF):
            errors.add([*path, "accent_color"], "NUMBER_TYPE_MAX", "Must be a colour.")
    elif ctype == 9:
        if not 1 <= len(children) <= 3 or any(c.get("type") != 10 for c in children):
            errors.add(
                [*path, "components"],
                "BASE_TYPE_BAD_LENGTH",
                "A section holds 1 to 3 text displays.",
            )
        accessory = comp.get("accessory")
        if not isinstance(accessory, dict) or accessory.get("type") not in (2, 11):
            errors.add(
                [*path, "accessory"], "BASE_TYPE_REQUIRED", "A section needs a button or thumbnail."
            )
    elif ctype == 12:
        items = comp.get("items") or []
        if not 1 <= len(items) <= 10:
            errors.add(
                [*path, "items"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 10 in length."
            )
        for i, item in enumerate(items):
            media = item.get("media") or {}
            if not media.get("url"):
                errors.add(
                    [*path, "items", i, "media", "url"],
                    "BASE_TYPE_REQUIRED",
                    "This field is required",
                )
            _check_len(
                errors,
                [*path, "items", i, "description"],
                item.get("description"),
                MEDIA_DESCRIPTION_MAX,
            )
    elif ctype in (11, 13):
        media = comp.get("media") or comp.get("file") or {}
        if not media.get("url"):
            errors.add([*path, "media"], "BASE_TYPE_REQUIRED", "This field is required")
    elif ctype == 1:
        for i, child in enumerate(children):
            if child.get("type") not in IN_ROW:
                errors.add(
                    [*path, "components", i, "type"],
                    "COMPONENT_LAYOUT_INVALID",
                    f"An action row cannot hold component type {child.get('type')}.",
                )


def _validate_component(
    errors: _Errors,
    path: list[str | int],
    comp: JSON,
    *,
    custom_ids: set[str],
    top: bool,
    v2: bool,
) -> None:
    ctype = comp.get("type")
    if top and not v2 and ctype != 1:
        errors.add(
            [*path, "type"],
            "COMPONENT_LAYOUT_INVALID",
            "Top-level components must be action rows unless the message uses components v2.",
        )
    if not v2 and ctype in V2_ONLY:
        errors.add(
            [*path, "type"],
            "COMPONENT_LAYOUT_INVALID",
            f"Component type {ctype} needs the IS_COMPONENTS_V2 message flag.",
        )
    if v2:
        _validate_v2_component(errors, path, comp)
    if "custom_id" in comp:
        cid = comp["custom_id"]
        _check_len(errors, [*path, "custom_id"], cid, 100, minimum=1)
        if cid in custom_ids:
            errors.add(
                [*path, "custom_id"],
                "COMPONENT_CUSTOM_ID_DUPLICATED",
                "Component custom id cannot be duplicated",
            )
        custom_ids.add(cid)
    if ctype == 1:
        children = comp.get("components") or []
        if not children or len(children) > 5:
            errors.add(
                [*path, "components"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."
            )
        selects = [c for c in children if c.get("type") in (3, 5, 6, 7, 8)]
        if selects and len(children) > 1:
            errors.add(
                [*path, "components"],
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
            )
    elif ctype == 2:
        style = comp.get("style")
        if style == 5:
            if not comp.get("url"):
                errors.add([*path, "url"], "BASE_TYPE_REQUIRED", "This field is required")
        elif style != 6 and "custom_id" not in comp:
            errors.add([*path, "custom_id"], "BASE_TYPE_REQUIRED", "This field is required")
        _check_len(errors, [*path, "label"], comp.get("label"), 80)
        if not comp.get("label") and not comp.get("emoji") and style != 6:
            errors.add(
                [*path],
                "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
                "A button must have a label or an emoji",
            )
    elif ctype == 3:
        options = comp.get("options") or []
        if not options or len(options) > 25:
            errors.add(
                [*path, "options"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 25 in length."
            )
        for j, opt in enumerate(options):
            _check_len(errors, [*path, "options", j, "label"], opt.get("label"), 100, minimum=1)
            _check_len(errors, [*path, "options", j, "value"], opt.get("value"), 100, minimum=1)
            _check_len(errors, [*path, "options", j, "description"], opt.get("description"), 100)
        _check_len(errors, [*path, "placeholder"], comp.get("placeholder"), 150)
    elif ctype == 10:
        _check_len(errors, [*path, "content"], comp.get("content"), 4000)
    children_list: list[tuple[str | int, JSON]] = list(enumerate(comp.get("components") or []))
    for slot in ("accessory", "component"):
        if isinstance(comp.get(slot), dict):
            children_list.append((slot, comp[slot]))
    for key, child in children_list:
        sub_path: list[str | int] = (
            [*path, key] if isinstance(key, str) else [*path, "components", key]
        )
        _validate_component(errors, sub_path, child, custom_ids=custom_ids, top=False, v2=v2)


def validate_message(payload: JSON, *, upload_count: int) -> JSON | None:
    """Return Discord's ``errors`` tree for an invalid message payload, or ``None`` if valid."""
    errors = _Errors()
    flags = int(payload.get("flags") or 0)
    v2 = bool(flags & FLAG_COMPONENTS_V2)
    if v2 and payload.get("content"):
        errors.add(
            ["content"],
            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
            "The 'content' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
        )
    if v2:
        for legacy in ("embeds", "poll", "sticker_ids"):
            if payload.get(legacy):
                errors.add(
                    [legacy],
                    "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                    f"The '{legacy}' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
                )
    _check_len(errors, ["content"], payload.get("content"), CONTENT_MAX)
    embeds = payload.get("embeds") or []
    if len(embeds) > EMBEDS_MAX:
        errors.add(["embeds"], "BASE_TYPE_MAX_LENGTH", f"Must be {EMBEDS_MAX} or fewer in length.")
    total = 0
    for i, embed in enumerate(embeds):
        total += _validate_embed(errors, ["embeds", i], embed)
    if total > EMBED_TOTAL_MAX:
        errors.add(["embeds"], "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")
    components = payload.get("components") or []
    _validate_components(errors, components, v2=v2, custom_ids=set())
    attachments = payload.get("attachments")
    n_attachments = max(upload_count, len(attachments or []))
    if n_attachments > ATTACHMENTS_MAX:
        errors.add(["attachments"], "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
    return errors.tree or None


def too_large(upload_bytes: list[int]) -> bool:
    return any(size > ATTACHMENT_SIZE_LIMIT for size in upload_bytes)


def is_empty_message(payload: JSON, *, upload_count: int) -> bool:
    return not (
        payload.get("content")
        or payload.get("embeds")
        or payload.get("components")
        or upload_count
        or payload.get("attachments")
        or payload.get("sticker_ids")
        or payload.get("poll")
    )
