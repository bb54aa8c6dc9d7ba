"""Pages of individual nights: the organiser's night desk, the players' page, and printables.

- ``/manage/nights/<id>/``: the organiser runs the night (login, organiser of the league): check
  players in (walk-ins by name), choose rounds and game length, generate and read the report,
  publish, start each round (captain links and QR codes), see which tables still play, repair.
- ``/nights/<id>/``: the players' page: who sits where in each round, "find my seat" by name.
- ``/nights/<id>/print/chart/`` and ``/print/cards/``: the chart with names and a personal score
  card per player, each with a QR code to that player's seats; ``/manage/nights/<id>/tents/``: one
  table tent per table for the whole night, with the table card's QR code (organisers only: the
  code is the table's scoring secret). ``?paper=letter`` or ``a4``.

Views parse the request, call one service from ``tournaments.services.nights`` and render; a
refused action comes back as a message on the night's page. Forms work without JavaScript; htmx
only refreshes the list of tables still playing.
"""

from __future__ import annotations

import re
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET, require_POST

from core.errors import AccessDeniedError, DomainError, NotFoundError
from core.qr import qr_svg
from league.access import is_league_organiser
from league.forms import form_id, whole_number
from league.models import Attendance, Player
from league.selectors import night_answers
from league.services import player_link_url, roster_player_named
from scoring.games.models import Game
from scoring.standings.selectors import night_race_stakes
from tournaments.domain.rotation import full_cycle_length
from tournaments.models import NightPlan, PlannedRound
from tournaments.selectors.clocks import current_clock, season_round_minutes
from tournaments.selectors.money import night_pot_public
from tournaments.selectors.night_rounds import night_default_rounds
from tournaments.services import nights as services
from tournaments.services import tables as table_services
from tournaments.services.mail import night_email_count
from tournaments.views.clocks import clock_action, clock_context
from tournaments.views.money import payouts_context

PAPERS = {"a4": "A4", "letter": "letter"}

KEEP_APART_ROWS = 3
"""Empty "keep apart" rows the plan form offers below the pairs already on the draft."""

FIXED_TABLE_ROWS = 2
"""Empty "fixed table" rows the plan form offers below the players already fixed."""


def _organiser_night(request, pk: int):
    try:
        return services.night_for_organiser(user=request.user, pk=pk)
    except NotFoundError as error:
        raise Http404(error.message) from error
    except AccessDeniedError as error:
        raise PermissionDenied(error.message) from error


def _public_night_payouts(night) -> dict | None:
    """The night's payouts while its organiser made the season's money public, else ``None``."""
    named = night_pot_public(night=night)
    return None if named is None else payouts_context(named)


def _public_night(pk: int):
    try:
        return services.night_get(pk=pk)
    except NotFoundError as error:
        raise Http404(error.message) from error


def _organises(request, night) -> bool:
    return is_league_organiser(user=request.user, league_id=night.season.league_id)


def _back(night, part: str = "") -> HttpResponseRedirect:
    """Back to the night's desk, at its ``part`` (an element's id) when given."""
    url = reverse("night-manage", args=[night.pk]) + (f"#{part}" if part else "")
    return HttpResponseRedirect(url, status=303)


def _run(request, night, action, done, *, then: str = ""):
    """Call one service; say what happened (``done``: a message, formatted with the service's
    ``result``, or a function of it), or why it was refused, on the night's page: done, at its
    part ``then`` if given (what to read next); refused, at the top, where the message is."""
    try:
        result = action()
    except DomainError as error:
        messages.error(request, error.message)
        return _back(night)
    if callable(done):
        done = done(result)
    messages.success(request, done.format(result=result) if "{" in done else done)
    return _back(night, then)


def _number(value: str, default: int | None = None) -> int | None:
    value = (value or "").strip()
    if not value:
        return default
    number = whole_number(value)
    if number is None:
        raise DomainError(f"{value!r} is not a whole number")
    return number


def _paper(request) -> str:
    return PAPERS.get(request.GET.get("paper", "").lower(), "A4")


# --- the organiser's night desk ---------------------------------------------------------------


