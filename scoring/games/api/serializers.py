"""Serializers for games and hands. Hand facts use the names of the API contract: ``makers``,
``caller``, ``caller_alone``, ``defender_alone``, ``tricks_won``, ``renege``, ``thrown_in``."""

import functools

from rest_framework import serializers

from league.models import Player, Season, Team
from scoring.games.domain.hand_input import FACTS, NUMBER, Fact
from scoring.games.models import Game, Hand, Side


def fact_field(fact: Fact) -> serializers.Field:
    """The schema's field of one of a hand's facts (``scoring.games.domain.hand_input.FACTS``)."""
    common = {"required": False, "allow_null": fact.nullable, "help_text": fact.help or None}
    if fact.kind == "side":
        return serializers.ChoiceField(
            choices=Side.choices, allow_blank=True, default=fact.default, **common
        )
    if fact.kind == "bool":
        return serializers.BooleanField(default=fact.default, **common)
    return serializers.IntegerField(
        default=fact.default, min_value=fact.low, max_value=fact.high, **common
    )


HandFactsSerializer = type(
    "HandFactsSerializer",
    (serializers.Serializer,),
    {
        "__doc__": "A hand's facts as a client sends them.",
        **{fact.name: fact_field(fact) for fact in FACTS},
    },
)
"""A hand's facts, built from their one declaration: what the API's schema says of them. The
hand's writes read them with ``scoring.games.domain.hand_input.hand_input_parse``."""

HandInputSerializer = type(
    "HandInputSerializer", (HandFactsSerializer,), {NUMBER.name: fact_field(NUMBER)}
)


class CorrectionReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=500)


class HandCorrectionSerializer(HandFactsSerializer, CorrectionReasonSerializer):
    """A correction: the hand's facts as they should have been, and why."""


class HandUndoSerializer(serializers.Serializer):
    number = serializers.IntegerField(
        min_value=1, help_text="The number of the last hand, the one to undo."
    )
    reason = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")


class SideOrNullField(serializers.ChoiceField):
    """A side, ``"A"`` or ``"B"``, or null where there is none (the model keeps an empty string)."""

    def __init__(self, **kwargs):
        super().__init__(choices=Side.choices, allow_null=True, read_only=True, **kwargs)

    def to_representation(self, value):
        return value or None


class OrganiserOnlyFieldsMixin:
    """Leave out ``organiser_only_fields`` (dispute and correction reasons) unless the request
    comes from an organiser of the object's league: they are the league's private business."""

    organiser_only_fields: tuple[str, ...] = ()

    def league_id_of(self, instance) -> int:
        raise NotImplementedError

    def to_representation(self, instance):
        data = super().to_representation(instance)
        if not self._organiser_sees(instance):
            for name in self.organiser_only_fields:
                data.pop(name, None)
        return data

    def _organiser_sees(self, instance) -> bool:
        from league.access import is_league_organiser

        request = self.context.get("request")
        if request is None:
            return False
        seen = self.context.setdefault("_organiser_of", {})
        league_id = self.league_id_of(instance)
        if league_id not in seen:
            seen[league_id] = is_league_organiser(user=request.user, league_id=league_id)
        return seen[league_id]


class HandSerializer(OrganiserOnlyFieldsMixin, serializers.ModelSerializer):
    organiser_only_fields = ("change_reason",)

    def league_id_of(self, hand: Hand) -> int:
        return hand.game.season.league_id

    makers = SideOrNullField()
    renege = SideOrNullField()
    summary = serializers.SerializerMethodField()

    class Meta:
        model = Hand
        fields = [
            "id",
            "game",
            "number",
            *(fact.name for fact in FACTS),
            "dealer_seat",
            "outcome",
            "points_a",
            "points_b",
            "summary",
            "status",
            "source",
            "rulebook",
            "created_at",
            "replaced_by",
            "changed_at",
            "change_reason",
        ]
        read_only_fields = fields

    def get_summary(self, hand: Hand) -> str:
        from scoring.games.domain.engine import Outcome, hand_summary

        return hand_summary(Outcome(hand.outcome), hand.points_a, hand.points_b)


