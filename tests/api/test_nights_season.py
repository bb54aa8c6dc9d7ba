"""Season-aware plans through the API: a second night's plan avoids the first night's
partnerships, the report shows the season beside the night, stationary players stay put."""

import pytest

from league.models import Night, Season
from scoring.games.models import Game
from tests.api.test_nights import check_in, finish_round_games, make_night
from tests.factories import PlayerFactory, SeasonFactory
from tournaments.domain.rotation_chart import PARTNER_SEATS
from tournaments.models import NightPlan
from tournaments.selectors.season_history import season_history_for_night

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(league):
    return SeasonFactory(league=league, format=Season.Format.INDIVIDUAL, rulebook__slug="standard")


@pytest.fixture
def roster(league):
    return [PlayerFactory(league=league, name=f"S{n:02d}") for n in range(1, 17)]


def partnerships_of(schedule) -> set[frozenset[int]]:
    return {
        frozenset((table["seats"][first], table["seats"][second]))
        for round_ in schedule
        for table in round_["tables"]
        for first, second in PARTNER_SEATS
    }


def play_night(organiser_api, night_id, rounds):
    assert organiser_api.post(f"/api/v1/nights/{night_id}/publish/").status_code == 200
    for number in range(1, rounds + 1):
        started = organiser_api.post(f"/api/v1/nights/{night_id}/rounds/{number}/start/")
        assert started.status_code == 201, started.data
        finish_round_games(night_id, number)
    assert organiser_api.post(f"/api/v1/nights/{night_id}/finish/").status_code == 200


def test_a_second_nights_plan_avoids_the_first_nights_partnerships(organiser_api, season, roster):
    first_id = make_night(organiser_api, season)
    check_in(organiser_api, first_id, roster)
    first = organiser_api.post(f"/api/v1/nights/{first_id}/plan/", {"rounds": 3, "seed": 1})
    assert first.status_code == 200, first.data
    assert first.data["plan"]["report"]["season"]["nights_before"] == 0
    assert first.data["plan"]["report"]["season"]["repeat_partnerships"] == 0
    first_pairs = partnerships_of(first.data["plan"]["schedule"])
    play_night(organiser_api, first_id, 3)
    played = {
        frozenset(pair)
        for game in Game.objects.filter(night_id=first_id)
        for pair in ((game.seat_0_id, game.seat_2_id), (game.seat_1_id, game.seat_3_id))
    }
    assert played == first_pairs

    second = organiser_api.post(
        "/api/v1/nights/", {"season": season.pk, "date": "2026-12-08", "venue": "Rosie's"}
    )
    second_id = second.data["id"]
    check_in(organiser_api, second_id, roster)
    plan = organiser_api.post(f"/api/v1/nights/{second_id}/plan/", {"rounds": 3, "seed": 1})
    assert plan.status_code == 200, plan.data
    report = plan.data["plan"]["report"]
    assert not partnerships_of(plan.data["plan"]["schedule"]) & first_pairs
    assert report["at_bound"] is True
    assert report["season"] == {
        "nights_before": 1,
        "repeat_partnerships": 0,
        "repeat_oppositions": report["season"]["repeat_oppositions"],
        "most_partnered": 1,
        "most_partnered_before": 1,
        "sit_outs_fewest": 0,
        "sit_outs_most": 0,
        "partner_strength_spread_before_balance": None,
        "partner_strength_spread": None,
    }


def test_stationary_players_through_the_api(organiser_api, season, roster):
    night_id = make_night(organiser_api, season)
    check_in(organiser_api, night_id, roster[:14])
    stays, moves = roster[0].pk, roster[1].pk
    plan = organiser_api.post(
        f"/api/v1/nights/{night_id}/plan/",
        {"rounds": 5, "fixed_tables": {str(stays): 2, str(moves): 3}, "stationary": [stays]},
        format="json",
    )
    assert plan.status_code == 200, plan.data
    data = plan.data["plan"]
    assert data["stationary"] == [stays]
    places = set()
    for round_ in data["schedule"]:
        assert stays not in round_["byes"]
        table = next(t for t in round_["tables"] if stays in t["seats"])
        places.add((table["table"], table["seats"].index(stays)))
    assert len(places) == 1 and next(iter(places))[0] == 2
    cost = data["report"]["stationary"]
    assert cost["players"] == [stays]
    assert set(cost["costs"]) == {
        "repeat_partners",
        "opponents_beyond_twice",
        "repeated_meetings",
        "same_table_two_rounds_running",
    }


