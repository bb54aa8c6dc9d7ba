"""Every public page kind, and the API docs, with no axe-core violation of any impact (minor and
moderate too), at a phone's size and a desktop's; the standings' full reasons opened; the bracket
round by round on a phone (no sideways-scrolling region hiding the final) and as one picture in
view on a 1080p screen (issue 31, item 7)."""

import pytest

from tests.browser import test_accessibility
from tests.browser.conftest import ANY_IMPACT, assert_accessible, wait_for_script
from tournaments.services.mail import unsubscribe_token

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

world = test_accessibility.world
"""The accessibility tests' world: a team season with standings, a night in play, a published
bracket and an individual season's night (the same fixture)."""

DESKTOP = {"width": 1280, "height": 800}
WALL = {"width": 1920, "height": 1080}


def public_paths(world) -> list[str]:
    slug, season, solo = world["league"].slug, world["season"], world["solo"]
    return [
        "/",
        f"/l/{slug}/",
        f"/l/{slug}/s/{season.pk}/",
        f"/l/{slug}/s/{solo.pk}/",
        f"/l/{slug}/players/{world['player'].pk}/",
        f"/l/{slug}/s/{season.pk}/teams/{world['team'].pk}/",
        f"/l/{slug}/s/{season.pk}/nights/{world['night'].pk}/",
        f"/nights/{world['solo_night'].pk}/",
        f"/brackets/{world['bracket'].pk}/",
        f"/l/{slug}/s/{season.pk}/wall/",
        f"/l/{slug}/players/{world['player'].pk}/emails/",
        "/emails/confirm/any-token/",
        "/emails/unsubscribe/"
        + unsubscribe_token(player_id=world["player"].pk, email="player@example.org")
        + "/",
    ]


def check_all(page, base, paths) -> None:
    failures = []
    for path in paths:
        response = page.goto(base + path)
        assert response.status == 200, f"{path}: {response.status}"
        page.wait_for_load_state("load")
        # Colours at rest: the wall fades a panel in (0.6 s), and axe would read it half faded.
        wait_for_script(page, "document.getAnimations().every(a => a.playState !== 'running')")
        for summary in page.locator("main details > summary").all()[:3]:
            summary.click()  # the full reasons behind a tap, opened
        try:
            assert_accessible(page, ANY_IMPACT)
        except AssertionError as error:
            failures.append(str(error))
    assert not failures, "\n\n".join(failures)


def test_public_pages_on_a_phone(world, page, live_server):
    check_all(page, live_server.url, public_paths(world))


@pytest.fixture
def screen(chromium):
    """``screen(viewport)``: a page in a desktop browser (no touch) of that size."""
    contexts = []

    def make(viewport):
        context = chromium.new_context(viewport=viewport)
        context.set_default_timeout(5000)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def blocked_hosts() -> set[str]:
    """ReDoc's footer logo points at its CDN; the policy refuses it before anything leaves."""
    return {"cdn.redoc.ly", ""}


def test_public_pages_on_a_desktop(world, screen, live_server):
    check_all(screen(DESKTOP), live_server.url, public_paths(world))


@pytest.mark.backend_free
@pytest.mark.parametrize("size", [{"width": 360, "height": 640}, DESKTOP])
def test_the_api_docs(page, live_server, size):
    page.set_viewport_size(size)
    page.goto(f"{live_server.url}/api/docs/")
    page.wait_for_selector(".opblock", timeout=15_000)
    page.locator(".opblock-summary").first.click()  # one operation opened
    page.wait_for_selector(".opblock-body", timeout=5_000)
    assert_accessible(page, ANY_IMPACT)


@pytest.mark.backend_free
@pytest.mark.parametrize("size", [{"width": 360, "height": 640}, DESKTOP])
def test_the_api_redoc(page, live_server, size, csp_violations):
    page.set_viewport_size(size)
    page.goto(f"{live_server.url}/api/redoc/")
    page.wait_for_selector("[data-section-id]", timeout=15_000)
    assert_accessible(page, ANY_IMPACT)
    # Its footer logo on ReDoc's CDN is refused by the policy (tests/browser/test_api_redoc.py).
    assert [line for line in csp_violations if "cdn.redoc.ly" not in line] == []
    csp_violations.clear()


def test_the_bracket_round_by_round_on_a_phone(world, page, live_server, shot):
    page.goto(f"{live_server.url}/brackets/{world['bracket'].pk}/")
    rounds = page.locator(".bracket-rounds h3").all_inner_texts()
    assert rounds == ["Semi-finals", "Final"]
    assert page.locator(".bracket-svg").first.is_hidden()
    final = page.locator(".round-matches").last.locator(".match-card")
    assert final.count() == 1
    box = final.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360  # the final is on the screen
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, "phone")


def test_the_bracket_fills_a_1080p_screen(world, screen, live_server, shot):
    page = screen(WALL)
    page.goto(f"{live_server.url}/brackets/{world['bracket'].pk}/")
    assert page.locator(".bracket-rounds").first.is_hidden()
    picture = page.locator(".bracket-svg").first.bounding_box()
    assert picture["height"] >= 600  # large: over half the screen's height
    assert picture["y"] + picture["height"] <= WALL["height"]  # and all of it in view
    assert picture["x"] >= 0 and picture["x"] + picture["width"] <= WALL["width"]
    assert_accessible(page, ANY_IMPACT)
    shot(page, "wall", full_page=False)
