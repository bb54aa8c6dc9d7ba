"""Timed games without a database: the rulebook's time options (``time_limit_minutes``,
``tie_at_time``, ``game_length`` ``time``) and what the engine makes of a hand on which time was
called, under every combination of length (points or minutes, minutes alone, hands or minutes)
and tie rule (next hand or draw), with the point variants of the presets (lone callers euchred
for 2 or 4, lone defenders, a renege deducted)."""

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.errors import DomainError
from league.domain.rules import (
    PRESETS,
    GameLength,
    RenegePenalty,
    Rulebook,
    TieAtTime,
    preset_rulebook,
)
from scoring.games.domain.engine import (
    GAME_START,
    GameState,
    HandFacts,
    HandScore,
    Outcome,
    Side,
    TimeResult,
    final_score_check,
    game_state,
    game_state_after,
    score_hand,
)

A, B = Side.A, Side.B

LENGTHS = {
    "points-or-minutes": {"game_length": GameLength.TARGET, "target_score": 10},
    "minutes": {"game_length": GameLength.TIME},
    "hands-or-minutes": {"game_length": GameLength.HANDS, "hands_per_game": 8},
}
VARIANTS = ("standard", "csl", "family")
"""The presets' point variants: lone caller euchred 2 (standard, family) or 4 (csl); lone
defenders never (standard), against a lone caller (csl), always (family)."""


def timed(variant: str, length: str, tie: TieAtTime, minutes: int = 20) -> Rulebook:
    return dataclasses.replace(
        preset_rulebook(variant), **LENGTHS[length], time_limit_minutes=minutes, tie_at_time=tie
    )


EVERY_TIMED = [
    pytest.param(variant, length, tie, id=f"{variant}-{length}-{tie.value}")
    for variant in VARIANTS
    for length in LENGTHS
    for tie in TieAtTime
]

MAKE_A = HandFacts(makers=A, tricks_won=3)
MAKE_B = HandFacts(makers=B, tricks_won=4)
MARCH_A = HandFacts(makers=A, tricks_won=5)
EUCHRE_A = HandFacts(makers=A, tricks_won=1)  # B scores 2 in every variant
LONE_EUCHRED_A = HandFacts(makers=A, caller_alone=True, tricks_won=2)
LONE_MARCH_B = HandFacts(makers=B, caller_alone=True, tricks_won=5)
LONE_DEFENDER_A = HandFacts(makers=B, caller_alone=True, defender_alone=True, tricks_won=1)
MISDEAL = HandFacts(misdeal=True)


def at_time(facts: HandFacts) -> HandFacts:
    return dataclasses.replace(facts, time_called=True)


def play(rulebook: Rulebook, hands: list[HandFacts]) -> GameState:
    return game_state(rulebook, [score_hand(rulebook, facts) for facts in hands])


# --- The rulebook's options ---


@pytest.mark.parametrize(
    ("options", "field", "message"),
    [
        ({"time_limit_minutes": 0}, "time_limit_minutes", "between 1 and 180 minutes"),
        ({"time_limit_minutes": 181}, "time_limit_minutes", "between 1 and 180 minutes"),
        ({"time_limit_minutes": True}, "time_limit_minutes", "whole number of minutes"),
        ({"time_limit_minutes": "20"}, "time_limit_minutes", "whole number of minutes"),
        ({"time_limit_minutes": 2.5}, "time_limit_minutes", "whole number of minutes"),
        ({"game_length": "time"}, "time_limit_minutes", "needs its time limit in minutes"),
        ({"tie_at_time": "coin_flip"}, "tie_at_time", "one of: next_hand, draw"),
        ({"game_length": "minutes"}, "game_length", "one of: target, hands, time"),
    ],
)
def test_bad_time_options_are_refused_naming_the_field(options, field, message):
    with pytest.raises(DomainError, match=message) as refused:
        Rulebook.from_options(options)
    assert refused.value.field == field


