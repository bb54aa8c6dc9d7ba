"""Projected final ranks of an individual season: checked against exact enumeration where the games
left are known, and by what any projection must respect where they are not."""

import itertools
import random

import pytest
from openskill.models import PlackettLuce

from core.errors import DomainError
from scoring.standings.domain.projection import (
    NightLeft,
    ProjectionInput,
    ProjectionPlayer,
    ordinal,
    project_ranks,
    proven_bounds,
    rank_range_text,
    table_win_chance,
)


def field_of(units, *, games=10, attendance=1.0, ratings=None):
    ratings = ratings or {}
    return tuple(
        ProjectionPlayer(
            id=position + 1,
            units=value,
            games=games,
            attendance=attendance,
            **dict(zip(("mu", "sigma"), ratings.get(position + 1, ()), strict=False)),
        )
        for position, value in enumerate(units)
    )


@pytest.mark.parametrize("seed", range(10))
def test_the_table_win_chance_is_openskills(seed):
    rng = random.Random(seed)
    mus = [rng.uniform(10, 40) for _ in range(4)]
    sigmas = [rng.uniform(1, 9) for _ in range(4)]
    model = PlackettLuce()
    side_a = [model.rating(mu=mus[k], sigma=sigmas[k]) for k in (0, 2)]
    side_b = [model.rating(mu=mus[k], sigma=sigmas[k]) for k in (1, 3)]
    expected = model.predict_win([side_a, side_b])[0]
    assert table_win_chance(mus, sigmas, model.beta) == pytest.approx(expected, abs=1e-9)


def test_with_nothing_left_every_range_is_the_current_rank():
    players = field_of([9, 7, 7, 4, 1])
    projection = project_ranks(ProjectionInput(players=players, schedule_known=True), runs=50)
    for line in projection.lines:
        assert (line.low, line.median, line.high) == (line.rank, line.rank, line.rank)
        assert line.games_left == 0
    # Proven: 1 is first for sure; 2 and 3 are level, so each may be 2nd or 3rd by tie-break.
    bounds = {line.id: (line.best_possible, line.worst_possible) for line in projection.lines}
    assert bounds == {1: (1, 1), 2: (2, 3), 3: (2, 3), 4: (4, 4), 5: (5, 5)}


def test_a_player_far_ahead_is_projected_first():
    players = field_of([40, 12, 11, 10, 10, 9, 8, 8, 7, 5, 3, 2])
    nights = tuple(NightLeft(rounds=6) for _ in range(3))  # at most 18 more wins for anyone
    projection = project_ranks(ProjectionInput(players=players, nights=nights), runs=400, seed=1)
    leader = projection.lines[0]
    assert (leader.low, leader.median, leader.high) == (1, 1, 1)
    assert leader.best_possible is None and leader.worst_possible is None  # nights left: no proof
    assert leader.games_left == 18  # 12 players at 3 tables: nobody sits a round out


def test_the_projection_is_seeded():
    rng = random.Random(4)
    players = field_of([rng.randint(0, 20) for _ in range(14)], attendance=0.7)
    projection = ProjectionInput(players=players, nights=(NightLeft(5), NightLeft(5)))
    one = project_ranks(projection, runs=300, seed=7)
    assert project_ranks(projection, runs=300, seed=7) == one
    others = [project_ranks(projection, runs=300, seed=seed) for seed in range(8, 12)]
    assert any(other.lines != one.lines for other in others)


@pytest.mark.parametrize("seed", range(12))
def test_ranges_are_ordered_and_absent_players_stay_put(seed):
    rng = random.Random(seed)
    players = list(field_of([rng.randint(0, 15) for _ in range(10)], attendance=0.8))
    players[4] = ProjectionPlayer(id=5, units=players[4].units, games=10, attendance=0.0)
    players.sort(key=lambda player: -player.units)
    projection = project_ranks(
        ProjectionInput(players=tuple(players), nights=(NightLeft(4),), measure="win_pct"),
        runs=200,
        seed=seed,
    )
    for line in projection.lines:
        assert 1 <= line.low <= line.median <= line.high <= 10
    absent = next(line for line in projection.lines if line.id == 5)
    assert absent.games_left == 0


def exact_rank_chances(projection: ProjectionInput) -> dict[int, list[float]]:
    """Every result of the known tables, weighted by its chance: each player's chance of each
    final rank (ties kept in the standing order)."""
    players = projection.players
    order = {player.id: position for position, player in enumerate(players)}
    chances = [
        table_win_chance(
            [next(p.mu for p in players if p.id == seat) for seat in table],
            [next(p.sigma for p in players if p.id == seat) for seat in table],
            projection.beta,
        )
        for table in projection.tables
    ]
    result = {player.id: [0.0] * len(players) for player in players}
    for outcome in itertools.product((True, False), repeat=len(projection.tables)):
        weight = 1.0
        units = {player.id: player.units for player in players}
        for table, first_wins, chance in zip(projection.tables, outcome, chances, strict=True):
            weight *= chance if first_wins else 1 - chance
            for seat in (table[0], table[2]) if first_wins else (table[1], table[3]):
                units[seat] += projection.unit
        ranked = sorted(units, key=lambda player: (-units[player], order[player]))
        for rank, player in enumerate(ranked):
            result[player][rank] += weight
    return result


