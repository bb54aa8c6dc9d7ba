"""Real-browser tests: Playwright drives Debian's Chromium at a phone viewport against
pytest-django's ``live_server``. Screenshots of each state go to test-artifacts/screenshots/.

Every page any test opens is also checked for Content-Security-Policy violations: Chromium's own
console messages ("Refused to … because it violates the following Content Security Policy
directive") and the page's ``securitypolicyviolation`` events are collected, and a test that
caused any fails at teardown.

Playwright's sync API runs an event loop in the test's thread, so Django's ORM (used by the test
to set up games and check the database) needs ``DJANGO_ALLOW_ASYNC_UNSAFE``.
"""

import json
import os
import re
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.conftest import require

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "1"

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
PHONE = {"width": 360, "height": 640}
CSP_REPORTER = """
document.addEventListener("securitypolicyviolation", (event) => {
  console.error(`Content Security Policy violation: ${event.effectiveDirective} refused `
    + `${event.blockedURI || "inline"} (${event.sourceFile || location.href}:${event.lineNumber})`);
});
"""
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
PLAYERS = {
    "seat_0__name": "Alice",
    "seat_1__name": "Bob",
    "seat_2__name": "Carol",
    "seat_3__name": "Dave",
}


@pytest.fixture(scope="session")
def chromium():
    if not Path(CHROMIUM).exists():
        require(False, "chromium is not installed")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def wait_for_script(page, expression: str, timeout: float = 5.0) -> None:
    """Wait until ``expression`` is true in the page. Playwright's ``wait_for_function`` polls
    through ``eval``, which the pages' Content-Security-Policy forbids; ``page.evaluate`` goes
    through the DevTools protocol, which the policy does not govern."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout} s: {expression}")
        page.wait_for_timeout(50)


class ServerRequests:
    """The requests the live server is answering now: the threads between Django's
    ``request_started`` and ``request_finished`` signals (a request's database work is done
    before it finishes). The test's own thread (Django's test client) is not the server's."""

    def __init__(self):
        self.answering: set[int] = set()
        self.changed = threading.Condition()

    def started(self, **_kwargs):
        if threading.current_thread() is not threading.main_thread():
            with self.changed:
                self.answering.add(threading.get_ident())

    def finished(self, **_kwargs):
        with self.changed:
            self.answering.discard(threading.get_ident())
            self.changed.notify_all()

    def forget(self) -> None:
        with self.changed:
            self.answering.clear()

    def wait_until_none(self, timeout: float = 10.0) -> None:
        with self.changed:
            self.changed.wait_for(lambda: not self.answering, timeout)


@pytest.fixture(scope="session")
def server_requests():
    from django.core.signals import request_finished, request_started

    requests = ServerRequests()
    request_started.connect(requests.started, dispatch_uid="browser-tests-started")
    request_finished.connect(requests.finished, dispatch_uid="browser-tests-finished")
    yield requests
    request_started.disconnect(dispatch_uid="browser-tests-started")
    request_finished.disconnect(dispatch_uid="browser-tests-finished")


@pytest.fixture(autouse=True)
def no_request_left_running(server_requests):
    """After a test's pages are closed (their fixtures end first), wait for the live server to
    finish the requests it is still answering, before the test's database is flushed: a poll
    that arrived just as a page closed once held a table the flush's ``TRUNCATE`` wanted while
    waiting for one the ``TRUNCATE`` held (PostgreSQL's "deadlock detected", failing the test)."""
    server_requests.forget()
    yield
    server_requests.wait_until_none()


@pytest.fixture
def csp_violations():
    """Content-Security-Policy violations seen by any page of the test (must stay empty)."""
    return []


@pytest.fixture
def blocked_hosts() -> set[str]:
    """Other hosts a page of the test may *try* to reach, each refused by the page's policy
    before any request leaves (a test module overrides this; by default there are none)."""
    return set()


