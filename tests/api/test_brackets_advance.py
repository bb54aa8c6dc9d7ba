"""The advance after a finished game touches only that match and those it feeds, and leaves the
bracket exactly as a full replay would: random brackets of 2 to 16 teams are played through (each
game finished by its final score, the ``game_finished`` receiver running on commit), and after
every game a full replay of the bracket (what a correction or the sweep runs) finds nothing to
write."""

import random
from unittest import mock

import pytest
from django.db import transaction

from scoring.games import services as scoring
from scoring.games.models import Game
from tournaments.models import Bracket, BracketMatch, BracketMatchGame
from tournaments.services.brackets import advance
from tournaments.services.locks import bracket_lock

from .test_brackets import make_teams

pytestmark = pytest.mark.django_db

CASES = [  # (teams, options, random seed)
    (2, {"kind": "single"}, 1),
    (5, {"kind": "single"}, 2),
    (8, {"kind": "single", "third_place": True}, 3),
    (13, {"kind": "single", "best_of": 3}, 4),
    (2, {"kind": "double", "grand_final_reset": True}, 5),
    (3, {"kind": "double"}, 6),
    (6, {"kind": "double", "grand_final_reset": True}, 7),
    (9, {"kind": "double"}, 8),
    (12, {"kind": "double", "grand_final_reset": True, "best_of": 3}, 9),
    (16, {"kind": "double", "grand_final_reset": True}, 10),
    (5, {"kind": "round_robin"}, 11),
    (8, {"kind": "pools", "pool_count": 2, "advancing_per_pool": 2, "third_place": True}, 12),
]


def snapshot(bracket_id):
    """Everything an advance may write, but the times."""
    return (
        Bracket.objects.get(pk=bracket_id).status,
        sorted(
            BracketMatch.objects.filter(bracket_id=bracket_id).values_list(
                "code",
                "first_team",
                "second_team",
                "winner",
                "status",
                "decided_by",
                "needs_review",
                "review_reason",
            )
        ),
        sorted(
            BracketMatchGame.objects.filter(match__bracket_id=bracket_id).values_list(
                "match__code",
                "number",
                "status",
                "voided_reason",
                "game__status",
                "game__team_a",
                "game__team_b",
            )
        ),
    )


def replay_whole(bracket_id):
    """What a correction runs: the whole bracket read and replayed."""
    with transaction.atomic():
        advance.bracket_reconcile(advance.bracket_load(bracket_lock(bracket_id)))


def in_play(bracket_id):
    return list(
        Game.objects.filter(
            bracket_link__match__bracket_id=bracket_id,
            bracket_link__status=BracketMatchGame.Status.COUNTING,
            status__in=(Game.Status.SCHEDULED, Game.Status.IN_PROGRESS),
        ).order_by("pk")
    )


@pytest.mark.parametrize(("count", "options", "seed"), CASES)
def test_each_advance_leaves_what_a_full_replay_gives(
    organiser_api, make_season, django_capture_on_commit_callbacks, count, options, seed
):
    season = make_season("standard")
    teams = make_teams(season, count)
    rng = random.Random(seed)
    order = rng.sample(teams, count)
    response = organiser_api.post(
        "/api/v1/brackets/",
        {"season": season.pk, "teams": [team.pk for team in order], **options},
        format="json",
    )
    assert response.status_code == 201, response.json()
    bracket_id = response.json()["id"]
    assert organiser_api.post(f"/api/v1/brackets/{bracket_id}/publish/").status_code == 200
    replays = mock.patch.object(advance, "bracket_load", wraps=advance.bracket_load)
    knockout_games = 0
    while waiting := in_play(bracket_id):
        game = rng.choice(waiting)
        link = BracketMatchGame.objects.select_related("match").get(game=game)
        score = (10, rng.randrange(10))
        if rng.random() < 0.5:
            score = score[::-1]
        with replays as sync, django_capture_on_commit_callbacks(execute=True):
            scoring.game_record_final_score(game=game, score_a=score[0], score_b=score[1])
        if not link.match.pool:
            knockout_games += 1
            assert sync.call_count == 0  # advanced without replaying the bracket
        after = snapshot(bracket_id)
        replay_whole(bracket_id)  # a full replay: it must find nothing to change
        assert snapshot(bracket_id) == after
    assert knockout_games
    assert Bracket.objects.get(pk=bracket_id).status == Bracket.Status.FINISHED


