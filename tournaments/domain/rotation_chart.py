"""Rounds, rotations, the counting of meetings, and charts generated from stored starting rounds.

Words (the full vocabulary is in ``tournaments.domain.rotation``):

- *round*: every table plays one game; a table lists its four seats clockwise ``[a, b, c, d]``, so
  ``a`` and ``c`` are partners against ``b`` and ``d``; players without a seat have a *bye*.
- *rotation*: the rounds of one night, in order.
- *meeting*: two players at the same table in a round, as partners or as opponents.
- *chart*: a rotation over the players ``0..N-1``, before real players are put in the places.

Charts for the full cycle come from the starting rounds in ``tournaments.domain.whist_bases``
(see ``tournaments.domain.rotation_starting_rounds`` for how one round generates all the others).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from tournaments.domain.rotation_starting_rounds import INFINITY, StartingRound
from tournaments.domain.whist_bases import STARTING_ROUNDS

Table = tuple[int, int, int, int]
"""Four players clockwise: seats 0 and 2 are partners against seats 1 and 3; seat 0 deals first."""


@dataclass(frozen=True)
class Round:
    """One round: the tables in table-number order (table 1 first), and who sits out."""

    tables: tuple[Table, ...]
    byes: tuple[int, ...] = ()

    @property
    def players(self) -> tuple[int, ...]:
        """Everyone in the round, seated or sitting out."""
        return tuple(player for table in self.tables for player in table) + self.byes


@dataclass(frozen=True)
class Rotation:
    """The rounds of a night, in the order they are played."""

    rounds: tuple[Round, ...]


PARTNER_SEATS = ((0, 2), (1, 3))
"""Seat pairs of partners at a table listed clockwise."""

OPPONENT_SEATS = ((0, 1), (0, 3), (2, 1), (2, 3))
"""Seat pairs of opponents at a table listed clockwise."""


def full_cycle_length(player_count: int) -> int:
    """Rounds in the full cycle: N - 1 for N = 4n (nobody sits out), N otherwise."""
    return player_count - 1 if player_count % 4 == 0 else player_count


def byes_per_round(player_count: int) -> int:
    """Players sitting out each round: N mod 4 (with four left over they would make a table)."""
    return player_count % 4


def social_golfer_bound(player_count: int) -> int:
    """Most rounds in which nobody can meet anyone twice: each round a player meets three new
    people, and there are N - 1 others, so at most floor((N - 1) / 3) rounds."""
    return (player_count - 1) // 3


class MeetingCounts:
    """Partner and opponent counts of every pair of players ``0..size-1`` over some rounds."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.partners = [0] * (size * size)
        self.opponents = [0] * (size * size)

    def add_round(self, round_: Round, change: int = 1) -> None:
        size = self.size
        for table in round_.tables:
            for first, second in PARTNER_SEATS:
                x, y = table[first], table[second]
                self.partners[x * size + y] += change
                self.partners[y * size + x] += change
            for first, second in OPPONENT_SEATS:
                x, y = table[first], table[second]
                self.opponents[x * size + y] += change
                self.opponents[y * size + x] += change

    def add_rounds(self, rounds: Iterable[Round]) -> None:
        for round_ in rounds:
            self.add_round(round_)

    def partner_count(self, x: int, y: int) -> int:
        return self.partners[x * self.size + y]

    def opponent_count(self, x: int, y: int) -> int:
        return self.opponents[x * self.size + y]


def has_stored_chart(player_count: int) -> bool:
    """Whether a starting round is stored for this many players (or for one more, for 4n + 3)."""
    if player_count % 4 == 3:
        return player_count + 1 in STARTING_ROUNDS
    return player_count in STARTING_ROUNDS


@cache
def cyclic_chart(player_count: int) -> tuple[Round, ...]:
    """The full-cycle chart for ``player_count`` players, generated from its starting round.

    For 4n + 3 players the chart for 4n + 4 is generated and its fixed player (infinity) deleted:
    the three players at infinity's table sit out that round.
    """
    if not has_stored_chart(player_count):
        raise ValueError(f"no chart is stored for {player_count} players")
    if player_count % 4 == 3:
        bigger = _generate(STARTING_ROUNDS[player_count + 1])
        infinity = player_count
        rounds = []
        for round_ in bigger:
            tables = tuple(table for table in round_.tables if infinity not in table)
            byes = tuple(
                player
                for table in round_.tables
                if infinity in table
                for player in table
                if player != infinity
            )
            rounds.append(Round(tables=tables, byes=byes))
        return tuple(rounds)
    return _generate(STARTING_ROUNDS[player_count])


def _generate(start: StartingRound) -> tuple[Round, ...]:
    """Every round of the cycle: the starting round with ``g`` added to each seat, for each ``g``.

    Group elements are the players ``0..order-1``; infinity is the player ``order``.
    """
    group = start.group
    order = group.order
    addition = group.addition_table()
    byes = start.byes
    rounds = []
    for shift in range(order):

        def moved(element: int, shift: int = shift) -> int:
            return order if element == INFINITY else addition[element][shift]

        tables = tuple((moved(a), moved(b), moved(c), moved(d)) for a, b, c, d in start.tables)
        rounds.append(Round(tables=tables, byes=tuple(moved(x) for x in byes)))
    return tuple(rounds)


def relabel(rounds: Sequence[Round], names: Sequence[int]) -> tuple[Round, ...]:
    """The rounds with chart player ``i`` replaced by ``names[i]``."""
    return tuple(
        Round(
            tables=tuple((names[a], names[b], names[c], names[d]) for a, b, c, d in round_.tables),
            byes=tuple(names[x] for x in round_.byes),
        )
        for round_ in rounds
    )


EVENING_ROUNDS = 5
"""The most rounds a night's plan starts from when nothing else says: about what fits an evening
(a game to 10 takes 20–30 minutes), however many rounds the full cycle would hold."""

FEWEST_DEFAULT_ROUNDS = 3
"""A night's plan starts from at least this many rounds (the full cycle of 4 players is 3)."""


@dataclass(frozen=True)
class DefaultRounds:
    """How many rounds a night's plan starts from, and why, in words for the organiser."""

    rounds: int
    reason: str


def default_rounds(
    player_count: int, *, usual: int | None = None, last: int | None = None
) -> DefaultRounds:
    """The rounds a night's plan starts from: the season's ``usual`` rounds, else the ``last``
    night's, else the social-golfer bound (rounds in which nobody need meet anyone twice) held
    between :data:`FEWEST_DEFAULT_ROUNDS` and :data:`EVENING_ROUNDS`; never more than the full
    cycle, which is the most a plan may hold (11 rounds for 12 players: an impossible night)."""
    cycle = full_cycle_length(player_count) if player_count >= 4 else 0
    if usual:
        rounds, reason = usual, "the season's usual rounds a night"
    elif last:
        rounds, reason = last, "as many as the last night"
    else:
        bound = max(FEWEST_DEFAULT_ROUNDS, social_golfer_bound(player_count))
        rounds, reason = min(EVENING_ROUNDS, bound), "what fits an evening"
    if cycle and rounds > cycle:
        rounds, reason = cycle, f"the full cycle of {player_count} players"
    return DefaultRounds(max(1, rounds), reason)