def _tables_context(night, charts) -> dict:
    playing = next((c for c in charts if c.status == PlannedRound.Status.STARTED), None)
    upcoming = next((c for c in charts if c.status == PlannedRound.Status.PLANNED), None)
    still_playing, disputed = [], []
    clock = None
    if playing is not None:
        still_playing = [
            t for t in playing.tables if t.game and t.game.status != Game.Status.FINISHED
        ]
        disputed = [
            t
            for t in playing.tables
            if t.game and t.game.confirmation == Game.Confirmation.DISPUTED
        ]
        clock = clock_context(current_clock(night=night, round_number=playing.number))
    return {
        "night": night,
        "playing": playing,
        "upcoming": upcoming,
        "still_playing": still_playing,
        "disputed": disputed,
        "round_over": playing is not None and not still_playing,
        "clock": clock,
        "clock_minutes": season_round_minutes(season=night.season),
    }


@login_required
@require_GET
def night_manage(request, pk: int):
    night = _organiser_night(request, pk)
    plan = NightPlan.objects.filter(night=night).first()
    charts = services.night_chart(night=night, include_draft=True)
    attendances = list(night.attendances.select_related("player").order_by("player__name"))
    present = [a.player for a in attendances if a.left_at is None]
    planned_ids = set()
    if charts:
        first_open = next((c for c in charts if c.status == PlannedRound.Status.PLANNED), None)
        if first_open is not None:
            planned_ids = {p.pk for t in first_open.tables for p in t.players}
            planned_ids |= {p.pk for p in first_open.byes}
    present_ids = {p.pk for p in present}
    needs_repair = bool(
        plan
        and plan.status == NightPlan.Status.PUBLISHED
        and planned_ids
        and planned_ids != present_ids
    )
    context = {
        **_tables_context(night, charts),
        **_check_in_context(night),
        "plan": plan,
        "charts": charts,
        "present": present,
        "full_cycle": full_cycle_length(len(present)) if len(present) >= 4 else 0,
        "default_rounds": night_default_rounds(night=night, player_count=len(present)),
        "game_length": services.night_game_length(night=night),
        "needs_repair": needs_repair,
        "door_open": not services.night_door_closed(night=night),
        "roster_changed": bool(
            plan and plan.status == NightPlan.Status.DRAFT and planned_ids != present_ids
        ),
        "is_finished": night.status == night.Status.FINISHED,
        "stakes": [] if night.status == night.Status.FINISHED else night_race_stakes(night=night),
        "emailed": night_email_count(night=night) if plan else 0,
        **_constraints_context(plan, present),
    }
    return render(request, "nights/manage.html", context)


def _constraints_context(plan: NightPlan | None, present: list[Player]) -> dict:
    """The plan's constraints in words (by name), and the rows of the plan form that edit them:
    the stored ones pre-selected, then a few empty rows."""
    keep_apart = [tuple(pair) for pair in plan.keep_apart] if plan else []
    fixed = sorted(
        ((int(player), table) for player, table in plan.fixed_tables.items()) if plan else (),
        key=lambda item: (item[1], item[0]),
    )
    ids = {player for pair in keep_apart for player in pair} | {player for player, _ in fixed}
    names = {p.pk: p.name for p in Player.objects.filter(pk__in=ids)} if ids else {}
    present_ids = {p.pk for p in present}
    kept_apart_words = [
        (names.get(first, "?"), names.get(second, "?")) for first, second in keep_apart
    ]
    staying = set(plan.stationary) if plan else set()
    fixed_words = [(names.get(player, "?"), table, player in staying) for player, table in fixed]
    keep_apart_rows = [pair for pair in keep_apart if all(player in present_ids for player in pair)]
    fixed_rows = [
        (player, table, player in staying) for player, table in fixed if player in present_ids
    ]
    return {
        "tables": len(present) // 4,
        "kept_apart_words": kept_apart_words,
        "fixed_words": fixed_words,
        "keep_apart_rows": keep_apart_rows + [("", "")] * KEEP_APART_ROWS,
        "fixed_table_rows": fixed_rows + [("", "", False)] * FIXED_TABLE_ROWS,
    }


@login_required
@require_GET
def night_tables(request, pk: int):
    """The round in play, table by table (polled by htmx every few seconds)."""
    night = _organiser_night(request, pk)
    context = _tables_context(night, services.night_chart(night=night, include_draft=True))
    # Polled in place: once the round is over, the desk's "Next" part (still saying the next
    # round starts once every table has finished) is fetched again from the desk.
    response = render(request, "nights/_tables.html", {**context, "polled": True})
    patch_vary_headers(response, ["HX-Request"])
    return response


