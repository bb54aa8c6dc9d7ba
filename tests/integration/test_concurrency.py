"""Real concurrency on PostgreSQL: captains racing on one table never record a hand twice."""

import threading

import pytest
from django.db import connections

from core.errors import ConflictError
from scoring.games import services
from scoring.games.models import Hand

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def race(count, work):
    """Run ``work(index)`` in ``count`` threads released together; return results or errors."""
    barrier = threading.Barrier(count)
    results = [None] * count

    def run(index):
        try:
            barrier.wait()
            results[index] = work(index)
        except Exception as error:
            results[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(index,)) for index in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_four_captains_entering_hand_one_at_once_record_it_once(make_game, settings):
    from tests.conftest import require

    require(settings.DATABASES["default"]["ENGINE"].endswith("postgresql"), "needs PostgreSQL")
    game = make_game("standard")

    def enter(index):
        return services.hand_record(
            game=game,
            data=services.HandInput(makers="AB"[index % 2], tricks_won=3 + index % 3),
            client_key=f"phone-{index}",
            expected_number=1,
        )

    results = race(4, enter)
    created = [result for result in results if not isinstance(result, Exception)]
    refused = [result for result in results if isinstance(result, ConflictError)]
    assert (len(created), len(refused)) == (1, 3)
    assert all("hand 1 was already entered" in error.message for error in refused)
    assert Hand.objects.filter(game=game).count() == 1


def test_one_phone_retrying_the_same_hand_at_once_records_it_once(make_game, settings):
    from tests.conftest import require

    require(settings.DATABASES["default"]["ENGINE"].endswith("postgresql"), "needs PostgreSQL")
    game = make_game("standard")

    def retry(_index):
        return services.hand_record(
            game=game,
            data=services.HandInput(makers="A", tricks_won=5),
            client_key="same-key",
            expected_number=1,
        )

    results = race(4, retry)
    assert not [result for result in results if isinstance(result, Exception)], results
    assert len({result.hand.pk for result in results}) == 1
    assert sorted(result.created for result in results) == [False, False, False, True]
    assert Hand.objects.filter(game=game).count() == 1


def test_two_organisers_adding_overlapping_teams_at_once_get_one_team(make_season, settings):
    from tests.conftest import require

    require(settings.DATABASES["default"]["ENGINE"].endswith("postgresql"), "needs PostgreSQL")
    from core.errors import DomainError
    from league import services as league_services
    from league.models import Team

    season = make_season()
    names = ["Ann", "Bea", "Cy", "Dee", "Eve"]
    roster = [league_services.player_create(league=season.league, name=n) for n in names]

    def add(index):
        return league_services.team_create(
            season=season, name=f"Team {index}", player_one=roster[0], player_two=roster[index + 1]
        )

    results = race(4, add)
    refused = [result for result in results if isinstance(result, DomainError)]
    assert len(refused) == 3, results
    assert all("only one team in a season" in error.message for error in refused)
    assert Team.objects.filter(season=season).count() == 1
