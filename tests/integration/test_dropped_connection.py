"""A connection the server dropped between requests is replaced (Django's ``CONN_HEALTH_CHECKS``,
on in production): the next hand POST is stored on a new connection.

PostgreSQL only (the persistent, health-checked connection of a deployment): marked
``services``, the suite's second pass."""

import psycopg
import pytest
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.backends.postgresql.base import DatabaseWrapper

from scoring.games.models import Hand
from tests.api.test_hand_door import post_hand
from tests.conftest import require

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def health_checks(monkeypatch):
    """The connection as at the start of a request on a deployment: open, health checks on and
    due (the test client keeps Django from resetting them between requests). Counts the
    connection's own health checks (``is_usable``)."""
    require(connection.vendor == "postgresql", "needs PostgreSQL (DATABASE_URL)")
    connection.ensure_connection()
    database = connections[DEFAULT_DB_ALIAS]
    monkeypatch.setattr(database, "health_check_enabled", True)
    checks = []
    is_usable = DatabaseWrapper.is_usable

    def counted(self):
        checks.append(1)
        return is_usable(self)

    monkeypatch.setattr(DatabaseWrapper, "is_usable", counted)

    def due():
        """A new request: the check is due, none made yet."""
        database.health_check_done = False
        checks.clear()

    return due, checks


def backend_pid() -> int:
    return connection.connection.info.backend_pid


def test_a_connection_dropped_between_requests_is_replaced(health_checks, organiser_api, make_game):
    due, checks = health_checks
    game = make_game()
    assert post_hand(organiser_api, game, 1).status_code == 201
    dropped = backend_pid()
    settings = connection.settings_dict
    with psycopg.connect(
        host=settings["HOST"],
        port=settings["PORT"] or 5432,
        user=settings["USER"],
        dbname=settings["NAME"],
        password=settings["PASSWORD"] or None,
        autocommit=True,
    ) as other:
        other.execute("SELECT pg_terminate_backend(%s, 5000)", [dropped])  # waits for it
    due()
    response = post_hand(organiser_api, game, 2)
    assert response.status_code == 201, response.content
    assert response.json()["number"] == 2
    assert checks == [1]  # the failed read asked whether the connection was still usable
    assert backend_pid() != dropped
    assert list(Hand.objects.filter(game=game).values_list("number", flat=True)) == [1, 2]