def _check_in_context(night) -> dict:
    """The night desk's check-in list, its count, its "Undo", the players' answers before the
    night starts and the version the desk polls (see ``_check_in.html``)."""
    rows = services.night_check_in_rows(night=night)
    before_start = night.status in (night.Status.PLANNED, night.Status.CHECK_IN)
    return {
        "night": night,
        "check_in_rows": rows,
        "here": sum(row.state == "here" for row in rows),
        "waiting": sum(row.state == "out" for row in rows),
        "by_self": sum(row.by_self for row in rows),
        "last_change": services.night_last_change(night=night),
        "is_finished": night.status == night.Status.FINISHED,
        "answers": night_answers(night=night) if before_start else None,
        "version": services.night_check_in_version(night=night),
    }


@login_required
@require_GET
def night_check_in_live(request, pk: int):
    """What the desk polls every few seconds: nothing (204) while the check-in list is as the
    desk shows it (``v``, its version), else the list, count and answers swapped out of band,
    so check-ins at the door show up without a reload."""
    night = _organiser_night(request, pk)
    if request.GET.get("v") == services.night_check_in_version(night=night):
        return HttpResponse(status=204)
    response = render(request, "nights/_check_in_live.html", _check_in_context(night))
    response["HX-Trigger"] = "check-in-changed"
    patch_vary_headers(response, ["HX-Request"])
    return response


@login_required
@require_POST
def night_self_check_in_refuse(request, pk: int):
    """Turn down a player's check-in at the door: checked out, and that phone turned away."""
    night = _organiser_night(request, pk)
    player = _roster_player(night, request.POST.get("player"))
    if player is None:
        return _check_in_answer(request, night, _refuse("that player is not on the roster"), "")
    return _check_in_answer(
        request,
        night,
        lambda: services.night_self_check_in_refuse(night=night, player=player, user=request.user),
        lambda words: words,
        player=player,
    )


def _check_in_answer(request, night, action, done, *, player=None, already=None):
    """Call one check-in service and answer the way the form was sent.

    Without JavaScript: the message on the night's page, back at the row's anchor (or the list).
    From htmx: the changed row (``player``'s) or the whole list, with the count, "Undo" and the
    message swapped out of band; a refusal answers 200 with the message, so htmx shows it.
    ``already``: the error a repeated tap meets (a double tap, a retry), answered as a success.
    """
    try:
        result = action()
    except DomainError as error:
        if already is not None and already(error):
            ok, message = True, already(error)
        else:
            ok, message = False, error.message
    else:
        ok, message = True, done(result) if callable(done) else done
    if request.headers.get("HX-Request") != "true":
        (messages.success if ok else messages.error)(request, message)
        anchor = f"#player-{player.pk}" if player is not None else "#check-in"
        return HttpResponseRedirect(reverse("night-manage", args=[night.pk]) + anchor, status=303)
    night.refresh_from_db(fields=["status"])
    context = {**_check_in_context(night), "message": message, "is_error": not ok}
    if player is not None:
        context["row"] = services.night_check_in_row(night=night, player=player)
    response = render(request, "nights/_check_in_answer.html", context)
    if ok:  # the desk's plan and "next round" parts refresh themselves (see manage.html)
        response["HX-Trigger"] = "check-in-changed"
    return response


def _roster_player(night, value) -> Player | None:
    player_id = form_id(value)
    if player_id is None:
        return None
    return Player.objects.filter(pk=player_id, league_id=night.season.league_id).first()


@login_required
@require_POST
def night_check_in(request, pk: int):
    """Check in a roster player (a row's button: a repeated tap is no error) or, by name, a
    walk-in typed into the search box (a name already checked in, or none, is refused)."""
    night = _organiser_night(request, pk)
    player = _roster_player(night, request.POST.get("player"))
    if "player" in request.POST and player is None:
        return _check_in_answer(
            request, night, _refuse("that player is not on this league's roster"), ""
        )
    name = request.POST.get("name", "")
    return _check_in_answer(
        request,
        night,
        lambda: services.night_check_in(night=night, user=request.user, player=player, name=name),
        lambda checked: f"{checked} is checked in.",
        player=player,
        already=(lambda error: f"{player} is checked in." if error.code == "checked_in" else "")
        if player is not None
        else None,
    )


def _refuse(message: str):
    def action():
        raise DomainError(message)

    return action


