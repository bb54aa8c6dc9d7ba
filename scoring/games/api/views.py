"""API views for games and hands: parse, find the game through its audited door, call one service.

Hands may be written by an organiser of the league (session or token auth) or by the game's
captain, who sends the game's captain token in the ``X-Captain-Token`` header.
"""

from contextlib import contextmanager

import django_filters
from django.db.models import Q
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.exceptions import Throttled
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api.errors import domain_error_response
from core.errors import ConflictError, DomainError, NotFoundError
from league.access import require_league_organiser
from league.api import serializers as league_serializers
from league.api.filters import id_filter
from league.api.views import ReadCreateViewSet
from league.domain.rules import PRESETS
from league.domain.rules import Rulebook as RulebookRules
from league.models import Rulebook, Season
from scoring.games import services
from scoring.games.access import (
    OTHER_GAME,
    OTHER_GAME_CODE,
    GameDoor,
    captain_guess_refused,
    game_for_captain,
    game_for_organiser,
)
from scoring.games.api import serializers as s
from scoring.games.domain.engine import score_hand
from scoring.games.domain.hand_input import hand_input_parse
from scoring.games.models import Game, Hand

IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    str,
    OpenApiParameter.HEADER,
    description="A key the client makes for this hand; a retry with the same key and the same "
    "facts returns the hand already recorded (200) instead of recording it twice.",
)
CAPTAIN_TOKEN = OpenApiParameter(
    "X-Captain-Token",
    str,
    OpenApiParameter.HEADER,
    description="The game's captain token (from its link or QR code), instead of organiser auth.",
)

NUMBER_REQUIRED = (
    "send the hand's number with a captain token: it is how a retry under a new Idempotency-Key "
    "is told apart from the next hand"
)


TOO_MANY_GUESSES = "too many wrong captain tokens from this address or like this one."


def too_many_guesses(wait: int) -> Throttled:
    """429: DRF adds "Expected available in N seconds." and the ``Retry-After`` header."""
    return Throttled(wait=wait, detail=TOO_MANY_GUESSES)


class GameFilter(django_filters.FilterSet):
    season = id_filter("season_id", "only this season's")
    night = id_filter("night_id", "only this night's")
    status = django_filters.ChoiceFilter(choices=Game.Status.choices)
    confirmation = django_filters.ChoiceFilter(choices=Game.Confirmation.choices)


def scoring_door(request, pk) -> tuple[GameDoor, str]:
    """The door a request scores game ``pk`` by, and how it gets in: as its captain (the
    ``X-Captain-Token`` header) or as an organiser (session or token auth)."""
    token = request.headers.get("X-Captain-Token")
    if not token:
        return GameDoor(pk=pk, user=request.user), Hand.Source.API
    return GameDoor(pk=pk, captain_token=token), Hand.Source.CAPTAIN


@contextmanager
def counting_wrong_tokens(request, source: str):
    """A door that finds no game for a captain token counts a wrong guess, as a wrong ``/t/``
    link does (``scoring.games.access.captain_guess_refused``): 404, or 429 past the limits. Decided
    after the token was looked up, so a valid token is never refused."""
    try:
        yield
    except NotFoundError as error:
        if source == Hand.Source.CAPTAIN and error.code != OTHER_GAME_CODE:
            token = request.headers.get("X-Captain-Token", "")
            wait = captain_guess_refused(request, token=token)
            if wait is not None:
                raise too_many_guesses(wait) from None
        raise


def writable_game(request, pk) -> tuple[Game, str]:
    """The game a request may score, and how it got in (:func:`scoring_door`), read now."""
    door, source = scoring_door(request, pk)
    with counting_wrong_tokens(request, source):
        if source == Hand.Source.CAPTAIN:
            game = game_for_captain(token=door.captain_token, to_score=True)
            if str(game.pk) != str(pk):
                raise NotFoundError(OTHER_GAME, code=OTHER_GAME_CODE)
            return game, source
        return game_for_organiser(user=request.user, pk=pk, to_score=True), source


def conflict_with_score(error: ConflictError, game_id: int) -> Response:
    game = Game.objects.get(pk=game_id)
    return domain_error_response(error, {"game": s.GameSerializer(game).data})


