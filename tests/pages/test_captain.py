"""The table captain's page at /t/<token>/, through Django's test client: plain form posts (no
JavaScript) work end to end with redirect-after-post, the script's partial answers, idempotency
and conflicts, undo, corrections, confirmation, and the door (friendly 404, rate limit, noindex).
"""

import re
from html import escape
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.db import connection
from django.test.utils import CaptureQueriesContext

from core.errors import DomainError
from scoring.games import services
from scoring.games.domain.hand_input import hand_input_parse
from scoring.games.models import Game, Hand

pytestmark = pytest.mark.django_db

PAGE_BUDGET_BYTES = 60 * 1024


def card_url(game):
    return f"/t/{game.captain_token}/"


def form_fields(html: str) -> dict:
    """The hidden key and number the page rendered into its hand form."""
    key = re.search(r'name="key" value="([^"]+)"', html)
    number = re.search(r'name="number" value="(\d+)"', html)
    return {"key": key.group(1) if key else None, "number": number.group(1) if number else None}


def seat_player(game, seat):
    return game.seat_player_ids[seat]


def post_hand(client, game, *, caller_seat=None, htmx=False, fields=None, **facts):
    """Enter a hand as the page's form does: the hidden key and number come from the page."""
    if fields is None:
        fields = form_fields(client.get(card_url(game)).content.decode())
    data = {**fields, **facts}
    if caller_seat is not None:
        data["caller"] = seat_player(game, caller_seat)
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(f"{card_url(game)}hands/", data, **headers)


def text(response) -> str:
    return response.content.decode()


def test_the_card_shows_score_hand_dealer_and_the_rulebook_length(client, make_game):
    game = make_game("standard", first_dealer_seat=1)
    response = client.get(card_url(game))
    assert response.status_code == 200
    html = text(response)
    assert "Hand 1 · <strong>Seat1 player" in html  # seat 1 deals the first hand
    assert "Game to 10" in html
    assert html.count('name="caller"') == 4
    for player in game.seats:
        assert player.name in html
    assert 'name="defender_alone"' not in html  # the standard rulebook has no lone defenders
    assert 'value="thrown_in"' in html  # stick the dealer is off


def test_rulebook_options_decide_the_controls(client, make_game):
    csl = text(client.get(card_url(make_game("csl"))))
    assert 'name="defender_alone"' in csl and "v a loner" in csl
    assert 'value="thrown_in"' not in csl  # stick the dealer: no thrown-in hands
    family = text(client.get(card_url(make_game("family"))))
    assert 'name="defender_alone"' in family and "v a loner" not in family
    progressive = text(client.get(card_url(make_game("progressive"))))
    assert "8 hands a game, 8 to play" in progressive


def test_captain_pages_are_noindex_and_never_cached(client, make_game):
    game = make_game()
    response = client.get(card_url(game))
    assert response["X-Robots-Tag"] == "noindex, nofollow"
    assert '<meta name="robots" content="noindex, nofollow">' in text(response)
    assert "no-store" in response["Cache-Control"]
    assert "private" in response["Cache-Control"]


def test_a_plain_form_post_records_a_hand_and_redirects_back_with_its_worth(client, make_game):
    game = make_game()
    response = post_hand(client, game, caller_seat=2, tricks_won="5")
    assert response.status_code == 303
    assert response["Location"] == card_url(game)
    page = text(client.get(response["Location"]))
    assert "Hand 1: March! A +2" in page
    assert "Hand 2 · <strong>Seat1 player" in page  # the deal passed clockwise
    hand = Hand.objects.get(game=game)
    assert (hand.makers, hand.caller_id, hand.tricks_won, hand.source) == (
        "A",
        seat_player(game, 2),
        5,
        Hand.Source.CAPTAIN,
    )
    game.refresh_from_db()
    assert (game.score_a, game.score_b, game.hands_played) == (2, 0, 1)
    # The message is shown once; a reload shows the card without it.
    assert "Hand 1: March! A +2" not in text(client.get(card_url(game)))


def test_the_caller_decides_the_makers_and_loners_score_by_the_rulebook(client, make_game):
    game = make_game("csl")
    post_hand(client, game, caller_seat=1, caller_alone="on", tricks_won="2")
    game.refresh_from_db()
    hand = Hand.objects.get(game=game)
    assert (hand.makers, hand.caller_alone, hand.outcome) == ("B", True, "lone_caller_euchred")
    assert (game.score_a, game.score_b) == (4, 0)
    assert "Euchred a loner: A +4" in text(client.get(card_url(game)))


