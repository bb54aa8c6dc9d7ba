"""The Content-Security-Policy in a real Chromium: the captain page runs its script under it, and
the shared browser fixtures notice when something breaks it (so every browser test checks it)."""

import pytest

from tests.browser.conftest import PLAYERS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_captain_page_enters_a_hand_under_the_policy(card, page, table_game, csp_violations):
    game = table_game()
    score_card = card(game)
    policy = page.evaluate(
        "fetch(location.href).then((answer) => answer.headers.get('content-security-policy'))"
    )
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert score_card.hand(PLAYERS["seat_0__name"], 5, expect="March!")
    assert csp_violations == []


def test_an_inline_script_is_refused_and_reported(card, page, table_game, csp_violations):
    card(table_game())
    page.evaluate(
        """() => {
      const script = document.createElement("script");
      script.textContent = "window.inlineRan = true";
      document.body.append(script);
    }"""
    )
    page.wait_for_timeout(200)  # the violation event and console message are delivered async
    assert page.evaluate("window.inlineRan === undefined")
    assert any("script-src" in line for line in csp_violations), csp_violations
    csp_violations.clear()  # seen and expected: the fixture's own check passes