class GameViewSet(ReadCreateViewSet):
    """Games in use: none of an archived season or night (restore it to see them again)."""

    queryset = Game.objects.filter(
        Q(night=None) | Q(night__archived_at=None), season__archived_at=None
    ).select_related("season")
    serializer_class = s.GameSerializer
    input_serializer_class = s.GameInputSerializer
    filterset_class = GameFilter
    allows_captain_token = True

    def get_serializer_class(self):
        return s.GameDetailSerializer if self.action == "retrieve" else s.GameSerializer

    @extend_schema(request=s.GameInputSerializer, responses={201: s.GameSerializer})
    def create(self, request):
        data = self.parse(request)
        require_league_organiser(user=request.user, league_id=data["season"].league_id)
        game = services.game_create(
            season=data["season"],
            seats=tuple(data["seats"]),
            team_a=data["team_a"],
            team_b=data["team_b"],
            first_dealer_seat=data["first_dealer_seat"],
        )
        return self.created(game)

    @extend_schema(
        request=s.FinalScoreSerializer,
        responses={200: s.GameSerializer},
        description="Record a game by its final score alone, for leagues that keep no hand detail.",
    )
    @action(detail=True, methods=["post"], url_path="final-score")
    def final_score(self, request, pk=None):
        game = game_for_organiser(user=request.user, pk=pk)
        serializer = s.FinalScoreSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        game = services.game_record_final_score(
            game=game, user=request.user, **serializer.validated_data
        )
        return Response(s.GameSerializer(game, context={"request": request}).data)

    @extend_schema(
        parameters=[OpenApiParameter("all", bool, description="include undone and corrected rows")],
        responses={200: s.HandSerializer(many=True)},
    )
    @action(detail=True, methods=["get"], pagination_class=None)
    def hands(self, request, pk=None):
        """The game's hands in order (only those that count, unless ``all=true``)."""
        game = self.get_object()
        hands = game.hands.select_related("game__season").order_by("number", "created_at")
        if request.query_params.get("all") not in ("1", "true", "yes"):
            hands = hands.filter(status=Hand.Status.ACTIVE)
        return Response(s.HandSerializer(hands, many=True, context={"request": request}).data)

    @extend_schema(
        parameters=[IDEMPOTENCY_KEY, CAPTAIN_TOKEN],
        request=s.HandInputSerializer,
        responses={
            201: s.HandWithGameSerializer,
            200: OpenApiResponse(
                s.HandWithGameSerializer, description="a retry: the hand already recorded"
            ),
            409: OpenApiResponse(description="the hand was already entered, or the game is over"),
        },
    )
    @hands.mapping.post
    def record_hand(self, request, pk=None):
        """Record the next hand of the game; its points come from the season's rulebook."""
        door, source = scoring_door(request, pk)
        try:
            data, number = hand_input_parse(request.data, with_number=True)
            if source == Hand.Source.CAPTAIN and number is None:
                raise DomainError(NUMBER_REQUIRED, field="number", code="number_required")
        except DomainError:
            writable_game(request, pk)  # a wrong door is answered before a wrong body
            raise
        try:
            with counting_wrong_tokens(request, source):
                result = services.hand_record(
                    game=door,
                    data=data,
                    client_key=request.headers.get("Idempotency-Key") or None,
                    expected_number=number,
                    source=source,
                    user=request.user,
                )
        except ConflictError as error:
            return conflict_with_score(error, pk)
        return Response(
            s.hand_with_game(result.hand, result.game),
            status=status.HTTP_201_CREATED if result.created else status.HTTP_200_OK,
        )

    @extend_schema(
        parameters=[CAPTAIN_TOKEN],
        request=s.HandUndoSerializer,
        responses={200: s.GameSerializer},
    )
    @action(detail=True, methods=["post"], url_path="hands/undo")
    def undo_hand(self, request, pk=None):
        """Undo the last hand (name its number, so a retry cannot undo two)."""
        game, source = writable_game(request, pk)
        serializer = s.HandUndoSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            result = services.hand_undo(
                game=game, user=request.user, source=source, **serializer.validated_data
            )
        except ConflictError as error:
            return conflict_with_score(error, game.pk)
        return Response(s.GameSerializer(result.game).data)

    @extend_schema(
        parameters=[CAPTAIN_TOKEN],
        request=s.HandCorrectionSerializer,
        responses={200: s.HandWithGameSerializer},
    )
    @action(detail=True, methods=["post"], url_path=r"hands/(?P<number>[0-9]{1,9})/correct")
    def correct_hand(self, request, pk=None, number=None):
        """Correct an earlier hand with a reason; the old row is kept, marked as replaced."""
        game, source = writable_game(request, pk)
        data, _number = hand_input_parse(request.data)
        reasons = s.CorrectionReasonSerializer(data=request.data)
        reasons.is_valid(raise_exception=True)
        reason = reasons.validated_data["reason"]
        result = services.hand_correct(
            game=game,
            number=int(number),
            data=data,
            reason=reason,
            user=request.user,
            source=source,
        )
        return Response(s.hand_with_game(result.hand, result.game))

    @extend_schema(parameters=[CAPTAIN_TOKEN], request=None, responses={200: s.GameSerializer})
    @action(detail=True, methods=["post"])
    def confirm(self, request, pk=None):
        """The other side confirms the final score."""
        game, _source = writable_game(request, pk)
        return Response(s.GameSerializer(services.game_confirm(game=game, user=request.user)).data)

    @extend_schema(
        parameters=[CAPTAIN_TOKEN], request=s.DisputeSerializer, responses={200: s.GameSerializer}
    )
    @action(detail=True, methods=["post"])
    def dispute(self, request, pk=None):
        """The other side disputes the final score with a short reason."""
        game, _source = writable_game(request, pk)
        serializer = s.DisputeSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        game = services.game_dispute(game=game, user=request.user, **serializer.validated_data)
        return Response(s.GameSerializer(game).data)

    @extend_schema(request=None, responses={200: s.CaptainLinkSerializer})
    @action(detail=True, methods=["get"], url_path="captain-link")
    def captain_link(self, request, pk=None):
        """The game's captain link (organisers only)."""
        game = game_for_organiser(user=request.user, pk=pk)
        return Response(s.CaptainLinkSerializer(game, context={"request": request}).data)

    @extend_schema(request=None, responses={200: s.CaptainLinkSerializer})
    @captain_link.mapping.post
    def reissue_captain_link(self, request, pk=None):
        """Revoke the game's captain link and QR code and issue new ones (organisers only)."""
        game = game_for_organiser(user=request.user, pk=pk)
        game = services.game_reissue_captain_token(game=game, user=request.user)
        return Response(s.CaptainLinkSerializer(game, context={"request": request}).data)


