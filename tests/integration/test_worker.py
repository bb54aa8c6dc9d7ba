"""With a real worker on Redis: a rulebook change re-derives every hand in the background, and the
periodic sweep repairs what a lost message left stale."""

import pytest

from league.models import Season
from scoring.games.models import Hand
from scoring.standings.tasks import sweep_stale_seasons
from tests.integration.conftest import wait_for

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_rulebook_change_is_rederived_by_a_real_worker(
    celery_worker_process, organiser_api, make_game
):
    game = make_game("standard")
    for key in ("a", "b"):
        response = organiser_api.post(
            f"/api/v1/games/{game.pk}/hands/",
            {"makers": "A", "caller_alone": True, "tricks_won": 1},
            format="json",
            HTTP_IDEMPOTENCY_KEY=key,
        )
        assert response.json()["points_b"] == 2
    changed = organiser_api.post(
        f"/api/v1/seasons/{game.season_id}/rules/",
        {"options": {"lone_caller_euchred_points": 4}},
        format="json",
    )
    assert changed.status_code == 202, changed.json()
    new_rulebook = changed.json()["rulebook"]
    assert (new_rulebook["version"], new_rulebook["previous"]) == (2, game.season.rulebook_id)

    wait_for(
        lambda: not Hand.objects.filter(game=game).exclude(rulebook_id=new_rulebook["id"]).exists()
    )
    assert list(Hand.objects.filter(game=game).values_list("points_b", flat=True)) == [4, 4]
    game.refresh_from_db()
    assert (game.score_a, game.score_b) == (0, 8)


def test_sweep_repairs_a_season_whose_message_was_lost(celery_worker_process, make_game):
    game = make_game("standard")
    from scoring.games import services

    services.hand_record(game=game, data=services.HandInput(makers="B", tricks_won=5))
    old_rulebook = game.season.rulebook
    # The broker was down: the rulebook changed but no re-derive message was ever sent.
    from tests.factories import RulebookFactory

    new_rulebook = RulebookFactory(
        league=game.season.league,
        slug="standard",
        options={
            **old_rulebook.options,
            "march_points": 3,
        },
    )
    Season.objects.filter(pk=game.season_id).update(rulebook=new_rulebook)

    sweep_stale_seasons.delay()  # as beat sends it
    wait_for(lambda: Hand.objects.get(game=game).rulebook_id == new_rulebook.pk)
    assert Hand.objects.get(game=game).points_b == 3


def test_a_hand_posted_to_the_api_reaches_the_standings(
    celery_worker_process, organiser_api, api, make_game, make_season
):
    game = make_game(season=make_season("standard", format="individual"))
    for key in ("x", "y"):
        organiser_api.post(
            f"/api/v1/games/{game.pk}/hands/",
            {"makers": "B", "caller_alone": True, "tricks_won": 5},
            format="json",
            HTTP_IDEMPOTENCY_KEY=key,
        )
    last = organiser_api.post(
        f"/api/v1/games/{game.pk}/hands/",
        {"makers": "B", "caller_alone": True, "tricks_won": 5},
        format="json",
        HTTP_IDEMPOTENCY_KEY="z",
    )
    assert last.json()["game"]["status"] == "finished"

    def current_standings():
        response = api.get(f"/api/v1/seasons/{game.season_id}/standings/")
        return response.status_code == 200 and response.json()["is_current"] and response.json()

    body = wait_for(current_standings)
    rows = body["standings"]["rows"]
    winners = {game.seat_1_id, game.seat_3_id}
    assert {row["entrant"] for row in rows if row["wins"] == 1} == winners
    assert {row["points_for"] for row in rows if row["entrant"] in winners} == {12}


def test_the_race_follows_the_standings_on_its_own_queue(
    celery_worker_process, make_game, make_season
):
    """A finished game's recompute asks for the season's race, which goes to the ``race`` queue;
    a worker started without ``-Q`` (as here) consumes it beside the default one."""
    from config.celery import app
    from scoring.games import services
    from scoring.standings.models import StandingSnapshot
    from tests.integration.conftest import worker_name

    name = worker_name("test-worker")
    consumed = app.control.inspect(destination=[name], timeout=5).active_queues()
    assert {queue["name"] for queue in consumed[name]} == {"celery", "race"}

    game = make_game(season=make_season("standard", format="individual"))
    while game.status != game.Status.FINISHED:  # marches until side B wins
        services.hand_record(game=game, data=services.HandInput(makers="B", tricks_won=5))
        game.refresh_from_db()

    def race_current():
        snapshot = StandingSnapshot.objects.filter(season_id=game.season_id).first()
        return (
            snapshot is not None
            and snapshot.results_version >= 1
            and snapshot.race_version == snapshot.results_version
            and snapshot
        )

    snapshot = wait_for(race_current)
    assert snapshot.race["status"] in ("ok", "not_available") and snapshot.race["reason"]
