"""The REST half of the fake: routing, body parsing and one handler per Discord route."""

from __future__ import annotations

import copy
import inspect
import json
import logging
import re
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from aiohttp import BodyPartReader, web

from .gateway import INTENT_GUILD_MEMBERS, INTENT_GUILD_MESSAGE_REACTIONS, INTENT_GUILDS
from .interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    PONG,
    UPDATE_MESSAGE,
    InteractionResult,
)
from .models import (
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    FLAG_SUPPRESS_EMBEDS,
    FORUM_CHANNEL,
    JSON,
    NEWS_CHANNEL,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    TEXT_CHANNEL,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeUser,
    Overwrite,
    StoredAttachment,
    StoredMessage,
    iso,
    utcnow,
)
from .validation import is_empty_message, too_large, validate_message

if TYPE_CHECKING:
    from .fake import FakeDiscord

from .fake import (
    _RESPONSE_FLAGS,
    ApiError,
    RequestRecord,
    Upload,
    _wait,
    form_error,
    missing_permissions,
    unknown,
)

_log = logging.getLogger(__name__)

Handler = Callable[["ApiRequest"], Awaitable[Any]]

_COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")


class Severed(Exception):
    """A tripwire ran for this request: its answer goes to nobody."""


@dataclass
class ApiRequest:
    method: str
    path: str
    params: dict[str, str]
    query: dict[str, str]
    body: Any
    uploads: list[Upload] = field(default_factory=list)

    @property
    def data(self) -> JSON:
        return self.body if isinstance(self.body, dict) else {}

    def snowflake(self, name: str) -> int:
        value = self.params[name]
        try:
            return int(value)
        except ValueError:
            raise form_error(
                name, "NUMBER_TYPE_COERCE", f'Value "{value}" is not snowflake.'
            ) from None


@dataclass
class _Route:
    method: str
    template: str
    handler: Handler
    auth: bool
    regex: re.Pattern[str]


def _compile(template: str) -> re.Pattern[str]:
    pattern = ""
    for literal, name in re.findall(r"([^{]*)(?:\{(\w+)\})?", template):
        pattern += re.escape(literal)
        if name:
            pattern += f"(?P<{name}>[^/]+)"
    return re.compile(f"^{pattern}$")


_MISSING: Any = object()


