"""The tie-breaks the world uses, chosen through the API and ranked by the recompute: the season
is ranked from its games (its running totals do not keep what these measures read)."""

import pytest
from django.core.cache import cache

from scoring.games import services
from tests.api.test_standings import team_season
from tests.factories import team_game

pytestmark = pytest.mark.django_db


def final(season, team_a, team_b, score_a, score_b):
    game = team_game(season, team_a, team_b)
    services.game_record_final_score(game=game, score_a=score_a, score_b=score_b)


def test_the_cycle_is_ranked_on_head_to_head_point_difference_re_applied(
    organiser_api, api, league, django_capture_on_commit_callbacks
):
    cache.clear()
    season, (aces, bowers, clubs) = team_season(league)
    with django_capture_on_commit_callbacks(execute=True):
        final(season, aces, bowers, 10, 7)
        final(season, bowers, clubs, 10, 8)
        final(season, clubs, aces, 10, 6)
        response = organiser_api.put(
            f"/api/v1/seasons/{season.pk}/standing-rules/",
            {"tiebreaks": ["wins", "head_to_head", "head_to_head_diff", "points_for"]},
            format="json",
        )
    assert response.status_code == 200, response.json()
    body = api.get(f"/api/v1/seasons/{season.pk}/standings/").json()
    assert body["is_current"] is True
    rows = body["standings"]["rows"]
    assert [(row["name"], row["rank"]) for row in rows] == [
        ("Team 2", 1),
        ("Team 0", 2),
        ("Team 1", 3),
    ]
    cycle = "head-to-head is a cycle among Team 0, Team 1 and Team 2"
    assert [row["reason"] for row in rows] == [
        f"{cycle}; ahead of Team 0 on head-to-head point difference among 3 tied (+2 to -1)",
        f"{cycle}; behind Team 2 on head-to-head point difference among 3 tied (-1 to +2)",
        "behind Team 0 on head-to-head (0–1)",
    ]
    assert [row["tiebreaks"]["head_to_head_diff"] for row in rows] == [2, -1, -1]
    assert [row["decided_by"] for row in rows] == [
        "head_to_head_diff",
        "head_to_head_diff",
        "head_to_head",
    ]

    # a later result is folded in the same way (the season is ranked from its games again)
    with django_capture_on_commit_callbacks(execute=True):
        final(season, bowers, aces, 10, 2)
    rows = api.get(f"/api/v1/seasons/{season.pk}/standings/").json()["standings"]["rows"]
    assert [(row["name"], row["wins"]) for row in rows] == [
        ("Team 1", 2),
        ("Team 2", 1),
        ("Team 0", 1),
    ]
    # Team 2 and Team 0, one win each, met once: Team 2 won 10–6
    assert rows[2]["reason"] == "behind Team 2 on head-to-head (0–1)"


def test_the_chess_tie_breaks_are_chosen_by_name_and_a_wrong_one_writes_nothing(
    organiser_api, api, league, django_capture_on_commit_callbacks
):
    season, (aces, bowers, clubs) = team_season(league)
    with django_capture_on_commit_callbacks(execute=True):
        final(season, aces, bowers, 10, 7)
        final(season, clubs, bowers, 10, 8)
        chain = ["wins", "sonneborn_berger", "buchholz_cut1", "buchholz_median", "progressive"]
        response = organiser_api.put(
            f"/api/v1/seasons/{season.pk}/standing-rules/", {"tiebreaks": chain}, format="json"
        )
    assert response.status_code == 200, response.json()
    rows = api.get(f"/api/v1/seasons/{season.pk}/standings/").json()["standings"]["rows"]
    # Team 0 and Team 2 each beat Team 1 (no wins): Sonneborn-Berger 0 each, cut 1 and median
    # 0 (one game each); progressive 1 each: the coin flip separates them.
    assert [row["name"] for row in rows][2] == "Team 1"
    assert [row["tiebreaks"]["progressive"] for row in rows] == [1, 1, 0]
    assert rows[1]["decided_by"] == "coin_flip"

    response = organiser_api.put(
        f"/api/v1/seasons/{season.pk}/standing-rules/",
        {"tiebreaks": ["wins", "buchholz_cut_one"]},
        format="json",
    )
    assert response.status_code == 400
    assert '"buchholz_cut_one" is not a tie-break' in response.json()["message"]
    season.refresh_from_db()
    assert season.standing_rules == {"tiebreaks": chain}


def test_the_schema_names_every_tie_break(api):
    schema = api.get("/api/schema/?format=json").json()
    text = str(schema["components"]["schemas"]["StandingRules"])
    for name in ("head_to_head_points", "head_to_head_diff", "buchholz_cut1", "progressive"):
        assert name in text
