"""Schema-driven fuzzing of the whole API: every operation of ``/api/schema/``, anonymous, as an
organiser of the league (token auth) and as a captain of a game in play (``X-Captain-Token``),
against the in-process WSGI app on a small seeded league (``tests/fuzz/seed.py``).

Nothing a client sends may answer 5xx, and every answer must match the schema: a declared status
code, a declared content type and a body of the declared shape. Examples are derandomized, so a
run is the same every time; path ids and body references are steered onto the seeded rows most of
the time, so the fuzzer reaches the services and not only the 404s.
"""

import os

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
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


@pytest.fixture
def league(db):
    """The seeded league; Django's request signals must not close the test's connection (they
    would on PostgreSQL: the WSGI app is called directly, not through Django's test client)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield seed_league()
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
