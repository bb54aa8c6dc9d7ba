"""With a real worker on Redis and PostgreSQL: games scheduled after the last result change the
playoff race, and the race API's ``is_current`` is false until the worker has run it again.

The season of ``tests/api/test_race_schedule.py``: four teams, one playoff spot, ranked by wins;
Aces beat Bowers 10–3 (Aces clinched, the others out); then Clubs–Diamonds and Bowers–Clubs are
scheduled through the API."""

import pytest

from scoring.games import services
from tests.api.test_race_schedule import four_teams, race_of, schedule
from tests.factories import team_game
from tests.integration.conftest import wait_for

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_scheduled_games_reach_the_race_through_a_real_worker(
    celery_worker_process, league, api, organiser_api
):
    season, teams = four_teams(league)
    game = team_game(season, teams["Aces"], teams["Bowers"])
    services.game_record_final_score(game=game, score_a=10, score_b=3)
    race = wait_for(lambda: (body := race_of(api, season))["is_current"] and body)
    assert race["games_left"] == 0
    assert race["by_name"]["Aces"]["clinched"] is True
    assert all(race["by_name"][name]["eliminated"] for name in ("Bowers", "Clubs", "Diamonds"))

    schedule(organiser_api, season, teams["Clubs"], teams["Diamonds"])
    # committed; the race waits its coalescing countdown (2 s) on the worker
    assert race_of(api, season)["is_current"] is False
    schedule(organiser_api, season, teams["Bowers"], teams["Clubs"])

    race = wait_for(
        lambda: (body := race_of(api, season))["is_current"] and body["games_left"] == 2 and body
    )
    assert race["by_name"]["Aces"]["clinched"] is False
    assert race["by_name"]["Clubs"]["eliminated"] is False
    # A second race asked for by the second game may still wait its countdown: let the worker
    # finish it before the database is flushed for the next test.
    wait_for(worker_idle)


def worker_idle() -> bool:
    from config.celery import app
    from tests.integration.conftest import worker_name

    name = worker_name("test-worker")
    inspect = app.control.inspect(destination=[name], timeout=2)
    return not any(
        (getattr(inspect, kind)() or {}).get(name) for kind in ("active", "reserved", "scheduled")
    )
