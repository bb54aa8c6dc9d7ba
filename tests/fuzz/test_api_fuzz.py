"""Schema-driven fuzzing of the whole API: every operation of ``/api/schema/``, anonymous, as an
organiser of the league (token auth) and as a captain of a game in play (``X-Captain-Token``),
against the in-process WSGI app on a small seeded league (``tests/fuzz/seed.py``).

Nothing a client sends may answer 5xx, and every answer must match the schema: a declared status
code, a declared content type and a body of the declared shape. Examples are derandomized, so a
run is the same every time; path ids and body references are steered onto the seeded rows most of
the time, so the fuzzer reaches the services and not only the 404s.
"""

import json
import os

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections, transaction
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.fuzz import REQUESTS
from tests.fuzz.seed import seed_league

pytestmark = [pytest.mark.django_db, pytest.mark.fuzz]

MAX_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "5"))
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
# Which seeded rows a path's ``{id}`` means, by the path's first part.
RESOURCES = {
    "brackets": "bracket",
    "games": "game",
    "leagues": "league",
    "nights": "night",
    "players": "player",
    "rulebooks": "rulebook",
    "seasons": "season",
    "teams": "team",
}
# Body fields that name a row, and which rows.
REFERENCES = {
    "league": "league",
    "season": "season",
    "rulebook": "rulebook",
    "player": "player",
    "player_one": "player",
    "player_two": "player",
    "caller": "player",
    "substitute": "player",
    "substitute_for": "player",
    "team": "team",
    "team_a": "team",
    "team_b": "team",
    "winner": "team",
    "teams": "team",
    "seats": "player",
}
STEERED = 64  # generated ids below this are taken as an index into the seeded rows

schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())


def steer(value, pool):
    if isinstance(value, bool) or not pool:
        return value
    if isinstance(value, int) and 0 <= value < STEERED:
        return pool[value % len(pool)]
    if isinstance(value, list):
        return [steer(item, pool) for item in value]
    return value


def aim_at_the_league(case, league) -> None:
    resource = RESOURCES.get(case.operation.path.split("/")[3])
    params = case.path_parameters or {}
    if "id" in params and resource:
        params["id"] = steer(params["id"], league.ids[resource])
    if "player_id" in params:
        params["player_id"] = steer(params["player_id"], league.ids["player"])
    if isinstance(case.body, dict):
        for name, kind in REFERENCES.items():
            if name in case.body:
                case.body[name] = steer(case.body[name], league.ids[kind])


