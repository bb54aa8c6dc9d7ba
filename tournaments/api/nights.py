"""API of individual nights: create, check in (one by one or the whole roster), plan (with its
quality report), publish, start and finish rounds, repair, finish, the table cards. Parse, call one
service from ``tournaments.services.nights`` (or ``.tables``), render. Reads are public and never
show captain tokens; writes, and the table cards' links, need an organiser of the league.
A draft plan is the organisers' alone: to anyone else a night with a draft has no plan yet.
"""

from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from core.api.permissions import ReadOnlyOrOrganiser
from core.errors import NotFoundError
from league.access import is_league_organiser
from league.api.filters import SeasonScopedArchivedFilter
from league.api.views import parse
from league.models import Night, Player, Season
from league.updates import night_reschedule
from scoring.games.models import Game
from tournaments.api.clocks import clock_endpoint, clock_schema
from tournaments.models import NightPlan
from tournaments.services import nights as services
from tournaments.services import tables as table_services

# --- serializers -----------------------------------------------------------------------------


class NightInputSerializer(serializers.Serializer):
    season = serializers.PrimaryKeyRelatedField(queryset=Season.objects.all())
    date = serializers.DateField()
    venue = serializers.CharField(max_length=120, required=False, default="", allow_blank=True)


class NightUpdateSerializer(serializers.Serializer):
    date = serializers.DateField(required=False, help_text="Move the night to this date.")
    venue = serializers.CharField(max_length=120, required=False, allow_blank=True)


class CheckInSerializer(serializers.Serializer):
    player = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(), required=False, allow_null=True, default=None
    )
    name = serializers.CharField(
        max_length=120,
        required=False,
        default="",
        allow_blank=True,
        help_text="A walk-in's name (added to the roster if new); instead of ``player``.",
    )


class CheckOutSerializer(serializers.Serializer):
    player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())


class TableCardSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="The table's number.")
    url = serializers.URLField(
        help_text="The table card's link (valid all night: it opens the captain's score card of "
        "whatever the table plays now). A scoring secret: print it as the table's QR code."
    )


class PlanInputSerializer(serializers.Serializer):
    rounds = serializers.IntegerField(min_value=1, max_value=64)
    hands_per_game = serializers.IntegerField(
        min_value=1,
        max_value=100,
        required=False,
        allow_null=True,
        default=None,
        help_text="A per-night game length; empty: the season rulebook's.",
    )
    seed = serializers.IntegerField(min_value=0, required=False, default=0)
    keep_apart = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2),
        required=False,
        default=list,
        help_text="Pairs of player ids who must never partner: [[a, b], …].",
    )
    fixed_tables = serializers.DictField(
        child=serializers.IntegerField(min_value=1),
        required=False,
        default=dict,
        help_text="Player id → the table number they always play at (accessibility).",
    )
    stationary = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        default=list,
        max_length=64,
        help_text="Player ids, each in fixed_tables (one a table), who keep their table and seat "
        "all night and never sit out; the report's ``stationary`` says what it costs.",
    )


class RepairInputSerializer(serializers.Serializer):
    total_rounds = serializers.IntegerField(
        min_value=1, required=False, allow_null=True, default=None
    )
    substitute_for = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(),
        required=False,
        allow_null=True,
        default=None,
        help_text="The leaver a substitute replaces (leave empty to re-plan for who is here).",
    )
    substitute = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(), required=False, allow_null=True, default=None
    )
    substitute_name = serializers.CharField(
        max_length=120, required=False, default="", allow_blank=True
    )


class TableSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    seats = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Four player ids clockwise: seats 0 and 2 partner against 1 and 3; seat 0 "
        "deals first.",
    )
    game = serializers.IntegerField(allow_null=True)
    game_status = serializers.CharField(allow_null=True)


class RoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.CharField()
    tables = TableSerializer(many=True)
    byes = serializers.ListField(child=serializers.IntegerField())


class PlanSerializer(serializers.Serializer):
    status = serializers.CharField()
    rounds = serializers.IntegerField()
    hands_per_game = serializers.IntegerField(allow_null=True)
    seed = serializers.IntegerField()
    keep_apart = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField())
    )
    fixed_tables = serializers.DictField(child=serializers.IntegerField())
    stationary = serializers.ListField(child=serializers.IntegerField())
    report = serializers.DictField(
        help_text="The quality report; ``summary`` says it in words; ``season`` holds the "
        "season's figures (earlier nights plus this plan) and ``stationary`` the cost of "
        "keeping players in place."
    )
    schedule = RoundSerializer(many=True)


class AttendanceSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    is_present = serializers.BooleanField()


class NightSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    season = serializers.IntegerField(source="season_id")
    date = serializers.DateField()
    venue = serializers.CharField()
    status = serializers.CharField()
    archived_at = serializers.DateTimeField(allow_null=True, help_text="null while in use")


class NightDetailSerializer(NightSerializer):
    game_length = serializers.CharField()
    attendance = AttendanceSerializer(many=True)
    plan = PlanSerializer(allow_null=True, help_text="null until a plan is published (public)")


class StartedGameSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    table_number = serializers.IntegerField()
    seats = serializers.ListField(child=serializers.IntegerField())
    first_dealer_seat = serializers.IntegerField()
    captain_link = serializers.CharField()
    qr_code = serializers.CharField()


def night_detail_data(night: Night, *, include_draft: bool = False) -> dict:
    """The night as the API shows it; a draft plan only with ``include_draft`` (organisers)."""
    plan = NightPlan.objects.filter(night=night).first()
    if plan is not None and plan.status == NightPlan.Status.DRAFT and not include_draft:
        plan = None
    attendance = [
        {"player": a.player_id, "name": a.player.name, "is_present": a.left_at is None}
        for a in night.attendances.select_related("player").order_by("checked_in_at", "pk")
    ]
    plan_data = None
    if plan is not None:
        plan_data = {
            "status": plan.status,
            "rounds": plan.rounds,
            "hands_per_game": plan.hands_per_game,
            "seed": plan.seed,
            "keep_apart": plan.keep_apart,
            "fixed_tables": plan.fixed_tables,
            "stationary": plan.stationary,
            "report": plan.report,
            "schedule": [
                {
                    "number": chart.number,
                    "status": chart.status,
                    "tables": [
                        {
                            "table": table.number,
                            "seats": [p.pk for p in table.players],
                            "game": table.game.pk if table.game else None,
                            "game_status": table.game.status if table.game else None,
                        }
                        for table in chart.tables
                    ],
                    "byes": sorted(p.pk for p in chart.byes),
                }
                for chart in services.night_chart(night=night, include_draft=include_draft)
            ],
        }
    return {
        "id": night.pk,
        "season_id": night.season_id,
        "date": night.date,
        "venue": night.venue,
        "status": night.status,
        "archived_at": night.archived_at,
        "game_length": services.night_game_length(night=night),
        "attendance": attendance,
        "plan": plan_data,
    }


def started_game_data(request, game: Game) -> dict:
    link = reverse("captain:card", args=[game.captain_token])
    return {
        "id": game.pk,
        "table_number": game.table_number,
        "seats": list(game.seat_player_ids),
        "first_dealer_seat": game.first_dealer_seat,
        "captain_link": request.build_absolute_uri(link),
        "qr_code": request.build_absolute_uri(reverse("captain:qr", args=[game.captain_token])),
    }


# --- views -----------------------------------------------------------------------------------

ROUND_NUMBER = OpenApiParameter("number", int, OpenApiParameter.PATH, description="round number")


class NightViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """Nights of a season (individual ones are planned here). Reads are public; every write needs
    an organiser."""

    queryset = Night.objects.select_related("season").order_by("date", "pk")
    serializer_class = NightSerializer
    permission_classes = [ReadOnlyOrOrganiser]
    filterset_class = SeasonScopedArchivedFilter

    def get_queryset(self):
        return super().get_queryset()

    def _parse(self, serializer_class):
        serializer = serializer_class(data=self.request.data)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data

    def _night(self, pk) -> Night:
        return services.night_for_organiser(user=self.request.user, pk=int(pk))

    def _detail(self, night: Night, code=status.HTTP_200_OK) -> Response:
        night = services.night_get(pk=night.pk)
        organises = is_league_organiser(user=self.request.user, league_id=night.season.league_id)
        data = night_detail_data(night, include_draft=organises)
        return Response(NightDetailSerializer(data).data, status=code)

    def list(self, request, *args, **kwargs):
        """Nights of every season (team and individual), oldest first."""
        return super().list(request, *args, **kwargs)

    @extend_schema(responses={200: NightDetailSerializer})
    def retrieve(self, request, pk=None):
        """A night: attendance, the game length, and the plan with its report and every round."""
        if not str(pk).isdigit():
            raise NotFoundError("no such night")
        return self._detail(services.night_get(pk=int(pk)))

    @extend_schema(request=NightInputSerializer, responses={201: NightDetailSerializer})
    def create(self, request):
        """A new night of an individual season."""
        data = self._parse(NightInputSerializer)
        night = services.night_create(user=request.user, **data)
        return self._detail(night, status.HTTP_201_CREATED)

    @extend_schema(request=NightUpdateSerializer, responses={200: NightDetailSerializer})
    def partial_update(self, request, pk=None):
        """Reschedule a night: a new date (within its season's) or venue. Archive it with
        ``POST …/archive/``."""
        night = self._night(pk)
        night_reschedule(night=night, user=request.user, **parse(NightUpdateSerializer, request))
        return self._detail(night)

    @extend_schema(request=CheckInSerializer, responses={200: NightDetailSerializer})
    @action(detail=True, methods=["post"], url_path="check-in")
    def check_in(self, request, pk=None):
        """Check a roster player in, or a walk-in by name (added to the roster when new)."""
        night = self._night(pk)
        services.night_check_in(night=night, user=request.user, **self._parse(CheckInSerializer))
        return self._detail(night)

    @extend_schema(request=None, responses={200: NightDetailSerializer})
    @action(detail=True, methods=["post"], url_path="check-in-roster")
    def check_in_roster(self, request, pk=None):
        """Check in everyone on the league's roster not checked in yet, in one audited change
        (those who left stay out; sent again, it checks in nobody more)."""
        night = self._night(pk)
        services.night_check_in_roster(night=night, user=request.user)
        return self._detail(night)

    @extend_schema(request=None, responses={200: TableCardSerializer(many=True)})
    @action(detail=True, methods=["get"], url_path="table-cards")
    def table_cards(self, request, pk=None):
        """The night's table cards, one per table its plan or schedule uses (organisers only:
        each link scores the table's games)."""
        night = self._night(pk)
        cards = [
            {
                "number": card.number,
                "url": request.build_absolute_uri(reverse("table-card", args=[card.token])),
            }
            for card in table_services.night_table_cards(night=night, user=request.user)
        ]
        return Response(TableCardSerializer(cards, many=True).data)

    @extend_schema(request=CheckOutSerializer, responses={200: NightDetailSerializer})
    @action(detail=True, methods=["post"], url_path="check-out")
    def check_out(self, request, pk=None):
        """An early leaver; repair the plan afterwards for the rounds not started."""
        night = self._night(pk)
        services.night_check_out(night=night, user=request.user, **self._parse(CheckOutSerializer))
        return self._detail(night)

    @extend_schema(request=PlanInputSerializer, responses={200: NightDetailSerializer})
    @action(detail=True, methods=["post"])
    def plan(self, request, pk=None):
        """Generate the draft rotation for the players checked in; the answer's
        ``plan.report.summary`` says how good it is in words."""
        night = self._night(pk)
        data = self._parse(PlanInputSerializer)
        try:
            fixed = {int(player): table for player, table in data["fixed_tables"].items()}
        except ValueError:
            raise serializers.ValidationError(
                {"fixed_tables": ["the keys are player ids"]}
            ) from None
        data["fixed_tables"] = fixed
        services.night_plan(night=night, user=request.user, **data)
        return self._detail(night)

    @extend_schema(request=None, responses={200: NightDetailSerializer})
    @action(detail=True, methods=["post"])
    def publish(self, request, pk=None):
        """Publish the draft plan: players see it and rounds can start."""
        night = self._night(pk)
        services.night_publish(night=night, user=request.user)
        return self._detail(night)

    @extend_schema(
        request=None,
        parameters=[ROUND_NUMBER],
        responses={201: StartedGameSerializer(many=True)},
    )
    @action(
        detail=True,
        methods=["post"],
        url_path=r"rounds/(?P<number>[0-9]{1,9})/start",
        pagination_class=None,
    )
    def start_round(self, request, pk=None, number=None):
        """Start a round: one game per table with its captain link and QR code."""
        night = self._night(pk)
        games = services.round_start(night=night, number=int(number), user=request.user)
        data = [started_game_data(request, game) for game in games]
        return Response(StartedGameSerializer(data, many=True).data, status=status.HTTP_201_CREATED)

    @clock_schema(parameters=[ROUND_NUMBER], operation="nights")
    @action(
        detail=True,
        methods=["get", "post"],
        url_path=r"rounds/(?P<number>[0-9]{1,9})/clock",
        pagination_class=None,
    )
    def round_clock(self, request, pk=None, number=None):
        """A round's clock: read it (public), or start, extend or stop it (organisers)."""
        if request.method == "GET":
            if not str(pk).isdigit():
                raise NotFoundError("no such night")
            night = services.night_get(pk=int(pk))
        else:
            night = self._night(pk)
        return clock_endpoint(request, night=night, round_number=int(number))

    @extend_schema(request=None, parameters=[ROUND_NUMBER], responses={200: NightDetailSerializer})
    @action(detail=True, methods=["post"], url_path=r"rounds/(?P<number>[0-9]{1,9})/finish")
    def finish_round(self, request, pk=None, number=None):
        """Close a round whose games are all over."""
        night = self._night(pk)
        services.round_finish(night=night, number=int(number), user=request.user)
        return self._detail(night)

    @extend_schema(request=RepairInputSerializer, responses={200: NightDetailSerializer})
    @action(detail=True, methods=["post"])
    def repair(self, request, pk=None):
        """Re-plan the rounds not started for who is here now (late arrivals, leavers), or put a
        substitute in a leaver's seats. Started and finished rounds never change."""
        night = self._night(pk)
        services.night_repair(night=night, user=request.user, **self._parse(RepairInputSerializer))
        return self._detail(night)

    @extend_schema(request=None, responses={200: NightDetailSerializer})
    @action(detail=True, methods=["post"])
    def finish(self, request, pk=None):
        """End the night (its playing round must be over)."""
        night = self._night(pk)
        services.night_finish(night=night, user=request.user)
        return self._detail(night)
