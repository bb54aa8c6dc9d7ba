"""The organiser's workspace at ``/manage/``: parse the form, call one service, render.

Who may see or change what is decided by the access functions in :mod:`league.access` (and
``scoring.games.access.game_for_organiser``), never here: every view asks one of them for its
object. :func:`workspace` turns their refusals into pages: not signed in → the login page, no such
thing → 404, not an organiser of this league → 403. Every form posts with Django's CSRF token (htmx
requests send it in a header set once on the page).
"""

from __future__ import annotations

from functools import wraps

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.decorators import method_decorator
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST

from core.errors import AccessDeniedError, DomainError, NotFoundError
from core.qr import qr_svg
from league import access, services
from league.domain.pasted import recurring_dates
from league.domain.rules import PRESETS, preset_rulebook
from league.domain.rules import Rulebook as RulebookRules
from league.forms import (
    ROSTER_TEMPLATE,
    ApiTokenForm,
    DeactivateForm,
    EmailConsentForm,
    InvitationForm,
    LeagueForm,
    NightForm,
    PartnerBalanceForm,
    PlayerForm,
    RecurringNightsForm,
    RosterImportForm,
    RosterPasteForm,
    RulebookOptionsForm,
    SeasonForm,
    SignupForm,
    TeamForm,
    TeamsPasteForm,
    UsualRoundsForm,
)
from league.manage import exports
from league.models import Season


def workspace(view):
    """Signed-in users only; access refusals become 403 / 404 pages."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path(), settings.LOGIN_URL)
        try:
            return view(request, *args, **kwargs)
        except NotFoundError as error:
            raise Http404(error.message) from None
        except AccessDeniedError as error:
            return render(request, "manage/denied.html", {"message": error.message}, status=403)

    return wrapper


def form_error(form, error: DomainError) -> None:
    field = error.field if error.field in form.fields else None
    form.add_error(field, error.message)


# --- Accounts ---


def login_attempts_limited(view):
    """A sign-in view (the workspace's, the admin's) slowed down for an attacker without locking
    the real user out: a failed attempt (the form shown again, not a redirect) counts against its
    username-and-address pair (``league.access.login_wait``, ``settings.LOGIN_RATE``); past the
    limit that pair is answered 429 with ``Retry-After`` until its window ends, when the count
    starts again. The same username from another address, or another from this one, is not."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if request.method != "POST":
            return view(request, *args, **kwargs)
        username = request.POST.get("username", "")
        wait = access.login_wait(request, username=username)
        if wait is not None:
            context = {"wait": wait}
            response = render(request, "registration/too_many_attempts.html", context, status=429)
            response["Retry-After"] = str(wait)
            return response
        response = view(request, *args, **kwargs)
        if response.status_code != 302:
            access.login_failed(request, username=username)
        return response

    return wrapper


@method_decorator(login_attempts_limited, name="dispatch")
class LoginView(auth_views.LoginView):
    """Django's login, slowed down per username and address (:func:`login_attempts_limited`)."""

    template_name = "registration/login.html"


class LogoutView(auth_views.LogoutView):
    next_page = "manage:login"


@require_http_methods(["GET", "POST"])
def signup(request):
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.get_username()}. Create your league below.")
        target = request.GET.get("next", "")
        if not url_has_allowed_host_and_scheme(
            target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        ):
            target = "manage:home"
        return redirect(target)
    return render(request, "registration/signup.html", {"form": form})


# --- Leagues and organisers ---


@workspace
def home(request):
    leagues = access.leagues_for_organiser(user=request.user).prefetch_related("seasons")
    return render(request, "manage/home.html", {"leagues": leagues})


@workspace
@require_http_methods(["GET", "POST"])
def league_new(request):
    form = LeagueForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            league = services.league_create(owner=request.user, **form.cleaned_data)
        except DomainError as error:
            form_error(form, error)
        else:
            messages.success(request, f"{league.name} is ready. Add a season and a roster.")
            return redirect("manage:league", pk=league.pk)
    return render(request, "manage/league_new.html", {"form": form})