def test_a_double_tap_or_retry_with_the_same_key_records_once(client, make_game):
    game = make_game()
    fields = form_fields(text(client.get(card_url(game))))
    first = post_hand(client, game, fields=fields, caller_seat=0, tricks_won="3")
    again = post_hand(client, game, fields=fields, caller_seat=0, tricks_won="3")
    assert (first.status_code, again.status_code) == (303, 303)
    assert Hand.objects.filter(game=game).count() == 1
    page = text(client.get(card_url(game)))
    assert "Hand 1: Made it: A +1 (it was already recorded)" in page
    game.refresh_from_db()
    assert game.score_a == 1


def test_the_script_gets_the_score_card_partial(client, make_game):
    game = make_game()
    response = post_hand(client, game, htmx=True, caller_seat=1, tricks_won="4")
    assert response.status_code == 200
    html = text(response)
    assert html.lstrip().startswith('<section id="card"')
    assert "<html" not in html
    assert "Hand 1: Made it: B +1" in html
    assert re.search(r"side-b\">.*?<b>1<", html, re.S)
    assert 'name="number" value="2"' in html
    assert "HX-Request" in response["Vary"]
    assert response["X-Robots-Tag"] == "noindex, nofollow"


def test_a_hand_posted_by_the_script_costs_the_same_statements_on_hand_3_and_hand_15(
    client, make_game
):
    """The card answered after each hand reads the game's hands once, with the columns it shows:
    a column it needs but did not read would cost a statement a hand, and hand 15 more than
    hand 3."""
    game = make_game()
    fields = form_fields(text(client.get(card_url(game))))
    counts = {}
    for number in range(1, 16):
        with CaptureQueriesContext(connection) as queries:
            response = post_hand(
                client, game, htmx=True, fields=fields, caller_seat=number % 2, tricks_won="3"
            )
        assert response.status_code == 200, text(response)
        assert f"Hand {number}: Made it" in text(response)
        fields = form_fields(text(response))
        counts[number] = len(queries.captured_queries)
    assert counts[3] == counts[15], queries.captured_queries
    assert text(response).count('href="/t/') >= 15  # a link to correct each hand


def test_two_captains_entering_the_same_hand_the_second_is_told(client, make_game):
    game = make_game()
    first_phone = form_fields(text(client.get(card_url(game))))
    second_phone = form_fields(text(client.get(card_url(game))))
    assert first_phone["key"] != second_phone["key"]
    assert first_phone["number"] == second_phone["number"] == "1"
    post_hand(client, game, fields=first_phone, caller_seat=0, tricks_won="5")
    response = post_hand(client, game, fields=second_phone, caller_seat=1, tricks_won="3")
    assert response.status_code == 409
    html = text(response)
    assert "Hand 1 was already entered; the score is A 2 – B 0 and hand 2 is next" in html
    assert '<b>2<span class="sr"> points' in html  # the current score, on the same page
    assert Hand.objects.filter(game=game).count() == 1

    partial = post_hand(client, game, fields=second_phone, htmx=True, caller_seat=1, tricks_won=3)
    assert partial.status_code == 409
    assert "Hand 1 was already entered" in text(partial)
    assert Hand.objects.filter(game=game).count() == 1


def test_a_hand_without_a_caller_is_refused_and_nothing_is_written(client, make_game):
    game = make_game()
    response = post_hand(client, game, tricks_won="3")
    assert response.status_code == 400
    assert "Tap the player who called trump." in text(response)
    assert not Hand.objects.filter(game=game).exists()


@pytest.mark.parametrize(
    ("taps", "said"),
    [
        ({"tricks_won": "7"}, "tricks_won: Ensure this value is less than or equal to 5."),
        ({"tricks_won": "3", "renege": "C"}, 'renege: "C" is not a valid choice.'),
        ({"tricks_won": "3", "caller_alone": "maybe"}, "caller_alone: Must be a valid boolean."),
    ],
)
def test_a_tap_no_card_can_send_is_refused_by_the_parser_of_every_entrance(
    client, make_game, taps, said
):
    """The card's taps become a hand's facts, checked by the same parser as the API's: what a
    forged or broken form sends is refused with the parser's words and writes nothing."""
    game = make_game()
    response = post_hand(client, game, caller_seat=0, **taps)
    assert response.status_code == 400
    assert escape(f"The hand could not be read ({said}); reload the page.") in text(response)
    assert not Hand.objects.filter(game=game).exists()
    with pytest.raises(DomainError, match=re.escape(said)):
        hand_input_parse({"makers": "A", **taps})


