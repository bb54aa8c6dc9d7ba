"""A changed result reaches the bracket: a game whose winner changes, or that is reopened by an
undo, after its winner moved on marks its match for the organiser's review (nothing later is
reset silently) and the correction flow settles it; two matches ending close together create no
stray game; the advance runs as a Celery task and a periodic sweep makes good a lost signal;
bracket games are called off with ``game_void`` and stay out of the season standings; drafts and
captain tokens are not public."""

from unittest import mock

import pytest
from django.conf import settings
from django.urls import reverse

from scoring.games import services as scoring
from scoring.games.models import Game
from scoring.games.signals import game_finished
from tournaments import tasks
from tournaments.models import Bracket, BracketCorrection, BracketMatch, BracketMatchGame
from tournaments.selectors.brackets import bracket_summary

from .test_brackets import bracket_rows, by_code, finish, make_teams, match_game, seats

pytestmark = pytest.mark.django_db

MARCH = {"tricks_won": 5}  # 2 points to the makers under the standard rulebook


@pytest.fixture
def season(make_season):
    return make_season("standard")


@pytest.fixture
def teams(season):
    return make_teams(season, 4)


@pytest.fixture
def published(organiser_api, season, teams):
    """A published single elimination of Team 1..4 (W1-1 Team 1 v Team 4, W1-2 Team 2 v 3)."""

    def make(**options):
        body = {"season": season.pk, "kind": "single", "teams": [team.pk for team in teams]}
        response = organiser_api.post("/api/v1/brackets/", {**body, **options}, format="json")
        assert response.status_code == 201, response.json()
        bracket_id = response.json()["id"]
        response = organiser_api.post(f"/api/v1/brackets/{bracket_id}/publish/")
        assert response.status_code == 200, response.json()
        return response.json()

    return make


def hand(game, makers, capture):
    with capture(execute=True):
        return scoring.hand_record(game=game, data=scoring.HandInput(makers=makers, **MARCH))


def match_of(api, bracket_id, code):
    return by_code(api.get(f"/api/v1/brackets/{bracket_id}/").json())[code]


def review_of(match):
    return (match["status"], match["winner"], match["decided_by"], match["needs_review"])


