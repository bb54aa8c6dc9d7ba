"""No list endpoint of the API runs a query per object: every list route of the API router (and
the nested lists: a game's hands, a season's standings) is read at two sizes, 3 and 12 objects,
anonymously and as an organiser, and must run the same number of queries at both."""

import itertools

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from config.urls import router
from scoring.games import services
from scoring.standings.services.recompute import season_standings_recompute
from tests.factories import (
    GameFactory,
    LeagueFactory,
    NightFactory,
    PlayerFactory,
    RulebookFactory,
    SeasonFactory,
    TeamFactory,
)

pytestmark = pytest.mark.django_db

SMALL, LARGE = 3, 12


def make_leagues(league, count, organiser_api):
    LeagueFactory.create_batch(count)
    return "/api/v1/leagues/"


def make_rulebooks(league, count, organiser_api):
    for _ in range(count):
        RulebookFactory(league=league)
    return "/api/v1/rulebooks/"


def make_seasons(league, count, organiser_api):
    SeasonFactory.create_batch(count, league=league)
    return "/api/v1/seasons/"


def make_players(league, count, organiser_api):
    PlayerFactory.create_batch(count, league=league)
    return "/api/v1/players/"


def make_teams(league, count, organiser_api):
    TeamFactory.create_batch(count, season=SeasonFactory(league=league))
    return "/api/v1/teams/"


def make_games(league, count, organiser_api):
    """Games in play (each with a hand: the next dealer follows it) and finished ones."""
    season = SeasonFactory(league=league)
    for index in range(count):
        game = GameFactory(season=season)
        if index % 3 == 0:
            services.game_record_final_score(game=game, score_a=10, score_b=4)
        else:
            services.hand_record(game=game, data=services.HandInput(makers="A", tricks_won=3))
    return "/api/v1/games/"


def make_brackets(league, count, organiser_api):
    for _ in range(count):
        season = SeasonFactory(league=league)
        teams = TeamFactory.create_batch(4, season=season)
        body = {"season": season.pk, "kind": "single", "teams": [team.pk for team in teams]}
        made = organiser_api.post("/api/v1/brackets/", body, format="json")
        assert made.status_code == 201, made.json()
        published = organiser_api.post(f"/api/v1/brackets/{made.json()['id']}/publish/")
        assert published.status_code == 200, published.json()
    return "/api/v1/brackets/"


def make_nights(league, count, organiser_api):
    from tournaments.services.nights import night_check_in

    season = SeasonFactory(league=league, format="individual")
    organiser = league.roles.first().user
    for night in NightFactory.create_batch(count, season=season):
        for player in PlayerFactory.create_batch(2, league=league):
            night_check_in(night=night, player=player, user=organiser)
    return "/api/v1/nights/"


def make_hands(league, count, organiser_api):
    game = GameFactory(season=SeasonFactory(league=league))
    for number in range(count):  # a point each way in turn: the game goes on
        makers = "AB"[number % 2]
        services.hand_record(game=game, data=services.HandInput(makers=makers, tricks_won=3))
    return f"/api/v1/games/{game.pk}/hands/?all=true"


def _played_team_season(league, count):
    season = SeasonFactory(league=league)
    teams = TeamFactory.create_batch(count, season=season)
    for first, second in itertools.pairwise(teams):
        game = GameFactory(
            season=season,
            team_a=first,
            team_b=second,
            seat_0=first.player_one,
            seat_2=first.player_two,
            seat_1=second.player_one,
            seat_3=second.player_two,
        )
        services.game_record_final_score(game=game, score_a=10, score_b=6)
    season_standings_recompute(season_id=season.pk, force=True)
    return season


def make_standings(league, count, organiser_api):
    return f"/api/v1/seasons/{_played_team_season(league, count).pk}/standings/"


def make_standings_detail(league, count, organiser_api):
    season = _played_team_season(league, count)
    return f"/api/v1/seasons/{season.pk}/standings/?detail=true"


ROUTER_LISTS = {
    "leagues": make_leagues,
    "rulebooks": make_rulebooks,
    "seasons": make_seasons,
    "players": make_players,
    "teams": make_teams,
    "games": make_games,
    "brackets": make_brackets,
    "nights": make_nights,
}
NESTED_LISTS = {
    "game hands": make_hands,
    "standings": make_standings,
    "standings with detail": make_standings_detail,
}


def test_every_list_route_of_the_router_is_counted():
    listed = {prefix for prefix, viewset, _basename in router.registry if hasattr(viewset, "list")}
    assert listed == set(ROUTER_LISTS)


def queries_for(client, address: str) -> tuple[int, list[str]]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(address)
    assert response.status_code == 200, (address, response.status_code)
    return len(captured.captured_queries), [query["sql"] for query in captured.captured_queries]


@pytest.mark.parametrize("as_organiser", [False, True], ids=["anonymous", "organiser"])
@pytest.mark.parametrize("name", [*ROUTER_LISTS, *NESTED_LISTS])
def test_a_list_runs_as_many_queries_for_12_objects_as_for_3(
    name, as_organiser, league, api, organiser_api
):
    make = {**ROUTER_LISTS, **NESTED_LISTS}[name]
    client = organiser_api if as_organiser else api
    small_address = make(league, SMALL, organiser_api)
    queries_for(client, small_address)  # warm caches (content types, rulebook presets)
    small, _ = queries_for(client, small_address)
    large_address = make(league, LARGE, organiser_api)
    large, sql = queries_for(client, large_address)
    assert large == small, "\n".join(sql)