@login_required
@require_POST
def night_check_out(request, pk: int):
    night = _organiser_night(request, pk)
    player = _roster_player(night, request.POST.get("player"))
    attendance = Attendance.objects.filter(night=night, player=player).first() if player else None
    if attendance is None:
        return _check_in_answer(request, night, _refuse("that player is not checked in"), "")
    published = NightPlan.objects.filter(night=night, status=NightPlan.Status.PUBLISHED).exists()
    return _check_in_answer(
        request,
        night,
        lambda: services.night_check_out(night=night, player=player, user=request.user),
        f"{player} has left." + (" Repair the plan before the next round." if published else ""),
        player=player,
        already=lambda _error: (
            f"{player} has left."
            if Attendance.objects.filter(pk=attendance.pk, left_at__isnull=False).exists()
            else ""
        ),
    )


@login_required
@require_POST
def night_check_in_roster(request, pk: int):
    """ "Check in everyone on the roster": one POST; a second one checks in nobody more."""
    night = _organiser_night(request, pk)

    def done(players) -> str:
        if not players:
            return "Everyone on the roster is already checked in."
        return f"{len(players)} checked in from the roster."

    return _check_in_answer(
        request,
        night,
        lambda: services.night_check_in_roster(night=night, user=request.user),
        done,
    )


@login_required
@require_POST
def night_undo(request, pk: int):
    """Undo the check-in change the form names (its trail entry): sent twice, undone once."""
    night = _organiser_night(request, pk)
    entry = form_id(request.POST.get("entry"))
    if entry is None:
        return _check_in_answer(request, night, _refuse("there is nothing to undo"), "")
    return _check_in_answer(
        request,
        night,
        lambda: services.night_undo_change(night=night, user=request.user, entry_id=entry),
        lambda words: f"{words}.",
    )


@login_required
@require_POST
def night_plan(request, pk: int):
    night = _organiser_night(request, pk)

    def plan():
        present = {p.pk: p for p in services.night_present_players(night=night)}
        return services.night_plan(
            night=night,
            user=request.user,
            rounds=_number(request.POST.get("rounds"), 0),
            hands_per_game=_number(request.POST.get("hands_per_game")),
            seed=_number(request.POST.get("seed"), 0),
            keep_apart=_keep_apart(request.POST, present),
            fixed_tables=_fixed_tables(request.POST, present),
            stationary=_stationary(request.POST, present),
        )

    # The draft's report and its Publish button are below the check-in list: land on them.
    return _run(
        request, night, plan, "Plan generated: read its report, then publish it.", then="plan"
    )


def _form_rows(data, prefix: str, first: str, second: str) -> list[tuple[int, str, str]]:
    """The plan form's numbered rows ``<prefix>-<n>-<first>`` / ``<prefix>-<n>-<second>``:
    ``(n, first value, second value)`` in row order, fully empty rows left out."""
    pattern = re.compile(rf"^{re.escape(prefix)}-([0-9]{{1,9}})-({first}|{second})$")
    rows: dict[int, dict[str, str]] = {}
    for key in data:
        match = pattern.match(key)
        if match:
            rows.setdefault(int(match[1]), {})[match[2]] = data.get(key, "").strip()
    found = [(n, rows[n].get(first, ""), rows[n].get(second, "")) for n in sorted(rows)]
    return [row for row in found if row[1] or row[2]]


def _present_player(value: str, present: dict[int, Player], where: str, field: str) -> Player:
    player = present.get(form_id(value))
    if player is None:
        raise DomainError(f"{where}: that player is not checked in tonight", field=field)
    return player


def _keep_apart(data, present: dict[int, Player]) -> list[list[int]]:
    """The plan form's "keep apart" pairs as player ids; a half-chosen pair is refused."""
    pairs: list[list[int]] = []
    for n, first, second in _form_rows(data, "keep_apart", "first", "second"):
        where = f"keep apart, pair {n}"
        if not first or not second:
            raise DomainError(f"{where}: choose both players, or neither", field="keep_apart")
        one = _present_player(first, present, where, "keep_apart")
        other = _present_player(second, present, where, "keep_apart")
        if one == other:
            raise DomainError(
                f"{where}: {one.name} is chosen twice; choose two different players",
                field="keep_apart",
            )
        pair = sorted((one.pk, other.pk))
        if pair not in pairs:
            pairs.append(pair)
    return pairs