def test_the_simulated_ranks_match_exact_enumeration_of_known_tables():
    rng = random.Random(11)
    ratings = {k: (rng.uniform(18, 32), rng.uniform(2, 6)) for k in range(1, 9)}
    players = field_of([6, 6, 5, 5, 4, 4, 3, 2], ratings=ratings)
    tables = ((1, 2, 3, 4), (5, 6, 7, 8), (1, 5, 2, 6), (3, 7, 4, 8), (1, 8, 3, 6))
    projection = ProjectionInput(players=players, tables=tables, schedule_known=True)
    runs = 20_000
    simulated = project_ranks(projection, runs=runs, seed=5)
    exact = exact_rank_chances(projection)
    for line in simulated.lines:
        cumulative, low, median, high = 0.0, None, None, None
        for rank, chance in enumerate(exact[line.id], start=1):
            cumulative += chance
            # A percentile that falls within a hair of a rank's edge may land either side.
            if low is None and cumulative >= 0.1 - 0.01:
                low = {rank} if cumulative > 0.1 + 0.01 else {rank, rank + 1}
            if median is None and cumulative >= 0.5 - 0.01:
                median = {rank} if cumulative > 0.5 + 0.01 else {rank, rank + 1}
            if high is None and cumulative >= 0.9 - 0.01:
                high = {rank} if cumulative > 0.9 + 0.01 else {rank, rank + 1}
        assert line.low in low and line.median in median and line.high in high, line


def brute_bounds(projection: ProjectionInput) -> dict[int, tuple[int, int]]:
    """Best and worst rank over every result of the known tables and every order of the
    players level on the measure (the tie-breaks may go either way)."""
    players = projection.players
    best = {player.id: len(players) for player in players}
    worst = dict.fromkeys(best, 1)
    for outcome in itertools.product((True, False), repeat=len(projection.tables)):
        units = {player.id: player.units for player in players}
        for table, first_wins in zip(projection.tables, outcome, strict=True):
            for seat in (table[0], table[2]) if first_wins else (table[1], table[3]):
                units[seat] += projection.unit
        for player in units:
            ahead = sum(units[other] > units[player] for other in units)
            level = sum(units[other] == units[player] for other in units) - 1
            best[player] = min(best[player], ahead + 1)
            worst[player] = max(worst[player], ahead + level + 1)
    return {player: (best[player], worst[player]) for player in best}


@pytest.mark.parametrize("seed", range(15))
def test_proven_bounds_hold_over_every_result(seed):
    rng = random.Random(seed)
    count = rng.randint(4, 9)
    players = field_of(sorted((rng.randint(0, 6) for _ in range(count)), reverse=True))
    tables = tuple(tuple(rng.sample(range(1, count + 1), 4)) for _ in range(rng.randint(0, 5)))
    projection = ProjectionInput(players=players, tables=tables, schedule_known=True)
    proven = proven_bounds(projection)
    reachable = brute_bounds(projection)
    simulated = {line.id: line for line in project_ranks(projection, runs=100, seed=seed).lines}
    for player, (best, worst) in proven.items():
        # Never wrong: no result finishes the player above its best or below its worst.
        assert best <= reachable[player][0] and worst >= reachable[player][1]
        assert best <= simulated[player].low <= simulated[player].high <= worst
    # With no table left the bounds are exact: only the tie-breaks are open.
    if not tables:
        assert proven == reachable


def test_bounds_are_refused_while_nights_are_left_to_seat():
    players = field_of([3, 2, 1, 0])
    with pytest.raises(DomainError, match="not all known"):
        ProjectionInput(players=players, nights=(NightLeft(2),), schedule_known=True)
    with pytest.raises(DomainError, match="only when every game left is known"):
        proven_bounds(ProjectionInput(players=players, nights=(NightLeft(2),)))


@pytest.mark.parametrize(
    ("players", "tables", "message"),
    [
        ((*field_of([1, 1]), ProjectionPlayer(1, 0, 0)), (), "once"),
        (field_of([1, 1, 1, 1]), ((1, 2, 3, 3),), "four different players"),
        (field_of([1, 1, 1, 1]), ((1, 2, 3, 9),), "four different players"),
        (field_of([1, 1, 1, 1], attendance=1.5), (), "between 0 and 1"),
    ],
)
def test_bad_input_is_refused(players, tables, message):
    with pytest.raises(DomainError, match=message):
        ProjectionInput(players=players, tables=tables)


@pytest.mark.parametrize(
    ("low", "high", "text"),
    [
        (1, 1, "1st"),
        (3, 7, "3rd\N{EN DASH}7th"),
        (2, 12, "2nd\N{EN DASH}12th"),
        (11, 13, "11th\N{EN DASH}13th"),
        (21, 23, "21st\N{EN DASH}23rd"),
        (101, 112, "101st\N{EN DASH}112th"),
    ],
)
def test_a_range_in_words(low, high, text):
    assert rank_range_text(low, high) == text
    assert ordinal(low) == text.split("\N{EN DASH}")[0]
