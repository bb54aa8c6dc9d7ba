"""Player ratings that follow each player across changing partners, from the ``openskill`` library.

Pure Python, no Django. The maths is openskill's (Weng and Lin's Bayesian rating for teams, the
Plackett-Luce model by default); this module only feeds it the season's games in order.

Words used here
---------------
rating
    A player's skill as a normal belief: ``mu`` (the estimate) and ``sigma`` (how unsure it is).
    Every player starts at openskill's defaults (mu 25, sigma 25/3) unless a prior is given, e.g.
    last season's rating.
rated game
    A finished, non-forfeited game (a forfeit says nothing about skill). Its two sides are two
    teams of players (a team season's ``players_a``/``players_b``, or the two players of an
    individual season), ranked by the result: the winners first, or level for a draw. Games are
    rated one at a time in ``played_order``, ties broken by ``game_id``, so the result is the same
    for every input order.
ordinal
    ``mu - 3 * sigma``: a conservative skill, the figure leaderboards sort by (openskill's
    ``ordinal()``); it rises as a player wins and as the rating grows surer.
display rating
    The ordinal on a friendlier scale, ``round(display_target + display_scale * ordinal)``: with the
    defaults a newcomer shows 1000 (their ordinal is 0) and a win moves it by tens of points.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from openskill.models import (
    BradleyTerryFull,
    BradleyTerryPart,
    PlackettLuce,
    ThurstoneMostellerFull,
    ThurstoneMostellerPart,
)

from core.errors import DomainError
from scoring.standings.domain.standings import GameRecord

MODELS = {
    "plackett_luce": PlackettLuce,
    "bradley_terry_full": BradleyTerryFull,
    "bradley_terry_part": BradleyTerryPart,
    "thurstone_mosteller_full": ThurstoneMostellerFull,
    "thurstone_mosteller_part": ThurstoneMostellerPart,
}
"""The openskill models a season can rate with, by name."""

ORDINAL_Z = 3.0
"""Standard deviations taken off ``mu`` for the ordinal (openskill's default: 99.7% sure)."""


@dataclass(frozen=True)
class RatingSettings:
    """How ratings are computed. ``mu``, ``sigma``, ``beta`` and ``tau`` are openskill's
    parameters, with openskill's defaults; the display fields only rescale the ordinal."""

    model: str = "plackett_luce"
    mu: float = 25.0
    sigma: float = 25.0 / 3.0
    beta: float = 25.0 / 6.0
    tau: float = 25.0 / 300.0
    display_target: float = 1000.0
    display_scale: float = 40.0

    def __post_init__(self) -> None:
        if self.model not in MODELS:
            raise DomainError(
                f'"{self.model}" is not a rating model; choose from {", ".join(MODELS)}',
                field="model",
            )
        if self.sigma <= 0 or self.beta <= 0 or self.tau < 0:
            raise DomainError("sigma and beta must be positive, tau not negative", field="sigma")


@dataclass(frozen=True)
class Prior:
    """A rating a player starts the season with (e.g. the end of the last one)."""

    mu: float
    sigma: float


@dataclass(frozen=True)
class PlayerRating:
    """One player's rating after the season's rated games (see the module docstring)."""

    player_id: int
    mu: float
    sigma: float
    ordinal: float
    display_rating: int
    games_rated: int
    wins: int
    losses: int
    draws: int

    def to_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in _RATING_FIELDS}  # asdict, flat


_RATING_FIELDS = tuple(f.name for f in fields(PlayerRating))


def compute_ratings(
    games: Iterable[GameRecord],
    settings: RatingSettings | None = None,
    *,
    priors: Mapping[int, Prior] | None = None,
) -> tuple[PlayerRating, ...]:
    """Rate every player of ``games``; best first (by ordinal, then player id).

    Players who only forfeited, or who have a prior but no game, keep their starting rating with
    ``games_rated`` 0.
    """
    settings = settings or RatingSettings()
    state = RatingState()
    for player, prior in (priors or {}).items():
        state.ratings[player] = (prior.mu, prior.sigma)
        state.results[player] = [0, 0, 0]
    rate_games(state, games, settings)
    return rating_rows(state, settings)


class RatingState:
    """Where the season's ratings stand after some of its games, rated in order: each player's
    ``(mu, sigma)`` and ``[wins, losses, draws]``. Rating more games (:func:`rate_games`) goes on
    from here, so a game played after all the others updates the ratings of its four players
    alone."""

    __slots__ = ("ratings", "results")

    def __init__(self) -> None:
        self.ratings: dict[int, tuple[float, float]] = {}
        self.results: dict[int, list[int]] = {}

    @classmethod
    def from_rows(cls, rows: Iterable[Mapping[str, Any]]) -> RatingState:
        """The state that rating lines (``PlayerRating.to_dict()``) were made from."""
        state = cls()
        for row in rows:
            state.ratings[row["player_id"]] = (row["mu"], row["sigma"])
            state.results[row["player_id"]] = [row["wins"], row["losses"], row["draws"]]
        return state


