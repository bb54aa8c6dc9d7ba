"""Seeding: the standard order, byes to the top seeds, snake pools."""

import pytest

from core.errors import DomainError
from tournaments.domain.seeding import (
    bracket_size,
    first_round_pairs,
    snake_pools,
    standard_order,
)

SIXTY_FOUR = (
    1, 64, 32, 33, 16, 49, 17, 48, 8, 57, 25, 40, 9, 56, 24, 41,
    4, 61, 29, 36, 13, 52, 20, 45, 5, 60, 28, 37, 12, 53, 21, 44,
    2, 63, 31, 34, 15, 50, 18, 47, 7, 58, 26, 39, 10, 55, 23, 42,
    3, 62, 30, 35, 14, 51, 19, 46, 6, 59, 27, 38, 11, 54, 22, 43,
)  # fmt: skip


@pytest.mark.parametrize(
    ("size", "order"),
    [
        (2, (1, 2)),
        (4, (1, 4, 2, 3)),
        (8, (1, 8, 4, 5, 2, 7, 3, 6)),
        (16, (1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11)),
        (64, SIXTY_FOUR),
    ],
)
def test_standard_order_matches_the_published_examples(size, order):
    assert standard_order(size) == order


def test_the_128_order_doubles_the_64_order():
    """Each seed p of the 64 order becomes the pair (p, 129 − p): the rule that defines it."""
    expected = tuple(line for seed in SIXTY_FOUR for line in (seed, 129 - seed))
    assert standard_order(128) == expected
    assert standard_order(128)[:8] == (1, 128, 64, 65, 32, 97, 33, 96)


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32, 64, 128, 256, 512, 1024])
def test_when_favourites_win_every_round_pairs_the_best_left_with_the_worst_left(size):
    """Round r's matches are (s, R + 1 − s) for the R seeds left: 1 meets 4 in the semi-finals,
    2 in the final. This is the property one library lost above 32 entrants."""
    lines = list(standard_order(size))
    assert sorted(lines) == list(range(1, size + 1))
    while len(lines) > 1:
        left = len(lines)
        pairs = [(lines[i], lines[i + 1]) for i in range(0, left, 2)]
        assert all(first + second == left + 1 for first, second in pairs)
        assert all(first < second for first, second in pairs)
        lines = [min(pair) for pair in pairs]
    assert lines == [1]


@pytest.mark.parametrize("size", [3, 6, 12, 0, 1])
def test_standard_order_needs_a_power_of_two(size):
    with pytest.raises(ValueError):
        standard_order(size)


def test_twelve_teams_give_byes_to_seeds_one_to_four():
    assert first_round_pairs(12) == (
        (1, None),
        (8, 9),
        (4, None),
        (5, 12),
        (2, None),
        (7, 10),
        (3, None),
        (6, 11),
    )


@pytest.mark.parametrize("team_count", range(2, 129))
def test_byes_go_to_the_top_seeds_for_every_field(team_count):
    size = bracket_size(team_count)
    pairs = first_round_pairs(team_count)
    with_bye = sorted(first for first, second in pairs if second is None)
    assert with_bye == list(range(1, size - team_count + 1))
    assert sorted(seed for pair in pairs for seed in pair if seed) == list(range(1, team_count + 1))
    assert size // 2 < team_count <= size


@pytest.mark.parametrize(
    ("team_count", "size"), [(2, 2), (3, 4), (4, 4), (5, 8), (12, 16), (64, 64), (65, 128)]
)
def test_bracket_size(team_count, size):
    assert bracket_size(team_count) == size


def test_snake_pools_deal_left_to_right_then_back():
    assert snake_pools(10, 3) == ((1, 6, 7), (2, 5, 8), (3, 4, 9, 10))
    assert snake_pools(16, 4) == (
        (1, 8, 9, 16),
        (2, 7, 10, 15),
        (3, 6, 11, 14),
        (4, 5, 12, 13),
    )


@pytest.mark.parametrize(("team_count", "pool_count"), [(3, 2), (2, 0), (40, 12)])
def test_snake_pools_refuse_impossible_pools(team_count, pool_count):
    with pytest.raises(DomainError):
        snake_pools(team_count, pool_count)
