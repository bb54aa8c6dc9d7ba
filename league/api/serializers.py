"""Read serializers (output) and input serializers (parse only) for leagues, rulebooks, seasons,
players and teams. Input serializers never save: views hand their data to a service."""

from rest_framework import serializers

from league.domain.rules import (
    TIME_LIMIT_MINUTES,
    DefenderAlone,
    GameLength,
    RenegePenalty,
    TieAtTime,
)
from league.models import League, Player, Rulebook, Season, Team


class LeagueSerializer(serializers.ModelSerializer):
    class Meta:
        model = League
        fields = ["id", "name", "slug", "description", "created_at"]
        read_only_fields = fields


class LeagueInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    slug = serializers.SlugField(max_length=80, required=False, allow_blank=True)
    description = serializers.CharField(
        max_length=2000, required=False, allow_blank=True, default=""
    )


class RulebookOptionsSerializer(serializers.Serializer):
    """Every option of a rulebook; on input, any subset (the rest come from the preset)."""

    make_points = serializers.IntegerField(min_value=0, max_value=20, required=False)
    march_points = serializers.IntegerField(min_value=0, max_value=20, required=False)
    lone_make_points = serializers.IntegerField(min_value=0, max_value=20, required=False)
    lone_march_points = serializers.IntegerField(min_value=0, max_value=20, required=False)
    euchre_points = serializers.IntegerField(min_value=0, max_value=20, required=False)
    lone_caller_euchred_points = serializers.IntegerField(min_value=0, max_value=20, required=False)
    lone_defender_euchre_points = serializers.IntegerField(
        min_value=0, max_value=20, required=False
    )
    defender_alone = serializers.ChoiceField(
        choices=[choice.value for choice in DefenderAlone], required=False
    )
    stick_the_dealer = serializers.BooleanField(required=False)
    renege_penalty = serializers.ChoiceField(
        choices=[choice.value for choice in RenegePenalty], required=False
    )
    renege_points = serializers.IntegerField(min_value=0, max_value=20, required=False)
    renege_points_alone = serializers.IntegerField(min_value=0, max_value=20, required=False)
    game_length = serializers.ChoiceField(
        choices=[choice.value for choice in GameLength],
        required=False,
        help_text="target: to target_score; hands: hands_per_game hands; either ends earlier at "
        "time_limit_minutes if set. time: until time_limit_minutes, the higher score wins.",
    )
    target_score = serializers.IntegerField(min_value=1, max_value=100, required=False)
    hands_per_game = serializers.IntegerField(min_value=1, max_value=100, required=False)
    dealer_partner_must_go_alone = serializers.BooleanField(required=False)
    time_limit_minutes = serializers.IntegerField(
        min_value=TIME_LIMIT_MINUTES[0],
        max_value=TIME_LIMIT_MINUTES[1],
        required=False,
        allow_null=True,
        help_text="Minutes after which time is called (null: no time limit; required for a "
        "game_length of time). The hand being played is finished and is the game's last (a hand "
        "fact, time_called); the higher score wins.",
    )
    tie_at_time = serializers.ChoiceField(
        choices=[choice.value for choice in TieAtTime],
        required=False,
        help_text="A game level when time is called: next_hand plays on until a hand breaks the "
        "tie; draw records a draw. A bracket game always plays on, whatever this says.",
    )

    def to_internal_value(self, data):
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError(
                    {name: ["unknown rulebook option"] for name in unknown}
                )
        return super().to_internal_value(data)


class RulebookSerializer(serializers.ModelSerializer):
    options = RulebookOptionsSerializer(read_only=True)
    preset = serializers.CharField(
        read_only=True, help_text="The preset it started from; empty for a league's own."
    )

    class Meta:
        model = Rulebook
        fields = ["id", "league", "name", "preset", "version", "previous", "options", "created_at"]
        read_only_fields = fields


class RulebookInputSerializer(serializers.Serializer):
    league = serializers.PrimaryKeyRelatedField(queryset=League.objects.all())
    name = serializers.CharField(max_length=120)
    preset = serializers.SlugField(required=False, allow_blank=True, default="")
    options = RulebookOptionsSerializer(required=False, default=dict)


class PresetSerializer(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()
    description = serializers.CharField()
    options = RulebookOptionsSerializer()


class SeasonSerializer(serializers.ModelSerializer):
    rulebook = RulebookSerializer(read_only=True)

    class Meta:
        model = Season
        fields = [
            "id",
            "league",
            "name",
            "format",
            "rulebook",
            "starts_on",
            "ends_on",
            "balance_partner_strength",
            "results_version",
            "created_at",
            "archived_at",
        ]
        read_only_fields = fields


class SeasonInputSerializer(serializers.Serializer):
    league = serializers.PrimaryKeyRelatedField(queryset=League.objects.all())
    name = serializers.CharField(max_length=120)
    format = serializers.ChoiceField(choices=Season.Format.choices, default=Season.Format.TEAMS)
    rulebook = serializers.PrimaryKeyRelatedField(
        queryset=Rulebook.objects.all(), required=False, allow_null=True, default=None
    )
    preset = serializers.SlugField(required=False, allow_blank=True, default="")
    starts_on = serializers.DateField(required=False, allow_null=True, default=None)
    ends_on = serializers.DateField(required=False, allow_null=True, default=None)
    balance_partner_strength = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Individual seasons: among rotations equally good, the one that makes each "
        "player's average partner rating most even.",
    )


class SeasonRulesInputSerializer(serializers.Serializer):
    options = RulebookOptionsSerializer()


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "league", "name", "is_active"]
        read_only_fields = fields


class PlayerInputSerializer(serializers.Serializer):
    league = serializers.PrimaryKeyRelatedField(queryset=League.objects.all())
    name = serializers.CharField(max_length=120)
    email = serializers.EmailField(required=False, allow_blank=True, default="")


class TeamSerializer(serializers.ModelSerializer):
    class Meta:
        model = Team
        fields = ["id", "season", "name", "player_one", "player_two", "is_withdrawn"]
        read_only_fields = fields


class TeamInputSerializer(serializers.Serializer):
    season = serializers.PrimaryKeyRelatedField(queryset=Season.objects.all())
    name = serializers.CharField(max_length=120)
    player_one = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    player_two = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())


# --- Updates (PATCH): every field optional; the ones given are changed ---


class LeagueUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120, required=False)
    description = serializers.CharField(max_length=2000, required=False, allow_blank=True)


class PartnerBalanceSerializer(serializers.Serializer):
    balance_partner_strength = serializers.BooleanField(
        help_text="On: among rotations equally good, the one that makes each player's average "
        "partner rating most even."
    )


class RenameSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120, required=False)


class ArchiveSerializer(serializers.Serializer):
    reason = serializers.CharField(
        max_length=500,
        required=False,
        allow_blank=True,
        default="",
        help_text="Why, for the audit trail (optional).",
    )
