"""Projected final ranks for an individual season, where partners rotate.

Pure Python, no Django. In an individual season no two players have a fixed schedule: each night
the players present are seated anew, so the games a player has left are not known until a round
is started. This module simulates the rest of the season to give each player a *projected range*
of final ranks, and proves bounds only when every game left is known.

Words used here
---------------
units
    As in :mod:`scoring.standings.domain.race`: one a win, or two a win and one a draw when games
    can be drawn. A player's standing on the first measure (wins, or win percentage: units over
    games).
known table
    A game already seated (a round under way): four players, seats 0 and 2 against 1 and 3.
night left
    A night still to come. Its ``rounds`` are how many rounds it will have (estimated from the
    nights played) and its ``players`` who will play, when known (a night under way); otherwise
    each player comes with their *attendance*, the share of the season's nights they played.
    Each round the players of the night are seated at random at tables of four; whoever is left
    over sits the round out. (The real rotation also spreads partners; a random seating is its
    fair stand-in for a projection.)
win chance
    Of one side of a table: openskill's Plackett-Luce ``predict_win`` for two sides of two,
    ``Phi((mu_a - mu_b) / sqrt(2 * beta**2 + sum of the four sigma**2))``, from the ratings the
    season keeps (a test checks it against openskill). Draws are not simulated.
projected range
    The ranks between the 10th and 90th percentiles of the simulated final ranks (the best rank
    first), and the median: "3rd–7th" says that in four runs of five the player finished
    between 3rd and 7th. Ties on the first measure keep the current standing order.
proven bounds
    Given only when the caller vouches that the known tables are every game left
    (``schedule_known``; no night left). *Best possible*: one more than the players already
    strictly ahead of everything the player can reach; *worst possible*: the players who could
    still end level or ahead of the player's floor, plus one. Cheap and never wrong, though not
    always tight (a player's partner shares its wins). Otherwise nothing is claimed.
"""

from __future__ import annotations

import math
import random
import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from core.errors import DomainError
from league.domain.words import ordinal
from scoring.standings.domain.race import MEASURES, Measure

DEFAULT_PROJECTION_RUNS = 2_000
"""Simulated seasons for the projected ranges. A 10th or 90th percentile from 2,000 runs is off by
at most about one rank in a field of forty (the binomial error of a percentile, sqrt(0.09 / 2,000)
= 0.7 % of the runs, is far below the share of runs one rank holds), and the seated nights make
each run costlier than a team season's."""

OPENSKILL_BETA = 25 / 6
"""openskill's default ``beta`` (its mu 25 over 6), with which the season's ratings are kept."""

LOW_PERCENTILE, HIGH_PERCENTILE = 0.10, 0.90


@dataclass(frozen=True)
class ProjectionPlayer:
    """One player: ``units`` and ``games`` so far, ``attendance`` (0 to 1, the chance of coming
    to a night left whose players are not known) and the openskill rating ``mu``, ``sigma``."""

    id: int
    units: int
    games: int
    attendance: float = 1.0
    mu: float = 25.0
    sigma: float = 25 / 3


@dataclass(frozen=True)
class NightLeft:
    """A night still to play: its ``rounds`` and, when known, its ``players`` (else each player
    comes with their attendance)."""

    rounds: int
    players: tuple[int, ...] | None = None


@dataclass(frozen=True)
class ProjectionInput:
    """The season as it stands, in standing order (which breaks ties in the simulation): the
    players, the known tables, the nights left, the first measure and whether a game can be
    drawn. ``schedule_known``: the known tables are every game left (then no night may be)."""

    players: tuple[ProjectionPlayer, ...]
    tables: tuple[tuple[int, int, int, int], ...] = ()
    nights: tuple[NightLeft, ...] = ()
    measure: Measure = "wins"
    draws_possible: bool = False
    schedule_known: bool = False
    beta: float = OPENSKILL_BETA

    def __post_init__(self) -> None:
        if self.measure not in MEASURES:
            raise DomainError(f"Ranks are projected on wins or win percentage, not {self.measure}.")
        ids = [player.id for player in self.players]
        if len(set(ids)) != len(ids):
            raise DomainError("Each player can be in the projection once.")
        known = set(ids)
        for table in self.tables:
            if len(set(table)) != 4 or not set(table) <= known:
                raise DomainError(f"A table seats four different players: {table}.")
        for night in self.nights:
            if night.rounds < 0:
                raise DomainError("A night has no fewer than no rounds.")
            if night.players is not None and not set(night.players) <= known:
                raise DomainError("A night's players must be in the projection.")
        if any(not 0 <= player.attendance <= 1 for player in self.players):
            raise DomainError("Attendance is a share of nights, between 0 and 1.")
        if self.schedule_known and self.nights:
            raise DomainError("With nights left to seat, the games left are not all known.")

    @property
    def unit(self) -> int:
        return 2 if self.draws_possible else 1