class GameSerializer(OrganiserOnlyFieldsMixin, serializers.ModelSerializer):
    organiser_only_fields = ("dispute_reason",)

    def league_id_of(self, game: Game) -> int:
        return game.season.league_id

    seats = serializers.SerializerMethodField()
    next_dealer_seat = serializers.SerializerMethodField()
    winner = SideOrNullField(help_text="The winning side; null while in play or on a draw.")

    class Meta:
        model = Game
        fields = [
            "id",
            "season",
            "night",
            "round_number",
            "table_number",
            "team_a",
            "team_b",
            "seats",
            "first_dealer_seat",
            "next_dealer_seat",
            "status",
            "score_a",
            "score_b",
            "hands_played",
            "winner",
            "time_called",
            "is_final_score_only",
            "confirmation",
            "dispute_reason",
            "finished_at",
            "created_at",
        ]
        read_only_fields = fields

    def get_seats(self, game: Game) -> list[int]:
        """Player ids clockwise from seat 0; seats 0 and 2 are side A."""
        return list(game.seat_player_ids)

    def get_next_dealer_seat(self, game: Game) -> int | None:
        from scoring.games.selectors import game_next_dealer_seat

        return game_next_dealer_seat(game=game)


class GameDetailSerializer(GameSerializer):
    hands = serializers.SerializerMethodField()

    class Meta(GameSerializer.Meta):
        fields = [*GameSerializer.Meta.fields, "hands"]

    def get_hands(self, game: Game) -> list[dict]:
        hands = game.hands.filter(status=Hand.Status.ACTIVE).order_by("number")
        return HandSerializer(hands, many=True, context=self.context).data


class HandWithGameSerializer(HandSerializer):
    """A hand just recorded or corrected, with its game as it stands after it."""

    game = GameSerializer()

    class Meta(HandSerializer.Meta):
        ref_name = "HandWithGame"


class GameInputSerializer(serializers.Serializer):
    season = serializers.PrimaryKeyRelatedField(queryset=Season.objects.all())
    seats = serializers.ListField(
        child=serializers.PrimaryKeyRelatedField(queryset=Player.objects.all()),
        min_length=4,
        max_length=4,
        help_text="Four player ids clockwise: seats 0 and 2 are side A, seats 1 and 3 side B.",
    )
    team_a = serializers.PrimaryKeyRelatedField(
        queryset=Team.objects.all(), required=False, allow_null=True, default=None
    )
    team_b = serializers.PrimaryKeyRelatedField(
        queryset=Team.objects.all(), required=False, allow_null=True, default=None
    )
    first_dealer_seat = serializers.IntegerField(min_value=0, max_value=3, default=0)


class FinalScoreSerializer(serializers.Serializer):
    score_a = serializers.IntegerField(min_value=0)
    score_b = serializers.IntegerField(min_value=0)


class PreviewInputSerializer(serializers.Serializer):
    rulebook = serializers.CharField(help_text="A preset slug or a rulebook id.")
    hand = HandFactsSerializer()


class PreviewSerializer(serializers.Serializer):
    outcome = serializers.CharField()
    points_a = serializers.IntegerField()
    points_b = serializers.IntegerField()
    summary = serializers.CharField()


class DisputeSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=500)


class CaptainLinkSerializer(serializers.Serializer):
    token = serializers.CharField(source="captain_token")
    url = serializers.SerializerMethodField()

    def get_url(self, game: Game) -> str:
        return self.context["request"].build_absolute_uri(f"/t/{game.captain_token}/")


@functools.cache
def answering(serializer_class: type[serializers.Serializer]) -> serializers.Serializer:
    """One instance of ``serializer_class`` per process, without a request, whose
    ``to_representation`` answers a write: its fields are built once, not for every answer (a
    model serializer introspects its model to build them). Represents without a request, so
    without the organiser-only fields."""
    return serializer_class()


def hand_with_game(hand: Hand, game: Game) -> dict:
    """The answer to a hand's write: the hand, and its game as it stands after it
    (:class:`HandWithGameSerializer`)."""
    return {
        **answering(HandSerializer).to_representation(hand),
        "game": answering(GameSerializer).to_representation(game),
    }
