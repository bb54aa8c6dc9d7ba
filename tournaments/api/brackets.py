"""API for brackets: parse, call one service (``tournaments.services.brackets``), render.

Reads are public (a bracket is as public as the standings); writes need an organiser of the
bracket's league, checked by the services through ``league.access``. Captain links are not part
of the public bracket: organisers get them from ``/api/v1/games/{id}/captain-link/``.
"""

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from league.errors import NotFoundError
from league.models import Season
from tournaments.models import Bracket
from tournaments.services import brackets as services

BRACKET_KINDS = [Bracket.Kind.SINGLE, Bracket.Kind.DOUBLE, Bracket.Kind.ROUND_ROBIN]


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
    seeding = serializers.CharField(help_text="standings or manual")
    cut_note = serializers.CharField(help_text="Why the cut line falls where it does.")
    team_count = serializers.IntegerField()
    champion = serializers.IntegerField(allow_null=True, help_text="The champion team's id.")


class EntrySerializer(serializers.Serializer):
    seed = serializers.IntegerField()
    team = serializers.IntegerField()
    name = serializers.CharField()
    standing_rank = serializers.IntegerField(allow_null=True)
    standing_reason = serializers.CharField()
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
    part = serializers.CharField(help_text="winners, losers, final, third_place or round_robin")
    round = serializers.IntegerField()
    status = serializers.CharField(help_text="waiting, ready, decided, bye or void")
    slots = SlotSerializer(many=True)
    first_team = serializers.IntegerField(allow_null=True)
    second_team = serializers.IntegerField(allow_null=True)
    first = serializers.CharField(help_text="The first team's name, or what the slot waits for.")
    second = serializers.CharField()
    winner = serializers.IntegerField(allow_null=True)
    decided_by = serializers.CharField(help_text="games, forfeit, correction or empty")
    wins = serializers.ListField(child=serializers.IntegerField(), help_text="games won")
    games = MatchGameSerializer(many=True)


class PlacingSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    team = serializers.IntegerField()
    name = serializers.CharField()
    note = serializers.CharField()


class BracketDetailSerializer(BracketSerializer):
    entries = EntrySerializer(many=True)
    matches = MatchSerializer(many=True)
    placings = PlacingSerializer(many=True)


class BracketInputSerializer(serializers.Serializer):
    season = serializers.PrimaryKeyRelatedField(queryset=Season.objects.all())
    kind = serializers.ChoiceField(choices=[(kind.value, kind.label) for kind in BRACKET_KINDS])
    name = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")
    team_count = serializers.IntegerField(
        min_value=2, required=False, help_text="Seed the top N teams of the current standings."
    )
    teams = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="Or the teams' ids in seed order (seed 1 first).",
    )
    best_of = serializers.IntegerField(default=1, help_text="1, 3 or 5 games a match")
    third_place = serializers.BooleanField(default=False)
    grand_final_reset = serializers.BooleanField(default=False)
    cycles = serializers.IntegerField(default=1, help_text="round robin: 1 or 2")


class CorrectionInputSerializer(serializers.Serializer):
    match = serializers.CharField(max_length=16, help_text="The decided match's code, e.g. W1-2.")
    winner = serializers.IntegerField(help_text="The team that really won it.")


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
    message = serializers.CharField()


class WithdrawalInputSerializer(serializers.Serializer):
    team = serializers.IntegerField()
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")


# --------------------------------------------------------------------------------------------
# Rendering
# --------------------------------------------------------------------------------------------


def bracket_data(bracket: Bracket, summary=None) -> dict:
    if summary is None:
        summary = services.bracket_summary(bracket=bracket)
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
        "seeding": bracket.seeding,
        "cut_note": bracket.cut_note,
        "team_count": len(summary.entries),
        "champion": summary.champion.pk if summary.champion else None,
    }


