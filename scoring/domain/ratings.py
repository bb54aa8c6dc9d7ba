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

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from openskill.models import (
    BradleyTerryFull,
    BradleyTerryPart,
    PlackettLuce,
    ThurstoneMostellerFull,
    ThurstoneMostellerPart,
)

from league.errors import DomainError
from scoring.domain.standings import GameRecord

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
        return asdict(self)


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
    priors = priors or {}
    model = MODELS[settings.model](
        mu=settings.mu, sigma=settings.sigma, beta=settings.beta, tau=settings.tau
    )
    ratings: dict[int, Any] = {}
    results: dict[int, list[int]] = {}

    def rating_of(player: int) -> Any:
        if player not in ratings:
            prior = priors.get(player)
            ratings[player] = (
                model.rating(mu=prior.mu, sigma=prior.sigma) if prior else model.rating()
            )
            results[player] = [0, 0, 0]
        return ratings[player]

    for player in priors:
        rating_of(player)
    for game in sorted(games, key=lambda g: (g.played_order, g.game_id)):
        side_a, side_b = game.players("A"), game.players("B")
        teams = [[rating_of(p) for p in side_a], [rating_of(p) for p in side_b]]
        if game.is_forfeit:
            continue
        if game.winner is None:
            ranks, outcome_a, outcome_b = [1, 1], 2, 2
        elif game.winner == "A":
            ranks, outcome_a, outcome_b = [1, 2], 0, 1
        else:
            ranks, outcome_a, outcome_b = [2, 1], 1, 0
        rated_a, rated_b = model.rate(teams, ranks=ranks)
        for players, rated, outcome in ((side_a, rated_a, outcome_a), (side_b, rated_b, outcome_b)):
            for player, rating in zip(players, rated, strict=True):
                ratings[player] = rating
                results[player][outcome] += 1

    rows = []
    for player, rating in ratings.items():
        ordinal = rating.ordinal(z=ORDINAL_Z)
        wins, losses, draws = results[player]
        rows.append(
            PlayerRating(
                player_id=player,
                mu=rating.mu,
                sigma=rating.sigma,
                ordinal=ordinal,
                display_rating=round(settings.display_target + settings.display_scale * ordinal),
                games_rated=wins + losses + draws,
                wins=wins,
                losses=losses,
                draws=draws,
            )
        )
    return tuple(sorted(rows, key=lambda row: (-row.ordinal, row.player_id)))
