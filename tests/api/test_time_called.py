"""Time called through the API and what follows from it: recording "time called" with the last
hand, the refusals that write nothing, a correction that takes it back, the rulebook's time
options, and downstream a draw in the standings and the race, and a bracket game tied at time that
plays on although the rulebook says a tie is a draw."""

import pytest
from django.core.cache import cache

from league.domain.rules import PRESETS
from league.models import Rulebook
from scoring.games import services
from scoring.games.models import Hand
from scoring.standings.services.race import season_race_compute
from scoring.standings.services.recompute import season_standings_recompute
from tests.api.test_brackets import match_game
from tests.factories import SeasonFactory, race_season, team_game

pytestmark = pytest.mark.django_db

DRAW_AT_TIME = {**PRESETS["points-or-time"].rulebook.to_options(), "tie_at_time": "draw"}


def post_hand(client, game, key, **facts):
    return client.post(
        f"/api/v1/games/{game.pk}/hands/", facts, format="json", HTTP_IDEMPOTENCY_KEY=key
    )


def game_row(game):
    game.refresh_from_db()
    return (game.status, game.score_a, game.score_b, game.winner, game.time_called)


def test_time_called_with_the_last_hand_ends_the_game_the_higher_score_winning(
    organiser_api, make_game
):
    game = make_game("points-or-time")
    assert post_hand(organiser_api, game, "1", makers="A", tricks_won=5).status_code == 201
    response = post_hand(organiser_api, game, "2", makers="B", tricks_won=3, time_called=True)
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["time_called"], body["points_b"]) == (True, 1)
    assert (body["game"]["status"], body["game"]["winner"], body["game"]["time_called"]) == (
        "finished",
        "A",
        True,
    )
    assert game_row(game) == ("finished", 2, 1, "A", True)
    again = post_hand(organiser_api, game, "2", makers="B", tricks_won=3, time_called=True)
    assert (again.status_code, again.json()["id"]) == (200, body["id"])  # a retry, once
    detail = organiser_api.get(f"/api/v1/games/{game.pk}/").json()
    assert [hand["time_called"] for hand in detail["hands"]] == [False, True]


def test_level_at_time_plays_on_until_a_hand_breaks_the_tie(organiser_api, make_game):
    game = make_game("timed")
    post_hand(organiser_api, game, "1", makers="A", tricks_won=3)
    tied = post_hand(organiser_api, game, "2", makers="B", tricks_won=4, time_called=True)
    assert tied.status_code == 201, tied.json()
    assert game_row(game) == ("in_progress", 1, 1, "", True)
    twice = post_hand(organiser_api, game, "3", makers="A", tricks_won=3, time_called=True)
    assert twice.status_code == 400
    assert "time was already called" in twice.json()["message"]
    assert "time_called" in twice.json()["errors"]
    assert Hand.objects.filter(game=game).count() == 2
    decider = post_hand(organiser_api, game, "4", makers="A", tricks_won=1)  # B euchres: +2
    assert decider.status_code == 201
    assert game_row(game) == ("finished", 1, 3, "B", True)


def test_level_at_time_is_a_draw_under_a_draw_rulebook(organiser_api, make_season):
    season = make_season("points-or-time", rulebook__options=DRAW_AT_TIME)
    game = team_game_of(season)
    post_hand(organiser_api, game, "1", makers="A", tricks_won=3)
    post_hand(organiser_api, game, "2", makers="B", tricks_won=3, time_called=True)
    assert game_row(game) == ("finished", 1, 1, "", True)
    after = post_hand(organiser_api, game, "3", makers="A", tricks_won=3)
    assert (after.status_code, after.json()["code"]) == (409, "game_over")
    assert Hand.objects.filter(game=game).count() == 2


def team_game_of(season):
    from tests.factories import TeamFactory

    return team_game(season, TeamFactory(season=season), TeamFactory(season=season))


@pytest.mark.parametrize("slug", ["standard", "progressive"])
def test_time_called_under_an_untimed_rulebook_is_refused_and_writes_nothing(
    organiser_api, make_game, slug
):
    game = make_game(slug)
    response = post_hand(organiser_api, game, "1", makers="A", tricks_won=3, time_called=True)
    assert response.status_code == 400
    assert response.json()["errors"] == {
        "time_called": ["this rulebook has no time limit, so time cannot be called"]
    }
    assert Hand.objects.count() == 0
    assert game_row(game) == ("scheduled", 0, 0, "", False)
    assert game.season.results_version == 0


