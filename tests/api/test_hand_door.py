"""The hand POST's way in: DRF's token authentication and the door to score
(``scoring.games.access``). A revoked token or a deactivated user is refused at the next request
(nothing is cached), a superuser needs no role, a co-organiser has one, an organiser of another
league has none; and the write stores the game row, the hand and its result change together, or
nothing."""

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from league.models import LeagueRole
from scoring.games.models import Game, Hand, ResultChange
from tests.factories import LeagueRoleFactory

pytestmark = pytest.mark.django_db


def post_hand(client, game, number, key=None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    body = {"makers": "A", "tricks_won": 3, "number": number}
    return client.post(f"/api/v1/games/{game.pk}/hands/", body, format="json", **headers)


def token_client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


def test_a_revoked_token_or_a_deactivated_user_is_refused_at_the_next_request(
    organiser, organiser_api, make_game
):
    game = make_game()
    assert post_hand(organiser_api, game, 1).status_code == 201
    organiser.is_active = False
    organiser.save(update_fields=["is_active"])
    inactive = post_hand(organiser_api, game, 2)
    assert inactive.status_code == 403  # DRF: 403 when session auth comes first
    assert inactive.json()["message"] == "User inactive or deleted."
    organiser.is_active = True
    organiser.save(update_fields=["is_active"])
    assert post_hand(organiser_api, game, 2).status_code == 201
    Token.objects.filter(user=organiser).delete()
    revoked = post_hand(organiser_api, game, 3)
    assert revoked.status_code == 403
    assert revoked.json()["message"] == "Invalid token."
    assert Hand.objects.filter(game=game).count() == 2


def test_a_wrong_token_is_refused_in_the_error_shape(api, make_game):
    api.credentials(HTTP_AUTHORIZATION="Token " + "f" * 40)
    response = post_hand(api, make_game(), 1)
    assert response.status_code == 403
    assert set(response.json()) >= {"message", "code", "errors"}


def test_who_may_score_by_token(make_game, league, django_user_model):
    game = make_game()
    superuser = django_user_model.objects.create_superuser("root", password="x-very-long-pass")
    assert post_hand(token_client(superuser), game, 1).status_code == 201
    helper = django_user_model.objects.create_user("helper", password="x-very-long-pass")
    LeagueRole.objects.create(league=league, user=helper, role=LeagueRole.Role.ORGANISER)
    assert post_hand(token_client(helper), game, 2).status_code == 201
    elsewhere = LeagueRoleFactory().user  # the organiser of another league
    refused = post_hand(token_client(elsewhere), game, 3)
    assert refused.status_code == 403
    assert refused.json()["message"] == "only an organiser of this league may change its games"
    assert post_hand(token_client(elsewhere), Game(pk=987654321), 1).status_code == 404
    assert Hand.objects.filter(game=game).count() == 2


def test_a_session_signs_in_before_a_token_as_in_drf(
    organiser, make_game, league, django_user_model
):
    """The token's user is read with the game's door only when the token signs the request in:
    with a session as well, DRF takes the session's user, and so does the door."""
    game = make_game()
    stranger = django_user_model.objects.create_user("stranger", password="x-very-long-pass")
    both = token_client(stranger)
    both.force_login(organiser)
    assert post_hand(both, game, 1).status_code == 201
    assert Hand.objects.get(game=game).entered_by == organiser
    reverse = token_client(organiser)
    reverse.force_login(stranger)
    assert post_hand(reverse, game, 2).status_code == 403
    assert Hand.objects.filter(game=game).count() == 1


def test_a_taken_key_writes_nothing_of_the_hand(organiser_api, make_game):
    """A hand whose insert fails (its key was taken by a hand of another game) after the game's
    row was updated keeps none of its writes: the row, the hand and the change are one
    transaction."""
    game, other = make_game(), make_game()
    assert post_hand(organiser_api, other, 1, key="k1").status_code == 201
    changes = ResultChange.objects.count()
    response = post_hand(organiser_api, game, 1, key="k1")
    assert response.status_code == 409, response.json()
    assert response.json()["code"] == "key_reused"
    game.refresh_from_db()
    assert (game.hands_played, game.last_hand_number, game.score_a) == (0, 0, 0)
    assert ResultChange.objects.count() == changes
    assert Hand.objects.filter(game=game).count() == 0
    assert post_hand(organiser_api, game, 1, key="k2").status_code == 201


def test_hand_fact_serializers_share_no_state():
    """The schema's serializers of a hand's facts (built from their one declaration) keep no
    state between uses: one serializer's errors or binding never show in another's."""
    from scoring.games.api.serializers import HandFactsSerializer, HandInputSerializer

    bad = HandInputSerializer(data={"makers": "C", "tricks_won": 9, "number": 0})
    assert not bad.is_valid()
    assert set(bad.errors) == {"makers", "tricks_won", "number"}
    good = HandInputSerializer(data={"makers": "B", "tricks_won": 5, "number": 2})
    assert good.is_valid(), good.errors
    assert (good.validated_data["makers"], good.validated_data["number"]) == ("B", 2)
    assert good.fields["makers"] is not bad.fields["makers"]
    assert good.fields["makers"].parent is good
    assert HandFactsSerializer(data={"tricks_won": 6}).is_valid() is False
    from scoring.games.domain.hand_input import FACTS

    assert list(HandFactsSerializer().fields) == [fact.name for fact in FACTS]
    assert list(HandInputSerializer().fields) == [*(fact.name for fact in FACTS), "number"]