def _league_context(request, league, **extra):
    is_owner = access.is_league_owner(user=request.user, league_id=league.pk)
    return {
        "league": league,
        "is_owner": is_owner,
        "roles": league.roles.select_related("user").order_by("created_at"),
        "invitations": league.invitations.filter(accepted_at=None) if is_owner else [],
        "seasons": league.seasons.not_archived(),
        "invite_form": InvitationForm(),
        **extra,
    }


@workspace
def league_detail(request, pk: int):
    league = access.league_for_organiser(user=request.user, pk=pk)
    return render(request, "manage/league.html", _league_context(request, league))


@workspace
@require_POST
def league_invite(request, pk: int):
    league = access.league_for_owner(user=request.user, pk=pk)
    form = InvitationForm(request.POST)
    if form.is_valid():
        invitation = services.invitation_create(
            league=league, user=request.user, email=form.cleaned_data["email"]
        )
        link = request.build_absolute_uri(reverse("manage:invitation", args=[invitation.token]))
        messages.success(request, f"Send this link to your co-organiser: {link}")
        return redirect("manage:league", pk=league.pk)
    context = _league_context(request, league, invite_form=form)
    return render(request, "manage/league.html", context, status=400)


@workspace
@require_http_methods(["GET", "POST"])
def invitation(request, token: str):
    invite = access.invitation_for_invitee(token=token)
    if request.method == "POST":
        try:
            services.invitation_accept(invitation=invite, user=request.user)
        except DomainError as error:
            messages.error(request, error.message)
            return redirect("manage:home")
        messages.success(request, f"You now co-organise {invite.league.name}.")
        return redirect("manage:league", pk=invite.league_id)
    return render(request, "manage/invitation.html", {"invitation": invite})


# --- The organiser's own API tokens ---


@workspace
@require_http_methods(["GET", "POST"])
def api_tokens(request):
    """Make a named API token (its key shown on this answer only), list one's tokens."""
    form = ApiTokenForm(request.POST or None)
    key, status = None, 200
    if request.method == "POST":
        if form.is_valid():
            try:
                _token, key = services.api_token_create(user=request.user, **form.cleaned_data)
            except DomainError as error:
                form_error(form, error)
            else:
                form = ApiTokenForm()
        status = 400 if form.errors else 200
    context = {
        "form": form,
        "key": key,
        "tokens": access.api_tokens_of(user=request.user),
        "api_root": request.build_absolute_uri("/api/v1/"),
    }
    response = render(request, "manage/tokens.html", context, status=status)
    response["Cache-Control"] = "no-store"  # the page may hold a key: never keep it
    return response


@workspace
@require_POST
def api_token_revoke(request, pk: int):
    token = access.api_token_for_owner(user=request.user, pk=pk)
    services.api_token_revoke(token=token)
    messages.success(request, f"Token “{token.name}” revoked: it opens nothing from now on.")
    return redirect("manage:tokens")


# --- Seasons and rules ---


@workspace
@require_http_methods(["GET", "POST"])
def season_new(request, pk: int):
    league = access.league_for_organiser(user=request.user, pk=pk)
    data = request.POST or None
    form = SeasonForm(data, initial={"preset": "standard", "format": Season.Format.TEAMS})
    preset = (request.POST.get("preset") or request.GET.get("preset") or "standard").strip()
    base = PRESETS[preset].rulebook if preset in PRESETS else RulebookRules()
    options_form = RulebookOptionsForm(data, base=base, prefix="rules")
    if request.method == "POST" and form.is_valid():
        values = form.cleaned_data
        customise = values["customise"]
        if not customise or options_form.is_valid():
            try:
                season = _season_create(request, league, values, options_form, customise)
            except DomainError as error:
                form_error(form, error)
            else:
                messages.success(request, f"Season {season.name} created.")
                return redirect("manage:season", pk=season.pk)
    if request.htmx and request.method == "GET":
        return render(request, "manage/_rule_options.html", {"options_form": options_form})
    return render(
        request,
        "manage/season_new.html",
        {"league": league, "form": form, "options_form": options_form, "presets": PRESETS},
    )


