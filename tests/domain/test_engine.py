"""The scoring engine, over every preset and every outcome, without a database."""

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.errors import DomainError
from league.domain.rules import (
    PRESETS,
    DefenderAlone,
    GameLength,
    RenegePenalty,
    Rulebook,
    preset_rulebook,
)
from scoring.games.domain.engine import (
    GAME_START,
    GameState,
    HandFacts,
    HandScore,
    Outcome,
    Side,
    final_score_check,
    game_state,
    game_state_after,
    next_dealer,
    score_hand,
)

A, B = Side.A, Side.B

# (facts, {preset: (outcome, points_a, points_b) or an error fragment})
PLAYED = [
    (
        HandFacts(makers=A, tricks_won=3),
        dict.fromkeys(PRESETS, (Outcome.MAKE, 1, 0)),
    ),
    (
        HandFacts(makers=B, tricks_won=4),
        dict.fromkeys(PRESETS, (Outcome.MAKE, 0, 1)),
    ),
    (
        HandFacts(makers=A, tricks_won=5),
        dict.fromkeys(PRESETS, (Outcome.MARCH, 2, 0)),
    ),
    (
        HandFacts(makers=B, tricks_won=2),
        dict.fromkeys(PRESETS, (Outcome.EUCHRE, 2, 0)),
    ),
    (
        HandFacts(makers=A, tricks_won=0),
        dict.fromkeys(PRESETS, (Outcome.EUCHRE, 0, 2)),
    ),
    (
        HandFacts(makers=A, caller_alone=True, tricks_won=3),
        dict.fromkeys(PRESETS, (Outcome.LONE_MAKE, 1, 0)),
    ),
    (
        HandFacts(makers=B, caller_alone=True, tricks_won=5),
        dict.fromkeys(PRESETS, (Outcome.LONE_MARCH, 0, 4)),
    ),
    (
        HandFacts(makers=A, caller_alone=True, tricks_won=1),
        {
            "standard": (Outcome.LONE_CALLER_EUCHRED, 0, 2),
            "points-or-time": (Outcome.LONE_CALLER_EUCHRED, 0, 2),  # standard points, timed
            "timed": (Outcome.LONE_CALLER_EUCHRED, 0, 2),
            "csl": (Outcome.LONE_CALLER_EUCHRED, 0, 4),
            "family": (Outcome.LONE_CALLER_EUCHRED, 0, 2),
            "progressive": (Outcome.LONE_CALLER_EUCHRED, 0, 2),
        },
    ),
    (
        HandFacts(makers=A, defender_alone=True, tricks_won=2),
        {
            "standard": "does not allow a defender to go alone",
            "points-or-time": "does not allow a defender to go alone",  # standard points, timed
            "timed": "does not allow a defender to go alone",
            "csl": "only against a lone caller",
            "family": (Outcome.LONE_DEFENDER_EUCHRE, 0, 4),
            "progressive": "does not allow a defender to go alone",
        },
    ),
    (
        HandFacts(makers=A, defender_alone=True, tricks_won=4),
        {
            "standard": "does not allow a defender to go alone",
            "points-or-time": "does not allow a defender to go alone",  # standard points, timed
            "timed": "does not allow a defender to go alone",
            "csl": "only against a lone caller",
            "family": (Outcome.MAKE, 1, 0),
            "progressive": "does not allow a defender to go alone",
        },
    ),
    (
        HandFacts(makers=B, caller_alone=True, defender_alone=True, tricks_won=2),
        {
            "standard": "does not allow a defender to go alone",
            "points-or-time": "does not allow a defender to go alone",  # standard points, timed
            "timed": "does not allow a defender to go alone",
            "csl": (Outcome.LONE_DEFENDER_EUCHRE, 4, 0),
            "family": (Outcome.LONE_DEFENDER_EUCHRE, 4, 0),
            "progressive": "does not allow a defender to go alone",
        },
    ),
    (
        HandFacts(makers=B, caller_alone=True, defender_alone=True, tricks_won=4),
        {
            "standard": "does not allow a defender to go alone",
            "points-or-time": "does not allow a defender to go alone",  # standard points, timed
            "timed": "does not allow a defender to go alone",
            "csl": (Outcome.LONE_MAKE, 0, 1),
            "family": (Outcome.LONE_MAKE, 0, 1),
            "progressive": "does not allow a defender to go alone",
        },
    ),
    (
        HandFacts(makers=B, caller_alone=True, defender_alone=True, tricks_won=5),
        {
            "standard": "does not allow a defender to go alone",
            "points-or-time": "does not allow a defender to go alone",  # standard points, timed
            "timed": "does not allow a defender to go alone",
            "csl": (Outcome.LONE_MARCH, 0, 4),
            "family": (Outcome.LONE_MARCH, 0, 4),
            "progressive": "does not allow a defender to go alone",
        },
    ),
    (
        HandFacts(thrown_in=True),
        {
            "standard": (Outcome.THROWN_IN, 0, 0),
            "points-or-time": (Outcome.THROWN_IN, 0, 0),  # standard points, timed
            "timed": (Outcome.THROWN_IN, 0, 0),
            "csl": "not allowed when stick the dealer is on",
            "family": (Outcome.THROWN_IN, 0, 0),
            "progressive": "not allowed when stick the dealer is on",
        },
    ),
    (
        HandFacts(misdeal=True),
        dict.fromkeys(PRESETS, (Outcome.MISDEAL, 0, 0)),
    ),
    (
        HandFacts(makers=A, tricks_won=4, renege=A),
        dict.fromkeys(PRESETS, (Outcome.RENEGE, 0, 2)),
    ),
    (
        HandFacts(makers=A, caller_alone=True, tricks_won=5, renege=B),
        dict.fromkeys(PRESETS, (Outcome.RENEGE, 4, 0)),
    ),
]


