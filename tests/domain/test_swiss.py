"""Swiss pairing, checked against a brute-force search on small fields."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import DomainError
from tournaments.domain.swiss import SwissEntry, SwissPairing, SwissRound, swiss_pairings


def entries(*rows):
    """``(team, score, opponents, byes)`` rows, in ranking order."""
    return [
        SwissEntry(team=team, score=score, opponents=frozenset(opponents), byes=byes)
        for team, score, opponents, byes in rows
    ]


def pairs(*teams):
    return tuple(SwissPairing(first, second) for first, second in teams)


def test_first_round_pairs_the_top_half_against_the_bottom_half():
    standings = entries(*[(team, 0, "", 0) for team in "ABCDEFGH"])
    assert swiss_pairings(standings) == SwissRound(
        pairings=pairs(("A", "E"), ("B", "F"), ("C", "G"), ("D", "H"))
    )


def test_the_lowest_of_a_group_floats_to_the_top_of_the_next():
    standings = entries(*[(team, 2 if team in "ABC" else 1, "", 0) for team in "ABCDEF"])
    assert swiss_pairings(standings) == SwissRound(
        pairings=pairs(("A", "B"), ("C", "D"), ("E", "F"))
    )


def test_a_rematch_the_greedy_way_would_force_is_avoided():
    """Top-down greedy takes A-B and is left with C-D, a rematch; so is A-C."""
    standings = entries(("A", 1, "C", 0), ("B", 1, "", 0), ("C", 1, "AD", 0), ("D", 1, "C", 0))
    assert swiss_pairings(standings) == SwissRound(pairings=pairs(("A", "D"), ("B", "C")))


def test_the_bye_goes_to_the_lowest_ranked_team_without_one():
    standings = entries(*[(team, 0, "", 0) for team in "ABCDE"])
    assert swiss_pairings(standings).bye == "E"
    standings = entries(("A", 1, "", 0), ("B", 1, "", 0), ("C", 1, "", 0), ("D", 1, "", 1))
    standings += entries(("E", 0, "", 0))
    assert swiss_pairings(standings) == SwissRound(pairings=pairs(("A", "C"), ("B", "D")), bye="E")
    standings = entries(("A", 1, "", 0), ("B", 1, "", 0), ("C", 1, "", 0), ("D", 1, "", 0))
    standings += entries(("E", 1, "", 1))
    assert swiss_pairings(standings).bye == "D"


def test_the_bye_moves_up_when_it_would_force_a_rematch():
    """E is the lowest without a bye, but then A, who has met B, C and D, has no opponent: the
    next team without a bye, A itself, sits out."""
    standings = entries(
        ("A", 3, "BCD", 0), ("B", 1, "A", 1), ("C", 1, "A", 1), ("D", 1, "A", 1), ("E", 0, "", 0)
    )
    assert swiss_pairings(standings) == SwissRound(pairings=pairs(("B", "C"), ("D", "E")), bye="A")


def test_no_rematch_free_pairing_is_a_clear_error():
    everyone = "ABCD"
    standings = entries(*[(team, 1, everyone.replace(team, ""), 0) for team in everyone])
    with pytest.raises(DomainError) as refused:
        swiss_pairings(standings)
    assert refused.value.message == (
        "No pairing of these 4 teams avoids a rematch: every way of pairing them (whoever has the "
        "bye) repeats a match already played. Play fewer Swiss rounds, or end the event with a "
        "knockout."
    )
    assert refused.value.code == "no_pairing"


@pytest.mark.parametrize(
    "standings",
    [
        entries(("A", 0, "", 0)),
        entries(("A", 0, "", 0), ("A", 0, "", 0)),
        entries(("A", 0, "", 0), ("B", 1, "", 0)),
    ],
)
def test_malformed_standings_are_refused(standings):
    with pytest.raises(DomainError):
        swiss_pairings(standings)


# Brute force -------------------------------------------------------------------------------------


def all_pairings(teams):
    """Every way of splitting ``teams`` into pairs."""
    if not teams:
        yield []
        return
    first, rest = teams[0], teams[1:]
    for index, partner in enumerate(rest):
        for remainder in all_pairings(rest[:index] + rest[index + 1 :]):
            yield [(first, partner), *remainder]


def squared_score_gaps(standings, pairing):
    score = {entry.team: entry.score for entry in standings}
    return sum((score[a] - score[b]) ** 2 for a, b in pairing)


def random_history(rng, team_count, rounds):
    """Play ``rounds`` rounds of random pairings and random results; rank by score."""
    teams = list(range(1, team_count + 1))
    wins = dict.fromkeys(teams, 0)
    byes = dict.fromkeys(teams, 0)
    met = {team: set() for team in teams}
    for _ in range(rounds):
        order = teams[:]
        rng.shuffle(order)
        if team_count % 2:
            fewest = min(byes.values())
            sitter = rng.choice([team for team in order if byes[team] == fewest])
            order.remove(sitter)
            byes[sitter] += 1
            wins[sitter] += 1
        for a, b in zip(order[::2], order[1::2], strict=True):
            met[a].add(b)
            met[b].add(a)
            wins[rng.choice((a, b))] += 1
    rng.shuffle(teams)
    teams.sort(key=lambda team: -wins[team])
    return [SwissEntry(team, wins[team], frozenset(met[team]), byes[team]) for team in teams]


@settings(max_examples=400, deadline=None)
@given(
    team_count=st.integers(min_value=2, max_value=8),
    rounds=st.integers(min_value=0, max_value=7),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_swiss_against_brute_force(team_count, rounds, seed):
    standings = random_history(random.Random(seed), team_count, rounds)
    teams = [entry.team for entry in standings]
    met = {entry.team: entry.opponents for entry in standings}
    bye_options = [None] if team_count % 2 == 0 else teams
    rematch_free = {}
    for bye in bye_options:
        rest = [team for team in teams if team != bye]
        rematch_free[bye] = [
            pairing
            for pairing in all_pairings(rest)
            if all(b not in met[a] and a not in met[b] for a, b in pairing)
        ]
    possible = [bye for bye in bye_options if rematch_free[bye]]
    if not possible:
        with pytest.raises(DomainError):
            swiss_pairings(standings)
        return

    found = swiss_pairings(standings)
    rank = {team: index for index, team in enumerate(teams)}
    byes = {entry.team: entry.byes for entry in standings}
    if team_count % 2:
        assert found.bye == min(possible, key=lambda team: (byes[team], -rank[team]))
    else:
        assert found.bye is None
    pairing = [(pair.first, pair.second) for pair in found.pairings]
    assert sorted(team for pair in pairing for team in pair) == sorted(
        team for team in teams if team != found.bye
    )
    assert all(b not in met[a] for a, b in pairing), "a rematch that could have been avoided"
    assert all(rank[a] < rank[b] for a, b in pairing)
    assert squared_score_gaps(standings, pairing) == min(
        squared_score_gaps(standings, candidate) for candidate in rematch_free[found.bye]
    )


def test_a_full_swiss_event_runs_rematch_free_while_it_can():
    """Eleven teams, seven rounds of the engine's own pairings with random results: no rematch,
    and every bye to a team without one."""
    rng = random.Random(7)
    wins = dict.fromkeys(range(1, 12), 0)
    met = {team: set() for team in wins}
    byes = dict.fromkeys(wins, 0)
    for _ in range(7):
        ranked = sorted(wins, key=lambda team: (-wins[team], team))
        standings = [SwissEntry(t, wins[t], frozenset(met[t]), byes[t]) for t in ranked]
        paired = swiss_pairings(standings)
        assert byes[paired.bye] == 0
        byes[paired.bye] += 1
        wins[paired.bye] += 1
        for pair in paired.pairings:
            assert pair.second not in met[pair.first]
            met[pair.first].add(pair.second)
            met[pair.second].add(pair.first)
            wins[rng.choice((pair.first, pair.second))] += 1
    assert sum(wins.values()) == 7 * 6
