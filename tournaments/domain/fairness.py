"""A season's fairness report: how evenly the season's seats spread partners, opponents, byes
and strength, and how often its format lets the strongest finish first.

Pure Python, no Django. The ratings are the league's own (:mod:`scoring.standings.domain.ratings`,
openskill with the season's default settings), replayed game by game in played order.

Words used here
---------------
played game
    A finished game that counts for the season's standings (:class:`PlayedGame`): four seats,
    0 and 2 partnering against 1 and 3, its winner (``None`` for a draw) and its place in played
    order (the standings' order: when it finished, then its id).
partner count, opponent count
    For a pair of players, the number of played games in which they sat on the same side, or on
    opposite sides. A *repeat* is a pair with a count of 2 or more; the *worst* is the largest
    count of any pair.
bye
    A round a player sat out (:class:`SatOut`): a seat without a table in an individual night's
    started round, or a team's bye in a team schedule (both of the team's players).
rating at the time
    A player's display rating (the figure the standings show, 1000 for a newcomer) just before a
    game was rated: the ratings of every earlier game in played order, none of the later ones.
strength of schedule
    A player's average opponent rating at the time, over their played games.
field
    Just before a game, the average rating at the time of every player seen so far this season
    (the four at the table included).
partner luck
    A player's average, over their played games, of (partner's rating at the time − the field's
    average at the time): above 0, the player was given stronger partners than an average player
    of the season; below 0, weaker ones. In a team season the partner never changes, so it
    measures the partner, not the draw.
strongest
    The entrant (player, or team in a team season) with the highest ``mu`` after every played
    game (a team's is its players' sum); ties broken by the lower id.
Monte Carlo estimate
    The season's schedule (every game that counts, played or still to play, with its seats as
    scheduled) replayed ``runs`` times with every result drawn from the final ``mu`` values
    as if they were each player's true skill: side A wins with probability
    Φ((μA − μB) / (2β)), μ a side's sum of its players' ``mu`` and β openskill's performance
    spread (25/6), so two sides of two have a total performance variance of 4β². The entrants
    are ranked by the season's first measure as the caller gives it (``measure``): wins, or win
    percentage (games won over games in the schedule; the standings' default, and fairer to
    players who miss nights); a draw is not drawn (euchre games have a winner), and a tie for
    first gives each tied entrant an equal share of that run. Seeded: the same season and seed
    give the same figures.
"""

from __future__ import annotations

import math
import random
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Literal

from core.errors import DomainError
from scoring.standings.domain.ratings import RatingSettings, RatingState, rate_sides

Format = Literal["teams", "individual"]
Measure = Literal["wins", "win_pct"]
MEASURES = ("wins", "win_pct")

DEFAULT_RUNS = 2_000
"""Simulated seasons of the Monte Carlo estimate: its standard error is at most
0.5 / √2000 ≈ 1.1 percentage points."""

DEFAULT_SEED = 34
"""The estimate's seed (this report's issue number): the same season always shows the same
figures."""

MOST_RUNS = 20_000
"""The most simulated seasons the report will run at one request."""


@dataclass(frozen=True)
class PlayedGame:
    """One game of the season's schedule (see the module docstring: *played game*).

    ``seats`` are the four player ids, seats 0 and 2 on side A against 1 and 3 on side B.
    ``is_finished`` is False for a game still to play: the Monte Carlo estimate plays it, the
    counts and ratings ignore it. ``team_a``/``team_b`` name the sides' teams in a team season.
    """

    game_id: int
    seats: tuple[int, int, int, int]
    winner: Literal["A", "B"] | None = None
    played_order: int = 0
    is_finished: bool = True
    team_a: int | None = None
    team_b: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "seats", tuple(self.seats))
        if len(self.seats) != 4 or len(set(self.seats)) != 4:
            raise DomainError(f"game {self.game_id} needs four different players", field="seats")
        if self.winner not in (None, "A", "B"):
            raise DomainError(f"game {self.game_id}: the winner is side A or B", field="winner")

    @property
    def side_a(self) -> tuple[int, int]:
        return (self.seats[0], self.seats[2])

    @property
    def side_b(self) -> tuple[int, int]:
        return (self.seats[1], self.seats[3])


@dataclass(frozen=True)
class SatOut:
    """A player sat out one round (``night_id`` and ``round_number`` say which)."""

    player_id: int
    night_id: int | None = None
    round_number: int | None = None


@dataclass(frozen=True)
class PairCount:
    """How often two players (``first`` < ``second``) partnered and opposed each other."""

    first: int
    second: int
    partnered: int
    opposed: int


@dataclass(frozen=True)
class PlayerFairness:
    """One player's line of the report (see the module docstring for each word)."""

    player_id: int
    games: int
    byes: int
    distinct_partners: int
    distinct_opponents: int
    most_with_one_partner: int
    most_against_one_opponent: int
    strength_of_schedule: float | None
    average_partner_rating: float | None
    partner_luck: float | None
    rating_now: int


