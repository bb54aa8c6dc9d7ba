"""Brackets through the API: seeding from the standings (with the cut line explained) or by hand,
publishing (games with captain links), advancing when a game ends (one game or best of 3),
correcting a result after a preview, a team withdrawing, refusals that write nothing, and who may
do what."""

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scoring.games import services as scoring
from scoring.games.models import Game
from tests.factories import LeagueRoleFactory, TeamFactory
from tournaments.models import (
    Bracket,
    BracketCorrection,
    BracketEntry,
    BracketMatch,
    BracketMatchGame,
)

pytestmark = pytest.mark.django_db

SEASON_RESULTS = [  # (winner, loser, winner's points, loser's points), team numbers from 1
    (1, 2, 10, 4),
    (1, 3, 10, 2),
    (2, 4, 10, 6),
    (3, 5, 10, 8),
    (4, 5, 10, 5),
    (2, 5, 10, 3),
]


def make_teams(season, count):
    return [TeamFactory(season=season, name=f"Team {number}") for number in range(1, count + 1)]


def seats(first, second):
    return (first.player_one, second.player_one, first.player_two, second.player_two)


def play_season(season, teams):
    """The season's games, finished by their final scores, so the standings rank the teams."""
    for winner, loser, points_winner, points_loser in SEASON_RESULTS:
        first, second = teams[winner - 1], teams[loser - 1]
        game = scoring.game_create(
            season=season, seats=seats(first, second), team_a=first, team_b=second
        )
        scoring.game_record_final_score(game=game, score_a=points_winner, score_b=points_loser)


def bracket_rows():
    return (
        Bracket.objects.count(),
        BracketEntry.objects.count(),
        BracketMatch.objects.count(),
        BracketMatchGame.objects.count(),
        Game.objects.count(),
        BracketCorrection.objects.count(),
    )


def match_game(bracket_id, code, *, number=None):
    links = BracketMatchGame.objects.filter(
        match__bracket_id=bracket_id, match__code=code, status=BracketMatchGame.Status.COUNTING
    )
    if number is not None:
        links = links.filter(number=number)
    return links.select_related("game").order_by("-number").first().game


def finish(game, winner_side, capture):
    """Finish a game by its final score, running the on-commit game_finished receiver."""
    score = (10, 6) if winner_side == "A" else (6, 10)
    with capture(execute=True):
        scoring.game_record_final_score(game=game, score_a=score[0], score_b=score[1])


def by_code(data):
    return {match["code"]: match for match in data["matches"]}


@pytest.fixture
def season(make_season):
    return make_season("standard")


@pytest.fixture
def teams(season):
    return make_teams(season, 4)


@pytest.fixture
def published(organiser_api, season, teams):
    """A published single elimination of Team 1..4, seeded by hand in that order."""

    def make(**options):
        body = {"season": season.pk, "kind": "single", "teams": [team.pk for team in teams]}
        response = organiser_api.post("/api/v1/brackets/", {**body, **options}, format="json")
        assert response.status_code == 201, response.json()
        bracket_id = response.json()["id"]
        response = organiser_api.post(f"/api/v1/brackets/{bracket_id}/publish/")
        assert response.status_code == 200, response.json()
        return response.json()

    return make


