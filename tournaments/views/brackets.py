"""Bracket pages: the public bracket (a server-side SVG that htmx refreshes while matches are
being played) and the organiser's screens to build, seed, publish, correct and take withdrawals.

Views parse, call one service (``tournaments.services.brackets``) or selector
(``tournaments.selectors.brackets``) and render. The drawing is laid out here (pure arithmetic on
the matches) and rendered by ``templates/brackets/_drawing.html``:

- a *section* is one part of the bracket (winners', losers', grand final, third place, round
  robin), drawn as its own picture; its *columns* are its rounds;
- a *box* is a match: two rows (its two teams, or what each slot waits for), each with the team's
  seed as a small number before its name and the score on the right; a bye match is laid out but
  not drawn. A name is never cut: it wraps onto a second line, and a line still too long for the
  box is drawn narrower (SVG ``textLength``);
- a *line* joins a feeder match to the slot it feeds, within one section.

A pools bracket draws each pool as its own section, then the knockout; Swiss rounds are one
section of rounds side by side. Pool tables and the Swiss standings are tables under the drawing.
The schedule of a team season (``season_schedule_create``) has its organiser screen under
``/manage/seasons/<id>/schedule/`` and a public page at ``/seasons/<id>/schedule/``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_http_methods, require_POST

from core.errors import AccessDeniedError, DomainError, NotFoundError
from league.access import is_league_organiser, season_for_organiser
from league.forms import form_id, whole_number
from league.models import Night, Season
from tournaments.models import Bracket, BracketMatch
from tournaments.selectors.brackets import (
    BracketSummary,
    MatchLine,
    bracket_for_viewer,
    bracket_night_choices,
    bracket_summary,
)
from tournaments.selectors.clocks import current_clock, season_round_minutes
from tournaments.selectors.schedules import season_schedule_summary
from tournaments.selectors.season_progress import season_progress
from tournaments.services.brackets.corrections import (
    bracket_correct,
    bracket_correction_preview,
    bracket_withdraw_team,
    correction_message,
)
from tournaments.services.brackets.create import (
    SUPPORTED_KINDS,
    bracket_create,
    bracket_publish,
    standings_seed_candidates,
)
from tournaments.services.schedules import season_schedule_create
from tournaments.views.clocks import clock_context

BOX_WIDTH, ROW_HEIGHT = 156, 32
BOX_HEIGHT = 2 * ROW_HEIGHT
CODE_WIDTH = 28
COLUMN_GAP, ROW_GAP, HEADER = 20, 14, 26
"""Two rounds side by side fit a 360-pixel phone (332 pixels of drawing) without scrolling."""
SEED_X, NAME_X, SCORE_X = CODE_WIDTH + 4, CODE_WIDTH + 18, BOX_WIDTH - 5
"""Where a row's seed, name and (right-aligned) score start, from the box's left edge."""
NAME_WIDTH = 88
"""Pixels of name between the seed and a two-digit score."""
FONT_SIZE, LINE_HEIGHT = 12, 13
"""The drawing's font (``.bracket-svg`` in brackets.css): two lines of a name fill a row."""
NARROW, WIDE = set("fijlrtI.,'!|() "), set("mwMW@%")
BOX_GEOMETRY = {
    "width": BOX_WIDTH,
    "height": BOX_HEIGHT,
    "row": ROW_HEIGHT,
    "code": CODE_WIDTH,
    "won_width": BOX_WIDTH - CODE_WIDTH,
    "seed_x": SEED_X,
    "name_x": NAME_X,
    "name_width": NAME_WIDTH,
    "score_x": SCORE_X,
    "text_dy": ROW_HEIGHT // 2 + 3,
    "code_dy": ROW_HEIGHT + 4,
}
"""A box's measures as ``templates/brackets/_drawing.html`` reads them (``box``), for every page
that draws a bracket (its own page, the wall)."""

