"""The captain's lookup table of hands (scoring.games.domain.hand_table), without a database: under
random rulebooks (every option drawn), every played hand's code leads to what the engine says,
and the codes' digits read back as JavaScript's ``parseInt(code, 36)`` reads them."""

import random
from itertools import product

import pytest

from core.errors import DomainError
from league.domain.rules import DefenderAlone, GameLength, RenegePenalty, Rulebook, TieAtTime
from scoring.games.domain.engine import HandFacts, Side, next_dealer, score_hand
from scoring.games.domain.hand_table import AXES, code_width, encode, hand_outcome_table

POINTS = (
    "make_points",
    "march_points",
    "lone_make_points",
    "lone_march_points",
    "euchre_points",
    "lone_caller_euchred_points",
    "lone_defender_euchre_points",
    "renege_points",
    "renege_points_alone",
)


def random_rulebook(pick: random.Random) -> Rulebook:
    game_length = pick.choice(list(GameLength))
    minutes = pick.randint(1, 180)
    timed = game_length is GameLength.TIME or pick.random() < 0.5
    return Rulebook(
        **{name: pick.randint(0, 20) for name in POINTS},
        defender_alone=pick.choice(list(DefenderAlone)),
        stick_the_dealer=pick.random() < 0.5,
        renege_penalty=pick.choice(list(RenegePenalty)),
        game_length=game_length,
        target_score=pick.randint(1, 100),
        hands_per_game=pick.randint(1, 100),
        time_limit_minutes=minutes if timed else None,
        tie_at_time=pick.choice(list(TieAtTime)),
        dealer_partner_must_go_alone=pick.random() < 0.5,
    )


def engine_says(rules: Rulebook, facts: HandFacts):
    try:
        score = score_hand(rules, facts)
    except DomainError as error:
        return ("refused", error.message)
    moved = next_dealer(facts.dealer_seat, score) != facts.dealer_seat
    return (score.points_a, score.points_b, score.is_scored, int(moved), score.summary)


def table_says(result: dict):
    if "error" in result:
        return ("refused", result["error"])
    points_a, points_b = result["points"]
    return (points_a, points_b, result["scored"], result["deal_moves"], result["summary"])


@pytest.mark.parametrize("seed", range(12))
def test_every_played_hand_under_a_random_rulebook_reads_what_the_engine_says(seed):
    rules = random_rulebook(random.Random(seed))
    table = hand_outcome_table(rules)
    width = table["width"]
    values = [choices for _, choices in AXES]
    for position, (dealer, caller, alone, defender, ordered, tricks, renege) in enumerate(
        product(*values)
    ):
        facts = HandFacts(
            makers=Side.A if caller in (0, 2) else Side.B,
            caller_seat=caller,
            dealer_seat=dealer,
            caller_alone=alone,
            defender_alone=defender,
            ordered_up=ordered,
            tricks_won=tricks,
            renege=Side(renege) if renege else None,
        )
        code = table["hands"][position * width : (position + 1) * width]
        assert table_says(table["results"][int(code, 36)]) == engine_says(rules, facts), facts
    for name in ("thrown_in", "misdeal"):
        for dealer in range(4):
            found = table["results"][table["special"][name][dealer]]
            facts = HandFacts(dealer_seat=dealer, **{name: True})
            assert table_says(found) == engine_says(rules, facts)
    expected = {
        GameLength.HANDS: {"length": "hands", "hands_per_game": rules.hands_per_game},
        GameLength.TARGET: {"length": "target", "target_score": rules.target_score},
        GameLength.TIME: {"length": "time"},
    }[rules.game_length]
    if rules.time_limit_minutes is not None:
        expected["tie_at_time"] = rules.tie_at_time.value
    assert table["game"] == expected


def test_a_result_appears_once_in_the_results():
    table = hand_outcome_table(Rulebook())
    results = [repr(sorted(result.items())) for result in table["results"]]
    assert len(results) == len(set(results))


@pytest.mark.parametrize(
    ("count", "width"), [(1, 1), (36, 1), (37, 2), (36 * 36, 2), (36 * 36 + 1, 3)]
)
def test_codes_are_as_wide_as_the_results_need(count, width):
    assert code_width(count) == width
    for index in (0, count - 1):
        assert len(encode(index, width)) == width
        assert int(encode(index, width), 36) == index
