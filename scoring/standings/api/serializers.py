"""Serializers of a season's standings: the page of standings the API answers, and the standing
rules an organiser chooses."""

from rest_framework import serializers

from scoring.standings.domain.standings import MEASURE_LABELS


class StandingsSnapshotSerializer(serializers.Serializer):
    season = serializers.IntegerField()
    results_version = serializers.IntegerField()
    is_current = serializers.BooleanField()
    computed_at = serializers.DateTimeField()
    count = serializers.IntegerField(help_text="Rows in the whole standings (every page).")
    next = serializers.URLField(allow_null=True, help_text="The next page, or null.")
    previous = serializers.URLField(allow_null=True, help_text="The previous page, or null.")
    standings = serializers.JSONField(
        help_text="rows of this page (rank, entrant, name, record, points, tie-break values, "
        "reason), the tie-break chain, the coin-flip seed and the minimum games"
    )
    player_stats = serializers.JSONField(
        required=False,
        help_text="Only with detail=true: the stats lines (partners and opponents included) of "
        "the page's players (in a team season, the players of the page's teams).",
    )
    team_stats = serializers.JSONField(
        required=False, help_text="Only with detail=true: the page's teams' stats lines."
    )
    ratings = serializers.JSONField(
        required=False, help_text="Only with detail=true: the ratings of the page's players."
    )
    nights = serializers.JSONField(
        required=False,
        help_text="Only with detail=true: night by night, games, wins and points of the page's "
        "entrants.",
    )


class StandingRulesSerializer(serializers.Serializer):
    """How a season ranks; any option left out keeps the engine's default. Byes and forfeits are
    not offered yet: no bye or forfeit is recorded as a result for the standings to count."""

    tiebreaks = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="In order, from: "
        + ", ".join(
            f"{name} ({label})" for name, label in MEASURE_LABELS.items() if name != "coin_flip"
        )
        + "; a seeded coin flip always decides last. head_to_head, head_to_head_points and "
        "head_to_head_diff are counted among the tied only, and re-applied to any smaller group "
        "still tied.",
    )
    count_best_nights = serializers.IntegerField(min_value=1, required=False, allow_null=True)
    best_nights_by = serializers.ChoiceField(choices=["wins", "points"], required=False)
    min_games = serializers.IntegerField(min_value=0, required=False)
    coin_flip_seed = serializers.IntegerField(min_value=0, required=False)
    playoff_spots = serializers.IntegerField(
        min_value=1,
        max_value=64,
        required=False,
        help_text="How many entrants make the playoffs: the cut line of the playoff race "
        "(default 4); it does not change the ranking.",
    )

    def to_internal_value(self, data):
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError(
                    {name: ["not a standings option"] for name in unknown}
                )
        return super().to_internal_value(data)
