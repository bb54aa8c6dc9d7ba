"""The captain's card offline, in a real Chromium at 360 x 640: the hands waiting on the phone move
the score, the dealer and the end of the game, marked "not sent yet"; once they are sent the card
is the server's, equal to what was projected. A hand the server refuses is dropped with its
reason; a hand the engine's table already refuses is never kept."""

import pytest
from playwright.sync_api import expect

from scoring.games import services
from scoring.games.models import Game, Hand
from tests.browser.conftest import ANY_IMPACT, ScoreCard, assert_accessible

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def record(game, caller_seat: int, tricks: int, *, alone: bool = False) -> None:
    makers = "A" if caller_seat % 2 == 0 else "B"
    caller = game.seat_player_ids[caller_seat]
    services.hand_record(
        game=game,
        data=services.HandInput(
            makers=makers, caller_id=caller, caller_alone=alone, tricks_won=tricks
        ),
    )


def stored(game):
    return list(
        Hand.objects.filter(game=game, status=Hand.Status.ACTIVE)
        .order_by("number")
        .values_list("number", "outcome", "points_a", "points_b")
    )


def test_queued_hands_move_the_score_dealer_and_game_over_then_the_server_agrees(
    table_game, card, phone, shot
):
    game = table_game("standard")
    record(game, 0, 5)  # A march 2-0
    record(game, 1, 5, alone=True)  # B loner march 2-4
    record(game, 2, 5, alone=True)  # A loner march 6-4
    record(game, 3, 3)  # B make 6-5; seat 0 (Alice) deals hand 5
    captain = card(game)
    page = captain.page
    board = page.locator(".board")
    status = page.locator(".status")
    expect(status).to_have_text("Hand 5 · Alice deals · Game to 10")
    assert captain.score() == (6, 5)
    # One caller button is marked as the dealer's, as the status line says; so does the heading.
    dealer = page.locator("form.hand label.pick", has_text="· dealer")
    heading = page.locator("form.hand h2.sr")
    expect(dealer).to_have_count(1)
    expect(dealer).to_contain_text("Alice")
    expect(heading).to_have_text("Enter hand 5")
    shot(page, "online")

    phone.set_offline(True)
    captain.caller("Dave")
    captain.alone()
    captain.tricks(5)
    captain.record()
    expect(page.locator("#pending")).to_contain_text("Waiting to send: 1 hand (hand 5)")
    expect(status).to_have_text("Hand 6 · Bob deals · Game to 10 · 1 hand not sent yet")
    assert captain.score() == (6, 9)
    expect(dealer).to_have_count(1)
    expect(dealer).to_contain_text("Bob")
    expect(heading).to_have_text("Enter hand 6")
    expect(board).to_have_class("board unsent")
    expect(page.locator("#live")).to_contain_text(
        "Score with the hands not sent yet: A 6 points, B 9 points."
    )

    page.get_by_role("button", name="Misdeal: redeal").click()  # Bob deals again
    expect(status).to_have_text("Hand 7 · Bob deals · Game to 10 · 2 hands not sent yet")
    captain.caller("Carol")
    captain.tricks(3)
    captain.record()
    expect(status).to_have_text("Hand 8 · Carol deals · Game to 10 · 3 hands not sent yet")
    assert captain.score() == (7, 9)
    expect(dealer).to_contain_text("Carol")
    expect(heading).to_have_text("Enter hand 8")
    expect(page.locator("ol.hands li.unsent")).to_have_text(
        [
            "Made it: A +1 Carol called, Bob dealt · 7–9 · not sent yet",
            "Misdeal: redeal, no score Bob dealt · 6–9 · not sent yet",
            "Loner marched! B +4 Dave called, Alice dealt · 6–9 · not sent yet",
        ]
    )
    assert_accessible(page, ANY_IMPACT)  # the form, the marked score and the waiting rows
    shot(page, "offline-three-waiting")
    shot(page, "offline-three-waiting-screen", full_page=False)

    captain.caller("Bob")
    captain.tricks(4)
    captain.record()
    expect(status).to_have_text("Game over: Bob & Dave won, 10–7 4 hands not sent yet")
    expect(page.locator("form.hand")).to_be_hidden()
    expect(page.get_by_role("button", name="Undo hand 8 (not sent yet)")).to_be_visible()
    assert captain.score() == (7, 10)
    assert_accessible(page, ANY_IMPACT)
    shot(page, "offline-game-over")
    assert stored(game)[-1][0] == 4  # nothing sent yet

    # A wrong last hand is taken back on the phone: the game is not over any more.
    page.get_by_role("button", name="Undo hand 8 (not sent yet)").click()
    expect(status).to_have_text("Hand 8 · Carol deals · Game to 10 · 3 hands not sent yet")
    expect(page.locator("form.hand")).to_be_visible()
    captain.caller("Bob")
    captain.tricks(4)
    captain.record()
    expect(status).to_have_text("Game over: Bob & Dave won, 10–7 4 hands not sent yet")

    phone.set_offline(False)
    expect(page.locator("#pending")).to_be_hidden(timeout=15000)
    expect(status).to_have_text("Bob & Dave won the game, 10–7 Game to 10")
    expect(board).to_have_class("board final")
    assert captain.score() == (7, 10)
    expect(page.get_by_role("button", name="Confirm 7–10")).to_be_visible()
    shot(page, "after-sync")
    game.refresh_from_db()
    assert (game.status, game.winner, game.score_a, game.score_b) == ("finished", "B", 7, 10)
    assert stored(game)[4:] == [
        (5, "lone_march", 0, 4),
        (6, "misdeal", 0, 0),
        (7, "make", 1, 0),
        (8, "make", 0, 1),
    ]
    page.set_viewport_size({"width": 1280, "height": 800})
    shot(page, "after-sync-wide")


