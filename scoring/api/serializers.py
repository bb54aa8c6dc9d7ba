"""Serializers for games and hands. Hand facts use the names of the API contract: ``makers``,
``caller``, ``caller_alone``, ``defender_alone``, ``tricks_won``, ``renege``, ``thrown_in``."""

import copy
import datetime
import functools
import operator

from django.conf import settings
from django.core.exceptions import FieldDoesNotExist
from django.db.models import Model
from django.utils import timezone
from rest_framework import ISO_8601, serializers
from rest_framework.fields import SkipField
from rest_framework.relations import PKOnlyObject
from rest_framework.settings import api_settings

from league.models import Player, Season, Team
from scoring.models import Game, Hand, Side


class HandFactsSerializer(serializers.Serializer):
    """A hand's facts as a client sends them.

    Its fields are plain values (no nested or related field), so each serializer gets shallow
    copies of the declared ones instead of DRF's deep copies, which build every field again from
    its arguments: the hand POST validates one of these on every request (a field's copy is
    bound to its serializer; what the copies share, choices and validators, is only read)."""

    def get_fields(self):
        return {name: copy.copy(field) for name, field in self._declared_fields.items()}

    makers = serializers.ChoiceField(
        choices=Side.choices,
        required=False,
        allow_null=True,
        allow_blank=True,
        default=None,
        help_text='The side that named trump: "A" (seats 0 and 2) or "B" (seats 1 and 3).',
    )
    caller = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="The player who named trump (a player id), if known.",
    )
    caller_alone = serializers.BooleanField(required=False, default=False)
    defender_alone = serializers.BooleanField(required=False, default=False)
    tricks_won = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=0,
        max_value=5,
        help_text="Tricks the makers took, 0–5.",
    )
    renege = serializers.ChoiceField(
        choices=Side.choices,
        required=False,
        allow_null=True,
        allow_blank=True,
        default=None,
        help_text="The side that reneged, if a renege was caught.",
    )
    thrown_in = serializers.BooleanField(
        required=False, default=False, help_text="All passed twice (stick the dealer off)."
    )
    misdeal = serializers.BooleanField(
        required=False, default=False, help_text="A misdeal: redeal by the same dealer, no score."
    )
    ordered_up = serializers.BooleanField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Trump was ordered up in round one (null: not said). Needed by rulebooks where "
        "the dealer's partner who orders up must go alone.",
    )


class HandInputSerializer(HandFactsSerializer):
    number = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=1,
        help_text="The hand number the client is entering; a conflict if it was already entered.",
    )


class HandCorrectionSerializer(HandFactsSerializer):
    reason = serializers.CharField(max_length=500)


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
            "makers",
            "caller",
            "caller_alone",
            "defender_alone",
            "tricks_won",
            "renege",
            "thrown_in",
            "misdeal",
            "ordered_up",
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
        from scoring.domain.engine import Outcome, hand_summary

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
        from scoring.selectors import game_next_dealer_seat

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
        help_text="In order, from: win_pct, wins, points_for, point_diff, head_to_head, marches, "
        "loners_made, euchres_inflicted, buchholz; a seeded coin flip always decides last.",
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


@functools.cache
def _shared(serializer_class: type[serializers.Serializer]) -> serializers.Serializer:
    return serializer_class()


def represent(serializer_class: type[serializers.Serializer], instance) -> dict:
    """``serializer_class(instance).data`` for an answer without a request (so without the
    organiser-only fields), by the serializer's fields compiled once per process
    (:func:`_compiled`).

    A model serializer builds its fields afresh for every instance, by introspecting the model,
    and DRF then reads each field through a chain of generic calls: for a hand and its game the
    two were a third, then a seventh, of a hand POST's Python time. The fields are the same every
    time, and keep no state of their own while they represent a value."""
    return _compiled(serializer_class)(instance)


_SIMPLE = {  # a field class whose to_representation of a value of these types is the value
    serializers.IntegerField: int,
    serializers.BooleanField: bool,
    serializers.CharField: str,
}