class RulebookPreviewView(APIView):
    """Score a hand under a rulebook without writing anything."""

    permission_classes = []
    authentication_classes = []

    @extend_schema(
        request=s.PreviewInputSerializer,
        responses={200: s.PreviewSerializer},
        operation_id="rulebooks_preview",
        tags=["rulebooks"],
    )
    def post(self, request):
        serializer = s.PreviewInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        reference = serializer.validated_data["rulebook"]
        if reference in PRESETS:
            rules = PRESETS[reference].rulebook
        elif reference.isdigit() and (found := Rulebook.objects.filter(pk=reference).first()):
            rules = RulebookRules.from_options(found.options)
        else:
            raise DomainError(
                f"no rulebook {reference!r}: give a preset slug ({', '.join(PRESETS)}) or an id",
                field="rulebook",
            )
        hand = services.HandInput.from_data(serializer.validated_data["hand"])
        if hand.caller_id is not None:
            raise DomainError("a preview takes no caller (it has no table)", field="caller")
        facts = services.engine_facts_without_table(hand)
        score = score_hand(rules, facts)
        return Response(
            {
                "outcome": score.outcome.value,
                "points_a": score.points_a,
                "points_b": score.points_b,
                "summary": score.summary,
            }
        )


class SeasonRulesView(APIView):
    """Change a season's scoring rules: a new rulebook version, never an edit in place; every hand
    is then re-derived under it by a background job (organisers of the league)."""

    @extend_schema(
        request=league_serializers.SeasonRulesInputSerializer,
        responses={202: league_serializers.SeasonSerializer},
        operation_id="seasons_rules_create",
        tags=["seasons"],
    )
    def post(self, request, pk):
        from league.access import season_for_organiser

        season = season_for_organiser(user=request.user, pk=pk)
        serializer = league_serializers.SeasonRulesInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.season_change_rules(
            season=season, options=serializer.validated_data["options"], user=request.user
        )
        season = Season.objects.select_related("rulebook").get(pk=season.pk)
        return Response(
            league_serializers.SeasonSerializer(season).data, status=status.HTTP_202_ACCEPTED
        )