@pytest.mark.parametrize("slug", sorted(PRESETS))
@pytest.mark.parametrize(("facts", "expected"), PLAYED)
def test_every_preset_scores_every_outcome(slug, facts, expected):
    rulebook = preset_rulebook(slug)
    want = expected[slug]
    if isinstance(want, str):
        with pytest.raises(DomainError, match=want):
            score_hand(rulebook, facts)
        return
    score = score_hand(rulebook, facts)
    assert (score.outcome, score.points_a, score.points_b) == want


@pytest.mark.parametrize(
    ("facts", "summary"),
    [
        (HandFacts(makers=A, tricks_won=5), "March! A +2"),
        (HandFacts(makers=A, caller_alone=True, tricks_won=1), "Euchred a loner: B +2"),
        (HandFacts(makers=B, tricks_won=0), "Euchred: A +2"),
        (HandFacts(makers=B, tricks_won=3), "Made it: B +1"),
        (HandFacts(makers=B, caller_alone=True, tricks_won=5), "Loner marched! B +4"),
        (HandFacts(thrown_in=True), "Thrown in: no score, the deal passes"),
        (HandFacts(makers=A, tricks_won=3, renege=B), "Renege: A +2"),
    ],
)
def test_summaries_in_words(facts, summary):
    assert score_hand(Rulebook(), facts).summary == summary


def test_lone_caller_euchred_under_csl_and_standard():
    facts = HandFacts(makers=A, caller_alone=True, tricks_won=2)
    assert score_hand(preset_rulebook("csl"), facts).summary == "Euchred a loner: B +4"
    assert score_hand(preset_rulebook("standard"), facts).points_b == 2


@pytest.mark.parametrize(
    ("facts", "message", "field"),
    [
        (HandFacts(makers=A, tricks_won=6), "5 tricks is the most a side can take", "tricks_won"),
        (HandFacts(makers=A, tricks_won=-1), "tricks cannot be negative", "tricks_won"),
        (HandFacts(makers=A), "say how many tricks the makers took", "tricks_won"),
        (HandFacts(tricks_won=3), "say which side made trump", "makers"),
        (HandFacts(thrown_in=True, makers=A), "thrown-in hand has no makers", "thrown_in"),
        (HandFacts(misdeal=True, tricks_won=2), "misdealt hand has no makers", "thrown_in"),
        (HandFacts(misdeal=True, thrown_in=True), "either thrown in or misdealt", "misdeal"),
        (
            HandFacts(makers=A, tricks_won=3, caller_seat=1),
            "the caller must sit on the makers' side",
            "caller",
        ),
    ],
)
def test_bad_facts_are_explained(facts, message, field):
    with pytest.raises(DomainError, match=message) as error:
        score_hand(Rulebook(), facts)
    assert error.value.field == field


