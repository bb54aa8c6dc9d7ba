"""API for brackets: parse, call one service (``tournaments.services.brackets``) or selector
(``tournaments.selectors``), render.

Reads are public (a bracket is as public as the standings), except a draft: only the organisers
of its league see it (404 to anyone else). Writes need an organiser of the bracket's league,
checked by the services through ``league.access``. Captain links are not part of the public
bracket: organisers get them from ``/api/v1/games/{id}/captain-link/``. A match whose games no
longer support its winner says ``needs_review`` with the reason; the organiser settles it with a
correction (to the other team, or to the same team to confirm the result).
"""

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response
from rest_framework.views import APIView

from core.errors import NotFoundError
from league.api.filters import SeasonScopedArchivedFilter, filtered
from league.api.serializers import RenameSerializer
from league.api.views import parse
from league.models import MAX_ID, Season
from tournaments.api.clocks import clock_endpoint, clock_schema
from tournaments.models import Bracket
from tournaments.selectors.brackets import (
    bracket_for_viewer,
    bracket_summaries,
    bracket_summary,
    brackets_for_viewer,
)
from tournaments.selectors.schedules import ScheduleSummary, season_schedule_summary
from tournaments.services.brackets.corrections import (
    CorrectionPreview,
    ResetMatch,
    bracket_correct,
    bracket_correction_preview,
    bracket_withdraw_team,
    correction_message,
)
from tournaments.services.brackets.create import SUPPORTED_KINDS, bracket_create, bracket_publish
from tournaments.services.brackets.rename import bracket_rename
from tournaments.services.schedules import season_schedule_create

BRACKET_KINDS = list(SUPPORTED_KINDS)


# --------------------------------------------------------------------------------------------
# Serializers: output ones render plain dicts, input ones only parse
# --------------------------------------------------------------------------------------------


class BracketSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    season = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.CharField(help_text="single, double, round_robin, pools or swiss")
    status = serializers.CharField(help_text="draft, published (being played) or finished")
    best_of = serializers.IntegerField()
    third_place = serializers.BooleanField()
    grand_final_reset = serializers.BooleanField()
    cycles = serializers.IntegerField()
    pool_count = serializers.IntegerField(help_text="pools: how many (0 for other kinds)")
    advancing_per_pool = serializers.IntegerField(help_text="pools: teams of each going through")
    swiss_rounds = serializers.IntegerField(help_text="Swiss: rounds to play (0 otherwise)")
    seeding = serializers.CharField(help_text="standings or manual")
    night = serializers.IntegerField(
        allow_null=True, help_text="The night it is played on (its games at that night's tables)."
    )
    cut_note = serializers.CharField(help_text="Why the cut line falls where it does.")
    cut_note_short = serializers.CharField(
        help_text="The cut note in a few plain words ('Clubs is out: Jacks beat them')."
    )
    team_count = serializers.IntegerField()
    champion = serializers.IntegerField(allow_null=True, help_text="The champion team's id.")
    archived_at = serializers.DateTimeField(allow_null=True, help_text="null while in use")


class EntrySerializer(serializers.Serializer):
    seed = serializers.IntegerField()
    team = serializers.IntegerField()
    name = serializers.CharField()
    standing_rank = serializers.IntegerField(allow_null=True)
    standing_reason = serializers.CharField(
        help_text="Why the team ranks where it does in the standings it was seeded from."
    )
    standing_reason_short = serializers.CharField(
        help_text="The standing's reason in a few plain words ('Jacks beat them')."
    )
    withdrawn = serializers.BooleanField()


class SlotSerializer(serializers.Serializer):
    kind = serializers.CharField(help_text="seed, bye, winner, loser or pool_place")
    label = serializers.CharField()
    seed = serializers.IntegerField(required=False)
    match = serializers.CharField(required=False, help_text="The feeder match's code.")


class MatchGameSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    game = serializers.IntegerField()
    status = serializers.CharField(help_text="scheduled, in_progress or finished")
    score = serializers.ListField(child=serializers.IntegerField(), help_text="[first, second]")


