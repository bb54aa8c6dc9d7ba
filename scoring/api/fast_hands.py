"""The hand POST's plain case, served without DRF's dispatch (by ``config.hands``, above the
page middlewares); every other request to the same URL goes to the DRF view
(``GameViewSet.record_hand`` and ``hands``) unchanged.

The hand POST is the busiest request of a night, and DRF's dispatch and input serializer were
about 30% of its cost under load (``benchmarks/bench_api_hands.py``). The *plain case*: a POST
with no query string, a JSON body of the hand's fields in their JSON types, an organiser's
``Authorization: Token …`` header, no captain token, no session cookie, and an ``Accept`` that
JSON answers. It is read and written by the same door read (``token_and_game_to_score``, with of
the token's user only what a write needs: ``user_and_game_to_score``), the same service
(``hand_record``) and the same serializers (``represent``) as the DRF view, and answered with the
same bytes and headers.

Whatever the plain case does not plainly allow goes to the DRF view, which decides it as before:
a field of another type or value, an unknown field, a token that is no token, a game the user
may not score, and any ``DomainError`` of the service (a conflict, a refusal), raised before it
writes anything. So errors, captain tokens, sessions, content negotiation and the API schema
have one source. ``tests/api/test_hand_fast_path.py`` posts the same bodies both ways and
compares statuses, bodies, headers and rows.
"""

from __future__ import annotations

import json
import re

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers
from rest_framework.renderers import JSONRenderer

from league.access import is_organiser_given_role
from league.errors import DomainError
from scoring import services
from scoring.access import user_and_game_to_score
from scoring.api import serializers as s
from scoring.models import Hand

TOKEN = re.compile(r"Token ([0-9a-f]{40})")
ALLOW = "GET, POST, HEAD, OPTIONS"  # as DRF says it for this route (the tests compare them)
ACCEPTED = {None, "*/*", "application/json"}  # (an empty Accept is DRF's 406)
SIDES = (None, "", "A", "B")  # a tuple: a value may be a list, which no set can hold
FLAGS = ("caller_alone", "defender_alone", "thrown_in", "misdeal")
FIELDS = {"makers", "caller", "tricks_won", "renege", "ordered_up", "number", *FLAGS}
LARGEST = 2**31 - 1


def _whole(value, low: int, high: int) -> bool:
    """A JSON integer (not a boolean) from ``low`` to ``high``."""
    return type(value) is int and low <= value <= high


def plain_facts(body: bytes) -> dict | None:
    """The hand's fields of a plain body, as the input serializer would validate them, or
    ``None`` when the body is not plainly valid (the DRF view decides it)."""
    try:  # strictly UTF-8, as DRF's parser reads it (json.loads would guess UTF-16 or a BOM)
        data = json.loads(body.decode("utf-8"))
    except (ValueError, RecursionError):  # a body nested too deeply raises RecursionError
        return None
    if type(data) is not dict or not set(data) <= FIELDS:
        return None
    if data.get("makers") not in SIDES or data.get("renege") not in SIDES:
        return None
    if any(type(data.get(flag, False)) is not bool for flag in FLAGS):
        return None
    if data.get("ordered_up") is not None and type(data["ordered_up"]) is not bool:
        return None
    for name, low, high in (("caller", 0, LARGEST), ("tricks_won", 0, 5), ("number", 1, LARGEST)):
        if data.get(name) is not None and not _whole(data[name], low, high):
            return None
    return data


def plain_answer(request: HttpRequest, pk: str) -> HttpResponse | None:
    """The answer to a request to game ``pk``'s hands URL if it is a plain hand POST, else
    ``None`` (nothing was written: the DRF view answers it)."""
    return _plain(request, pk) if request.method == "POST" and _looks_plain(request) else None


def _looks_plain(request: HttpRequest) -> bool:
    return (
        not request.META.get("QUERY_STRING")
        and request.content_type == "application/json"
        and request.content_params.get("charset", "utf-8").lower() == "utf-8"
        and "HTTP_X_CAPTAIN_TOKEN" not in request.META
        and settings.SESSION_COOKIE_NAME not in request.COOKIES
        and request.META.get("HTTP_ACCEPT") in ACCEPTED
    )


def _plain(request: HttpRequest, pk: str) -> HttpResponse | None:
    """The answer to a plain hand POST, or ``None`` (nothing written) for the DRF view."""
    key = TOKEN.fullmatch(request.META.get("HTTP_AUTHORIZATION", ""))
    if key is None:
        return None
    try:
        body = request.body
    except RequestDataTooBig:  # raised before the body is read: DRF answers it (413)
        return None
    data = plain_facts(body)
    if data is None:
        return None
    user, door = user_and_game_to_score(key[1], pk)
    if user is None or door is None or door.game is None:
        return None
    if not user.is_active or not is_organiser_given_role(user=user, has_role=door.has_role):
        return None
    try:
        result = services.hand_record(
            game=door.game,
            data=services.HandInput.from_data(data),
            client_key=request.META.get("HTTP_IDEMPOTENCY_KEY") or None,
            expected_number=data.get("number"),
            source=Hand.Source.API,
            user=user,
        )
    except DomainError:
        return None  # raised before any write: the DRF view answers it as always
    payload = {
        **s.represent(s.HandSerializer, result.hand),
        "game": s.represent(s.GameSerializer, result.game),
    }
    response = HttpResponse(
        JSONRenderer().render(payload),
        status=201 if result.created else 200,
        content_type="application/json",
    )
    # DRF varies on Accept; the session middleware adds Cookie once DRF's session auth looked.
    patch_vary_headers(response, ("Accept", "Cookie"))
    response["Allow"] = ALLOW
    return response
