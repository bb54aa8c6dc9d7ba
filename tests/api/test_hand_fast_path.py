"""The hand POST's plain case is served without DRF's dispatch (``scoring.api.fast_hands``),
above the page middlewares (``config.hands``), and answers exactly as the DRF view does: the
same bodies, posted to two games alike, one the plain way and one through DRF (a query string
sends it there), get the same status, body and headers and write the same rows; whatever is not
plainly valid reaches the DRF view."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.api.views import GameViewSet
from scoring.models import Game, Hand

pytestmark = pytest.mark.django_db

ODD = st.sampled_from(["3", 3.0, 2**40, -1, [], {}, "true", 1, 0, "", "C", None, True, False])
VALUES = {
    "makers": st.sampled_from(["A", "B", "", None]) | ODD,
    "caller": st.none() | ODD,
    "tricks_won": st.integers(0, 5) | st.none() | ODD,
    "renege": st.sampled_from([None, None, None, "", "A", "B"]) | ODD,
    "ordered_up": st.sampled_from([None, True, False]) | ODD,
    "number": st.integers(1, 4) | st.none() | ODD,
    **{flag: st.booleans() | ODD for flag in ("caller_alone", "defender_alone")},
    **{flag: st.just(False) | st.booleans() | ODD for flag in ("thrown_in", "misdeal")},
}
# A third of the bodies are hands the rules take, so that the plain way records and replays hands
# and its answers are compared with DRF's (of the others almost none is a hand the rules take).
GOOD = st.fixed_dictionaries(
    {"makers": st.sampled_from(["A", "B"]), "tricks_won": st.integers(0, 5)},
    optional={
        "number": st.integers(1, 4),
        "caller_alone": st.booleans(),
        "renege": st.sampled_from([None, ""]),
        "ordered_up": st.sampled_from([None, True, False]),
    },
)
BODY = (
    GOOD
    | st.fixed_dictionaries({}, optional={**VALUES, "extra": st.just(1)})
    | st.sampled_from([[], "hand", 3, None])
)
KEY = st.sampled_from([None, "k1", "k2"])


@pytest.fixture
def drf_calls(monkeypatch):
    """The game ids of the requests that reached the DRF view (its ``initial``: before DRF
    authenticates, so a refused request counts too)."""
    calls = []
    original = GameViewSet.initial

    def counted(self, request, *args, **kwargs):
        calls.append(kwargs.get("pk"))
        return original(self, request, *args, **kwargs)

    monkeypatch.setattr(GameViewSet, "initial", counted)
    return calls


def post(client, game, body, key, *, via_drf: bool):
    headers = {"HTTP_IDEMPOTENCY_KEY": f"{game.pk}-{key}"} if key else {}
    address = f"/api/v1/games/{game.pk}/hands/" + ("?via=drf" if via_drf else "")
    return client.post(address, json.dumps(body), content_type="application/json", **headers)


def same_answer(fast, slow, fast_game, slow_game) -> None:
    assert fast.status_code == slow.status_code, (fast.content, slow.content)
    # Every header, the security headers of every answer included; the length, which the ids
    # can change, is each body's own.
    assert without_length(fast) == without_length(slow)
    for answer in (fast, slow):
        assert answer["Content-Length"] == str(len(answer.content))
    assert normalised(fast.content, fast_game) == normalised(slow.content, slow_game)


def without_length(response) -> dict:
    return {name: value for name, value in response.headers.items() if name != "Content-Length"}


def normalised(content: bytes, game: Game):
    """The answer with what differs between two games alike (ids, times) taken out."""
    text = content.decode().replace(f'"game":{game.pk},', '"game":"G",')
    data = json.loads(text.replace(f"/games/{game.pk}/", "/games/G/"))
    if isinstance(data, dict):
        for part in (data, data.get("game") or {}):
            if isinstance(part, dict):
                for name in ("id", "created_at", "finished_at", "changed_at", "replaced_by"):
                    part.pop(name, None)
    return data


def rows(game: Game) -> list[tuple]:
    return list(
        Hand.objects.filter(game=game)
        .order_by("number", "pk")
        .values_list(
            "number", "status", "makers", "caller_id", "caller_alone", "defender_alone",
            "tricks_won", "renege", "thrown_in", "misdeal", "ordered_up", "dealer_seat",
            "outcome", "points_a", "points_b", "source", "entered_by_id",
        )
    )  # fmt: skip


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(posts=st.lists(st.tuples(BODY, KEY), min_size=1, max_size=4))
def test_the_plain_way_and_drf_answer_the_same_and_write_the_same(
    organiser_api, make_game, drf_calls, posts
):
    fast_game = make_game()
    slow_game = make_game(
        season=fast_game.season,
        seat_0=fast_game.seat_0,
        seat_1=fast_game.seat_1,
        seat_2=fast_game.seat_2,
        seat_3=fast_game.seat_3,
    )
    for body, key in posts:
        before = len(drf_calls)
        fast = post(organiser_api, fast_game, body, key, via_drf=False)
        reached_drf = len(drf_calls) > before
        slow = post(organiser_api, slow_game, body, key, via_drf=True)
        assert len(drf_calls) == before + 1 + reached_drf  # the query string always goes there
        same_answer(fast, slow, fast_game, slow_game)
        if not reached_drf:  # served the plain way: only a hand recorded or replayed
            assert fast.status_code in (200, 201)
        fast_game.refresh_from_db()
        slow_game.refresh_from_db()
    assert rows(fast_game) == rows(slow_game)
    for name in ("status", "score_a", "score_b", "hands_played", "next_dealer_seat", "winner"):
        assert getattr(fast_game, name) == getattr(slow_game, name)


def test_a_plain_hand_post_does_not_reach_drf_and_a_retry_is_answered_the_same(
    organiser_api, make_game, drf_calls
):
    game = make_game()
    body = {"makers": "A", "tricks_won": 3, "number": 1}
    first = post(organiser_api, game, body, "again", via_drf=False)
    retry = post(organiser_api, game, body, "again", via_drf=False)
    assert (first.status_code, retry.status_code, drf_calls) == (201, 200, [])
    assert retry.json()["id"] == first.json()["id"] and Hand.objects.filter(game=game).count() == 1
    assert first["Content-Type"] == "application/json" and "Accept" in first["Vary"]
    # answered above the page middlewares, beneath those whose headers every answer carries
    assert {
        "Content-Security-Policy", "X-Frame-Options", "X-Content-Type-Options",
        "Referrer-Policy", "Cross-Origin-Opener-Policy", "Content-Length",
    } <= set(first.headers)  # fmt: skip
    assert "Set-Cookie" not in first.headers and not first.cookies
    taken = post(organiser_api, game, {**body, "makers": "B"}, None, via_drf=False)
    assert taken.status_code == 409 and drf_calls == [str(game.pk)]  # DRF says why
    assert taken.json()["game"]["score_a"] == 1


@pytest.mark.parametrize(
    "change",
    [
        {"HTTP_X_CAPTAIN_TOKEN": "x"},
        {"HTTP_ACCEPT": "text/html"},
        {"HTTP_ACCEPT": ""},
        {"HTTP_AUTHORIZATION": "Bearer abc"},
        {"HTTP_AUTHORIZATION": "token {key}"},
        {"content_type": "application/x-www-form-urlencoded"},
        {"content_type": "application/json; charset=latin-1"},
    ],
)
def test_what_is_not_the_plain_case_goes_to_drf(organiser, make_game, drf_calls, change):
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    game = make_game()
    key = Token.objects.get_or_create(user=organiser)[0].key
    kwargs = {"content_type": "application/json", "HTTP_AUTHORIZATION": f"Token {key}"}
    kwargs |= {name: value.format(key=key) for name, value in change.items()}
    body = {"makers": "A", "tricks_won": 3, "number": 1}
    form = not kwargs["content_type"].startswith("application/json")
    content = "makers=A&tricks_won=3" if form else json.dumps(body)
    APIClient().post(f"/api/v1/games/{game.pk}/hands/", content, **kwargs)
    assert drf_calls == [str(game.pk)]


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16", "utf-32"])
def test_a_body_not_in_plain_utf_8_gets_drf_s_400(organiser_api, make_game, drf_calls, encoding):
    game = make_game()
    content = json.dumps({"makers": "A", "tricks_won": 3, "number": 1}).encode(encoding)
    response = organiser_api.post(
        f"/api/v1/games/{game.pk}/hands/", content, content_type="application/json"
    )
    assert response.status_code == 400 and drf_calls == [str(game.pk)]
    assert not Hand.objects.filter(game=game).exists()


def test_a_body_too_large_is_answered_by_drf(organiser_api, make_game, drf_calls, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 40
    game = make_game()
    body = {"makers": "A", "tricks_won": 3, "number": 1, "caller": None, "renege": None}
    response = post(organiser_api, game, body, None, via_drf=False)
    assert response.status_code == 413 and drf_calls == [str(game.pk)]
    assert not Hand.objects.filter(game=game).exists()


def test_a_signed_in_session_goes_to_drf(organiser, make_game, drf_calls, client):
    client.force_login(organiser)
    game = make_game()
    response = client.post(
        f"/api/v1/games/{game.pk}/hands/",
        json.dumps({"makers": "A", "tricks_won": 3}),
        content_type="application/json",
    )
    assert response.status_code == 201  # (the test client waives DRF's CSRF check)
    assert drf_calls == [str(game.pk)]


def test_a_plain_hand_post_over_http_is_sent_to_https_and_writes_nothing(
    organiser_api, make_game, drf_calls, settings
):
    settings.SECURE_SSL_REDIRECT = True
    game = make_game()
    response = post(organiser_api, game, {"makers": "A", "tricks_won": 3}, None, via_drf=False)
    assert response.status_code == 301 and response["Location"].startswith("https://")
    assert not Hand.objects.filter(game=game).exists() and drf_calls == []
