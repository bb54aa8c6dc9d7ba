"""The public pages: leagues, a league's home, season standings (live), nights, players and teams
(the wall, which the projector's address now leads to, is ``tournaments.views.wall``). Read only,
no login. They read the standings snapshot; they never compute.

- *live*: a season is live while one of its games is in progress or its snapshot is behind its
  results (a recompute is pending). A live standings page polls its own partial every 5 seconds
  (htmx); the partial it gets back stops the polling once the season is no longer live.
- *cached*: the standings, night and team pages are cached under a key made of the
  season's results version and its snapshot's version, so a new hand or a new snapshot is a new
  key, and nothing has to be invalidated. Full page and htmx partial share a URL, so they vary on
  ``HX-Request``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.core.cache import cache
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.views.decorators.http import require_safe
from django.views.decorators.vary import vary_on_headers

from core.errors import DomainError, NotFoundError
from core.links import link_by_pk
from league.models import Night, Player, Season, Team
from scoring.games import selectors
from scoring.standings import selectors as standings_selectors
from scoring.standings.domain.standings import SeasonRules
from scoring.standings.public import present
from scoring.standings.public.chart import season_chart
from scoring.standings.services.recompute import season_rules

CACHE_SECONDS = 300
"""A cached page lives this long at most; a new hand or snapshot makes a new key long before."""
POLL = "every 5s"


def public(view: Callable) -> Callable:
    """GET/HEAD only; a missing league, season or player is a 404."""

    @require_safe
    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except NotFoundError as error:
            raise Http404(str(error)) from None

    return wrapped


def _cached(request: HttpRequest, name: str, season_id: int, build: Callable[[], str]) -> str:
    """The page from the cache, keyed on the season's versions, or ``build()`` it and keep it."""
    versions = ":".join(map(str, standings_selectors.season_page_versions(season_id=season_id)))
    partial = "partial" if request.htmx else "page"
    key = f"public:{name}:{request.path}:{partial}:{versions}"
    content = cache.get(key)
    if content is None:
        content = build()
        cache.set(key, content, CACHE_SECONDS)
    return content


def _named(games: list) -> list:
    """Give each game ``side_name_a``/``side_name_b`` for the templates (team or two players)."""
    for game in games:
        game.side_name_a, game.side_name_b = game.side_name("A"), game.side_name("B")
    return games


def _playoffs_listed(games: list) -> bool:
    """Whether a list of games shows a playoff game (marked: it counts in no standings)."""
    return any(not game.counts_for_standings for game in games)


def _rules(season: Season) -> SeasonRules | None:
    try:
        return season_rules(season)
    except DomainError:
        return None  # rules the engine refuses: the snapshot (if any) still says its chain


def _entrant_link(season: Season) -> Callable[[int], str]:
    slug = season.league.slug
    if season.format == Season.Format.TEAMS:
        return link_by_pk("public-team", slug, season.pk)
    return link_by_pk("public-player", slug)


def _night_labels(season: Season) -> dict[int, str]:
    return {
        night.pk: f"{night.date:%b} {night.date.day}"
        for night in Night.objects.filter(season=season).not_archived().only("pk", "date")
    }