def test_seeds_come_from_the_standings_and_the_cut_line_is_explained(organiser_api, season):
    teams = make_teams(season, 5)
    play_season(season, teams)

    response = organiser_api.post(
        "/api/v1/brackets/",
        {"season": season.pk, "kind": "single", "team_count": 3, "name": "Playoffs"},
        format="json",
    )

    assert response.status_code == 201, response.json()
    data = response.json()
    assert [(entry["seed"], entry["name"]) for entry in data["entries"]] == [
        (1, "Team 1"),
        (2, "Team 2"),
        (3, "Team 4"),
    ]
    assert [entry["standing_rank"] for entry in data["entries"]] == [1, 2, 3]
    assert data["cut_note"] == (
        "The cut falls after 3rd: Team 4 is in, Team 3 (4th) is out: Team 3 and Team 4 have not "
        "played each other; behind Team 4 on point difference (-6 to +1)."
    )
    assert (data["status"], data["seeding"], data["team_count"]) == ("draft", "standings", 3)
    matches = by_code(data)
    assert list(matches) == ["W1-1", "W1-2", "W2-1"]
    assert (matches["W1-1"]["status"], matches["W1-1"]["first"], matches["W1-1"]["second"]) == (
        "bye",
        "Team 1",
        "Bye",
    )
    assert (matches["W1-2"]["status"], matches["W1-2"]["first"], matches["W1-2"]["second"]) == (
        "ready",
        "Team 2",
        "Team 4",
    )
    assert (matches["W2-1"]["first"], matches["W2-1"]["second"]) == ("Team 1", "Winner of W1-2")
    assert matches["W2-1"]["slots"][1] == {
        "kind": "winner",
        "label": "Winner of W1-2",
        "match": "W1-2",
    }
    assert BracketMatchGame.objects.count() == 0  # a draft has no games


def test_the_cut_note_quotes_the_standings_reason_of_the_first_team_out(organiser_api, season):
    teams = make_teams(season, 5)
    play_season(season, teams)
    response = organiser_api.post(
        "/api/v1/brackets/", {"season": season.pk, "kind": "single", "team_count": 3}, format="json"
    )
    standings = organiser_api.get(f"/api/v1/seasons/{season.pk}/standings/").json()["standings"]
    fourth = standings["rows"][3]
    assert (fourth["name"], fourth["rank"]) == ("Team 3", 4)
    assert response.json()["cut_note"] == (
        f"The cut falls after 3rd: Team 4 is in, Team 3 (4th) is out: {fourth['reason']}."
    )


def test_publishing_creates_the_ready_matches_games_with_captain_links(
    organiser_api, published, teams
):
    data = published()

    matches = by_code(data)
    assert data["status"] == "published"
    assert [(code, match["status"]) for code, match in matches.items()] == [
        ("W1-1", "ready"),
        ("W1-2", "ready"),
        ("W2-1", "waiting"),
    ]
    first = match_game(data["id"], "W1-1")
    assert (first.team_a, first.team_b) == (teams[0], teams[3])
    assert first.seat_player_ids == (
        teams[0].player_one_id,
        teams[3].player_one_id,
        teams[0].player_two_id,
        teams[3].player_two_id,
    )
    assert first.round_number == 1
    link = organiser_api.get(f"/api/v1/games/{first.pk}/captain-link/").json()
    assert link["url"].endswith(f"/t/{first.captain_token}/")
    assert Game.objects.count() == 2

    before = bracket_rows()
    again = organiser_api.post(f"/api/v1/brackets/{data['id']}/publish/")
    assert again.status_code == 409
    assert again.json()["message"] == "This bracket is already published."
    assert bracket_rows() == before