def test_time_called_on_a_finished_game_is_refused_and_writes_nothing(organiser_api, make_game):
    game = make_game("points-or-time")
    for number in range(1, 5):  # lone marches: 4, 8, 12, then 16 ends the game to 13
        post_hand(organiser_api, game, str(number), makers="A", caller_alone=True, tricks_won=5)
    assert game_row(game) == ("finished", 16, 0, "A", False)
    response = post_hand(organiser_api, game, "5", makers="B", tricks_won=3, time_called=True)
    assert (response.status_code, response.json()["code"]) == (409, "game_over")
    assert Hand.objects.filter(game=game).count() == 4
    assert game_row(game) == ("finished", 16, 0, "A", False)


def test_a_correction_that_takes_time_called_back_reopens_the_game(organiser_api, make_game):
    game = make_game("timed")
    post_hand(organiser_api, game, "1", makers="A", tricks_won=5)
    post_hand(organiser_api, game, "2", makers="B", tricks_won=3, time_called=True)
    assert game_row(game) == ("finished", 2, 1, "A", True)
    response = organiser_api.post(
        f"/api/v1/games/{game.pk}/hands/2/correct/",
        {"makers": "B", "tricks_won": 3, "reason": "time was not up yet"},
        format="json",
    )
    assert response.status_code == 200, response.json()
    assert game_row(game) == ("in_progress", 2, 1, "", False)
    old = Hand.objects.get(game=game, number=2, status="superseded")
    assert old.time_called is True
    assert game_row(game) == ("in_progress", 2, 1, "", False)


def test_a_correction_cannot_call_time_twice(organiser_api, make_game):
    game = make_game("timed")
    post_hand(organiser_api, game, "1", makers="A", tricks_won=3)
    post_hand(organiser_api, game, "2", makers="B", tricks_won=3)
    post_hand(organiser_api, game, "3", thrown_in=True, time_called=True)
    assert game_row(game) == ("in_progress", 1, 1, "", True)  # level: the next hand decides
    twice = organiser_api.post(
        f"/api/v1/games/{game.pk}/hands/2/correct/",
        {"makers": "B", "tricks_won": 3, "time_called": True, "reason": "time was at hand 2"},
        format="json",
    )
    assert twice.status_code == 400
    assert twice.json()["errors"] == {
        "time_called": ["time was called on another hand of this game; correct that hand first"]
    }
    assert Hand.objects.filter(game=game, status="superseded").count() == 0
    assert game_row(game) == ("in_progress", 1, 1, "", True)


def test_the_rulebook_time_options_through_the_api(organiser_api, league, api):
    made = organiser_api.post(
        "/api/v1/rulebooks/",
        {
            "league": league.pk,
            "name": "Bar",
            "preset": "standard",
            "options": {"game_length": "time", "time_limit_minutes": 25, "tie_at_time": "draw"},
        },
        format="json",
    )
    assert made.status_code == 201, made.json()
    options = made.json()["options"]
    assert (options["game_length"], options["time_limit_minutes"], options["tie_at_time"]) == (
        "time",
        25,
        "draw",
    )
    for bad, field in (
        ({"time_limit_minutes": 181}, "options.time_limit_minutes"),
        ({"time_limit_minutes": 0}, "options.time_limit_minutes"),
        ({"tie_at_time": "coin"}, "options.tie_at_time"),
    ):
        refused = organiser_api.post(
            "/api/v1/rulebooks/",
            {"league": league.pk, "name": "Bad", "options": bad},
            format="json",
        )
        assert refused.status_code == 400
        assert field in refused.json()["errors"]
    no_minutes = organiser_api.post(
        "/api/v1/rulebooks/",
        {"league": league.pk, "name": "Bad", "options": {"game_length": "time"}},
        format="json",
    )
    assert no_minutes.status_code == 400
    assert "needs its time limit in minutes" in no_minutes.json()["message"]
    assert Rulebook.objects.filter(name="Bad").count() == 0
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    components = schema["components"]["schemas"]
    assert {"time_limit_minutes", "tie_at_time"} <= set(components["RulebookOptions"]["properties"])
    assert "time_called" in components["HandInputRequest"]["properties"]
    assert "time_called" in components["Game"]["properties"]


