"""Pages read over HTTP while results are written never make a write fail, nor fail themselves.

Players keep the standings open on their phones (htmx polls them every few seconds) while
captains enter hands and the standings are recomputed. On the embedded default (SQLite in WAL
mode) and on PostgreSQL alike, a reader never blocks the writer. The suite's own SQLite database
must behave the same: Django's shared in-memory test database does not (the live server's
threads lock its tables, and a recompute beside a page read failed with "database table is
locked" in 4 to 10 of 30 runs), which is why ``tests/conftest.py`` gives each test process a
WAL file instead.
"""

import datetime
import threading
import time
import urllib.error
import urllib.request

import pytest

from league.models import Night, Player, Team
from scoring.games import services
from scoring.games.models import ResultChange
from scoring.standings.models import StandingSnapshot
from scoring.standings.services.recompute import season_standings_recompute
from tests.factories import SeasonFactory, team_game

pytestmark = [pytest.mark.django_db(transaction=True)]

READS = 20
"""Pages read while the test recomputes (at least): each recompute is a few milliseconds, a page
read tens, so a few hundred recomputes overlap them."""


def lone_march(game, side="A"):
    services.hand_record(
        game=game, data=services.HandInput(makers=side, caller_alone=True, tricks_won=5)
    )


class Readers:
    """``count`` threads reading ``url`` over and over until stopped; each answer's status."""

    def __init__(self, url: str, count: int = 2):
        self.url, self.statuses, self._stop = url, [], threading.Event()
        self._threads = [threading.Thread(target=self._read) for _ in range(count)]

    def _read(self):
        while not self._stop.is_set():
            try:
                with urllib.request.urlopen(self.url, timeout=30) as answer:
                    answer.read()
                    self.statuses.append(answer.status)
            except urllib.error.HTTPError as error:
                self.statuses.append(error.code)

    def __enter__(self):
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        for thread in self._threads:
            thread.join()


def test_standings_recomputes_and_a_hand_succeed_while_the_page_is_read(
    live_server, organiser, organiser_api
):
    league = organiser.league_roles.get().league
    season = SeasonFactory(league=league, rulebook__slug="standard")
    night = Night.objects.create(season=season, date=datetime.date(2026, 9, 8), status="playing")
    aces, bowers = (
        Team.objects.create(
            season=season,
            name=name,
            player_one=Player.objects.create(league=league, name=f"{name} one"),
            player_two=Player.objects.create(league=league, name=f"{name} two"),
        )
        for name in ("Aces", "Bowers")
    )
    game = team_game(season, aces, bowers, night)
    lone_march(game)
    lone_march(game)  # Aces lead 8–0
    url = f"{live_server.url}/l/{league.slug}/s/{season.pk}/"

    with Readers(url) as readers:
        deadline = time.monotonic() + 60
        while len(readers.statuses) < READS and time.monotonic() < deadline:
            season_standings_recompute(season_id=season.pk, force=True)
        response = organiser_api.post(
            f"/api/v1/games/{game.pk}/hands/",
            {"makers": "A", "caller_alone": True, "tricks_won": 5},
            format="json",
        )

    assert response.status_code == 201, response.content
    assert response.json()["game"]["status"] == "finished"
    assert len(readers.statuses) >= READS, "the pages were read too few times"
    assert set(readers.statuses) == {200}
    # The finishing hand's recompute ran beside the readers too, and folded it.
    assert not ResultChange.objects.filter(season=season).exists()
    snapshot = StandingSnapshot.objects.get(season=season)
    assert snapshot.results_version == season.__class__.objects.get(pk=season.pk).results_version
    first = snapshot.standings["rows"][0]
    assert (first["name"], first["wins"]) == ("Aces", 1)
