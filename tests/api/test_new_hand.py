"""A new hand is made by the model's positional constructor (``_new_hand``): what it makes is
what ``Hand(game=…, rulebook=…, entered_by=…, …)`` makes, the same values, the same related
objects cached, the same state, for any facts, signed in or not."""

from django.contrib.auth import get_user_model
from hypothesis import given
from hypothesis import strategies as st

from league.models import Rulebook, Season
from scoring import services
from scoring.domain.engine import HandScore, Outcome
from scoring.models import Game, Hand
from scoring.services.game_state import _new_hand

facts = st.builds(
    services.HandInput,
    makers=st.sampled_from(["A", "B", None]),
    tricks_won=st.one_of(st.none(), st.integers(0, 5)),
    caller_alone=st.booleans(),
    defender_alone=st.booleans(),
    thrown_in=st.booleans(),
    misdeal=st.booleans(),
    ordered_up=st.one_of(st.none(), st.booleans()),
    renege=st.sampled_from(["A", "B", None]),
)


def _by_keywords(game, number, data, score, *, dealer_seat, source, entered_by, client_key):
    """The hand as the keyword constructor makes it (what ``_new_hand`` did before)."""
    return Hand(
        game=game,
        number=number,
        makers=data.makers or "",
        caller_id=data.caller_id,
        caller_alone=data.caller_alone,
        defender_alone=data.defender_alone,
        tricks_won=data.tricks_won,
        renege=data.renege or "",
        thrown_in=data.thrown_in,
        misdeal=data.misdeal,
        ordered_up=data.ordered_up,
        dealer_seat=dealer_seat,
        rulebook=game.season.rulebook,
        outcome=score.outcome.value,
        points_a=score.points_a,
        points_b=score.points_b,
        client_key=client_key,
        source=source,
        entered_by=entered_by,
    )


def _seen(hand: Hand) -> dict:
    state = hand._state
    return {
        "values": {name: value for name, value in vars(hand).items() if name != "_state"},
        "cached": dict(state.fields_cache),
        "adding": state.adding,
        "db": state.db,
        "pk": hand.pk,
    }


@given(
    data=facts,
    number=st.integers(1, 300),
    dealer_seat=st.integers(0, 3),
    signed_in=st.booleans(),
    client_key=st.one_of(st.none(), st.text(min_size=1, max_size=10)),
    source=st.sampled_from(list(Hand.Source)),
    points=st.tuples(st.integers(0, 4), st.integers(0, 4)),
)
def test_a_new_hand_is_the_one_the_keyword_constructor_makes(
    data, number, dealer_seat, signed_in, client_key, source, points
):
    season = Season(pk=3, league_id=2, rulebook=Rulebook(pk=5, options={}))
    game = Game(pk=7, season=season, seat_0_id=1, seat_1_id=2, seat_2_id=3, seat_3_id=4)
    user = get_user_model()(pk=11, username="organiser") if signed_in else None
    score = HandScore(Outcome.MARCH, *points, summary="")
    kwargs = dict(dealer_seat=dealer_seat, source=source, entered_by=user, client_key=client_key)
    made = _new_hand(game, number, data, score, **kwargs)
    expected = _by_keywords(game, number, data, score, **kwargs)
    assert _seen(made) == _seen(expected)
    assert made.game is game and made.rulebook is game.season.rulebook
    assert made.entered_by is user


def test_a_copied_game_is_what_copy_copy_makes_and_changes_apart_from_it():
    import copy

    from scoring.services.hands import _copied

    season = Season(pk=3, league_id=2, rulebook=Rulebook(pk=5, options={}))
    game = Game.from_db(
        "default",
        ["id", "season_id", "seat_0_id", "seat_1_id", "seat_2_id", "seat_3_id", "score_a"],
        [7, 3, 1, 2, 3, 4, 6],
    )
    game._state.fields_cache["season"] = season
    made, expected = _copied(game), copy.copy(game)
    left_out = {"_state", "_django_version"}  # (the pickling round leaves the version behind)
    assert {k: v for k, v in vars(made).items() if k not in left_out} == {
        k: v for k, v in vars(expected).items() if k not in left_out
    }
    assert set(vars(made)) == set(vars(expected)) - {"_django_version"}
    assert vars(made._state) == vars(expected._state)
    assert made._state is not game._state
    made.score_a = 8
    made._state.fields_cache["season"] = None
    made._state.adding = True
    assert (game.score_a, game.season, game._state.adding) == (6, season, False)