def test_a_finished_game_moves_its_winner_on_and_the_final_crowns_a_champion(
    api, published, teams, django_capture_on_commit_callbacks
):
    data = published(third_place=True)
    bracket_id = data["id"]

    finish(match_game(bracket_id, "W1-1"), "A", django_capture_on_commit_callbacks)  # Team 1
    matches = by_code(api.get(f"/api/v1/brackets/{bracket_id}/").json())
    assert (matches["W1-1"]["status"], matches["W1-1"]["winner"]) == ("decided", teams[0].pk)
    assert matches["W1-1"]["decided_by"] == "games"
    assert matches["W1-1"]["games"] == [
        {
            "number": 1,
            "game": match_game(bracket_id, "W1-1").pk,
            "status": "finished",
            "score": [10, 6],
        }
    ]
    assert (matches["W2-1"]["first"], matches["W2-1"]["second"]) == ("Team 1", "Winner of W1-2")
    assert matches["W2-1"]["status"] == "waiting"

    finish(match_game(bracket_id, "W1-2"), "B", django_capture_on_commit_callbacks)  # Team 3
    matches = by_code(api.get(f"/api/v1/brackets/{bracket_id}/").json())
    assert (matches["W2-1"]["first"], matches["W2-1"]["second"]) == ("Team 1", "Team 3")
    assert (matches["3P"]["first"], matches["3P"]["second"]) == ("Team 4", "Team 2")
    final = match_game(bracket_id, "W2-1")
    assert (final.team_a, final.team_b, final.round_number) == (teams[0], teams[2], 2)

    finish(final, "B", django_capture_on_commit_callbacks)
    finish(match_game(bracket_id, "3P"), "A", django_capture_on_commit_callbacks)
    data = api.get(f"/api/v1/brackets/{bracket_id}/").json()
    assert (data["status"], data["champion"]) == ("finished", teams[2].pk)
    assert [(line["place"], line["name"]) for line in data["placings"]] == [
        (1, "Team 3"),
        (2, "Team 1"),
        (3, "Team 4"),
        (4, "Team 2"),
    ]
    assert Game.objects.count() == 4


def test_the_advance_is_idempotent(published, django_capture_on_commit_callbacks):
    from tournaments.services.brackets.advance import bracket_advance

    data = published()
    game = match_game(data["id"], "W1-1")
    finish(game, "A", django_capture_on_commit_callbacks)
    before = bracket_rows()
    bracket_advance(game_id=game.pk)
    bracket_advance(game_id=game.pk)
    assert bracket_rows() == before


def test_best_of_3_plays_until_a_team_wins_two(
    api, published, teams, django_capture_on_commit_callbacks
):
    data = published(best_of=3)
    bracket_id = data["id"]

    finish(match_game(bracket_id, "W1-1", number=1), "A", django_capture_on_commit_callbacks)
    match = by_code(api.get(f"/api/v1/brackets/{bracket_id}/").json())["W1-1"]
    assert (match["status"], match["wins"]) == ("ready", [1, 0])
    second = match_game(bracket_id, "W1-1", number=2)
    assert second.status == "scheduled"
    assert (second.team_a, second.first_dealer_seat) == (teams[0], 1)

    finish(second, "B", django_capture_on_commit_callbacks)
    match = by_code(api.get(f"/api/v1/brackets/{bracket_id}/").json())["W1-1"]
    assert (match["status"], match["wins"]) == ("ready", [1, 1])

    finish(match_game(bracket_id, "W1-1", number=3), "B", django_capture_on_commit_callbacks)
    match = by_code(api.get(f"/api/v1/brackets/{bracket_id}/").json())["W1-1"]
    assert (match["status"], match["winner"], match["wins"]) == ("decided", teams[3].pk, [1, 2])
    assert [game["score"] for game in match["games"]] == [[10, 6], [6, 10], [6, 10]]
    assert BracketMatchGame.objects.filter(match__code="W1-1").count() == 3


