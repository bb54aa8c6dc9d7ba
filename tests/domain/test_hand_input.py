"""A hand's facts as a client sends them: the one declaration (``FACTS``) and its parser."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.errors import DomainError
from scoring.games.domain.hand_input import FACTS, NUMBER, HandInput, hand_input_parse

sides = st.sampled_from([None, "", "A", "B"])
valid = st.fixed_dictionaries(
    {},
    optional={
        "makers": sides,
        "caller": st.one_of(st.none(), st.integers(1, 2**40)),
        "caller_alone": st.booleans(),
        "defender_alone": st.booleans(),
        "tricks_won": st.one_of(st.none(), st.integers(0, 5)),
        "renege": sides,
        "thrown_in": st.booleans(),
        "misdeal": st.booleans(),
        "ordered_up": st.one_of(st.none(), st.booleans()),
        "number": st.one_of(st.none(), st.integers(1, 2**31 - 1)),
    },
)


@given(valid)
def test_a_valid_object_gives_its_facts_and_the_rest_their_defaults(data):
    entry, number = hand_input_parse(data, with_number=True)
    assert number == data.get("number")
    assert entry.makers == (data.get("makers") or None)
    assert entry.renege == (data.get("renege") or None)
    assert entry.caller_id == data.get("caller")
    assert entry.tricks_won == data.get("tricks_won")
    assert entry.ordered_up == data.get("ordered_up")
    for flag in ("caller_alone", "defender_alone", "thrown_in", "misdeal"):
        assert getattr(entry, flag) is data.get(flag, False)


@pytest.mark.parametrize(
    ("data", "field", "words"),
    [
        ({"makers": "C"}, "makers", '"C" is not a valid choice'),
        ({"makers": 1}, "makers", "not a valid choice"),
        ({"renege": ["A"]}, "renege", "not a valid choice"),
        ({"tricks_won": 6}, "tricks_won", "less than or equal to 5"),
        ({"tricks_won": -1}, "tricks_won", "greater than or equal to 0"),
        ({"tricks_won": True}, "tricks_won", "A valid integer is required"),
        ({"tricks_won": 2.5}, "tricks_won", "A valid integer is required"),
        ({"tricks_won": "9" * 30}, "tricks_won", "A valid integer is required"),
        ({"tricks_won": "²"}, "tricks_won", "A valid integer is required"),
        ({"caller_alone": None}, "caller_alone", "may not be null"),
        ({"caller_alone": "maybe"}, "caller_alone", "Must be a valid boolean"),
        ({"misdeal": 1}, "misdeal", "Must be a valid boolean"),
        ({"number": 0}, "number", "greater than or equal to 1"),
        ({"number": 2**31}, "number", "less than or equal to"),
    ],
)
def test_a_wrong_value_is_refused_naming_its_field(data, field, words):
    with pytest.raises(DomainError) as refused:
        hand_input_parse(data, with_number=True)
    assert refused.value.field == field
    assert words in refused.value.message
    assert refused.value.message.startswith(f"{field}: ")


@pytest.mark.parametrize("value", ["\ud800", "A\x00", "\x1b[2J", "A\udfff"])
@pytest.mark.parametrize("field", ["makers", "renege"])
def test_a_refusal_echoes_only_printable_text(field, value):
    """The message is shown (and sent as UTF-8): a lone surrogate could not be written, and a NUL
    or a terminal escape is no use to a captain."""
    with pytest.raises(DomainError) as refused:
        hand_input_parse({field: value})
    assert refused.value.message == f'{field}: "that" is not a valid choice.'
    refused.value.message.encode("utf-8")


def test_a_form_writes_numbers_flags_and_nulls_as_text():
    form = {"makers": "B", "tricks_won": "4", "caller_alone": "on", "ordered_up": "", "number": "3"}
    entry, number = hand_input_parse(form, with_number=True)
    assert entry == HandInput(makers="B", tricks_won=4, caller_alone=True)
    assert number == 3


def test_the_number_is_read_only_where_asked_and_other_fields_are_left_alone():
    entry, number = hand_input_parse({"number": 0, "note": "x", "makers": "A"})
    assert (entry, number) == (HandInput(makers="A"), None)


@pytest.mark.parametrize("body", [[], "A", 3, None])
def test_a_body_that_is_no_object_is_refused(body):
    with pytest.raises(DomainError, match="JSON object"):
        hand_input_parse(body)


def test_the_facts_are_declared_once_for_the_input_and_the_schema():
    from dataclasses import fields

    names = [fact.name for fact in FACTS]
    assert [f.name for f in fields(HandInput)] == [
        "caller_id" if name == "caller" else name for name in names
    ]
    assert NUMBER.name not in names