def test_renege_policies():
    facts = HandFacts(makers=A, tricks_won=3, renege=A)
    award = Rulebook(renege_penalty=RenegePenalty.AWARD_INNOCENT, renege_points=2)
    deduct = Rulebook(renege_penalty=RenegePenalty.DEDUCT_GUILTY, renege_points=2)
    ends = Rulebook(renege_penalty=RenegePenalty.HAND_ENDS, renege_points=3)
    assert (score_hand(award, facts).points_a, score_hand(award, facts).points_b) == (0, 2)
    assert (score_hand(deduct, facts).points_a, score_hand(deduct, facts).points_b) == (-2, 0)
    assert score_hand(deduct, facts).summary == "Renege: A -2"
    with pytest.raises(DomainError, match="the hand ends at a renege"):
        score_hand(ends, facts)
    stopped = score_hand(ends, HandFacts(makers=A, renege=B))
    assert (stopped.points_a, stopped.points_b) == (3, 0)
    alone = score_hand(deduct, HandFacts(makers=B, caller_alone=True, tricks_won=1, renege=B))
    assert (alone.points_a, alone.points_b) == (0, -4)


def test_dealer_partner_must_go_alone():
    rules = Rulebook(dealer_partner_must_go_alone=True)
    partner_orders_up = HandFacts(
        makers=A, tricks_won=3, caller_seat=2, dealer_seat=0, ordered_up=True
    )
    with pytest.raises(DomainError, match="dealer's partner who orders up must go alone"):
        score_hand(rules, partner_orders_up)
    lone = dataclasses.replace(partner_orders_up, caller_alone=True)
    assert score_hand(rules, lone).outcome is Outcome.LONE_MAKE
    named_in_round_two = dataclasses.replace(partner_orders_up, ordered_up=False)
    assert score_hand(rules, named_in_round_two).outcome is Outcome.MAKE
    assert score_hand(Rulebook(), partner_orders_up).outcome is Outcome.MAKE


def test_custom_points_are_used():
    rules = Rulebook(make_points=3, march_points=5, euchre_points=7, lone_march_points=9)
    assert score_hand(rules, HandFacts(makers=A, tricks_won=3)).points_a == 3
    assert score_hand(rules, HandFacts(makers=A, tricks_won=5)).points_a == 5
    assert score_hand(rules, HandFacts(makers=A, tricks_won=2)).points_b == 7
    assert score_hand(rules, HandFacts(makers=A, caller_alone=True, tricks_won=5)).points_a == 9


def _made(side: Side, points: int) -> HandScore:
    return HandScore(Outcome.MAKE, points if side is A else 0, points if side is B else 0, "")


def test_game_to_target_ends_at_first_hand_reaching_it():
    rules = Rulebook(target_score=10)
    hands = [_made(A, 4), _made(B, 2), _made(A, 4), _made(B, 2)]
    assert game_state(rules, hands) == GameState(8, 4, 4, False, None)
    finished = game_state(rules, [*hands, _made(A, 2)])
    assert finished == GameState(10, 4, 5, True, A)
    assert finished.summary == "Side A wins 10–4"
    with pytest.raises(DomainError, match="already over"):
        game_state(rules, [*hands, _made(A, 2), _made(B, 1)])


def test_short_game_to_five():
    rules = Rulebook(target_score=5)
    assert game_state(rules, [_made(B, 4), _made(B, 1)]).winner is B


