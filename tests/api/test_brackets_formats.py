"""Pools then a knockout, Swiss rounds and a team season's schedule through the API: pool tables
(wins, then point difference, then head-to-head), the knockout filled and its games created when
the pools finish, a pool correction that resets the knockout after a preview; Swiss rounds paired
by themselves with no rematch and the bye to the lowest-ranked team without one; the schedule's
nights and games with byes balanced; refusals that write nothing."""

import datetime
import itertools
from collections import Counter

import pytest

from league.models import Night
from scoring.games import services as scoring
from scoring.games.models import Game
from tests.api.test_brackets import bracket_rows, by_code, make_teams, match_game
from tournaments.models import Bracket, BracketMatch, TeamSchedule

pytestmark = pytest.mark.django_db


def finish_by(game, score_a, score_b, capture):
    """Finish a game by its final score, running the on-commit game_finished receiver."""
    with capture(execute=True):
        scoring.game_record_final_score(game=game, score_a=score_a, score_b=score_b)


@pytest.fixture
def season(make_season):
    return make_season("standard")


def create(organiser_api, season, teams, **options):
    body = {"season": season.pk, "teams": [team.pk for team in teams], **options}
    response = organiser_api.post("/api/v1/brackets/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def publish(organiser_api, bracket_id):
    response = organiser_api.post(f"/api/v1/brackets/{bracket_id}/publish/")
    assert response.status_code == 200, response.json()
    return response.json()


POOL_RESULTS = [  # (match, first team's points, second team's points)
    ("A1-1", 10, 2),  # Team 4 beats Team 5
    ("A2-1", 10, 8),  # Team 1 beats Team 4
    ("A3-1", 10, 9),  # Team 5 beats Team 1: pool A all 1-1, split on point difference
    ("B1-1", 10, 4),  # Team 3 beats Team 6
    ("B2-1", 10, 5),  # Team 2 beats Team 3
    ("B3-1", 3, 10),  # Team 2 beats Team 6
]


@pytest.fixture
def pools(organiser_api, season):
    """Six teams in two pools (A: seeds 1, 4, 5; B: 2, 3, 6), the top two of each through."""
    teams = make_teams(season, 6)
    data = create(organiser_api, season, teams, kind="pools", pool_count=2, advancing_per_pool=2)
    return data, teams


def test_pools_play_their_round_robins_then_fill_the_knockout(
    api, organiser_api, pools, django_capture_on_commit_callbacks
):
    data, teams = pools
    bracket_id = data["id"]
    assert (data["kind"], data["pool_count"], data["advancing_per_pool"]) == ("pools", 2, 2)
    matches = by_code(publish(organiser_api, bracket_id))
    real = {code: match for code, match in matches.items() if match["status"] != "bye"}
    assert [
        (code, m["pool"], m["first"], m["second"], m["status"]) for code, m in real.items()
    ] == [
        ("A1-1", "A", "Team 4", "Team 5", "ready"),
        ("A2-1", "A", "Team 1", "Team 4", "ready"),
        ("A3-1", "A", "Team 5", "Team 1", "ready"),
        ("B1-1", "B", "Team 3", "Team 6", "ready"),
        ("B2-1", "B", "Team 2", "Team 3", "ready"),
        ("B3-1", "B", "Team 6", "Team 2", "ready"),
        ("W1-1", "", "1st in pool A", "2nd in pool B", "waiting"),
        ("W1-2", "", "1st in pool B", "2nd in pool A", "waiting"),
        ("W2-1", "", "Winner of W1-1", "Winner of W1-2", "waiting"),
    ]
    assert Game.objects.count() == 6  # every pool match at once, no knockout game yet

    for code, first, second in POOL_RESULTS[:3]:
        finish_by(match_game(bracket_id, code), first, second, django_capture_on_commit_callbacks)
    data = api.get(f"/api/v1/brackets/{bracket_id}/").json()
    pool_a, pool_b = data["tables"]
    assert (pool_a["title"], pool_a["finished"], pool_b["finished"]) == ("Pool A", True, False)
    assert [
        (row["rank"], row["name"], row["wins"], row["losses"], row["point_diff"], row["through"])
        for row in pool_a["rows"]
    ] == [
        (1, "Team 4", 1, 1, 6, True),
        (2, "Team 1", 1, 1, 1, True),
        (3, "Team 5", 1, 1, -7, False),
    ]
    assert pool_a["rows"][1]["reason"] == "behind Team 4 on point difference (+1 to +6)"
    matches = by_code(data)
    assert (matches["W1-1"]["first"], matches["W1-1"]["second"]) == ("Team 4", "2nd in pool B")
    assert (matches["W1-2"]["second"], matches["W1-2"]["status"]) == ("Team 1", "waiting")
    assert Game.objects.count() == 6

    for code, first, second in POOL_RESULTS[3:]:
        finish_by(match_game(bracket_id, code), first, second, django_capture_on_commit_callbacks)
    data = api.get(f"/api/v1/brackets/{bracket_id}/").json()
    assert [row["name"] for row in data["tables"][1]["rows"]] == ["Team 2", "Team 3", "Team 6"]
    matches = by_code(data)
    assert [(matches[code]["first"], matches[code]["second"]) for code in ("W1-1", "W1-2")] == [
        ("Team 4", "Team 3"),
        ("Team 2", "Team 1"),
    ]
    semi = match_game(bracket_id, "W1-1")
    assert (semi.team_a, semi.team_b, semi.status) == (teams[3], teams[2], "scheduled")
    assert Game.objects.count() == 8

    finish_by(semi, 10, 7, django_capture_on_commit_callbacks)
    finish_by(match_game(bracket_id, "W1-2"), 6, 10, django_capture_on_commit_callbacks)
    final = match_game(bracket_id, "W2-1")
    assert (final.team_a, final.team_b) == (teams[3], teams[0])
    finish_by(final, 4, 10, django_capture_on_commit_callbacks)

    data = api.get(f"/api/v1/brackets/{bracket_id}/").json()
    assert (data["status"], data["champion"]) == ("finished", teams[0].pk)
    assert [(line["place"], line["name"], line["note"]) for line in data["placings"]] == [
        (1, "Team 1", ""),
        (2, "Team 4", ""),
        (3, "Team 2", ""),
        (3, "Team 3", ""),
        (5, "Team 5", "3rd in pool A"),
        (5, "Team 6", "3rd in pool B"),
    ]


def test_correcting_a_pool_result_resets_the_knockout_it_changed(
    organiser_api, pools, django_capture_on_commit_callbacks
):
    data, teams = pools
    bracket_id = data["id"]
    publish(organiser_api, bracket_id)
    for code, first, second in POOL_RESULTS:
        finish_by(match_game(bracket_id, code), first, second, django_capture_on_commit_callbacks)
    finish_by(match_game(bracket_id, "W1-1"), 10, 7, django_capture_on_commit_callbacks)
    finish_by(match_game(bracket_id, "W1-2"), 6, 10, django_capture_on_commit_callbacks)
    final = match_game(bracket_id, "W2-1")  # Team 4 v Team 1, not played yet
    url = f"/api/v1/brackets/{bracket_id}/corrections/"

    before = bracket_rows()
    preview = organiser_api.post(
        f"{url}preview/", {"match": "A3-1", "winner": teams[0].pk}, format="json"
    ).json()
    assert preview["message"] == (
        "Team 1 wins A3-1 instead of Team 5; this resets W1-1, W1-2 and stops the games of W2-1."
    )
    assert bracket_rows() == before

    response = organiser_api.post(
        url,
        {
            "match": "A3-1",
            "winner": teams[0].pk,
            "reason": "Score card misread",
            "reset": ["W1-1", "W1-2"],
        },
        format="json",
    )
    assert response.status_code == 200, response.json()
    data = organiser_api.get(f"/api/v1/brackets/{bracket_id}/").json()
    assert [row["name"] for row in data["tables"][0]["rows"]] == ["Team 1", "Team 4", "Team 5"]
    matches = by_code(data)
    assert [
        (matches[code]["first"], matches[code]["second"], matches[code]["status"])
        for code in ("W1-1", "W1-2", "W2-1")
    ] == [
        ("Team 1", "Team 3", "ready"),
        ("Team 2", "Team 4", "ready"),
        ("Winner of W1-1", "Winner of W1-2", "waiting"),
    ]
    final.refresh_from_db()
    assert final.bracket_link.status == "voided"
    replay = match_game(bracket_id, "W1-1")
    assert (replay.team_a, replay.team_b, replay.status) == (teams[0], teams[2], "scheduled")


def test_swiss_rounds_pair_themselves_without_rematches_until_the_last(
    api, organiser_api, season, django_capture_on_commit_callbacks
):
    teams = make_teams(season, 5)
    data = create(organiser_api, season, teams, kind="swiss", swiss_rounds=3)
    bracket_id = data["id"]
    assert [(m["code"], m["first"], m["second"], m["status"]) for m in data["matches"]] == [
        ("S1-1", "Team 1", "Team 3", "ready"),
        ("S1-2", "Team 2", "Team 4", "ready"),
        ("S1-3", "Team 5", "Bye", "bye"),
    ]
    publish(organiser_api, bracket_id)
    assert Game.objects.count() == 2

    finish_by(match_game(bracket_id, "S1-1"), 10, 2, django_capture_on_commit_callbacks)
    assert BracketMatch.objects.filter(round=2).count() == 0  # the round is not over
    finish_by(match_game(bracket_id, "S1-2"), 10, 6, django_capture_on_commit_callbacks)

    data = api.get(f"/api/v1/brackets/{bracket_id}/").json()
    assert [(row["name"], row["wins"], row["byes"]) for row in data["tables"][0]["rows"]] == [
        ("Team 1", 1, 0),
        ("Team 3", 1, 1),  # round 2's bye, counted as a win at once
        ("Team 2", 1, 0),
        ("Team 5", 1, 1),
        ("Team 4", 0, 0),
    ]
    assert data["tables"][0]["title"] == "Standings · round 2 of 3 (its byes counted)"
    second = [
        (m["code"], m["first"], m["second"], m["status"])
        for m in data["matches"]
        if m["round"] == 2
    ]
    assert second == [
        ("S2-1", "Team 1", "Team 2", "ready"),
        ("S2-2", "Team 5", "Team 4", "ready"),
        ("S2-3", "Team 3", "Bye", "bye"),
    ]
    for round_number in (2, 3):
        for match in BracketMatch.objects.filter(round=round_number, is_bye=False):
            finish_by(match_game(bracket_id, match.code), 10, 5, django_capture_on_commit_callbacks)

    data = api.get(f"/api/v1/brackets/{bracket_id}/").json()
    played = [m for m in data["matches"] if m["status"] == "decided"]
    meetings = [frozenset((m["first_team"], m["second_team"])) for m in played]
    assert len(meetings) == len(set(meetings)) == 6  # no rematch
    byes = Counter(m["first"] for m in data["matches"] if m["status"] == "bye")
    assert sorted(byes.values()) == [1, 1, 1]  # three different teams sat out once
    assert (data["status"], data["tables"][0]["title"]) == ("finished", "Final standings")
    assert max(m["round"] for m in data["matches"]) == 3
    rows = data["tables"][0]["rows"]
    assert [(line["place"], line["name"]) for line in data["placings"]] == [
        (row["rank"], row["name"]) for row in rows
    ]
    assert [line["note"] for line in data["placings"]] == [
        f"{row['wins']}–{row['losses']}" for row in rows
    ]
    assert sum(row["wins"] for row in rows) == 6 + 3  # six matches and three byes


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            {"kind": "pools", "pool_count": 2},
            "Say how many teams of each pool go through (1 or more).",
        ),
        (
            {"kind": "pools", "pool_count": 3, "advancing_per_pool": 1},
            "4 teams cannot fill 3 pools of at least 2 teams each.",
        ),
        ({"kind": "swiss"}, "Say how many Swiss rounds to play (1 or more)."),
        (
            {"kind": "swiss", "swiss_rounds": 4},
            "4 teams can play at most 3 Swiss rounds without a rematch.",
        ),
        ({"kind": "single", "swiss_rounds": 2}, "Rounds are set for Swiss brackets only."),
    ],
)
def test_invalid_pools_and_swiss_are_refused_and_nothing_is_written(
    organiser_api, season, options, message
):
    teams = make_teams(season, 4)
    before = bracket_rows()
    response = organiser_api.post(
        "/api/v1/brackets/",
        {"season": season.pk, "teams": [team.pk for team in teams], **options},
        format="json",
    )
    assert (response.status_code, response.json()["message"]) == (400, message)
    assert bracket_rows() == before


