"""The captain's page in a real Chromium at a phone viewport: whole games under two presets, undo,
a double tap, a browser retry, going offline and back, a reload with a hand still waiting,
no JavaScript at all, a wrong token, and confirming or disputing the final score."""

import re

import pytest
from playwright.sync_api import expect

from scoring.games import services
from scoring.games.models import Game, Hand
from tests.browser.conftest import ScoreCard

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def counting_hands(game):
    return Hand.objects.filter(game=game, status=Hand.Status.ACTIVE).count()


def test_a_game_to_10_under_standard_rules_then_the_other_side_confirms(table_game, card, shot):
    game = table_game("standard")
    captain = card(game)
    page = captain.page
    expect(page.locator(".status")).to_have_text("Hand 1 · Alice deals · Game to 10")
    shot(page, "start")

    captain.caller("Alice")
    captain.alone()
    captain.tricks(5)
    shot(page, "hand-1-tapped")
    captain.record()
    expect(page.locator("[data-flash]")).to_have_text("Hand 1: Loner marched! A +4")
    expect(page.locator("#live")).to_contain_text("Hand 1: Loner marched! A +4. Score: A 4")
    expect(page.locator(".status")).to_have_text("Hand 2 · Bob deals · Game to 10")
    assert captain.score() == (4, 0)
    shot(page, "after-hand-1")
    shot(page, "after-hand-1-screen", full_page=False)  # what the phone shows without scrolling
    expect(page.locator("button.go")).to_be_in_viewport()

    captain.hand("Bob", 3, expect="Made it: B +1")
    captain.hand("Carol", 2, expect="Euchred: B +2")
    captain.hand("Dave", 5, expect="March! B +2")
    captain.hand("Alice", 5, alone=True, expect="Loner marched! A +4")
    assert captain.score() == (8, 5)
    shot(page, "hand-6-entry")
    captain.hand("Carol", 5, expect="March! A +2")

    expect(page.locator(".status")).to_contain_text("Alice & Carol won the game, 10–5")
    expect(page.locator("form.hand")).to_have_count(0)
    shot(page, "game-over")
    game.refresh_from_db()
    assert (game.status, game.winner, game.score_a, game.score_b) == ("finished", "A", 10, 5)
    assert counting_hands(game) == 6

    page.get_by_role("button", name="Confirm 10–5").click()
    expect(page.locator("[data-flash]")).to_have_text("Final score confirmed. Thank you!")
    expect(page.locator(".ok-note")).to_be_visible()
    shot(page, "confirmed")
    game.refresh_from_db()
    assert game.confirmation == Game.Confirmation.CONFIRMED


def test_a_progressive_game_of_8_hands_ends_drawn_and_is_disputed(table_game, card, shot):
    game = table_game("progressive")
    captain = card(game)
    page = captain.page
    expect(page.locator(".status")).to_have_text("Hand 1 · Alice deals · 8 hands a game, 8 to play")
    expect(page.get_by_role("button", name="All passed: thrown in")).to_have_count(0)
    captain.hand("Alice", 3, expect="Made it: A +1")
    captain.hand("Bob", 3, expect="Made it: B +1")
    captain.hand("Carol", 5, expect="March! A +2")
    captain.hand("Dave", 0, expect="Euchred: A +2")
    page.get_by_role("button", name="Misdeal: redeal").click()
    expect(page.locator("[data-flash]")).to_have_text("Hand 5: Misdeal: redeal, no score")
    expect(page.locator(".status")).to_have_text(
        "Hand 6 · Alice deals · 8 hands a game, 4 to play"  # Alice misdealt: she deals again
    )
    captain.hand("Alice", 4, expect="Made it: A +1")
    captain.hand("Bob", 5, expect="March! B +2")
    shot(page, "two-to-play")
    captain.hand("Carol", 1, expect="Euchred: B +2")
    captain.hand("Dave", 3, expect="Made it: B +1")

    expect(page.locator(".status")).to_contain_text("A draw, 6–6")
    game.refresh_from_db()
    assert (game.status, game.winner, game.hands_played, counting_hands(game)) == (
        "finished",
        "",
        8,
        9,
    )
    page.get_by_text("Something wrong?").click()
    page.get_by_label("What is wrong with the score?").fill("hand 7 was a euchre")
    shot(page, "dispute-typed")
    page.get_by_role("button", name="Dispute the score").click()
    expect(page.locator("[data-flash]")).to_contain_text("Dispute sent")
    expect(page.locator(".over")).to_contain_text("Disputed: “hand 7 was a euchre”")
    shot(page, "disputed")
    game.refresh_from_db()
    assert (game.confirmation, game.dispute_reason) == ("disputed", "hand 7 was a euchre")