def test_a_progressive_game_counts_the_hands_left_with_the_waiting_ones(table_game, card, phone):
    game = table_game("progressive")
    captain = card(game)
    page = captain.page
    phone.set_offline(True)
    captain.caller("Alice")
    captain.alone()
    captain.tricks(5)
    captain.record()
    expect(page.locator(".status")).to_have_text(
        "Hand 2 · Bob deals · 8 hands a game, 7 to play · 1 hand not sent yet"
    )
    assert captain.score() == (4, 0)
    expect(page.locator("ol.hands li")).to_have_text(
        ["Loner marched! A +4 Alice called, Alice dealt · 4–0 · not sent yet"]
    )
    phone.set_offline(False)
    expect(page.locator("#pending")).to_be_hidden(timeout=15000)
    expect(page.locator("ol.hands li.unsent")).to_have_count(0)
    expect(page.locator("ol.hands li")).to_have_count(1)
    expect(page.locator(".status")).to_have_text("Hand 2 · Bob deals · 8 hands a game, 7 to play")
    assert captain.score() == (4, 0)


def test_a_hand_the_server_refuses_is_dropped_with_its_reason(
    table_game, card, phone, new_phone, live_server, shot
):
    """Two captains at one table: while the first is offline with hands 2 and 3 waiting, the
    other side's captain enters hand 2. Back online, the first phone's hand 2 is refused (and
    leaves the projection), its hand 3 is recorded, and the card is the server's score."""
    game = table_game("standard")
    first = card(game)
    page = first.page
    first.hand("Alice", 3, expect="Made it: A +1")

    phone.set_offline(True)
    first.caller("Bob")
    first.alone()
    first.tricks(5)
    first.record()
    first.caller("Carol")
    first.tricks(5)
    first.record()
    expect(page.locator(".status")).to_have_text(
        "Hand 4 · Dave deals · Game to 10 · 2 hands not sent yet"
    )
    assert first.score() == (3, 4)

    other = ScoreCard(new_phone().new_page(), live_server.url, game)
    other.open()
    other.hand("Bob", 0, expect="Euchred: A +2")  # hand 2, from the other phone

    phone.set_offline(False)
    expect(page.locator("#pending")).to_be_hidden(timeout=15000)
    refused = page.locator("#refused")
    expect(refused).to_have_text(
        "Hand 2 was not recorded: Hand 2 was already entered; the score is A 3 – B 0 "
        "and hand 3 is next"
    )
    expect(page.locator("[data-flash]")).to_have_text("Hand 3: March! A +2")
    expect(page.locator(".status")).to_have_text("Hand 4 · Dave deals · Game to 10")
    assert first.score() == (5, 0)
    assert_accessible(page, ANY_IMPACT)
    shot(page, "refused")
    assert stored(game) == [(1, "make", 1, 0), (2, "euchre", 2, 0), (3, "march", 2, 0)]

    first.hand("Dave", 3, expect="Made it: B +1")
    expect(refused).to_be_hidden()  # the reason stays until the next hand is recorded