def test_a_draw_at_time_in_the_standings_and_on_the_public_page(api, client, league):
    cache.clear()
    season = SeasonFactory(league=league, rulebook__slug="points-or-time")
    season.rulebook.options = DRAW_AT_TIME
    season.rulebook.save(update_fields=["options"])
    from tests.factories import TeamFactory

    first, second, third = (TeamFactory(season=season, name=f"Team {n}") for n in (1, 2, 3))
    drawn = team_game(season, first, second)
    for facts in ({"makers": "A", "tricks_won": 5}, {"makers": "B", "tricks_won": 5}):
        services.hand_record(game=drawn, data=services.HandInput(**facts))
    services.hand_record(game=drawn, data=services.HandInput(thrown_in=True, time_called=True))
    won = team_game(season, first, third)
    services.hand_record(
        game=won, data=services.HandInput(makers="A", tricks_won=3, time_called=True)
    )
    assert game_row(drawn) == ("finished", 2, 2, "", True)
    season_standings_recompute(season_id=season.pk)
    rows = api.get(f"/api/v1/seasons/{season.pk}/standings/").json()["standings"]["rows"]
    assert [
        (row["name"], row["wins"], row["losses"], row["draws"], row["points_for"]) for row in rows
    ] == [("Team 1", 1, 0, 1, 3), ("Team 2", 0, 0, 1, 2), ("Team 3", 0, 1, 0, 0)]
    assert [row["win_pct"] for row in rows] == [0.75, 0.5, 0.0]
    page = client.get(f"/l/{league.slug}/s/{season.pk}/").content.decode()
    assert "W–L–D" in page
    for record in ("1–0–1", "0–0–1", "0–1–0"):
        assert f'<td class="num">{record}</td>' in page
    wall = client.get(f"/l/{league.slug}/s/{season.pk}/wall/").content.decode()
    assert "W–L–D" in wall and '<td class="num">1–0–1</td>' in wall


def test_the_race_counts_a_draw_at_time_as_half_a_win(league):
    cache.clear()
    season, _teams, _night, (aces_v_diamonds, _bowers_v_clubs) = race_season(league)
    season.rulebook.options = DRAW_AT_TIME
    season.rulebook.save(update_fields=["options"])
    season_standings_recompute(season_id=season.pk)
    before = season_race_compute(season_id=season.pk)
    assert before["draws_possible"] is True  # the rulebook can draw, none yet
    services.hand_record(
        game=aces_v_diamonds,
        data=services.HandInput(makers="A", tricks_won=3),
    )
    services.hand_record(
        game=aces_v_diamonds,
        data=services.HandInput(makers="B", tricks_won=3, time_called=True),
    )
    season_standings_recompute(season_id=season.pk)
    race = season_race_compute(season_id=season.pk)
    lines = {line["name"]: line for line in race["lines"]}
    assert race["games_left"] == 1
    # Aces 3 wins 1 draw; Bowers and Clubs 2 wins, one of them on 3 after their game: Aces are
    # still sure of a top-2 place, and first place is theirs unless the winner draws level …
    # which 3 wins cannot (3.5 against 3).
    assert (lines["Aces"]["clinched"], lines["Aces"]["clinched_first"]) == (True, True)
    assert lines["Diamonds"]["eliminated"] is True


def test_a_bracket_game_level_at_time_plays_on_even_under_a_draw_rulebook(
    organiser_api, make_season, django_capture_on_commit_callbacks
):
    from tests.api.test_brackets import make_teams

    season = make_season("points-or-time", rulebook__options=DRAW_AT_TIME)
    teams = make_teams(season, 4)
    body = {"season": season.pk, "kind": "single", "teams": [team.pk for team in teams]}
    bracket_id = organiser_api.post("/api/v1/brackets/", body, format="json").json()["id"]
    assert organiser_api.post(f"/api/v1/brackets/{bracket_id}/publish/").status_code == 200
    semi = match_game(bracket_id, "W1-1")
    with django_capture_on_commit_callbacks(execute=True):
        post_hand(organiser_api, semi, "1", makers="A", tricks_won=3)
        level = post_hand(organiser_api, semi, "2", makers="B", tricks_won=3, time_called=True)
    assert level.status_code == 201, level.json()
    assert game_row(semi) == ("in_progress", 1, 1, "", True)
    detail = organiser_api.get(f"/api/v1/brackets/{bracket_id}/").json()
    semis = {match["code"]: match for match in detail["matches"]}
    assert semis["W1-1"]["winner"] is None
    with django_capture_on_commit_callbacks(execute=True):
        post_hand(organiser_api, semi, "3", makers="B", tricks_won=5)
    assert game_row(semi) == ("finished", 1, 3, "B", True)
    detail = organiser_api.get(f"/api/v1/brackets/{bracket_id}/").json()
    semis = {match["code"]: match for match in detail["matches"]}
    assert semis["W1-1"]["winner"] is not None
    # The season's own games (they count for the standings) may still be drawn.
    season_game = team_game(season, teams[0], teams[1])
    post_hand(organiser_api, season_game, "s1", makers="A", tricks_won=3, time_called=False)
    post_hand(organiser_api, season_game, "s2", makers="B", tricks_won=3, time_called=True)
    assert game_row(season_game) == ("finished", 1, 1, "", True)