def test_game_of_fixed_hands_counts_played_hands_and_can_draw():
    rules = preset_rulebook("progressive")
    misdeal = HandScore(Outcome.MISDEAL, 0, 0, "")
    hands = [_made(A, 1), _made(B, 1)] * 4
    state = game_state(rules, [misdeal, *hands[:-1]])
    assert (state.hands_played, state.is_over) == (7, False)
    drawn = game_state(rules, hands)
    assert drawn == GameState(4, 4, 8, True, None)
    assert drawn.summary == "Drawn 4–4"


def test_next_dealer_passes_clockwise_but_not_after_a_misdeal():
    assert [next_dealer(seat) for seat in range(4)] == [1, 2, 3, 0]
    assert next_dealer(2, HandScore(Outcome.MISDEAL, 0, 0, "")) == 2
    assert next_dealer(3, HandScore(Outcome.THROWN_IN, 0, 0, "")) == 0


@pytest.mark.parametrize(
    ("score_a", "score_b", "winner_or_error"),
    [
        (10, 6, A),
        (7, 11, B),
        (13, 9, A),
        (9, 9, "needs one side on 10"),
        (10, 10, "only one side"),
        (14, 2, "no single hand"),
        (-1, 10, "0 or more"),
    ],
)
def test_final_score_alone(score_a, score_b, winner_or_error):
    if not isinstance(winner_or_error, Side):
        with pytest.raises(DomainError, match=winner_or_error):
            final_score_check(Rulebook(), score_a, score_b)
    else:
        assert final_score_check(Rulebook(), score_a, score_b) is winner_or_error


def test_rulebook_options_round_trip_and_reject_unknowns():
    csl = preset_rulebook("csl")
    assert Rulebook.from_options(csl.to_options()) == csl
    assert csl.to_options()["defender_alone"] == "against_lone_caller"
    with pytest.raises(DomainError, match="unknown rulebook option: bogus"):
        Rulebook.from_options({"bogus": 1})
    with pytest.raises(DomainError, match="defender_alone must be one of"):
        Rulebook.from_options({"defender_alone": "sometimes"})
    with pytest.raises(DomainError, match="stick_the_dealer must be true or false"):
        Rulebook.from_options({"stick_the_dealer": "yes"})
    with pytest.raises(DomainError, match="target score must be between 1 and 100"):
        Rulebook(target_score=0)
    with pytest.raises(DomainError, match="march_points must be a whole number"):
        Rulebook.from_options({"march_points": 2.5})


def test_presets_are_described():
    assert set(PRESETS) == {"standard", "csl", "family", "progressive", "points-or-time", "timed"}
    for preset in PRESETS.values():
        assert preset.description and "\n" not in preset.description
    assert preset_rulebook("progressive").game_length is GameLength.HANDS
    assert preset_rulebook("family").defender_alone is DefenderAlone.ALWAYS
    with pytest.raises(DomainError, match="no rulebook preset called 'nope'"):
        preset_rulebook("nope")


# Property-based: invariants that hold for every rulebook and every valid hand.

rulebooks = st.builds(
    Rulebook,
    make_points=st.integers(0, 20),
    march_points=st.integers(0, 20),
    lone_make_points=st.integers(0, 20),
    lone_march_points=st.integers(0, 20),
    euchre_points=st.integers(0, 20),
    lone_caller_euchred_points=st.integers(0, 20),
    lone_defender_euchre_points=st.integers(0, 20),
    defender_alone=st.sampled_from(DefenderAlone),
    stick_the_dealer=st.booleans(),
    renege_penalty=st.sampled_from(RenegePenalty),
    renege_points=st.integers(0, 20),
    renege_points_alone=st.integers(0, 20),
)
facts = st.builds(
    HandFacts,
    makers=st.sampled_from([A, B]),
    caller_alone=st.booleans(),
    defender_alone=st.booleans(),
    tricks_won=st.one_of(st.none(), st.integers(-2, 7)),
    renege=st.one_of(st.none(), st.sampled_from([A, B])),
)


