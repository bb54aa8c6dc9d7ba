"""Every feature is a click away: from ``/`` (anonymously) and from ``/manage/`` (as the demo
organiser), following only the ``<a href>`` links of the pages, the crawl reaches every kind of
page the demo league holds, and every page it reaches answers 200.

Links leave the crawl when they go off the site, to ``/admin/`` or to log out; file downloads
(CSV, iCalendar, QR codes) are fetched and must answer 200, but are not read for links.
"""

from collections import deque
from html.parser import HTMLParser
from io import StringIO
from urllib.parse import urldefrag, urljoin, urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import Resolver404, resolve

pytestmark = pytest.mark.django_db

BASE = "http://testserver"
SKIPPED_PREFIXES = ("/admin/", "/manage/logout/")
NOT_READ_PREFIXES = ("/api/", "/static/")  # fetched, must answer 200; their links are not followed
DOWNLOADS = (".csv", ".ics", ".svg", ".json", ".png", ".pdf")
MOST_PAGES = 600  # far more than the demo holds; a crawl that runs away fails instead

PUBLIC_KINDS = {
    "league": {"public-league"},
    "season standings": {"public-season"},
    "team schedule": {"brackets:schedule"},
    "night": {"night-public", "public-night"},
    "bracket": {"brackets:page"},
    "player page": {"public-player"},
    "team page": {"public-team"},
    "wall": {"public-wall"},
}
ORGANISER_KINDS = {
    "league": {"manage:league"},
    "season": {"manage:season"},
    "nights": {"manage:nights"},
    "night desk": {"night-manage"},
    "teams": {"manage:teams"},
    "roster": {"manage:roster"},
    "rules": {"manage:season-rules"},
    "schedule": {"brackets:manage-schedule"},
    "brackets list": {"brackets:manage-list"},
    "bracket detail": {"brackets:manage-detail"},
    "bracket correct": {"brackets:manage-correct"},
    "dashboard/settle": {"manage:game-settle"},
    "exports": {"manage:export-standings", "manage:export-games", "manage:export-hands"},
    "audit": {"manage:audit"},
}


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            href = dict(attrs).get("href")
            if href:
                self.hrefs.append(href)


def site_path(page: str, href: str) -> str | None:
    """The site-relative address of a link on ``page``, or None when it leaves the crawl."""
    address, _ = urldefrag(urljoin(BASE + page, href))
    parts = urlsplit(address)
    if parts.scheme not in ("http", "https") or parts.netloc != "testserver":
        return None
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    if path.startswith(SKIPPED_PREFIXES):
        return None
    return path


def crawl(client: Client, start: str) -> tuple[dict[str, str], list[str]]:
    """Breadth first from ``start``: {address: url name} of every page reached, and the
    addresses that did not answer 200 (with where they were linked from)."""
    reached: dict[str, str] = {}
    broken: list[str] = []
    queue = deque([(start, "(start)")])
    seen = {start}
    while queue:
        address, linked_from = queue.popleft()
        assert len(reached) < MOST_PAGES, f"the crawl ran past {MOST_PAGES} pages"
        response = client.get(address)
        if response.status_code != 200:
            broken.append(f"{address} -> {response.status_code} (linked from {linked_from})")
            continue
        try:
            reached[address] = resolve(urlsplit(address).path).view_name
        except Resolver404:
            reached[address] = "?"
        path = urlsplit(address).path
        if (
            path.endswith(DOWNLOADS)
            or path.startswith(NOT_READ_PREFIXES)
            or "html" not in response.get("Content-Type", "")
        ):
            continue
        parser = Links()
        parser.feed(response.content.decode())
        for href in parser.hrefs:
            target = site_path(address, href)
            if target is not None and target not in seen:
                seen.add(target)
                queue.append((target, address))
    return reached, broken


def missing_kinds(reached: dict[str, str], kinds: dict[str, set[str]]) -> list[str]:
    names = set(reached.values())
    return [kind for kind, views in kinds.items() if not names & views]


@pytest.fixture
def demo(db):
    call_command("demo_league", stdout=StringIO())


def test_the_public_site_reaches_every_kind_of_page(demo, client):
    reached, broken = crawl(client, "/")
    print(f"\npublic crawl: {len(reached)} pages")
    assert broken == []
    assert not [
        address for address in reached if address.startswith("/manage/") and "login" not in address
    ]
    assert missing_kinds(reached, PUBLIC_KINDS) == [], sorted(set(reached.values()))


def test_the_workspace_reaches_every_tool(demo):
    organiser = Client()
    organiser.force_login(get_user_model().objects.get(username="organiser"))
    reached, broken = crawl(organiser, "/manage/")
    print(f"\norganiser crawl: {len(reached)} pages")
    assert broken == []
    assert missing_kinds(reached, ORGANISER_KINDS) == [], sorted(set(reached.values()))