@dataclass(frozen=True)
class Chance:
    """An entrant's share of the simulated seasons it finished first."""

    entrant_id: int
    skill: float
    first_chance: float


@dataclass(frozen=True)
class MonteCarlo:
    """The Monte Carlo estimate (see the module docstring)."""

    runs: int
    seed: int
    games: int
    measure: Measure
    strongest_id: int | None
    strongest_first_chance: float | None
    chances: tuple[Chance, ...]


@dataclass(frozen=True)
class FairnessReport:
    """The whole report. ``pairs`` holds every pair that met (partnered or opposed), most
    partnered first; ``players`` one line per player who played or sat out, by name order of
    the caller's choosing (here: by player id)."""

    format: Format
    games_played: int
    most_partnered: int
    most_opposed: int
    repeated_partnerships: int
    repeated_oppositions: int
    fewest_byes: int
    most_byes: int
    pairs: tuple[PairCount, ...]
    players: tuple[PlayerFairness, ...]
    monte_carlo: MonteCarlo
    field_rating: float | None = None


def _pair(first: int, second: int) -> tuple[int, int]:
    return (first, second) if first < second else (second, first)


def pair_counts(games: Iterable[PlayedGame]) -> tuple[Counter, Counter]:
    """Partner and opponent counts of every pair over the finished ``games``."""
    partnered: Counter = Counter()
    opposed: Counter = Counter()
    for game in games:
        if not game.is_finished:
            continue
        partnered[_pair(*game.side_a)] += 1
        partnered[_pair(*game.side_b)] += 1
        for a in game.side_a:
            for b in game.side_b:
                opposed[_pair(a, b)] += 1
    return partnered, opposed


def _display(mu: float, sigma: float, settings: RatingSettings) -> float:
    return settings.display_target + settings.display_scale * (mu - 3.0 * sigma)


def _win_chance(mu_a: float, mu_b: float, beta: float) -> float:
    """Φ((μA − μB) / (2β)): two sides of two players, each performance spread β."""
    return 0.5 * (1.0 + math.erf((mu_a - mu_b) / (2.0 * beta * math.sqrt(2.0))))


def fairness_report(
    *,
    games: Sequence[PlayedGame],
    byes: Iterable[SatOut] = (),
    season_format: Format = "individual",
    teams: Mapping[int, tuple[int, int]] | None = None,
    runs: int = DEFAULT_RUNS,
    seed: int = DEFAULT_SEED,
    settings: RatingSettings | None = None,
    measure: Measure = "win_pct",
) -> FairnessReport:
    """The fairness report of a season (see the module docstring).

    ``games``: the season's schedule (finished games and games still to play); ``byes``: the
    rounds players sat out; ``teams``: a team season's teams (id → its two players), whose
    entrants the Monte Carlo estimate ranks.
    """
    if season_format not in ("teams", "individual"):
        raise DomainError('the format is "teams" or "individual"', field="format")
    if measure not in MEASURES:
        raise DomainError('the simulation ranks by "wins" or "win_pct"', field="measure")
    if not 0 <= runs <= MOST_RUNS:
        raise DomainError(f"runs is a whole number from 0 to {MOST_RUNS}", field="runs")
    settings = settings or RatingSettings()
    finished = sorted(
        (g for g in games if g.is_finished), key=lambda g: (g.played_order, g.game_id)
    )
    partnered, opposed = pair_counts(finished)
    bye_counts = Counter(bye.player_id for bye in byes)

    state = RatingState()
    start = (settings.mu, settings.sigma)
    seen: dict[int, float] = {}  # player → display rating now, for the field's average
    field_sum = 0.0
    sums: dict[int, list[float]] = defaultdict(lambda: [0, 0.0, 0.0, 0.0])
    # player → [games, opponents' ratings, partners' ratings, partner minus field]
    for game in finished:
        for player in game.seats:
            if player not in seen:
                mu, sigma = state.ratings.get(player, start)
                seen[player] = _display(mu, sigma, settings)
                field_sum += seen[player]
        field_average = field_sum / len(seen)
        for side, other in ((game.side_a, game.side_b), (game.side_b, game.side_a)):
            opponents = sum(seen[p] for p in other) / 2
            for index, player in enumerate(side):
                partner = side[1 - index]
                line = sums[player]
                line[0] += 1
                line[1] += opponents
                line[2] += seen[partner]
                line[3] += seen[partner] - field_average
        rate_sides(state, [(game.side_a, game.side_b, game.winner, False)], settings)
        for player in game.seats:
            mu, sigma = state.ratings[player]
            now = _display(mu, sigma, settings)
            field_sum += now - seen[player]
            seen[player] = now

    players = sorted(set(sums) | set(bye_counts))
    partners_of: dict[int, Counter] = defaultdict(Counter)
    opponents_of: dict[int, Counter] = defaultdict(Counter)
    for (a, b), count in partnered.items():
        partners_of[a][b] = count
        partners_of[b][a] = count
    for (a, b), count in opposed.items():
        opponents_of[a][b] = count
        opponents_of[b][a] = count
    lines = []
    for player in players:
        played, against, beside, luck = sums.get(player, (0, 0.0, 0.0, 0.0))
        mu, sigma = state.ratings.get(player, start)
        lines.append(
            PlayerFairness(
                player_id=player,
                games=played,
                byes=bye_counts.get(player, 0),
                distinct_partners=len(partners_of[player]),
                distinct_opponents=len(opponents_of[player]),
                most_with_one_partner=max(partners_of[player].values(), default=0),
                most_against_one_opponent=max(opponents_of[player].values(), default=0),
                strength_of_schedule=round(against / played, 1) if played else None,
                average_partner_rating=round(beside / played, 1) if played else None,
                partner_luck=round(luck / played, 1) if played else None,
                rating_now=round(_display(mu, sigma, settings)),
            )
        )
    pairs = sorted(
        (
            PairCount(a, b, partnered.get((a, b), 0), opposed.get((a, b), 0))
            for a, b in set(partnered) | set(opposed)
        ),
        key=lambda p: (-p.partnered, -p.opposed, p.first, p.second),
    )
    bye_figures = [line.byes for line in lines]
    return FairnessReport(
        format=season_format,
        games_played=len(finished),
        most_partnered=max(partnered.values(), default=0),
        most_opposed=max(opposed.values(), default=0),
        repeated_partnerships=sum(1 for count in partnered.values() if count >= 2),
        repeated_oppositions=sum(1 for count in opposed.values() if count >= 2),
        fewest_byes=min(bye_figures, default=0),
        most_byes=max(bye_figures, default=0),
        pairs=tuple(pairs),
        players=tuple(lines),
        monte_carlo=monte_carlo(
            games=games,
            skills={player: mu for player, (mu, _sigma) in state.ratings.items()},
            season_format=season_format,
            teams=teams or {},
            runs=runs,
            seed=seed,
            settings=settings,
            measure=measure,
        ),
        field_rating=round(field_sum / len(seen), 1) if seen else None,
    )


