"""The seat pass: once the games are fixed, seat them well. Nothing here changes who plays whom.

Words (the full vocabulary is in ``tournaments.domain.rotation``):

- *on the left*: a table listed clockwise ``[a, b, c, d]`` has ``b`` on ``a``'s left, ``c`` on
  ``b``'s, ``d`` on ``c``'s and ``a`` on ``d``'s; play and the deal pass to the left. Only
  opponents sit side by side.
- *left/right balance* of two opponents: how often each sat on the other's left. A pair is
  balanced when the two counts differ by no more than the parity of their meetings forces.
- *flip*: reseating a game as ``[a, d, c, b]``, which swaps left and right for all four of its
  opponent pairs and keeps partners and opponents.
- *first dealer*: the player in seat 0. Turning a table ``[a, b, c, d]`` into ``[b, c, d, a]``
  changes the first dealer and nothing else.
- *table number*: a game's place in its round's list (table 1 first). Fixed-table players get
  their table; otherwise numbers are given so that nobody sits at the same table two rounds
  running, when that can be avoided.
"""

from __future__ import annotations

import math
import random
from collections.abc import Collection, Mapping, Sequence

from tournaments.domain.rotation_chart import Round, Table

FLIP_MOVES = 60_000
"""Flip attempts of the left/right balancing (simulated annealing; cheap, four pairs a move)."""

LEFT_PAIRS = ((0, 1), (1, 2), (2, 3), (3, 0))
"""(player, the player on their left) by seat, for a table listed clockwise."""


def seat_rounds(
    played: Sequence[Round],
    planned: Sequence[Round],
    *,
    generator: random.Random,
    fixed_table: Mapping[int, int],
    stationary: Collection[int] = (),
) -> list[Round]:
    """Flip, turn and number the games of ``planned`` (the rounds after ``played``); then turn
    the games of ``stationary`` players so that each keeps one seat all night."""
    planned = [Round(tables=round_.tables, byes=round_.byes) for round_ in planned]
    planned = _balance_left_and_right(played, planned, generator)
    planned = _balance_first_dealers(played, planned, generator)
    numbered = _number_tables(played, planned, fixed_table)
    return _keep_seats(played, numbered, stationary) if stationary else numbered


def _keep_seats(
    played: Sequence[Round], planned: list[Round], stationary: Collection[int]
) -> list[Round]:
    """Turn each game of a stationary player (a turn keeps partners, opponents and who sits on
    whose left; only the first dealer changes) so that they sit where they first sat tonight."""
    seat_of: dict[int, int] = {}
    for round_ in list(played) + planned:
        for table in round_.tables:
            for seat, player in enumerate(table):
                if player in stationary:
                    seat_of.setdefault(player, seat)
    result = []
    for round_ in planned:
        tables = []
        for table in round_.tables:
            staying = [player for player in table if player in seat_of]
            if staying:
                turn = (table.index(staying[0]) - seat_of[staying[0]]) % 4
                table = (*table[turn:], *table[:turn])
            tables.append(table)
        result.append(Round(tables=tuple(tables), byes=round_.byes))
    return result


def _left_key(x: int, y: int) -> tuple[tuple[int, int], int]:
    """The unordered pair and +1 when ``y`` is on ``x``'s left with ``x < y`` (else -1)."""
    return ((x, y), 1) if x < y else ((y, x), -1)


def left_balances(rounds: Sequence[Round]) -> dict[tuple[int, int], int]:
    """Per pair ``(x, y)`` with ``x < y``: times ``y`` sat on ``x``'s left minus the reverse."""
    balance: dict[tuple[int, int], int] = {}
    for round_ in rounds:
        for table in round_.tables:
            for first, second in LEFT_PAIRS:
                key, sign = _left_key(table[first], table[second])
                balance[key] = balance.get(key, 0) + sign
    return balance