def standings_context(season: Season) -> dict:
    """Everything the standings partial shows: rows, status, chart and the games being played."""
    snapshot = standings_selectors.season_snapshot_get(season=season)
    in_progress = _named(selectors.season_games_in_progress(season=season))
    rules = _rules(season)
    version = selectors.season_results_version(season_id=season.pk)
    is_pending = snapshot is None or snapshot.results_version < version
    if snapshot is None and version == 0:
        is_pending = False  # nothing played yet: nothing to wait for
    context = {
        "season": season,
        "league": season.league,
        "snapshot": snapshot,
        "games_in_progress": in_progress,
        "is_pending": is_pending,
        "is_live": bool(in_progress) or is_pending,
        "rows": [],
        "chart": None,
        "chain": "",
        "race": None,
        "projection": None,
        "has_draws": False,
    }
    if snapshot is not None:
        standings = snapshot.standings
        context["rows"] = present.standing_rows(
            standings["rows"], _entrant_link(season), standings["tiebreaks"]
        )
        context["has_draws"] = present.has_draws(standings["rows"])
        context["chain"] = present.chain_sentence(
            standings["tiebreaks"], standings["coin_flip_seed"]
        )
        context["min_games"] = standings["min_games"]
        race = snapshot.race or {}
        if snapshot.race_version == snapshot.results_version and present.race_is_shown(race):
            columns = present.race_columns(race)
            for row in context["rows"]:
                row["race"] = columns.get(row["entrant"])
            context["race"] = {**race, "runs_text": f"{race['runs']:,}"}
        elif snapshot.race_version == snapshot.results_version and present.projection_is_shown(
            race
        ):
            columns = present.projection_columns(race)
            for row in context["rows"]:
                row["projected"] = columns.get(row["entrant"])
            context["projection"] = {**race, "runs_text": f"{race['runs']:,}"}
        context["chart"] = season_chart(
            snapshot.nights,
            order=[row["entrant"] for row in standings["rows"]],
            names={row["entrant"]: row["name"] for row in standings["rows"]},
            night_labels=_night_labels(season),
        )
    elif rules is not None:
        context["chain"] = present.chain_sentence(rules.chain, rules.coin_flip_seed)
    context["rules"] = present.rules_sentences(rules) if rules is not None else []
    return context


@public
def league_list(request: HttpRequest) -> HttpResponse:
    return render(
        request, "public/league_list.html", {"leagues": standings_selectors.league_public_list()}
    )


@public
def league_home(request: HttpRequest, slug: str) -> HttpResponse:
    league = standings_selectors.league_public_get(slug=slug)
    seasons = list(league.seasons.not_archived().order_by("-starts_on", "-pk"))
    nights = Night.objects.filter(season__league=league).not_archived().select_related("season")
    today = timezone.localdate()
    # Tonight and the nights before it, newest first; apart, the next few to come, soonest first
    # (a season's weekly series would otherwise fill "recent" with nights months ahead).
    recent = list(nights.filter(date__lte=today).order_by("-date", "-pk")[:10])
    coming = list(nights.filter(date__gt=today).order_by("date", "pk")[:3])
    players = list(league.players.filter(is_active=True).order_by("name", "pk"))
    return render(
        request,
        "public/league_home.html",
        {
            "league": league,
            "seasons": seasons,
            "nights": recent,
            "coming": coming,
            "players": players,
        },
    )