def test_a_rule_the_rulebook_forbids_is_explained_and_the_taps_are_kept(client, make_game):
    game = make_game("standard")
    response = post_hand(client, game, caller_seat=3, defender_alone="on", tricks_won="1")
    assert response.status_code == 400
    html = text(response)
    assert "This rulebook does not allow a defender to go alone" in html
    assert f'value="{seat_player(game, 3)}" required checked' in html
    assert 'value="1" checked' in html
    assert not Hand.objects.filter(game=game).exists()


def test_thrown_in_misdeal_and_renege(client, make_game):
    game = make_game("standard")
    post_hand(client, game, special="misdeal", caller_seat=0, tricks_won="5")  # taps ignored
    page = text(client.get(card_url(game)))
    assert "Hand 1: Misdeal: redeal, no score" in page
    assert "Hand 2 · <strong>Seat0 player" in page  # the same dealer deals again
    post_hand(client, game, special="thrown_in")
    assert "Hand 2: Thrown in: no score, the deal passes" in text(client.get(card_url(game)))
    post_hand(client, game, caller_seat=1, renege="A", tricks_won="3")
    assert "Hand 3: Renege: B +2" in text(client.get(card_url(game)))
    game.refresh_from_db()
    assert (game.score_a, game.score_b, game.hands_played) == (0, 2, 1)


def test_thrown_in_is_refused_under_stick_the_dealer(client, make_game):
    game = make_game("csl")
    response = post_hand(client, game, special="thrown_in")
    assert response.status_code == 400
    assert "not allowed when stick the dealer is on" in text(response)
    assert not Hand.objects.filter(game=game).exists()


def test_undo_the_last_hand(client, make_game):
    game = make_game()
    post_hand(client, game, caller_seat=0, tricks_won="3")
    post_hand(client, game, caller_seat=1, tricks_won="5")
    assert "Undo hand 2" in text(client.get(card_url(game)))

    response = client.post(f"{card_url(game)}hands/undo/", {"number": 2})
    assert response.status_code == 303
    page = text(client.get(card_url(game)))
    assert "Hand 2 undone" in page
    assert 'name="number" value="2"' in page
    game.refresh_from_db()
    assert (game.score_a, game.score_b) == (1, 0)
    assert Hand.objects.get(game=game, number=2).status == Hand.Status.VOIDED

    again = client.post(f"{card_url(game)}hands/undo/", {"number": 2})  # a retried undo
    assert again.status_code == 409
    assert "Hand 2 is not the last hand" in text(again)
    assert Hand.objects.filter(game=game, status="active").count() == 1


def test_correct_an_earlier_hand_with_a_reason(client, make_game):
    game = make_game()
    post_hand(client, game, caller_seat=0, tricks_won="3")
    post_hand(client, game, caller_seat=1, tricks_won="3")
    url = f"{card_url(game)}hands/1/correct/"
    form = client.get(url)
    assert form.status_code == 200
    html = text(form)
    assert "Recorded as: <strong>Hand 1: Made it: A +1" in html
    assert f'value="{seat_player(game, 0)}" checked' in html
    assert form["X-Robots-Tag"] == "noindex, nofollow"

    missing_reason = client.post(url, {"caller": seat_player(game, 0), "tricks_won": "5"})
    assert missing_reason.status_code == 400
    assert "Say why the hand is corrected." in text(missing_reason)
    assert Hand.objects.filter(game=game).count() == 2

    response = client.post(
        url, {"caller": seat_player(game, 0), "tricks_won": "5", "reason": "it was a march"}
    )
    assert response.status_code == 303
    assert "Hand 1 corrected: March! A +2" in text(client.get(card_url(game)))
    old = Hand.objects.get(game=game, number=1, status=Hand.Status.SUPERSEDED)
    assert old.change_reason == "it was a march"
    game.refresh_from_db()
    assert (game.score_a, game.score_b) == (2, 1)

    assert client.get(f"{card_url(game)}hands/9/correct/").status_code == 404


def play_to_the_end(client, game, hands):
    for caller_seat, facts in hands:
        response = post_hand(client, game, caller_seat=caller_seat, **facts)
        assert response.status_code == 303, text(response)
    game.refresh_from_db()
    return game