def _season_create(request, league, values, options_form, customise):
    from django.db import transaction

    with transaction.atomic():
        rulebook = None
        if customise:
            changed = options_form.options()
            if changed != preset_rulebook(values["preset"]).to_options():
                rulebook = services.rulebook_create(
                    league=league,
                    name=f"{PRESETS[values['preset']].name} (custom)",
                    preset=values["preset"],
                    options=changed,
                    user=request.user,
                )
        return services.season_create(
            league=league,
            name=values["name"],
            format=values["format"],
            rulebook=rulebook,
            preset=values["preset"],
            starts_on=values["starts_on"],
            ends_on=values["ends_on"],
            usual_rounds=values["usual_rounds"],
            balance_partner_strength=values["balance_partner_strength"],
            user=request.user,
        )


# --- Roster and teams ---


def _roster_context(league, **extra):
    return {
        "league": league,
        "players": league.players.all(),
        "paste_form": RosterPasteForm(),
        **extra,
    }


@workspace
@require_http_methods(["GET", "POST"])
def roster(request, pk: int):
    league = access.league_for_organiser(user=request.user, pk=pk)
    form = PlayerForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            player = services.player_create(league=league, user=request.user, **form.cleaned_data)
        except DomainError as error:
            form_error(form, error)
        else:
            messages.success(request, f"{player.name} added to the roster.")
            return redirect("manage:roster", pk=league.pk)
    status = 400 if form.errors else 200
    return render(request, "manage/roster.html", _roster_context(league, form=form), status=status)


@workspace
@require_http_methods(["GET", "POST"])
def player_edit(request, pk: int):
    player = access.player_for_organiser(user=request.user, pk=pk)
    form = PlayerForm(request.POST or None, initial={"name": player.name, "email": player.email})
    if request.method == "POST" and form.is_valid():
        try:
            services.player_update(player=player, user=request.user, **form.cleaned_data)
        except DomainError as error:
            form_error(form, error)
        else:
            messages.success(request, "Player saved.")
            return redirect("manage:roster", pk=player.league_id)
    status = 400 if form.errors else 200
    return _player_edit_page(request, player, form=form, status=status)


def _player_edit_page(request, player, *, form=None, consent_form=None, status: int = 200):
    counting, waiting = services.email_consent_status(player=player)
    if consent_form is None:
        consent_form = EmailConsentForm(
            initial={"consent_email": counting.email if counting else player.email}
        )
    if form is None:
        form = PlayerForm(initial={"name": player.name, "email": player.email})
    link = services.player_link_url(player=player, request=request)
    context = {
        "player": player,
        "league": player.league,
        "form": form,
        "consent_form": consent_form,
        "counting": counting,
        "waiting": waiting,
        "wording": services.email_consent_wording(
            league=player.league, email=consent_form["consent_email"].value() or "this address"
        ),
        "link": link,
        "link_qr": qr_svg(link, title=f"{player.name}'s own page", scale=4) if link else "",
    }
    return render(request, "manage/player_edit.html", context, status=status)


@workspace
@require_POST
def player_email_consent(request, pk: int):
    """Record the player's consent to the emails (they agreed in person: the box says so)."""
    player = access.player_for_organiser(user=request.user, pk=pk)
    form = EmailConsentForm(request.POST)
    if form.is_valid():
        try:
            services.email_consent_record(
                player=player,
                email=form.cleaned_data["consent_email"],
                agreed=form.cleaned_data["agreed"],
                user=request.user,
            )
        except DomainError as error:
            form_error(form, error)
        else:
            messages.success(request, f"{player.name} will get their seats and reports by email.")
            return redirect("manage:player-edit", pk=player.pk)
    return _player_edit_page(request, player, consent_form=form, status=400)