def json_response(
    data: Any, *, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """JSON with exactly ``Content-Type: application/json``: discord.py compares the header
    verbatim (``json_or_text``) and would hand a str to its parsers otherwise."""
    all_headers = {"Content-Type": "application/json"}
    all_headers.update(headers or {})
    body = json.dumps(data, separators=(",", ":")).encode()
    return web.Response(body=body, status=status, headers=all_headers)


class RestApi:
    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.routes: list[_Route] = []
        r = self._add
        r("GET", "/gateway", self.gateway, auth=False)
        r("GET", "/gateway/bot", self.gateway_bot)
        r("GET", "/users/@me", self.get_me)
        r("POST", "/users/@me/channels", self.create_dm)
        r("GET", "/users/@me/guilds", self.my_guilds)
        r("GET", "/users/{user_id}", self.get_user)
        r("GET", "/oauth2/applications/@me", self.application_info)
        r("GET", "/applications/@me", self.application_info)
        for prefix in (
            "/applications/{application_id}/commands",
            "/applications/{application_id}/guilds/{guild_id}/commands",
        ):
            r("GET", prefix, self.list_commands)
            r("PUT", prefix, self.put_commands)
            r("POST", prefix, self.upsert_command)
            if "guild_id" in prefix:
                r("GET", prefix + "/permissions", self.empty_list)
            r("GET", prefix + "/{command_id}", self.get_command)
            r("PATCH", prefix + "/{command_id}", self.edit_command)
            r("DELETE", prefix + "/{command_id}", self.delete_command)
        r("GET", "/applications/{application_id}/emojis", self.empty_items)
        r("GET", "/applications/{application_id}/entitlements", self.empty_list)
        r("GET", "/applications/{application_id}/skus", self.empty_list)
        r("POST", "/interactions/{interaction_id}/{token}/callback", self.callback, auth=False)
        r("POST", "/webhooks/{application_id}/{token}", self.followup, auth=False)
        webhook_msg = "/webhooks/{application_id}/{token}/messages/{message_id}"
        r("GET", webhook_msg, self.get_webhook_message, auth=False)
        r("PATCH", webhook_msg, self.edit_webhook_message, auth=False)
        r("DELETE", webhook_msg, self.delete_webhook_message, auth=False)
        r("GET", "/channels/{channel_id}", self.get_channel)
        r("PATCH", "/channels/{channel_id}", self.edit_channel)
        r("DELETE", "/channels/{channel_id}", self.delete_channel)
        r("PUT", "/channels/{channel_id}/permissions/{target_id}", self.put_overwrite)
        r("DELETE", "/channels/{channel_id}/permissions/{target_id}", self.delete_overwrite)
        r("GET", "/channels/{channel_id}/messages/pins", self.list_pins)
        r("PUT", "/channels/{channel_id}/messages/pins/{message_id}", self.pin)
        r("DELETE", "/channels/{channel_id}/messages/pins/{message_id}", self.unpin)
        r("GET", "/channels/{channel_id}/pins", self.list_pins_legacy)
        r("PUT", "/channels/{channel_id}/pins/{message_id}", self.pin)
        r("DELETE", "/channels/{channel_id}/pins/{message_id}", self.unpin)
        r("GET", "/channels/{channel_id}/messages", self.list_messages)
        r("POST", "/channels/{channel_id}/messages", self.create_message)
        r("POST", "/channels/{channel_id}/messages/bulk-delete", self.bulk_delete)
        msg = "/channels/{channel_id}/messages/{message_id}"
        r("GET", msg, self.get_message)
        r("PATCH", msg, self.edit_message)
        r("DELETE", msg, self.delete_message)
        r("POST", msg + "/threads", self.thread_from_message)
        r("PUT", msg + "/reactions/{emoji}/@me", self.add_reaction)
        r("DELETE", msg + "/reactions/{emoji}/@me", self.remove_own_reaction)
        r("DELETE", msg + "/reactions/{emoji}/{user_id}", self.remove_reaction)
        r("DELETE", msg + "/reactions/{emoji}", self.clear_emoji)
        r("DELETE", msg + "/reactions", self.clear_reactions)
        r("POST", "/channels/{channel_id}/typing", self.typing)
        r("POST", "/channels/{channel_id}/threads", self.create_thread)
        r("GET", "/channels/{channel_id}/thread-members", self.list_thread_members)
        r("GET", "/channels/{channel_id}/thread-members/{user_id}", self.get_thread_member)
        r("PUT", "/channels/{channel_id}/thread-members/{user_id}", self.add_thread_member)
        r("DELETE", "/channels/{channel_id}/thread-members/{user_id}", self.remove_thread_member)
        r("GET", "/guilds/{guild_id}", self.get_guild)
        r("GET", "/guilds/{guild_id}/channels", self.guild_channels)
        r("GET", "/guilds/{guild_id}/roles", self.guild_roles)
        r("GET", "/guilds/{guild_id}/members", self.guild_members)
        r("GET", "/guilds/{guild_id}/members/{user_id}", self.guild_member)
        r("PUT", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}", self.add_member_role)
        r("DELETE", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}", self.remove_member_role)
        r("GET", "/guilds/{guild_id}/threads/active", self.active_threads)

    def _add(self, method: str, template: str, handler: Handler, *, auth: bool = True) -> None:
        self.routes.append(_Route(method, template, handler, auth, _compile(template)))

    # ------------------------------------------------------------------ plumbing
    async def handle_outside_api(self, request: web.Request) -> web.StreamResponse:
        path = request.path
        self.fake.unknown_routes.append(f"{request.method} {path}")
        self.fake.requests.append(
            RequestRecord(request.method, path, None, dict(request.query), None, [], 404, 0)
        )
        self.fake._notify()
        return json_response({"message": "404: Not Found", "code": 0}, status=404)

    async def handle(self, request: web.Request) -> web.StreamResponse:
        fake = self.fake
        received = fake.rate_limits.clock() if fake.rate_limits is not None else None
        raw = request.raw_path.split("?", 1)[0]
        raw_path = re.sub(r"^/api/v\d+", "", raw)
        path = unquote(raw_path)
        query = dict(request.query)
        record = RequestRecord(request.method, path, None, query, None, [])
        fake.requests.append(record)
        try:
            try:
                body, uploads = await self._read_body(request)
            except ValueError as exc:
                raise ApiError(400, 50109, "The request body contains invalid JSON.") from exc
            record.json = body
            record.files = [u.filename for u in uploads]
            route, params = self._match(request.method, raw_path)
            if route is None:
                fake.unknown_routes.append(f"{request.method} {path}")
                raise ApiError(404, 0, "404: Not Found")
            record.route = route.template
            if route.auth and request.headers.get("Authorization") != f"Bot {fake.token}":
                raise ApiError(401, 0, "401: Unauthorized")
            limited: dict[str, str] = {}
            if fake.rate_limits is not None:
                limited = fake.rate_limits.check(
                    request.method, path, route.template, params, received
                )
            self._check_failures(record)
            await self._trip(record, before=True)
            result = await route.handler(
                ApiRequest(request.method, path, params, query, body, uploads)
            )
            await self._trip(record, before=False)
            if result is None:
                response: web.StreamResponse = web.Response(status=204)
            else:
                response = json_response(result)
            response.headers.update(limited)
        except ApiError as exc:
            response = json_response(exc.body(), status=exc.status, headers=exc.headers)
            record.error_code = exc.code
        except Severed:  # a tripwire ran (the bot's process was killed): nobody reads this
            record.status = 499
            fake._notify()
            return web.Response(status=503)
        except ConnectionError:  # the client went away mid-request (a killed bot process)
            record.status = 499
            fake._notify()
            raise
        except Exception as exc:  # a bug in the fake: make it loud, but don't trigger retries
            fake.internal_errors.append(exc)
            _log.error("fake discord crashed handling %s %s", request.method, path, exc_info=exc)
            body_text = "".join(traceback.format_exception_only(type(exc), exc)).strip()
            response = json_response(
                {"message": f"fake discord internal error: {body_text}", "code": 0}, status=400
            )
            record.error_code = 0
        record.status = response.status
        fake._notify()
        return response

    async def _read_body(self, request: web.Request) -> tuple[Any, list[Upload]]:
        uploads: list[Upload] = []
        if request.content_type == "multipart/form-data":
            body: Any = None
            reader = await request.multipart()
            while True:
                part = await reader.next()
                if part is None:
                    break
                if not isinstance(part, BodyPartReader):
                    continue
                name = part.name or ""
                if name == "payload_json":
                    body = json.loads(await part.text())
                else:
                    match = re.fullmatch(r"files\[(\d+)\]", name)
                    data = bytes(await part.read(decode=False))
                    index = int(match.group(1)) if match else len(uploads)
                    uploads.append(
                        Upload(
                            index=index,
                            filename=part.filename or name,
                            data=data,
                            content_type=part.headers.get("Content-Type"),
                        )
                    )
            return body, uploads
        if not request.can_read_body:
            return None, uploads
        text = await request.text()
        if not text:
            return None, uploads
        return json.loads(text), uploads

    def _match(self, method: str, raw_path: str) -> tuple[_Route | None, dict[str, str]]:
        for route in self.routes:
            if route.method != method:
                continue
            m = route.regex.match(raw_path)
            if m:
                return route, {k: unquote(v) for k, v in m.groupdict().items()}
        return None, {}

    async def _trip(self, record: RequestRecord, *, before: bool) -> None:
        """Run the first armed tripwire this request matches (see ``FakeDiscord.tripwire``)."""
        for wire in list(self.fake.tripwires):
            if wire.before != before or wire.fired.is_set():
                continue
            matched = wire.match(record)
            if inspect.isawaitable(matched):
                matched = await matched
            if not matched or wire not in self.fake.tripwires:
                continue  # another request claimed it while this one was being matched
            wire.request = record
            self.fake.tripwires.remove(wire)
            done = wire.action()
            if inspect.isawaitable(done):
                await done
            wire.fired.set()
            raise Severed(wire.name)

    def _check_failures(self, record: RequestRecord) -> None:
        for failure in list(self.fake._failures):
            if failure.method not in (record.method, "*") or not failure.pattern.search(
                record.path
            ):
                continue
            if failure.when is not None and not failure.when(record):
                continue
            if failure.remaining is not None:
                failure.remaining -= 1
                if failure.remaining <= 0:
                    self.fake._failures.remove(failure)
            raise failure.error

    # ------------------------------------------------------------------ helpers
    def _channel(self, req: ApiRequest) -> FakeChannel:
        channel = self.fake.channels.get(req.snowflake("channel_id"))
        if channel is None:
            raise unknown("Channel", 10003)
        return channel

    def _channel_message(self, req: ApiRequest, channel: FakeChannel) -> StoredMessage:
        msg = self.fake._messages.get(req.snowflake("message_id"))
        if msg is None or msg.channel_id != channel.id or msg.ephemeral:
            raise unknown("Message", 10008)
        return msg

    def _check_app(self, req: ApiRequest) -> None:
        if req.snowflake("application_id") != self.fake.application_id:
            raise unknown("Application", 10002)

    def _thread_member_payload(self, thread: FakeChannel, user_id: int) -> JSON:
        return {
            "id": str(thread.id),
            "user_id": str(user_id),
            "join_timestamp": iso(thread.created_at),
            "flags": 0,
        }

    def _resolve_attachments(
        self,
        channel_id: int,
        spec: Any,
        uploads: list[Upload],
        existing: list[StoredAttachment],
    ) -> list[StoredAttachment]:
        if too_large([len(u.data) for u in uploads]):
            raise ApiError(413, 40005, "Request entity too large")
        fake = self.fake
        if spec is _MISSING or spec is None:
            kept = list(existing)
            return kept + [
                fake._store_attachment(channel_id, u.filename, u.data, content_type=u.content_type)
                for u in uploads
            ]
        by_index = {u.index: u for u in uploads}
        existing_by_id = {a.id: a for a in existing}
        used: set[int] = set()
        result: list[StoredAttachment] = []
        for i, entry in enumerate(spec):
            aid = int(entry["id"])
            if aid in existing_by_id:
                result.append(existing_by_id[aid])
                continue
            upload = by_index.get(aid)
            if upload is None or aid in used:
                raise form_error(
                    f"attachments.{i}.id", "ATTACHMENT_NOT_FOUND", "Unknown attachment"
                )
            used.add(aid)
            result.append(
                fake._store_attachment(
                    channel_id,
                    entry.get("filename") or upload.filename,
                    upload.data,
                    content_type=upload.content_type,
                    description=entry.get("description"),
                )
            )
        for upload in uploads:
            if upload.index not in used:
                result.append(
                    fake._store_attachment(
                        channel_id, upload.filename, upload.data, content_type=upload.content_type
                    )
                )
        return result

    def _validate(self, state: JSON, upload_count: int) -> None:
        errors = validate_message(state, upload_count=upload_count)
        if errors:
            raise ApiError(400, 50035, "Invalid Form Body", errors=errors)
        if is_empty_message(state, upload_count=upload_count):
            raise ApiError(400, 50006, "Cannot send an empty message")

    async def _new_message(
        self,
        channel: FakeChannel,
        data: JSON,
        uploads: list[Upload],
        *,
        author: FakeUser,
        type: int = 0,
        flags: int = 0,
        ephemeral_user_id: int | None = None,
        interaction: InteractionResult | None = None,
        message_id: int | None = None,
    ) -> StoredMessage:
        fake = self.fake
        self._validate(data, len(uploads))
        msg = StoredMessage(
            id=message_id if message_id is not None else fake.new_id(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author,
            content=str(data.get("content") or ""),
            embeds=copy.deepcopy(list(data.get("embeds") or [])),
            components=copy.deepcopy(list(data.get("components") or [])),
            flags=flags,
            type=type,
            tts=bool(data.get("tts")),
            ephemeral_user_id=ephemeral_user_id,
        )
        msg.attachments = self._resolve_attachments(
            channel.id, data.get("attachments", _MISSING), uploads, []
        )
        ref = data.get("message_reference")
        if isinstance(ref, dict) and ref.get("type", 0) == 0 and ref.get("message_id"):
            target = fake._messages.get(int(ref["message_id"]))
            if target is None or target.channel_id != channel.id:
                if ref.get("fail_if_not_exists", True):
                    raise form_error(
                        "message_reference", "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "Unknown message"
                    )
            else:
                msg.type = 19
                msg.message_reference = {
                    "type": 0,
                    "message_id": str(target.id),
                    "channel_id": str(channel.id),
                    "guild_id": None if channel.guild_id is None else str(channel.guild_id),
                }
        if interaction is not None:
            msg.interaction_id = interaction.id
            msg.webhook_id = fake.application_id
            msg.application_id = fake.application_id
            meta: JSON = {
                "id": str(interaction.id),
                "type": interaction.kind,
                "user": interaction.user.payload(),
                "authorizing_integration_owners": interaction.payload.get(
                    "authorizing_integration_owners", {}
                ),
            }
            if interaction.kind == MESSAGE_COMPONENT and interaction.source_message_id:
                meta["interacted_message_id"] = str(interaction.source_message_id)
            if interaction.original_id is not None:
                meta["original_response_message_id"] = str(interaction.original_id)
            msg.interaction_metadata = meta
        fake._store_message(msg)
        await _wait(fake._announce_message("MESSAGE_CREATE", msg))
        return msg

    async def _edit(
        self, msg: StoredMessage, data: JSON, uploads: list[Upload], *, via_interaction: bool
    ) -> StoredMessage:
        fake = self.fake
        new_state: JSON = {
            "content": data.get("content", msg.content),
            "embeds": data.get("embeds", msg.embeds),
            "components": data.get("components", msg.components),
            "flags": msg.flags,
        }
        if "flags" in data and data["flags"] is not None:
            mutable = FLAG_SUPPRESS_EMBEDS | FLAG_COMPONENTS_V2
            new_state["flags"] = (msg.flags & ~mutable) | (int(data["flags"]) & mutable)
            if msg.flags & FLAG_COMPONENTS_V2 and not new_state["flags"] & FLAG_COMPONENTS_V2:
                raise form_error(
                    "flags",
                    "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG",
                    "The IS_COMPONENTS_V2 flag cannot be removed from a message.",
                )
        attachments = self._resolve_attachments(
            msg.channel_id, data.get("attachments", _MISSING), uploads, msg.attachments
        )
        state_for_checks = dict(new_state)
        state_for_checks["attachments"] = [{"id": a.id} for a in attachments]
        self._validate(state_for_checks, 0)
        was_loading = msg.loading
        msg.history.append(msg.snapshot())
        msg.content = str(new_state["content"] or "")
        msg.embeds = copy.deepcopy(list(new_state["embeds"] or []))
        msg.components = copy.deepcopy(list(new_state["components"] or []))
        msg.flags = int(new_state["flags"]) & ~FLAG_LOADING
        msg.attachments = attachments
        if not was_loading:
            msg.edited_at = utcnow()
        fake._notify()
        await _wait(fake._announce_message("MESSAGE_UPDATE", msg))
        return msg

    async def _delete(self, msg: StoredMessage) -> None:
        self.fake._remove_message(msg)
        await _wait(self.fake._announce_delete(msg))

    # ------------------------------------------------------------------ gateway/users/apps
    async def gateway(self, req: ApiRequest) -> JSON:
        return {"url": self.fake.gateway_url}

    async def gateway_bot(self, req: ApiRequest) -> JSON:
        return {
            "url": self.fake.gateway_url,
            "shards": self.fake.recommended_shards,
            "session_start_limit": {
                "total": 1000,
                "remaining": 999,
                "reset_after": 14_400_000,
                "max_concurrency": 1,
            },
        }

    async def get_me(self, req: ApiRequest) -> JSON:
        return self.fake.bot_user.payload() | {"verified": True, "mfa_enabled": False}

    async def get_user(self, req: ApiRequest) -> JSON:
        user = self.fake.users.get(req.snowflake("user_id"))
        if user is None:
            raise unknown("User", 10013)
        return user.payload()

    async def create_dm(self, req: ApiRequest) -> JSON:
        recipient = req.data.get("recipient_id")
        user = None if recipient is None else self.fake.users.get(int(recipient))
        if user is None:
            raise unknown("User", 10013)
        return self.fake.channel_payload(self.fake.dm_channel(user))

    async def my_guilds(self, req: ApiRequest) -> list[JSON]:
        return [
            {
                "id": str(g.id),
                "name": g.name,
                "icon": None,
                "owner": False,
                "permissions": str(g.base_permissions(self.fake.bot_user.id)),
                "features": [],
            }
            for g in self.fake.guilds.values()
        ]

    async def application_info(self, req: ApiRequest) -> JSON:
        fake = self.fake
        return {
            "id": str(fake.application_id),
            "name": fake.bot_user.name,
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": fake.owner.payload(),
            "team": None,
            "verify_key": "0" * 64,
            "flags": 0,
            "bot": fake.bot_user.payload(),
            "tags": [],
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "approximate_guild_count": len(fake.guilds),
        }

    async def empty_list(self, req: ApiRequest) -> list[Any]:
        return []

    async def empty_items(self, req: ApiRequest) -> JSON:
        return {"items": []}

    # ------------------------------------------------------------------ commands
    def _scope(self, req: ApiRequest) -> int | None:
        self._check_app(req)
        if "guild_id" not in req.params:
            return None
        guild_id = req.snowflake("guild_id")
        if guild_id not in self.fake.guilds:
            raise ApiError(403, 50001, "Missing Access")
        return guild_id

    def _validate_command(self, cmd: JSON, index: int) -> None:
        path = f"{index}"
        ctype = cmd.get("type", 1)
        name = cmd.get("name")
        if not isinstance(name, str) or not _COMMAND_NAME.match(name):
            raise form_error(f"{path}.name", "APPLICATION_COMMAND_INVALID_NAME", "Invalid name")
        if ctype == 1:
            if name != name.lower():
                raise form_error(
                    f"{path}.name", "APPLICATION_COMMAND_INVALID_NAME", "Name must be lowercase"
                )
            desc = cmd.get("description") or ""
            if not 1 <= len(desc) <= 100:
                raise form_error(
                    f"{path}.description", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100"
                )
            self._validate_options(cmd.get("options") or [], f"{path}.options")

    def _validate_options(self, options: list[JSON], path: str) -> None:
        if len(options) > 25:
            raise form_error(path, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        names: set[str] = set()
        seen_optional = False
        for i, opt in enumerate(options):
            name = opt.get("name")
            if not isinstance(name, str) or not _COMMAND_NAME.match(name) or name != name.lower():
                raise form_error(
                    f"{path}.{i}.name", "APPLICATION_COMMAND_INVALID_NAME", "Invalid name"
                )
            if name in names:
                raise form_error(
                    f"{path}.{i}.name",
                    "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                    "Option names must be unique",
                )
            names.add(name)
            if not 1 <= len(opt.get("description") or "") <= 100:
                raise form_error(
                    f"{path}.{i}.description", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100"
                )
            if opt.get("type") in (1, 2):
                self._validate_options(opt.get("options") or [], f"{path}.{i}.options")
                continue
            if opt.get("required"):
                if seen_optional:
                    raise form_error(
                        f"{path}.{i}.required",
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options",
                    )
            else:
                seen_optional = True
            if len(opt.get("choices") or []) > 25:
                raise form_error(
                    f"{path}.{i}.choices", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."
                )

    def _store_command(self, scope: int | None, cmd: JSON, existing: dict[int, JSON]) -> JSON:
        fake = self.fake
        ctype = cmd.get("type", 1)
        old = next(
            (c for c in existing.values() if c["name"] == cmd["name"] and c["type"] == ctype),
            None,
        )
        stored = copy.deepcopy(cmd)
        stored.update(
            {
                "id": old["id"] if old else str(fake.new_id()),
                "application_id": str(fake.application_id),
                "version": str(fake.new_id()),
                "type": ctype,
                "description": cmd.get("description", ""),
                "options": copy.deepcopy(cmd.get("options") or []),
                "default_member_permissions": cmd.get("default_member_permissions"),
                "nsfw": bool(cmd.get("nsfw", False)),
            }
        )
        stored.setdefault("contexts", None)
        stored.setdefault("integration_types", [0])
        if scope is not None:
            stored["guild_id"] = str(scope)
        return stored

    async def list_commands(self, req: ApiRequest) -> list[JSON]:
        return copy.deepcopy(self.fake.commands(self._scope(req)))

    async def put_commands(self, req: ApiRequest) -> list[JSON]:
        scope = self._scope(req)
        payload = req.body if isinstance(req.body, list) else []
        if len(payload) > 100:
            raise form_error("_", "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
        seen: set[tuple[str, int]] = set()
        for i, cmd in enumerate(payload):
            self._validate_command(cmd, i)
            key = (cmd["name"], cmd.get("type", 1))
            if key in seen:
                raise form_error(
                    f"{i}.name", "APPLICATION_COMMANDS_DUPLICATE_NAME", "Duplicate command name"
                )
            seen.add(key)
        existing = self.fake._commands.get(scope, {})
        new: dict[int, JSON] = {}
        for cmd in payload:
            stored = self._store_command(scope, cmd, existing)
            new[int(stored["id"])] = stored
        self.fake._commands[scope] = new
        result = copy.deepcopy(list(new.values()))
        self.fake.command_syncs.append((scope, result))
        return result

    async def upsert_command(self, req: ApiRequest) -> JSON:
        scope = self._scope(req)
        self._validate_command(req.data, 0)
        existing = self.fake._commands.setdefault(scope, {})
        stored = self._store_command(scope, req.data, existing)
        existing[int(stored["id"])] = stored
        return copy.deepcopy(stored)

    def _command(self, req: ApiRequest) -> tuple[int | None, JSON]:
        scope = self._scope(req)
        cmd = self.fake._commands.get(scope, {}).get(req.snowflake("command_id"))
        if cmd is None:
            raise unknown("application command", 10063)
        return scope, cmd

    async def get_command(self, req: ApiRequest) -> JSON:
        return copy.deepcopy(self._command(req)[1])

    async def edit_command(self, req: ApiRequest) -> JSON:
        _, cmd = self._command(req)
        cmd.update(copy.deepcopy(req.data))
        cmd["version"] = str(self.fake.new_id())
        return copy.deepcopy(cmd)

    async def delete_command(self, req: ApiRequest) -> None:
        scope, cmd = self._command(req)
        del self.fake._commands[scope][int(cmd["id"])]

    # ------------------------------------------------------------------ interactions
    def _interaction_response_message(
        self, rec: InteractionResult, data: JSON, *, loading: bool
    ) -> tuple[int, int | None]:
        flags = int(data.get("flags") or 0) & _RESPONSE_FLAGS
        ephemeral_user = rec.user.id if flags & FLAG_EPHEMERAL else None
        if loading:
            flags |= FLAG_LOADING
        return flags, ephemeral_user

    async def callback(self, req: ApiRequest) -> JSON | None:
        fake = self.fake
        rec = fake._interactions_by_id.get(req.snowflake("interaction_id"))
        if rec is None or rec.token != req.params["token"] or rec.expired:
            raise unknown("interaction", 10062)
        if rec.response_type is not None:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        body = req.data
        rtype = body.get("type")
        data: JSON = body.get("data") or {}
        allowed = {
            APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL},
            MESSAGE_COMPONENT: {
                CHANNEL_MESSAGE,
                DEFERRED_CHANNEL_MESSAGE,
                DEFERRED_UPDATE_MESSAGE,
                UPDATE_MESSAGE,
                MODAL,
            },
            AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
            MODAL_SUBMIT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE}
            | ({DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE} if rec.source_message_id else set()),
        }[rec.kind]
        if rtype not in allowed:
            raise form_error(
                "type",
                "INTERACTION_RESPONSE_TYPE_INVALID",
                f"Interaction response type {rtype} is not valid for interaction type {rec.kind}",
            )
        channel = fake.channels[rec.channel_id]
        message: StoredMessage | None = None
        if rtype in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE):
            loading = rtype == DEFERRED_CHANNEL_MESSAGE
            flags, ephemeral_user = self._interaction_response_message(rec, data, loading=loading)
            content = {} if loading else data
            if loading:
                # a deferred response is an empty "thinking" message: skip emptiness checks
                message = StoredMessage(
                    id=fake.new_id(),
                    channel_id=channel.id,
                    guild_id=channel.guild_id,
                    author=fake.bot_user,
                    flags=flags,
                    type=20 if rec.kind == APPLICATION_COMMAND else 0,
                    ephemeral_user_id=ephemeral_user,
                    interaction_id=rec.id,
                    webhook_id=fake.application_id,
                    application_id=fake.application_id,
                    interaction_metadata={
                        "id": str(rec.id),
                        "type": rec.kind,
                        "user": rec.user.payload(),
                        "authorizing_integration_owners": rec.payload.get(
                            "authorizing_integration_owners", {}
                        ),
                    },
                )
                fake._store_message(message)
                await _wait(fake._announce_message("MESSAGE_CREATE", message))
            else:
                message = await self._new_message(
                    channel,
                    content,
                    req.uploads,
                    author=fake.bot_user,
                    type=20 if rec.kind == APPLICATION_COMMAND else 0,
                    flags=flags,
                    ephemeral_user_id=ephemeral_user,
                    interaction=rec,
                )
            rec.original_id = message.id
        elif rtype in (DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE):
            source = (
                None if rec.source_message_id is None else fake._messages.get(rec.source_message_id)
            )
            if source is None:
                raise unknown("Message", 10008)
            rec.original_id = source.id
            if rtype == UPDATE_MESSAGE:
                await self._edit(source, data, req.uploads, via_interaction=True)
            message = source
        elif rtype == AUTOCOMPLETE_RESULT:
            rec.choices = list(data.get("choices") or [])
            if len(rec.choices) > 25:
                raise form_error("data.choices", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer")
        elif rtype == MODAL:
            if not data.get("custom_id") or not data.get("title"):
                raise form_error("data", "BASE_TYPE_REQUIRED", "custom_id and title are required")
            rec.modal = copy.deepcopy(data)
            if rec.source_message_id is not None:
                rec.original_id = rec.source_message_id
        rec.response_type = rtype
        rec.response_data = copy.deepcopy(data)
        rec.initial = None if message is None else message.snapshot()
        rec.responded.set()
        fake._notify()
        if req.query.get("with_response") not in ("1", "true", "True"):
            return None
        interaction: JSON = {"id": str(rec.id), "type": rec.kind}
        if rtype in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE) and message is not None:
            interaction["response_message_id"] = str(message.id)
            interaction["response_message_loading"] = message.loading
            interaction["response_message_ephemeral"] = message.ephemeral
        result: JSON = {"interaction": interaction}
        if rtype == PONG:
            return result
        resource: JSON = {"type": rtype}
        if message is not None and rtype != DEFERRED_UPDATE_MESSAGE:
            resource["message"] = fake.message_payload(message)
        result["resource"] = resource
        return result

    def _webhook_interaction(self, req: ApiRequest) -> InteractionResult:
        if req.snowflake("application_id") != self.fake.application_id:
            raise unknown("Webhook", 10015)
        rec = self.fake._interactions_by_token.get(req.params["token"])
        if rec is None or rec.response_type is None:
            raise unknown("Webhook", 10015)
        if rec.expired:
            raise ApiError(401, 50027, "Invalid Webhook Token")
        return rec

    def _webhook_message(self, req: ApiRequest, rec: InteractionResult) -> StoredMessage:
        raw = req.params["message_id"]
        if raw == "@original":
            mid = rec.original_id
        else:
            mid = req.snowflake("message_id")
            if mid != rec.original_id and mid not in {m.id for m in rec.followups}:
                mid = None
        msg = None if mid is None else self.fake._messages.get(mid)
        if msg is None:
            raise unknown("Message", 10008)
        return msg

    async def followup(self, req: ApiRequest) -> JSON | None:
        fake = self.fake
        rec = self._webhook_interaction(req)
        data = req.data
        original = None if rec.original_id is None else fake._messages.get(rec.original_id)
        if (
            rec.response_type == DEFERRED_CHANNEL_MESSAGE
            and original is not None
            and original.loading
        ):
            # Discord: the first followup after a "thinking" defer replaces the loading message,
            # keeping the defer's ephemeral state.
            edit = {k: v for k, v in data.items() if k != "flags"}
            layout = FLAG_COMPONENTS_V2 | FLAG_SUPPRESS_EMBEDS
            edit["flags"] = int(data.get("flags") or 0) & layout
            msg = await self._edit(original, edit, req.uploads, via_interaction=True)
        else:
            channel = fake.channels[rec.channel_id]
            flags = int(data.get("flags") or 0) & _RESPONSE_FLAGS
            ephemeral_user = rec.user.id if flags & FLAG_EPHEMERAL else None
            msg = await self._new_message(
                channel,
                data,
                req.uploads,
                author=fake.bot_user,
                flags=flags,
                ephemeral_user_id=ephemeral_user,
                interaction=rec,
            )
        rec.followups.append(msg)
        fake._notify()
        if req.query.get("wait") in ("1", "true", "True"):
            return fake.message_payload(msg)
        return None

    async def get_webhook_message(self, req: ApiRequest) -> JSON:
        rec = self._webhook_interaction(req)
        return self.fake.message_payload(self._webhook_message(req, rec))

    async def edit_webhook_message(self, req: ApiRequest) -> JSON:
        rec = self._webhook_interaction(req)
        msg = self._webhook_message(req, rec)
        await self._edit(msg, req.data, req.uploads, via_interaction=True)
        if msg.id == rec.original_id:
            rec.edits.append(copy.deepcopy(req.data))
        self.fake._notify()
        return self.fake.message_payload(msg)

    async def delete_webhook_message(self, req: ApiRequest) -> None:
        rec = self._webhook_interaction(req)
        await self._delete(self._webhook_message(req, rec))

    # ------------------------------------------------------------------ channels
    async def get_channel(self, req: ApiRequest) -> JSON:
        channel = self._channel(req)
        self.fake._check_denied(channel.id, "read_messages")
        return self.fake.channel_payload(channel)

    async def edit_channel(self, req: ApiRequest) -> JSON:
        fake = self.fake
        channel = self._channel(req)
        fake._check_denied(channel.id, "manage_threads" if channel.is_thread else "*")
        data = req.data
        if "name" in data:
            name = str(data["name"] or "")
            if not 1 <= len(name) <= 100:
                raise form_error("name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100")
            channel.name = name
        for key in ("archived", "locked", "invitable"):
            if key in data and data[key] is not None:
                setattr(channel, key, bool(data[key]))
        for key in ("auto_archive_duration", "rate_limit_per_user", "position"):
            if key in data and data[key] is not None:
                setattr(channel, key, int(data[key]))
        if "topic" in data:
            channel.topic = data["topic"]
        event = "THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE"
        await fake._broadcast(event, fake.channel_payload(channel), INTENT_GUILDS)
        return fake.channel_payload(channel)

    async def delete_channel(self, req: ApiRequest) -> JSON:
        fake = self.fake
        channel = self._channel(req)
        fake._check_denied(channel.id, "manage_threads" if channel.is_thread else "*")
        payload = fake.channel_payload(channel)
        del fake.channels[channel.id]
        if channel.guild_id is not None:
            guild = fake.guilds[channel.guild_id]
            if channel.id in guild.channel_ids:
                guild.channel_ids.remove(channel.id)
        if channel.is_thread:
            await fake._broadcast(
                "THREAD_DELETE",
                {
                    "id": str(channel.id),
                    "guild_id": str(channel.guild_id),
                    "parent_id": str(channel.parent_id),
                    "type": channel.type,
                },
                INTENT_GUILDS,
            )
        else:
            await fake._broadcast("CHANNEL_DELETE", payload, INTENT_GUILDS)
        return payload

    async def put_overwrite(self, req: ApiRequest) -> None:
        channel = self._channel(req)
        self.fake._check_denied(channel.id, "*")
        data = req.data
        target = req.snowflake("target_id")
        channel.overwrites[target] = Overwrite(
            target,
            int(data.get("type", 1)),
            int(data.get("allow") or 0),
            int(data.get("deny") or 0),
        )
        await self.fake._broadcast("CHANNEL_UPDATE", self.fake.channel_payload(channel))

    async def delete_overwrite(self, req: ApiRequest) -> None:
        channel = self._channel(req)
        self.fake._check_denied(channel.id, "*")
        channel.overwrites.pop(req.snowflake("target_id"), None)
        await self.fake._broadcast("CHANNEL_UPDATE", self.fake.channel_payload(channel))

    async def typing(self, req: ApiRequest) -> None:
        channel = self._channel(req)
        self.fake._check_denied(channel.id, "send_messages")

    # ------------------------------------------------------------------ messages
    async def list_messages(self, req: ApiRequest) -> list[JSON]:
        fake = self.fake
        channel = self._channel(req)
        fake._check_denied(channel.id, "read_messages")
        limit = max(1, min(100, int(req.query.get("limit", 50))))
        msgs = fake.messages(channel.id)
        if "around" in req.query:
            around = int(req.query["around"])
            older = [m for m in msgs if m.id <= around][-(limit // 2 + 1) :]
            newer = [m for m in msgs if m.id > around][: limit - len(older)]
            selected = older + newer
        elif "after" in req.query:
            after = int(req.query["after"])
            selected = [m for m in msgs if m.id > after][:limit]
        else:
            before = int(req.query["before"]) if "before" in req.query else None
            candidates = [m for m in msgs if before is None or m.id < before]
            selected = candidates[-limit:]
        return [fake.message_payload(m) for m in reversed(selected)]

    async def create_message(self, req: ApiRequest) -> JSON:
        fake = self.fake
        channel = self._channel(req)
        fake._check_denied(channel.id, "send_messages")
        if channel.is_dm and any(u.id in fake._blocked_dms for u in channel.recipients):
            raise ApiError(403, 50007, "Cannot send messages to this user")
        if channel.is_thread and channel.archived:
            if channel.locked:
                raise ApiError(400, 50083, "Thread is archived")
            channel.archived = False
            await fake._broadcast("THREAD_UPDATE", fake.channel_payload(channel), INTENT_GUILDS)
        data = req.data
        key = (channel.id, str(data.get("nonce")))
        if data.get("enforce_nonce") and data.get("nonce") is not None:
            # Discord returns the message already sent with this nonce instead of a second one.
            earlier = fake._messages.get(fake.nonces.get(key, 0))
            if earlier is not None:
                return fake.message_payload(earlier)
        flags = int(data.get("flags") or 0) & (FLAG_SUPPRESS_EMBEDS | FLAG_COMPONENTS_V2 | 1 << 12)
        msg = await self._new_message(channel, data, req.uploads, author=fake.bot_user, flags=flags)
        if data.get("nonce") is not None:
            fake.nonces[key] = msg.id
        return fake.message_payload(msg)

    async def get_message(self, req: ApiRequest) -> JSON:
        channel = self._channel(req)
        self.fake._check_denied(channel.id, "read_messages")
        return self.fake.message_payload(self._channel_message(req, channel))

    async def edit_message(self, req: ApiRequest) -> JSON:
        channel = self._channel(req)
        msg = self._channel_message(req, channel)
        self.fake._check_denied(channel.id, "edit_messages")
        # (non-ephemeral interaction responses are the bot's own messages: editable here too)
        if msg.author.id != self.fake.bot_user.id:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        await self._edit(msg, req.data, req.uploads, via_interaction=False)
        return self.fake.message_payload(msg)

    async def delete_message(self, req: ApiRequest) -> None:
        channel = self._channel(req)
        msg = self._channel_message(req, channel)
        self.fake._check_denied(channel.id, "delete_messages")
        await self._delete(msg)

    async def bulk_delete(self, req: ApiRequest) -> None:
        fake = self.fake
        channel = self._channel(req)
        fake._check_denied(channel.id, "delete_messages")
        ids = [int(i) for i in req.data.get("messages") or []]
        if not 2 <= len(ids) <= 100:
            raise form_error("messages", "BASE_TYPE_BAD_LENGTH", "Must be between 2 and 100")
        found = [fake._messages[i] for i in ids if i in fake._messages]
        for msg in found:
            fake._remove_message(msg)
        data: JSON = {"ids": [str(m.id) for m in found], "channel_id": str(channel.id)}
        if channel.guild_id is not None:
            data["guild_id"] = str(channel.guild_id)
        await fake._broadcast("MESSAGE_DELETE_BULK", data)

    async def list_pins(self, req: ApiRequest) -> JSON:
        channel = self._channel(req)
        pinned = [m for m in self.fake.messages(channel.id) if m.pinned]
        return {
            "items": [
                {"pinned_at": iso(m.created_at), "message": self.fake.message_payload(m)}
                for m in reversed(pinned)
            ],
            "has_more": False,
        }

    async def list_pins_legacy(self, req: ApiRequest) -> list[JSON]:
        channel = self._channel(req)
        pinned = [m for m in self.fake.messages(channel.id) if m.pinned]
        return [self.fake.message_payload(m) for m in reversed(pinned)]

    async def pin(self, req: ApiRequest) -> None:
        channel = self._channel(req)
        msg = self._channel_message(req, channel)
        self.fake._check_denied(channel.id, "pin_messages")
        msg.pinned = True

    async def unpin(self, req: ApiRequest) -> None:
        channel = self._channel(req)
        msg = self._channel_message(req, channel)
        self.fake._check_denied(channel.id, "pin_messages")
        msg.pinned = False

    # ------------------------------------------------------------------ reactions
    async def _reaction_event(
        self, event: str, msg: StoredMessage, emoji: str, user_id: int
    ) -> None:
        name, _, emoji_id = emoji.partition(":")
        data: JSON = {
            "user_id": str(user_id),
            "channel_id": str(msg.channel_id),
            "message_id": str(msg.id),
            "emoji": {"id": emoji_id or None, "name": name},
            "burst": False,
            "type": 0,
        }
        if msg.guild_id is not None:
            data["guild_id"] = str(msg.guild_id)
        await self.fake._broadcast(event, data, INTENT_GUILD_MESSAGE_REACTIONS)

    async def add_reaction(self, req: ApiRequest) -> None:
        channel = self._channel(req)
        msg = self._channel_message(req, channel)
        self.fake._check_denied(channel.id, "add_reactions")
        emoji = req.params["emoji"]
        users = msg.reactions.setdefault(emoji, set())
        if self.fake.bot_user.id not in users:
            users.add(self.fake.bot_user.id)
            await self._reaction_event("MESSAGE_REACTION_ADD", msg, emoji, self.fake.bot_user.id)

    async def remove_own_reaction(self, req: ApiRequest) -> None:
        channel = self._channel(req)
        msg = self._channel_message(req, channel)
        emoji = req.params["emoji"]
        users = msg.reactions.get(emoji, set())
        if self.fake.bot_user.id in users:
            users.discard(self.fake.bot_user.id)
            await self._reaction_event("MESSAGE_REACTION_REMOVE", msg, emoji, self.fake.bot_user.id)

    async def remove_reaction(self, req: ApiRequest) -> None:
        channel = self._channel(req)
        msg = self._channel_message(req, channel)
        self.fake._check_denied(channel.id, "delete_messages")
        emoji = req.params["emoji"]
        user_id = req.snowflake("user_id")
        if user_id in msg.reactions.get(emoji, set()):
            msg.reactions[emoji].discard(user_id)
            await self._reaction_event("MESSAGE_REACTION_REMOVE", msg, emoji, user_id)

    async def clear_emoji(self, req: ApiRequest) -> None:
        channel = self._channel(req)
        msg = self._channel_message(req, channel)
        self.fake._check_denied(channel.id, "delete_messages")
        msg.reactions.pop(req.params["emoji"], None)

    async def clear_reactions(self, req: ApiRequest) -> None:
        channel = self._channel(req)
        msg = self._channel_message(req, channel)
        self.fake._check_denied(channel.id, "delete_messages")
        msg.reactions.clear()

    # ------------------------------------------------------------------ threads
    def _thread_name(self, data: JSON) -> str:
        name = str(data.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise form_error("name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        return name

    async def create_thread(self, req: ApiRequest) -> JSON:
        fake = self.fake
        parent = self._channel(req)
        fake._check_denied(parent.id, "create_thread")
        data = req.data
        name = self._thread_name(data)
        archive = int(data.get("auto_archive_duration") or 1440)
        if parent.type in (FORUM_CHANNEL, 16):
            message_data = data.get("message")
            if not isinstance(message_data, dict):
                raise form_error("message", "BASE_TYPE_REQUIRED", "This field is required")
            thread = fake._new_thread(
                parent, name, owner=fake.bot_user, type=PUBLIC_THREAD, auto_archive_duration=archive
            )
            await _wait(fake._announce_thread(thread))
            starter = await self._new_message(
                thread, message_data, req.uploads, author=fake.bot_user, message_id=thread.id
            )
            payload = fake.channel_payload(thread)
            payload["message"] = fake.message_payload(starter)
            return payload
        if parent.type not in (TEXT_CHANNEL, NEWS_CHANNEL):
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        ttype = int(data.get("type") or PRIVATE_THREAD)
        if ttype not in (PUBLIC_THREAD, PRIVATE_THREAD, 10):
            raise form_error("type", "BASE_TYPE_CHOICES", "Value must be one of {10, 11, 12}.")
        thread = fake._new_thread(
            parent,
            name,
            owner=fake.bot_user,
            type=ttype,
            auto_archive_duration=archive,
            invitable=bool(data.get("invitable", True)),
        )
        await _wait(fake._announce_thread(thread))
        return fake.channel_payload(thread)

    async def thread_from_message(self, req: ApiRequest) -> JSON:
        fake = self.fake
        parent = self._channel(req)
        msg = self._channel_message(req, parent)
        fake._check_denied(parent.id, "create_thread")
        if parent.type not in (TEXT_CHANNEL, NEWS_CHANNEL):
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        if msg.thread_id is not None:
            raise ApiError(400, 160004, "A thread has already been created for this message")
        data = req.data
        thread = fake._new_thread(
            parent,
            self._thread_name(data),
            owner=fake.bot_user,
            type=PUBLIC_THREAD,
            thread_id=msg.id,
            auto_archive_duration=int(data.get("auto_archive_duration") or 1440),
        )
        msg.thread_id = thread.id
        await _wait(fake._announce_thread(thread))
        await _wait(fake._announce_message("MESSAGE_UPDATE", msg))
        return fake.channel_payload(thread)

    def _thread(self, req: ApiRequest) -> FakeChannel:
        channel = self._channel(req)
        if not channel.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        return channel

    def _member_id(self, req: ApiRequest) -> int:
        if req.params["user_id"] == "@me":
            return self.fake.bot_user.id
        return req.snowflake("user_id")

    async def list_thread_members(self, req: ApiRequest) -> list[JSON]:
        thread = self._thread(req)
        return [self._thread_member_payload(thread, uid) for uid in sorted(thread.member_ids)]

    async def get_thread_member(self, req: ApiRequest) -> JSON:
        thread = self._thread(req)
        uid = self._member_id(req)
        if uid not in thread.member_ids:
            raise unknown("Member", 10007)
        return self._thread_member_payload(thread, uid)

    async def add_thread_member(self, req: ApiRequest) -> None:
        thread = self._thread(req)
        uid = self._member_id(req)
        if uid != self.fake.bot_user.id:
            self.fake._check_denied(thread.id, "manage_thread_members")
        if uid not in self.fake.users:
            raise unknown("User", 10013)
        thread.member_ids.add(uid)

    async def remove_thread_member(self, req: ApiRequest) -> None:
        thread = self._thread(req)
        uid = self._member_id(req)
        if uid != self.fake.bot_user.id:
            self.fake._check_denied(thread.id, "manage_thread_members")
        thread.member_ids.discard(uid)

    # ------------------------------------------------------------------ guilds
    def _guild(self, req: ApiRequest) -> FakeGuild:
        guild = self.fake.guilds.get(req.snowflake("guild_id"))
        if guild is None:
            raise unknown("Guild", 10004)
        return guild

    async def get_guild(self, req: ApiRequest) -> JSON:
        return self.fake.guild_payload(self._guild(req))

    async def guild_channels(self, req: ApiRequest) -> list[JSON]:
        guild = self._guild(req)
        return [
            self.fake.channel_payload(self.fake.channels[c])
            for c in guild.channel_ids
            if c in self.fake.channels
        ]

    async def guild_roles(self, req: ApiRequest) -> list[JSON]:
        guild = self._guild(req)
        return [r.payload() for r in guild.roles.values()]

    async def guild_members(self, req: ApiRequest) -> list[JSON]:
        guild = self._guild(req)
        limit = int(req.query.get("limit", 1))
        after = int(req.query.get("after", 0))
        members = sorted(guild.members.values(), key=lambda m: m.user.id)
        return [m.payload() for m in members if m.user.id > after][:limit]

    async def guild_member(self, req: ApiRequest) -> JSON:
        guild = self._guild(req)
        member: FakeMember | None = guild.members.get(req.snowflake("user_id"))
        if member is None:
            raise unknown("Member", 10007)
        return member.payload()

    def _role_change(self, req: ApiRequest) -> tuple[FakeGuild, FakeMember, int]:
        """Discord's checks of a member's role change: Manage Roles, a role of the guild that
        no integration manages, below the bot's highest role."""
        guild = self._guild(req)
        member: FakeMember | None = guild.members.get(req.snowflake("user_id"))
        if member is None:
            raise unknown("Member", 10007)
        role = guild.roles.get(req.snowflake("role_id"))
        if role is None:
            raise unknown("Role", 10011)
        bot = self.fake.bot_user.id
        manage = 1 << 28  # Manage Roles
        if not guild.base_permissions(bot) & manage:
            raise missing_permissions()
        mine = guild.members[bot].role_ids
        top = max((guild.roles[r].position for r in mine if r in guild.roles), default=0)
        if role.managed or role.id == guild.id or role.position >= top:
            raise missing_permissions()
        return guild, member, role.id

    def _member_updated(self, guild: FakeGuild, member: FakeMember) -> None:
        data = member.payload()
        data["guild_id"] = str(guild.id)
        self.fake._post("GUILD_MEMBER_UPDATE", data, INTENT_GUILD_MEMBERS)

    async def add_member_role(self, req: ApiRequest) -> None:
        guild, member, role_id = self._role_change(req)
        if role_id not in member.role_ids:
            member.role_ids.append(role_id)
            self._member_updated(guild, member)

    async def remove_member_role(self, req: ApiRequest) -> None:
        guild, member, role_id = self._role_change(req)
        if role_id in member.role_ids:
            member.role_ids.remove(role_id)
            self._member_updated(guild, member)

    async def active_threads(self, req: ApiRequest) -> JSON:
        guild = self._guild(req)
        threads = [
            t
            for t in self.fake.channels.values()
            if t.is_thread and t.guild_id == guild.id and not t.archived
        ]
        return {
            "threads": [self.fake.channel_payload(t) for t in threads],
            "members": [
                self._thread_member_payload(t, self.fake.bot_user.id)
                for t in threads
                if self.fake.bot_user.id in t.member_ids
            ],
        }
