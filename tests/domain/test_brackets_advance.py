"""Advancing one result at a time (``advance``) touches only the matches downstream of the match
won and gives them the states a full replay (``play``) gives."""

import random

import pytest

from core.errors import DomainError
from tournaments.domain.brackets import MatchState, MatchStatus, advance, play
from tournaments.domain.elimination import double_elimination, single_elimination
from tournaments.domain.round_robin import round_robin


def stored(state: MatchState) -> MatchState:
    """What a service keeps of a state: its status and its known teams (a bye is not stored)."""
    sides = (state.first, state.second)
    first, second = (side if isinstance(side, int) else None for side in sides)
    return MatchState(state.code, state.status, first, second)


@pytest.mark.parametrize(
    "build",
    [
        *(lambda n=n: single_elimination(n) for n in (2, 3, 5, 8, 13)),
        *(lambda n=n: single_elimination(n, third_place=True) for n in (4, 6, 11)),
        *(lambda n=n: double_elimination(n) for n in (2, 3, 6, 9, 16)),
        *(lambda n=n: double_elimination(n, grand_final_reset=True) for n in (2, 5, 7, 12)),
        *(lambda n=n: round_robin(n) for n in (3, 4, 7)),
    ],
)
@pytest.mark.parametrize("seed", range(6))
def test_advancing_one_result_matches_a_full_replay(build, seed):
    structure, rng = build(), random.Random(seed)
    results: dict[str, int] = {}
    state = play(structure, results)
    kept = {code: stored(match) for code, match in state.matches.items()}
    while state.ready:
        code = rng.choice(state.ready)
        winner = rng.choice(state.matches[code].teams)
        changed = advance(structure, kept, code=code, winner=winner)
        results[code] = winner
        state = play(structure, results)
        assert set(changed) <= {code, *structure.downstream[code]}
        for other, match in changed.items():
            assert match == state.matches[other]
        kept.update({other: stored(match) for other, match in changed.items()})
        assert kept == {other: stored(match) for other, match in state.matches.items()}


def test_advance_refuses_a_match_not_ready_or_a_winner_not_in_it():
    structure = single_elimination(4)
    kept = {code: stored(match) for code, match in play(structure, {}).matches.items()}
    with pytest.raises(DomainError):
        advance(structure, kept, code="W2-1", winner=1)
    with pytest.raises(DomainError):
        advance(structure, kept, code="W1-1", winner=2)
    kept["W2-1"] = MatchState("W2-1", MatchStatus.DECIDED, 1, 2)
    with pytest.raises(DomainError):
        advance(structure, kept, code="W1-1", winner=1)