@pytest.mark.parametrize("slug", ["standard", "progressive"])
def test_play_to_the_end_then_confirm(client, make_game, slug):
    game = make_game(slug)
    march = {"tricks_won": "5"}
    for _ in range(8):
        post_hand(client, game, caller_seat=0, **march)
        game.refresh_from_db()
        if game.status == "finished":
            break
    assert game.status == "finished" and game.winner == "A"
    expected = {"standard": (10, 5), "progressive": (16, 8)}[slug]
    assert (game.score_a, game.hands_played) == expected
    page = text(client.get(card_url(game)))
    assert f"{escape(game.side_name('A'))} won the game, {game.score_a}–0" in page
    assert 'class="hand"' not in page  # no more hands to enter
    assert "data-next-game" not in page  # a game at no night's table has no table card to follow
    assert f"Confirm {game.score_a}–0" in page

    late = post_hand(
        client,
        game,
        fields={"key": "late", "number": str(game.hands_played + 1)},
        caller_seat=1,
        tricks_won="3",
    )
    assert late.status_code == 409 and "The game is over" in text(late)

    response = client.post(f"{card_url(game)}confirm/")
    assert response.status_code == 303
    page = text(client.get(card_url(game)))
    assert "Final score confirmed" in page and "This score is confirmed." in page
    assert "Undo hand" not in page and "Correct<" not in page
    game.refresh_from_db()
    assert game.confirmation == Game.Confirmation.CONFIRMED