def _balance_left_and_right(
    played: Sequence[Round], planned: list[Round], generator: random.Random
) -> list[Round]:
    """Flip games, one at a time while it helps, to lower the sum of |left balance| over pairs."""
    balance = left_balances(played)
    games = []
    for round_index, round_ in enumerate(planned):
        for table_index, table in enumerate(round_.tables):
            games.append((round_index, table_index))
            for first, second in LEFT_PAIRS:
                key, sign = _left_key(table[first], table[second])
                balance[key] = balance.get(key, 0) + sign
    tables = [list(round_.tables) for round_ in planned]

    def flip_gain(table: Table) -> int:
        gain = 0
        for first, second in LEFT_PAIRS:
            key, sign = _left_key(table[first], table[second])
            value = balance[key]
            gain += abs(value) - abs(value - 2 * sign)
        return gain

    def flip(round_index: int, table_index: int) -> None:
        table = tables[round_index][table_index]
        for first, second in LEFT_PAIRS:
            key, sign = _left_key(table[first], table[second])
            balance[key] -= 2 * sign
        a, b, c, d = table
        tables[round_index][table_index] = (a, d, c, b)

    if not games:
        return planned
    moves = min(FLIP_MOVES, 40 * len(games))
    best_flips = set()
    flipped: set[tuple[int, int]] = set()
    current = best = 0
    for move in range(moves):
        temperature = 1.5 * (0.05 / 1.5) ** (move / moves)
        game = games[generator.randrange(len(games))]
        gain = flip_gain(tables[game[0]][game[1]])
        if gain >= 0 or generator.random() < math.exp(gain / temperature):
            flip(*game)
            flipped ^= {game}
            current -= gain
            if current < best:
                best, best_flips = current, set(flipped)
    for game in flipped ^ best_flips:
        flip(*game)
    return [Round(tables=tuple(tables[r]), byes=planned[r].byes) for r in range(len(planned))]


def _balance_first_dealers(
    played: Sequence[Round], planned: list[Round], generator: random.Random
) -> list[Round]:
    """Choose each game's first dealer so that first deals per player are as even as possible.

    Start with the player with fewest first deals so far, then move deals along chains
    (a player with many hands a game to a table-mate, who hands one of theirs on, ...) until no
    chain joins a player with the most to one with at least two fewer.
    """
    deals: dict[int, int] = {}
    for round_ in list(played) + list(planned):
        for player in round_.players:
            deals.setdefault(player, 0)
    for round_ in played:
        for table in round_.tables:
            deals[table[0]] += 1
    games: list[Table] = [table for round_ in planned for table in round_.tables]
    dealer: list[int] = []
    order = list(range(len(games)))
    for game in order:
        table = games[game]
        choice = min(table, key=lambda player: (deals[player], generator.random()))
        dealer.append(choice)
        deals[choice] += 1
    dealt_by: dict[int, set[int]] = {}
    for game, player in enumerate(dealer):
        dealt_by.setdefault(player, set()).add(game)
    for _ in range(4 * len(games) + 10):
        if not _move_one_deal(games, dealer, dealt_by, deals):
            break
    result = []
    game = 0
    for round_ in planned:
        tables = []
        for table in round_.tables:
            turn = table.index(dealer[game])
            tables.append(tuple(table[turn:] + table[:turn]))
            game += 1
        result.append(Round(tables=tuple(tables), byes=round_.byes))
    return result


def _move_one_deal(
    games: list[Table],
    dealer: list[int],
    dealt_by: dict[int, set[int]],
    deals: dict[int, int],
) -> bool:
    """Find a chain from a player with the most deals to one with two fewer; shift it."""
    most = max(deals[p] for p in dealt_by if dealt_by[p]) if dealt_by else 0
    for start in [p for p, games_dealt in dealt_by.items() if games_dealt and deals[p] == most]:
        came_from: dict[int, tuple[int, int] | None] = {start: None}
        queue = [start]
        while queue:
            player = queue.pop(0)
            for game in sorted(dealt_by.get(player, ())):
                for other in games[game]:
                    if other in came_from:
                        continue
                    came_from[other] = (player, game)
                    if deals[other] <= most - 2:
                        _shift_chain(other, came_from, dealer, dealt_by, deals)
                        return True
                    queue.append(other)
    return False