@pytest.mark.parametrize("minutes", [1, 25, 180])
def test_time_options_round_trip_through_stored_options(minutes):
    rules = Rulebook.from_options(
        {"game_length": "time", "time_limit_minutes": minutes, "tie_at_time": "draw"}
    )
    assert rules.to_options()["time_limit_minutes"] == minutes
    assert rules.to_options()["tie_at_time"] == "draw"
    assert rules.to_options()["game_length"] == "time"
    assert Rulebook.from_options(rules.to_options()) == rules


def test_a_rulebook_stored_before_time_options_is_untimed():
    old = {name: value for name, value in Rulebook().to_options().items() if "time" not in name}
    rules = Rulebook.from_options(old)
    assert rules.time_limit_minutes is None
    assert not rules.is_timed
    assert rules.tie_at_time is TieAtTime.NEXT_HAND


@pytest.mark.parametrize(
    ("options", "words", "draws"),
    [
        ({}, "Game to 10", False),
        ({"time_limit_minutes": 20}, "Game to 10 or 20 minutes, whichever first", False),
        (
            {"time_limit_minutes": 20, "tie_at_time": TieAtTime.DRAW},
            "Game to 10 or 20 minutes, whichever first",
            True,
        ),
        (
            {"game_length": GameLength.TIME, "time_limit_minutes": 25},
            "25-minute games, the higher score wins",
            False,
        ),
        (
            {
                "game_length": GameLength.TIME,
                "time_limit_minutes": 25,
                "tie_at_time": TieAtTime.DRAW,
            },
            "25-minute games, the higher score wins",
            True,
        ),
        ({"game_length": GameLength.HANDS}, "8 hands a game", True),
        (
            {"game_length": GameLength.HANDS, "time_limit_minutes": 30},
            "8 hands or 30 minutes a game",
            True,
        ),
    ],
)
def test_length_in_words_and_whether_a_game_can_be_drawn(options, words, draws):
    rules = Rulebook(**options)
    assert rules.length_words == words
    assert rules.draws_possible is draws


def test_the_timed_presets():
    assert preset_rulebook("points-or-time").length_words == (
        "Game to 13 or 20 minutes, whichever first"
    )
    assert preset_rulebook("timed").length_words == "25-minute games, the higher score wins"
    assert "plays on" in preset_rulebook("timed").tie_at_time_words
    assert preset_rulebook("standard").tie_at_time_words == ""
    assert "bracket game plays one more hand" in (
        Rulebook(time_limit_minutes=5, tie_at_time=TieAtTime.DRAW).tie_at_time_words
    )
    assert [slug for slug, preset in PRESETS.items() if preset.rulebook.is_timed] == [
        "points-or-time",
        "timed",
    ]


# --- A hand on which time was called ---


@pytest.mark.parametrize("slug", ["standard", "csl", "family", "progressive"])
def test_time_cannot_be_called_under_an_untimed_rulebook(slug):
    with pytest.raises(DomainError, match="no time limit") as refused:
        score_hand(preset_rulebook(slug), at_time(MAKE_A))
    assert refused.value.field == "time_called"


@pytest.mark.parametrize(("variant", "length", "tie"), EVERY_TIMED)
def test_a_misdeal_cannot_be_the_hand_time_was_called_on(variant, length, tie):
    with pytest.raises(DomainError, match="dealt again") as refused:
        score_hand(timed(variant, length, tie), at_time(MISDEAL))
    assert refused.value.field == "time_called"


def test_a_thrown_in_hand_can_be_the_last_where_thrown_in_hands_exist():
    rules = timed("standard", "minutes", TieAtTime.NEXT_HAND)
    score = score_hand(rules, HandFacts(thrown_in=True, time_called=True))
    assert (score.outcome, score.points_a, score.points_b, score.time_called) == (
        Outcome.THROWN_IN,
        0,
        0,
        True,
    )
    with pytest.raises(DomainError, match="stick the dealer"):
        score_hand(timed("csl", "minutes", TieAtTime.NEXT_HAND), HandFacts(thrown_in=True))


