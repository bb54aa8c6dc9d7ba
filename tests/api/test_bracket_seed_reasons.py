"""A bracket seeded from the standings says each seed's standing reason and the cut note in a few
plain words (``standing_reason_short``, ``cut_note_short``) beside the full sentences, which stay
as they were; seeded by hand, it says none."""

import pytest

from scoring.games import services as scoring
from tests.api.test_brackets import make_teams, play_season, seats

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(make_season):
    return make_season("standard")


def build(organiser_api, body):
    response = organiser_api.post("/api/v1/brackets/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def test_seeds_and_the_cut_say_their_reason_in_a_few_words(organiser_api, season):
    teams = make_teams(season, 5)
    play_season(season, teams)

    data = build(organiser_api, {"season": season.pk, "kind": "single", "team_count": 3})

    assert [
        (entry["name"], entry["standing_reason_short"], entry["standing_reason"])
        for entry in data["entries"]
    ] == [
        (
            "Team 1",
            "won more often than Team 2",
            "ahead of Team 2 on win percentage (1.000 to 0.667)",
        ),
        (
            "Team 2",
            "won less often than Team 1",
            "behind Team 1 on win percentage (0.667 to 1.000)",
        ),
        (
            "Team 4",
            "won less often than Team 2",
            "behind Team 2 on win percentage (0.500 to 0.667)",
        ),
    ]
    assert data["cut_note_short"] == "Team 3 is out: smaller margin than Team 4"
    assert data["cut_note"] == (
        "The cut falls after 3rd: Team 4 is in, Team 3 (4th) is out: Team 3 and Team 4 have not "
        "played each other; behind Team 4 on point difference (-6 to +1)."
    )
    again = organiser_api.get(f"/api/v1/brackets/{data['id']}/").json()
    assert [entry["standing_reason_short"] for entry in again["entries"]] == [
        "won more often than Team 2",
        "won less often than Team 1",
        "won less often than Team 2",
    ]
    assert again["cut_note_short"] == data["cut_note_short"]


def test_a_seed_decided_head_to_head_says_who_beat_them(organiser_api, season):
    teams = make_teams(season, 4)
    for winner, loser in ((1, 2), (3, 4), (2, 3)):  # Teams 2 and 3 level at 1-1: 2 beat 3
        first, second = teams[winner - 1], teams[loser - 1]
        game = scoring.game_create(
            season=season, seats=seats(first, second), team_a=first, team_b=second
        )
        scoring.game_record_final_score(game=game, score_a=10, score_b=5)

    data = build(organiser_api, {"season": season.pk, "kind": "single", "team_count": 3})

    assert [(entry["name"], entry["standing_reason_short"]) for entry in data["entries"]] == [
        ("Team 1", "won more often than Team 2"),
        ("Team 2", "won less often than Team 1"),
        ("Team 3", "Team 2 beat them"),
    ]
    assert data["entries"][2]["standing_reason"].startswith("behind Team 2 on head-to-head")
    assert data["cut_note_short"] == "Team 4 is out: won less often than Team 3"


def test_seeds_set_by_hand_have_no_reason(organiser_api, season):
    teams = make_teams(season, 5)
    play_season(season, teams)  # standings there are, yet the organiser sets the seeds

    data = build(
        organiser_api,
        {"season": season.pk, "kind": "single", "teams": [team.pk for team in teams[:4]]},
    )

    assert [
        (entry["standing_reason"], entry["standing_reason_short"]) for entry in data["entries"]
    ] == [("", "")] * 4
    assert (data["cut_note"], data["cut_note_short"]) == ("", "")


def test_the_schema_describes_both_reasons(organiser_api):
    schema = organiser_api.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    entry = schema["components"]["schemas"]["Entry"]["properties"]
    assert set(entry) >= {"standing_reason", "standing_reason_short"}
    bracket = schema["components"]["schemas"]["BracketDetail"]["properties"]
    assert set(bracket) >= {"cut_note", "cut_note_short"}
