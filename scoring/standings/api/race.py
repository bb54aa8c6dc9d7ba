"""The playoff race through the API: ``GET /api/v1/seasons/<id>/race/`` (public, read only).

It reads what the race job stored with the season's standings snapshot
(``scoring.standings.services.race``); it never computes. A team season has the race (``kind``
"teams": ``lines`` and ``stakes``); an individual
season has each player's projected final ranks (``kind`` "individual": ``projections``). Words:
see :mod:`scoring.standings.domain.race` (clinched, eliminated, not yet decided),
:mod:`scoring.standings.domain.projection` (projected range, proven bounds) and
:mod:`scoring.standings.services.race` (stakes).
"""

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from core.errors import NotFoundError
from league.models import Season
from scoring.games import selectors
from scoring.standings.models import StandingSnapshot
from scoring.standings.services.race_games import games_digest


class RaceLineSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The team's id.")
    name = serializers.CharField()
    clinched = serializers.BooleanField(help_text="Proven to finish within the playoff spots.")
    eliminated = serializers.BooleanField(help_text="Proven to finish outside them.")
    decided = serializers.BooleanField(
        help_text="False when neither could be proven within the search budget (or byes that "
        "count as wins leave it open): never a guess."
    )
    clinched_first = serializers.BooleanField()
    eliminated_first = serializers.BooleanField()
    playoff_chance = serializers.FloatField(help_text="0 to 1, from the simulated seasons.")
    first_chance = serializers.FloatField(help_text="0 to 1, from the simulated seasons.")
    wins_to_clinch = serializers.IntegerField(
        allow_null=True, help_text="The fewest of its remaining games that clinch on its own."
    )
    needs_help = serializers.BooleanField(
        help_text="Winning every game left is not enough without other results."
    )
    games_left = serializers.IntegerField()
    best_rank = serializers.IntegerField(help_text="5th percentile of the simulated finishes.")
    worst_rank = serializers.IntegerField(help_text="95th percentile of the simulated finishes.")
    need = serializers.CharField(help_text="What the team needs, in a sentence.")


class RaceStakeSerializer(serializers.Serializer):
    game = serializers.IntegerField(help_text="The coming game's id.")
    night = serializers.IntegerField(allow_null=True)
    team_a = serializers.IntegerField()
    team_b = serializers.IntegerField()
    name_a = serializers.CharField()
    name_b = serializers.CharField()
    chance_a = serializers.FloatField(help_text="The chance that team A wins, from the ratings.")
    leverage = serializers.FloatField(
        help_text="Playoff places its result moves: half the sum over teams of "
        "|P(playoffs | A wins) - P(playoffs | B wins)|."
    )


class ProjectionLineSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The player's id.")
    name = serializers.CharField()
    rank = serializers.IntegerField(
        allow_null=True, help_text="The rank now (null while not ranked: too few games)."
    )
    projected_low = serializers.IntegerField(
        help_text="The better end of the projected range: the 10th percentile of the simulated "
        "final ranks."
    )
    projected_median = serializers.IntegerField(help_text="The median simulated final rank.")
    projected_high = serializers.IntegerField(
        help_text="The worse end: the 90th percentile of the simulated final ranks."
    )
    projected = serializers.CharField(help_text='The range in words, e.g. "3rd–7th".')
    games_left = serializers.FloatField(
        help_text="Games the player played on average in the simulated rest of the season."
    )
    best_possible = serializers.IntegerField(
        allow_null=True,
        help_text="Proven: no result finishes the player higher. Null unless every game left "
        "is known.",
    )
    worst_possible = serializers.IntegerField(
        allow_null=True,
        help_text="Proven: no result finishes the player lower. Null unless every game left is "
        "known.",
    )


class SeasonRaceSerializer(serializers.Serializer):
    season = serializers.IntegerField()
    status = serializers.ChoiceField(
        choices=["ok", "not_available", "pending"],
        help_text="pending: no race computed yet; not_available: see reason.",
    )
    reason = serializers.CharField(allow_blank=True)
    is_current = serializers.BooleanField(
        help_text="False while the season has results newer than the race, or games still to "
        "play other than those the race was computed from (a game added, moved or removed)."
    )
    race_version = serializers.IntegerField(allow_null=True)
    computed_at = serializers.DateTimeField(allow_null=True)
    kind = serializers.ChoiceField(
        choices=["teams", "individual"],
        required=False,
        help_text="teams: the playoff race; individual: projected final ranks.",
    )
    measure = serializers.ChoiceField(choices=["wins", "win_pct"], required=False)
    spots = serializers.IntegerField(required=False, help_text="Playoff spots (the cut line).")
    runs = serializers.IntegerField(required=False, help_text="Simulated seasons.")
    seed = serializers.IntegerField(required=False)
    proven = serializers.BooleanField(
        required=False, help_text="False when clinched and eliminated are not claimed."
    )
    games_left = serializers.IntegerField(
        required=False, help_text="Games left (individual seasons: games already seated)."
    )
    nights_left = serializers.IntegerField(
        required=False, help_text="Individual seasons: nights still to come."
    )
    rounds_per_night = serializers.IntegerField(
        required=False,
        help_text="Individual seasons: the rounds each night left is given (the nights played').",
    )
    lines = RaceLineSerializer(
        many=True, required=False, help_text="Team seasons, in standings order."
    )
    stakes = RaceStakeSerializer(
        many=True, required=False, help_text="Coming games, the most at stake first."
    )
    projections = ProjectionLineSerializer(
        many=True, required=False, help_text="Individual seasons, in standings order."
    )


class SeasonRaceView(APIView):
    """A season's playoff race: clinched and eliminated (proven), the odds of the playoffs and of
    first place, what each team needs, and the coming games that matter most for the cut line;
    for an individual season, each player's projected final rank range."""

    permission_classes = []

    @extend_schema(
        responses={
            200: SeasonRaceSerializer,
            404: OpenApiResponse(description="No such season."),
        },
        operation_id="seasons_race",
        tags=["seasons"],
    )
    def get(self, request, pk):
        season = Season.objects.not_archived().filter(pk=pk).only("pk", "results_version").first()
        if season is None:
            raise NotFoundError("no such season")
        snapshot = (
            StandingSnapshot.objects.filter(season=season)
            .only("race", "race_version", "race_games")
            .first()
        )
        race = dict(snapshot.race) if snapshot is not None and snapshot.race else {}
        race_version = snapshot.race_version if race else None
        is_current = selectors.results_are_current(
            season_id=season.pk, version=race_version
        ) and snapshot.race_games == games_digest(season.pk)
        data = {
            "season": season.pk,
            "status": race.get("status", "pending"),
            "reason": race.get("reason", ""),
            "is_current": is_current,
            "race_version": race_version,
            "computed_at": race.get("computed_at"),
        }
        names = ("measure", "spots", "runs", "seed", "proven", "games_left", "nights_left")
        for name in (*names, "rounds_per_night"):
            if name in race:
                data[name] = race[name]
        if race.get("status") == "ok":
            data["kind"] = race.get("kind", "teams")
            data["lines"], data["stakes"] = race["lines"], race["stakes"]
            if "projections" in race:
                data["projections"] = race["projections"]
        return Response(SeasonRaceSerializer(data).data)
