"""API views for a season's standings: the standings a page at a time, and how the season ranks."""

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api.pagination import BoundedLimitOffsetPagination
from core.errors import DomainError, NotFoundError
from league.access import season_for_organiser
from league.models import Season
from scoring.games import selectors as games_selectors
from scoring.standings import selectors
from scoring.standings.api import serializers as s
from scoring.standings.models import StandingLine, StandingSnapshot
from scoring.standings.services.recompute import season_set_standing_rules

STANDINGS_PAGE_PARAMETERS = [
    OpenApiParameter(
        "limit",
        int,
        description="Rows per page (default 100, clamped to 1-500; junk is ignored).",
    ),
    OpenApiParameter(
        "offset", int, description="Rows to skip (clamped to 0-1,000,000; junk is ignored)."
    ),
    OpenApiParameter(
        "detail",
        bool,
        description="With `true`, the response also holds `player_stats`, `team_stats`, "
        "`ratings` and `nights` for the entrants of this page (in a team season, the players of "
        "its teams); without it (the default) they are left out: in a large season one player's "
        "partners and opponents alone run to tens of kilobytes. One player's full line is also at "
        "`/api/v1/seasons/{id}/players/{player_id}/stats/`.",
    ),
]


def _flag(request, name: str) -> bool:
    value = request.query_params.get(name, "").strip().lower()
    if value in ("", "0", "false", "no", "off"):
        return False
    if value in ("1", "true", "yes", "on"):
        return True
    raise DomainError(f"{name} must be true or false", field=name)


class SeasonStandingsView(APIView):
    """A season's standings, a page of rows at a time (``limit``/``offset`` like every list, with
    ``count``, ``next`` and ``previous``): ranks with their reasons; with ``detail=true`` also the
    stats, ratings and night-by-night lines of the page's entrants.

    ``is_current`` is false while a recompute is pending (the season has newer results).
    """

    permission_classes = []

    @extend_schema(
        parameters=STANDINGS_PAGE_PARAMETERS,
        responses={200: s.StandingsSnapshotSerializer},
        operation_id="seasons_standings",
        tags=["seasons"],
    )
    def get(self, request, pk):
        season = Season.objects.not_archived().filter(pk=pk).first()
        if season is None:
            raise NotFoundError("no such season")
        detail = _flag(request, "detail")
        snapshot = selectors.season_standings_head(season=season)
        if snapshot is None:
            raise NotFoundError("no standings yet: no game of this season has finished")
        paginator = BoundedLimitOffsetPagination()
        rows = paginator.paginate_queryset(snapshot.rows, request, view=self)
        body = {
            "season": season.pk,
            "results_version": snapshot.results_version,
            "is_current": games_selectors.results_are_current(
                season_id=season.pk, version=snapshot.results_version
            ),
            "computed_at": snapshot.computed_at,
            "count": paginator.count,
            "next": paginator.get_next_link(),
            "previous": paginator.get_previous_link(),
            "standings": {**snapshot.standings_meta, "rows": rows},
        }
        if detail:
            entrants = [row["entrant"] for row in rows]
            players = entrants
            if season.format == Season.Format.TEAMS:  # the players of the page's teams, in order
                pairs = {
                    team: (one, two)
                    for team, one, two in season.teams.filter(pk__in=entrants).values_list(
                        "pk", "player_one_id", "player_two_id"
                    )
                }
                players = [player for team in entrants for player in pairs.get(team, ())]
            for part, kind, ids in (
                ("player_stats", StandingLine.Kind.PLAYER, players),
                ("team_stats", StandingLine.Kind.TEAM, entrants),
                ("ratings", StandingLine.Kind.RATING, players),
            ):
                body[part] = selectors.season_lines(season_id=season.pk, kind=kind, entrant_ids=ids)
            wanted = {str(entrant) for entrant in entrants}
            nights = StandingSnapshot.objects.filter(pk=snapshot.pk).values_list(
                "nights", flat=True
            )[0]
            body["nights"] = [
                {
                    **night,
                    "entrants": {
                        key: line for key, line in night["entrants"].items() if key in wanted
                    },
                }
                for night in nights
            ]
        return Response(body)


class SeasonStandingRulesView(APIView):
    """Choose how the season ranks (organisers of its league); the standings are recomputed."""

    @extend_schema(
        request=s.StandingRulesSerializer,
        responses={200: s.StandingRulesSerializer},
        operation_id="seasons_standing_rules",
        tags=["seasons"],
    )
    def put(self, request, pk):
        season = season_for_organiser(user=request.user, pk=pk)
        serializer = s.StandingRulesSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        season = season_set_standing_rules(
            season=season, rules=serializer.validated_data, user=request.user
        )
        return Response(season.standing_rules)
