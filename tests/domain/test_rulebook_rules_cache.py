"""The rules a hand is scored under are built once per process for each set of a rulebook's
options (``scoring.games.services.game_state.rulebook_rules``): whatever the options, and whichever
options were asked for before, the answer is what ``Rulebook.from_options`` gives for them, or
the same error."""

from hypothesis import given
from hypothesis import strategies as st

from core.errors import DomainError
from league.domain.rules import Rulebook as RulebookRules
from league.models import Rulebook
from scoring.games.services.game_state import _rules_of, rulebook_rules

NAMES = [
    "target_score",
    "march_points",
    "stick_the_dealer",
    "defender_alone",
    "game_length",
    "hands_per_game",
    "not_an_option",
]
VALUES = st.one_of(
    st.integers(-2, 12),
    st.booleans(),  # True == 1 and hashes as 1: only one of them is a valid count
    st.floats(0, 12, allow_nan=False),  # 1.0 == 1 too
    st.sampled_from(["never", "always", "hands", "target", "x"]),
    st.none(),
    st.lists(st.integers(), max_size=2),  # not hashable
)
OPTIONS = st.dictionaries(st.sampled_from(NAMES), VALUES, max_size=4)


def _built(options):
    try:
        return RulebookRules.from_options(options)
    except DomainError as error:
        return ("error", str(error))


def _cached(options):
    try:
        return rulebook_rules(Rulebook(options=options))
    except DomainError as error:
        return ("error", str(error))


@given(st.lists(OPTIONS, min_size=1, max_size=6))
def test_the_rules_of_any_options_are_those_from_options_gives(sequence):
    for options in sequence:  # earlier options fill the cache with values equal to later ones
        assert _cached(options) == _built(options)


def test_equal_but_differently_typed_options_are_not_mistaken_for_each_other():
    _rules_of.cache_clear()
    assert rulebook_rules(Rulebook(options={"stick_the_dealer": True})).stick_the_dealer is True
    assert _cached({"stick_the_dealer": 1}) == ("error", "stick_the_dealer must be true or false")
    assert rulebook_rules(Rulebook(options={"target_score": 1})).target_score == 1
    assert _cached({"target_score": True}) == ("error", "target_score must be a whole number")


def test_the_same_options_give_the_same_rules_without_building_them_again():
    _rules_of.cache_clear()
    first = rulebook_rules(Rulebook(options={"target_score": 7, "march_points": 3}))
    again = rulebook_rules(Rulebook(options={"target_score": 7, "march_points": 3}))
    assert again is first
    assert _rules_of.cache_info().hits == 1