def test_the_other_side_disputes_with_a_short_reason(client, make_game):
    game = make_game()
    for _ in range(3):
        post_hand(client, game, caller_seat=1, caller_alone="on", tricks_won="5")
    game.refresh_from_db()
    assert game.status == "finished"

    empty = client.post(f"{card_url(game)}dispute/", {"reason": "   "})
    assert empty.status_code == 400
    assert "Say briefly what is wrong" in text(empty)

    response = client.post(
        f"{card_url(game)}dispute/", {"reason": "hand 2 was a euchre"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert "Disputed: “hand 2 was a euchre”" in text(response)
    game.refresh_from_db()
    assert (game.confirmation, game.dispute_reason) == ("disputed", "hand 2 was a euchre")


def test_a_disputed_score_is_left_for_an_organiser_to_settle(client, make_game):
    game = make_game()
    for _ in range(3):
        post_hand(client, game, caller_seat=1, caller_alone="on", tricks_won="5")
    client.post(f"{card_url(game)}dispute/", {"reason": "hand 2 was a euchre"})

    card = text(client.get(card_url(game)))
    assert "Disputed: “hand 2 was a euchre”. An organiser will settle it." in card
    assert f"{card_url(game)}confirm/" not in card  # no Confirm button to tap
    assert "Dispute the score" not in card

    # The same link is on both sides' phones: a tap on an old page, or a replayed request.
    response = client.post(f"{card_url(game)}confirm/", HTTP_HX_REQUEST="true")
    assert response.status_code == 409
    assert "This score is disputed: an organiser will settle it" in text(response)
    game.refresh_from_db()
    assert (game.confirmation, game.dispute_reason) == ("disputed", "hand 2 was a euchre")


def test_a_confirm_before_the_end_is_refused(client, make_game):
    game = make_game()
    response = client.post(f"{card_url(game)}confirm/")
    assert response.status_code == 409
    assert "Only a finished game" in text(response)


def test_a_wrong_or_revoked_token_gets_the_friendly_page(client, make_game):
    game = make_game()
    wrong = client.get("/t/not-a-real-token/")
    assert wrong.status_code == 404
    assert "This score-card link doesn't work" in text(wrong)
    assert wrong["X-Robots-Tag"] == "noindex, nofollow"
    assert '<meta name="robots" content="noindex, nofollow">' in text(wrong)

    old_token = game.captain_token
    services.game_reissue_captain_token(game=game)
    revoked = client.get(f"/t/{old_token}/")
    assert revoked.status_code == 404
    assert "replaced" in text(revoked)
    post = client.post(f"/t/{old_token}/hands/", {"key": "k", "number": 1})
    assert post.status_code == 404
    assert not Hand.objects.exists()


def test_wrong_guesses_are_rate_limited_per_address(client, make_game, settings, one_minute):
    settings.CAPTAIN_TOKEN_GUESSES_PER_MINUTE = "3/m"
    address = one_minute
    other_address = "10.255.255.255" if address != "10.255.255.255" else "10.255.255.254"
    game = make_game()
    for _ in range(5):  # right tokens are not counted
        assert client.get(card_url(game), REMOTE_ADDR=address).status_code == 200
    for guess in range(3):
        assert client.get(f"/t/guess-{guess}/", REMOTE_ADDR=address).status_code == 404
    over = client.get("/t/guess-3/", REMOTE_ADDR=address)
    assert over.status_code == 429
    assert "Too many wrong links" in text(over)
    assert over["X-Robots-Tag"] == "noindex, nofollow"
    wait = int(over["Retry-After"])
    assert 1 <= wait <= 60
    assert f"Wait {wait} second" in text(over)
    assert client.post("/t/guess-4/hands/", {"key": "k"}, REMOTE_ADDR=address).status_code == 429
    # Over the limit, only wrong links wait: the table's own link still opens and scores from
    # the same address (one bar's Wi-Fi), as from any other.
    assert client.get(card_url(game), REMOTE_ADDR=address).status_code == 200
    assert client.get(card_url(game), REMOTE_ADDR=other_address).status_code == 200
    posted = client.post(
        f"{card_url(game)}hands/",
        {"key": "k1", "number": 1, "caller": game.seat_0_id, "tricks_won": 3},
        REMOTE_ADDR=address,
    )
    assert posted.status_code == 303
    assert game.hands.count() == 1


def test_the_qr_code_is_an_svg_made_here(client, make_game):
    game = make_game()
    response = client.get(f"{card_url(game)}qr.svg")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"
    assert response["X-Robots-Tag"] == "noindex, nofollow"
    assert b"<svg" in response.content and b"<path" in response.content
    assert client.get("/t/nope/qr.svg").status_code == 404


def test_writes_need_post(client, make_game):
    game = make_game()
    for path in ("hands/", "hands/undo/", "confirm/", "dispute/"):
        assert client.get(f"{card_url(game)}{path}").status_code == 405


def page_weight(client, html: str) -> dict[str, int]:
    weights = {"html": len(html.encode())}
    for asset in re.findall(r'(?:href|src)="/static/([^"]+\.(?:css|js))"', html):
        path = finders.find(asset)
        assert path, asset
        with open(path, "rb") as file:
            weights[asset] = len(file.read())
    return weights


def test_the_page_weighs_under_60_kb_and_asks_no_other_host(client, make_game):
    game = make_game("csl")
    for seat in (0, 1, 2, 3, 0, 1, 2):  # a page with a few hands on it
        post_hand(client, game, caller_seat=seat, tricks_won="3")
    html = text(client.get(card_url(game)))
    weights = page_weight(client, html)
    assert set(weights) == {"html", "css/app.css", "js/captain.js"}  # no round: no clock
    assert sum(weights.values()) < PAGE_BUDGET_BYTES, weights
    # The heavier card: a game of a night's round carries the round clock and its script.
    Game.objects.filter(pk=game.pk).update(round_number=1)
    html = text(client.get(card_url(game)))
    weights = page_weight(client, html)
    assert set(weights) == {"html", "css/app.css", "js/captain.js", "js/round-clock.js"}
    assert sum(weights.values()) < PAGE_BUDGET_BYTES, weights
    assert not re.search(r'(?:href|src|action)="(?:https?:)?//', html)


def test_the_ordered_up_toggle_appears_only_when_the_rulebook_needs_it(client, make_game, league):
    from league.services import rulebook_create
    from tests.factories import SeasonFactory

    plain = make_game("standard")
    assert 'name="ordered_up"' not in client.get(f"/t/{plain.captain_token}/").content.decode()
    rulebook = rulebook_create(
        league=league,
        name="Aussie",
        preset="standard",
        options={"dealer_partner_must_go_alone": True},
    )
    game = make_game(season=SeasonFactory(league=league, rulebook=rulebook))
    page = client.get(f"/t/{game.captain_token}/").content.decode()
    assert 'name="ordered_up"' in page
    response = client.post(
        f"/t/{game.captain_token}/hands/",
        {
            "caller": game.seat_2_id,
            "ordered_up": "on",
            "tricks_won": "3",
            "number": "1",
            "key": "k-ordered",
        },
    )
    assert "must go alone" in response.content.decode()
    assert not game.hands.exists()


def test_the_service_worker_is_served_for_every_score_card(client):
    response = client.get("/t/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript"
    assert response["Service-Worker-Allowed"] == "/t/"
    assert response["Cache-Control"] == "no-cache"
    assert response.content == Path(finders.find("js/captain-sw.js")).read_bytes()


def test_the_manifest_opens_the_game_and_needs_its_token(client, make_game):
    game = make_game("standard")
    response = client.get(f"{card_url(game)}manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    assert response.json()["start_url"] == card_url(game)
    assert response.json()["scope"] == card_url(game)
    page = client.get(card_url(game)).content.decode()
    assert f'<link rel="manifest" href="{card_url(game)}manifest.webmanifest">' in page
    assert 'data-service-worker="/t/sw.js"' in page
    assert client.get("/t/not-a-token/manifest.webmanifest").status_code == 404