def rate_games(state: RatingState, games: Iterable[GameRecord], settings: RatingSettings) -> None:
    """Rate ``games`` one at a time in ``played_order`` (ties broken by ``game_id``), going on
    from ``state`` (updated in place). Players start at openskill's defaults."""
    ordered = sorted(games, key=lambda g: (g.played_order, g.game_id))
    rate_sides(
        state,
        ((g.players("A"), g.players("B"), g.winner, g.is_forfeit) for g in ordered),
        settings,
    )


def ratings_after(
    games: Iterable[tuple[tuple[int, ...], tuple[int, ...], str | None, bool]],
    state: RatingState | None = None,
    settings: RatingSettings | None = None,
) -> tuple[PlayerRating, ...]:
    """The rating lines after rating ``games`` (as :func:`rate_sides` takes them) from ``state``
    (from scratch if ``None``; updated in place)."""
    settings = settings or RatingSettings()
    state = RatingState() if state is None else state
    rate_sides(state, games, settings)
    return rating_rows(state, settings)


def rated_last_alike(
    played: Iterable[tuple[int, Sequence[int]]], new_games: Collection[int]
) -> bool:
    """Whether rating the games ``new_games`` after every other gives the ratings of rating them
    in played order: ``played`` is ``(game, players)`` in played order from the first new game
    on. It does when no game played after a new one shares a player with it: a game's rating
    reads and moves only its own players' ratings, so two games without a player in common give
    the same ratings in either order, to the last bit. (Two tables' games that end a moment apart
    reach the standings in either order.)"""
    new_players: set[int] = set()
    for game, players in played:
        if game in new_games:
            new_players.update(players)
        elif not new_players.isdisjoint(players):
            return False
    return True


