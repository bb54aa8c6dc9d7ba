"""The hand POST's way in, written as plain SQL once (``league.rows``): the token's lookup
(``league.api.authentication``) and the door to score (``scoring.access``) must answer as DRF's
``TokenAuthentication`` and the ORM door did: a revoked token or a deactivated user is refused at
the next request (nothing is cached), a superuser needs no role, a co-organiser has one, an
organiser of another league has none; and the write stores the game row, the hand and its
result change together, or nothing."""

import pytest
from django.db import IntegrityError
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from league.models import LeagueRole
from scoring.access import game_for_captain, game_for_organiser
from scoring.models import Game, Hand, ResultChange
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


def test_the_token_is_read_with_the_door_in_one_statement(organiser_api, make_game):
    """The hand POST's first statement reads the token, its user, the role and the game; a GET
    (no door to read) reads the token alone."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    game = make_game()
    with CaptureQueriesContext(connection) as queries:
        assert post_hand(organiser_api, game, 1).status_code == 201
    first = next(q["sql"] for q in queries.captured_queries if "authtoken_token" in q["sql"])
    assert "scoring_game" in first and "league_leaguerole" in first
    with CaptureQueriesContext(connection) as queries:
        assert organiser_api.get(f"/api/v1/games/{game.pk}/hands/").status_code == 200
    token_reads = [q["sql"] for q in queries.captured_queries if "authtoken_token" in q["sql"]]
    assert len(token_reads) == 1 and "scoring_game" not in token_reads[0]


def test_the_door_reads_what_the_orm_reads(organiser, make_game):
    game = make_game()
    found = game_for_organiser(user=organiser, pk=game.pk, to_score=True)
    orm = Game.objects.select_related("season__rulebook").get(pk=game.pk)
    for field in Game._meta.concrete_fields:
        assert getattr(found, field.attname) == getattr(orm, field.attname), field.name
    assert found.season.league_id == orm.season.league_id
    assert found.season.rulebook.options == orm.season.rulebook.options
    assert found.seat_player_ids == orm.seat_player_ids
    by_token = game_for_captain(token=game.captain_token, to_score=True)
    assert (by_token.pk, by_token.season.rulebook.pk) == (game.pk, orm.season.rulebook_id)


def test_a_taken_number_writes_nothing_of_the_hand(organiser_api, make_game):
    """The hand's INSERT fails after the game's UPDATE and beside the change's INSERT: none of the
    three is kept (one statement on PostgreSQL, one transaction elsewhere)."""
    from scoring.services import hands
    from scoring.services.hand_facts import HandInput

    game = make_game()
    assert post_hand(organiser_api, game, 1, key="k1").status_code == 201
    game = Game.objects.select_related("season__rulebook").get(pk=game.pk)
    changes = ResultChange.objects.count()
    data = HandInput(makers="B", tricks_won=3)
    planned = hands._plan_on_read(game, data, 2)
    with pytest.raises(IntegrityError), hands._one_write():
        hands._write(game, data, "k1", "api", None, planned)
    game.refresh_from_db()
    assert (game.hands_played, game.last_hand_number, game.score_a) == (1, 1, 1)
    assert ResultChange.objects.count() == changes
    assert Hand.objects.filter(game=game).count() == 1
    assert post_hand(organiser_api, game, 2, key="k2").status_code == 201


def test_hand_fact_serializers_share_no_state():
    """The hand's facts are validated by fields copied shallowly from the declared ones
    (``HandFactsSerializer.get_fields``): one serializer's errors or binding never show in
    another's, and the declared fields stay unbound."""
    from scoring.api.serializers import HandFactsSerializer, HandInputSerializer

    bad = HandInputSerializer(data={"makers": "C", "tricks_won": 9, "number": 0})
    assert not bad.is_valid()
    assert set(bad.errors) == {"makers", "tricks_won", "number"}
    good = HandInputSerializer(data={"makers": "B", "tricks_won": 5, "number": 2})
    assert good.is_valid(), good.errors
    assert (good.validated_data["makers"], good.validated_data["number"]) == ("B", 2)
    assert good.fields["makers"] is not bad.fields["makers"]
    assert good.fields["makers"].parent is good
    for field in HandInputSerializer._declared_fields.values():
        assert getattr(field, "parent", None) is None
    assert HandFactsSerializer(data={"tricks_won": 6}).is_valid() is False