def _shift_chain(
    end: int,
    came_from: dict[int, tuple[int, int] | None],
    dealer: list[int],
    dealt_by: dict[int, set[int]],
    deals: dict[int, int],
) -> None:
    receiver = end
    step = came_from[receiver]
    deals[receiver] += 1
    while step is not None:
        giver, game = step
        dealer[game] = receiver
        dealt_by[giver].discard(game)
        dealt_by.setdefault(receiver, set()).add(game)
        receiver = giver
        step = came_from[giver]
    deals[receiver] -= 1


def _number_tables(
    played: Sequence[Round], planned: list[Round], fixed_table: Mapping[int, int]
) -> list[Round]:
    """Order each round's games so fixed players get their table numbers and nobody sits at the
    same table number two rounds running (an assignment problem per round)."""
    previous: dict[int, int] = {}
    visits: dict[tuple[int, int], int] = {}
    for round_ in played:
        previous = {}
        for number, table in enumerate(round_.tables):
            for player in table:
                previous[player] = number
                visits[(player, number)] = visits.get((player, number), 0) + 1
    result = []
    for round_ in planned:
        size = len(round_.tables)
        costs = []
        for table in round_.tables:
            row = []
            for number in range(size):
                cost = 0
                for player in table:
                    wanted = fixed_table.get(player)
                    if wanted is not None and wanted - 1 != number:
                        cost += 1_000_000
                    if previous.get(player) == number:
                        cost += 1_000
                    cost += visits.get((player, number), 0)
                row.append(cost)
            costs.append(row)
        assignment = minimum_cost_assignment(costs)
        ordered: list[Table | None] = [None] * size
        for table_index, number in enumerate(assignment):
            ordered[number] = round_.tables[table_index]
        tables = tuple(table for table in ordered if table is not None)
        previous = {}
        for number, table in enumerate(tables):
            for player in table:
                previous[player] = number
                visits[(player, number)] = visits.get((player, number), 0) + 1
        result.append(Round(tables=tables, byes=round_.byes))
    return result


def minimum_cost_assignment(costs: list[list[int]]) -> list[int]:
    """The Hungarian method: for a square cost matrix, the column of each row, least total."""
    size = len(costs)
    if size == 0:
        return []
    infinity = float("inf")
    row_potential = [0.0] * (size + 1)
    column_potential = [0.0] * (size + 1)
    row_of_column = [0] * (size + 1)
    way = [0] * (size + 1)
    for row in range(1, size + 1):
        row_of_column[0] = row
        column = 0
        least = [infinity] * (size + 1)
        used = [False] * (size + 1)
        while True:
            used[column] = True
            current_row = row_of_column[column]
            delta = infinity
            next_column = 0
            for candidate in range(1, size + 1):
                if used[candidate]:
                    continue
                reduced = (
                    costs[current_row - 1][candidate - 1]
                    - row_potential[current_row]
                    - column_potential[candidate]
                )
                if reduced < least[candidate]:
                    least[candidate] = reduced
                    way[candidate] = column
                if least[candidate] < delta:
                    delta = least[candidate]
                    next_column = candidate
            for candidate in range(size + 1):
                if used[candidate]:
                    row_potential[row_of_column[candidate]] += delta
                    column_potential[candidate] -= delta
                else:
                    least[candidate] -= delta
            column = next_column
            if row_of_column[column] == 0:
                break
        while column:
            previous_column = way[column]
            row_of_column[column] = row_of_column[previous_column]
            column = previous_column
    assignment = [0] * size
    for column in range(1, size + 1):
        assignment[row_of_column[column] - 1] = column - 1
    return assignment