@workspace
@require_POST
def player_email_stop(request, pk: int):
    """Stop every email to the player (they asked the organiser)."""
    player = access.player_for_organiser(user=request.user, pk=pk)
    stopped = services.email_consent_stop(player=player, user=request.user)
    if stopped:
        messages.success(request, f"No more emails to {player.name}.")
    return redirect("manage:player-edit", pk=player.pk)


@workspace
@require_POST
def player_link(request, pk: int):
    """The player's own link: a new one (``action=renew``: the old stops working) or off."""
    player = access.player_for_organiser(user=request.user, pk=pk)
    if request.POST.get("action") == "revoke":
        services.player_link_revoke(player=player, user=request.user)
        messages.success(request, f"{player.name}'s link is turned off: it opens nothing now.")
    else:
        services.player_link_renew(player=player, user=request.user)
        messages.success(
            request, f"{player.name} has a new link: the old one no longer works. Print it again."
        )
    return redirect(reverse("manage:player-edit", args=[player.pk]) + "#own-link")


@workspace
@require_POST
def player_deactivate(request, pk: int):
    player = access.player_for_organiser(user=request.user, pk=pk)
    form = DeactivateForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    try:
        player = services.player_deactivate(player=player, user=request.user, reason=reason)
    except DomainError as error:
        messages.error(request, error.message)
    if request.htmx:
        return render(request, "manage/_player_row.html", {"player": player})
    return redirect("manage:roster", pk=player.league_id)


@workspace
def roster_template(request):
    response = HttpResponse(ROSTER_TEMPLATE, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="roster-template.csv"'
    return response


@workspace
@require_http_methods(["GET", "POST"])
def roster_import(request, pk: int):
    league = access.league_for_organiser(user=request.user, pk=pk)
    form = RosterImportForm(request.POST or None, request.FILES or None)
    problems = []
    if request.method == "POST" and form.is_valid():
        try:
            players = services.roster_import(
                league=league, rows=form.cleaned_data["file"], user=request.user
            )
        except services.RosterImportError as error:
            problems = error.problems
            form.add_error(None, error.message)
        except DomainError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, f"Imported {len(players)} players.")
            return redirect("manage:roster", pk=league.pk)
    status = 400 if form.errors else 200
    context = {"league": league, "form": form, "problems": problems}
    return render(request, "manage/roster_import.html", context, status=status)


@workspace
@require_POST
def roster_paste(request, pk: int):
    """Players pasted one a line: the CSV import's checks, each bad line listed, nothing added
    unless every line is good."""
    league = access.league_for_organiser(user=request.user, pk=pk)
    form = RosterPasteForm(request.POST)
    problems = []
    if form.is_valid():
        try:
            players = services.roster_import(
                league=league, rows=form.cleaned_data["names"], user=request.user, field="names"
            )
        except services.RosterImportError as error:
            problems = error.problems
            form.add_error("names", error.message)
        except DomainError as error:
            form.add_error("names", error.message)
        else:
            count = len(players)
            messages.success(request, f"Added {count} player{'s' if count != 1 else ''}.")
            # the form was posted to its own #paste: land on the message, above it, instead
            return redirect(reverse("manage:roster", args=[league.pk]) + "#messages")
    context = _roster_context(league, form=PlayerForm(), paste_form=form, paste_problems=problems)
    return render(request, "manage/roster.html", context, status=400)


def _teams_context(season, **extra):
    return {
        "season": season,
        "league": season.league,
        "teams": season.teams.select_related("player_one", "player_two"),
        "form": TeamForm(players=services.season_free_players(season=season)),
        "paste_form": TeamsPasteForm(),
        **extra,
    }