def _fixed_tables(data, present: dict[int, Player]) -> dict[int, int]:
    """The plan form's "fixed table" rows as player id → table number (1 to present // 4, the
    tables the players here fill; the service checks the same bound)."""
    tables = len(present) // 4
    fixed: dict[int, int] = {}
    for n, chosen, table in _form_rows(data, "fixed_table", "player", "table"):
        where = f"fixed table, row {n}"
        if not chosen:
            raise DomainError(f"{where}: choose who plays at table {table}", field="fixed_tables")
        player = _present_player(chosen, present, where, "fixed_tables")
        if not table:
            raise DomainError(f"{where}: give {player.name}'s table number", field="fixed_tables")
        number = whole_number(table)
        if number is None:
            raise DomainError(f"{where}: {table!r} is not a table number", field="fixed_tables")
        if tables and not 1 <= number <= tables:
            raise DomainError(
                f"{where}: there is no table {number}; {len(present)} players fill tables "
                f"1 to {tables}",
                field="fixed_tables",
            )
        if player.pk in fixed:
            raise DomainError(
                f"{where}: {player.name} already has a fixed table", field="fixed_tables"
            )
        fixed[player.pk] = number
    return fixed


def _stationary(data, present: dict[int, Player]) -> list[int]:
    """The players of the "fixed table" rows ticked "stays put" (same table and seat all night,
    never sitting out); the rows themselves are checked by ``_fixed_tables``."""
    staying = []
    for n, chosen, _table in _form_rows(data, "fixed_table", "player", "table"):
        if data.get(f"fixed_table-{n}-stationary") and form_id(chosen) in present:
            staying.append(form_id(chosen))
    return staying


@login_required
@require_POST
def night_publish(request, pk: int):
    night = _organiser_night(request, pk)
    return _run(
        request,
        night,
        lambda: services.night_publish(night=night, user=request.user),
        "Published: players can see where they sit.",
    )


@login_required
@require_POST
def round_start(request, pk: int, number: int):
    night = _organiser_night(request, pk)
    return _run(
        request,
        night,
        lambda: services.round_start(night=night, number=number, user=request.user),
        f"Round {number} has started: hand each table its captain link.",
    )


@login_required
@require_POST
def night_round_clock(request, pk: int, number: int):
    """Start, extend or stop the playing round's clock (``tournaments.views.clocks``). From htmx,
    the desk's tables part again with the message; else back to the desk."""
    night = _organiser_night(request, pk)
    try:
        done = clock_action(request.POST, user=request.user, round_number=number, night=night)
        flash = ("ok", done)
    except DomainError as error:
        flash = ("error", error.message)
    if not request.htmx:
        (messages.success if flash[0] == "ok" else messages.error)(request, flash[1])
        return _back(night)
    context = _tables_context(night, services.night_chart(night=night, include_draft=True))
    response = render(request, "nights/_tables.html", {**context, "clock_flash": flash})
    patch_vary_headers(response, ["HX-Request"])
    return response


@login_required
@require_POST
def round_finish(request, pk: int, number: int):
    night = _organiser_night(request, pk)
    return _run(
        request,
        night,
        lambda: services.round_finish(night=night, number=number, user=request.user),
        f"Round {number} is finished.",
    )


@login_required
@require_POST
def night_repair(request, pk: int):
    night = _organiser_night(request, pk)
    leaver_id = form_id(request.POST.get("substitute_for"))
    leaver = Player.objects.filter(pk=leaver_id).first() if leaver_id else None
    name = request.POST.get("substitute_name", "")
    if leaver is None and ("substitute_for" in request.POST or "substitute_name" in request.POST):
        # The substitute form, naming nobody who is playing: say so, rather than re-plan.
        messages.error(request, "choose the player tonight whose seats the substitute takes")
        return _back(night)
    if leaver is not None:

        def done(_plan) -> str:
            # the roster's player the name checked in, in the roster's spelling
            substitute = roster_player_named(league_id=night.season.league_id, name=name)
            return f"{substitute} takes {leaver}'s seats from the next round."

    else:
        done = "Re-planned the rounds not started; rounds already played are unchanged."
    return _run(
        request,
        night,
        lambda: services.night_repair(
            night=night, user=request.user, substitute_for=leaver, substitute_name=name
        ),
        done,
    )


@login_required
@require_POST
def night_finish(request, pk: int):
    night = _organiser_night(request, pk)
    return _run(
        request,
        night,
        lambda: services.night_finish(night=night, user=request.user),
        "The night is finished.",
    )


# --- the players' page ------------------------------------------------------------------------


