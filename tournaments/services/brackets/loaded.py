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

from django.db import router

from league.models import Player, Team
from scoring.games.models import Game
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
MATCH_ATTNAMES = tuple(BracketMatch._meta.get_field(name).attname for name in MATCH_FIELDS)
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
    stored: dict[int, tuple] = field(init=False)
    """Match id → its ``MATCH_FIELDS`` as read: what the services change is compared with it,
    and only what differs is written (``tournaments.services.brackets.store.matches_write``)."""

    def __post_init__(self) -> None:
        self.team_by_seed = {entry.seed: entry.team for entry in self.entries}
        self.seed_by_team = {entry.team_id: entry.seed for entry in self.entries}
        self.stored = {
            match.pk: tuple(getattr(match, name) for name in MATCH_ATTNAMES)
            for match in self.matches.values()
        }

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


_MATCHES_WITH_LINKS = """
SELECT m.id, m.bracket_id, m.code, m."order", m.round, m.first_team_id, m.second_team_id,
       m.winner_id, m.status, m.decided_by, m.decided_at, m.needs_review, m.review_reason,
       l.id AS link_id, l.number AS link_number, l.status AS link_status, l.game_id AS link_game_id,
       g.status AS game_status, g.winner AS game_winner, g.void_reason AS game_void_reason,
       e.id AS entry_id, e.seed AS entry_seed, e.team_id AS entry_team_id,
       e.withdrawn_at AS entry_withdrawn_at, t.season_id AS team_season_id, t.name AS team_name,
       t.player_one_id, t.player_two_id,
       one.league_id AS player_one_league_id, two.league_id AS player_two_league_id
FROM {BracketMatch} m
LEFT JOIN {BracketMatchGame} l ON l.match_id = m.id
LEFT JOIN {Game} g ON g.id = l.game_id
LEFT JOIN {BracketEntry} e
       ON e.bracket_id = m.bracket_id AND e.team_id IN (m.first_team_id, m.second_team_id)
LEFT JOIN {Team} t ON t.id = e.team_id
LEFT JOIN {Player} one ON one.id = t.player_one_id
LEFT JOIN {Player} two ON two.id = t.player_two_id
WHERE m.bracket_id = %s AND m.code IN ({codes})"""
"""The matches of an advance with their game links (and each link's game's result) and the
entries of their teams (with the team and its players), in one statement: see
:func:`bracket_load_matches`. ``{codes}``: a placeholder per code. Not ordered (the few rows
are sorted in Python): ordered by the matches' ids, SQLite read every match of the bracket
through its ``bracket_id`` index to return them in that order, rather than find them by the
bracket's code index (0.2 ms against 0.04 at 1,024 teams)."""
_TABLES = {
    model.__name__: model._meta.db_table
    for model in (BracketEntry, BracketMatch, BracketMatchGame, Game, Player, Team)
}
ENTRY_FIELDS = ("id", "bracket_id", "seed", "team_id", "withdrawn_at")
TEAM_FIELDS = ("id", "season_id", "name", "player_one_id", "player_two_id")
PLAYER_FIELDS = ("id", "league_id")
"""The fields of an entry, its team and their players that the advance reads (the others load
when read): its seed, its team's name, and what creating the team's next game needs."""


def bracket_load_matches(
    bracket: Bracket, structure: Structure, codes: Collection[str]
) -> tuple[LoadedBracket, list[LinkRow]] | None:
    """The matches ``codes`` of the bracket (locked by the caller), with their game links and
    the entries of their teams (each with its team and the team's players), in one statement,
    whatever the bracket's size. Written out (``Manager.raw``, which converts the match's fields
    as the ORM does): composed by the ORM, the same read took two queries and 1.2 ms of Python,
    against 0.2 ms for this one. ``None`` if a code names no match, or if a team of these
    matches has withdrawn: its ready matches are forfeited, which only a replay of the whole
    bracket does."""
    codes = list(codes)
    database = router.db_for_read(BracketMatch)
    sql = _MATCHES_WITH_LINKS.format_map({**_TABLES, "codes": ", ".join(["%s"] * len(codes))})
    matches: dict[int, BracketMatch] = {}
    links: dict[int, LinkRow] = {}
    entries: dict[int, BracketEntry] = {}
    for row in BracketMatch.objects.db_manager(database).raw(sql, [bracket.pk, *codes]):
        matches.setdefault(row.pk, row)  # the first row of each match: its fields are the same
        if row.link_id is not None and row.link_id not in links:
            links[row.link_id] = LinkRow(
                row.link_id,
                row.pk,
                row.link_number,
                row.link_status,
                row.link_game_id,
                row.game_status,
                row.game_winner,
                row.game_void_reason,
            )
        if row.entry_id is None or row.entry_id in entries:
            continue
        if row.entry_withdrawn_at is not None:
            return None
        entries[row.entry_id] = _entry(database, bracket, row)
    if len(matches) != len(codes):
        return None
    loaded = LoadedBracket(
        bracket,
        structure,
        sorted(entries.values(), key=lambda entry: entry.seed),
        {match.code: match for match in sorted(matches.values(), key=lambda match: match.pk)},
        is_whole=False,
    )
    return loaded, sorted(links.values(), key=lambda link: (link.match_id, link.number))


def _entry(database: str, bracket: Bracket, row: BracketMatch) -> BracketEntry:
    """The entry of a row of :data:`_MATCHES_WITH_LINKS`, its team and players attached."""
    team = Team.from_db(
        database,
        TEAM_FIELDS,
        (
            row.entry_team_id,
            row.team_season_id,
            row.team_name,
            row.player_one_id,
            row.player_two_id,
        ),
    )
    team.player_one = Player.from_db(
        database, PLAYER_FIELDS, (row.player_one_id, row.player_one_league_id)
    )
    team.player_two = Player.from_db(
        database, PLAYER_FIELDS, (row.player_two_id, row.player_two_league_id)
    )
    entry = BracketEntry.from_db(  # not withdrawn: the read stops at an entry that is
        database, ENTRY_FIELDS, (row.entry_id, bracket.pk, row.entry_seed, team.pk, None)
    )
    entry.team = team
    return entry


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
