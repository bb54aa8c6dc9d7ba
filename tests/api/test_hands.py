"""Recording hands through the REST API: points from the rulebook, idempotency, conflicts, undo,
corrections, and nothing written when the input is refused."""

import pytest

from scoring.games.models import Game, Hand

pytestmark = pytest.mark.django_db


def post_hand(client, game, key=None, **facts):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return client.post(f"/api/v1/games/{game.pk}/hands/", facts, format="json", **headers)


def test_march_loner_and_euchre_score_under_csl(organiser_api, make_game):
    game = make_game("csl")
    response = post_hand(organiser_api, game, "k1", makers="A", tricks_won=5)
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["points_a"], body["points_b"], body["summary"]) == (2, 0, "March! A +2")
    assert body["number"] == 1 and body["dealer_seat"] == 0
    assert (body["game"]["score_a"], body["game"]["next_dealer_seat"]) == (2, 1)

    loner_euchred = post_hand(
        organiser_api,
        game,
        "k2",
        makers="B",
        caller=game.seat_1_id,
        caller_alone=True,
        tricks_won=2,
    ).json()
    assert (loner_euchred["points_a"], loner_euchred["summary"]) == (4, "Euchred a loner: A +4")
    game.refresh_from_db()
    assert (game.score_a, game.score_b, game.hands_played, game.status) == (6, 0, 2, "in_progress")


def test_game_ends_by_itself_at_the_target_and_refuses_more_hands(organiser_api, make_game):
    game = make_game("standard")
    for number in range(1, 5):  # lone marches: 4, 8, then 12 ends it at hand 3
        response = post_hand(
            organiser_api, game, f"m{number}", makers="A", caller_alone=True, tricks_won=5
        )
        if number <= 3:
            assert response.status_code == 201
    assert response.status_code == 409
    assert response.json()["code"] == "game_over"
    assert "the game is over (12–0)" in response.json()["message"]
    game.refresh_from_db()
    assert (game.status, game.winner, game.score_a, game.hands_played) == ("finished", "A", 12, 3)
    assert Hand.objects.filter(game=game).count() == 3


def test_progressive_game_ends_after_eight_hands(organiser_api, make_game):
    game = make_game("progressive")
    for number in range(1, 9):
        response = post_hand(
            organiser_api, game, f"p{number}", makers="AB"[number % 2], tricks_won=3
        )
        assert response.status_code == 201
    game.refresh_from_db()
    assert (game.status, game.score_a, game.score_b, game.winner) == ("finished", 4, 4, "")


def test_same_key_same_facts_returns_the_same_hand(organiser_api, make_game):
    game = make_game()
    first = post_hand(organiser_api, game, "tap-1", makers="A", tricks_won=3)
    again = post_hand(organiser_api, game, "tap-1", makers="A", tricks_won=3)
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json()["id"] == again.json()["id"]
    assert Hand.objects.filter(game=game).count() == 1
    game.refresh_from_db()
    assert game.score_a == 1


def test_same_key_other_facts_is_a_conflict_and_writes_nothing(organiser_api, make_game):
    game = make_game()
    post_hand(organiser_api, game, "tap-1", makers="A", tricks_won=3)
    response = post_hand(organiser_api, game, "tap-1", makers="A", tricks_won=5)
    assert response.status_code == 409
    assert response.json()["code"] == "key_reused"
    assert Hand.objects.filter(game=game).count() == 1


def test_two_captains_entering_the_same_hand_number(organiser_api, make_game):
    game = make_game()
    first = post_hand(organiser_api, game, "phone-1", makers="A", tricks_won=3, number=1)
    second = post_hand(organiser_api, game, "phone-2", makers="B", tricks_won=4, number=1)
    assert first.status_code == 201
    assert second.status_code == 409
    body = second.json()
    assert body["message"] == (
        "hand 1 was already entered; the score is A 1 – B 0 and hand 2 is next"
    )
    assert (body["game"]["score_a"], body["game"]["score_b"]) == (1, 0)
    assert Hand.objects.filter(game=game).count() == 1