@pytest.mark.parametrize(("variant", "length", "tie"), EVERY_TIMED)
def test_time_called_does_not_change_the_hands_points(variant, length, tie):
    rules = timed(variant, length, tie)
    for facts in (MAKE_A, MARCH_A, EUCHRE_A, LONE_EUCHRED_A, LONE_MARCH_B):
        plain, last = score_hand(rules, facts), score_hand(rules, at_time(facts))
        assert (last.outcome, last.points_a, last.points_b) == (
            plain.outcome,
            plain.points_a,
            plain.points_b,
        )
        assert (plain.time_called, last.time_called) == (False, True)


# --- Results at time, under every combination ---


@pytest.mark.parametrize(("variant", "length", "tie"), EVERY_TIMED)
def test_the_higher_score_wins_at_time(variant, length, tie):
    state = play(timed(variant, length, tie), [MARCH_A, at_time(MAKE_B)])
    assert (state.score_a, state.score_b, state.hands_played) == (2, 1, 2)
    assert state.is_over and state.winner is A
    assert state.time_called and state.time_result is TimeResult.WON
    assert state.summary == "Time called: Side A wins 2–1"


@pytest.mark.parametrize(("variant", "length"), [(v, n) for v in VARIANTS for n in LENGTHS])
def test_level_at_time_plays_on_and_the_next_hand_that_breaks_the_tie_ends_it(variant, length):
    rules = timed(variant, length, TieAtTime.NEXT_HAND)
    state = play(rules, [MAKE_A, at_time(MAKE_B)])
    assert (state.score_a, state.score_b) == (1, 1)
    assert not state.is_over and state.winner is None
    assert state.time_result is TimeResult.PLAYING_ON
    assert state.summary == "Tied at time 1–1: the next hand decides"
    # A misdeal does not break the tie; the euchre does (the defenders, B, score 2).
    state = game_state_after(rules, state, score_hand(rules, MISDEAL))
    assert not state.is_over and state.time_result is TimeResult.PLAYING_ON
    state = game_state_after(rules, state, score_hand(rules, EUCHRE_A))
    assert (state.score_a, state.score_b, state.is_over, state.winner) == (1, 3, True, B)
    assert state.time_result is TimeResult.WON
    with pytest.raises(DomainError, match="already over"):
        game_state_after(rules, state, score_hand(rules, MAKE_A))


@pytest.mark.parametrize(("variant", "length"), [(v, n) for v in VARIANTS for n in LENGTHS])
def test_level_at_time_is_a_draw_where_the_rulebook_says_so(variant, length):
    rules = timed(variant, length, TieAtTime.DRAW)
    state = play(rules, [MAKE_A, at_time(MAKE_B)])
    assert (state.score_a, state.score_b, state.is_over, state.winner) == (1, 1, True, None)
    assert state.time_result is TimeResult.DRAW
    assert state.summary == "Time called: Drawn 1–1"
    with pytest.raises(DomainError, match="already over"):
        game_state_after(rules, state, score_hand(rules, MAKE_A))


@pytest.mark.parametrize("tie", list(TieAtTime))
def test_time_called_on_the_first_hand_thrown_in_leaves_the_game_level(tie):
    rules = timed("standard", "points-or-minutes", tie)
    state = play(rules, [HandFacts(thrown_in=True, time_called=True)])
    assert (state.score_a, state.score_b, state.hands_played) == (0, 0, 0)
    assert state.is_over is (tie is TieAtTime.DRAW)