@workspace
@require_http_methods(["GET", "POST"])
def teams(request, pk: int):
    """A season's teams; one added by choosing two of the players on no team yet. A form posted
    after one of them joined a team meanwhile gets the service's answer naming them and their
    team (not a bare "not one of the choices"), so a post accepts any active player."""
    season = access.season_for_organiser(user=request.user, pk=pk)
    if request.method == "POST":
        players = season.league.players.filter(is_active=True)
    else:
        players = services.season_free_players(season=season)
    form = TeamForm(request.POST or None, players=players)
    if request.method == "POST" and form.is_valid():
        try:
            team = services.team_create(season=season, user=request.user, **form.cleaned_data)
        except DomainError as error:
            form_error(form, error)
        else:
            messages.success(request, f"Team {team.name} added.")
            return redirect("manage:teams", pk=season.pk)
    context = _teams_context(season, form=form)
    return render(request, "manage/teams.html", context, status=400 if form.errors else 200)


@workspace
@require_POST
def teams_paste(request, pk: int):
    """Teams pasted one a line. Names not on the roster are listed for a confirmation first; on
    it, they join the roster and every team is added, or nothing is."""
    season = access.season_for_organiser(user=request.user, pk=pk)
    form = TeamsPasteForm(request.POST)
    extra, status = {}, 400
    if form.is_valid():
        try:
            made = services.teams_import(
                season=season,
                text=form.cleaned_data["teams"],
                new_players=request.POST.getlist("new_player")
                if request.POST.get("confirm") == "add"
                else (),
                user=request.user,
            )
        except services.NewPlayersToConfirm as error:
            extra["new_players"], status = error.names, 200
        except services.LinesRefusedError as error:
            extra["paste_problems"] = error.problems
            form.add_error("teams", error.message)
        except DomainError as error:
            form.add_error("teams", error.message)
        else:
            count = len(made)
            messages.success(request, f"Added {count} team{'s' if count != 1 else ''}.")
            return redirect("manage:teams", pk=season.pk)
    context = _teams_context(season, paste_form=form, **extra)
    return render(request, "manage/teams.html", context, status=status)


# --- Nights ---


def _nights_context(season, **extra):
    """The nights page: the season's nights, one night's form, the series form and the usual
    rounds (each form replaced by a bound one when it was the one posted)."""
    first = season.starts_on or timezone.localdate()
    return {
        "season": season,
        "league": season.league,
        "nights": season.nights.not_archived(),
        "form": NightForm(),
        "series_form": RecurringNightsForm(
            initial={"starts_on": first, "weekday": str(first.weekday())}, prefix="series"
        ),
        "rounds_form": UsualRoundsForm(initial={"usual_rounds": season.usual_rounds}),
        "balance_form": PartnerBalanceForm(
            initial={"balance_partner_strength": season.balance_partner_strength}
        ),
        **extra,
    }


@workspace
@require_POST
def nights_recurring(request, pk: int):
    """A series of nights: the first post shows the dates (a preview, nothing written); the
    second, "Plan these nights", plans them all through one service."""
    season = access.season_for_organiser(user=request.user, pk=pk)
    form = RecurringNightsForm(request.POST, prefix="series")
    preview = None
    if form.is_valid():
        values = form.cleaned_data
        try:
            dates, skipped = recurring_dates(
                start=values["starts_on"],
                weekday=values["weekday"],
                count=values["count"],
                every_weeks=values["every_weeks"],
                skip=values["skip"],
            )
            services.nights_series_check(season=season, dates=dates)
            shown = request.POST.get("expected", "")
            same = shown == ",".join(date.isoformat() for date in dates)
            if request.POST.get("action") == "create" and not same:
                messages.error(request, "The dates changed since they were shown: check them.")
            elif request.POST.get("action") == "create":
                made = services.nights_create_recurring(
                    season=season, dates=dates, venue=values["venue"], user=request.user
                )
                messages.success(request, f"Planned {len(made)} nights.")
                # posted to its own #series: land on the message, above it, instead
                return redirect(reverse("manage:nights", args=[season.pk]) + "#messages")
        except DomainError as error:
            form_error(form, error)
        else:
            preview = {"dates": dates, "skipped": skipped}
    status = 400 if form.errors else 200
    context = _nights_context(season, series_form=form, preview=preview)
    return render(request, "manage/nights.html", context, status=status)