def test_undo_the_last_hand(table_game, card, shot):
    game = table_game("standard")
    captain = card(game)
    captain.hand("Alice", 5, expect="March! A +2")
    captain.hand("Dave", 3, expect="Made it: B +1")
    assert captain.score() == (2, 1)
    captain.page.get_by_role("button", name="Undo hand 2").click()
    expect(captain.page.locator("[data-flash]")).to_have_text("Hand 2 undone")
    expect(captain.page.locator(".status")).to_have_text("Hand 2 · Bob deals · Game to 10")
    assert captain.score() == (2, 0)
    shot(captain.page, "undone")
    assert counting_hands(game) == 1
    assert Hand.objects.get(game=game, number=2).status == Hand.Status.VOIDED
    captain.hand("Bob", 4, expect="Made it: B +1")  # hand 2 again, with a new key
    assert counting_hands(game) == 2


def test_a_double_tap_on_record_enters_the_hand_once(table_game, card):
    game = table_game("standard")
    captain = card(game)
    captain.caller("Bob")
    captain.tricks(5)
    captain.page.locator("button.go").dblclick()
    expect(captain.page.locator("[data-flash]")).to_have_text("Hand 1: March! B +2")
    captain.page.wait_for_timeout(300)  # time for a second request, if one had been sent
    assert Hand.objects.filter(game=game).count() == 1
    assert captain.score() == (0, 2)


def test_a_retried_request_records_the_hand_once(table_game, card):
    """The network delivers the same post twice (a browser or proxy retry): one hand."""
    game = table_game("standard")
    captain = card(game)

    def deliver_twice(route):
        route.fetch()
        route.fulfill(response=route.fetch())

    captain.page.route(re.compile(r".*/hands/$"), deliver_twice)
    captain.hand("Carol", 3, expect="Made it: A +1 (it was already recorded)")
    assert Hand.objects.filter(game=game).count() == 1


def test_offline_hands_wait_on_the_phone_and_are_sent_once(table_game, card, phone, shot):
    game = table_game("standard")
    captain = card(game)
    page = captain.page
    captain.hand("Alice", 3, expect="Made it: A +1")

    phone.set_offline(True)
    captain.caller("Bob")
    captain.tricks(5)
    captain.record()
    pending = page.locator("#pending")
    expect(pending).to_contain_text("Waiting to send: 1 hand (hand 2)")
    expect(page.locator("button.go")).to_have_text("Record hand 3")
    expect(page.locator(".status")).to_have_text(
        "Hand 3 · Carol deals · Game to 10 · 1 hand not sent yet"
    )
    assert captain.score() == (1, 2)  # the hand waiting is counted, marked as not sent
    expect(page.locator("[data-flash]")).to_have_count(0)
    shot(page, "offline-waiting")
    captain.caller("Carol")
    captain.tricks(4)
    captain.record()
    expect(pending).to_contain_text("Waiting to send: 2 hands (hand 2, 3)")
    assert counting_hands(game) == 1

    phone.set_offline(False)
    expect(pending).to_be_hidden()
    expect(page.locator("[data-flash]")).to_have_text("Hand 3: Made it: A +1")
    shot(page, "back-online")
    assert captain.score() == (2, 2)
    hands = list(Hand.objects.filter(game=game).order_by("number"))
    assert [(hand.number, hand.outcome) for hand in hands] == [
        (1, "make"),
        (2, "march"),
        (3, "make"),
    ]
    assert len({hand.client_key for hand in hands}) == 3
    page.wait_for_timeout(300)  # a timer retry must not send them again
    assert Hand.objects.filter(game=game).count() == 3


def test_a_reload_keeps_the_hand_still_waiting_and_sends_it_with_its_key(table_game, card, shot):
    game = table_game("csl")
    captain = card(game)
    page = captain.page
    hands_url = re.compile(r".*/hands/$")
    page.route(hands_url, lambda route: route.abort("internetdisconnected"))
    captain.caller("Dave")
    captain.alone()
    captain.tricks(5)
    captain.record()
    expect(page.locator("#pending")).to_contain_text("Waiting to send: 1 hand")
    key = page.evaluate("JSON.parse(localStorage.getItem('captain-queue:' + location.pathname))")[
        0
    ]["key"]

    page.reload()
    expect(page.locator("#pending")).to_contain_text("Waiting to send: 1 hand (hand 1)")
    expect(page.locator("button.go")).to_have_text("Record hand 2")
    shot(page, "reloaded-waiting")
    assert not Hand.objects.filter(game=game).exists()

    page.unroute(hands_url)
    page.get_by_role("button", name="Send now").click()
    expect(page.locator("[data-flash]")).to_have_text("Hand 1: Loner marched! B +4")
    expect(page.locator("#pending")).to_be_hidden()
    hand = Hand.objects.get(game=game)
    assert (hand.client_key, hand.caller_alone) == (key, True)


def test_the_page_works_without_javascript(table_game, new_phone, live_server, shot):
    game = table_game("family")
    page = new_phone(java_script_enabled=False).new_page()
    page.goto(f"{live_server.url}/t/{game.captain_token}/")
    page.locator(".callers label", has_text="Bob").click()
    page.locator(".toggles label", has_text="Caller went alone").click()
    page.locator(".toggles label", has_text="Lone defender").click()
    page.locator(".tricks label", has_text="2").click()
    page.locator("button.go").click()
    expect(page.locator(".flash")).to_have_text("Hand 1: Euchred by a lone defender: A +4")
    assert page.url == f"{live_server.url}/t/{game.captain_token}/"
    shot(page, "recorded")
    page.get_by_role("button", name="Undo hand 1").click()
    expect(page.locator(".flash")).to_have_text("Hand 1 undone")
    assert counting_hands(game) == 0


