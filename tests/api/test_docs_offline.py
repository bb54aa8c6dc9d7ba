"""The API docs (Swagger UI, ReDoc) work offline: every asset comes from this site, none from a
CDN, and no inline script or style is needed (they run under a strict Content-Security-Policy)."""

import re

import pytest

pytestmark = pytest.mark.django_db

ASSET = re.compile(r'(?:src|href)="([^"]+)"')


@pytest.mark.parametrize("address", ["/api/docs/", "/api/redoc/"])
def test_the_docs_load_only_assets_of_this_site(client, address):
    response = client.get(address)
    assert response.status_code == 200
    html = response.content.decode()
    assert "http://" not in html and "https://" not in html
    assert "cdn" not in html.lower()
    assert "<style" not in html
    assert re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html) is None  # no inline script
    assets = ASSET.findall(html)
    assert any(asset.endswith(".js") or "script=" in asset for asset in assets)
    for asset in assets:
        assert asset.startswith("/"), asset
        assert client.get(asset.replace("&amp;", "&")).status_code == 200, asset


def test_the_api_root_lists_every_resource(client):
    root = client.get("/api/v1/").json()
    expected = {"leagues", "rulebooks", "seasons", "players", "teams", "games"}
    assert set(root) == expected | {"nights", "brackets"}
    for name, address in root.items():
        assert client.get(address).status_code == 200, name