def test_a_correction_is_previewed_then_applied_with_the_reset_agreed(
    organiser_api, published, teams, django_capture_on_commit_callbacks
):
    data = published()
    bracket_id = data["id"]
    finish(match_game(bracket_id, "W1-1"), "A", django_capture_on_commit_callbacks)  # Team 1
    finish(match_game(bracket_id, "W1-2"), "A", django_capture_on_commit_callbacks)  # Team 2
    old_final = match_game(bracket_id, "W2-1")
    finish(old_final, "A", django_capture_on_commit_callbacks)  # Team 1 champion
    url = f"/api/v1/brackets/{bracket_id}/corrections/"

    before = bracket_rows()
    preview = organiser_api.post(
        f"{url}preview/", {"match": "W1-1", "winner": teams[3].pk}, format="json"
    )
    assert preview.status_code == 200, preview.json()
    assert preview.json() == {
        "match": "W1-1",
        "old_winner": teams[0].pk,
        "new_winner": teams[3].pk,
        "reset": [
            {
                "code": "W2-1",
                "teams": ["Team 1", "Team 2"],
                "winner": "Team 1",
                "games_kept": 1,
                "games_voided": 0,
            }
        ],
        "stopped": [],
        "called_off": 0,
        "message": "Team 4 wins W1-1 instead of Team 1; this resets W2-1.",
    }
    assert bracket_rows() == before  # a preview writes nothing

    stale = organiser_api.post(
        url,
        {"match": "W1-1", "winner": teams[3].pk, "reason": "Scores swapped", "reset": []},
        format="json",
    )
    assert stale.status_code == 409
    assert stale.json()["message"] == (
        "The bracket changed since the preview: correcting W1-1 now resets W2-1. "
        "Look at the preview again."
    )
    assert bracket_rows() == before

    applied = organiser_api.post(
        url,
        {"match": "W1-1", "winner": teams[3].pk, "reason": "Scores swapped", "reset": ["W2-1"]},
        format="json",
    )
    assert applied.status_code == 200, applied.json()
    data = organiser_api.get(f"/api/v1/brackets/{bracket_id}/").json()
    matches = by_code(data)
    assert (matches["W1-1"]["winner"], matches["W1-1"]["decided_by"]) == (teams[3].pk, "correction")
    assert (matches["W2-1"]["status"], matches["W2-1"]["first"], matches["W2-1"]["second"]) == (
        "ready",
        "Team 4",
        "Team 2",
    )
    assert (data["status"], data["champion"]) == ("published", None)
    old_link = BracketMatchGame.objects.get(game=old_final)
    assert (old_link.status, old_link.voided_reason) == (
        "voided",
        "reset by the correction of W1-1: Scores swapped",
    )
    new_final = match_game(bracket_id, "W2-1")
    assert (new_final.team_a, new_final.team_b, new_final.status) == (
        teams[3],
        teams[1],
        "scheduled",
    )
    assert BracketMatchGame.objects.get(game=new_final).number == 2
    correction = BracketCorrection.objects.get()
    assert (correction.code, correction.old_winner, correction.new_winner, correction.reset) == (
        "W1-1",
        teams[0],
        teams[3],
        [{"code": "W2-1", "winner": "Team 1"}],
    )


def test_a_correction_stops_a_game_in_play_whose_team_changes(
    organiser_api, published, teams, django_capture_on_commit_callbacks
):
    data = published()
    bracket_id = data["id"]
    finish(match_game(bracket_id, "W1-1"), "A", django_capture_on_commit_callbacks)
    finish(match_game(bracket_id, "W1-2"), "A", django_capture_on_commit_callbacks)
    final = match_game(bracket_id, "W2-1")
    token = final.captain_token

    preview = organiser_api.post(
        f"/api/v1/brackets/{bracket_id}/corrections/preview/",
        {"match": "W1-2", "winner": teams[2].pk},
        format="json",
    ).json()
    assert (preview["reset"], preview["message"]) == (
        [],
        "Team 3 wins W1-2 instead of Team 2; this stops the games of W2-1.",
    )
    assert preview["stopped"] == [
        {
            "code": "W2-1",
            "teams": ["Team 1", "Team 2"],
            "winner": None,
            "games_kept": 0,
            "games_voided": 1,
        }
    ]
    response = organiser_api.post(
        f"/api/v1/brackets/{bracket_id}/corrections/",
        {"match": "W1-2", "winner": teams[2].pk, "reason": "Renege missed", "reset": []},
        format="json",
    )
    assert response.status_code == 200, response.json()
    final.refresh_from_db()
    assert final.captain_token != token  # the old score card no longer opens
    assert BracketMatchGame.objects.get(game=final).status == "voided"
    replay = match_game(bracket_id, "W2-1")
    assert (replay.team_a, replay.team_b) == (teams[0], teams[2])


