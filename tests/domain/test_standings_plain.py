"""A standing's reason in a few words (scoring.standings.domain.standings.plain), from the rows a
snapshot stores: the measure that decided each row, against its neighbour."""

import pytest

from scoring.standings.domain.standings import SeasonRules, compute_standings
from scoring.standings.domain.standings.plain import SHORT, short_reasons
from scoring.standings.domain.standings.rules import MEASURE_LABELS
from tests.domain.test_standings import cycle_games, game


def shorts(games, chain, **options):
    rules = SeasonRules(tiebreaks=chain, **options)
    names = {1: "Aces", 2: "Bowers", 3: "Clubs", 4: "Jacks", 5: "Kings"}
    standings = compute_standings(games, rules, names=names).to_dict()
    rows = standings["rows"]
    return [
        (row["name"], short)
        for row, short in zip(rows, short_reasons(rows, standings["tiebreaks"]), strict=True)
    ]


def test_head_to_head_of_two_says_who_beat_whom():
    # Jacks and Aces 1-1 overall; Jacks beat Aces when they met.
    games = [game(1, 4, 1, 10, 6), game(2, 1, 2, 10, 2), game(3, 3, 4, 10, 8)]
    assert shorts(games, ("win_pct", "head_to_head")) == [
        ("Clubs", "won more often than Jacks"),
        ("Jacks", "won less often than Clubs"),
        ("Aces", "Jacks beat them"),
        ("Bowers", "won less often than Aces"),
    ]


def test_the_first_row_is_said_against_the_row_below():
    games = [game(1, 4, 1, 10, 6)]
    assert shorts(games, ("win_pct", "head_to_head")) == [
        ("Jacks", "won more often than Aces"),
        ("Aces", "won less often than Jacks"),
    ]
    assert shorts(games, ("head_to_head", "win_pct")) == [
        ("Jacks", "beat Aces"),
        ("Aces", "Jacks beat them"),
    ]


def test_head_to_head_among_more_than_two_says_how_many_are_tied():
    # A cycle (Aces beat Bowers beat Clubs beat Aces) all beat Jacks: with head-to-head first,
    # everyone is in the tied group, Jacks behind on it; the cycle goes to the coin flip.
    assert shorts(cycle_games(), ("head_to_head", "win_pct")) == [
        ("Aces", "level with Bowers: a coin flip"),
        ("Bowers", "level with Aces: a coin flip"),
        ("Clubs", "level with Bowers: a coin flip"),
        ("Jacks", "behind Clubs head-to-head, 4 tied"),
    ]
    five = [game(1, 1, 2, 10, 8), game(2, 1, 3, 10, 8), game(3, 2, 3, 10, 8), game(4, 4, 5, 1, 0)]
    assert shorts(five, ("head_to_head",)) == [
        ("Aces", "best head-to-head of 5 tied"),
        ("Jacks", "behind Aces head-to-head, 5 tied"),
        ("Bowers", "behind Jacks head-to-head, 5 tied"),
        ("Kings", "behind Bowers head-to-head, 5 tied"),
        ("Clubs", "behind Kings head-to-head, 5 tied"),
    ]


def test_points_margins_and_coin_flips():
    games = [game(1, 1, 3, 10, 4), game(2, 2, 3, 10, 8)]
    assert shorts(games, ("win_pct", "point_diff")) == [
        ("Aces", "bigger margin than Bowers"),
        ("Bowers", "smaller margin than Aces"),
        ("Clubs", "won less often than Bowers"),
    ]
    level = [game(1, 1, 3, 10, 4), game(2, 2, 4, 10, 4)]
    (first, second, *_rest) = shorts(level, ("win_pct", "point_diff"))
    assert first[1] == f"level with {second[0]}: a coin flip"
    assert second[1] == f"level with {first[0]}: a coin flip"


def test_a_row_nothing_decided_has_no_short_reason():
    rows = shorts([game(1, 1, 2, 10, 4), game(2, 1, 3, 10, 4)], ("win_pct",), min_games=2)
    assert rows == [("Aces", ""), ("Bowers", ""), ("Clubs", "")]  # one ranked, two unranked


@pytest.mark.parametrize("measure", sorted(MEASURE_LABELS))
def test_every_measure_has_words(measure):
    """Each tie-break is said in plain words, or, if a new one has none yet, by its label."""
    rows = [
        {"rank": 1, "entrant": 1, "name": "Aces", "decided_by": measure, "tiebreaks": {}},
        {"rank": 2, "entrant": 2, "name": "Bowers", "decided_by": measure, "tiebreaks": {}},
    ]
    first, second = short_reasons(rows, (measure,))
    assert "Bowers" in first and "Aces" in second
    if measure not in SHORT and measure != "head_to_head":
        assert MEASURE_LABELS[measure] in second