def rounds_per_night(nights_played: Sequence[Mapping[str, Any]], finished: set[int]) -> int:
    """The rounds a night left is expected to have: the median of the nights played (each
    night's most games by one entrant), of the finished ones where there are any. ``0`` when no
    night has been played."""
    per_night = [
        max((line["games"] for line in night["entrants"].values()), default=0)
        for night in nights_played
    ]
    of_finished = [
        rounds
        for night, rounds in zip(nights_played, per_night, strict=True)
        if night["night"] in finished
    ]
    return round(statistics.median(of_finished or per_night or [0]))


def season_as_it_stands(
    *,
    rows: Sequence[Mapping[str, Any]],
    nights_played: Sequence[Mapping[str, Any]],
    ratings: Sequence[Mapping[str, Any]],
    newcomers: Sequence[int],
    tables: Sequence[tuple[int, int, int, int]],
    under_way: Mapping[int, tuple[int, set[int]]],
    nights_to_come: int,
    rounds: int,
    measure: Measure,
    draws_possible: bool,
    schedule_known: bool,
) -> ProjectionInput:
    """The projection's input from what the season has stored: ``rows`` its standings rows,
    ``nights_played`` its nights part, ``ratings`` its rating lines; ``newcomers`` players seated
    but not yet in the standings; ``tables`` the seated games not played; ``under_way`` each
    night being played: the round it has started and who is there; ``rounds`` a night's expected
    rounds (:func:`rounds_per_night`).

    A player keeps their share of the nights played so far (a newcomer ``1 / (nights + 1)``);
    a night under way plays its rounds not started with those who came, a night to come seats
    everyone by attendance."""
    attended = Counter(
        int(player)
        for night in nights_played
        for player, line in night["entrants"].items()
        if line["games"]
    )
    nights_seen = max(1, len(nights_played))
    rated = {rating["player_id"]: rating for rating in ratings}

    def player(pk: int, units: int, played: int, attendance: float) -> ProjectionPlayer:
        rating = rated.get(pk)
        extra = {"mu": rating["mu"], "sigma": rating["sigma"]} if rating else {}
        return ProjectionPlayer(pk, units, played, attendance=min(1.0, attendance), **extra)

    players = [
        player(
            row["entrant"],
            2 * row["wins"] + row["draws"] if draws_possible else row["wins"],  # units
            row["games"],
            attended[row["entrant"]] / nights_seen,
        )
        for row in rows
    ]
    players += [player(pk, 0, 0, 1 / (nights_seen + 1)) for pk in newcomers]
    nights_left = [
        NightLeft(rounds=rounds - started, players=tuple(sorted(present)))
        for started, present in under_way.values()
        if rounds > started and present
    ]
    nights_left += [NightLeft(rounds=rounds) for _night in range(nights_to_come)]
    return ProjectionInput(
        players=tuple(players),
        tables=tuple(tuple(table) for table in tables),
        nights=tuple(nights_left),
        measure=measure,
        draws_possible=draws_possible,
        schedule_known=schedule_known,
    )


@dataclass(frozen=True)
class ProjectionLine:
    """One player's projection: the rank now, the projected range (``low`` the better end, at
    the 10th percentile; ``high`` at the 90th) and ``median``, the games it played on average in
    the simulated rest of the season, and the proven bounds (None when not proven)."""

    id: int
    rank: int
    low: int
    median: int
    high: int
    games_left: float
    best_possible: int | None = None
    worst_possible: int | None = None

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "rank": self.rank,
            "projected_low": self.low,
            "projected_median": self.median,
            "projected_high": self.high,
            "games_left": round(self.games_left, 1),
            "best_possible": self.best_possible,
            "worst_possible": self.worst_possible,
        }


@dataclass(frozen=True)
class Projection:
    runs: int
    seed: int
    lines: tuple[ProjectionLine, ...] = field(default_factory=tuple)


def table_win_chance(mus: Sequence[float], sigmas: Sequence[float], beta: float) -> float:
    """The chance that seats 0 and 2 beat seats 1 and 3 (openskill's Plackett-Luce
    ``predict_win`` for two sides; see the module docstring)."""
    difference = mus[0] + mus[2] - mus[1] - mus[3]
    spread = math.sqrt(2 * beta * beta + sum(sigma * sigma for sigma in sigmas))
    return 0.5 * (1 + math.erf(difference / (spread * math.sqrt(2))))


def _value(units: int, games: int, measure: Measure) -> Fraction | int:
    if measure == "wins":
        return units
    return Fraction(units, games) if games else Fraction(0)


def proven_bounds(projection: ProjectionInput) -> dict[int, tuple[int, int]]:
    """Each player's best and worst possible final rank over every result of the known tables,
    whatever the tie-breaks say (see "proven bounds"). Only for a known schedule."""
    if not projection.schedule_known:
        raise DomainError("Bounds are proven only when every game left is known.")
    unit = projection.unit
    left = dict.fromkeys((player.id for player in projection.players), 0)
    for table in projection.tables:
        for seat in table:
            left[seat] += 1
    games = {player.id: player.games + left[player.id] for player in projection.players}
    floor = {
        player.id: _value(player.units, games[player.id], projection.measure)
        for player in projection.players
    }
    ceiling = {
        player.id: _value(
            player.units + unit * left[player.id], games[player.id], projection.measure
        )
        for player in projection.players
    }
    everyone = len(projection.players)
    bounds = {}
    for player in projection.players:
        others = [other.id for other in projection.players if other.id != player.id]
        surely_ahead = sum(floor[other] > ceiling[player.id] for other in others)
        surely_behind = sum(ceiling[other] < floor[player.id] for other in others)
        bounds[player.id] = (1 + surely_ahead, everyone - surely_behind)
    return bounds