def test_a_changed_winner_marks_the_match_for_review_and_resets_nothing(
    api, organiser_api, organiser_client, published, teams, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    bracket_id = published()["id"]
    game = match_game(bracket_id, "W1-1")
    for makers in "ABABABAB":  # 8–8
        hand(game, makers, capture)
    hand(game, "A", capture)  # 10–8: Team 1 wins W1-1
    finish(match_game(bracket_id, "W1-2"), "A", capture)  # Team 2 wins W1-2
    final = match_game(bracket_id, "W2-1")
    before = bracket_rows()

    with capture(execute=True):
        scoring.hand_correct(
            game=game,
            number=9,
            data=scoring.HandInput(makers="B", **MARCH),
            reason="the last march was Team 4's",
        )

    game.refresh_from_db()
    assert (game.status, game.winner, game.score_a, game.score_b) == ("finished", "B", 8, 10)
    w1 = match_of(api, bracket_id, "W1-1")
    assert review_of(w1) == ("decided", teams[0].pk, "games", True)
    assert w1["review_reason"] == "The games now give W1-1 to Team 4, not Team 1."
    w2 = match_of(api, bracket_id, "W2-1")
    assert (w2["status"], w2["first"], w2["second"], w2["needs_review"]) == (
        "ready",
        "Team 1",
        "Team 2",
        False,
    )
    final.refresh_from_db()
    assert final.status == "scheduled"
    assert BracketMatchGame.objects.get(game=final).status == "counting"
    assert bracket_rows() == before  # nothing reset, no game created or voided

    page = organiser_client.get(f"/manage/brackets/{bracket_id}/")
    assert page.status_code == 200
    assert "Results to review" in page.content.decode()
    assert "The games now give W1-1 to Team 4, not Team 1." in page.content.decode()

    preview = organiser_api.post(
        f"/api/v1/brackets/{bracket_id}/corrections/preview/",
        {"match": "W1-1", "winner": teams[3].pk},
        format="json",
    ).json()
    assert (preview["reset"], [m["code"] for m in preview["stopped"]]) == ([], ["W2-1"])
    assert preview["message"] == "Team 4 wins W1-1 instead of Team 1; this stops the games of W2-1."
    applied = organiser_api.post(
        f"/api/v1/brackets/{bracket_id}/corrections/",
        {"match": "W1-1", "winner": teams[3].pk, "reason": "hand 9 corrected", "reset": []},
        format="json",
    )
    assert applied.status_code == 200, applied.json()
    w1 = match_of(api, bracket_id, "W1-1")
    assert review_of(w1) == ("decided", teams[3].pk, "correction", False)
    assert w1["review_reason"] == ""
    final.refresh_from_db()
    assert (final.status, final.void_reason) == (
        "voided",
        "reset by the correction of W1-1: hand 9 corrected",
    )
    replay = match_game(bracket_id, "W2-1")
    assert (replay.team_a, replay.team_b, replay.status) == (teams[3], teams[1], "scheduled")


def test_a_reopened_game_waits_for_the_organiser_and_clears_when_it_ends_the_same(
    api, published, teams, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    bracket_id = published()["id"]
    game = match_game(bracket_id, "W1-1")
    for _ in range(5):
        hand(game, "A", capture)  # 10–0: Team 1
    finish(match_game(bracket_id, "W1-2"), "A", capture)
    token = game.captain_token
    before = bracket_rows()

    with capture(execute=True):
        scoring.hand_undo(game=game, number=5, reason="entered twice")

    game.refresh_from_db()
    assert (game.status, game.score_a, game.captain_token) == ("in_progress", 8, token)
    w1 = match_of(api, bracket_id, "W1-1")
    assert review_of(w1) == ("decided", teams[0].pk, "games", True)
    assert w1["review_reason"] == (
        "Game 1 of W1-1 was reopened (a hand undone): Team 1 no longer has the 1 win that "
        "decided it."
    )
    assert BracketMatchGame.objects.get(game=game).status == "counting"  # the captain goes on
    assert match_of(api, bracket_id, "W2-1")["first"] == "Team 1"
    assert bracket_rows() == before

    hand(game, "A", capture)  # the captain enters the hand again: 10–0

    w1 = match_of(api, bracket_id, "W1-1")
    assert review_of(w1) == ("decided", teams[0].pk, "games", False)
    assert w1["review_reason"] == ""
    assert bracket_rows() == before


def test_the_organiser_keeps_the_result_of_a_reopened_game_through_the_correction_flow(
    api, organiser_api, organiser_client, published, teams, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    bracket_id = published()["id"]
    game = match_game(bracket_id, "W1-1")
    for _ in range(5):
        hand(game, "A", capture)
    finish(match_game(bracket_id, "W1-2"), "A", capture)
    with capture(execute=True):
        scoring.hand_undo(game=game, number=5)
    url = f"/api/v1/brackets/{bracket_id}/corrections/"

    before = bracket_rows()
    preview = organiser_api.post(
        f"{url}preview/", {"match": "W1-1", "winner": teams[0].pk}, format="json"
    )
    assert preview.status_code == 200, preview.json()
    assert preview.json() == {
        "match": "W1-1",
        "old_winner": teams[0].pk,
        "new_winner": teams[0].pk,
        "reset": [],
        "stopped": [],
        "called_off": 1,
        "message": "Team 1 keeps W1-1: the result stands as it is; no later match changes. "
        "Its game still in play is called off.",
    }
    assert bracket_rows() == before
    page = organiser_client.get(
        reverse("brackets:manage-correct", args=[bracket_id]),
        {"match": "W1-1", "winner": teams[0].pk},
    )
    assert "Keep the result" in page.content.decode()

    applied = organiser_api.post(
        url,
        {"match": "W1-1", "winner": teams[0].pk, "reason": "the undo was a slip", "reset": []},
        format="json",
    )

    assert applied.status_code == 200, applied.json()
    w1 = match_of(api, bracket_id, "W1-1")
    assert review_of(w1) == ("decided", teams[0].pk, "correction", False)
    game.refresh_from_db()
    assert (game.status, game.void_reason) == ("voided", "not needed: Team 1 already won W1-1")
    link = BracketMatchGame.objects.get(game=game)
    assert (link.status, link.voided_reason) == ("voided", "not needed: Team 1 already won W1-1")
    correction = BracketCorrection.objects.get()
    assert (correction.old_winner, correction.new_winner, correction.reset) == (
        teams[0],
        teams[0],
        [],
    )
    assert match_of(api, bracket_id, "W2-1")["first"] == "Team 1"
    assert Game.objects.count() == 3  # no game replayed

    unreviewed = organiser_api.post(
        f"{url}preview/", {"match": "W1-1", "winner": teams[0].pk}, format="json"
    )
    assert unreviewed.status_code == 400
    assert unreviewed.json()["message"] == "That team already won match W1-1."


def test_two_matches_ending_together_create_no_stray_game(
    api, published, teams, django_capture_on_commit_callbacks
):
    bracket_id = published()["id"]
    # W1-2 ends but its advance has not run yet (its task is still queued, or was lost) …
    second = match_game(bracket_id, "W1-2")
    scoring.game_record_final_score(game=second, score_a=10, score_b=4)
    # … when W1-1's advance runs: it moves Team 1 on, and W2-1 waits for W1-2's own advance;
    # W1-2, won, gets no second game.
    finish(match_game(bracket_id, "W1-1"), "A", django_capture_on_commit_callbacks)
    matches = by_code(api.get(f"/api/v1/brackets/{bracket_id}/").json())
    assert [(code, m["status"], m["first"]) for code, m in matches.items()] == [
        ("W1-1", "decided", "Team 1"),
        ("W1-2", "ready", "Team 2"),
        ("W2-1", "waiting", "Team 1"),
    ]
    assert Game.objects.count() == 2
    tasks.bracket_advance(second.pk)  # W1-2's queued advance runs (or the sweep, if lost)

    data = api.get(f"/api/v1/brackets/{bracket_id}/").json()
    matches = by_code(data)
    assert [(code, m["status"], m["winner"]) for code, m in matches.items()] == [
        ("W1-1", "decided", teams[0].pk),
        ("W1-2", "decided", teams[1].pk),
        ("W2-1", "ready", None),
    ]
    assert [len(m["games"]) for m in matches.values()] == [1, 1, 1]
    assert BracketMatchGame.objects.count() == 3
    assert Game.objects.count() == 3
    final = match_game(bracket_id, "W2-1")
    assert (final.team_a, final.team_b) == (teams[0], teams[1])


def test_the_sweep_makes_good_a_lost_signal_and_is_idempotent(
    api, published, teams, django_capture_on_commit_callbacks
):
    bracket_id = published()["id"]
    scoring.game_record_final_score(game=match_game(bracket_id, "W1-1"), score_a=6, score_b=10)
    assert match_of(api, bracket_id, "W1-1")["status"] == "ready"  # the signal was lost

    assert tasks.sweep_brackets.delay().get() == [bracket_id]

    w1 = match_of(api, bracket_id, "W1-1")
    assert (w1["status"], w1["winner"], w1["decided_by"]) == ("decided", teams[3].pk, "games")
    assert match_of(api, bracket_id, "W2-1")["first"] == "Team 4"
    before = bracket_rows()
    assert tasks.sweep_brackets.delay().get() == []
    assert bracket_rows() == before

    # A lost "reopened": the sweep marks the match for review.
    game = match_game(bracket_id, "W1-2")
    for _ in range(5):
        scoring.hand_record(game=game, data=scoring.HandInput(makers="B", **MARCH))
    tasks.sweep_brackets.delay()
    scoring.hand_undo(game=game, number=5)
    assert tasks.sweep_brackets.delay().get() == [bracket_id]
    w2 = match_of(api, bracket_id, "W1-2")
    assert review_of(w2) == ("decided", teams[2].pk, "games", True)
    assert tasks.sweep_brackets.delay().get() == []  # flagged once; the organiser decides


def test_a_stray_game_of_a_won_match_is_called_off(published, teams, season):
    bracket_id = published(best_of=3)["id"]
    first = match_game(bracket_id, "W1-1", number=1)
    scoring.game_record_final_score(game=first, score_a=10, score_b=2)
    tasks.sweep_brackets.delay()
    second = match_game(bracket_id, "W1-1", number=2)
    scoring.game_record_final_score(game=second, score_a=10, score_b=3)
    # A third game left over from before the match was known to be won (old data).
    stray = scoring.game_create(
        season=season,
        seats=seats(teams[0], teams[3]),
        team_a=teams[0],
        team_b=teams[3],
        counts_for_standings=False,
    )
    match = BracketMatch.objects.get(bracket_id=bracket_id, code="W1-1")
    BracketMatchGame.objects.create(match=match, game=stray, number=3)
    token = stray.captain_token

    assert tasks.sweep_brackets.delay().get() == [bracket_id]

    match.refresh_from_db()
    assert (match.status, match.winner_id) == ("decided", teams[0].pk)
    stray.refresh_from_db()
    assert (stray.status, stray.void_reason) == ("voided", "not needed: Team 1 already won W1-1")
    assert stray.captain_token != token
    assert BracketMatchGame.objects.get(game=stray).status == "voided"


def test_the_receiver_enqueues_the_advance_task_for_bracket_games_only(published, make_game):
    bracket_id = published()["id"]
    game = match_game(bracket_id, "W1-1")
    other = make_game()
    with mock.patch.object(tasks.bracket_advance, "apply_async") as send:
        game_finished.send(sender=Game, game_id=game.pk, change="reopened")
        game_finished.send(sender=Game, game_id=other.pk, change="finished")
    assert [call.args[0] for call in send.call_args_list] == [(game.pk,)]
    assert tasks.bracket_advance.name == "tournaments.bracket_advance"
    assert settings.CELERY_BEAT_SCHEDULE["sweep-brackets"]["task"] == "tournaments.sweep_brackets"
    assert tasks.bracket_advance.delay(other.pk).get() is None  # no bracket: nothing to do


def test_a_withdrawal_calls_off_the_unplayed_game(organiser_api, published, teams):
    bracket_id = published()["id"]
    game = match_game(bracket_id, "W1-1")
    response = organiser_api.post(
        f"/api/v1/brackets/{bracket_id}/withdrawals/", {"team": teams[3].pk}, format="json"
    )
    assert response.status_code == 200, response.json()
    game.refresh_from_db()
    assert (game.status, game.void_reason) == ("voided", "forfeited: Team 4 withdrew")


def test_playoff_games_stay_out_of_the_season_standings(
    api, published, teams, season, django_capture_on_commit_callbacks
):
    season_game = scoring.game_create(
        season=season, seats=seats(teams[1], teams[2]), team_a=teams[1], team_b=teams[2]
    )
    with django_capture_on_commit_callbacks(execute=True):
        scoring.game_record_final_score(game=season_game, score_a=10, score_b=7)
    bracket_id = published()["id"]
    playoff = match_game(bracket_id, "W1-1")
    assert (season_game.counts_for_standings, playoff.counts_for_standings) == (True, False)

    finish(playoff, "A", django_capture_on_commit_callbacks)
    finish(match_game(bracket_id, "W1-2"), "B", django_capture_on_commit_callbacks)
    finish(match_game(bracket_id, "W2-1"), "A", django_capture_on_commit_callbacks)

    assert Bracket.objects.get(pk=bracket_id).status == "finished"
    assert list(
        Game.objects.filter(bracket_link__isnull=False).values_list(
            "counts_for_standings", flat=True
        )
    ) == [False, False, False]
    rows = api.get(f"/api/v1/seasons/{season.pk}/standings/").json()["standings"]["rows"]
    assert {row["name"]: (row["games"], row["wins"]) for row in rows} == {
        "Team 1": (0, 0),
        "Team 2": (1, 1),
        "Team 3": (1, 0),
        "Team 4": (0, 0),
    }


def test_a_draft_bracket_is_the_organisers_alone(
    api, organiser_api, organiser_client, season, teams
):
    body = {"season": season.pk, "kind": "single", "teams": [team.pk for team in teams]}
    bracket_id = organiser_api.post("/api/v1/brackets/", body, format="json").json()["id"]

    assert api.get(f"/api/v1/brackets/{bracket_id}/").status_code == 404
    assert api.get(f"/api/v1/brackets/{bracket_id}/").json()["message"] == "no such bracket"
    assert api.get("/api/v1/brackets/").json() == []
    assert api.get(f"/brackets/{bracket_id}/").status_code == 404
    assert organiser_api.get(f"/api/v1/brackets/{bracket_id}/").status_code == 200
    assert [b["id"] for b in organiser_api.get("/api/v1/brackets/").json()] == [bracket_id]
    assert organiser_client.get(f"/brackets/{bracket_id}/").status_code == 200

    organiser_api.post(f"/api/v1/brackets/{bracket_id}/publish/")
    assert api.get(f"/api/v1/brackets/{bracket_id}/").status_code == 200
    assert [b["id"] for b in api.get("/api/v1/brackets/").json()] == [bracket_id]
    assert api.get(f"/brackets/{bracket_id}/").status_code == 200


def test_captain_tokens_stay_out_of_the_public_bracket(api, organiser_client, published):
    bracket_id = published()["id"]
    game = match_game(bracket_id, "W1-1")
    bracket = Bracket.objects.get(pk=bracket_id)

    public = bracket_summary(bracket=bracket)
    assert {g.captain_token for line in public.matches for g in line.games} == {""}
    organiser = bracket_summary(bracket=bracket, with_captain_tokens=True)
    assert game.captain_token in {g.captain_token for line in organiser.matches for g in line.games}
    assert game.captain_token not in api.get(f"/brackets/{bracket_id}/").content.decode()
    manage = organiser_client.get(f"/manage/brackets/{bracket_id}/").content.decode()
    assert game.captain_token in manage
