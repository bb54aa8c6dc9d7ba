"""``scoring.api.serializers.represent`` (the hand POST's answer, fields compiled once) gives what
DRF's own ``Serializer(instance).data`` gives without a request, for any values a hand or game
can hold: ``None`` where a field may be empty, every choice, blank sides, naive and aware times.

No database: the instances are built in memory, their related objects left unread (a related
field answers with its key)."""

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework import serializers as drf
from rest_framework.renderers import JSONRenderer

from scoring.api import serializers as s
from scoring.models import Game, Hand

KEYS = st.integers(min_value=1, max_value=2**40)
SMALL = st.integers(min_value=0, max_value=32767)
TIMES = st.datetimes(
    min_value=dt.datetime(2000, 1, 1),
    max_value=dt.datetime(2100, 1, 1),
    timezones=st.sampled_from([None, dt.UTC, ZoneInfo("America/Detroit"), ZoneInfo("Asia/Kolkata")])
    .map(lambda zone: st.none() if zone is None else st.just(zone))
    .flatmap(lambda zone: zone),
)
SIDES = st.sampled_from(["", "A", "B"])


def _json(data) -> bytes:
    """The answer's bytes (``1`` and ``True`` are equal in Python, not in JSON)."""
    return JSONRenderer().render(data)


def _choices(model, name):
    return st.sampled_from([value for value, _ in model._meta.get_field(name).choices])


HANDS = st.builds(
    Hand,
    id=st.none() | KEYS,
    game_id=KEYS,
    number=st.integers(min_value=1, max_value=400),
    makers=SIDES,
    caller_id=st.none() | KEYS,
    caller_alone=st.booleans(),
    defender_alone=st.booleans(),
    tricks_won=st.none() | st.integers(min_value=0, max_value=5),
    renege=SIDES,
    thrown_in=st.booleans(),
    misdeal=st.booleans(),
    ordered_up=st.none() | st.booleans(),
    dealer_seat=st.integers(min_value=0, max_value=3),
    rulebook_id=KEYS,
    outcome=_choices(Hand, "outcome"),
    points_a=st.integers(min_value=-4, max_value=8),
    points_b=st.integers(min_value=-4, max_value=8),
    status=_choices(Hand, "status"),
    source=_choices(Hand, "source"),
    created_at=TIMES,
    replaced_by_id=st.none() | KEYS,
    changed_at=st.none() | TIMES,
    change_reason=st.text(max_size=20),
)

GAMES = st.builds(
    Game,
    id=st.none() | KEYS,
    season_id=KEYS,
    night_id=st.none() | KEYS,
    round_number=st.none() | SMALL,
    table_number=st.none() | SMALL,
    team_a_id=st.none() | KEYS,
    team_b_id=st.none() | KEYS,
    seat_0_id=KEYS,
    seat_1_id=KEYS,
    seat_2_id=KEYS,
    seat_3_id=KEYS,
    first_dealer_seat=st.integers(min_value=0, max_value=3),
    next_dealer_seat=st.none() | st.integers(min_value=0, max_value=3),
    status=_choices(Game, "status"),
    score_a=st.integers(min_value=-50, max_value=500),
    score_b=st.integers(min_value=-50, max_value=500),
    hands_played=SMALL,
    winner=SIDES,
    is_final_score_only=st.booleans(),
    confirmation=_choices(Game, "confirmation"),
    dispute_reason=st.text(max_size=20),
    finished_at=st.none() | TIMES,
    created_at=TIMES,
)


@settings(max_examples=300, deadline=None)
@given(hand=HANDS)
def test_a_hand_is_represented_as_drf_represents_it(hand):
    assert _json(s.represent(s.HandSerializer, hand)) == _json(s.HandSerializer(hand).data)


@settings(max_examples=300, deadline=None)
@given(game=GAMES)
def test_a_game_is_represented_as_drf_represents_it(game):
    assert _json(s.represent(s.GameSerializer, game)) == _json(s.GameSerializer(game).data)


@settings(max_examples=20, deadline=None)
@given(hand=HANDS, game=GAMES)
def test_the_answer_keeps_drfs_order_and_leaves_out_the_organisers_fields(hand, game):
    represented = s.represent(s.HandSerializer, hand)
    assert list(represented) == list(s.HandSerializer(hand).data)
    assert "change_reason" not in represented
    assert "dispute_reason" not in s.represent(s.GameSerializer, game)


class _Other(drf.Serializer):
    """A serializer whose fields take the general way: a dotted source, a related object and
    a field class of its own."""

    season_league = drf.IntegerField(source="season.league_id")
    team = drf.CharField(source="team_a")  # the object, not its key
    winner = s.SideOrNullField()
    total = drf.SerializerMethodField()

    def get_total(self, game):
        return game.score_a + game.score_b


def test_fields_that_take_the_general_way_give_drfs_values():
    from league.models import League, Season, Team

    game = Game(id=1, season=Season(id=2, league=League(id=3)), team_a=Team(id=4, name="Aces"))
    game.score_a, game.score_b, game.winner = 7, 10, ""
    assert (
        s.represent(_Other, game)
        == _Other(game).data
        == {
            "season_league": 3,
            "team": str(game.team_a),
            "winner": None,
            "total": 17,
        }
    )