class MatchSerializer(serializers.Serializer):
    code = serializers.CharField()
    part = serializers.CharField(
        help_text="winners, losers, final, third_place, round_robin, pool or swiss"
    )
    round = serializers.IntegerField()
    pool = serializers.CharField(help_text="The pool's letter for a pool match, else empty.")
    status = serializers.CharField(help_text="waiting, ready, decided, bye or void")
    slots = SlotSerializer(many=True)
    first_team = serializers.IntegerField(allow_null=True)
    second_team = serializers.IntegerField(allow_null=True)
    first = serializers.CharField(help_text="The first team's name, or what the slot waits for.")
    second = serializers.CharField()
    winner = serializers.IntegerField(allow_null=True)
    decided_by = serializers.CharField(help_text="games, forfeit, correction or empty")
    needs_review = serializers.BooleanField(
        help_text="Its games no longer support its winner: waits for the organiser's correction."
    )
    review_reason = serializers.CharField(help_text="What changed in its games, or empty.")
    wins = serializers.ListField(child=serializers.IntegerField(), help_text="games won")
    games = MatchGameSerializer(many=True)


class PlacingSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    team = serializers.IntegerField()
    name = serializers.CharField()
    note = serializers.CharField()


class StandingTableRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField(allow_null=True)
    team = serializers.IntegerField()
    name = serializers.CharField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField(help_text="byes included in a Swiss")
    losses = serializers.IntegerField()
    byes = serializers.IntegerField()
    point_diff = serializers.FloatField()
    reason = serializers.CharField(help_text="Why it ranks below the row above.")
    through = serializers.BooleanField(help_text="goes through to the knockout")


class StandingTableSerializer(serializers.Serializer):
    title = serializers.CharField(help_text="Pool A, … or the Swiss standings")
    finished = serializers.BooleanField()
    rows = StandingTableRowSerializer(many=True)


class BracketDetailSerializer(BracketSerializer):
    entries = EntrySerializer(many=True)
    matches = MatchSerializer(many=True)
    placings = PlacingSerializer(many=True)
    tables = StandingTableSerializer(many=True, help_text="Pool tables or the Swiss standings.")


def _team_id(**kwargs) -> serializers.IntegerField:
    """A team's id given in a request: 1 to the largest id a row can have."""
    return serializers.IntegerField(min_value=1, max_value=MAX_ID, **kwargs)


class BracketInputSerializer(serializers.Serializer):
    season = serializers.PrimaryKeyRelatedField(queryset=Season.objects.all())
    kind = serializers.ChoiceField(choices=[(kind.value, kind.label) for kind in BRACKET_KINDS])
    name = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")
    team_count = serializers.IntegerField(
        min_value=2, required=False, help_text="Seed the top N teams of the current standings."
    )
    teams = serializers.ListField(
        child=_team_id(),
        required=False,
        help_text="Or the teams' ids in seed order (seed 1 first).",
    )
    best_of = serializers.IntegerField(default=1, help_text="1, 3 or 5 games a match")
    third_place = serializers.BooleanField(default=False)
    grand_final_reset = serializers.BooleanField(default=False)
    cycles = serializers.IntegerField(default=1, help_text="round robin or pools: 1 or 2")
    pool_count = serializers.IntegerField(default=0, min_value=0, help_text="pools: how many")
    advancing_per_pool = serializers.IntegerField(
        default=0, min_value=0, help_text="pools: teams of each pool going through"
    )
    swiss_rounds = serializers.IntegerField(
        default=0, min_value=0, help_text="Swiss: rounds to play"
    )
    confirm_unfinished = serializers.BooleanField(
        default=False,
        help_text="Seed from the standings although the season is not finished (nights left, "
        "games being played or not started); without it that is a 409 season_unfinished "
        "saying what is unfinished.",
    )


class CorrectionInputSerializer(serializers.Serializer):
    match = serializers.CharField(max_length=16, help_text="The decided match's code, e.g. W1-2.")
    winner = _team_id(help_text="The team that really won it.")


class CorrectionApplySerializer(CorrectionInputSerializer):
    reason = serializers.CharField(max_length=500)
    reset = serializers.ListField(
        child=serializers.CharField(),
        allow_empty=True,
        help_text="The codes the preview said would be reset: the organiser agreed to them.",
    )


class ResetMatchSerializer(serializers.Serializer):
    code = serializers.CharField()
    teams = serializers.ListField(child=serializers.CharField())
    winner = serializers.CharField(allow_null=True)
    games_kept = serializers.IntegerField(help_text="finished games that stop counting")
    games_voided = serializers.IntegerField(help_text="unplayed games voided, links revoked")