def test_a_withdrawn_team_forfeits_what_it_has_not_played(
    organiser_api, published, teams, django_capture_on_commit_callbacks
):
    data = published()
    bracket_id = data["id"]
    finish(match_game(bracket_id, "W1-1"), "B", django_capture_on_commit_callbacks)  # Team 4 wins
    unplayed = match_game(bracket_id, "W1-2")

    response = organiser_api.post(
        f"/api/v1/brackets/{bracket_id}/withdrawals/",
        {"team": teams[3].pk, "reason": "Moved away"},
        format="json",
    )
    assert response.status_code == 200, response.json()
    matches = by_code(response.json())
    assert (matches["W1-1"]["winner"], matches["W1-1"]["decided_by"]) == (teams[3].pk, "games")
    assert matches["W2-1"]["status"] == "waiting"  # its opponent is not known yet
    assert BracketMatchGame.objects.get(game=unplayed).status == "counting"  # not Team 4's game

    finish(unplayed, "A", django_capture_on_commit_callbacks)  # Team 2 wins W1-2
    data = organiser_api.get(f"/api/v1/brackets/{bracket_id}/").json()
    matches = by_code(data)
    assert (matches["W2-1"]["winner"], matches["W2-1"]["decided_by"]) == (teams[1].pk, "forfeit")
    assert matches["W2-1"]["games"] == []
    assert (data["status"], data["champion"]) == ("finished", teams[1].pk)
    assert [entry["withdrawn"] for entry in data["entries"]] == [False, False, False, True]
    assert [(line["place"], line["name"], line["note"]) for line in data["placings"]] == [
        (1, "Team 2", ""),
        (2, "Team 4", "withdrew"),
        (3, "Team 1", ""),
        (3, "Team 3", ""),
    ]
    assert BracketMatchGame.objects.filter(match__code="W2-1").count() == 0

    again = organiser_api.post(
        f"/api/v1/brackets/{bracket_id}/withdrawals/", {"team": teams[3].pk}, format="json"
    )
    assert again.status_code == 409


def test_withdrawing_voids_the_unplayed_game_of_a_ready_match(organiser_api, published, teams):
    data = published()
    game = match_game(data["id"], "W1-1")
    token = game.captain_token
    response = organiser_api.post(
        f"/api/v1/brackets/{data['id']}/withdrawals/", {"team": teams[3].pk}, format="json"
    )
    matches = by_code(response.json())
    assert (matches["W1-1"]["winner"], matches["W1-1"]["decided_by"]) == (teams[0].pk, "forfeit")
    link = BracketMatchGame.objects.get(game=game)
    assert (link.status, link.voided_reason) == ("voided", "forfeited: Team 4 withdrew")
    game.refresh_from_db()
    assert game.captain_token != token


@pytest.mark.parametrize("team", [2**63, 99999999999999999999, 0])
def test_a_team_id_no_row_can_have_is_refused_and_changes_nothing(
    organiser_api, published, season, teams, team
):
    data = published()
    path = f"/api/v1/brackets/{data['id']}"
    answers = [
        organiser_api.post(f"{path}/withdrawals/", {"team": team}, format="json"),
        organiser_api.post(
            f"{path}/corrections/preview/", {"match": "W1-1", "winner": team}, format="json"
        ),
        organiser_api.post(
            "/api/v1/brackets/",
            {"season": season.pk, "kind": "single", "teams": [team, teams[0].pk]},
            format="json",
        ),
    ]
    assert [answer.status_code for answer in answers] == [400, 400, 400]
    assert organiser_api.get(f"{path}/").json() == data
    assert Bracket.objects.count() == 1