PART_TITLES = {
    BracketMatch.Part.WINNERS: "Winners' bracket",
    BracketMatch.Part.LOSERS: "Losers' bracket",
    BracketMatch.Part.FINAL: "Grand final",
    BracketMatch.Part.THIRD_PLACE: "Third place",
    BracketMatch.Part.ROUND_ROBIN: "Round robin",
    BracketMatch.Part.POOL: "Pools",
    BracketMatch.Part.SWISS: "Swiss rounds",
}


# --------------------------------------------------------------------------------------------
# Drawing
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class NameLine:
    text: str
    y: int
    squeeze: bool
    """Too wide for the box even on its own line: drawn narrower, at ``NAME_WIDTH``."""


@dataclass
class Row:
    name: str
    lines: list[NameLine]
    seed: int | None
    score: str
    is_winner: bool
    is_known: bool
    y: int


@dataclass
class Box:
    code: str
    x: int
    y: int
    rows: tuple[Row, Row]
    status: str
    is_live: bool


@dataclass
class Section:
    title: str
    width: int
    height: int
    headers: list[tuple[int, str]] = field(default_factory=list)
    boxes: list[Box] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)

    @property
    def slug(self) -> str:
        return self.title.lower().replace("'", "").replace(" ", "-")

    @property
    def rounds(self) -> list[tuple[str, list[Box]]]:
        """The boxes round by round (column by column, each top to bottom) with the round's
        title: the bracket as a phone shows it, one round under the other."""
        rounds: list[tuple[str, list[Box]]] = [(title, []) for _x, title in self.headers]
        for box in sorted(self.boxes, key=lambda box: (box.x, box.y)):
            rounds[(box.x - 1) // (BOX_WIDTH + COLUMN_GAP)][1].append(box)
        return [(title, boxes) for title, boxes in rounds if boxes]


def _text_width(text: str) -> float:
    """A sans-serif line's width in pixels, estimated (the server cannot measure it)."""
    ems = sum(
        0.32 if c in NARROW else 0.9 if c in WIDE else 0.7 if c.isupper() else 0.58 for c in text
    )
    return ems * FONT_SIZE


def _wrap(name: str) -> list[str]:
    """The name in at most two lines, broken between words (a first word too long for a line is
    broken with a hyphen); whatever is left goes on the second line."""
    lines: list[str] = []
    for word in name.split():
        if lines and (len(lines) == 2 or _text_width(f"{lines[-1]} {word}") <= NAME_WIDTH):
            lines[-1] = f"{lines[-1]} {word}"
        elif not lines and _text_width(word) > NAME_WIDTH:
            cut = max(
                (n for n in range(1, len(word)) if _text_width(word[:n] + "-") <= NAME_WIDTH),
                default=1,
            )
            lines += [word[:cut] + "-", word[cut:]]
        else:
            lines.append(word)
    return lines or [""]


def _name_lines(name: str, row_y: int) -> list[NameLine]:
    """The lines of a row's name with their baselines, centred in the row."""
    texts = _wrap(name)
    first = row_y + (ROW_HEIGHT - len(texts) * LINE_HEIGHT) // 2 + LINE_HEIGHT - 3
    return [
        NameLine(text, first + index * LINE_HEIGHT, _text_width(text) > NAME_WIDTH)
        for index, text in enumerate(texts)
    ]


def _round_title(part: str, round_number: int, rounds: int, kind: str) -> str:
    if part == BracketMatch.Part.FINAL:
        return "Final" if round_number == 1 else "Reset"
    if part == BracketMatch.Part.THIRD_PLACE:
        return "3rd place"
    if part == BracketMatch.Part.WINNERS and kind in (Bracket.Kind.SINGLE, Bracket.Kind.POOLS):
        from_end = rounds - round_number
        if from_end == 0:
            return "Final"
        if from_end == 1:
            return "Semi-finals"
        if from_end == 2:
            return "Quarter-finals"
    return f"Round {round_number}"


def bracket_drawing(summary: BracketSummary) -> list[Section]:
    """Lay out each part of the bracket (each pool its own): rounds as columns, a match midway
    between its feeders."""
    parts: dict[tuple[str, str], list[MatchLine]] = {}
    for line in summary.matches:
        parts.setdefault((line.match.part, line.match.pool), []).append(line)
    sections = []
    seeds = {entry.team_id: entry.seed for entry in summary.entries}
    is_pools = summary.bracket.kind == Bracket.Kind.POOLS
    order = [BracketMatch.Part.POOL, *(part for part in PART_TITLES if part != "pool")]
    for part, pool in sorted(parts, key=lambda key: (order.index(key[0]), key[1])):
        lines = parts[(part, pool)]
        title = PART_TITLES[part]
        if pool:
            title = f"Pool {pool}"
        elif part == BracketMatch.Part.WINNERS and is_pools:
            title = "Knockout"
        if part in (BracketMatch.Part.POOL, BracketMatch.Part.SWISS):
            lines = [line for line in lines if not line.match.is_bye]  # byes have no box
        if all(line.match.is_bye for line in lines):
            continue
        rounds = sorted({line.match.round for line in lines})
        column_of = {number: index for index, number in enumerate(rounds)}
        centre: dict[str, float] = {}
        last_in_column: dict[int, float] = {}
        unit = BOX_HEIGHT + ROW_GAP
        for line in sorted(lines, key=lambda line: (line.match.round, line.match.order)):
            match = line.match
            column = column_of[match.round]
            feeders = [
                centre[slot["match"]]
                for slot in (match.first_slot, match.second_slot)
                if slot.get("match") in centre
            ]
            wanted = sum(feeders) / len(feeders) if feeders else 0
            lowest = last_in_column.get(column, -unit) + unit
            centre[match.code] = max(wanted, lowest)
            last_in_column[column] = centre[match.code]
        top = HEADER
        section = Section(
            title=title,
            width=len(rounds) * (BOX_WIDTH + COLUMN_GAP) - COLUMN_GAP + 2,
            height=int(max(centre.values()) + BOX_HEIGHT + top + 2),
        )
        section.headers = [
            (
                index * (BOX_WIDTH + COLUMN_GAP) + BOX_WIDTH // 2,
                _round_title(part, number, len(rounds), summary.bracket.kind),
            )
            for index, number in enumerate(rounds)
        ]
        drawn = {}
        for line in lines:
            match = line.match
            if match.is_bye:
                continue
            x = column_of[match.round] * (BOX_WIDTH + COLUMN_GAP) + 1
            y = int(centre[match.code]) + top
            score = line.score
            rows = tuple(
                Row(
                    name=name,
                    lines=_name_lines(name, y + index * ROW_HEIGHT),
                    seed=seeds.get(team_id),
                    score="" if score is None else str(score[index]),
                    is_winner=match.winner_id is not None and match.winner_id == team_id,
                    is_known=team_id is not None,
                    y=y + index * ROW_HEIGHT,
                )
                for index, (name, team_id) in enumerate(
                    ((line.first, match.first_team_id), (line.second, match.second_team_id))
                )
            )
            drawn[match.code] = (x, y)
            section.boxes.append(Box(match.code, x, y, rows, match.status, line.is_live))
        for line in lines:
            match = line.match
            if match.code not in drawn:
                continue
            x, y = drawn[match.code]
            for index, slot in enumerate((match.first_slot, match.second_slot)):
                feeder = drawn.get(slot.get("match")) if slot.get("kind") == "winner" else None
                if feeder is None:
                    continue
                start_x, start_y = feeder[0] + BOX_WIDTH, feeder[1] + ROW_HEIGHT
                end_y = y + ROW_HEIGHT // 2 + index * ROW_HEIGHT
                middle = start_x + COLUMN_GAP // 2
                section.lines.append(f"M{start_x} {start_y}H{middle}V{end_y}H{x}")
        sections.append(section)
    return sections


# --------------------------------------------------------------------------------------------
# The public page
# --------------------------------------------------------------------------------------------


def _public_bracket(pk: int) -> Bracket:
    bracket = Bracket.objects.not_archived().select_related("season__league").filter(pk=pk).first()
    if bracket is None:
        raise Http404("no such bracket")
    return bracket


def bracket_page(request, pk: int) -> HttpResponse:
    """The public bracket; htmx polls it (``HX-Request``) for the live part alone. A draft is
    shown only to the organisers of its league (a preview); to anyone else it does not exist."""
    try:
        bracket = bracket_for_viewer(user=request.user, pk=pk)
    except NotFoundError as error:
        raise Http404(error.message) from error
    summary = bracket_summary(bracket=bracket)
    context = {
        "bracket": bracket,
        "summary": summary,
        "sections": bracket_drawing(summary),
        "box": BOX_GEOMETRY,
    }
    template = "brackets/_live.html" if request.htmx else "brackets/page.html"
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    return response


# --------------------------------------------------------------------------------------------
# Organiser screens
# --------------------------------------------------------------------------------------------


def _organised_seasons(user):
    seasons = (
        Season.objects.not_archived().filter(format=Season.Format.TEAMS).select_related("league")
    )
    if not user.is_superuser:
        seasons = seasons.filter(league__roles__user=user)
    return seasons.order_by("league__name", "name")


def _managed_bracket(request, pk: int) -> Bracket:
    bracket = _public_bracket(pk)
    if not is_league_organiser(user=request.user, league_id=bracket.season.league_id):
        raise PermissionDenied("only an organiser of this league may manage its brackets")
    return bracket


@login_required
def manage_brackets(request) -> HttpResponse:
    """The organiser's brackets, and the form to build a new one."""
    seasons = list(_organised_seasons(request.user))
    brackets = (
        Bracket.objects.not_archived().filter(season__in=seasons).select_related("season__league")
    )
    return render(
        request,
        "brackets/manage_list.html",
        {"brackets": brackets, "seasons": seasons, "kinds": SUPPORTED_KINDS},
    )


def _form_options(data) -> tuple[dict, object]:
    def number(name: str, default: int) -> int:
        value = (data.get(name) or "").strip()
        if not value:
            return default
        number = whole_number(value)
        if number is None:
            raise DomainError(f"{name.replace('_', ' ')} must be a whole number", field=name)
        return number

    return {
        "kind": data.get("kind", ""),
        "name": data.get("name", ""),
        "best_of": number("best_of", 1),
        "third_place": data.get("third_place") == "on",
        "grand_final_reset": data.get("grand_final_reset") == "on",
        "cycles": number("cycles", 1),
        **(
            {
                "pool_count": number("pool_count", 0),
                "advancing_per_pool": number("advancing_per_pool", 0),
            }
            if data.get("kind") == Bracket.Kind.POOLS
            else {}
        ),
        **(
            {"swiss_rounds": number("swiss_rounds", 0)}
            if data.get("kind") == Bracket.Kind.SWISS
            else {}
        ),
    }, number


def _chosen_season(request) -> Season | None:
    """The season a bracket form names (``?season=`` or its field), through the league's door:
    404 for no such season, 403 for another league's; ``None`` if it names none."""
    chosen = (request.POST or request.GET).get("season", "")
    if not chosen:
        return None
    try:
        return season_for_organiser(user=request.user, pk=form_id(chosen) or 0)
    except NotFoundError as error:
        raise Http404(error.message) from error
    except AccessDeniedError as error:
        raise PermissionDenied(error.message) from error


@login_required
@require_http_methods(["GET", "POST"])
def manage_bracket_new(request) -> HttpResponse:
    """Build a bracket: pick the season, the kind and its options, and seed it from the
    standings (the top N) or by hand (a seed number beside each team)."""
    seasons = list(_organised_seasons(request.user))
    chosen = _chosen_season(request)
    season = next((s for s in seasons if chosen is not None and s.pk == chosen.pk), None)
    context = {
        "seasons": seasons,
        "season": season,
        "kinds": SUPPORTED_KINDS,
        "teams": list(season.teams.filter(is_withdrawn=False)) if season else [],
        "values": request.POST or request.GET,
        "progress": season_progress(season=season) if season else None,
        "candidates": standings_seed_candidates(season=season) if season else None,
    }
    if request.method == "POST":
        try:
            if season is None:
                raise DomainError("Pick one of your team seasons.", field="season")
            options, number = _form_options(request.POST)
            if request.POST.get("seeding") == "manual":
                seeded = sorted(
                    (number(f"seed_{team.pk}", 0), team.pk)
                    for team in context["teams"]
                    if request.POST.get(f"seed_{team.pk}", "").strip()
                )
                options["teams"] = [team_id for _seed, team_id in seeded]
            else:
                options["team_count"] = number("team_count", 0)
            bracket = bracket_create(
                season=season,
                user=request.user,
                confirm_unfinished=request.POST.get("confirm_unfinished") == "on",
                **options,
            )
        except AccessDeniedError as error:
            raise PermissionDenied(error.message) from error
        except DomainError as error:
            context["error"] = error.message
            return render(request, "brackets/manage_new.html", context, status=400)
        return redirect("brackets:manage-detail", pk=bracket.pk)
    return render(request, "brackets/manage_new.html", context)


@login_required
def manage_bracket(request, pk: int) -> HttpResponse:
    """Review the seeds (and the cut line), publish, see the captain links, correct, withdraw."""
    bracket = _managed_bracket(request, pk)
    return _manage_page(request, bracket)


def _manage_page(request, bracket: Bracket, *, error: str = "", status: int = 200):
    summary = bracket_summary(bracket=bracket, with_captain_tokens=True)
    decided = [
        line
        for line in summary.matches
        if line.match.status == BracketMatch.Status.DECIDED and line.match.second_team_id
    ]
    playing = [line for line in summary.matches if line.match.status == BracketMatch.Status.READY]
    clocks = [
        (number, clock_context(current_clock(bracket=bracket, round_number=number)))
        for number in sorted({line.match.round for line in playing if line.games})
    ]
    review = [line for line in summary.matches if line.match.needs_review]
    context = {
        "bracket": bracket,
        "summary": summary,
        "nights": (
            bracket_night_choices(bracket=bracket) if bracket.status == Bracket.Status.DRAFT else []
        ),
        "decided": [line for line in decided if not line.match.needs_review],
        "review": review,
        "playing": playing,
        "clocks": clocks,
        "clock_minutes": season_round_minutes(season=bracket.season) if clocks else None,
        "error": error,
        "public_url": reverse("brackets:page", args=[bracket.pk]),
    }
    return render(request, "brackets/manage_detail.html", context, status=status)


@login_required
@require_POST
def manage_bracket_publish(request, pk: int) -> HttpResponse:
    bracket = _managed_bracket(request, pk)
    try:
        chosen = request.POST.get("night", "")
        # No night is an empty choice; a value that names no night is refused by the service.
        night = (form_id(chosen) or 0) if chosen else None
        bracket_publish(bracket=bracket, user=request.user, night=night)
    except DomainError as error:
        return _manage_page(request, bracket, error=error.message, status=409)
    return redirect("brackets:manage-detail", pk=bracket.pk)


@login_required
@require_POST
def manage_bracket_withdraw(request, pk: int) -> HttpResponse:
    bracket = _managed_bracket(request, pk)
    try:
        team = form_id(request.POST.get("team"))
        if team is None:
            raise DomainError("Pick the team that withdraws.", field="team")
        bracket_withdraw_team(
            bracket=bracket,
            team=team,
            reason=request.POST.get("reason", ""),
            user=request.user,
        )
    except (NotFoundError, DomainError) as error:
        return _manage_page(request, bracket, error=error.message, status=400)
    return redirect("brackets:manage-detail", pk=bracket.pk)


@login_required
@require_http_methods(["GET", "POST"])
def manage_bracket_correct(request, pk: int) -> HttpResponse:
    """GET: the preview of a correction (which later matches it resets); POST: apply it, with
    the reset list the organiser saw and a reason."""
    bracket = _managed_bracket(request, pk)
    data = request.POST if request.method == "POST" else request.GET
    code, winner = data.get("match", ""), form_id(data.get("winner"))
    try:
        if winner is None:
            raise DomainError("Pick the team that really won.", field="winner")
        if request.method == "POST":
            bracket_correct(
                bracket=bracket,
                code=code,
                winner=winner,
                reason=data.get("reason", ""),
                reset=[value for value in data.getlist("reset") if value],
                user=request.user,
            )
            return redirect("brackets:manage-detail", pk=bracket.pk)
        preview = bracket_correction_preview(
            bracket=bracket, code=code, winner=winner, user=request.user
        )
    except DomainError as error:
        if request.method == "POST" and code and winner is not None:
            try:
                preview = bracket_correction_preview(
                    bracket=bracket, code=code, winner=winner, user=request.user
                )
            except DomainError:
                return _manage_page(request, bracket, error=error.message, status=400)
            return render(
                request,
                "brackets/manage_correct.html",
                {
                    "bracket": bracket,
                    "preview": preview,
                    "message": correction_message(preview),
                    "error": error.message,
                },
                status=409 if error.code == "preview_stale" else 400,
            )
        return _manage_page(request, bracket, error=error.message, status=400)
    return render(
        request,
        "brackets/manage_correct.html",
        {"bracket": bracket, "preview": preview, "message": correction_message(preview)},
    )


# --------------------------------------------------------------------------------------------
# A team season's schedule
# --------------------------------------------------------------------------------------------


def _schedule_season(pk: int) -> Season:
    season = Season.objects.not_archived().select_related("league").filter(pk=pk).first()
    if season is None:
        raise Http404("no such season")
    return season


def season_schedule_page(request, pk: int) -> HttpResponse:
    """The public schedule of a team season: night by night, who plays whom at which table."""
    season = _schedule_season(pk)
    summary = season_schedule_summary(season=season)
    if summary is None:
        raise Http404("this season has no schedule yet")
    return render(
        request, "brackets/schedule.html", {"season": season, "summary": summary, "links": False}
    )


@login_required
@require_http_methods(["GET", "POST"])
def manage_season_schedule(request, pk: int) -> HttpResponse:
    """Build a team season's schedule on its planned nights (chosen among them, all by default;
    once or twice, rounds a night), then see it with every game's score-card link."""
    season = _schedule_season(pk)
    if not is_league_organiser(user=request.user, league_id=season.league_id):
        raise PermissionDenied("only an organiser of this league may schedule its season")
    nights = list(season.nights.not_archived().filter(status=Night.Status.PLANNED))
    chosen = {form_id(value) for value in request.POST.getlist("night")}
    context = {
        "season": season,
        "values": request.POST,
        "team_count": season.teams.filter(is_withdrawn=False).count(),
        "links": True,
        "nights": [(night, request.method != "POST" or night.pk in chosen) for night in nights],
        "rounds_default": season.usual_rounds or "",
    }
    if request.method == "POST":
        try:
            rounds = whole_number(request.POST.get("rounds_per_night"))
            if rounds is None:
                raise DomainError(
                    "Rounds a night must be a whole number.", field="rounds_per_night"
                )
            dates = [night.date for night in nights if night.pk in chosen]
            if not dates:
                raise DomainError("Choose the nights to play on.", field="nights")
            season_schedule_create(
                season=season,
                nights=dates,
                cycles=2 if request.POST.get("cycles") == "2" else 1,
                rounds_per_night=rounds,
                user=request.user,
            )
        except DomainError as error:
            context["error"] = error.message
            context["summary"] = season_schedule_summary(season=season)
            status = 409 if error.code == "scheduled" else 400
            return render(request, "brackets/manage_schedule.html", context, status=status)
        return redirect("brackets:manage-schedule", pk=season.pk)
    context["summary"] = season_schedule_summary(season=season)
    return render(request, "brackets/manage_schedule.html", context)