@pytest.mark.parametrize(
    ("facts", "status", "field", "message"),
    [
        ({"makers": "A", "tricks_won": 6}, 400, "tricks_won", "less than or equal to 5"),
        ({"makers": "C", "tricks_won": 3}, 400, "makers", "not a valid choice"),
        ({"tricks_won": 3}, 400, "makers", "say which side made trump"),
        ({"thrown_in": True}, 400, "thrown_in", "not allowed when stick the dealer is on"),
        (
            {"makers": "A", "tricks_won": 1, "defender_alone": True},
            400,
            "defender_alone",
            "only against a lone caller",
        ),
        (
            {"makers": "A", "tricks_won": 3, "caller": 999999},
            400,
            "caller",
            "one of the four players at this table",
        ),
    ],
)
def test_bad_hands_are_explained_and_write_nothing(
    organiser_api, make_game, facts, status, field, message
):
    game = make_game("csl")
    response = post_hand(organiser_api, game, "bad", **facts)
    assert response.status_code == status, response.json()
    body = response.json()
    assert message in body["message"]
    assert field in body["errors"]
    assert Hand.objects.count() == 0
    game.refresh_from_db()
    assert (game.score_a, game.score_b, game.status, game.season.results_version) == (
        0,
        0,
        "scheduled",
        0,
    )


def test_caller_on_the_wrong_side_is_refused(organiser_api, make_game):
    game = make_game()
    response = post_hand(organiser_api, game, makers="A", tricks_won=3, caller=game.seat_1_id)
    assert response.status_code == 400
    assert response.json()["errors"] == {"caller": ["the caller must sit on the makers' side"]}


def test_undo_last_hand_once_even_if_retried(organiser_api, make_game):
    game = make_game()
    post_hand(organiser_api, game, "a", makers="A", tricks_won=3)
    post_hand(organiser_api, game, "b", makers="B", tricks_won=5)
    undo = organiser_api.post(f"/api/v1/games/{game.pk}/hands/undo/", {"number": 2}, format="json")
    assert undo.status_code == 200
    assert (undo.json()["score_a"], undo.json()["score_b"], undo.json()["hands_played"]) == (
        1,
        0,
        1,
    )
    retry = organiser_api.post(f"/api/v1/games/{game.pk}/hands/undo/", {"number": 2}, format="json")
    assert retry.status_code == 409
    assert "hand 2 is not the last hand (the last is hand 1)" in retry.json()["message"]
    voided = Hand.objects.get(game=game, number=2)
    assert (voided.status, voided.change_reason) == ("voided", "undone")
    # the next hand takes number 2 again, dealt by the same seat as the undone one
    again = post_hand(organiser_api, game, "c", makers="B", tricks_won=3).json()
    assert (again["number"], again["dealer_seat"]) == (2, 1)


def test_undo_reopens_a_finished_game(organiser_api, make_game):
    game = make_game(season=None)
    for key in "abc":
        post_hand(organiser_api, game, key, makers="A", caller_alone=True, tricks_won=5)
    game.refresh_from_db()
    assert game.status == "finished"
    organiser_api.post(f"/api/v1/games/{game.pk}/hands/undo/", {"number": 3}, format="json")
    game.refresh_from_db()
    assert (game.status, game.winner, game.score_a) == ("in_progress", "", 8)


def test_correct_an_earlier_hand_keeps_the_old_row(organiser_api, make_game, organiser):
    game = make_game()
    post_hand(organiser_api, game, "a", makers="A", tricks_won=3)
    post_hand(organiser_api, game, "b", makers="B", tricks_won=3)
    response = organiser_api.post(
        f"/api/v1/games/{game.pk}/hands/1/correct/",
        {"makers": "A", "tricks_won": 5, "reason": "it was a march"},
        format="json",
    )
    assert response.status_code == 200, response.json()
    assert response.json()["summary"] == "March! A +2"
    game.refresh_from_db()
    assert (game.score_a, game.score_b) == (2, 1)
    old, new = Hand.objects.filter(game=game, number=1).order_by("created_at")
    assert (old.status, old.replaced_by_id, old.change_reason, old.changed_by) == (
        "superseded",
        new.pk,
        "it was a march",
        organiser,
    )
    assert new.status == "active"
    history = organiser_api.get(f"/api/v1/games/{game.pk}/hands/?all=true").json()
    assert [(hand["number"], hand["status"]) for hand in history] == [
        (1, "superseded"),
        (1, "active"),
        (2, "active"),
    ]