@public
@vary_on_headers("HX-Request")
def season_standings(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    league = standings_selectors.league_public_get(slug=slug)

    def build() -> str:
        season = standings_selectors.season_public_get(league=league, season_id=season_id)
        context = standings_context(season)
        if request.htmx:
            return render_to_string("public/_standings.html", context, request)
        context["nights"] = list(season.nights.not_archived().order_by("date", "pk"))
        return render_to_string("public/season.html", context, request)

    standings_selectors.season_public_get(league=league, season_id=season_id)
    return HttpResponse(_cached(request, "standings", season_id, build))


@public
def projector(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    """The projector's old address, kept for the screens set up with it: the wall replaced it."""
    return redirect("public-wall", slug=slug, season_id=season_id)


@public
def night_results(request: HttpRequest, slug: str, season_id: int, night_id: int) -> HttpResponse:
    league = standings_selectors.league_public_get(slug=slug)
    season = standings_selectors.season_public_get(league=league, season_id=season_id)
    night = Night.objects.filter(season=season, pk=night_id).not_archived().first()
    if night is None:
        raise Http404("no such night in this season")

    def build() -> str:
        snapshot = standings_selectors.season_snapshot_get(season=season)
        games = _named(selectors.night_games(night=night))
        link_of = _entrant_link(season)
        names = (
            {row["entrant"]: row["name"] for row in snapshot.standings["rows"]} if snapshot else {}
        )
        lines = []
        for entry in snapshot.nights if snapshot else []:
            if entry["night"] != night.pk:
                continue
            for entrant, line in entry["entrants"].items():
                pk = int(entrant)
                lines.append(
                    {
                        "name": names.get(pk, f"#{pk}"),
                        "url": link_of(pk),
                        "games": line["games"],
                        "wins": line["wins"],
                        "points": present.number(line["points"]),
                        "sort": (-line["wins"], -line["points"], names.get(pk, "")),
                    }
                )
        lines.sort(key=lambda line: line["sort"])
        context = {
            "league": league,
            "season": season,
            "night": night,
            "games": games,
            "lines": lines,
            "is_live": any(game.status == "in_progress" for game in games),
        }
        return render_to_string("public/night.html", context, request)

    return HttpResponse(_cached(request, f"night{night.pk}:{night.status}", season.pk, build))


@public
def team_page(request: HttpRequest, slug: str, season_id: int, team_id: int) -> HttpResponse:
    league = standings_selectors.league_public_get(slug=slug)
    season = standings_selectors.season_public_get(league=league, season_id=season_id)
    team = (
        Team.objects.filter(season=season, pk=team_id)
        .select_related("player_one", "player_two")
        .first()
    )
    if team is None:
        raise Http404("no such team in this season")

    def build() -> str:
        # The team's own stored lines and its players' ratings, not the whole snapshot.
        standing = standings_selectors.standing_rows_of(season_ids=[season.pk], entrant_id=team.pk)
        stats = standings_selectors.season_lines(
            season_id=season.pk, kind="team", entrant_ids=[team.pk]
        )
        row = standing.get(season.pk)
        line = stats[0] if stats else None
        team_names = dict(season.teams.values_list("pk", "name"))
        link_of = _entrant_link(season)
        ratings = {
            rating["player_id"]: rating
            for rating in standings_selectors.season_lines(
                season_id=season.pk, kind="rating", entrant_ids=team.player_ids
            )
        }
        context = {
            "league": league,
            "season": season,
            "team": team,
            "row": row,
            "stats": present.stat_lines(line) if line else [],
            "opponents": present.pair_rows(line["opponents"], team_names, link_of) if line else [],
            "players": [
                (player, ratings.get(player.pk)) for player in (team.player_one, team.player_two)
            ],
            "games": _named(selectors.team_games(team=team)),
        }
        context["playoffs_listed"] = _playoffs_listed(context["games"])
        return render_to_string("public/team.html", context, request)

    return HttpResponse(_cached(request, f"team{team.pk}", season.pk, build))


@public
def player_page(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    league = standings_selectors.league_public_get(slug=slug)
    player = Player.objects.filter(league=league, pk=player_id).first()
    if player is None:
        raise Http404("no such player in this league")
    names = dict(Player.objects.filter(league=league).values_list("pk", "name"))

    player_link = link_by_pk("public-player", slug)
    seasons = []
    # Only the player's stored lines are read, never a snapshot's megabytes of stats.
    with_snapshot = list(
        league.seasons.not_archived().filter(snapshot__isnull=False).order_by("-starts_on", "-pk")
    )
    lines = standings_selectors.player_lines(
        season_ids=[season.pk for season in with_snapshot], player_id=player.pk
    )
    teams = {
        team.season_id: team
        for team in Team.objects.filter(season__in=with_snapshot)
        .filter(Q(player_one=player) | Q(player_two=player))
        .order_by("-pk")
    }
    for season in with_snapshot:
        mine = lines.get(season.pk, {})
        line = mine.get("player")
        if line is None:
            continue
        seasons.append(
            {
                "season": season,
                "row": mine.get("standing"),
                "rating": mine.get("rating"),
                "stats": present.stat_lines(line),
                "partners": present.pair_rows(line["partners"], names, player_link),
                "opponents": present.pair_rows(line["opponents"], names, player_link),
                "team": teams.get(season.pk),
            }
        )
    games = selectors.player_games(player=player, limit=20)
    context = {
        "league": league,
        "player": player,
        "seasons": seasons,
        "games": _named(games.recent),
        "upcoming": _named(games.upcoming),
        "playoffs_listed": _playoffs_listed(games.recent),
    }
    return render(request, "public/player.html", context)