@settings(max_examples=10, deadline=None)
@given(hand=HANDS, value=st.sampled_from([1, 0, "1", "true", "false", "maybe", 2.5]))
def test_a_boolean_of_another_type_is_shaped_by_the_field(hand, value):
    hand.caller_alone = value
    assert _json(s.represent(s.HandSerializer, hand)) == _json(s.HandSerializer(hand).data)


class _Key(drf.PrimaryKeyRelatedField):
    def to_representation(self, value):
        return str(value.pk)


class _Loud(drf.CharField):
    def get_attribute(self, instance):
        return f"{super().get_attribute(instance)}!"


class _Edges(drf.ModelSerializer):
    """Fields DRF reads or shapes in its own ways: each must take the general way."""

    number = drf.IntegerField()  # holding a boolean: DRF gives 1, not True
    caller = drf.PrimaryKeyRelatedField(read_only=True, pk_field=drf.CharField())
    rulebook = _Key(read_only=True)
    change_reason = _Loud()
    annotated = drf.IntegerField(read_only=True)  # absent from the instance: left out

    class Meta:
        model = Hand
        fields = ["id", "number", "caller", "rulebook", "change_reason", "annotated", "summary"]

    summary = drf.SerializerMethodField()

    def get_summary(self, hand):
        return "as written"


@settings(max_examples=50, deadline=None)
@given(hand=HANDS, number=st.sampled_from([True, False, 3]))
def test_fields_drf_reads_its_own_way_give_drfs_values(hand, number):
    hand.number = number
    assert _json(s.represent(_Edges, hand)) == _json(_Edges(hand).data)


def test_a_method_patched_after_first_use_is_the_one_called(monkeypatch):
    hand = Hand(id=1, game_id=1, number=1, rulebook_id=1, change_reason="")
    assert s.represent(_Edges, hand)["summary"] == "as written"
    monkeypatch.setattr(_Edges, "get_summary", lambda self, hand: "patched")
    assert s.represent(_Edges, hand)["summary"] == "patched"


def test_an_instance_that_is_no_model_instance_is_represented_by_drf():
    row = {"id": 1, "number": 3, "caller": None, "rulebook": None, "change_reason": "x"}
    assert _json(s.represent(_Edges, row)) == _json(_Edges(row).data)
    values = {"score_a": 7, "winner": ""}
    assert s.represent(_Plain, values) == _Plain(values).data == {"score_a": 7, "winner": None}


class _Plain(drf.Serializer):
    score_a = drf.IntegerField()
    winner = s.SideOrNullField()


@settings(max_examples=40, deadline=None)
@given(
    hand=HANDS,
    zone=st.sampled_from(["UTC", "America/Detroit", "Asia/Kolkata", "Pacific/Chatham"]),
)
def test_times_are_given_in_the_current_time_zone_as_drf_gives_them(hand, zone):
    from django.utils import timezone

    with timezone.override(ZoneInfo(zone)):
        assert _json(s.represent(s.HandSerializer, hand)) == _json(s.HandSerializer(hand).data)


@pytest.mark.parametrize(
    "changed",
    [
        {"USE_TZ": False},
        {"REST_FRAMEWORK": {"DATETIME_FORMAT": "%d %b %Y %H:%M"}},
        {"REST_FRAMEWORK": {"DATETIME_FORMAT": None}},
        {"REST_FRAMEWORK": {"DATETIME_FORMAT": "ISO-8601"}},
    ],
    ids=["no time zones", "a format of its own", "no format", "ISO in capitals"],
)
def test_times_follow_the_settings_as_drf_does(changed):
    from django.test import override_settings

    hand = Hand(
        id=1,
        game_id=2,
        number=1,
        rulebook_id=3,
        outcome="march",
        points_a=2,
        points_b=0,
        change_reason="",
        created_at=dt.datetime(2026, 11, 27, 18, 30, 5, 12, tzinfo=dt.UTC),
        changed_at=dt.datetime(2026, 11, 27, 1, 2, 3, tzinfo=ZoneInfo("America/Detroit")),
    )
    with override_settings(**changed):
        drfs = _json(s.HandSerializer(hand).data)
        assert _json(s.represent(s.HandSerializer, hand)) == drfs
    from django.utils import timezone

    with timezone.override(dt.UTC):
        assert b'"2026-11-27T18:30:05.000012Z"' in _json(s.represent(s.HandSerializer, hand))


class _Zoned(drf.Serializer):
    created_at = drf.DateTimeField(default_timezone=ZoneInfo("Asia/Kolkata"))
    finished_at = drf.DateTimeField(format="%Y")


def test_a_time_field_with_a_zone_or_format_of_its_own_keeps_it():
    game = Game(created_at=dt.datetime(2026, 1, 1, 23, tzinfo=dt.UTC))
    game.finished_at = game.created_at
    assert s.represent(_Zoned, game) == _Zoned(game).data
    assert s.represent(_Zoned, game) == {
        "created_at": "2026-01-02T04:30:00+05:30",
        "finished_at": "2026",
    }