@pytest.mark.parametrize(
    ("variant", "hands", "expected"),
    [
        # A euchred lone caller gives the defenders 2 (standard, family) or 4 (csl).
        ("standard", [MAKE_A, at_time(LONE_EUCHRED_A)], (1, 2, B)),
        ("family", [MAKE_A, at_time(LONE_EUCHRED_A)], (1, 2, B)),
        ("csl", [MAKE_A, at_time(LONE_EUCHRED_A)], (1, 4, B)),
        # A lone defender's euchre of a lone caller: 4 (family, csl).
        ("family", [LONE_MARCH_B, at_time(LONE_DEFENDER_A)], (4, 4, None)),
        ("csl", [LONE_MARCH_B, MAKE_A, at_time(LONE_DEFENDER_A)], (5, 4, A)),
        # A lone march at time.
        ("standard", [MARCH_A, MARCH_A, at_time(LONE_MARCH_B)], (4, 4, None)),
        ("csl", [MAKE_A, MARCH_A, at_time(LONE_MARCH_B)], (3, 4, B)),
    ],
)
@pytest.mark.parametrize("length", list(LENGTHS))
def test_loners_and_euchre_variants_at_time(variant, hands, expected, length):
    score_a, score_b, winner = expected
    for tie in TieAtTime:
        state = play(timed(variant, length, tie), hands)
        assert (state.score_a, state.score_b, state.winner) == (score_a, score_b, winner)
        level = score_a == score_b
        assert state.is_over is (not level or tie is TieAtTime.DRAW)


def test_a_lone_defender_where_the_rulebook_forbids_it_is_refused_at_time_too():
    rules = timed("standard", "minutes", TieAtTime.DRAW)
    with pytest.raises(DomainError, match="does not allow a defender to go alone"):
        score_hand(rules, at_time(LONE_DEFENDER_A))


@pytest.mark.parametrize("tie", list(TieAtTime))
def test_a_deducted_renege_can_leave_the_winner_below_zero(tie):
    rules = dataclasses.replace(
        timed("standard", "minutes", tie), renege_penalty=RenegePenalty.DEDUCT_GUILTY
    )
    state = play(rules, [at_time(HandFacts(makers=A, tricks_won=4, renege=A))])
    assert (state.score_a, state.score_b, state.is_over, state.winner) == (-2, 0, True, B)


@pytest.mark.parametrize("tie", list(TieAtTime))
def test_the_target_reached_on_the_hand_time_was_called_on_ends_the_game_either_way(tie):
    rules = timed("standard", "points-or-minutes", tie)
    state = play(rules, [MARCH_A] * 4 + [MAKE_A, at_time(MARCH_A)])
    assert (state.score_a, state.score_b, state.is_over, state.winner) == (11, 0, True, A)
    assert state.time_result is TimeResult.WON


def test_the_target_first_ends_a_points_or_minutes_game_and_time_cannot_be_called_after():
    rules = timed("standard", "points-or-minutes", TieAtTime.NEXT_HAND)
    state = play(rules, [MARCH_A] * 5)
    assert (state.score_a, state.is_over, state.winner, state.time_called) == (10, True, A, False)
    assert state.time_result is None
    assert state.summary == "Side A wins 10–0"
    with pytest.raises(DomainError, match="already over"):
        game_state_after(rules, state, score_hand(rules, at_time(MAKE_B)))


def test_a_game_of_minutes_alone_has_no_target():
    rules = timed("standard", "minutes", TieAtTime.NEXT_HAND, minutes=25)
    state = play(rules, [MARCH_A] * 10)
    assert (state.score_a, state.is_over) == (20, False)
    state = game_state_after(rules, state, score_hand(rules, at_time(MAKE_B)))
    assert (state.score_a, state.score_b, state.is_over, state.winner) == (20, 1, True, A)


def test_hands_or_minutes_the_last_hand_first_is_a_draw_by_hands_whatever_the_tie_rule():
    rules = dataclasses.replace(
        timed("standard", "hands-or-minutes", TieAtTime.NEXT_HAND), hands_per_game=2
    )
    state = play(rules, [MAKE_A, MAKE_B])
    assert (state.is_over, state.winner, state.time_called) == (True, None, False)
    assert state.summary == "Drawn 1–1"


@pytest.mark.parametrize(("variant", "length", "tie"), EVERY_TIMED)
def test_time_is_called_once_a_game(variant, length, tie):
    rules = timed(variant, length, tie)
    state = play(rules, [MAKE_A, at_time(MAKE_B)])
    if tie is TieAtTime.DRAW:
        return  # over: any hand is refused (above)
    with pytest.raises(DomainError, match="time was already called") as refused:
        game_state_after(rules, state, score_hand(rules, at_time(MARCH_A)))
    assert (refused.value.field, refused.value.code) == ("time_called", "time_already_called")