def test_correction_needs_a_reason_and_cannot_end_the_game_early(organiser_api, make_game):
    game = make_game()
    for key in "abc":
        post_hand(organiser_api, game, key, makers="A", tricks_won=5)  # 2, 4, 6
    no_reason = organiser_api.post(
        f"/api/v1/games/{game.pk}/hands/1/correct/",
        {"makers": "A", "tricks_won": 3},
        format="json",
    )
    assert no_reason.status_code == 400 and "reason" in no_reason.json()["errors"]
    post_hand(organiser_api, game, "d", makers="A", tricks_won=5)  # 8
    too_much = organiser_api.post(
        f"/api/v1/games/{game.pk}/hands/1/correct/",
        {"makers": "A", "caller_alone": True, "tricks_won": 5, "reason": "was alone"},
        format="json",
    )  # 4 + 2 + 2 = 8 after hand 3 … 10 at hand 4: still fine
    assert too_much.status_code == 200
    worse = organiser_api.post(
        f"/api/v1/games/{game.pk}/hands/2/correct/",
        {"makers": "A", "caller_alone": True, "tricks_won": 5, "reason": "also alone"},
        format="json",
    )  # 4 + 4 + 2 = 10 at hand 3, but hand 4 was recorded
    assert worse.status_code == 400
    assert "would have ended before the last hand" in worse.json()["message"]
    assert Hand.objects.filter(game=game, status="superseded").count() == 1


def test_final_score_alone(organiser_api, make_game):
    game = make_game()
    response = organiser_api.post(
        f"/api/v1/games/{game.pk}/final-score/", {"score_a": 7, "score_b": 10}, format="json"
    )
    assert response.status_code == 200
    assert (response.json()["status"], response.json()["winner"]) == ("finished", "B")
    bad = make_game()
    refused = organiser_api.post(
        f"/api/v1/games/{bad.pk}/final-score/", {"score_a": 7, "score_b": 9}, format="json"
    )
    assert refused.status_code == 400
    assert Game.objects.get(pk=bad.pk).status == "scheduled"
    hands_after = post_hand(organiser_api, game, makers="A", tricks_won=3)
    assert hands_after.status_code == 409


def test_writes_need_an_organiser_of_that_league(api, make_game, django_user_model):
    game = make_game()
    anonymous = post_hand(api, game, makers="A", tricks_won=3)
    assert anonymous.status_code in (401, 403)
    stranger = django_user_model.objects.create_user("stranger", password="x-very-long-pass")
    api.force_authenticate(stranger)
    refused = post_hand(api, game, makers="A", tricks_won=3)
    assert refused.status_code == 403
    assert refused.json()["message"] == "only an organiser of this league may change its games"
    assert Hand.objects.count() == 0


def test_reads_are_public(api, make_game):
    game = make_game()
    assert api.get(f"/api/v1/games/{game.pk}/").status_code == 200
    assert api.get("/api/v1/games/").json()["count"] == 1
    assert api.get("/api/v1/games/0/").status_code == 404
    assert api.get("/api/v1/games/0/").json()["message"]


def test_captain_token_header_scores_its_own_game_only(api, make_game):
    game, other = make_game(), make_game()
    response = api.post(
        f"/api/v1/games/{game.pk}/hands/",
        {"makers": "B", "tricks_won": 4, "number": 1},
        format="json",
        HTTP_X_CAPTAIN_TOKEN=game.captain_token,
        HTTP_IDEMPOTENCY_KEY="c1",
    )
    assert response.status_code == 201
    assert Hand.objects.get().source == "captain"
    wrong = api.post(
        f"/api/v1/games/{other.pk}/hands/",
        {"makers": "B", "tricks_won": 4},
        format="json",
        HTTP_X_CAPTAIN_TOKEN=game.captain_token,
    )
    assert wrong.status_code == 404
    bogus = api.post(
        f"/api/v1/games/{game.pk}/hands/",
        {"makers": "B", "tricks_won": 4},
        format="json",
        HTTP_X_CAPTAIN_TOKEN="not-a-token",
    )
    assert bogus.status_code == 404
    assert Hand.objects.count() == 1


def test_a_confirmed_score_can_only_be_changed_by_an_organiser(api, organiser_api, make_game):
    game = make_game()
    for key in "abc":
        post_hand(organiser_api, game, key, makers="A", caller_alone=True, tricks_won=5)
    captain = {"HTTP_X_CAPTAIN_TOKEN": game.captain_token}
    assert api.post(f"/api/v1/games/{game.pk}/confirm/", **captain).json()["confirmation"] == (
        "confirmed"
    )
    refused = api.post(
        f"/api/v1/games/{game.pk}/hands/undo/", {"number": 3}, format="json", **captain
    )
    assert refused.status_code == 409
    assert refused.json()["message"] == (
        "the final score was confirmed; ask an organiser to change it"
    )
    assert Hand.objects.filter(game=game, status="active").count() == 3
    by_organiser = organiser_api.post(
        f"/api/v1/games/{game.pk}/hands/undo/", {"number": 3}, format="json"
    )
    assert by_organiser.status_code == 200
    assert by_organiser.json()["confirmation"] == "pending"


