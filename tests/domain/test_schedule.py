"""A team season's schedule over its nights."""

import itertools
from collections import Counter

import pytest

from core.errors import DomainError
from tournaments.domain.schedule import season_schedule


@pytest.mark.parametrize("cycles", [1, 2])
@pytest.mark.parametrize("nights", [1, 3, 5, 10])
@pytest.mark.parametrize("team_count", [2, 3, 4, 7, 8, 11, 12, 16, 21])
def test_every_pair_meets_once_per_cycle_spread_over_the_nights(team_count, nights, cycles):
    per_cycle = team_count - 1 + team_count % 2
    if nights > per_cycle * cycles:
        with pytest.raises(DomainError):
            season_schedule(team_count=team_count, nights=nights, cycles=cycles)
        return
    schedule = season_schedule(team_count=team_count, nights=nights, cycles=cycles)
    assert [night.number for night in schedule.nights] == list(range(1, nights + 1))
    sizes = [len(night.rounds) for night in schedule.nights]
    assert sum(sizes) == per_cycle * cycles
    assert max(sizes) - min(sizes) <= 1
    assert sizes == sorted(sizes, reverse=True)
    assert [played.number for played in schedule.rounds] == list(range(1, sum(sizes) + 1))

    meetings = Counter()
    byes = Counter()
    for night in schedule.nights:
        byes_tonight = Counter()
        for played in night.rounds:
            teams = [team for pair in played.pairings for team in (pair.first, pair.second)]
            assert len(teams) == len(set(teams)), "a team twice in a round"
            meetings.update(frozenset((pair.first, pair.second)) for pair in played.pairings)
            if played.bye is not None:
                byes[played.bye] += 1
                byes_tonight[played.bye] += 1
            assert schedule.night_of_round(played.number) == night.number
        if len(night.rounds) <= team_count:
            assert all(count == 1 for count in byes_tonight.values()), "two byes in a night"
    pairs = itertools.combinations(range(1, team_count + 1), 2)
    assert meetings == Counter({frozenset(pair): cycles for pair in pairs})
    if team_count % 2:
        assert byes == Counter({team: cycles for team in range(1, team_count + 1)})
    else:
        assert not byes


def test_eleven_rounds_over_four_nights():
    schedule = season_schedule(team_count=12, nights=4)
    assert [[played.number for played in night.rounds] for night in schedule.nights] == [
        [1, 2, 3],
        [4, 5, 6],
        [7, 8, 9],
        [10, 11],
    ]


def test_a_double_round_robin_of_five_over_five_nights():
    schedule = season_schedule(team_count=5, nights=5, cycles=2)
    assert [[played.bye for played in night.rounds] for night in schedule.nights] == [
        [1, 4],
        [2, 5],
        [3, 1],
        [4, 2],
        [5, 3],
    ]


def test_refusals():
    with pytest.raises(DomainError) as refused:
        season_schedule(team_count=6, nights=6)
    assert refused.value.message == (
        "6 teams play 5 rounds in a single round robin: fewer than 6 nights. "
        "Use fewer nights or more cycles."
    )
    with pytest.raises(DomainError) as refused:
        season_schedule(team_count=12, nights=2, max_rounds_per_night=5)
    assert refused.value.message == (
        "11 rounds over 2 nights means 6 rounds on some nights, more than the 5 a night can "
        "hold. Add nights."
    )
    with pytest.raises(DomainError):
        season_schedule(team_count=6, nights=0)
    with pytest.raises(DomainError):
        season_schedule(team_count=1, nights=1)
    assert len(season_schedule(team_count=12, nights=2, max_rounds_per_night=6).nights) == 2
