"""Behind a transaction-pooling PgBouncer (README: How to scale out) a client's transactions may
each run on another server connection: nothing may outlive a transaction. ``DATABASE_POOLING=
transaction`` turns off Django's server-side cursors (``QuerySet.iterator()`` declares one WITH
HOLD outside a transaction) and statements are bound on the client, never prepared on the server.
On a connection of its own (``session``, the default) they are bound on the server and prepared
once a connection has run them a few times.

The settings are read by a fresh interpreter with the environment a web host of
``scripts/cluster-night`` gets; the hand path and a recompute run on the PostgreSQL pass, under
each mode's options, and leave prepared statements in their session only where it is their own."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from config.database import PREPARE_THRESHOLD, postgres_database
from scoring.standings.services.recompute import season_standings_recompute
from tests.api.test_hand_door import post_hand
from tests.conftest import require

ROOT = Path(__file__).resolve().parents[2]
READ = (
    "import json; from django.conf import settings as s; d = s.DATABASES['default'];"
    " print(json.dumps([d['DISABLE_SERVER_SIDE_CURSORS'], d['OPTIONS'], d['CONN_MAX_AGE']]))"
)


def database_settings(**env: str) -> subprocess.CompletedProcess:
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "DATABASE_POOLING", "REDIS_URL"}
    }
    environment |= {"DJANGO_SETTINGS_MODULE": "config.settings", "SECRET_KEY": "x" * 50, **env}
    return subprocess.run(
        [sys.executable, "-c", READ],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_transaction_pooling_turns_server_side_cursors_off_and_never_prepares():
    done = database_settings(
        DATABASE_URL="postgres://euchre@10.77.0.1:6432/euchre", DATABASE_POOLING="transaction"
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [
        True,
        {"server_side_binding": False, "prepare_threshold": None},
        60,
    ]


def test_a_direct_connection_keeps_server_side_cursors_and_prepares():
    done = database_settings(DATABASE_URL="postgres://euchre@db:5432/euchre")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [
        False,
        {"server_side_binding": True, "prepare_threshold": PREPARE_THRESHOLD},
        60,
    ]


def test_an_unknown_pooling_mode_is_refused_with_the_choices():
    done = database_settings(
        DATABASE_URL="postgres://euchre@db:5432/euchre", DATABASE_POOLING="statement"
    )
    assert done.returncode != 0
    assert "DATABASE_POOLING is session or transaction, not 'statement'" in done.stderr


@pytest.fixture
def connection_options():
    """Set the options of the connection the test's requests use (it is opened again with them),
    and put the test run's own back after."""
    saved = connection.settings_dict["OPTIONS"]

    def use(options: dict) -> None:
        connection.close()
        connection.settings_dict["OPTIONS"] = {**saved, **options}

    yield use
    connection.close()
    connection.settings_dict["OPTIONS"] = saved


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("pooling", ["session", "transaction"])
def test_hands_and_a_recompute_prepare_statements_only_on_a_connection_of_their_own(
    organiser_api, make_game, connection_options, pooling
):
    """A prepared statement stays in the server session that prepared it; through a transaction
    pooler the next transaction may run on another one, where it is missing: there, none is
    prepared. On a connection of its own, a hand's statements are prepared and run again."""
    require(connection.vendor == "postgresql", "needs PostgreSQL (DATABASE_URL)")
    options = postgres_database("postgres://euchre@db:5432/euchre", pooling=pooling)["OPTIONS"]
    connection_options(options)  # the options alone: the test run's own database
    game = make_game()
    for number in range(1, 8):
        assert post_hand(organiser_api, game, number, key=f"k{number}").status_code == 201
    assert post_hand(organiser_api, game, 7, key="k7").status_code == 200  # a resend
    assert season_standings_recompute(season_id=game.season_id, force=True) is not None
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_prepared_statements")
        (prepared,) = cursor.fetchone()
    if pooling == "transaction":
        assert connection.connection.prepare_threshold is None
        assert prepared == 0
    else:
        assert connection.connection.prepare_threshold == PREPARE_THRESHOLD
        assert prepared > 0
