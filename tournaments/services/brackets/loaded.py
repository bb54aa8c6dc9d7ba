"""A locked bracket loaded into memory (``LoadedBracket``): its entries and matches, all of them
(:func:`bracket_load`) or only those one advance touches (:func:`bracket_load_matches`), for the
services of this package to reconcile them with their games and store what changed.

Words: a *link row* (:class:`LinkRow`) is one game link of a match as the services read it, with
its game's status, winner and void reason: what deciding a match, calling off its games and
numbering its next one need."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import NamedTuple

from league.models import Team
from scoring.models import Game
from tournaments.domain.brackets import Structure
from tournaments.models import Bracket, BracketEntry, BracketMatch, BracketMatchGame
from tournaments.selectors.bracket_standings import (
    finished_pool_rankings,
    match_points,
    pool_tables,
)
from tournaments.selectors.bracket_structure import bracket_structure

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
"""The fields of a match that reconciling it may change."""
LOADED_MATCH_FIELDS = ("bracket", "code", "order", "round", *MATCH_FIELDS)
"""The fields of a match that the services read."""
IN_PLAY = (Game.Status.SCHEDULED, Game.Status.IN_PROGRESS)
"""Statuses of a game that may still be played (a finished or voided one is not)."""


class LinkRow(NamedTuple):
    """One game link of a match, with its game's result."""

    pk: int
    match_id: int
    number: int
    status: str
    game_id: int
    game_status: str
    game_winner: str
    game_void_reason: str


LINK_ROW_FIELDS = (
    "pk",
    "match",
    "number",
    "status",
    "game",
    "game__status",
    "game__winner",
    "game__void_reason",
)
"""What :class:`LinkRow` is read from, a field of ``BracketMatchGame`` for each of its fields."""


def link_rows(match_ids: Collection[int]) -> list[LinkRow]:
    """Every game link of the matches ``match_ids``, in each match's order of games."""
    rows = (
        BracketMatchGame.objects.filter(match__in=list(match_ids))
        .order_by("match_id", "number")
        .values_list(*LINK_ROW_FIELDS)
    )
    return [LinkRow(*row) for row in rows]


@dataclass
class LoadedBracket:
    """A locked bracket with its entries and matches in memory. ``is_whole``: every match and
    entry is loaded; otherwise only some matches (those one advance touches) and the entries of
    their teams."""

    bracket: Bracket
    structure: Structure | None
    entries: list[BracketEntry]
    matches: dict[str, BracketMatch]
    is_whole: bool = True
    team_by_seed: dict[int, Team] = field(init=False)
    seed_by_team: dict[int, int] = field(init=False)
    points_loaded: dict[int, tuple[int, int]] | None = field(default=None, init=False)
    in_play: set[int] = field(default_factory=set, init=False)
    """Ids of matches found with a counting game in play (while reconciling their games)."""

    def __post_init__(self) -> None:
        self.team_by_seed = {entry.seed: entry.team for entry in self.entries}
        self.seed_by_team = {entry.team_id: entry.seed for entry in self.entries}

    @property
    def names(self) -> dict[int, str]:
        """Seed → team name."""
        return {entry.seed: entry.team.name for entry in self.entries}

    @property
    def team_names(self) -> dict[int, str]:
        """Team id → team name."""
        return {entry.team_id: entry.team.name for entry in self.entries}

    def points(self) -> dict[int, tuple[int, int]]:
        """Points of the pool (or Swiss) matches' counting finished games, loaded once."""
        if self.points_loaded is None:
            if self.structure is None:
                counted = list(self.matches.values())
            else:
                counted = [
                    self.matches[match.code] for match in self.structure.matches if match.pool
                ]
            self.points_loaded = match_points(counted)
        return self.points_loaded

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


def _entries(bracket: Bracket):
    return bracket.entries.select_related("team__player_one", "team__player_two").order_by("seed")


def bracket_load(bracket: Bracket) -> LoadedBracket:
    """Every entry (with its team and players) and match of the bracket, locked by the caller."""
    entries = list(_entries(bracket))
    matches = {
        match.code: match for match in bracket.matches.order_by("order").only(*LOADED_MATCH_FIELDS)
    }
    return LoadedBracket(bracket, bracket_structure(bracket, len(entries)), entries, matches)


_MATCH_COLUMNS = tuple(
    model_field.attname
    for model_field in BracketMatch._meta.concrete_fields
    if model_field.name in ("id", *LOADED_MATCH_FIELDS)
)
"""The attnames of the loaded fields of a match, in the model's order (``Model.from_db``'s)."""


def bracket_load_matches(
    bracket: Bracket, structure: Structure, codes: Collection[str]
) -> tuple[LoadedBracket, list[LinkRow]] | None:
    """The matches ``codes`` of the bracket (locked by the caller), their game links read in the
    same query, and the entries of their teams: two queries, whatever the bracket's size.
    ``None`` if a code names no match."""
    link_fields = [f"game_links__{name}" for name in LINK_ROW_FIELDS]
    rows = (
        BracketMatch.objects.filter(bracket=bracket, code__in=list(codes))
        .order_by("pk", "game_links__number")
        .values_list(*_MATCH_COLUMNS, *link_fields)
    )
    by_id: dict[int, BracketMatch] = {}
    links: list[LinkRow] = []
    width, key = len(_MATCH_COLUMNS), _MATCH_COLUMNS.index("id")
    for row in rows:
        if row[key] not in by_id:
            by_id[row[key]] = BracketMatch.from_db(rows.db, _MATCH_COLUMNS, row[:width])
        if row[width] is not None:
            links.append(LinkRow(*row[width:]))
    matches = {match.code: match for match in by_id.values()}
    if len(matches) != len(codes):
        return None
    teams = {
        team
        for match in matches.values()
        for team in (match.first_team_id, match.second_team_id)
        if team is not None
    }
    entries = list(_entries(bracket).filter(team__in=teams)) if teams else []
    loaded = LoadedBracket(bracket, structure, entries, matches, is_whole=False)
    return loaded, links


def link_rows_in_play(bracket: Bracket) -> list[LinkRow]:
    """The bracket's counting game links whose games are still in play."""
    rows = (
        BracketMatchGame.objects.filter(
            match__bracket=bracket,
            status=BracketMatchGame.Status.COUNTING,
            game__status__in=IN_PLAY,
        )
        .order_by("match_id", "number")
        .values_list(*LINK_ROW_FIELDS)
    )
    return [LinkRow(*row) for row in rows]
