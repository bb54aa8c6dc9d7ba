"""Public, read-only API over the standings snapshot: one player's stats line and rating."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from core.errors import NotFoundError
from league.models import Player, Season
from scoring.games import selectors
from scoring.standings import selectors as standings_selectors
from scoring.standings.domain.stats import AVERAGE, COUNT, POINTS, STATS_LINE, StatField
from scoring.standings.models import StandingSnapshot


class PairRecordSerializer(serializers.Serializer):
    other_id = serializers.IntegerField(help_text="The partner's or opponent's player id.")
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    draws = serializers.IntegerField()


_FIELD_OF_KIND = {
    COUNT: serializers.IntegerField,
    POINTS: serializers.FloatField,
    AVERAGE: serializers.FloatField,
}


def _stat_field(stat: StatField) -> serializers.Field:
    return _FIELD_OF_KIND[stat.kind](help_text=stat.description or None)


# A player's stats line: player_id, the fields of the domain's STATS_LINE in its order, then the
# partner and opponent records. Built with type() so that the fields come from the declaration;
# a serializer's fields keep the order they were made in.
PlayerStatsLineSerializer = type(
    "PlayerStatsLineSerializer",
    (serializers.Serializer,),
    {
        "__module__": __name__,
        "player_id": serializers.IntegerField(),
        **{stat.name: _stat_field(stat) for stat in STATS_LINE},
        "partners": PairRecordSerializer(many=True),
        "opponents": PairRecordSerializer(many=True),
    },
)


class PlayerRatingSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField(help_text="A conservative skill estimate (mu - 3 sigma).")
    display_rating = serializers.IntegerField()
    games_rated = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    draws = serializers.IntegerField()


class PlayerSeasonStatsSerializer(serializers.Serializer):
    season = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    results_version = serializers.IntegerField()
    is_current = serializers.BooleanField(
        help_text="False while a recompute is pending (the season has newer results)."
    )
    computed_at = serializers.DateTimeField()
    standing = serializers.JSONField(
        allow_null=True,
        help_text="The player's standings row in an individual season (rank, record, reason), "
        "else null",
    )
    stats = PlayerStatsLineSerializer(allow_null=True)
    rating = PlayerRatingSerializer(allow_null=True)


class SeasonPlayerStatsView(APIView):
    """One player's season: stats line (calls, marches, loners, euchres, partners, opponents),
    rating and, in an individual season, standings row. Read from the latest snapshot's stored
    lines: the player's rows alone, however large the season."""

    permission_classes = []

    @extend_schema(
        responses={200: PlayerSeasonStatsSerializer},
        operation_id="seasons_player_stats",
        tags=["seasons"],
    )
    def get(self, request, pk, player_id):
        season = Season.objects.not_archived().filter(pk=pk).first()
        if season is None:
            raise NotFoundError("no such season")
        player = Player.objects.filter(pk=player_id, league_id=season.league_id).first()
        if player is None:
            raise NotFoundError("no such player in this season's league")
        snapshot = (
            StandingSnapshot.objects.filter(season=season)
            .only("season_id", "results_version", "computed_at")
            .first()
        )
        if snapshot is None:
            raise NotFoundError("no standings yet: no game of this season has finished")
        lines = standings_selectors.player_lines(season_ids=[season.pk], player_id=player.pk)
        mine = lines.get(season.pk, {})
        stats, rating, standing = mine.get("player"), mine.get("rating"), mine.get("standing")
        return Response(
            {
                "season": season.pk,
                "player": player.pk,
                "name": player.name,
                "results_version": snapshot.results_version,
                "is_current": selectors.results_are_current(
                    season_id=season.pk, version=snapshot.results_version
                ),
                "computed_at": snapshot.computed_at,
                "standing": standing,
                "stats": stats,
                "rating": rating,
            }
        )