def _rank_at(counts: Sequence[int], runs: int, share: float) -> int:
    """The smallest rank (1-based) reached by at least ``share`` of the ``runs``."""
    needed = share * runs
    seen = 0
    for rank, count in enumerate(counts, start=1):
        seen += count
        if seen >= needed:
            return rank
    return len(counts)


def project_ranks(
    projection: ProjectionInput, *, runs: int = DEFAULT_PROJECTION_RUNS, seed: int = 0
) -> Projection:
    """Simulate the rest of the season ``runs`` times (seeded: the same input and seed give the
    same projection) and give every player its projected range and, for a known schedule, its
    proven bounds. The players' order is the standing order now."""
    if runs < 1:
        raise DomainError("Simulate at least one season.")
    players = projection.players
    count = len(players)
    if not count:
        return Projection(runs=runs, seed=seed)
    rng = random.Random(seed)
    index = {player.id: position for position, player in enumerate(players)}
    mus = [player.mu for player in players]
    variances = [player.sigma * player.sigma for player in players]
    attendance = [player.attendance for player in players]
    start_units = [player.units for player in players]
    start_games = [player.games for player in players]
    unit = projection.unit
    by_pct = projection.measure == "win_pct"
    spread_base = 2 * projection.beta * projection.beta
    root_two = math.sqrt(2)
    erf = math.erf
    sqrt = math.sqrt

    def chance(a: int, b: int, c: int, d: int) -> float:  # table_win_chance, for the hot loop
        difference = mus[a] + mus[c] - mus[b] - mus[d]
        spread = sqrt(spread_base + variances[a] + variances[b] + variances[c] + variances[d])
        return 0.5 * (1 + erf(difference / (spread * root_two)))

    known = [tuple(index[seat] for seat in table) for table in projection.tables]
    known_chances = [chance(*table) for table in known]
    nights = [
        (night.rounds, None if night.players is None else [index[p] for p in night.players])
        for night in projection.nights
    ]
    # Ties keep the standing order: a whole-number key on wins, a pair on win percentage.
    width = count + 1
    order_key = [count - position for position in range(count)]
    ranks = [[0] * count for _ in range(count)]
    played_left = [0] * count
    everyone = range(count)
    random_ = rng.random
    shuffle = rng.shuffle
    for _ in range(runs):
        units = start_units[:]
        games = start_games[:]
        for (a, b, c, d), first_wins in zip(known, known_chances, strict=True):
            winners = (a, c) if random_() < first_wins else (b, d)
            for seat in winners:
                units[seat] += unit
            games[a] += 1
            games[b] += 1
            games[c] += 1
            games[d] += 1
        for rounds, fixed in nights:
            if not rounds:
                continue
            present = (
                fixed[:]
                if fixed is not None
                else [k for k in everyone if random_() < attendance[k]]
            )
            seated = len(present) - len(present) % 4
            for _round in range(rounds):
                shuffle(present)
                for position in range(0, seated, 4):
                    a, b, c, d = present[position : position + 4]
                    winners = (a, c) if random_() < chance(a, b, c, d) else (b, d)
                    for seat in winners:
                        units[seat] += unit
                    games[a] += 1
                    games[b] += 1
                    games[c] += 1
                    games[d] += 1
        if by_pct:
            value = [units[k] / games[k] if games[k] else 0.0 for k in everyone]
            ranked = sorted(everyone, key=lambda k: (value[k], order_key[k]), reverse=True)
        else:
            keys = [units[k] * width + order_key[k] for k in everyone]
            ranked = sorted(everyone, key=keys.__getitem__, reverse=True)
        for rank, k in enumerate(ranked):
            ranks[k][rank] += 1
        for k in everyone:
            played_left[k] += games[k] - start_games[k]
    bounds = proven_bounds(projection) if projection.schedule_known else {}
    lines = []
    for position, player in enumerate(players):
        counts = ranks[position]
        low = _rank_at(counts, runs, LOW_PERCENTILE)
        median = _rank_at(counts, runs, 0.5)
        high = _rank_at(counts, runs, HIGH_PERCENTILE)
        best, worst = bounds.get(player.id, (None, None))
        lines.append(
            ProjectionLine(
                id=player.id,
                rank=position + 1,
                low=low,
                median=median,
                high=high,
                games_left=played_left[position] / runs,
                best_possible=best,
                worst_possible=worst,
            )
        )
    return Projection(runs=runs, seed=seed, lines=tuple(lines))


def rank_range_text(low: int, high: int) -> str:
    """A projected range in words for the standings: "3rd–7th", or "1st" when it is one rank."""
    if low == high:
        return ordinal(low)
    return f"{ordinal(low)}\N{EN DASH}{ordinal(high)}"
