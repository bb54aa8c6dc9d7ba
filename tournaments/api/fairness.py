"""A season's fairness report through the API: ``GET /api/v1/seasons/<id>/fairness/``.

Read only. Anyone may read it while the season's organiser shows it publicly
(``fairness_public``); the league's organisers always may; for anyone else the season answers
404, as a season that does not exist. Words: see :mod:`tournaments.domain.fairness`. The
report is computed at each request from the season's seats (a few queries, see
:func:`tournaments.selectors.fairness.season_fairness_get`), so it is never stale.
"""

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from league.models import Season
from tournaments.selectors import fairness as selectors


class FairnessPlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The player's id.")
    name = serializers.CharField()
    games = serializers.IntegerField(help_text="Games played (finished, counting ones).")
    byes = serializers.IntegerField(help_text="Rounds sat out.")
    distinct_partners = serializers.IntegerField()
    distinct_opponents = serializers.IntegerField()
    most_with_one_partner = serializers.IntegerField(
        help_text="The most games played beside any one partner."
    )
    most_against_one_opponent = serializers.IntegerField(
        help_text="The most games played against any one opponent."
    )
    strength_of_schedule = serializers.FloatField(
        allow_null=True,
        help_text="The average opponent rating at the time each game was played (null: no game).",
    )
    average_partner_rating = serializers.FloatField(
        allow_null=True, help_text="The average partner rating at the time of each game."
    )
    partner_luck = serializers.FloatField(
        allow_null=True,
        help_text="The average of (partner rating − the season's players' average rating), at "
        "the time of each game: above 0, stronger partners than an average draw.",
    )
    rating = serializers.IntegerField(help_text="The display rating after every played game.")


class FairnessPairSerializer(serializers.Serializer):
    first = serializers.IntegerField(help_text="The lower player id of the pair.")
    first_name = serializers.CharField()
    second = serializers.IntegerField()
    second_name = serializers.CharField()
    partnered = serializers.IntegerField(help_text="Games the two played on the same side.")
    opposed = serializers.IntegerField(help_text="Games the two played on opposite sides.")


class FairnessChanceSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The player's or team's id.")
    name = serializers.CharField()
    skill = serializers.FloatField(help_text="The rating's mu (a team's: its players' sum).")
    first_chance = serializers.FloatField(help_text="0 to 1: the share of runs finished first.")


class FairnessMonteCarloSerializer(serializers.Serializer):
    runs = serializers.IntegerField(help_text="Simulated seasons.")
    seed = serializers.IntegerField(help_text="The random seed: same season, same figures.")
    games = serializers.IntegerField(help_text="Games of the schedule each run plays.")
    measure = serializers.ChoiceField(
        choices=["wins", "win_pct"],
        help_text="What the simulated seasons rank by: the season's first measure, wins or "
        "win percentage (any other measure is taken as win percentage).",
    )
    entrant_kind = serializers.ChoiceField(choices=["player", "team"])
    strongest = serializers.IntegerField(
        allow_null=True, help_text="The entrant with the highest mu now (null: no schedule)."
    )
    strongest_name = serializers.CharField(allow_blank=True)
    strongest_first_chance = serializers.FloatField(
        allow_null=True, help_text="0 to 1: how often the strongest finishes first."
    )
    chances = FairnessChanceSerializer(
        many=True, help_text="Every entrant, most often first first."
    )


class SeasonFairnessSerializer(serializers.Serializer):
    season = serializers.IntegerField()
    format = serializers.ChoiceField(choices=Season.Format.choices)
    is_public = serializers.BooleanField(help_text="Whether the organiser shows it publicly.")
    games_played = serializers.IntegerField()
    most_partnered = serializers.IntegerField(help_text="The most games any pair partnered.")
    repeated_partnerships = serializers.IntegerField(help_text="Pairs who partnered twice or more.")
    most_opposed = serializers.IntegerField(help_text="The most games any pair opposed.")
    repeated_oppositions = serializers.IntegerField(help_text="Pairs who opposed twice or more.")
    fewest_byes = serializers.IntegerField()
    most_byes = serializers.IntegerField()
    field_rating = serializers.FloatField(
        allow_null=True, help_text="The average display rating of the season's players now."
    )
    players = FairnessPlayerSerializer(many=True)
    pairs = FairnessPairSerializer(
        many=True, help_text="Every pair that met, most partnered first."
    )
    monte_carlo = FairnessMonteCarloSerializer()


class SeasonFairnessView(APIView):
    """A season's fairness report: partner and opponent repeats, byes, strength of schedule,
    partner luck, and how often the strongest finishes first in simulated seasons."""

    permission_classes = []

    @extend_schema(
        responses={
            200: SeasonFairnessSerializer,
            404: OpenApiResponse(
                description="No such season, or its report is not public and the caller is not "
                "an organiser of its league."
            ),
        },
        operation_id="seasons_fairness",
        tags=["seasons"],
    )
    def get(self, request, pk):
        season = selectors.season_fairness_for_reader(user=request.user, pk=pk)
        data = selectors.fairness_data(selectors.season_fairness_get(season=season))
        return Response(SeasonFairnessSerializer(data).data)