def test_correct_an_earlier_hand(table_game, card, shot):
    game = table_game("standard")
    captain = card(game)
    captain.hand("Alice", 3, expect="Made it: A +1")
    captain.hand("Bob", 3, expect="Made it: B +1")
    captain.page.get_by_role("link", name="Correct hand 1").click()
    page = captain.page
    expect(page.get_by_role("heading", name="Correct hand 1")).to_be_visible()
    page.locator(".tricks label", has_text="5").click()
    page.get_by_label("Why is it corrected?").fill("it was a march")
    shot(page, "form")
    page.get_by_role("button", name="Save the correction").click()
    expect(page.locator(".flash")).to_have_text("Hand 1 corrected: March! A +2")
    assert captain.score() == (2, 1)
    shot(page, "corrected")


def test_a_hand_can_be_entered_with_the_keyboard_alone(table_game, card, shot):
    game = table_game("standard")
    captain = card(game)
    page = captain.page
    page.keyboard.press("Tab")  # the skip link
    page.keyboard.press("Tab")
    expect(page.get_by_role("radio", name="Alice A · dealer")).to_be_focused()
    page.keyboard.press("ArrowRight")  # arrows move through the group and choose
    expect(page.get_by_role("radio", name="Bob B")).to_be_checked()
    page.keyboard.press("Tab")
    page.keyboard.press("Space")
    expect(page.get_by_role("checkbox", name="Caller went alone")).to_be_checked()
    page.keyboard.press("Tab")
    page.keyboard.press("Space")
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    expect(page.get_by_role("radio", name="4", exact=True)).to_be_checked()
    shot(page, "keyboard-focus", full_page=False)
    page.keyboard.press("Tab")  # "Renege?" (closed: its choices are skipped)
    page.keyboard.press("Tab")
    expect(page.locator("button.go")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("[data-flash]")).to_have_text("Hand 1: Loner made: B +1")
    expect(page.get_by_role("radio", name="Alice A")).to_be_focused()  # ready for the next hand
    assert counting_hands(game) == 1


def test_a_link_replaced_while_the_page_is_open_says_so(table_game, card, shot):
    game = table_game("standard")
    captain = card(game)
    services.game_reissue_captain_token(game=game)
    captain.caller("Bob")
    captain.tricks(3)
    captain.record()
    expect(captain.page.locator(".flash.error")).to_contain_text(
        "Hand 1 was not recorded: this score-card link no longer works"
    )
    expect(captain.page.locator("#pending")).to_be_hidden()
    shot(captain.page, "link-replaced")
    assert not Hand.objects.filter(game=game).exists()


def test_two_captains_enter_the_same_hand_the_second_is_told(
    table_game, card, new_phone, live_server, shot
):
    game = table_game("standard")
    first = card(game)
    second = ScoreCard(new_phone().new_page(), live_server.url, game)
    second.open()
    first.hand("Alice", 5, expect="March! A +2")
    second.caller("Dave")
    second.tricks(3)
    second.record()
    expect(second.page.locator(".flash.error")).to_have_text(
        "Hand 1 was already entered; the score is A 2 – B 0 and hand 2 is next"
    )
    assert second.score() == (2, 0)
    expect(second.page.locator("button.go")).to_have_text("Record hand 2")
    shot(second.page, "second-captain")
    assert Hand.objects.filter(game=game).count() == 1


def test_a_wrong_token_gets_the_friendly_page(page, live_server, shot):
    response = page.goto(f"{live_server.url}/t/this-is-not-a-table/")
    assert response.status == 404
    assert response.headers["x-robots-tag"] == "noindex, nofollow"
    expect(page.get_by_role("heading", level=1)).to_have_text("This score-card link doesn't work")
    shot(page, "friendly-404")


def test_a_rate_limited_answer_keeps_the_hand_and_sends_it_later(table_game, card):
    """A bar's shared address can hit the wrong-link limit: the hand must wait, not vanish."""
    game = table_game("standard")
    captain = card(game)
    page = captain.page
    hands_url = re.compile(r".*/hands/$")
    page.route(
        hands_url,
        lambda route: route.fulfill(status=429, body="Too many attempts", content_type="text/html"),
    )
    captain.caller("Alice")
    captain.tricks(5)
    captain.record()
    expect(page.locator("#pending")).to_contain_text("Waiting to send: 1 hand (hand 1)")
    assert not Hand.objects.filter(game=game).exists()

    page.unroute(hands_url)
    page.get_by_role("button", name="Send now").click()
    expect(page.locator("[data-flash]")).to_have_text("Hand 1: March! A +2")
    expect(page.locator("#pending")).to_be_hidden()
    assert Hand.objects.filter(game=game).count() == 1