def test_double_elimination_with_a_reset_plays_out(
    api, published, teams, django_capture_on_commit_callbacks
):
    data = published(kind="double", grand_final_reset=True)
    bracket_id = data["id"]
    assert list(by_code(data)) == ["W1-1", "W1-2", "W2-1", "L1-1", "L2-1", "GF1", "GF2"]
    winners = {
        "W1-1": "A",
        "W1-2": "A",
        "W2-1": "A",
        "L1-1": "A",
        "L2-1": "A",
        "GF1": "B",
        "GF2": "A",
    }
    for code, side in winners.items():
        finish(match_game(bracket_id, code), side, django_capture_on_commit_callbacks)
    data = api.get(f"/api/v1/brackets/{bracket_id}/").json()
    matches = by_code(data)
    assert (matches["GF1"]["first"], matches["GF1"]["second"]) == ("Team 1", "Team 2")
    assert (data["status"], data["champion"]) == ("finished", teams[1].pk)
    assert [(line["place"], line["name"]) for line in data["placings"]] == [
        (1, "Team 2"),
        (2, "Team 1"),
        (3, "Team 4"),
        (4, "Team 3"),
    ]


@pytest.mark.parametrize(
    ("options", "status", "message"),
    [
        (
            {"kind": "double", "third_place": True},
            400,
            "A third-place match is for single elimination.",
        ),
        ({"kind": "single", "best_of": 2}, 400, "A match is one game, best of 3 or best of 5."),
        (
            {"kind": "single"},
            400,
            "Seed from the standings (a number of teams) or by hand (the teams in order).",
        ),
        (
            {"kind": "single", "team_count": 4},
            400,
            "This season has no standings yet (no game has finished): set the seeds by hand.",
        ),
        ({"kind": "knockout", "team_count": 4}, 400, 'kind: "knockout" is not a valid choice.'),
    ],
)
def test_invalid_brackets_are_refused_and_nothing_is_written(
    organiser_api, season, teams, options, status, message
):
    before = bracket_rows()
    response = organiser_api.post(
        "/api/v1/brackets/", {"season": season.pk, **options}, format="json"
    )
    assert (response.status_code, response.json()["message"]) == (status, message)
    assert bracket_rows() == before


def test_seeds_by_hand_must_be_teams_of_the_season(organiser_api, season, teams, make_season):
    stranger = make_teams(make_season("standard"), 1)[0]
    before = bracket_rows()
    response = organiser_api.post(
        "/api/v1/brackets/",
        {"season": season.pk, "kind": "single", "teams": [teams[0].pk, stranger.pk]},
        format="json",
    )
    assert (response.status_code, response.json()["message"]) == (
        400,
        f"Team #{stranger.pk} is not a team of this season.",
    )
    assert bracket_rows() == before


def test_only_the_leagues_organisers_may_build_or_change_brackets(
    api, organiser_api, published, season, teams
):
    body = {"season": season.pk, "kind": "single", "teams": [team.pk for team in teams]}
    before = bracket_rows()
    assert api.post("/api/v1/brackets/", body, format="json").status_code == 403
    other = APIClient()
    stranger = LeagueRoleFactory().user
    other.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=stranger).key}")
    refused = other.post("/api/v1/brackets/", body, format="json")
    assert (refused.status_code, refused.json()["message"]) == (
        403,
        "only an organiser of this league may change it",
    )
    assert bracket_rows() == before

    data = published()
    before = bracket_rows()
    for path, payload in [
        ("publish/", {}),
        ("withdrawals/", {"team": teams[0].pk}),
        ("corrections/preview/", {"match": "W1-1", "winner": teams[3].pk}),
    ]:
        assert (
            other.post(f"/api/v1/brackets/{data['id']}/{path}", payload, format="json").status_code
            == 403
        )
        assert (
            api.post(f"/api/v1/brackets/{data['id']}/{path}", payload, format="json").status_code
            == 403
        )
    assert bracket_rows() == before
    listed = api.get(f"/api/v1/brackets/?season={season.pk}").json()
    assert [(row["id"], row["status"], row["team_count"]) for row in listed] == [
        (data["id"], "published", 4)
    ]