class CorrectionPreviewSerializer(serializers.Serializer):
    match = serializers.CharField()
    old_winner = serializers.IntegerField()
    new_winner = serializers.IntegerField()
    reset = ResetMatchSerializer(many=True)
    stopped = ResetMatchSerializer(many=True)
    called_off = serializers.IntegerField(
        help_text="The match's own games still in play (a reopened game) that are called off."
    )
    message = serializers.CharField()


class PublishInputSerializer(serializers.Serializer):
    night = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        required=False,
        allow_null=True,
        default=None,
        help_text="The night it is played on (one of its season's, not archived): its games take "
        "that night's free tables, so the night's table cards open them. Empty: no night.",
    )


class WithdrawalInputSerializer(serializers.Serializer):
    team = _team_id()
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")


# --------------------------------------------------------------------------------------------
# Rendering
# --------------------------------------------------------------------------------------------


def bracket_data(bracket: Bracket, summary=None) -> dict:
    if summary is None:
        summary = bracket_summary(bracket=bracket)
    return {
        "id": bracket.pk,
        "season": bracket.season_id,
        "name": bracket.name,
        "kind": bracket.kind,
        "status": bracket.status,
        "best_of": bracket.best_of,
        "third_place": bracket.third_place,
        "grand_final_reset": bracket.grand_final_reset,
        "cycles": bracket.cycles,
        "pool_count": bracket.pool_count,
        "advancing_per_pool": bracket.advancing_per_pool,
        "swiss_rounds": bracket.swiss_rounds,
        "seeding": bracket.seeding,
        "night": bracket.night_id,
        "cut_note": bracket.cut_note,
        "cut_note_short": bracket.cut_note_short,
        "team_count": len(summary.entries),
        "champion": summary.champion.pk if summary.champion else None,
        "archived_at": bracket.archived_at,
    }


def bracket_detail_data(bracket: Bracket) -> dict:
    summary = bracket_summary(bracket=bracket)
    return {
        **bracket_data(bracket, summary),
        "entries": [
            {
                "seed": entry.seed,
                "team": entry.team_id,
                "name": entry.team.name,
                "standing_rank": entry.standing_rank,
                "standing_reason": entry.standing_reason,
                "standing_reason_short": entry.standing_reason_short,
                "withdrawn": entry.is_withdrawn,
            }
            for entry in summary.entries
        ],
        "matches": [
            {
                "code": line.match.code,
                "part": line.match.part,
                "round": line.match.round,
                "pool": line.match.pool,
                "status": line.match.status,
                "slots": [line.match.first_slot, line.match.second_slot],
                "first_team": line.match.first_team_id,
                "second_team": line.match.second_team_id,
                "first": line.first,
                "second": line.second,
                "winner": line.match.winner_id,
                "decided_by": line.match.decided_by,
                "needs_review": line.match.needs_review,
                "review_reason": line.match.review_reason,
                "wins": list(line.wins),
                "games": [
                    {
                        "number": game.number,
                        "game": game.game_id,
                        "status": game.status,
                        "score": list(game.score),
                    }
                    for game in line.games
                ],
            }
            for line in summary.matches
        ],
        "placings": [
            {"place": line.place, "team": line.team.pk, "name": line.team.name, "note": line.note}
            for line in summary.placings
        ],
        "tables": [
            {
                "title": table.title,
                "finished": table.is_finished,
                "rows": [
                    {
                        "rank": row.rank,
                        "team": row.team.pk,
                        "name": row.team.name,
                        "games": row.games,
                        "wins": row.wins,
                        "losses": row.losses,
                        "byes": row.byes,
                        "point_diff": row.point_diff,
                        "reason": row.reason,
                        "through": row.is_through,
                    }
                    for row in table.lines
                ],
            }
            for table in summary.tables
        ],
    }


def preview_data(preview: CorrectionPreview) -> dict:
    def described(match: ResetMatch) -> dict:
        return {
            "code": match.code,
            "teams": list(match.teams),
            "winner": match.winner,
            "games_kept": match.games_kept,
            "games_voided": match.games_voided,
        }

    return {
        "match": preview.code,
        "old_winner": preview.old_winner.pk,
        "new_winner": preview.new_winner.pk,
        "reset": [described(match) for match in preview.reset],
        "stopped": [described(match) for match in preview.stopped],
        "called_off": preview.called_off,
        "message": correction_message(preview),
    }


