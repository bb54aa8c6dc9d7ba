"""The values a hand's write binds are those the ORM prepares: ``league.rows.db_value``
remembers ``get_db_prep_save`` for the fields whose preparation depends on the value alone, and
answers what the field itself would, whatever values came before (a remembered ``1`` is never
the answer for ``True``, nor a string's for an enum member equal to it)."""

import datetime

import pytest
from django.db import DEFAULT_DB_ALIAS, connections
from hypothesis import given
from hypothesis import strategies as st

from league.models import Rulebook, Season
from league.rows import _memos, db_value, db_values, insert_values, inserted_fields, value_plan
from scoring.models import Game, Hand, ResultChange
from tests.factories import GameFactory

FIELDS = [
    field
    for model in (Hand, Game, ResultChange, Season, Rulebook)
    for field in model._meta.concrete_fields
]
VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 40),
    st.integers(2**31 - 2, 2**31 + 1),
    st.sampled_from(["", "A", "B", "0", "1", "active", "x" * 40]),
    st.sampled_from([*Hand.Status, *Game.Status, *Hand.Source]),
    st.floats(0, 3, allow_nan=False),
    st.just(datetime.datetime(2026, 11, 27, 12, tzinfo=datetime.UTC)),
)


def _prepared(field, value, database):
    try:
        answer = field.get_db_prep_save(value, database)
    except Exception as error:
        return ("error", type(error))
    return (type(answer), repr(answer))  # (a psycopg Jsonb has no equality of its own)


def _remembered(field, value, database):
    try:
        answer = db_value(field, value, database)
    except Exception as error:
        return ("error", type(error))
    return (type(answer), repr(answer))


@given(st.lists(st.tuples(st.sampled_from(FIELDS), VALUES), min_size=1, max_size=30))
def test_a_remembered_value_is_what_the_field_prepares(calls):
    database = connections[DEFAULT_DB_ALIAS]
    for field, value in calls * 2:  # the second time round, from the memo
        assert _remembered(field, value, database) == _prepared(field, value, database), (
            field,
            value,
        )


GAME_NAMES = [field.name for field in Game._meta.concrete_fields]


@given(
    st.lists(st.sampled_from(GAME_NAMES), min_size=1, max_size=8, unique=True).flatmap(
        lambda names: st.tuples(
            st.just(names), st.lists(VALUES, min_size=len(names), max_size=len(names))
        )
    )
)
def test_a_plan_prepares_each_value_for_its_own_field(named):
    names, values = named
    database = connections[DEFAULT_DB_ALIAS]
    fields = [Game._meta.get_field(name) for name in names]
    for _ in range(2):
        try:
            answers = db_values(value_plan(Game, tuple(names)), values, database)
        except Exception as error:
            expected_errors = [
                _prepared(field, value, database)[1]
                for field, value in zip(fields, values, strict=True)
                if _prepared(field, value, database)[0] == "error"
            ]
            assert expected_errors[:1] == [type(error)]
            return
        assert [(type(a), repr(a)) for a in answers] == [
            _prepared(field, value, database) for field, value in zip(fields, values, strict=True)
        ]


@pytest.mark.parametrize(
    ("name", "first", "then"),
    [
        ("makers", True, 1),  # equal, and hash alike, but a CharField writes "True" and "1"
        ("makers", 1, True),
        ("status", Hand.Status.ACTIVE, "active"),  # the enum member is kept, the string too
        ("status", "active", Hand.Status.ACTIVE),
    ],
)
def test_equal_values_of_other_types_are_prepared_each_as_itself(name, first, then):
    database = connections[DEFAULT_DB_ALIAS]
    field = Hand._meta.get_field(name)
    _memos.pop(field, None)
    for value in (first, then):
        assert _remembered(field, value, database) == _prepared(field, value, database)


def test_a_field_of_unique_values_stops_remembering_and_still_answers():
    database = connections[DEFAULT_DB_ALIAS]
    field = Hand._meta.get_field("client_key")
    for n in range(600):
        assert db_value(field, f"key-{n}", database) == f"key-{n}"
    assert len(_memos[field]) == 256


def test_fields_whose_preparation_reads_more_than_the_value_are_not_remembered():
    database = connections[DEFAULT_DB_ALIAS]
    created = Hand._meta.get_field("created_at")
    options = Rulebook._meta.get_field("options")
    db_value(created, None, database)
    db_value(options, "{}", database)
    assert _memos[created] is False
    assert _memos[options] is False


@pytest.mark.django_db
def test_a_hands_insert_values_are_the_orms():
    game = GameFactory()
    database = connections[DEFAULT_DB_ALIAS]
    hand = Hand(
        game=game,
        number=3,
        makers="A",
        tricks_won=5,
        dealer_seat=2,
        points_a=2,
        rulebook=game.season.rulebook,
        outcome="march",
        client_key="k",
    )
    for _ in range(2):
        values = insert_values(hand, database)  # (sets created_at, auto_now_add, on the hand)
        expected = [
            field.get_db_prep_save(
                getattr(hand, field.attname)
                if field.name == "created_at"
                else field.pre_save(hand, add=True),
                database,
            )
            for field in inserted_fields(Hand)
        ]
        assert [(type(v), v) for v in values] == [(type(v), v) for v in expected]
