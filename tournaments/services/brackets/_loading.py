"""A bracket locked and loaded: its entries and matches in memory (``_Loaded``), for the services
of this package to replay its results and write what changed."""

from __future__ import annotations

from dataclasses import dataclass, field

from league.models import Team
from scoring.models import Game
from tournaments.domain.brackets import Structure
from tournaments.models import Bracket, BracketEntry, BracketMatch
from tournaments.selectors.bracket_standings import (
    finished_pool_rankings,
    match_points,
    pool_tables,
)
from tournaments.selectors.bracket_structure import bracket_structure
from tournaments.services.brackets import _rows

MATCH_FIELDS = [
    "first_team",
    "second_team",
    "winner",
    "status",
    "decided_by",
    "decided_at",
    "needs_review",
    "review_reason",
]
IN_PLAY = (Game.Status.SCHEDULED, Game.Status.IN_PROGRESS)
"""Statuses of a game that may still be played (a finished or voided one is not)."""


@dataclass
class _Loaded:
    """A locked bracket with its entries and matches in memory."""

    bracket: Bracket
    structure: Structure | None
    entries: list[BracketEntry]
    matches: dict[str, BracketMatch]
    team_by_seed: dict[int, Team] = field(init=False)
    seed_by_team: dict[int, int] = field(init=False)
    _points: dict[int, tuple[int, int]] | None = field(default=None, init=False)
    in_play: set[int] = field(default_factory=set, init=False)
    """Ids of matches found with a counting game in play (by ``_reconcile_games``)."""

    def __post_init__(self) -> None:
        self.team_by_seed = {entry.seed: entry.team for entry in self.entries}
        self.seed_by_team = {entry.team_id: entry.seed for entry in self.entries}

    @property
    def names(self) -> dict[int, str]:
        return {entry.seed: entry.team.name for entry in self.entries}

    def points(self) -> dict[int, tuple[int, int]]:
        """Points of the pool (or Swiss) matches' counting finished games, loaded once."""
        if self._points is None:
            if self.structure is None:
                counted = list(self.matches.values())
            else:
                counted = [
                    self.matches[match.code] for match in self.structure.matches if match.pool
                ]
            self._points = match_points(counted)
        return self._points

    def pool_rankings(self, results: dict[str, int]) -> dict[str, list[int]]:
        """The rankings of the finished pools given ``results`` (none outside pool brackets)."""
        if self.structure is None or not self.structure.pools:
            return {}
        tables = pool_tables(self.structure, self.matches, results, self.names, self.points())
        return finished_pool_rankings(tables)

    @property
    def withdrawn(self) -> set[int]:
        return {entry.seed for entry in self.entries if entry.is_withdrawn}

    def results(self) -> dict[str, int]:
        return {
            code: self.seed_by_team[match.winner_id]
            for code, match in self.matches.items()
            if match.winner_id is not None and match.status == BracketMatch.Status.DECIDED
        }

    def team_id(self, occupant) -> int | None:
        team = self.team_by_seed.get(occupant) if isinstance(occupant, int) else None
        return team.pk if team is not None else None


def _lock(bracket_id: int) -> Bracket:
    """The bracket, its row locked, with its season and league and ``team_count`` (its
    entries) read in the same query."""
    return _rows.lock_bracket(bracket_id)


def _load(bracket: Bracket) -> _Loaded:
    entries = list(
        bracket.entries.select_related("team__player_one", "team__player_two").order_by("seed")
    )
    matches = {
        match.code: match
        for match in bracket.matches.order_by("order").only(
            "bracket_id", "code", "order", "round", *MATCH_FIELDS
        )
    }
    return _Loaded(bracket, bracket_structure(bracket, len(entries)), entries, matches)
