"""On a phone (360×640), the organiser sees on the bracket form the order seeds from the standings
would take, builds the bracket and reads each seed's reason in a few plain words; a tap on one
opens its full sentence. No axe-core violation of any impact, the reasons shut or open, on the
phone and at 1280×800."""

import pytest
from django.test import Client
from playwright.sync_api import expect

from scoring.games import services as scoring
from tests.api.test_brackets import make_teams, seats
from tests.browser.conftest import ANY_IMPACT, assert_accessible
from tests.pages.test_bracket_seed_reasons import RESULTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_seed_reason_in_a_few_words_opens_to_its_sentence_on_a_tap(
    new_phone, live_server, shot, make_season, organiser
):
    season = make_season("standard")
    teams = make_teams(season, 4)
    for winner, loser in RESULTS:
        first, second = teams[winner - 1], teams[loser - 1]
        game = scoring.game_create(
            season=season, seats=seats(first, second), team_a=first, team_b=second
        )
        scoring.game_record_final_score(game=game, score_a=10, score_b=5)
    session = Client()
    session.force_login(organiser)
    phone = new_phone()
    phone.add_cookies(
        [{"name": "sessionid", "value": session.cookies["sessionid"].value, "url": live_server.url}]
    )
    page = phone.new_page()

    page.goto(f"{live_server.url}/manage/brackets/new/?season={season.pk}")
    order = page.locator("details.seed-order")
    expect(order.locator("> summary")).to_have_text("The standings now: 4 teams ranked")
    order.locator("> summary").click()
    expect(order.locator("tbody tr")).to_have_count(4)
    expect(order.locator("tbody tr").nth(3).locator("summary")).to_have_text(
        "won less often than Team 3"
    )
    order.locator("tbody tr").nth(2).locator("summary").click()
    expect(order.locator("tbody tr").nth(2).locator("p")).to_have_text(
        "Behind Team 2 on head-to-head (0–1)."
    )
    order.scroll_into_view_if_needed()
    shot(page, "form-phone", full_page=False)
    assert_accessible(page, ANY_IMPACT)
    page.set_viewport_size({"width": 1280, "height": 800})
    order.scroll_into_view_if_needed()
    shot(page, "form-desktop", full_page=False)
    page.set_viewport_size({"width": 360, "height": 640})
    page.get_by_label("Name").fill("Playoffs")
    page.get_by_label("How many teams").fill("3")
    unfinished = page.get_by_label("Seed from the standings as they are now")
    if unfinished.count():
        unfinished.check()
    page.get_by_role("button", name="Build the draft").click()

    third = page.locator("table.seeds tbody tr").nth(2)
    reason = third.locator("details.reason")
    expect(reason.locator("summary")).to_have_text("Team 2 beat them")
    sentence = reason.locator("p")
    expect(sentence).to_be_hidden()
    cut = page.locator("details.cut-note summary")
    expect(cut).to_have_text("Team 4 is out: won less often than Team 3")
    expect(page.locator("details.cut-note p")).to_be_hidden()
    shot(page, "phone-shut", full_page=False)
    assert_accessible(page, ANY_IMPACT)

    reason.locator("summary").click()
    expect(sentence).to_be_visible()
    expect(sentence).to_contain_text("Behind Team 2 on head-to-head")
    cut.click()
    expect(page.locator("details.cut-note p")).to_contain_text(
        "The cut falls after 3rd: Team 3 is in, Team 4 (4th) is out"
    )
    shot(page, "phone-open")
    assert_accessible(page, ANY_IMPACT)

    page.set_viewport_size({"width": 1280, "height": 800})
    shot(page, "desktop-open", full_page=False)
    assert_accessible(page, ANY_IMPACT)