# --- A final score alone under a time limit ---


@pytest.mark.parametrize(
    ("options", "score", "answer"),
    [
        ({"time_limit_minutes": 20}, (7, 5), A),
        ({"time_limit_minutes": 20}, (11, 9), A),
        ({"time_limit_minutes": 20}, (6, 6), "cannot be level"),
        ({"time_limit_minutes": 20, "tie_at_time": TieAtTime.DRAW}, (6, 6), None),
        ({}, (7, 5), "needs one side on 10"),
        ({"game_length": GameLength.TIME, "time_limit_minutes": 25}, (31, 4), A),
        ({"game_length": GameLength.TIME, "time_limit_minutes": 25}, (3, 4), B),
        ({"game_length": GameLength.TIME, "time_limit_minutes": 25}, (4, 4), "cannot be level"),
        ({"time_limit_minutes": 20}, (14, 3), "no single hand"),
    ],
)
def test_a_final_score_alone_under_a_time_limit(options, score, answer):
    rules = Rulebook(**options)
    if type(answer) is str:  # a refusal (a Side is a str too)
        with pytest.raises(DomainError, match=answer):
            final_score_check(rules, *score)
    else:
        assert final_score_check(rules, *score) is answer


# --- Properties ---

points = st.integers(-2, 4)
hand_scores = st.builds(
    lambda side, value, called: HandScore(
        Outcome.MAKE,
        value if side is A else 0,
        value if side is B else 0,
        "",
        called,
    ),
    st.sampled_from([A, B]),
    points,
    st.booleans(),
)
timed_rulebooks = st.builds(
    Rulebook,
    game_length=st.sampled_from(list(GameLength)),
    target_score=st.integers(1, 12),
    hands_per_game=st.integers(1, 10),
    time_limit_minutes=st.integers(1, 180),
    tie_at_time=st.sampled_from(list(TieAtTime)),
)


def _reference(rules: Rulebook, scores: list[HandScore]) -> GameState | str:
    """The state of ``scores`` by the rules' words, from sums over prefixes: the error a hand
    gets ("over" after the end, "again" for time called twice), or the state."""
    called_at = None
    for end in range(1, len(scores) + 1):
        prefix = scores[:end]
        a = sum(score.points_a for score in prefix)
        b = sum(score.points_b for score in prefix)
        played = len(prefix)
        if scores[end - 1].time_called:
            if called_at is not None:
                return "again"
            called_at = end
        by_length = {
            GameLength.TARGET: max(a, b) >= rules.target_score,
            GameLength.HANDS: played >= rules.hands_per_game,
            GameLength.TIME: False,
        }[rules.game_length]
        at_time = called_at is not None and (a != b or rules.tie_at_time is TieAtTime.DRAW)
        if by_length or at_time:
            if end < len(scores):
                return "over"
            winner = None if a == b else (A if a > b else B)
            return GameState(a, b, played, True, winner, called_at is not None)
    a = sum(score.points_a for score in scores)
    b = sum(score.points_b for score in scores)
    return GameState(a, b, len(scores), False, None, called_at is not None)


@given(timed_rulebooks, st.lists(hand_scores, max_size=16))
def test_every_timed_game_follows_the_rules_words(rules, scores):
    """Folded hand by hand (as a write does), a game under any timed rulebook is what the rules
    say of its hands: over by its length or at time (unless level and playing on), the higher
    score winning; time twice and hands after the end refused."""
    expected = _reference(rules, scores)
    state = GAME_START
    try:
        for score in scores:
            state = game_state_after(rules, state, score)
    except DomainError as error:
        assert expected in ("over", "again")
        assert ("already over" in error.message) is (expected == "over")
        return
    assert state == expected
    if state.time_called and state.is_over and state.winner is None:
        assert rules.tie_at_time is TieAtTime.DRAW or (
            rules.game_length is GameLength.HANDS and state.hands_played >= rules.hands_per_game
        )