def rate_sides(
    state: RatingState,
    games: Iterable[tuple[tuple[int, ...], tuple[int, ...], str | None, bool]],
    settings: RatingSettings,
) -> None:
    """Rate games given in played order as ``(players of side A, players of side B, winner,
    forfeited)``, going on from ``state`` (updated in place)."""
    model = MODELS[settings.model](
        mu=settings.mu, sigma=settings.sigma, beta=settings.beta, tau=settings.tau
    )
    fast = type(model) is PlackettLuce and not model.balance and not model.limit_sigma
    ratings, results = state.ratings, state.results
    start = (model.mu, model.sigma)
    tau_squared, beta_squared, kappa = model.tau * model.tau, model.beta**2, model.kappa
    for side_a, side_b, winner, forfeited in games:
        for player in (*side_a, *side_b):
            if player not in ratings:
                ratings[player] = start
                results[player] = [0, 0, 0]
        if forfeited:
            continue
        if winner is None:
            ranks, outcome_a, outcome_b = [1, 1], 2, 2
        elif winner == "A":
            ranks, outcome_a, outcome_b = [1, 2], 0, 1
        else:
            ranks, outcome_a, outcome_b = [2, 1], 1, 0
        if fast and len(side_a) == 2 and len(side_b) == 2:
            _plackett_luce_pairs(ratings, side_a, side_b, ranks, tau_squared, beta_squared, kappa)
            for players, outcome in ((side_a, outcome_a), (side_b, outcome_b)):
                for player in players:
                    results[player][outcome] += 1
            continue
        teams = [[ratings[p] for p in side_a], [ratings[p] for p in side_b]]
        rated = model.rate(
            [[model.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in teams],
            ranks=ranks,
        )
        rated_a, rated_b = ([(r.mu, r.sigma) for r in team] for team in rated)
        for players, rated_side, outcome in (
            (side_a, rated_a, outcome_a),
            (side_b, rated_b, outcome_b),
        ):
            for player, rating in zip(players, rated_side, strict=True):
                ratings[player] = rating
                results[player][outcome] += 1


def rating_rows(state: RatingState, settings: RatingSettings) -> tuple[PlayerRating, ...]:
    """Every player's rating line, best first (by ordinal, then player id)."""
    rows = []
    for player, (mu, sigma) in state.ratings.items():
        ordinal = 1 * ((mu - ORDINAL_Z * sigma) + (0 / 1))  # openskill's ordinal(), as it reckons
        wins, losses, draws = state.results[player]
        rows.append(
            PlayerRating(
                player_id=player,
                mu=mu,
                sigma=sigma,
                ordinal=ordinal,
                display_rating=round(settings.display_target + settings.display_scale * ordinal),
                games_rated=wins + losses + draws,
                wins=wins,
                losses=losses,
                draws=draws,
            )
        )
    return tuple(sorted(rows, key=lambda row: (-row.ordinal, row.player_id)))


def _plackett_luce_pairs(
    ratings: dict[int, tuple[float, float]],
    side_a: tuple[int, ...],
    side_b: tuple[int, ...],
    ranks: list[int],
    tau_squared: float,
    beta_squared: float,
    kappa: float,
) -> None:
    """openskill's ``PlackettLuce.rate(teams, ranks=ranks)`` for two teams of two, with its
    default options (no weights, scores, balance or sigma limit), on plain ``(mu, sigma)``
    pairs, written into ``ratings``: the same arithmetic in the same order, so the same floats
    to the last bit (``tests/domain/test_ratings.py`` compares them over random seasons),
    without the library's checks, copies and loops over any number of teams and players, which
    cost most of a large season's rating time (a hundred thousand games in a recompute from
    scratch). ``ranks`` is ``[1, 2]``, ``[2, 1]`` or ``[1, 1]`` (a draw)."""
    sqrt = math.sqrt
    # openskill sorts the teams by rank (stably) and rates them in that order.
    swapped = ranks[0] > ranks[1]
    (player_1a, player_1b), (player_2a, player_2b) = (
        (side_b, side_a) if swapped else (side_a, side_b)
    )
    mu_1a, sigma_1a = ratings[player_1a]
    mu_1b, sigma_1b = ratings[player_1b]
    mu_2a, sigma_2a = ratings[player_2a]
    mu_2b, sigma_2b = ratings[player_2b]
    sigma_1a = sqrt(sigma_1a * sigma_1a + tau_squared)
    sigma_1b = sqrt(sigma_1b * sigma_1b + tau_squared)
    sigma_2a = sqrt(sigma_2a * sigma_2a + tau_squared)
    sigma_2b = sqrt(sigma_2b * sigma_2b + tau_squared)
    # A team's mu and variance are its players' sums (0.0 plus two terms: in either order).
    team_mu_1 = 0.0 + mu_1a * 1.0 + mu_1b * 1.0
    team_mu_2 = 0.0 + mu_2a * 1.0 + mu_2b * 1.0
    variance_1 = 0.0 + (sigma_1a * 1.0) ** 2 + (sigma_1b * 1.0) ** 2
    variance_2 = 0.0 + (sigma_2a * 1.0) ** 2 + (sigma_2b * 1.0) ** 2
    c = sqrt(0.0 + (variance_1 + beta_squared) + (variance_2 + beta_squared))
    e_1, e_2 = math.exp(team_mu_1 / c), math.exp(team_mu_2 / c)
    if ranks[0] == ranks[1]:  # a draw: both teams share rank 1 (a = 2 each)
        sum_1 = e_1 + e_2
        sum_2 = e_1 + e_2
        share = e_1 / sum_1
        delta_1 = 0.0 + share * (1 - share) / 2
        omega_1 = 0.0 + (1 - share) / 2
        share = e_1 / sum_2
        delta_1 += share * (1 - share) / 2
        omega_1 -= share / 2
        share = e_2 / sum_1
        delta_2 = 0.0 + share * (1 - share) / 2
        omega_2 = 0.0 - share / 2
        share = e_2 / sum_2
        delta_2 += share * (1 - share) / 2
        omega_2 += (1 - share) / 2
    else:  # the first team won (rank 1 against 2; a = 1 each)
        sum_1 = e_1 + e_2
        sum_2 = e_2
        share = e_1 / sum_1
        delta_1 = 0.0 + share * (1 - share) / 1
        omega_1 = 0.0 + (1 - share) / 1
        share = e_2 / sum_1
        delta_2 = 0.0 + share * (1 - share) / 1
        omega_2 = 0.0 - share / 1
        share = e_2 / sum_2
        delta_2 += share * (1 - share) / 1
        omega_2 += (1 - share) / 1
    # Each team's players move by its omega and delta, scaled by their share of its variance;
    # openskill then averages the change of mu within a rank shared by several teams, reading
    # it from ratings it has already overwritten, so the average is 0 and mu + 0.0 is mu.
    omega_1 *= variance_1 / c
    delta_1 *= variance_1 / c**2
    delta_1 *= sqrt(variance_1) / c
    omega_2 *= variance_2 / c
    delta_2 *= variance_2 / c**2
    delta_2 *= sqrt(variance_2) / c
    ratings[player_1a] = _moved(mu_1a, sigma_1a, variance_1, omega_1, delta_1, kappa)
    ratings[player_1b] = _moved(mu_1b, sigma_1b, variance_1, omega_1, delta_1, kappa)
    ratings[player_2a] = _moved(mu_2a, sigma_2a, variance_2, omega_2, delta_2, kappa)
    ratings[player_2b] = _moved(mu_2b, sigma_2b, variance_2, omega_2, delta_2, kappa)


def _moved(
    mu: float, sigma: float, variance: float, omega: float, delta: float, kappa: float
) -> tuple[float, float]:
    share = sigma**2 / variance
    if omega >= 0:
        return mu + share * omega * 1.0, sigma * math.sqrt(max(1 - share * delta * 1.0, kappa))
    return mu + share * omega / 1.0, sigma * math.sqrt(max(1 - share * delta / 1.0, kappa))
