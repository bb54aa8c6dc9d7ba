"""The wall: a season's display page for a TV in the room (``/l/<league>/s/<season>/wall/``).

A kiosk page: no login, nothing to press, no scrollbar. Its *panels* are the current round's
seating, the next round's once published, the live scores of the tables playing, the standings
(a page of rows each) and the season's bracket drawn to fill the screen. ``static/js/wall.js``
shows one panel at a time and turns to the next every few seconds; without JavaScript the panels
stand one under the other. The panels poll their own partial (htmx, ``HX-Request``) and are
cached as the public pages are: keyed on the season's versions, plus what seats the room
(``wall_version``: a plan published, a round started), so a new hand or a started round is a new
key and nothing has to be invalidated.
"""

from __future__ import annotations

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.views.decorators.vary import vary_on_headers

from scoring.standings import selectors as standings_selectors
from scoring.standings.public.views import public, standings_context
from tournaments.selectors.brackets import bracket_summary
from tournaments.services.wall import wall_get, wall_version
from tournaments.views.brackets import BOX_GEOMETRY, bracket_drawing

CACHE_SECONDS = 300
"""A cached wall lives this long at most; a new hand, snapshot or round is a new key before."""
TABLES_PER_PANEL = 8
"""Two rows of four tables: four names a table stay 28 pixels tall or more on a 1080p screen."""
ROWS_PER_PANEL = 14
"""Standings rows a panel shows at a readable size on a 1080p screen."""
POLL_LIVE, POLL_QUIET = "every 5s", "every 60s"


def _pages(items: list, size: int) -> list[list]:
    return [items[start : start + size] for start in range(0, len(items), size)] or [[]]


def _round_panels(kind: str, label: str, wall_round) -> list[dict]:
    if wall_round is None:
        return []
    pages = _pages(wall_round.tables, TABLES_PER_PANEL)
    return [
        {
            "kind": kind,
            "id": f"{kind}-{index}",
            "title": f"{label}: {wall_round.title}"
            + (f" ({index}/{len(pages)})" if len(pages) > 1 else ""),
            "round": wall_round,
            "tables": tables,
            "byes": wall_round.byes if index == len(pages) else [],
        }
        for index, tables in enumerate(pages, start=1)
    ]


def _context(season) -> dict:
    context = standings_context(season)
    wall = wall_get(season=season)
    panels = _round_panels("now", "Now", wall.current) + _round_panels("next", "Next", wall.next)
    if context["games_in_progress"]:
        panels.append({"kind": "live", "id": "live", "title": "Live scores"})
    rows = [row for row in context["rows"] if row["qualified"]]
    pages = _pages(rows, ROWS_PER_PANEL)
    for index, page in enumerate(pages, start=1):
        suffix = f" ({index}/{len(pages)})" if len(pages) > 1 else ""
        panels.append(
            {
                "kind": "standings",
                "id": f"standings-{index}",
                "title": f"Standings{suffix}",
                "rows": page,
            }
        )
    if wall.bracket is not None:
        summary = bracket_summary(bracket=wall.bracket)
        panels.append(
            {
                "kind": "bracket",
                "id": "bracket",
                "title": wall.bracket.name,
                "sections": bracket_drawing(summary),
                "bracket": wall.bracket,
            }
        )
        context["is_live"] = context["is_live"] or summary.is_live
    context.update(wall=wall, panels=panels, box=BOX_GEOMETRY)
    context["poll"] = POLL_LIVE if context["is_live"] or wall.current else POLL_QUIET
    return context


@public
@vary_on_headers("HX-Request")
def wall_page(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    league = standings_selectors.league_public_get(slug=slug)
    season = standings_selectors.season_public_get(league=league, season_id=season_id)
    versions = ":".join(map(str, standings_selectors.season_page_versions(season_id=season.pk)))
    part = "partial" if request.htmx else "page"
    key = f"public:wall:{request.path}:{part}:{versions}:{wall_version(season=season)}"
    content = cache.get(key)
    if content is None:
        template = "wall/_panels.html" if request.htmx else "wall/wall.html"
        content = render_to_string(template, _context(season), request)
        cache.set(key, content, CACHE_SECONDS)
    return HttpResponse(content)