def monte_carlo(
    *,
    games: Sequence[PlayedGame],
    skills: Mapping[int, float],
    season_format: Format,
    teams: Mapping[int, tuple[int, int]],
    runs: int,
    seed: int,
    settings: RatingSettings,
    measure: Measure = "win_pct",
) -> MonteCarlo:
    """How often each entrant finishes first when the season's schedule is played ``runs``
    times with results drawn from ``skills`` (see the module docstring)."""
    schedule = sorted(games, key=lambda g: (g.played_order, g.game_id))
    is_teams = season_format == "teams"
    team_of = {}
    if is_teams:
        for team, members in teams.items():
            for player in members:
                team_of[player] = team

    def skill(player: int) -> float:
        return skills.get(player, settings.mu)

    sides: list[tuple[tuple[int, ...], tuple[int, ...], float]] = []
    entrants: set[int] = set()
    for game in schedule:
        if is_teams:
            winners_a = (game.team_a if game.team_a is not None else team_of.get(game.seats[0]),)
            winners_b = (game.team_b if game.team_b is not None else team_of.get(game.seats[1]),)
            if None in winners_a or None in winners_b:
                continue  # a game of players outside the season's teams ranks no team
        else:
            winners_a, winners_b = game.side_a, game.side_b
        chance = _win_chance(
            sum(skill(p) for p in game.side_a), sum(skill(p) for p in game.side_b), settings.beta
        )
        sides.append((winners_a, winners_b, chance))
        entrants.update(winners_a)
        entrants.update(winners_b)
    if is_teams:
        entrants.update(teams)
        strength = {team: sum(skill(p) for p in teams.get(team, ())) for team in entrants}
    else:
        strength = {player: skill(player) for player in entrants}
    ordered = sorted(entrants)
    if not ordered or not sides or runs == 0:
        return MonteCarlo(runs, seed, len(sides), measure, None, None, ())
    firsts: Counter = Counter()
    games_of = Counter(chain.from_iterable(a + b for a, b, _chance in sides))
    draw = random.Random(seed).random
    for _run in range(runs):
        wins = Counter(chain.from_iterable([a if draw() < c else b for a, b, c in sides]))
        if measure == "win_pct":
            scores = {entrant: count / games_of[entrant] for entrant, count in wins.items()}
        else:
            scores = wins
        best = max(scores.values())
        leaders = [entrant for entrant, score in scores.items() if score == best]
        share = 1.0 / len(leaders)
        for entrant in leaders:
            firsts[entrant] += share
    strongest = min(ordered, key=lambda entrant: (-strength[entrant], entrant))
    chances = tuple(
        sorted(
            (
                Chance(entrant, round(strength[entrant], 3), round(firsts[entrant] / runs, 4))
                for entrant in ordered
            ),
            key=lambda c: (-c.first_chance, -c.skill, c.entrant_id),
        )
    )
    return MonteCarlo(
        runs=runs,
        seed=seed,
        games=len(sides),
        measure=measure,
        strongest_id=strongest,
        strongest_first_chance=round(firsts[strongest] / runs, 4),
        chances=chances,
    )
