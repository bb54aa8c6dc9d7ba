"""The site's navigation, for every page: breadcrumbs and the section links of the league or
season a page belongs to, for the two audiences (the public site and the organisers' workspace).

A template library (``{% load site_nav %}``, registered in ``TEMPLATES``), kept in ``config``
because it joins the apps' pages: the league and scoring pages link the tournaments' brackets and
schedules, which neither app may import. ``base.html`` renders ``{% site_nav %}`` once; the page
is placed by its URL name, and its league and season are found in the template context (``season``,
or the season of its ``bracket``, ``night``, ``game`` or ``team``).
"""

from dataclasses import dataclass

from django import template
from django.urls import reverse

from league.models import League, Season
from tournaments.selectors import checklist as selectors_checklist
from tournaments.selectors import nav as selectors_nav

register = template.Library()

# Pages that show no navigation: the captain's card (one game, on a phone) and the table card that
# leads to it, the wall (a TV in the room) and the printables (paper).
BARE = ("captain:", "public-wall", "night-print-", "night-tents", "table-card")

# The workspace's league and season pages carry the same links as tiles of their own.
OWN_TILES = ("manage:league", "manage:season")

PUBLIC_LABELS = {
    "public-season": "Standings",
    "brackets:schedule": "Schedule",
    "season-fairness-public": "Fairness",
}
MANAGE_LABELS = {
    "manage:nights": "Nights",
    "manage:teams": "Teams",
    "manage:roster": "Roster",
    "manage:roster-import": "Import players",
    "manage:season-rules": "Rules",
    "manage:audit": "Audit trail",
    "manage:game-settle": "Settle a game",
    "manage:season-new": "New season",
    "manage:league-new": "New league",
    "manage:signup": "Sign up",
    "manage:login": "Log in",
    "brackets:manage-list": "Brackets",
    "brackets:manage-new": "Build a bracket",
    "brackets:manage-correct": "Correct",
    "brackets:manage-schedule": "Schedule",
    "night-manage": "Night desk",
    "season-fairness-manage": "Fairness",
    "season-money": "Money",
    "season-ledger": "Ledger",
    "night-pot": "Pot and payouts",
}


@dataclass(frozen=True)
class Link:
    label: str
    url: str
    current: bool = False


def _season_of(context) -> Season | None:
    season = context.get("season")
    if isinstance(season, Season):
        return season
    for name in ("bracket", "night", "game", "team"):
        holder = context.get(name)
        season = getattr(holder, "season", None)
        if isinstance(season, Season):
            return season
    return None


def _league_of(context, season: Season | None) -> League | None:
    if season is not None:
        return season.league
    league = context.get("league")
    if isinstance(league, League):
        return league
    league = getattr(context.get("player"), "league", None)
    return league if isinstance(league, League) else None


def public_season_links(season: Season) -> list[Link]:
    """What the public can look at in a season: standings, schedule, nights, brackets, players."""
    slug = season.league.slug
    links = [Link("Standings", reverse("public-season", args=[slug, season.pk]))]
    if season.format == Season.Format.TEAMS and selectors_nav.season_has_schedule(season=season):
        links.append(Link("Schedule", reverse("brackets:schedule", args=[season.pk])))
    links.append(Link("Nights", reverse("public-season", args=[slug, season.pk]) + "#nights"))
    links += [
        Link(bracket.name, reverse("brackets:page", args=[bracket.pk]))
        for bracket in selectors_nav.season_published_brackets(season=season)
    ]
    links.append(Link("Players", reverse("public-league", args=[slug]) + "#players"))
    links.append(Link("Wall", reverse("public-wall", args=[slug, season.pk])))
    return links


def manage_season_links(season: Season) -> list[Link]:
    """Every tool an organiser has for a season."""
    pk = season.pk
    teams = season.format == Season.Format.TEAMS
    dashboard = reverse("manage:season", args=[pk])
    links = [
        Link("Dashboard", dashboard),
        Link("Nights", reverse("manage:nights", args=[pk])),
    ]
    if teams:
        links.append(Link("Teams", reverse("manage:teams", args=[pk])))
    links += [
        Link("Roster", reverse("manage:roster", args=[season.league_id])),
        Link("Rules", reverse("manage:season-rules", args=[pk])),
    ]
    if teams:
        links += [
            Link("Schedule", reverse("brackets:manage-schedule", args=[pk])),
            Link("Brackets", reverse("brackets:manage-list")),
        ]
    links += [
        Link("Games to settle", dashboard + "#season-games"),
        Link("Exports", dashboard + "#exports"),
        Link("Audit trail", reverse("manage:audit", args=[pk])),
        Link("Fairness", reverse("season-fairness-manage", args=[pk])),
        Link("Money", reverse("season-money", args=[pk])),
        Link("Public page", reverse("public-season", args=[season.league.slug, pk])),
    ]
    return links