# --------------------------------------------------------------------------------------------
# Views
# --------------------------------------------------------------------------------------------


def _bracket(pk) -> Bracket:
    bracket = Bracket.objects.not_archived().select_related("season__league").filter(pk=pk).first()
    if bracket is None:
        raise NotFoundError("no such bracket")
    return bracket


class BracketViewSet(viewsets.ViewSet):
    """Brackets of team seasons: seeded, published, advanced as games end, corrected."""

    queryset = Bracket.objects.all()  # for the schema's path parameter type only

    @extend_schema(
        parameters=[
            OpenApiParameter("season", int, description="only this season's"),
            OpenApiParameter(
                "archived",
                bool,
                description="true: only the archived ones of the leagues you organise; false, "
                "the default: only the ones in use",
            ),
        ],
        responses={200: BracketSerializer(many=True)},
    )
    def list(self, request):
        """Published and finished brackets (and, for their organisers, drafts)."""
        brackets = brackets_for_viewer(user=request.user, include_archived=True)
        brackets = brackets.order_by("-created_at", "id")
        brackets = list(filtered(request, brackets, SeasonScopedArchivedFilter)[:200])
        summaries = bracket_summaries(brackets=brackets)
        return Response([bracket_data(bracket, summaries[bracket.pk]) for bracket in brackets])

    @extend_schema(responses={200: BracketDetailSerializer})
    def retrieve(self, request, pk=None):
        """A bracket with its seeds, every match (slots, teams, games, winner) and placings.
        A draft is found only by the organisers of its league."""
        return Response(bracket_detail_data(bracket_for_viewer(user=request.user, pk=pk)))

    @extend_schema(request=BracketInputSerializer, responses={201: BracketDetailSerializer})
    def create(self, request):
        """A draft bracket, seeded from the current standings (``team_count``) or by hand
        (``teams``)."""
        serializer = BracketInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        bracket = bracket_create(user=request.user, **data)
        return Response(bracket_detail_data(bracket), status=status.HTTP_201_CREATED)

    @extend_schema(request=RenameSerializer, responses={200: BracketDetailSerializer})
    def partial_update(self, request, pk=None):
        """Rename a bracket. Archive it with ``POST …/archive/``."""
        bracket = _bracket(pk)
        data = parse(RenameSerializer, request)
        if "name" in data:
            bracket_rename(bracket=bracket, user=request.user, name=data["name"])
        return Response(bracket_detail_data(bracket))

    @clock_schema(
        parameters=[OpenApiParameter("number", int, OpenApiParameter.PATH, description="round")],
        operation="brackets",
    )
    @action(detail=True, methods=["get", "post"], url_path=r"rounds/(?P<number>[0-9]{1,9})/clock")
    def round_clock(self, request, pk=None, number=None):
        """A bracket round's clock: read it (public), or start, extend or stop it (organisers)."""
        bracket = bracket_for_viewer(user=request.user, pk=pk)
        return clock_endpoint(request, bracket=bracket, round_number=int(number))

    @extend_schema(
        request=PublishInputSerializer,
        responses={200: BracketDetailSerializer, 409: OpenApiResponse(description="published")},
    )
    @action(detail=True, methods=["post"])
    def publish(self, request, pk=None):
        """Publish a draft: the ready matches get their games and captain links (at the free
        tables of ``night``, if given)."""
        data = parse(PublishInputSerializer, request)
        bracket = bracket_publish(bracket=_bracket(pk), user=request.user, night=data["night"])
        return Response(bracket_detail_data(bracket))

    @extend_schema(request=CorrectionInputSerializer, responses={200: CorrectionPreviewSerializer})
    @action(detail=True, methods=["post"], url_path="corrections/preview")
    def correction_preview(self, request, pk=None):
        """What changing a decided match's winner would reset. Writes nothing."""
        serializer = CorrectionInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        preview = bracket_correction_preview(
            bracket=_bracket(pk), code=data["match"], winner=data["winner"], user=request.user
        )
        return Response(preview_data(preview))

    @extend_schema(
        request=CorrectionApplySerializer,
        responses={
            200: CorrectionPreviewSerializer,
            409: OpenApiResponse(description="the bracket changed since the preview"),
        },
    )
    @action(detail=True, methods=["post"])
    def corrections(self, request, pk=None):
        """Apply a correction with the reset list the organiser agreed to."""
        serializer = CorrectionApplySerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        preview = bracket_correct(
            bracket=_bracket(pk),
            code=data["match"],
            winner=data["winner"],
            reason=data["reason"],
            reset=data["reset"],
            user=request.user,
        )
        return Response(preview_data(preview))

    @extend_schema(request=WithdrawalInputSerializer, responses={200: BracketDetailSerializer})
    @action(detail=True, methods=["post"])
    def withdrawals(self, request, pk=None):
        """A team withdraws: its remaining matches are forfeited; results played are kept."""
        serializer = WithdrawalInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        bracket = bracket_withdraw_team(
            bracket=_bracket(pk), team=data["team"], reason=data["reason"], user=request.user
        )
        return Response(bracket_detail_data(bracket))


