"""A request's first read stands in for the connection's health check
(``league.rows.fetch_one_checking``): the hand POST sends no ``SELECT 1`` of its own, a
connection the server dropped between requests is replaced and the read runs again, and an
error on a usable connection is raised as it is, the read run once.

PostgreSQL only (the persistent, health-checked connection of a deployment): marked
``services``, the suite's second pass."""

import psycopg
import pytest
from django.db import DEFAULT_DB_ALIAS, OperationalError, connection, connections
from django.db.backends.postgresql.base import DatabaseWrapper

from league.rows import fetch_one_checking
from scoring.models import Hand
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


def test_the_hand_post_sends_no_health_check_of_its_own(health_checks, organiser_api, make_game):
    due, checks = health_checks
    game = make_game()
    pid = backend_pid()
    for number in (1, 2, 3):
        due()
        assert post_hand(organiser_api, game, number).status_code == 201
        assert connection.health_check_done  # the door's read was the check
        assert checks == []
    assert backend_pid() == pid  # the same connection throughout
    assert Hand.objects.filter(game=game).count() == 3


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


def test_an_error_on_a_usable_connection_is_raised_and_the_read_runs_once(health_checks):
    due, checks = health_checks
    runs = []

    def count_runs(execute, sql, params, many, context):
        runs.append(sql)
        return execute(sql, params, many, context)

    with connection.cursor() as cursor:
        cursor.execute("SET statement_timeout = 50")
    due()
    with connection.execute_wrapper(count_runs), pytest.raises(OperationalError):
        fetch_one_checking("SELECT pg_sleep(1)")
    assert len(runs) == 1
    assert checks == [1]  # usable: the error was the read's own
    with connection.cursor() as cursor:
        cursor.execute("SET statement_timeout = 0")
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


def test_inside_a_transaction_the_usual_check_runs_first(health_checks):
    """A read inside a transaction could not run again after a failure: there the connection's
    own health check runs before it, as everywhere else."""
    from django.db import transaction

    due, checks = health_checks
    with transaction.atomic():
        due()  # though a transaction is open
        assert fetch_one_checking("SELECT 41 + 1") == (42,)
    assert checks == [1]