DATES = ["2026-01-06", "2026-01-13", "2026-01-20"]


def schedule_rows():
    return (TeamSchedule.objects.count(), Night.objects.count(), Game.objects.count())


def test_a_team_season_is_scheduled_over_its_nights_with_byes_balanced(api, organiser_api, season):
    teams = make_teams(season, 5)
    response = organiser_api.post(
        f"/api/v1/seasons/{season.pk}/schedule/",
        {"nights": DATES, "cycles": 1, "rounds_per_night": 2},
        format="json",
    )
    assert response.status_code == 201, response.json()
    data = response.json()
    assert (data["cycles"], data["rounds_per_night"], data["games"]) == (1, 2, 10)
    assert [(night["date"], len(night["rounds"])) for night in data["nights"]] == [
        ("2026-01-06", 2),
        ("2026-01-13", 2),
        ("2026-01-20", 1),
    ]
    first = data["nights"][0]["rounds"][0]
    assert (first["round"], first["bye"]) == (1, teams[0].pk)
    assert [(game["table"], game["names"]) for game in first["games"]] == [
        (1, ["Team 2", "Team 5"]),
        (2, ["Team 3", "Team 4"]),
    ]
    games = [
        game for night in data["nights"] for played in night["rounds"] for game in played["games"]
    ]
    pairs = [frozenset((game["team_a"], game["team_b"])) for game in games]
    assert sorted(pairs, key=sorted) == sorted(
        (frozenset(pair) for pair in itertools.combinations([t.pk for t in teams], 2)), key=sorted
    )
    byes = Counter(played["bye"] for night in data["nights"] for played in night["rounds"])
    assert byes == {team.pk: 1 for team in teams}
    nights = list(Night.objects.filter(season=season).order_by("date"))
    assert [night.date for night in nights] == [datetime.date.fromisoformat(d) for d in DATES]
    stored = Game.objects.get(pk=first["games"][0]["game"])
    assert (stored.night, stored.round_number, stored.table_number, stored.status) == (
        nights[0],
        1,
        1,
        "scheduled",
    )
    assert stored.captain_token
    assert api.get(f"/api/v1/seasons/{season.pk}/schedule/").json() == data

    before = schedule_rows()
    again = organiser_api.post(
        f"/api/v1/seasons/{season.pk}/schedule/",
        {"nights": ["2026-02-03"], "cycles": 1, "rounds_per_night": 5},
        format="json",
    )
    assert (again.status_code, again.json()["message"]) == (
        409,
        "This season already has a schedule.",
    )
    assert schedule_rows() == before


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        (
            {"nights": DATES, "cycles": 1, "rounds_per_night": 1},
            400,
            "5 rounds over 3 nights means 2 rounds on some nights, more than the 1 a night can "
            "hold. Add nights.",
        ),
        (
            {"nights": DATES * 2, "cycles": 1, "rounds_per_night": 2},
            400,
            "Each date can be given once.",
        ),
        (
            {"nights": DATES, "cycles": 3, "rounds_per_night": 2},
            400,
            "Teams meet once or twice (1 or 2 cycles).",
        ),
    ],
)
def test_an_impossible_schedule_is_refused_and_nothing_is_written(
    organiser_api, season, body, status, message
):
    make_teams(season, 5)
    before = schedule_rows()
    response = organiser_api.post(f"/api/v1/seasons/{season.pk}/schedule/", body, format="json")
    assert (response.status_code, response.json()["message"]) == (status, message)
    assert schedule_rows() == before


def test_only_an_organiser_schedules_a_season(api, season):
    make_teams(season, 4)
    before = schedule_rows()
    body = {"nights": DATES, "cycles": 1, "rounds_per_night": 1}
    assert (
        api.post(f"/api/v1/seasons/{season.pk}/schedule/", body, format="json").status_code == 403
    )
    assert schedule_rows() == before
    assert api.get(f"/api/v1/seasons/{season.pk}/schedule/").status_code == 404
    assert Bracket.objects.count() == 0
