"""The API's ``X-Captain-Token`` door: wrong tokens share the ``/t/`` links' guess limit, and a
captain must say which hand it is entering (``number``), so a retry cannot record a hand twice."""

import pytest

from scoring.models import Hand

pytestmark = pytest.mark.django_db


def hand(api, game, *, token, key=None, address="127.0.0.1", **facts):
    headers = {"HTTP_X_CAPTAIN_TOKEN": token, "REMOTE_ADDR": address}
    if key:
        headers["HTTP_IDEMPOTENCY_KEY"] = key
    return api.post(f"/api/v1/games/{game.pk}/hands/", facts, format="json", **headers)


def test_the_31st_wrong_header_in_a_minute_is_refused_with_429(api, client, make_game, one_minute):
    address, other_address = one_minute, "192.0.2.7"
    game = make_game()
    for guess in range(30):
        wrong = hand(api, game, token=f"guess-{guess}", address=address, makers="A", tricks_won=3)
        assert wrong.status_code == 404, (guess, wrong.json())
    over = hand(api, game, token="guess-30", address=address, makers="A", tricks_won=3)
    assert over.status_code == 429
    assert over.json() == {
        "message": (
            "too many wrong captain tokens from this address. Expected available in 60 seconds."
        ),
        "code": "throttled",
        "errors": {},
    }
    assert over["Retry-After"] == "60"
    # Over the limit, even the right token from that address waits, on the API and on the page
    # (one limit for both doors) ...
    right = hand(api, game, token=game.captain_token, address=address, makers="A", tricks_won=3)
    assert right.status_code == 429
    assert client.get(f"/t/{game.captain_token}/", REMOTE_ADDR=address).status_code == 429
    assert not Hand.objects.exists()
    # ... while another address scores with it.
    elsewhere = hand(
        api,
        game,
        token=game.captain_token,
        address=other_address,
        key="k1",
        number=1,
        makers="A",
        tricks_won=3,
    )
    assert elsewhere.status_code == 201, elsewhere.json()
    assert Hand.objects.get().source == "captain"


def test_wrong_links_and_wrong_headers_count_together(api, client, make_game, settings, one_minute):
    settings.CAPTAIN_TOKEN_GUESSES_PER_MINUTE = "4/m"
    game = make_game()
    for guess in range(2):
        assert client.get(f"/t/guess-{guess}/", REMOTE_ADDR=one_minute).status_code == 404
        wrong = hand(api, game, token=f"guess-{guess}", address=one_minute, makers="A")
        assert wrong.status_code == 404
    assert hand(api, game, token="guess-9", address=one_minute, makers="A").status_code == 429


def test_a_captain_token_must_send_the_hand_number(api, organiser_api, make_game):
    game = make_game()
    missing = hand(api, game, token=game.captain_token, key="k1", makers="B", tricks_won=4)
    assert missing.status_code == 400
    assert missing.json()["code"] == "number_required"
    assert missing.json()["errors"] == {"number": [missing.json()["message"]]}
    assert "send the hand's number with a captain token" in missing.json()["message"]
    assert not Hand.objects.exists()
    # An organiser's integration may leave it out: the hand is then simply the next one.
    by_organiser = organiser_api.post(
        f"/api/v1/games/{game.pk}/hands/", {"makers": "B", "tricks_won": 4}, format="json"
    )
    assert by_organiser.status_code == 201
    assert by_organiser.json()["number"] == 1


def test_a_retry_under_a_new_key_after_another_client_took_the_number_is_a_conflict(api, make_game):
    game = make_game()
    first = hand(
        api, game, token=game.captain_token, key="phone-1", number=1, makers="B", tricks_won=3
    )
    assert first.status_code == 201, first.json()
    # The other phone at the table, or the same phone after losing its key, sends hand 1 again.
    again = hand(
        api, game, token=game.captain_token, key="phone-2", number=1, makers="B", tricks_won=3
    )
    assert again.status_code == 409
    assert again.json()["code"] == "hand_exists"
    assert again.json()["message"].startswith("hand 1 was already entered; the score is A 0 – B 1")
    assert again.json()["game"]["hands_played"] == 1
    assert Hand.objects.count() == 1


def test_a_request_that_names_no_address_is_limited_not_a_server_error(
    api, make_game, one_minute, settings
):
    """A WSGI caller that sets no REMOTE_ADDR, or a proxy that left out the header the limit
    reads, shares one bucket instead of failing with a 500."""
    settings.RATELIMIT_IP_META_KEY = "HTTP_X_REAL_IP"
    game = make_game()
    answers = [
        api.post(
            f"/api/v1/games/{game.pk}/hands/",
            {"makers": "A", "tricks_won": 3},
            format="json",
            HTTP_X_CAPTAIN_TOKEN=f"guess-{guess}",
        ).status_code
        for guess in range(31)
    ]
    assert answers == [404] * 30 + [429]
    assert not Hand.objects.exists()