@workspace
@require_POST
def season_usual_rounds(request, pk: int):
    season = access.season_for_organiser(user=request.user, pk=pk)
    form = UsualRoundsForm(request.POST)
    if form.is_valid():
        try:
            services.season_set_usual_rounds(
                season=season, rounds=form.cleaned_data["usual_rounds"], user=request.user
            )
        except DomainError as error:
            form_error(form, error)
        else:
            messages.success(request, "Saved the usual rounds of a night.")
            return redirect("manage:nights", pk=season.pk)
    context = _nights_context(season, rounds_form=form)
    return render(request, "manage/nights.html", context, status=400)


@workspace
@require_POST
def season_partner_balance(request, pk: int):
    """Turn the individual season's partner-strength balance on or off (a checkbox)."""
    season = access.season_for_organiser(user=request.user, pk=pk)
    form = PartnerBalanceForm(request.POST)
    if form.is_valid():
        is_on = form.cleaned_data["balance_partner_strength"]
        try:
            services.season_set_partner_balance(season=season, is_on=is_on, user=request.user)
        except DomainError as error:
            form_error(form, error)
        else:
            messages.success(
                request,
                "Partners are balanced by strength from the next plan on."
                if is_on
                else "Partners are no longer balanced by strength.",
            )
            return redirect("manage:nights", pk=season.pk)
    context = _nights_context(season, balance_form=form)
    return render(request, "manage/nights.html", context, status=400)


@workspace
@require_http_methods(["GET", "POST"])
def nights(request, pk: int):
    season = access.season_for_organiser(user=request.user, pk=pk)
    form = NightForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            night = services.night_create(season=season, user=request.user, **form.cleaned_data)
        except DomainError as error:
            form_error(form, error)
        else:
            messages.success(request, f"Night of {night.date:%a %-d %b %Y} planned.")
            return redirect("manage:nights", pk=season.pk)
    context = _nights_context(season, form=form)
    return render(request, "manage/nights.html", context, status=400 if form.errors else 200)


def _nights_calendar(request, season) -> HttpResponse:
    """A season's nights as an iCalendar file (the one implementation of both feeds)."""
    body = exports.nights_ical(
        calendar_name=f"{season.league.name} – {season.name}",
        uid_domain=request.get_host().split(":")[0] or "euchre",
        nights=season.nights.not_archived(),
        now=timezone.now(),
    )
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="season-{season.pk}-nights.ics"'
    return response


@workspace
def nights_ical(request, pk: int):
    """The season's nights as a calendar file, for its league's organisers, like every export
    of the workspace."""
    return _nights_calendar(request, access.season_for_organiser(user=request.user, pk=pk))


def public_nights_ical(request, pk: int):
    """The season's nights as a calendar feed at ``/seasons/<id>/nights.ics``, outside the
    workspace: public, like the nights themselves, so a calendar app can subscribe without
    signing in."""
    try:
        season = access.season_for_public(pk=pk)
    except NotFoundError as error:
        raise Http404(error.message) from None
    return _nights_calendar(request, season)


# --- The season's dashboard, disputes, the audit trail, exports ---


@workspace
def audit_trail(request, pk: int):
    season, entries = access.audit_trail_for_organiser(user=request.user, season_pk=pk)
    context = {"season": season, "league": season.league, "entries": entries[:500]}
    return render(request, "manage/audit.html", context)


def csv_response(name: str, text: str) -> HttpResponse:
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