def _night_games(night) -> list[Game]:
    """A team season's night: its games, by round and table, each with its sides' names (an
    individual night shows its published rotation instead)."""
    if night.season.format != night.season.Format.TEAMS:
        return []
    games = list(
        Game.objects.filter(night=night)
        .exclude(status=Game.Status.VOIDED)
        .select_related("team_a", "team_b", "seat_0", "seat_1", "seat_2", "seat_3")
        .order_by("round_number", "table_number", "pk")
    )
    for game in games:
        game.side_name_a, game.side_name_b = game.side_name("A"), game.side_name("B")
    return games


@require_GET
def night_public(request, pk: int):
    night = _public_night(pk)
    plan = NightPlan.objects.filter(night=night, status=NightPlan.Status.PUBLISHED).first()
    charts = services.night_chart(night=night) if plan else []
    query = " ".join(request.GET.get("name", "").split())
    matches, schedule, player = [], [], None
    if query and plan:
        everyone = services.night_players(night=night)
        matches = [p for p in everyone if query.lower() in p.name.lower()]
        exact = [p for p in matches if p.name.lower() == query.lower()]
        if len(matches) == 1 or len(exact) == 1:
            player = exact[0] if len(exact) == 1 else matches[0]
            schedule = services.player_schedule(night=night, player=player, charts=charts)
    next_round = next((r for r in schedule if r.status != PlannedRound.Status.FINISHED), None)
    response = render(
        request,
        "nights/public.html",
        {
            "night": night,
            "plan": plan,
            "games": _night_games(night),
            "charts": charts,
            "query": query,
            "matches": matches,
            "player": player,
            "schedule": schedule,
            "next_round": next_round,
            "game_length": services.night_game_length(night=night),
            "payouts": _public_night_payouts(night),
        },
    )
    patch_vary_headers(response, ["HX-Request"])
    return response


# --- printables -------------------------------------------------------------------------------


@require_GET
def print_chart(request, pk: int):
    """The night's chart on paper: a published plan (a draft only for its organisers)."""
    night = _public_night(pk)
    return render(
        request,
        "nights/print_chart.html",
        {
            "night": night,
            "charts": services.night_chart(night=night, include_draft=_organises(request, night)),
            "paper": _paper(request),
            "game_length": services.night_game_length(night=night),
        },
    )


@require_GET
def print_cards(request, pk: int):
    """Every player's score card: a published plan (a draft only for its organisers). Printed
    by an organiser, each card's QR code is the player's own link (``/me/<token>/``, a secret
    of theirs); printed by anyone else, the players' page's "find my seat" for that name."""
    night = _public_night(pk)
    organises = _organises(request, night)
    charts = services.night_chart(night=night, include_draft=organises)
    seats = reverse("night-public", args=[night.pk])
    cards = []
    for player in services.night_players(night=night):
        own = player_link_url(player=player, request=request) if organises else None
        link = own or request.build_absolute_uri(f"{seats}?{urlencode({'name': player.name})}")
        title = f"{player.name}'s own page" if own else f"{player.name}'s seats tonight"
        cards.append(
            {
                "player": player,
                "rounds": services.player_schedule(night=night, player=player, charts=charts),
                "link": link,
                "is_own_link": own is not None,
                "qr": qr_svg(link, title=title, scale=3),
            }
        )
    return render(
        request,
        "nights/print_cards.html",
        {
            "night": night,
            "cards": [card for card in cards if card["rounds"]],
            "paper": _paper(request),
            "game_length": services.night_game_length(night=night),
        },
    )


@login_required
@require_GET
def print_tents(request, pk: int, number: int | None = None):
    """One tent per table for the whole night, each with the table card's QR code: it opens
    whatever the table plays now, so the tents are printed once. (``number``: the old per-round
    address, which prints the same.)"""
    night = _organiser_night(request, pk)
    tents = []
    for card in table_services.night_table_cards(night=night, user=request.user):
        link = request.build_absolute_uri(reverse("table-card", args=[card.token]))
        tents.append({"number": card.number, "link": link, "qr": qr_svg(link)})
    door = request.build_absolute_uri(reverse("night-door", args=[night.pk, night.door_token]))
    return render(
        request,
        "nights/print_tents.html",
        {
            "night": night,
            "tents": tents,
            "door": door,
            "door_qr": qr_svg(door, title="Check in for tonight", scale=3),
            "paper": _paper(request),
            "game_length": services.night_game_length(night=night),
        },
    )