def manage_league_links(league: League) -> list[Link]:
    return [
        Link("Seasons", reverse("manage:league", args=[league.pk])),
        Link("Roster", reverse("manage:roster", args=[league.pk])),
        Link("New season", reverse("manage:season-new", args=[league.pk])),
        Link("Public page", reverse("public-league", args=[league.slug])),
    ]


def _marked(links: list[Link], path: str) -> list[Link]:
    return [Link(link.label, link.url, link.url == path) for link in links]


def _title(view: str, context, labels: dict[str, str]) -> str:
    if view in labels:
        return labels[view]
    for name in ("bracket", "team", "player"):
        value = context.get(name)
        if getattr(value, "name", None):
            return value.name
    night = context.get("night")
    if getattr(night, "date", None):
        return f"Night of {night.date:%b} {night.date.day}"
    game = context.get("game")
    if game is not None:
        return f"Game {game.pk}"
    return ""


def _is_workspace(view: str) -> bool:
    return (
        view.startswith("manage:")
        or view.startswith("brackets:manage-")
        or (view.startswith("night-") and view != "night-public")
        or view in ("season-fairness-manage", "season-money", "season-ledger")
    )


@register.inclusion_tag("nav/_site_nav.html", takes_context=True)
def site_nav(context):
    """Breadcrumbs and section links for the page being rendered (nothing on bare pages)."""
    request = context.get("request")
    match = getattr(request, "resolver_match", None)
    view = getattr(match, "view_name", "") or ""
    if request is None or not view or view.startswith(BARE):
        return {"crumbs": [], "sections": []}
    path = request.path
    season = _season_of(context)
    league = _league_of(context, season)
    if _is_workspace(view):
        crumbs, sections, title = _workspace(view, context, league, season)
        label = "Season tools" if season else "League tools"
    else:
        crumbs, sections, title = _public(view, context, league, season)
        label = "Season pages"
    if crumbs and crumbs[-1].url == path:  # the league's or season's own page
        crumbs[-1] = Link(crumbs[-1].label, path, True)
    elif title:
        crumbs.append(Link(title, request.get_full_path(), True))
    if view in OWN_TILES:
        sections = []
    return {
        "crumbs": crumbs,
        "sections": _marked(sections, path),
        "section_label": label,
        "workspace": _is_workspace(view),
    }


def _public(view, context, league, season):
    crumbs = [Link("Leagues", reverse("public-leagues"))]
    sections: list[Link] = []
    if league is not None:
        crumbs.append(Link(league.name, reverse("public-league", args=[league.slug])))
    if season is not None:
        crumbs.append(Link(season.name, reverse("public-season", args=[league.slug, season.pk])))
        sections = public_season_links(season)
    return crumbs, sections, _title(view, context, PUBLIC_LABELS)


def _workspace(view, context, league, season):
    crumbs = [Link("Workspace", reverse("manage:home"))]
    sections: list[Link] = []
    if league is not None:
        crumbs.append(Link(league.name, reverse("manage:league", args=[league.pk])))
        sections = manage_league_links(league)
    if season is not None:
        crumbs.append(Link(season.name, reverse("manage:season", args=[season.pk])))
        sections = manage_season_links(season)
        if view == "night-manage":
            crumbs.append(Link("Nights", reverse("manage:nights", args=[season.pk])))
    if view in ("brackets:manage-detail", "brackets:manage-correct"):
        crumbs.append(Link("Brackets", reverse("brackets:manage-list")))
        bracket = context.get("bracket")
        if view == "brackets:manage-correct" and bracket is not None:
            crumbs.append(Link(bracket.name, reverse("brackets:manage-detail", args=[bracket.pk])))
    return crumbs, sections, _title(view, context, MANAGE_LABELS)


@register.simple_tag
def public_links(season: Season) -> list[Link]:
    return public_season_links(season)


@register.simple_tag
def workspace_links(season: Season) -> list[Link]:
    return manage_season_links(season)


@register.simple_tag
def season_checklist(season: Season) -> list:
    """The season's set-up steps for its dashboard (``tournaments.selectors.checklist``)."""
    return selectors_checklist.season_checklist(season=season)