def test_the_advance_calls_off_a_stray_game_of_the_match_it_decides(
    organiser_api, make_season, django_capture_on_commit_callbacks
):
    """A match with two games in play (one created by a race, say): when one decides it, the
    advance calls the other off, as a full replay does."""
    season = make_season("standard")
    teams = make_teams(season, 4)
    body = {"season": season.pk, "kind": "single", "teams": [team.pk for team in teams]}
    bracket_id = organiser_api.post("/api/v1/brackets/", body, format="json").json()["id"]
    assert organiser_api.post(f"/api/v1/brackets/{bracket_id}/publish/").status_code == 200
    link = BracketMatchGame.objects.select_related("match", "game").get(
        match__bracket_id=bracket_id, match__code="W1-1"
    )
    first, second = link.game.team_a, link.game.team_b
    stray = scoring.game_create(
        season=season,
        seats=(first.player_one, second.player_one, first.player_two, second.player_two),
        team_a=first,
        team_b=second,
        counts_for_standings=False,
    )
    BracketMatchGame.objects.create(match=link.match, game=stray, number=2)
    replays = mock.patch.object(advance, "bracket_load", wraps=advance.bracket_load)
    with replays as sync, django_capture_on_commit_callbacks(execute=True):
        scoring.game_record_final_score(game=link.game, score_a=10, score_b=3)
    assert sync.call_count == 0
    stray.refresh_from_db()
    stray_link = BracketMatchGame.objects.get(game=stray)
    reason = f"not needed: {first.name} already won W1-1"
    assert (stray.status, stray.void_reason) == (Game.Status.VOIDED, reason)
    assert (stray_link.status, stray_link.voided_reason) == ("voided", reason)
    after = snapshot(bracket_id)
    replay_whole(bracket_id)
    assert snapshot(bracket_id) == after


@pytest.mark.parametrize(
    ("count", "options", "out", "seed"),
    [(8, {"kind": "double"}, 7, 13), (7, {}, 1, 14)],  # out: the seed that withdraws
)
def test_a_withdrawn_team_s_matches_are_replayed_the_others_advanced_alone(
    organiser_api, make_season, django_capture_on_commit_callbacks, count, options, out, seed
):
    """With a team withdrawn, an advance that brings a team to it (its ready match is forfeited)
    replays the whole bracket; the others advance alone, as when nobody withdrew. Either way the
    bracket is left as a full replay leaves it."""
    season = make_season("standard")
    teams = make_teams(season, count)
    rng = random.Random(seed)
    body = {"season": season.pk, "kind": "single", "teams": [team.pk for team in teams], **options}
    bracket_id = organiser_api.post("/api/v1/brackets/", body, format="json").json()["id"]
    assert organiser_api.post(f"/api/v1/brackets/{bracket_id}/publish/").status_code == 200
    withdrawn = teams[out - 1]  # seed 7 loses its first match by forfeit; seed 1 has a bye
    response = organiser_api.post(
        f"/api/v1/brackets/{bracket_id}/withdrawals/",
        {"team": withdrawn.pk, "reason": "Moved away"},
        format="json",
    )
    assert response.status_code == 200, response.json()
    replays = mock.patch.object(advance, "bracket_load", wraps=advance.bracket_load)
    alone = replayed = 0
    while waiting := in_play(bracket_id):
        game = rng.choice(waiting)
        link = BracketMatchGame.objects.select_related("match").get(game=game)
        fed = BracketMatch.objects.filter(
            bracket_id=bracket_id, code__in=_downstream(bracket_id, link.match.code)
        )
        meets_withdrawn = any(withdrawn.pk in (m.first_team_id, m.second_team_id) for m in fed)
        with replays as sync, django_capture_on_commit_callbacks(execute=True):
            scoring.game_record_final_score(game=game, score_a=10, score_b=rng.randrange(10))
        assert sync.call_count == (1 if meets_withdrawn else 0)
        replayed, alone = replayed + meets_withdrawn, alone + (not meets_withdrawn)
        after = snapshot(bracket_id)
        replay_whole(bracket_id)
        assert snapshot(bracket_id) == after
    assert alone and replayed
    assert Bracket.objects.get(pk=bracket_id).status == Bracket.Status.FINISHED
    forfeited = BracketMatch.objects.filter(bracket_id=bracket_id, decided_by="forfeit")
    assert forfeited.exists()


def _downstream(bracket_id, code):
    from tournaments.selectors.bracket_structure import bracket_structure

    return bracket_structure(Bracket.objects.get(pk=bracket_id)).downstream[code]
