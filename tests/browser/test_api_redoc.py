"""ReDoc in a real Chromium with no internet: it draws the schema from installed assets under
a policy that allows its page alone injected styles and a blob: worker (the ``''`` host below),
never another script source."""

import pytest

pytestmark = [
    pytest.mark.browser,
    pytest.mark.backend_free,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def blocked_hosts() -> set[str]:
    """ReDoc's footer logo points at its CDN; the policy refuses it before anything leaves."""
    return {"cdn.redoc.ly", ""}


def test_redoc_draws_the_schema_offline(page, live_server, csp_violations):
    page.goto(f"{live_server.url}/api/redoc/")
    page.wait_for_selector("h1", timeout=15_000)
    assert "Euchre league API" in page.inner_text("h1")
    assert "Something went wrong" not in page.content()
    # ReDoc's footer logo points at its CDN: the policy blocks it (no request leaves), and the
    # browser says so. That one is expected; anything else is not.
    unexpected = [line for line in csp_violations if "cdn.redoc.ly" not in line]
    assert unexpected == []
    csp_violations.clear()