@pytest.fixture(scope="module")
def seeded(django_db_setup, django_db_blocker):
    """The seeded league, built once per test process in a transaction rolled back when the
    module is done. Each test's ``db`` runs in a savepoint inside it, rolled back after the test,
    so every test starts from exactly the seeded rows, as if the league were seeded for it alone
    (seeding it again for each of its 420 tests was about a tenth of the suite's time)."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield seed_league()
        transaction.set_rollback(True)


@pytest.fixture
def league(seeded, db):
    """The seeded league; Django's request signals must not close the test's connection (they
    would on PostgreSQL: the WSGI app is called directly, not through Django's test client)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield seeded
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.mark.parametrize("audience", ["anonymous", "organiser", "captain"])
@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_nothing_a_client_sends_breaks_the_api(case, league, audience):
    aim_at_the_league(case, league)
    headers = {}
    if audience == "organiser":
        token, _ = Token.objects.get_or_create(user=league.organiser)
        headers["Authorization"] = f"Token {token.key}"
    elif audience == "captain":
        headers["X-Captain-Token"] = league.captain_token
    REQUESTS[audience] += 1
    case.call_and_validate(headers=headers, checks=CHECKS)


# --- NUL and lone surrogates -------------------------------------------------------------------

NUL = "\x00"
SURROGATES = st.sampled_from(["\ud800", "\udbff", "\udc00", "\udfff"])
"""Lone surrogates: a JSON body's ``\\ud800`` escapes make them. Nothing else can carry one: a
path, a query, a header or a form travels as bytes, and a lone surrogate has no UTF-8 form."""
PARTS = ("path", "query", "header", "body")


def _strings(value, at=()):
    """The places in a JSON value where a string is (keys and values), as paths to them."""
    if isinstance(value, dict):
        for key, child in value.items():
            yield (*at, ("key", key))
            yield from _strings(child, (*at, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _strings(child, (*at, index))
    elif isinstance(value, str):
        yield at


def _poisoned(value, place, character):
    """``value`` with ``character`` put into the string at ``place``."""
    if not place:
        return f"{value}{character}"
    step, rest = place[0], place[1:]
    if isinstance(step, tuple):  # a key of this object
        key = step[1]
        return {(f"{name}{character}" if name == key else name): v for name, v in value.items()}
    if isinstance(value, dict):
        return {**value, step: _poisoned(value[step], rest, character)}
    return [_poisoned(v, rest, character) if i == step else v for i, v in enumerate(value)]


def poison(case, data, headers: dict) -> tuple[str, dict]:
    """Put a NUL (or, into a JSON body, a lone surrogate) into one part of ``case`` or the
    audience's ``headers``; the part it went into, and what to add to the call: a poisoned body
    is sent as the JSON text a client would send (``\\ud800`` escapes), not set on the case,
    whose own checks of a body cannot read a lone surrogate."""
    parts = [part for part in PARTS if part != "path" or case.path_parameters]
    if not (isinstance(case.body, (dict, list)) and "json" in (case.media_type or "")):
        parts.remove("body")
    # A body, where there is one, half the time: it is where the views read most.
    weighted = [*parts, *(["body"] * (len(parts) - 1) if "body" in parts else [])]
    part = data.draw(st.sampled_from(weighted), label="part")
    character = NUL
    if part == "body":
        character = data.draw(st.one_of(st.just(NUL), SURROGATES), label="character")
        places = list(_strings(case.body))
        if places:
            place = data.draw(st.sampled_from(places), label="place")
            body = _poisoned(case.body, place, character)
        elif isinstance(case.body, dict):
            body = {**case.body, "note": character}
        else:
            body = [*case.body, character]
        return part, {"data": json.dumps(body)}
    if part == "path":
        name = data.draw(st.sampled_from(sorted(case.path_parameters)), label="parameter")
        case.path_parameters[name] = f"{case.path_parameters[name]}{character}"
    elif part == "query":
        query = dict(case.query or {})
        name = data.draw(st.sampled_from([*sorted(query), "note"]), label="parameter")
        query[name] = f"{query.get(name, '')}{character}"
        case.query = query
    else:
        names = sorted({*(case.headers or {}), *headers, "X-Note"})
        name = data.draw(st.sampled_from(names), label="header")
        value = headers.get(name, (case.headers or {}).get(name, ""))
        headers[name] = f"{value}{character}"
    return part, {}


@pytest.mark.parametrize("audience", ["anonymous", "organiser", "captain"])
@schema.parametrize()
@schema.given(data=st.data())
@settings(
    max_examples=MAX_EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_a_nul_or_a_lone_surrogate_anywhere_is_refused(case, data, league, audience):
    """Every operation, with a NUL in its path, query or headers, or a NUL or a lone surrogate in
    its JSON body: refused (a path, query or header always with 400, before any view), never a
    server error, and the refusal as the schema declares it."""
    aim_at_the_league(case, league)
    headers = {}
    if audience == "organiser":
        token, _ = Token.objects.get_or_create(user=league.organiser)
        headers["Authorization"] = f"Token {token.key}"
    elif audience == "captain":
        headers["X-Captain-Token"] = league.captain_token
    part, body = poison(case, data, headers)
    REQUESTS[f"{audience} (poisoned)"] += 1
    response = case.call(headers=headers, **body)
    case.validate_response(response, checks=CHECKS, headers=headers)
    if part == "body":
        assert 400 <= response.status_code < 500, (part, response.status_code)
    else:
        assert response.status_code == 400, (part, response.status_code, response.text[:200])
