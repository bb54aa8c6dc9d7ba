"""The API's ``X-Captain-Token`` door: wrong tokens share the ``/t/`` links' guess limits (per
address and per token start), which refuse wrong tokens only, never a valid one; and a captain
must say which hand it is entering (``number``), so a retry cannot record a hand twice."""

import pytest

from scoring.games.models import Hand

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
    wait = int(over["Retry-After"])
    assert 1 <= wait <= 60
    assert over.json() == {
        "message": (
            "too many wrong captain tokens from this address or like this one. "
            f"Expected available in {wait} second{'s' if wait > 1 else ''}."
        ),
        "code": "throttled",
        "errors": {},
    }
    assert not Hand.objects.exists()
    # Over the limit, only wrong tokens wait: the right one, from the same address (the bar's
    # Wi-Fi), scores, on the API and on the page ...
    right = hand(
        api,
        game,
        token=game.captain_token,
        address=address,
        key="k1",
        number=1,
        makers="A",
        tricks_won=3,
    )
    assert right.status_code == 201, right.json()
    assert client.get(f"/t/{game.captain_token}/", REMOTE_ADDR=address).status_code == 200
    # ... and so does another address.
    elsewhere = hand(
        api,
        game,
        token=game.captain_token,
        address=other_address,
        key="k2",
        number=2,
        makers="A",
        tricks_won=3,
    )
    assert elsewhere.status_code == 201, elsewhere.json()
    assert list(Hand.objects.values_list("source", flat=True)) == ["captain", "captain"]


def test_a_valid_token_is_never_counted_nor_refused(api, make_game, settings, one_minute):
    """Valid tokens leave the count alone (so nobody learns from it that a right token was sent
    from their address), and a wrong one is refused only once wrong ones are over the limit."""
    settings.CAPTAIN_TOKEN_GUESSES_PER_MINUTE = "3/m"
    game = make_game()
    statuses = []
    for number in range(1, 7):
        for guess in ("wrong-a", "wrong-b"):
            statuses.append(
                hand(api, game, token=f"{guess}{number}", address=one_minute).status_code
            )
        right = hand(
            api,
            game,
            token=game.captain_token,
            address=one_minute,
            key=f"k{number}",
            number=number,
            makers="B",
            tricks_won=3,
        )
        statuses.append(right.status_code)
    assert statuses == [404, 404, 201, 404, 429, 201, 429, 429, 201] + [429, 429, 201] * 3


def test_wrong_tokens_alike_are_limited_from_any_address(
    api, client, make_game, settings, one_minute
):
    """Someone who saw the start of a table's link and tries endings from many addresses: wrong
    tokens that begin alike share a limit, whatever address sends them; the table's own token,
    and wrong tokens unlike them, are not refused."""
    settings.CAPTAIN_TOKEN_GUESSES_PER_MINUTE = "3/m"
    game = make_game()
    start = game.captain_token[:12]
    answers = [
        hand(api, game, token=f"{start}guess{n}", address=f"198.51.100.{n}").status_code
        for n in range(5)
    ]
    assert answers == [404, 404, 404, 429, 429]
    assert client.get(f"/t/{start}guess9/", REMOTE_ADDR="198.51.100.9").status_code == 429
    assert client.get("/t/another-guess/", REMOTE_ADDR="198.51.100.9").status_code == 404
    right = hand(
        api,
        game,
        token=game.captain_token,
        address="198.51.100.9",
        key="k1",
        number=1,
        makers="A",
        tricks_won=3,
    )
    assert right.status_code == 201, right.json()


def test_a_refusal_says_nothing_about_which_limit_or_token(api, make_game, settings, one_minute):
    """The 429 of a wrong token is the same answer whichever limit (the address's or the token's
    start) refused it."""
    settings.CAPTAIN_TOKEN_GUESSES_PER_MINUTE = "1/m"
    game = make_game()
    assert hand(api, game, token="aaaaaaaaaaaa-1", address="203.0.113.1").status_code == 404
    by_start = hand(api, game, token="aaaaaaaaaaaa-2", address="203.0.113.2")
    assert hand(api, game, token="bbbbbbbbbbbb-1", address="203.0.113.3").status_code == 404
    by_address = hand(api, game, token="cccccccccccc-1", address="203.0.113.3")
    assert by_start.status_code == by_address.status_code == 429
    for response in (by_start, by_address):
        wait = int(response["Retry-After"])
        assert response.json()["message"].startswith(
            "too many wrong captain tokens from this address or like this one."
        ), wait


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
