"""``GET /api/v1/seasons/<id>/fairness/``: public only while the organiser shows it, always to
the league's organisers, 404 to anyone else; its figures equal a brute-force count of the
stored seats; read in a fixed, small number of queries whatever the season's size; described
in the OpenAPI schema."""

import datetime

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scoring.standings.services.recompute import season_standings_recompute
from tests.factories import LeagueRoleFactory, race_season
from tests.pages.fairness_world import brute_force, individual_season, play_night

pytestmark = pytest.mark.django_db


def url(season) -> str:
    return f"/api/v1/seasons/{season.pk}/fairness/"


@pytest.fixture
def season(league, organiser):
    return individual_season(league, organiser)


def test_hidden_from_the_public_open_to_the_league_organisers(api, organiser_api, season):
    assert api.get(url(season)).status_code == 404
    stranger = APIClient()
    stranger.credentials(
        HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=LeagueRoleFactory().user).key}"
    )
    assert stranger.get(url(season)).status_code == 404  # another league's organiser
    assert api.get("/api/v1/seasons/987654/fairness/").status_code == 404

    data = organiser_api.get(url(season)).json()
    counted = brute_force(season)
    assert data["is_public"] is False and data["format"] == "individual"
    assert data["games_played"] == counted["games"] == 8
    assert {(p["first"], p["second"]): p["partnered"] for p in data["pairs"] if p["partnered"]} == {
        pair: n for pair, n in counted["partnered"].items()
    }
    assert {(p["first"], p["second"]): p["opposed"] for p in data["pairs"] if p["opposed"]} == {
        pair: n for pair, n in counted["opposed"].items()
    }
    assert {line["id"]: line["byes"] for line in data["players"] if line["byes"]} == dict(
        counted["byes"]
    )
    assert {line["id"]: line["games"] for line in data["players"]} == dict(counted["games_of"])
    carlo = data["monte_carlo"]
    assert (carlo["runs"], carlo["seed"], carlo["games"]) == (2000, 34, 8)
    assert carlo["entrant_kind"] == "player"
    assert carlo["measure"] == "win_pct"  # the standings' default: no rules set
    assert carlo["strongest_name"] in {line["name"] for line in data["players"]}
    assert 0 < carlo["strongest_first_chance"] <= 1
    assert sum(chance["first_chance"] for chance in carlo["chances"]) == pytest.approx(1, abs=1e-3)
    # Seeded: the same season gives the same figures at every request.
    assert organiser_api.get(url(season)).json() == data


def test_public_while_shown_and_read_in_few_queries(
    api, organiser_api, league, organiser, django_assert_num_queries
):
    season = individual_season(league, organiser, is_public=True)
    # Season (with its league), games, byes, names: four queries for anyone.
    with django_assert_num_queries(4):
        small = api.get(url(season))
    assert small.status_code == 200 and small.json()["is_public"] is True
    # More nights, more games and byes: still four.
    names = ["Ann", "Bea", "Cy", "Dot", "Eli", "Fox", "Gus", "Hal", "Ivy"]
    play_night(season, organiser, names, 4, datetime.date(2026, 2, 19))
    with django_assert_num_queries(4):
        bigger = api.get(url(season))
    assert bigger.json()["games_played"] == small.json()["games_played"] + 8
    # An organiser of a hidden report: the token, the role and the same reads.
    season.fairness_public = False
    season.save(update_fields=["fairness_public"])
    with django_assert_num_queries(6):
        assert organiser_api.get(url(season)).status_code == 200


def test_a_team_season_simulates_its_teams(api, league):
    season, teams, _night, _tonight = race_season(league)
    season.fairness_public = True
    season.save(update_fields=["fairness_public"])
    season_standings_recompute(season_id=season.pk)
    data = api.get(url(season)).json()
    assert data["format"] == "teams" and data["games_played"] == 7
    # Fixed partnerships: each team's two players partnered in every one of its games.
    aces = teams["Aces"]
    pair = tuple(sorted(aces.player_ids))
    partnered = {(p["first"], p["second"]): p["partnered"] for p in data["pairs"]}
    assert partnered[pair] == 3
    carlo = data["monte_carlo"]
    assert carlo["entrant_kind"] == "team" and carlo["games"] == 9  # 7 played, 2 to play
    assert carlo["measure"] == "wins"  # race_season ranks by wins
    assert {chance["name"] for chance in carlo["chances"]} == set(teams)
    assert carlo["strongest_name"] in teams