# --------------------------------------------------------------------------------------------
# A team season's schedule
# --------------------------------------------------------------------------------------------


class ScheduleInputSerializer(serializers.Serializer):
    nights = serializers.ListField(
        child=serializers.DateField(), min_length=1, help_text="The nights' dates."
    )
    cycles = serializers.IntegerField(default=1, help_text="Teams meet once (1) or twice (2).")
    rounds_per_night = serializers.IntegerField(min_value=1, help_text="At most, on one night.")


class ScheduledGameSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    table = serializers.IntegerField()
    team_a = serializers.IntegerField()
    team_b = serializers.IntegerField()
    names = serializers.ListField(child=serializers.CharField())
    status = serializers.CharField()
    score = serializers.ListField(child=serializers.IntegerField())


class ScheduledRoundSerializer(serializers.Serializer):
    round = serializers.IntegerField(help_text="The round's number within its night.")
    games = ScheduledGameSerializer(many=True)
    bye = serializers.IntegerField(allow_null=True, help_text="The team sitting out, if any.")


class ScheduledNightSerializer(serializers.Serializer):
    night = serializers.IntegerField()
    date = serializers.DateField()
    rounds = ScheduledRoundSerializer(many=True)


class ScheduleSerializer(serializers.Serializer):
    season = serializers.IntegerField()
    cycles = serializers.IntegerField()
    rounds_per_night = serializers.IntegerField()
    games = serializers.IntegerField(help_text="How many games the schedule holds.")
    nights = ScheduledNightSerializer(many=True)


def schedule_data(summary: ScheduleSummary) -> dict:
    schedule = summary.schedule
    return {
        "season": schedule.season_id,
        "cycles": schedule.cycles,
        "rounds_per_night": schedule.rounds_per_night,
        "games": summary.game_count,
        "nights": [
            {
                "night": line.night.pk,
                "date": line.night.date.isoformat(),
                "rounds": [
                    {
                        "round": played.number,
                        "games": [
                            {
                                "game": game.pk,
                                "table": game.table_number,
                                "team_a": game.team_a_id,
                                "team_b": game.team_b_id,
                                "names": [game.team_a.name, game.team_b.name],
                                "status": game.status,
                                "score": [game.score_a, game.score_b],
                            }
                            for game in played.games
                        ],
                        "bye": played.bye.pk if played.bye else None,
                    }
                    for played in line.rounds
                ],
            }
            for line in summary.nights
        ],
    }


class SeasonScheduleView(APIView):
    """A team season's schedule: every team meets every other once or twice over the nights."""

    def _season(self, pk) -> Season:
        season = Season.objects.not_archived().select_related("league").filter(pk=pk).first()
        if season is None:
            raise NotFoundError("no such season")
        return season

    @extend_schema(
        responses={200: ScheduleSerializer, 404: OpenApiResponse(description="no schedule")}
    )
    def get(self, request, pk: int):
        summary = season_schedule_summary(season=self._season(pk))
        if summary is None:
            raise NotFoundError("this season has no schedule yet")
        return Response(schedule_data(summary))

    @extend_schema(
        request=ScheduleInputSerializer,
        responses={
            201: ScheduleSerializer,
            409: OpenApiResponse(description="the season already has a schedule"),
        },
    )
    def post(self, request, pk: int):
        """Create the nights and every scheduled game (with captain links), byes balanced."""
        season = self._season(pk)
        serializer = ScheduleInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        season_schedule_create(season=season, user=request.user, **serializer.validated_data)
        summary = season_schedule_summary(season=season)
        return Response(schedule_data(summary), status=status.HTTP_201_CREATED)