def test_a_hand_the_rulebook_refuses_is_said_at_once_offline_and_not_kept(table_game, card, phone):
    game = table_game("csl")
    captain = card(game)
    page = captain.page
    phone.set_offline(True)
    captain.caller("Bob")
    page.locator(".toggles label", has_text="Lone defender").click()
    captain.tricks(1)
    captain.record()
    expect(page.locator("[data-flash]")).to_have_text(
        "Under this rulebook a defender may go alone only against a lone caller"
    )
    expect(page.locator("#pending")).to_be_hidden()
    expect(page.locator(".status")).to_have_text("Hand 1 · Alice deals · Game to 10")
    expect(page.get_by_role("radio", name="Bob B")).to_be_checked()  # the taps are kept
    assert page.evaluate("localStorage.length") == 0
    phone.set_offline(False)
    captain.alone()
    captain.record()
    expect(page.locator("[data-flash]")).to_have_text("Hand 1: Euchred by a lone defender: A +4")
    assert Game.objects.get(pk=game.pk).score_a == 4


def test_time_called_offline_plays_on_when_level_then_ends_the_game(table_game, card, phone, shot):
    """A 25-minute game: time called on a level hand waits on the phone and the card says the
    next hand decides; time called again is refused at once; the next hand ends the game as the
    server then agrees."""
    game = table_game("timed")
    captain = card(game)
    page = captain.page
    status = page.locator(".status")
    length = "25-minute games, the higher score wins"
    time_called = page.get_by_role("checkbox", name="Time was called")
    phone.set_offline(True)
    captain.caller("Alice")
    captain.tricks(3)
    captain.record()
    captain.caller("Bob")
    captain.tricks(4)
    time_called.check()
    captain.record()
    expect(status).to_have_text(
        f"Hand 3 · Carol deals · {length}, tied at time 1–1: the next hand decides"
        " · 2 hands not sent yet"
    )
    expect(time_called).not_to_be_checked()
    assert_accessible(page, ANY_IMPACT)  # the form with its "Time was called" toggle
    captain.caller("Carol")
    captain.tricks(5)
    time_called.check()
    captain.record()
    expect(page.locator("[data-flash]")).to_have_text(
        "Time was already called in this game; the next hand that breaks the tie ends it"
    )
    time_called.uncheck()
    captain.record()
    expect(status).to_have_text("Time called: Alice & Carol won, 3–1 3 hands not sent yet")
    assert_accessible(page, ANY_IMPACT)
    shot(page, "time-called-offline")
    phone.set_offline(False)
    expect(page.locator("#pending")).to_be_hidden(timeout=15000)
    expect(status).to_have_text(f"Time called: Alice & Carol won, 3–1 {length}")
    game.refresh_from_db()
    assert (game.status, game.winner, game.time_called, game.score_a) == ("finished", "A", True, 3)
    assert stored(game) == [(1, "make", 1, 0), (2, "make", 0, 1), (3, "march", 2, 0)]