def test_described_in_the_schema(api):
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    operation = schema["paths"]["/api/v1/seasons/{id}/fairness/"]["get"]
    assert operation["operationId"] == "seasons_fairness"
    assert {"200", "404"} <= set(operation["responses"])
    body = operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    fields = schema["components"]["schemas"][body.rsplit("/", 1)[1]]["properties"]
    assert {"players", "pairs", "monte_carlo", "most_partnered", "fewest_byes"} <= set(fields)


def test_a_team_schedule_byes_count_once_their_round_is_played(api, league, organiser):
    from scoring.games import services as scoring
    from scoring.games.models import Game
    from tests.factories import SeasonFactory, TeamFactory
    from tournaments.models import TeamSchedule
    from tournaments.services.schedules import season_schedule_create

    season = SeasonFactory(league=league, rulebook__slug="standard", fairness_public=True)
    teams = [TeamFactory(season=season, name=f"Team {n}") for n in range(1, 6)]
    season_schedule_create(
        season=season, nights=[datetime.date(2026, 3, 5)], rounds_per_night=5, user=organiser
    )
    played_rounds = {1, 2}
    for game in Game.objects.filter(season=season, round_number__in=played_rounds):
        scoring.game_record_final_score(game=game, score_a=10, score_b=7)

    data = api.get(url(season)).json()
    byes = TeamSchedule.objects.get(season=season).byes
    assert len(byes) == 5  # five teams: one sits out each round
    sat_out = {bye["team"] for bye in byes if bye["round"] in played_rounds}
    assert len(sat_out) == 2
    expected = {player: 1 for team in teams if team.pk in sat_out for player in team.player_ids}
    assert {line["id"]: line["byes"] for line in data["players"] if line["byes"]} == expected
    assert (data["fewest_byes"], data["most_byes"]) == (0, 1)
    assert data["games_played"] == 4  # two games a round
    assert data["monte_carlo"]["games"] == 10  # the whole round robin


def test_archived_nights_and_seasons_are_out_of_sight(api, organiser_api, league, organiser):
    from league.models import Night
    from tournaments.services.archiving import archivable_archive

    season = individual_season(league, organiser, is_public=True)
    second = Night.objects.filter(season=season).order_by("date").last()
    archivable_archive(row=second, user=organiser)  # its 3 games and Fox with them
    data = api.get(url(season)).json()
    assert data["games_played"] == 5 and data["monte_carlo"]["games"] == 5
    assert "Fox" not in {line["name"] for line in data["players"]}
    assert sorted(line["byes"] for line in data["players"]) == [1, 1, 1, 1, 1]

    archivable_archive(row=season, user=organiser)
    assert api.get(url(season)).status_code == 404
    assert api.get(f"/l/{league.slug}/s/{season.pk}/fairness/").status_code == 404
    assert organiser_api.get(url(season)).status_code == 200  # the organiser still reads it


def test_a_report_is_computed_once_per_state_of_the_season(api, league, organiser, monkeypatch):
    from tournaments.selectors import fairness as selectors

    season = individual_season(league, organiser, is_public=True)
    computed = []
    real = selectors.fairness_report

    def counted(**inputs):
        computed.append(len(inputs["games"]))
        return real(**inputs)

    monkeypatch.setattr(selectors, "fairness_report", counted)
    first = api.get(url(season)).json()
    assert api.get(url(season)).json() == first
    assert computed == [8]  # the second answer was the kept report
    play_night(season, organiser, ["Ann", "Bea", "Gus", "Hal"], 2, datetime.date(2026, 2, 19))
    assert api.get(url(season)).json()["games_played"] == 10  # a new state, a new report
    assert computed == [8, 10]