def test_dispute_then_confirm_is_refused_once_confirmed(api, organiser_api, make_game):
    game = make_game()
    captain = {"HTTP_X_CAPTAIN_TOKEN": game.captain_token}
    early = api.post(f"/api/v1/games/{game.pk}/confirm/", **captain)
    assert early.status_code == 409 and early.json()["code"] == "not_over"
    for key in "abc":
        post_hand(organiser_api, game, key, makers="B", caller_alone=True, tricks_won=5)
    disputed = api.post(
        f"/api/v1/games/{game.pk}/dispute/",
        {"reason": "hand 2 was a euchre"},
        format="json",
        **captain,
    )
    assert disputed.json()["confirmation"] == "disputed"
    assert "dispute_reason" not in disputed.json()  # the league's private business
    public = api.get(f"/api/v1/games/{game.pk}/").json()
    assert "dispute_reason" not in public
    assert all("change_reason" not in hand for hand in public["hands"])
    seen = organiser_api.get(f"/api/v1/games/{game.pk}/").json()
    assert seen["dispute_reason"] == "hand 2 was a euchre"
    listed = organiser_api.get("/api/v1/games/?confirmation=disputed").json()
    assert [row["id"] for row in listed["results"]] == [game.pk]
    # Confirming does not wipe the dispute out, by the table's link or an organiser's token:
    # an organiser settles it, with a reason for the audit trail.
    for client, headers in ((api, captain), (organiser_api, {})):
        refused = client.post(f"/api/v1/games/{game.pk}/confirm/", **headers)
        assert refused.status_code == 409 and refused.json()["code"] == "disputed"
    seen = organiser_api.get(f"/api/v1/games/{game.pk}/").json()
    assert (seen["confirmation"], seen["dispute_reason"]) == ("disputed", "hand 2 was a euchre")


def test_a_night_can_make_games_of_a_fixed_number_of_hands(organiser_api, make_season, league):
    from scoring.games import services
    from tests.factories import PlayerFactory

    season = make_season("csl")  # a game to 10 by the rulebook …
    seats = tuple(PlayerFactory(league=league) for _ in range(4))
    game = services.game_create(season=season, seats=seats, hands_per_game=4)  # … 4 hands here
    for key in "abcd":
        response = post_hand(organiser_api, game, key, makers="A", tricks_won=3)
        assert response.status_code == 201
    game.refresh_from_db()
    assert (game.status, game.score_a, game.hands_played, game.winner) == ("finished", 4, 4, "A")
    assert organiser_api.get(f"/t/{game.captain_token}/").status_code == 200


def test_dealers_partner_who_orders_up_must_go_alone(organiser_api, make_game, league):
    from league.services import rulebook_create
    from tests.factories import SeasonFactory

    rulebook = rulebook_create(
        league=league,
        name="Aussie",
        preset="standard",
        options={"dealer_partner_must_go_alone": True},
    )
    game = make_game(season=SeasonFactory(league=league, rulebook=rulebook))  # seat 0 deals
    partner = game.seat_2_id
    refused = post_hand(
        organiser_api, game, "o1", makers="A", caller=partner, ordered_up=True, tricks_won=3
    )
    assert refused.status_code == 400
    assert refused.json()["errors"] == {
        "caller_alone": ["under this rulebook the dealer's partner who orders up must go alone"]
    }
    assert Hand.objects.count() == 0
    named = post_hand(
        organiser_api, game, "o2", makers="A", caller=partner, ordered_up=False, tricks_won=3
    )
    assert (named.status_code, named.json()["ordered_up"]) == (201, False)
    alone = post_hand(
        organiser_api, game, "o3", makers="B", caller=game.seat_3_id, ordered_up=True, tricks_won=3
    )  # seat 1 deals hand 2: seat 3 is its partner
    assert alone.status_code == 400
    assert (
        post_hand(
            organiser_api,
            game,
            "o4",
            makers="B",
            caller=game.seat_3_id,
            ordered_up=True,
            caller_alone=True,
            tricks_won=5,
        ).json()["points_b"]
        == 4
    )
