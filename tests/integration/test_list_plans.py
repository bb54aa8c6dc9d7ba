"""A page of the games list is read from an index in the list's order (newest first), whole or of
one season, instead of sorting every game: the cost of a page does not grow with the season.

PostgreSQL's plan is what is checked (sorting and sequential scans priced out, so a plan without
a Sort node exists only if an index gives the order): marked ``services``, the second pass."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from tests.conftest import require
from tests.factories import GameFactory, SeasonFactory

pytestmark = [pytest.mark.services, pytest.mark.django_db]


def page_query(client, address: str) -> str:
    """The SQL of the page's rows (not its count) that ``address`` runs."""
    with CaptureQueriesContext(connection) as queries:
        assert client.get(address).status_code == 200
    (page,) = [query["sql"] for query in queries if "LIMIT" in query["sql"]]
    return page


def plan(sql: str) -> str:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_sort = off")
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute(f"EXPLAIN {sql}")
        return "\n".join(row[0] for row in cursor.fetchall())


@pytest.mark.parametrize("filtered", [False, True])
def test_a_page_of_games_is_read_in_order_from_an_index(client, filtered):
    require(connection.vendor == "postgresql", "needs PostgreSQL (DATABASE_URL)")
    season = SeasonFactory()
    GameFactory.create_batch(5, season=season)
    GameFactory.create_batch(3, season=SeasonFactory())
    address = f"/api/v1/games/?season={season.pk}" if filtered else "/api/v1/games/"
    chosen = plan(page_query(client, address))
    assert "Sort" not in chosen, chosen
    assert ("game_season_newest" if filtered else "game_newest") in chosen, chosen