def bracket_detail_data(bracket: Bracket) -> dict:
    summary = services.bracket_summary(bracket=bracket)
    return {
        **bracket_data(bracket, summary),
        "entries": [
            {
                "seed": entry.seed,
                "team": entry.team_id,
                "name": entry.team.name,
                "standing_rank": entry.standing_rank,
                "standing_reason": entry.standing_reason,
                "withdrawn": entry.is_withdrawn,
            }
            for entry in summary.entries
        ],
        "matches": [
            {
                "code": line.match.code,
                "part": line.match.part,
                "round": line.match.round,
                "status": line.match.status,
                "slots": [line.match.first_slot, line.match.second_slot],
                "first_team": line.match.first_team_id,
                "second_team": line.match.second_team_id,
                "first": line.first,
                "second": line.second,
                "winner": line.match.winner_id,
                "decided_by": line.match.decided_by,
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
    }


def preview_data(preview: services.CorrectionPreview) -> dict:
    def described(match: services.ResetMatch) -> dict:
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
        "message": correction_message(preview),
    }


def correction_message(preview: services.CorrectionPreview) -> str:
    """The preview in one sentence, for the organiser to agree to."""
    head = f"{preview.new_winner} wins {preview.code} instead of {preview.old_winner}"
    if not preview.reset and not preview.stopped:
        return f"{head}; no later match changes."
    parts = []
    if preview.reset:
        parts.append(f"resets {', '.join(preview.reset_codes)}")
    if preview.stopped:
        parts.append(f"stops the games of {', '.join(match.code for match in preview.stopped)}")
    return f"{head}; this {' and '.join(parts)}."


# --------------------------------------------------------------------------------------------
# Views
# --------------------------------------------------------------------------------------------


def _bracket(pk) -> Bracket:
    bracket = Bracket.objects.select_related("season__league").filter(pk=pk).first()
    if bracket is None:
        raise NotFoundError("no such bracket")
    return bracket


class BracketViewSet(viewsets.ViewSet):
    """Brackets of team seasons: seeded, published, advanced as games end, corrected."""

    queryset = Bracket.objects.all()  # for the schema's path parameter type only

    @extend_schema(
        parameters=[OpenApiParameter("season", int, description="only this season's")],
        responses={200: BracketSerializer(many=True)},
    )
    def list(self, request):
        brackets = Bracket.objects.order_by("-created_at", "id")
        season = request.query_params.get("season")
        if season and season.isdigit():
            brackets = brackets.filter(season_id=season)
        return Response([bracket_data(bracket) for bracket in brackets[:200]])

    @extend_schema(responses={200: BracketDetailSerializer})
    def retrieve(self, request, pk=None):
        """A bracket with its seeds, every match (slots, teams, games, winner) and placings."""
        return Response(bracket_detail_data(_bracket(pk)))

    @extend_schema(request=BracketInputSerializer, responses={201: BracketDetailSerializer})
    def create(self, request):
        """A draft bracket, seeded from the current standings (``team_count``) or by hand
        (``teams``)."""
        serializer = BracketInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        bracket = services.bracket_create(user=request.user, **data)
        return Response(bracket_detail_data(bracket), status=status.HTTP_201_CREATED)

    @extend_schema(
        request=None,
        responses={200: BracketDetailSerializer, 409: OpenApiResponse(description="published")},
    )
    @action(detail=True, methods=["post"])
    def publish(self, request, pk=None):
        """Publish a draft: the ready matches get their games and captain links."""
        bracket = services.bracket_publish(bracket=_bracket(pk), user=request.user)
        return Response(bracket_detail_data(bracket))

    @extend_schema(request=CorrectionInputSerializer, responses={200: CorrectionPreviewSerializer})
    @action(detail=True, methods=["post"], url_path="corrections/preview")
    def correction_preview(self, request, pk=None):
        """What changing a decided match's winner would reset. Writes nothing."""
        serializer = CorrectionInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        preview = services.bracket_correction_preview(
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
        preview = services.bracket_correct(
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
        bracket = services.bracket_withdraw_team(
            bracket=_bracket(pk), team=data["team"], reason=data["reason"], user=request.user
        )
        return Response(bracket_detail_data(bracket))
