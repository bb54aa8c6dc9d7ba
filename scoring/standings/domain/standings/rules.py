"""How a season ranks: the tie-break measures a season may choose, and :class:`SeasonRules`
(the chain, best nights, the minimum of games, forfeit points, what a bye is worth, the coin-flip
seed, and how many entrants make the playoffs: the cut line of the playoff race, which does not
change the ranking). The words are defined in :mod:`scoring.standings.domain.standings`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from core.errors import DomainError

MEASURE_LABELS: dict[str, str] = {
    "win_pct": "win percentage",
    "wins": "wins",
    "points_for": "points for",
    "point_diff": "point difference",
    "head_to_head": "head-to-head",
    "head_to_head_points": "head-to-head points",
    "head_to_head_diff": "head-to-head point difference",
    "marches": "marches",
    "loners_made": "loners made",
    "euchres_inflicted": "euchres inflicted",
    "buchholz": "opponents' strength",
    "buchholz_cut1": "opponents' strength less the weakest",
    "buchholz_median": "opponents' strength less the weakest and strongest",
    "sonneborn_berger": "strength of the opponents beaten",
    "progressive": "progressive score",
    "coin_flip": "coin flip",
}
"""Every tie-break a season can choose, by name, with the words shown to people."""

GROUP_MEASURES = ("head_to_head", "head_to_head_points", "head_to_head_diff")
"""The measures worked out among the entrants of a tied group only (re-applied to each smaller
group still tied)."""

GAME_BY_GAME_MEASURES = frozenset(
    {
        "head_to_head_points",
        "head_to_head_diff",
        "buchholz_cut1",
        "buchholz_median",
        "sonneborn_berger",
        "progressive",
    }
)
"""The measures that need each counted game (its points, opponents and order), not only an
entrant's sums: a season ranked by one of them is ranked from its games."""

DEFAULT_TIEBREAKS: tuple[str, ...] = ("win_pct", "head_to_head", "point_diff", "points_for")
BYE_VALUES = ("nothing", "fixed", "average")
NIGHT_ORDERS = ("wins", "points")

MAX_PLAYOFF_SPOTS = 64
"""The most entrants a season's playoffs can take (the cut line of the playoff race)."""

PRECISION = 9
"""Decimal places at which two measured values count as equal (sums of rounded bye averages)."""


@dataclass(frozen=True)
class SeasonRules:
    """How a season ranks its entrants; see the module docstring for every word.

    ``tiebreaks`` may end with ``coin_flip``; if it does not, the coin flip is appended.
    """

    tiebreaks: tuple[str, ...] = DEFAULT_TIEBREAKS
    count_best_nights: int | None = None
    best_nights_by: Literal["wins", "points"] = "wins"
    min_games: int = 0
    forfeit_points_to_winner: int = 10
    forfeit_points_to_forfeiter: int = 0
    forfeit_counts_as_game: bool = True
    bye_value: Literal["nothing", "fixed", "average"] = "nothing"
    bye_points: int | float = 0
    bye_counts_as_win: bool = False
    coin_flip_seed: int = 0
    playoff_spots: int = 4

    def __post_init__(self) -> None:
        chain = tuple(self.tiebreaks)
        object.__setattr__(self, "tiebreaks", chain)
        choices = ", ".join(f"{label} ({name})" for name, label in MEASURE_LABELS.items())
        for name in chain:
            if name not in MEASURE_LABELS:
                raise DomainError(
                    f'"{name}" is not a tie-break; choose from {choices}',
                    field="tiebreaks",
                    code="unknown_tiebreak",
                )
        repeated = sorted({name for name in chain if chain.count(name) > 1})
        if repeated:
            raise DomainError(
                f"each tie-break can be used once; {', '.join(repeated)} is repeated",
                field="tiebreaks",
            )
        if not [name for name in chain if name != "coin_flip"]:
            raise DomainError(
                "choose at least one measure to rank by before the coin flip", field="tiebreaks"
            )
        if "coin_flip" in chain and chain[-1] != "coin_flip":
            raise DomainError("the coin flip can only be the last tie-break", field="tiebreaks")
        if self.count_best_nights is not None and self.count_best_nights < 1:
            raise DomainError(
                "count at least one night, or leave it empty to count them all",
                field="count_best_nights",
            )
        if self.best_nights_by not in NIGHT_ORDERS:
            raise DomainError(
                'best nights are chosen by "wins" or "points"', field="best_nights_by"
            )
        if self.min_games < 0:
            raise DomainError("the minimum of games cannot be negative", field="min_games")
        if self.bye_value not in BYE_VALUES:
            raise DomainError(
                'a bye is worth "nothing", a "fixed" amount or the "average"', field="bye_value"
            )
        if self.bye_value == "nothing" and (self.bye_points or self.bye_counts_as_win):
            raise DomainError("a bye worth nothing gives no points and no win", field="bye_points")
        if self.bye_value == "average" and self.bye_points:
            raise DomainError("a bye worth the average takes no fixed points", field="bye_points")
        if (
            not isinstance(self.playoff_spots, int)
            or isinstance(self.playoff_spots, bool)
            or not 1 <= self.playoff_spots <= MAX_PLAYOFF_SPOTS
        ):
            raise DomainError(
                f"the playoffs take between 1 and {MAX_PLAYOFF_SPOTS} entrants",
                field="playoff_spots",
            )

    @property
    def measures_each_game(self) -> bool:
        """Whether a measure of the chain reads each counted game (``GAME_BY_GAME_MEASURES``)."""
        return any(name in GAME_BY_GAME_MEASURES for name in self.tiebreaks)

    @property
    def ranks_game_by_game(self) -> bool:
        """Whether the ranking needs each game, not only each entrant's sums: when only the best
        nights count, or when a measure reads each counted game."""
        return self.count_best_nights is not None or self.measures_each_game

    @property
    def chain(self) -> tuple[str, ...]:
        """The tie-breaks in order, always ending with the coin flip."""
        if self.tiebreaks[-1] == "coin_flip":
            return self.tiebreaks
        return (*self.tiebreaks, "coin_flip")