@given(rulebooks, facts)
def test_a_hand_is_scored_or_explained_never_both_sides(rulebook, hand):
    try:
        score = score_hand(rulebook, hand)
    except DomainError as error:
        assert error.message and error.field
        return
    assert score.points_a == 0 or score.points_b == 0
    if hand.renege is None:
        assert score.points_a >= 0 and score.points_b >= 0
        assert 0 <= hand.tricks_won <= 5
        scorer = A if score.points_a else B
        if score.points_a or score.points_b:
            assert (scorer == hand.makers) == (hand.tricks_won >= 3)


@given(facts.filter(lambda hand: hand.renege is None))
def test_a_played_hand_without_renege_scores_for_exactly_one_side(hand):
    try:
        score = score_hand(preset_rulebook("family"), hand)
    except DomainError:
        return
    assert (score.points_a > 0) != (score.points_b > 0)


@given(facts)
def test_swapping_sides_swaps_points(hand):
    mirrored = dataclasses.replace(
        hand, makers=hand.makers.other, renege=hand.renege.other if hand.renege else None
    )
    try:
        score = score_hand(preset_rulebook("csl"), hand)
    except DomainError as error:
        with pytest.raises(DomainError, match=error.message):
            score_hand(preset_rulebook("csl"), mirrored)
        return
    swapped = score_hand(preset_rulebook("csl"), mirrored)
    assert (swapped.points_a, swapped.points_b, swapped.outcome) == (
        score.points_b,
        score.points_a,
        score.outcome,
    )


@given(st.lists(facts, max_size=40), st.sampled_from(sorted(PRESETS)))
def test_game_state_equals_sum_until_the_end(hands, slug):
    rulebook = preset_rulebook(slug)
    scores = []
    for hand in hands:
        try:
            scores.append(score_hand(rulebook, hand))
        except DomainError:
            continue
        try:
            state = game_state(rulebook, scores)
        except DomainError:
            scores.pop()
            break
        assert state.score_a == sum(score.points_a for score in scores)
        assert state.score_b == sum(score.points_b for score in scores)
        if state.is_over:
            break


def _reference_state(rulebook: Rulebook, scores: list[HandScore]) -> GameState | None:
    """The game's state by its definition, from sums over the whole list: ``None`` when a hand
    came after the game was over (the engine refuses it)."""

    def over(prefix):
        points_a = sum(score.points_a for score in prefix)
        points_b = sum(score.points_b for score in prefix)
        played = sum(score.is_scored for score in prefix)
        if rulebook.game_length is GameLength.HANDS:
            return points_a, points_b, played, played >= rulebook.hands_per_game
        return points_a, points_b, played, max(points_a, points_b) >= rulebook.target_score

    if any(over(scores[:end])[3] for end in range(len(scores))):
        return None
    points_a, points_b, played, is_over = over(scores)
    winner = None
    if is_over and points_a != points_b:
        winner = A if points_a > points_b else B
    return GameState(points_a, points_b, played, is_over, winner)


no_score = st.sampled_from(
    [HandScore(Outcome.MISDEAL, 0, 0, ""), HandScore(Outcome.THROWN_IN, 0, 0, "")]
)
played_score = st.builds(
    lambda side, points: _made(side, points), st.sampled_from([A, B]), st.integers(-2, 4)
)
short_rulebooks = st.one_of(
    st.builds(Rulebook, target_score=st.integers(1, 12)),
    st.builds(Rulebook, game_length=st.just(GameLength.HANDS), hands_per_game=st.integers(1, 8)),
)


@given(short_rulebooks, st.lists(st.one_of(played_score, no_score), max_size=20))
def test_folding_each_hand_into_the_running_state_equals_the_whole_game(rulebook, scores):
    """What a hand write does (``game_state_after`` on the state kept on the game row) gives the
    state of the whole list of hands by its definition, and refuses the hand after the end."""
    state = GAME_START
    for end, score in enumerate(scores, start=1):
        expected = _reference_state(rulebook, scores[:end])
        if expected is None:
            with pytest.raises(DomainError, match="already over"):
                game_state_after(rulebook, state, score)
            return
        state = game_state_after(rulebook, state, score)
        assert state == expected
        assert game_state(rulebook, scores[:end]) == expected
    assert state == (_reference_state(rulebook, scores) if scores else GAME_START)