def test_stationary_without_a_fixed_table_is_refused_and_nothing_is_written(
    organiser_api, season, roster
):
    night_id = make_night(organiser_api, season)
    check_in(organiser_api, night_id, roster[:12])
    refused = organiser_api.post(
        f"/api/v1/nights/{night_id}/plan/",
        {"rounds": 3, "stationary": [roster[0].pk]},
        format="json",
    )
    assert refused.status_code == 400
    assert "give them a fixed table" in str(refused.data)
    assert not NightPlan.objects.filter(night_id=night_id).exists()


def test_balance_option_reports_the_spread_before_and_after(organiser_api, season, roster):
    Season.objects.filter(pk=season.pk).update(balance_partner_strength=True)
    night_id = make_night(organiser_api, season)
    check_in(organiser_api, night_id, roster)
    plan = organiser_api.post(f"/api/v1/nights/{night_id}/plan/", {"rounds": 4})
    assert plan.status_code == 200, plan.data
    season_figures = plan.data["plan"]["report"]["season"]
    # No ratings yet: everyone counts as a newcomer, so every average partner rating is equal.
    assert season_figures["partner_strength_spread"] == 0
    assert season_figures["partner_strength_spread_before_balance"] == 0


def test_the_balance_option_is_set_when_a_season_is_created(organiser_api, league):
    created = organiser_api.post(
        "/api/v1/seasons/",
        {
            "league": league.pk,
            "name": "Balanced",
            "format": "individual",
            "balance_partner_strength": True,
        },
        format="json",
    )
    assert created.status_code == 201, created.data
    assert created.data["balance_partner_strength"] is True
    assert Season.objects.get(pk=created.data["id"]).balance_partner_strength is True
    plain = organiser_api.post(
        "/api/v1/seasons/",
        {"league": league.pk, "name": "Plain", "format": "individual"},
        format="json",
    )
    assert plain.data["balance_partner_strength"] is False


def test_the_balance_is_turned_on_and_off_through_the_api(organiser_api, season):
    url = f"/api/v1/seasons/{season.pk}/partner-balance/"
    on = organiser_api.post(url, {"balance_partner_strength": True}, format="json")
    assert on.status_code == 200, on.data
    assert on.data["balance_partner_strength"] is True
    season.refresh_from_db()
    assert season.balance_partner_strength is True
    refused = organiser_api.post(url, {"balance_partner_strength": "maybe"}, format="json")
    assert refused.status_code == 400
    season.refresh_from_db()
    assert season.balance_partner_strength is True
    off = organiser_api.post(url, {"balance_partner_strength": False}, format="json")
    assert off.data["balance_partner_strength"] is False


def test_a_team_season_refuses_the_balance_through_the_api(organiser_api, league):
    teams = SeasonFactory(league=league, format=Season.Format.TEAMS, rulebook__slug="standard")
    refused = organiser_api.post(
        f"/api/v1/seasons/{teams.pk}/partner-balance/",
        {"balance_partner_strength": True},
        format="json",
    )
    assert refused.status_code == 400
    assert "partners are fixed in a team season" in str(refused.data)
    teams.refresh_from_db()
    assert teams.balance_partner_strength is False


def test_another_leagues_organiser_cannot_turn_the_balance_on(api, season, django_user_model):
    from rest_framework.authtoken.models import Token

    stranger = django_user_model.objects.create_user("stranger", password="x")
    token, _ = Token.objects.get_or_create(user=stranger)
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    refused = api.post(
        f"/api/v1/seasons/{season.pk}/partner-balance/",
        {"balance_partner_strength": True},
        format="json",
    )
    assert refused.status_code in (403, 404)
    season.refresh_from_db()
    assert season.balance_partner_strength is False


def test_the_season_history_counts_the_nights_each_pair_came(organiser_api, season, roster):
    first_id = make_night(organiser_api, season)
    came = roster[:14]
    check_in(organiser_api, first_id, came)
    plan = organiser_api.post(f"/api/v1/nights/{first_id}/plan/", {"rounds": 3, "seed": 1})
    assert plan.status_code == 200, plan.data
    play_night(organiser_api, first_id, 3)
    second = organiser_api.post(
        "/api/v1/nights/", {"season": season.pk, "date": "2026-12-08", "venue": "Rosie's"}
    )
    history, nights_before = season_history_for_night(night=Night.objects.get(pk=second.data["id"]))
    ids = sorted(player.pk for player in came)
    assert nights_before == 1
    # 14 came (two sat out each round, so some only sat out some rounds); 15 and 16 did not.
    assert history.together == {
        frozenset((x, y)): 1 for position, x in enumerate(ids) for y in ids[position + 1 :]
    }
    assert sum(history.sit_outs.values()) == 3 * 2