@pytest.fixture
def new_phone(chromium, live_server, csp_violations, blocked_hosts):
    """``new_phone(**options)``: a fresh phone-sized browser context. Every request any of them
    makes must stay on the live server (no CDN, no other host), and no page may break the
    Content-Security-Policy."""
    contexts, hosts = [], set()

    def on_console(message):
        if "Content Security Policy" in message.text:
            where = message.page.url if message.page else "?"
            csp_violations.append(f"{where}: {message.text}")

    def make(**options):
        context = chromium.new_context(
            viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2, **options
        )
        context.set_default_timeout(5000)
        context.on("request", lambda req: hosts.add(urlsplit(req.url).netloc))
        context.on("console", on_console)
        context.add_init_script(CSP_REPORTER)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()
    allowed = {urlsplit(live_server.url).netloc} | blocked_hosts
    assert hosts <= allowed, f"requests to other hosts: {hosts - allowed}"
    assert not csp_violations, "Content-Security-Policy violations:\n" + "\n".join(csp_violations)


@pytest.fixture
def phone(new_phone):
    return new_phone()


@pytest.fixture
def page(phone):
    return phone.new_page()


@pytest.fixture
def shot(request):
    """``shot(page, "state")`` saves test-artifacts/screenshots/<test>-<state>.png."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", request.node.name).strip("-")

    def take(page, state: str, *, full_page: bool = True) -> Path:
        path = SCREENSHOTS / f"{name}-{state}.png"
        page.screenshot(path=str(path), full_page=full_page)
        return path

    return take


@pytest.fixture
def table_game(make_game):
    """``table_game("standard")``: a game with Alice & Carol (A) v Bob & Dave (B)."""

    def make(slug: str = "standard", **kwargs):
        return make_game(slug, **{**PLAYERS, **kwargs})

    return make


class ScoreCard:
    """What a captain does on the page, in the captain's words."""

    def __init__(self, page, base_url: str, game):
        self.page = page
        self.game = game
        self.url = f"{base_url}/t/{game.captain_token}/"

    def open(self):
        response = self.page.goto(self.url)
        wait_for_script(self.page, "document.readyState === 'complete'")
        return response

    def caller(self, name: str):
        self.page.locator(".callers label", has_text=name).click()

    def tricks(self, count: int):
        self.page.locator(".tricks label", has_text=str(count)).click()

    def alone(self):
        self.page.locator(".toggles label", has_text="Caller went alone").click()

    def record(self):
        self.page.locator("button.go", has_text="Record hand").click()

    def hand(self, caller: str, tricks: int, *, alone: bool = False, expect: str = ""):
        """Three taps (caller, tricks, record), or four with alone; wait for the result."""
        from playwright.sync_api import expect as expect_that

        number = int(self.page.locator("form.hand input[name=number]").get_attribute("value"))
        self.caller(caller)
        if alone:
            self.alone()
        self.tricks(tricks)
        self.record()
        flash = self.page.locator("[data-flash]")
        expect_that(flash).to_contain_text(f"Hand {number}: {expect}")
        return flash.inner_text()

    def score(self) -> tuple[int, int]:
        values = self.page.locator(".side b").all_inner_texts()
        return tuple(int(value.split()[0]) for value in values)


@pytest.fixture
def card(page, live_server):
    def open_card(game):
        score_card = ScoreCard(page, live_server.url, game)
        score_card.open()
        return score_card

    return open_card


SEVERE = ("serious", "critical")


def axe_violations(page) -> list[dict]:
    """axe-core's violations on ``page`` as it is now (axe's JS ships with axe-playwright-python
    and is injected through the DevTools protocol: no CDN, no inline script in the page)."""
    from axe_playwright_python.sync_playwright import Axe

    return Axe().run(page).response["violations"]


ANY_IMPACT = ("minor", "moderate", "serious", "critical")


def assert_accessible(page, impacts: tuple[str, ...] = SEVERE) -> None:
    """Fail listing every axe-core violation of ``page`` of one of ``impacts`` (serious or
    critical unless told; ``ANY_IMPACT`` for all), with its targets."""
    violations = axe_violations(page)
    if os.environ.get("AXE_REPORT"):  # every violation, any impact, one JSON line per page
        with open(os.environ["AXE_REPORT"], "a") as report:
            found = [(v["impact"], v["id"], len(v["nodes"])) for v in violations]
            report.write(json.dumps({"url": urlsplit(page.url).path, "violations": found}) + "\n")
    severe = [v for v in violations if v["impact"] in impacts]
    lines = [
        f"{v['impact']} {v['id']}: {v['help']} at "
        + ", ".join(" ".join(node["target"]) for node in v["nodes"][:6])
        for v in severe
    ]
    assert not severe, f"{page.url}:\n" + "\n".join(lines)