@functools.cache
def _compiled(serializer_class: type[serializers.Serializer]):
    """``instance -> dict``: what ``serializer_class``'s ``to_representation`` gives a model
    instance without a request, each field read and shaped by the plainest call that gives what
    DRF's would.

    Per field, as ``Serializer.to_representation`` does: read the attribute (a field that skips
    itself is left out), answer ``None`` for ``None`` (or a related key that is ``None``), else
    the field's representation. The plain reads, for fields of DRF's own classes that read as
    DRF reads: a model field's attribute, the key of a related field that shows only its key.
    The plain shape: the value itself, where it is an integer, boolean or string that a field of
    exactly that class would give back unchanged. Anything else goes through the field's own
    ``get_attribute`` and ``to_representation``; a method field's method is looked up at each
    call; a serializer that represents in its own way, or an instance that is not a model
    instance, is asked as DRF asks. ``tests/api/test_represent.py`` compares the two."""
    serializer = _shared(serializer_class)
    if type(serializer).to_representation not in (
        serializers.Serializer.to_representation,
        OrganiserOnlyFieldsMixin.to_representation,
    ):
        return serializer.to_representation
    hidden = set(getattr(serializer, "organiser_only_fields", ()))
    steps = [
        _step(serializer, field)
        for field in serializer._readable_fields
        if field.field_name not in hidden
    ]

    def represent_one(instance) -> dict:
        if not isinstance(instance, Model):
            return serializer.to_representation(instance)
        data = {}
        for name, read, shape in steps:
            try:
                value = read(instance)
            except SkipField:
                continue
            if value is None or (type(value) is PKOnlyObject and value.pk is None):
                data[name] = None
            else:
                data[name] = shape(value)
        return data

    return represent_one


def _step(serializer: serializers.Serializer, field: serializers.Field):
    """``(name, read, shape)`` of one readable field (see :func:`_compiled`)."""
    name, general = field.field_name, (field.get_attribute, field.to_representation)
    if type(field) is serializers.SerializerMethodField:
        method = field.method_name
        return name, _itself, lambda instance: getattr(serializer, method)(instance)
    model = getattr(getattr(serializer, "Meta", None), "model", None)
    model_field = _model_field(model, field.source_attrs)
    if model_field is None:
        return name, *general
    read = operator.attrgetter(model_field.attname)
    if model_field.is_relation:  # its key, if DRF would read only that
        if (
            type(field) is serializers.PrimaryKeyRelatedField
            and field.use_pk_only_optimization()
            and field.pk_field is None
        ):
            return name, read, _itself
        return name, *general
    if type(field).get_attribute is not serializers.Field.get_attribute:
        return name, *general
    if type(field) is serializers.DateTimeField and not hasattr(field, "timezone"):
        return name, read, _iso_time(field)
    plain = _SIMPLE.get(type(field))
    if plain is None:
        return name, read, field.to_representation
    shape = field.to_representation
    return name, read, lambda value: value if type(value) is plain else shape(value)


def _itself(value):
    return value


def _iso_time(field: serializers.DateTimeField):
    """``field.to_representation`` of a time, as DRF gives it in its usual case: the field's
    format is ISO 8601 (its own or the settings'), ``USE_TZ`` is on and the time is aware, so it
    is given in the current time zone, ``Z`` for UTC. DRF's way there asks whether the field has
    a time zone of its own (it has not: an attribute lookup that fails, at every call) and reads
    the settings twice; here the fields without one are chosen once. Any other case is the
    field's own."""
    general = field.to_representation

    def shape(value):
        if (
            type(value) is not datetime.datetime
            or value.utcoffset() is None
            or not settings.USE_TZ
            or getattr(field, "format", api_settings.DATETIME_FORMAT) != ISO_8601
        ):
            return general(value)
        try:
            text = value.astimezone(timezone.get_current_timezone()).isoformat()
        except OverflowError:
            return general(value)  # (DRF's error)
        return text[:-6] + "Z" if text.endswith("+00:00") else text

    return shape


def _model_field(model, source_attrs: list[str]):
    """The concrete field of ``model`` that ``source_attrs`` names alone, or ``None``."""
    if model is None or len(source_attrs) != 1:
        return None
    try:
        found = model._meta.get_field(source_attrs[0])
    except FieldDoesNotExist:
        return None
    return found if getattr(found, "concrete", False) else None
