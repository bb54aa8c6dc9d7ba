"""The API docs in a real Chromium with no internet: Swagger UI and ReDoc draw the schema from
installed assets, every request stays on this server, and the Content-Security-Policy holds
(ReDoc's page alone allows injected styles and a blob: worker, never another script source)."""

import pytest

pytestmark = [
    pytest.mark.browser,
    pytest.mark.backend_free,
    pytest.mark.django_db(transaction=True),
]


def test_swagger_ui_draws_every_operation_offline(page, live_server, csp_violations):
    page.goto(f"{live_server.url}/api/docs/")
    page.wait_for_selector(".swagger-ui .info", timeout=15_000)
    assert "Euchre league API" in page.inner_text(".swagger-ui .info")
    page.wait_for_selector(".opblock", timeout=15_000)
    paths = page.eval_on_selector_all(
        ".opblock-summary-path", "(els) => els.map((e) => e.innerText)"
    )
    assert "/api/v1/games/{id}/hands/" in " ".join(paths)
    assert csp_violations == []
