"""Every workspace URL checks the league: a walk over every route under ``/manage/`` in the URLconf
(not a list kept by hand, so a new page is walked the day it is added), each filled with the ids
of one league's objects, and its query with them too (``?season=…``: some pages pick their object
there). An organiser of another league must get 403 or 404; the league's own organiser must not,
so a walk that refused everyone would fail too.

A GET that a page does not take (405) is sent as an empty POST instead, as a form would.

Two kinds of route are not about one league, and are walked with a weaker promise: the
*league-free* pages (the organiser's own lists, account pages), which must show nothing of the
other league; and the invitation link, whose secret token is the key (anyone signed in who holds
it may accept), which is checked to be 404 for a token that is not one.
"""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from django.test import Client
from django.urls import URLResolver, get_resolver

from league.models import Invitation, League, LeagueRole, Season
from league.services import api_token_create
from tests.factories import LeagueRoleFactory
from tests.fuzz.seed import seed_league

pytestmark = pytest.mark.django_db

WORKSPACE = "manage/"
LEAGUE_FREE = {
    "manage:home",
    "manage:league-new",
    "manage:roster-template",
    "manage:login",
    "manage:logout",
    "manage:signup",
    "manage:tokens",
    "brackets:manage-list",
}
"""Workspace routes that name no league: the signed-in user's own lists and forms, accounts."""
BY_SECRET_LINK = {"manage:invitation"}
"""Routes opened by a secret token, not by an organiser's role."""
MARKERS = ("Zebra Victim League", "Zebra Secret Season")
"""Names of the walked league's objects that no page of another league's organiser may show."""
VERBS = ("archive", "restore")
"""Archiving's routes (``tournaments.views.archiving_urls``), walked like every other."""
CONVERTER = re.compile(r"<(?:\w+:)?(\w+)>")


def workspace_routes() -> list[tuple[str, str]]:
    """Every ``(route, name)`` under ``/manage/`` in the URLconf, e.g.
    ``("manage/seasons/<int:pk>/teams/", "manage:teams")``."""
    found = []

    def walk(patterns, prefix: str, namespaces: tuple[str, ...]) -> None:
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                inner = (*namespaces, pattern.namespace) if pattern.namespace else namespaces
                walk(pattern.url_patterns, route, inner)
            elif route.startswith(WORKSPACE):
                found.append((route, ":".join((*namespaces, pattern.name or "?"))))

    walk(get_resolver().url_patterns, "", ())
    return sorted(found)


ROUTES = workspace_routes()


class Walk:
    """The walked league (seeded as the fuzz test's: a team season with games and a published
    bracket, an individual season with a night in its first round), its owner, an organiser of
    another league, and the ids a route's parameters and query take."""

    def __init__(self):
        seeded = seed_league()
        self.owner = seeded.organiser
        self.stranger = LeagueRoleFactory(user__username="other-organiser").user
        league_id = seeded.ids["league"][0]
        League.objects.filter(pk=league_id).update(name=MARKERS[0])
        teams_season, individual = seeded.ids["season"]
        Season.objects.filter(pk=teams_season).update(name=MARKERS[1])
        invitation = Invitation.objects.create(league_id=league_id, token="i" * 32)
        api_token, _key = api_token_create(user=self.owner, name="walked")
        # By the word before a parameter in the route: which of the league's objects it names.
        self.by_noun = {
            "leagues": league_id,
            "seasons": teams_season,
            "players": seeded.ids["player"][0],
            "games": seeded.ids["game"][0],
            "nights": seeded.ids["night"][0],
            "rounds": 1,
            "brackets": seeded.ids["bracket"][0],
            "invite": invitation.token,
            "tokens": api_token.pk,  # the owner's own: another user's is 404
        }
        self.query = urlencode(
            {
                "league": league_id,
                "season": teams_season,
                "night": seeded.ids["night"][0],
                "game": seeded.ids["game"][0],
                "player": seeded.ids["player"][0],
                "team": seeded.ids["team"][0],
                "bracket": seeded.ids["bracket"][0],
                "individual_season": individual,
            }
        )

    def url(self, route: str) -> str:
        def value(match: re.Match) -> str:
            noun = route[: match.start()].rstrip("/").rsplit("/", 1)[-1]
            assert noun in self.by_noun, f"teach the walk what <{match[1]}> after {noun}/ names"
            return str(self.by_noun[noun])

        return "/" + CONVERTER.sub(value, route) + "?" + self.query

    def answer(self, user, url: str):
        """The answer to a GET, or to an empty POST where the page takes no GET; a fresh client
        each time, so a logout or a write cannot change the next answer."""
        client = Client()
        client.force_login(user)
        response = client.get(url)
        if response.status_code == 405:
            response = client.post(url)
        return response


@pytest.fixture
def walk(db):
    return Walk()


def test_the_walk_finds_the_workspace():
    names = {name for _route, name in ROUTES}
    assert {"manage:nights-ical", "brackets:manage-new", "night-manage", "manage:season"} <= names
    archiving = {f"{kind}-{verb}" for kind in ("season", "night", "bracket") for verb in VERBS}
    assert archiving | {"archived"} <= names
    assert len(ROUTES) > 40


@pytest.mark.parametrize(("route", "name"), ROUTES, ids=[name for _route, name in ROUTES])
def test_another_leagues_organiser_is_refused_and_the_leagues_own_is_not(walk, route, name):
    url = walk.url(route)
    if name in BY_SECRET_LINK:
        wrong = walk.answer(walk.stranger, url.replace(walk.by_noun["invite"], "j" * 32))
        assert wrong.status_code == 404
        return
    theirs = walk.answer(walk.stranger, url)
    if name in LEAGUE_FREE:
        assert theirs.status_code != 500, url
        body = theirs.content.decode(errors="replace")
        assert not any(marker in body for marker in MARKERS), url
    else:
        assert theirs.status_code in (403, 404), (url, theirs.status_code)
        assert LeagueRole.objects.filter(user=walk.stranger).count() == 1  # nothing joined
    ours = walk.answer(walk.owner, url)
    assert ours.status_code not in (403, 404, 500), (url, ours.status_code)


def test_the_bracket_form_takes_only_a_season_of_yours(walk):
    """``/manage/brackets/new/?season=`` names the season through the league's door: another
    league's is 403 (GET or POST, nothing built), no such season 404, your own team season opens."""
    from tournaments.models import Bracket

    url = "/manage/brackets/new/"
    season = walk.by_noun["seasons"]
    before = Bracket.objects.count()
    client = Client()
    client.force_login(walk.stranger)
    assert client.get(url, {"season": season}).status_code == 403
    assert client.post(url, {"season": season, "kind": "single"}).status_code == 403
    assert client.get(url, {"season": "abc"}).status_code == 404
    assert client.get(url, {"season": 10**6}).status_code == 404
    assert client.get(url).status_code == 200
    owner = Client()
    owner.force_login(walk.owner)
    page = owner.get(url, {"season": season})
    assert page.status_code == 200
    assert MARKERS[1] in page.content.decode()
    assert Bracket.objects.count() == before
