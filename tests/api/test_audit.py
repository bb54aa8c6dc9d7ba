"""The audit trail each service writes: hand undos and corrections (by an organiser and by a
captain), final-score overrides, dispute decisions, rulebook changes and roster edits — and no
entry when the service refuses. Read back through the season's audit page."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from core.errors import ConflictError, DomainError
from league import services as league_services
from league.audit import SYSTEM, audit_record
from league.models import AuditEntry, Player
from scoring.games import services
from scoring.games.models import Hand
from tests.factories import LeagueRoleFactory, PlayerFactory, SeasonFactory

pytestmark = pytest.mark.django_db

MARCH_A = {"makers": "A", "tricks_won": 5}
MARCHED = {"outcome": "march", "points_a": 2, "points_b": 0}


def _hand(client, game, **facts):
    response = client.post(f"/api/v1/games/{game.pk}/hands/", facts, format="json")
    assert response.status_code == 201, response.json()
    return response


def _picture(game, number, *, outcome, points_a, points_b, status, makers="A", tricks_won=5):
    return {
        "game": game.pk,
        "number": number,
        "makers": makers,
        "caller": None,
        "caller_alone": False,
        "defender_alone": False,
        "tricks_won": tricks_won,
        "renege": "",
        "thrown_in": False,
        "misdeal": False,
        "ordered_up": None,
        "time_called": False,
        "outcome": outcome,
        "points_a": points_a,
        "points_b": points_b,
        "status": status,
    }


def _entries():
    return list(AuditEntry.objects.order_by("pk"))


def test_undo_by_an_organiser(organiser_api, organiser, make_game):
    game = make_game()
    _hand(organiser_api, game, **MARCH_A)
    response = organiser_api.post(
        f"/api/v1/games/{game.pk}/hands/undo/", {"number": 1}, format="json"
    )
    assert response.status_code == 200
    [entry] = _entries()
    hand = Hand.objects.get()
    assert (entry.league_id, entry.season_id, entry.actor, entry.actor_label) == (
        game.season.league_id,
        game.season_id,
        organiser,
        organiser.username,
    )
    assert (entry.action, entry.target_type, entry.target_id, entry.reason) == (
        "hand.undo",
        "hand",
        hand.pk,
        "undone",
    )
    assert entry.before == _picture(game, 1, **MARCHED, status="active")
    assert entry.after == _picture(game, 1, **MARCHED, status="voided")


def test_undo_and_correction_by_a_captain_are_marked_captain(api, organiser_api, make_game):
    game = make_game()
    _hand(organiser_api, game, **MARCH_A)
    _hand(organiser_api, game, **MARCH_A)
    captain = {"HTTP_X_CAPTAIN_TOKEN": game.captain_token}
    corrected = api.post(
        f"/api/v1/games/{game.pk}/hands/1/correct/",
        {"makers": "A", "tricks_won": 3, "reason": "only three tricks"},
        format="json",
        **captain,
    )
    assert corrected.status_code == 200, corrected.json()
    undone = api.post(
        f"/api/v1/games/{game.pk}/hands/undo/", {"number": 2}, format="json", **captain
    )
    assert undone.status_code == 200
    correct, undo = _entries()
    new_hand = Hand.objects.get(number=1, status="active")
    assert (correct.action, correct.actor, correct.actor_label, correct.target_id) == (
        "hand.correct",
        None,
        "captain",
        new_hand.pk,
    )
    assert correct.reason == "only three tricks"
    assert correct.before == _picture(game, 1, **MARCHED, status="active")
    assert correct.after == _picture(
        game, 1, outcome="make", points_a=1, points_b=0, status="active", tricks_won=3
    )
    assert (undo.action, undo.actor_label, undo.before["number"], undo.after["status"]) == (
        "hand.undo",
        "captain",
        2,
        "voided",
    )


def test_a_refused_correction_writes_no_entry(organiser_api, make_game):
    game = make_game()
    _hand(organiser_api, game, **MARCH_A)
    same = organiser_api.post(
        f"/api/v1/games/{game.pk}/hands/1/correct/",
        {**MARCH_A, "reason": "no change"},
        format="json",
    )
    assert same.status_code == 400
    nothing = organiser_api.post(
        f"/api/v1/games/{game.pk}/hands/undo/", {"number": 5}, format="json"
    )
    assert nothing.status_code == 409
    assert _entries() == []


def test_final_score_override(organiser_api, organiser, make_game):
    game = make_game()
    response = organiser_api.post(
        f"/api/v1/games/{game.pk}/final-score/", {"score_a": 10, "score_b": 7}, format="json"
    )
    assert response.status_code == 200, response.json()
    [entry] = _entries()
    assert (entry.action, entry.target_type, entry.target_id, entry.actor) == (
        "game.final-score",
        "game",
        game.pk,
        organiser,
    )
    assert entry.before == {
        "score_a": 0,
        "score_b": 0,
        "status": "scheduled",
        "winner": "",
        "confirmation": "pending",
        "dispute_reason": "",
    }
    assert entry.after == {
        "score_a": 10,
        "score_b": 7,
        "status": "finished",
        "winner": "A",
        "confirmation": "pending",
        "dispute_reason": "",
    }


def test_rulebook_change(organiser_api, organiser, make_season):
    season = make_season("standard")
    old = season.rulebook
    response = organiser_api.post(
        f"/api/v1/seasons/{season.pk}/rules/", {"options": {"target_score": 11}}, format="json"
    )
    assert response.status_code == 202, response.json()
    season.refresh_from_db()
    [entry] = _entries()
    assert (entry.action, entry.target_type, entry.target_id, entry.season_id, entry.actor) == (
        "rulebook.change",
        "season",
        season.pk,
        season.pk,
        organiser,
    )
    assert entry.before == {"rulebook": old.pk, "version": 1, "options": old.options}
    assert entry.after == {
        "rulebook": season.rulebook_id,
        "version": 2,
        "options": {**old.options, "target_score": 11},
    }
    same = organiser_api.post(
        f"/api/v1/seasons/{season.pk}/rules/", {"options": {"target_score": 11}}, format="json"
    )
    assert same.status_code == 400
    assert AuditEntry.objects.count() == 1


def _disputed(season):
    players = [PlayerFactory(league=season.league, name=n) for n in ("Al", "Bo", "Cy", "Di")]
    game = services.game_create(season=season, seats=tuple(players))
    for _ in range(5):
        services.hand_record(game=game, data=services.HandInput(**MARCH_A))
    return services.game_dispute(game=game, reason="hand 5 was only 3 tricks")


def test_settle_by_confirming(organiser, make_season):
    game = _disputed(make_season())
    settled = services.game_settle_dispute(
        game=game, user=organiser, decision="confirm", reason="the score sheet agrees"
    )
    assert (settled.confirmation, settled.dispute_reason, settled.score_a) == ("confirmed", "", 10)
    [entry] = _entries()
    assert (entry.action, entry.actor, entry.reason, entry.target_id) == (
        "game.settle-confirm",
        organiser,
        "the score sheet agrees",
        game.pk,
    )
    assert (entry.before["confirmation"], entry.before["dispute_reason"]) == (
        "disputed",
        "hand 5 was only 3 tricks",
    )
    assert (entry.after["confirmation"], entry.after["dispute_reason"]) == ("confirmed", "")


def test_settle_by_correcting_a_hand_that_reopens_the_game(organiser, make_season):
    game = _disputed(make_season())
    settled = services.game_settle_dispute(
        game=game,
        user=organiser,
        decision="correct",
        reason="hand 5 was only 3 tricks",
        number=5,
        data=services.HandInput(makers="A", tricks_won=3),
    )
    assert (settled.status, settled.score_a, settled.confirmation) == ("in_progress", 9, "pending")
    correct, settle = _entries()
    assert (correct.action, correct.actor, correct.reason) == (
        "hand.correct",
        organiser,
        "hand 5 was only 3 tricks",
    )
    assert (correct.before["points_a"], correct.after["points_a"]) == (2, 1)
    assert Hand.objects.get(number=5, status="active").source == "organiser"
    assert (settle.action, settle.before["status"], settle.after["status"]) == (
        "game.settle-correct",
        "finished",
        "in_progress",
    )


def test_settle_by_correcting_a_hand_that_keeps_the_game_finished(organiser, make_season):
    game = _disputed(make_season())
    settled = services.game_settle_dispute(
        game=game,
        user=organiser,
        decision="correct",
        reason="hand 5 was a lone march",
        number=5,
        data=services.HandInput(
            makers="A", caller_id=game.seat_0_id, caller_alone=True, tricks_won=5
        ),
    )
    assert (settled.status, settled.score_a, settled.confirmation) == ("finished", 12, "confirmed")
    correct, settle = _entries()
    assert (correct.action, correct.after["outcome"], correct.after["points_a"]) == (
        "hand.correct",
        "lone_march",
        4,
    )
    assert (settle.action, settle.before["score_a"], settle.after["score_a"]) == (
        "game.settle-correct",
        10,
        12,
    )
    assert (settle.after["confirmation"], settle.reason) == ("confirmed", "hand 5 was a lone march")


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"decision": "confirm", "reason": " "}, DomainError, "say why the dispute is settled"),
        ({"decision": "shrug", "reason": "x"}, DomainError, "the decision is confirm or correct"),
        ({"decision": "correct", "reason": "x"}, DomainError, "say which hand is corrected"),
    ],
)
def test_a_refused_settlement_writes_nothing(organiser, make_season, kwargs, error, message):
    game = _disputed(make_season())
    with pytest.raises(error, match=message):
        services.game_settle_dispute(game=game, user=organiser, **kwargs)
    game.refresh_from_db()
    assert (game.confirmation, game.score_a) == ("disputed", 10)
    assert _entries() == []


def test_a_game_still_playing_cannot_be_settled(organiser, make_game):
    game = make_game()
    with pytest.raises(ConflictError, match="only a finished game can be settled"):
        services.game_settle_dispute(game=game, user=organiser, decision="confirm", reason="ok")
    assert _entries() == []


def test_roster_edits(organiser, league, make_season):
    season = make_season()
    ann = league_services.player_create(league=league, name="Ann", user=organiser)
    bea = league_services.player_create(league=league, name="Bea", email="b@example.com")
    team = league_services.team_create(
        season=season, name="Aces", player_one=ann, player_two=bea, user=organiser
    )
    league_services.player_update(player=ann, name="Ann Lee", email="", user=organiser)
    league_services.player_update(player=ann, name="Ann Lee", email="", user=organiser)  # no-op
    league_services.player_deactivate(player=bea, user=organiser, reason="moved")
    rows = [
        (e.action, e.actor_label, e.target_type, e.target_id, e.season_id, e.before, e.after)
        for e in _entries()
    ]
    assert rows == [
        (
            "player.create",
            organiser.username,
            "player",
            ann.pk,
            None,
            None,
            {"name": "Ann", "email": "", "is_active": True},
        ),
        (
            "player.create",
            SYSTEM,
            "player",
            bea.pk,
            None,
            None,
            {"name": "Bea", "email": "b@example.com", "is_active": True},
        ),
        (
            "team.create",
            organiser.username,
            "team",
            team.pk,
            season.pk,
            None,
            {"name": "Aces", "player_one": ann.pk, "player_two": bea.pk, "is_withdrawn": False},
        ),
        (
            "player.update",
            organiser.username,
            "player",
            ann.pk,
            None,
            {"name": "Ann", "email": "", "is_active": True},
            {"name": "Ann Lee", "email": "", "is_active": True},
        ),
        (
            "player.deactivate",
            organiser.username,
            "player",
            bea.pk,
            None,
            {"name": "Bea", "email": "b@example.com", "is_active": True},
            {"name": "Bea", "email": "b@example.com", "is_active": False},
        ),
    ]
    with pytest.raises(ConflictError, match="Bea is already inactive"):
        league_services.player_deactivate(player=bea, user=organiser)
    with pytest.raises(ConflictError, match="Ann Lee is already on this league's roster"):
        league_services.player_create(league=league, name="Ann Lee", user=organiser)
    assert AuditEntry.objects.count() == 5
    assert Player.objects.count() == 2


def test_the_audit_page_shows_a_seasons_trail_to_its_organisers_only(organiser, make_game):
    game = make_game()
    services.hand_record(game=game, data=services.HandInput(**MARCH_A))
    services.hand_undo(game=game, number=1, user=organiser, reason="wrong table")
    other_season = SeasonFactory(league=game.season.league)
    audit_record(
        league=game.season.league,
        actor=SYSTEM,
        action="player.create",
        target=other_season,
        before=None,
        after={"name": "elsewhere"},
    )
    client = Client()
    client.force_login(organiser)
    page = client.get(reverse("manage:audit", args=[game.season_id]))
    assert page.status_code == 200
    assert page.text.count('class="entry"') == 1
    assert "hand.undo" in page.text and "Why: wrong table" in page.text
    assert "elsewhere" not in page.text

    stranger = Client()
    stranger.force_login(LeagueRoleFactory().user)
    refused = stranger.get(reverse("manage:audit", args=[game.season_id]))
    assert refused.status_code == 403
    assert "wrong table" not in refused.text


def test_roster_changes_through_the_api_name_their_organiser(organiser_api, organiser, league):
    from league.models import AuditEntry

    response = organiser_api.post(
        "/api/v1/players/", {"league": league.pk, "name": "Api Person"}, format="json"
    )
    assert response.status_code == 201
    entry = AuditEntry.objects.get(action="player.create")
    assert entry.actor == organiser
