"""The organiser's workspace pages that read or change results: a season's dashboard of games in
play, unconfirmed and disputed; settling a dispute; the scoring rules; exports of standings, games
and hands. They live in ``scoring`` (which may use ``league``) and share the ``manage`` URL
namespace and the workspace's door (``league.manage.views.workspace``) with the league pages.
"""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_http_methods

from core.errors import DomainError
from league import access
from league.domain.rules import Rulebook as RulebookRules
from league.forms import RulebookOptionsForm, SettleForm
from league.manage import exports
from league.manage.views import csv_response, form_error, workspace
from scoring.games import services as scoring_services
from scoring.games.access import game_for_organiser
from scoring.games.models import Game, Hand
from scoring.games.selectors import (
    game_counting_hands,
    hand_callers_and_dealers,
    season_games_in_progress,
    season_results_version,
)
from scoring.standings.manage import exports as hand_exports
from scoring.standings.manage.forms import PlayoffSpotsForm
from scoring.standings.selectors import season_snapshot_get
from scoring.standings.services.recompute import season_rules as season_ranking_rules
from scoring.standings.services.recompute import (
    season_set_standing_rules,
    season_standings_recompute,
)


@workspace
@require_http_methods(["GET", "POST"])
def season_rules(request, pk: int):
    season = access.season_for_organiser(user=request.user, pk=pk)
    base = RulebookRules.from_options(season.rulebook.options)
    form = RulebookOptionsForm(request.POST or None, base=base)
    if request.method == "POST" and form.is_valid():
        try:
            new = scoring_services.season_change_rules(
                season=season, options=form.options(), user=request.user
            )
        except DomainError as error:
            form_error(form, error)
        else:
            messages.success(
                request, f"The rules are now {new}; every hand is being re-scored under them."
            )
            return redirect("manage:season", pk=season.pk)
    status = 400 if form.errors else 200
    context = {
        "season": season,
        "league": season.league,
        "form": form,
        "playoffs_form": _playoffs_form(season),
    }
    return render(request, "manage/season_rules.html", context, status=status)


def _playoffs_form(season, data=None) -> PlayoffSpotsForm:
    try:
        spots = season_ranking_rules(season).playoff_spots
    except DomainError:
        spots = None
    return PlayoffSpotsForm(data, initial={"playoff_spots": spots})


@workspace
@require_http_methods(["POST"])
def season_playoffs(request, pk: int):
    """Set how many teams make the playoffs (one of the season's standing rules)."""
    season = access.season_for_organiser(user=request.user, pk=pk)
    form = _playoffs_form(season, request.POST)
    if form.is_valid():
        rules = {**(season.standing_rules or {}), **form.cleaned_data}
        try:
            season_set_standing_rules(season=season, rules=rules, user=request.user)
        except DomainError as error:
            form_error(form, error)
        else:
            spots = form.cleaned_data["playoff_spots"]
            messages.success(request, f"{spots} teams now make the playoffs.")
            return redirect("manage:season-rules", pk=season.pk)
    base = RulebookRules.from_options(season.rulebook.options)
    context = {
        "season": season,
        "league": season.league,
        "form": RulebookOptionsForm(base=base),
        "playoffs_form": form,
    }
    return render(request, "manage/season_rules.html", context, status=400)


def _game_lines(games) -> list[dict]:
    return [
        {"game": game, "side_a": game.side_name("A"), "side_b": game.side_name("B")}
        for game in games
    ]


@workspace
def season_dashboard(request, pk: int):
    season = access.season_for_organiser(user=request.user, pk=pk)
    games = Game.objects.filter(season=season).select_related(
        "team_a", "team_b", "seat_0", "seat_1", "seat_2", "seat_3", "night"
    )
    finished = games.filter(status=Game.Status.FINISHED)
    sections = [
        ("Disputed", finished.filter(confirmation=Game.Confirmation.DISPUTED), "disputed"),
        ("Waiting for confirmation", finished.filter(confirmation="pending"), "unconfirmed"),
        ("Playing now", season_games_in_progress(season=season), "in-progress"),
    ]
    context = {
        "season": season,
        "league": season.league,
        "sections": [(title, _game_lines(query), kind) for title, query, kind in sections],
        "has_games": games.exists(),
    }
    template = "manage/_season_games.html" if request.htmx else "manage/season.html"
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    return response


@workspace
@require_http_methods(["GET", "POST"])
def game_settle(request, pk: int):
    game = game_for_organiser(user=request.user, pk=pk)
    form = SettleForm(request.POST or None, game=game)
    if request.method == "POST" and form.is_valid():
        values = form.cleaned_data
        hand = None
        if values["decision"] == "correct":
            hand = scoring_services.HandInput.from_data(values)  # the facts named as in FACTS
        try:
            scoring_services.game_settle_dispute(
                game=game,
                user=request.user,
                decision=values["decision"],
                reason=values["reason"],
                number=values.get("number"),
                data=hand,
            )
        except DomainError as error:
            form_error(form, error)
        else:
            messages.success(request, f"Game {game.pk} settled.")
            return redirect("manage:season", pk=game.season_id)
    hands = game_counting_hands(game=game)
    # who called and who dealt each hand, which a dispute is often about
    people = hand_callers_and_dealers(game=game, hands=hands)
    context = {
        "game": game,
        "side_a": game.side_name("A"),
        "side_b": game.side_name("B"),
        "season": game.season,
        "league": game.season.league,
        "hands": [(hand, *names) for hand, names in zip(hands, people, strict=True)],
        "form": form,
    }
    return render(request, "manage/settle.html", context, status=400 if form.errors else 200)


@workspace
def export_standings(request, pk: int):
    season = access.season_for_organiser(user=request.user, pk=pk)
    snapshot = season_snapshot_get(season=season)
    if snapshot is None or snapshot.results_version < season_results_version(season_id=season.pk):
        snapshot = season_standings_recompute(season_id=season.pk) or season_snapshot_get(
            season=season
        )
    rows = exports.standings_rows(snapshot.standings if snapshot else None)
    text = exports.csv_text(exports.STANDINGS_COLUMNS, rows)
    return csv_response(f"season-{season.pk}-standings.csv", text)


@workspace
def export_games(request, pk: int):
    season = access.season_for_organiser(user=request.user, pk=pk)
    games = (
        Game.objects.filter(season=season)
        .select_related("night", "team_a", "team_b", "seat_0", "seat_1", "seat_2", "seat_3")
        .order_by("pk")
    )
    text = exports.csv_text(exports.GAME_COLUMNS, exports.game_rows(games))
    return csv_response(f"season-{season.pk}-games.csv", text)


@workspace
def export_hands(request, pk: int):
    season = access.season_for_organiser(user=request.user, pk=pk)
    hands = (
        Hand.objects.filter(game__season=season, status=Hand.Status.ACTIVE)
        .select_related("caller")
        .order_by("game_id", "number")
    )
    text = exports.csv_text(hand_exports.HAND_COLUMNS, hand_exports.hand_rows(hands))
    return csv_response(f"season-{season.pk}-hands.csv", text)
