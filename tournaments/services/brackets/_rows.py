"""Plain SQL for the queries an advance runs on every finished game (``_advance``'s hot path).

The ORM compiles every queryset anew, at 0.3–0.5 ms of Python each; an advance runs about ten
small queries, so compiling them was most of its cost. Here each statement is written once, its
tables and columns taken from the models' ``_meta``, and its rows turned into model instances
with ``Model.from_db`` after the same converters the ORM applies (``Columns``): what the callers
get is what the querysets they replace returned."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.transaction import TransactionManagementError

from league.models import League, Player, Season, Team
from league.rows import (
    Columns,
    col,
    columns,
    cursor,
    fetch,
    insert_values,
    inserted_fields,
    per_backend,
    placeholders,
    table,
)
from league.rows import q as _q
from league.rows import statement as _statement
from scoring.models import Game
from tournaments.models import Bracket, BracketEntry, BracketMatch, BracketMatchGame


def _bracket_columns() -> tuple[Columns, Columns, Columns]:
    return columns(Bracket, "b"), columns(Season, "s"), columns(League, "g")


@_statement
def _lock_sql(of_game: bool, derived: bool) -> str:
    """The bracket ``%s`` (or that of the match game ``%s`` counts for, and the match's code),
    locked; see ``lock_bracket``. ``derived``: and, on PostgreSQL, the transaction's commit
    does not wait for the disk (``commit_without_waiting_for_disk``), set in the same round
    trip (``set_config(…, true)`` is ``SET LOCAL``; its column is not read)."""
    brackets, seasons, leagues = _bracket_columns()
    features = connection.features
    lock = ""
    if features.has_select_for_update:
        lock = " FOR UPDATE OF b" if features.has_select_for_update_of else " FOR UPDATE"
    entry, link, match = BracketEntry, BracketMatchGame, BracketMatch
    code, links, where = "", "", "b.id = %s"
    if of_game:
        code = f", m.{col(match, 'code')}"
        links = (
            f"INNER JOIN {table(match)} m ON m.{col(match, 'bracket')} = b.id "
            f"INNER JOIN {table(link)} l ON l.{col(link, 'match')} = m.id "
        )
        where = f"l.{col(link, 'game')} = %s AND l.{col(link, 'status')} = %s"
    relaxed = f"{RELAXED_COMMIT}, " if _relaxes(derived) else ""
    return (
        f"SELECT {relaxed}{brackets.sql}, {seasons.sql}, {leagues.sql}, "
        f"(SELECT COUNT(*) FROM {table(entry)} e WHERE e.{col(entry, 'bracket')} = b.id), "
        f"(SELECT COUNT(e.{col(entry, 'withdrawn_at')}) FROM {table(entry)} e "
        f"WHERE e.{col(entry, 'bracket')} = b.id){code} FROM {table(Bracket)} b "
        f"INNER JOIN {table(Season)} s ON b.{col(Bracket, 'season')} = s.id "
        f"INNER JOIN {table(League)} g ON s.{col(Season, 'league')} = g.id "
        f"{links}WHERE {where}{lock}"
    )


def lock_bracket(bracket_id: int, *, derived: bool = False) -> Bracket:
    """The bracket with its season and league, its row locked (``FOR UPDATE OF`` it alone
    where the database locks rows), and ``team_count`` (its entries) and ``withdrawn_count``
    (those withdrawn) read in the same query.
    ``derived``: the transaction only writes what the results imply (an advance, the sweep),
    so its commit need not wait for the disk (``commit_without_waiting_for_disk``)."""
    rows = _locked(_lock_sql(False, derived), [bracket_id])
    if not rows:
        raise Bracket.DoesNotExist("Bracket matching query does not exist.")
    return _locked_bracket(rows[0][_relaxes(derived) :])


def lock_bracket_of_game(game_id: int) -> tuple[Bracket, str] | None:
    """The bracket of the match ``game_id`` counts for, locked as by ``lock_bracket`` for a
    derived write (an advance), and the match's code; ``None`` if the game counts for no
    match."""
    rows = _locked(_lock_sql(True, True), [game_id, BracketMatchGame.Status.COUNTING])
    return (_locked_bracket(rows[0][_relaxes(True) : -1]), rows[0][-1]) if rows else None


def _relaxes(derived: bool) -> bool:
    """Whether the lock query of a ``derived`` write sets its commit not to wait for the disk
    (its first column, not read)."""
    return derived and connection.vendor == "postgresql"


def _locked(sql: str, params: Sequence) -> list[tuple]:
    if not connection.in_atomic_block:  # as select_for_update(): a lock outside is no lock
        raise TransactionManagementError(
            "select_for_update cannot be used outside of a transaction."
        )
    return fetch(sql, params)


def _locked_bracket(row: Sequence) -> Bracket:
    brackets, seasons, leagues = _bracket_columns()
    first, second = len(brackets), len(brackets) + len(seasons)
    bracket = brackets.build(row[:first])
    season = seasons.build(row[first:second])
    season.league = leagues.build(row[second : second + len(leagues)])
    bracket.season = season
    bracket.team_count, bracket.withdrawn_count = (count or 0 for count in row[-2:])
    return bracket


LINK_GAME_FIELDS = ("status", "winner", "void_reason")
"""The fields of a linked game that :func:`matches_with_links` reads (after the link's id, match
id, number and status)."""

SIDES = ("first_team", "second_team")
"""The match's fields whose teams' entries :func:`matches_with_links` reads."""


def _entry_columns(side: str) -> tuple[Columns, ...]:
    """The columns of an entry, its team and the team's two players, under the aliases of
    ``side`` (``e<side>``, ``t<side>``, ``p<side>1``, ``p<side>2``)."""
    return (
        columns(BracketEntry, f"e{side}"),
        columns(Team, f"t{side}"),
        columns(Player, f"p{side}1"),
        columns(Player, f"p{side}2"),
    )


def _entry_joins(side: str, team: str) -> str:
    """LEFT JOINs of the bracket's entry of the team in ``m``'s field ``team`` (by the unique
    index on bracket and team), with that team and its players (all NULL for an empty slot)."""
    entry, e, t = BracketEntry, f"e{side}", f"t{side}"
    return (
        f"LEFT JOIN {table(entry)} {e} ON {e}.{col(entry, 'bracket')} = "
        f"m.{col(BracketMatch, 'bracket')} AND {e}.{col(entry, 'team')} = "
        f"m.{col(BracketMatch, team)} "
        f"LEFT JOIN {table(Team)} {t} ON {e}.{col(entry, 'team')} = {t}.id "
        f"LEFT JOIN {table(Player)} p{side}1 ON {t}.{col(Team, 'player_one')} = p{side}1.id "
        f"LEFT JOIN {table(Player)} p{side}2 ON {t}.{col(Team, 'player_two')} = p{side}2.id "
    )


@per_backend
def _entry_layout(start: int) -> tuple[tuple[int, tuple], ...]:
    """Where each side's entry, team and players lie in a row of :func:`_matches_with_links_sql`
    whose entry columns begin at ``start``: per side, the position of the entry's id, and each
    part (:func:`_entry_columns`) with the bounds of its columns."""
    key = BracketEntry._meta.concrete_fields.index(BracketEntry._meta.pk)
    layout, at = [], start
    for side in range(len(SIDES)):
        parts = []
        for part in _entry_columns(str(side)):
            parts.append((part, at, at + len(part)))
            at += len(part)
        layout.append((parts[0][1] + key, tuple(parts)))
    return tuple(layout)


@_statement
def _matches_with_links_sql(count: int, fields: tuple[str, ...]) -> str:
    link, game = BracketMatchGame, Game
    built = columns(BracketMatch, "m", fields)
    picked = ", ".join(f"g.{col(game, name)}" for name in LINK_GAME_FIELDS)
    entries = ", ".join(
        part.sql for side in range(len(SIDES)) for part in _entry_columns(str(side))
    )
    joins = "".join(_entry_joins(str(side), team) for side, team in enumerate(SIDES))
    return (
        f"SELECT {built.sql}, l.id, l.{col(link, 'number')}, l.{col(link, 'status')}, {picked}, "
        f"{entries} FROM {table(BracketMatch)} m "
        f"LEFT JOIN {table(link)} l ON l.{col(link, 'match')} = m.id "
        f"LEFT JOIN {table(game)} g ON l.{col(link, 'game')} = g.id "
        f"{joins}"
        f"WHERE m.{col(BracketMatch, 'bracket')} = %s "
        f"AND m.{col(BracketMatch, 'code')} IN ({placeholders(count)}) "
        f"ORDER BY m.id, l.{col(link, 'number')}"
    )


def matches_with_links(
    bracket_id: int, codes: Sequence[str], fields: Sequence[str]
) -> tuple[list[BracketMatch], list[tuple], list[BracketEntry]]:
    """The matches ``codes`` of the bracket, with ``fields`` (and their ids) loaded, and, read in
    the same query (one round trip, not three): their game links as :func:`match_games` gives
    them (with the game's :data:`LINK_GAME_FIELDS`), and the bracket's entries of their teams,
    each with its team and the team's players loaded, in the order of their seeds."""
    fields = ("id", *fields)
    built = columns(BracketMatch, "m", fields)
    width = len(built)
    link_end = width + 3 + len(LINK_GAME_FIELDS)
    sides = _entry_layout(link_end)
    found: dict[int, BracketMatch] = {}
    entries: dict[int, BracketEntry] = {}
    links = []
    for row in fetch(_matches_with_links_sql(len(codes), fields), [bracket_id, *codes]):
        match_id = row[0]
        if match_id not in found:
            found[match_id] = built.build(row[:width])
            for key_at, parts in sides:
                key = row[key_at]
                if key is None or key in entries:  # an empty slot, or an entry already read
                    continue
                entry, team, one, two = (part.build(row[low:high]) for part, low, high in parts)
                team.player_one, team.player_two = one, two
                entry.team = team
                entries[key] = entry
        link_id, number, status, *game = row[width:link_end]
        if link_id is not None:
            links.append((link_id, match_id, number, status, *game))
    known = sorted(entries.values(), key=lambda entry: entry.seed)
    return list(found.values()), links, known


@_statement
def _match_games_sql(count: int, game_fields: tuple[str, ...]) -> str:
    link, game = BracketMatchGame, BracketMatchGame._meta.get_field("game").related_model
    picked = ", ".join(f"g.{col(game, name)}" for name in game_fields)
    return (
        f"SELECT l.id, l.{col(link, 'match')}, l.{col(link, 'number')}, l.{col(link, 'status')}, "
        f"{picked} FROM {table(link)} l "
        f"INNER JOIN {table(game)} g ON l.{col(link, 'game')} = g.id "
        f"WHERE l.{col(link, 'match')} IN ({placeholders(count)}) "
        f"ORDER BY l.{col(link, 'match')}, l.{col(link, 'number')}"
    )


def match_games(match_ids: Collection[int], game_fields: Sequence[str]) -> list[tuple]:
    """(link id, match id, number, link status, *``game_fields``) of every game link of the
    matches ``match_ids``, in the links' order."""
    return fetch(_match_games_sql(len(match_ids), tuple(game_fields)), list(match_ids))


@_statement
def _update_matches_sql(count: int, names: tuple[str, ...]) -> str:
    """One UPDATE of the fields ``names`` of ``count`` matches, each row its own values (a CASE
    on the id, typed where the database needs it, as Django's ``bulk_update`` writes it)."""
    fields = [BracketMatch._meta.get_field(name) for name in names]
    cast = connection.features.requires_casted_case_in_updates
    sets = []
    for field in fields:
        value = f"CAST(%s AS {field.db_type(connection)})" if cast else "%s"
        cases = " ".join([f"WHEN %s THEN {value}"] * count)
        sets.append(f"{_q(field.column)} = CASE id {cases} END")
    return f"UPDATE {table(BracketMatch)} SET {', '.join(sets)} WHERE id IN ({placeholders(count)})"


def update_matches(matches: Sequence[BracketMatch], names: Sequence[str]) -> None:
    """Write the fields ``names`` of each of ``matches`` to its row, in one statement (each
    statement is a round trip to a database server)."""
    if not matches:
        return
    database = connections[DEFAULT_DB_ALIAS]
    params: list = []
    for field in map(BracketMatch._meta.get_field, names):
        for match in matches:
            params += [match.pk, field.get_db_prep_save(getattr(match, field.attname), database)]
    params += [match.pk for match in matches]
    with cursor() as current:
        current.execute(_update_matches_sql(len(matches), tuple(names)), params)


def _new_link_fields() -> list:
    """The fields a new game link is inserted with, but its game (the new game's id)."""
    return [field for field in inserted_fields(BracketMatchGame) if field.name != "game"]


@_statement
def _create_games_sql(count: int) -> str:
    """The INSERT of ``count`` games and, in a data-modifying ``WITH``, of their links, joined to
    their games by the captain token (unique, and made before the INSERT): one round trip."""
    game_fields, link_fields = inserted_fields(Game), _new_link_fields()
    row = f"({placeholders(len(game_fields))})"
    typed = ", ".join(f"CAST(%s AS {field.db_type(connection)})" for field in link_fields)
    names = ", ".join(_q(field.column) for field in link_fields)
    token = col(Game, "captain_token")
    link = BracketMatchGame
    return (
        f"WITH g AS (INSERT INTO {table(Game)} "
        f"({', '.join(_q(field.column) for field in game_fields)}) "
        f"VALUES {', '.join([row] * count)} RETURNING id, {token}) "
        f"INSERT INTO {table(link)} ({names}, {col(link, 'game')}) "
        f"SELECT {', '.join(f'v.{_q(field.column)}' for field in link_fields)}, g.id "
        f"FROM (VALUES {', '.join([f'({typed}, %s)'] * count)}) AS v({names}, token) "
        f"INNER JOIN g ON g.{token} = v.token "
        f"RETURNING id, {col(link, 'match')}, {col(link, 'game')}"
    )


GAMES_PER_STATEMENT = 500
"""The most games :func:`create_games` stores in one statement on PostgreSQL: 33 parameters a
game and its link, bound on the server, which takes at most 65,535 to a statement (a 4,096-team
knockout publishes 2,048 games)."""


def create_games(links: Sequence[BracketMatchGame]) -> None:
    """Store the new games of ``links`` (each link's ``game``, checked and not yet stored; one
    link per match) and the links themselves, giving both their ids. On PostgreSQL in one
    statement (:func:`_create_games_sql`) for up to :data:`GAMES_PER_STATEMENT` of them;
    elsewhere in bulk INSERTs."""
    if not links:
        return
    if connection.vendor != "postgresql":
        Game.objects.bulk_create([link.game for link in links])
        for link in links:
            link.game = link.game  # its new id onto the link, the game kept as the link's
        BracketMatchGame.objects.bulk_create(links)
        return
    for start in range(0, len(links), GAMES_PER_STATEMENT):
        _create_games_at_once(links[start : start + GAMES_PER_STATEMENT])


def _create_games_at_once(links: Sequence[BracketMatchGame]) -> None:
    database = connections[DEFAULT_DB_ALIAS]
    link_fields = _new_link_fields()
    params: list = []
    for link in links:
        params += insert_values(link.game, database)
    for link in links:
        params += [*insert_values(link, database, link_fields), link.game.captain_token]
    stored = {
        match_id: (link_id, game_id)
        for link_id, match_id, game_id in fetch(_create_games_sql(len(links)), params)
    }
    if len(stored) != len(links):  # two links of one match: the caller's mistake
        raise ValueError(f"{len(links)} links to store, of {len(stored)} matches")
    for link in links:
        link.pk, link.game.pk = stored[link.match_id]
        link.game = link.game  # its id onto the link, the game kept as the link's
        for instance in (link, link.game):
            instance._state.adding, instance._state.db = False, database.alias


RELAXED_COMMIT = "set_config('synchronous_commit', 'off', true)"


def commit_without_waiting_for_disk() -> None:
    """This transaction's commit returns before its WAL reaches the disk (PostgreSQL's
    ``synchronous_commit = off``, for this transaction alone; elsewhere nothing changes).

    For derived writes only: an advance stores what the games' results (committed and flushed
    before it) imply, and the periodic sweep (``bracket_sweep``) redoes any advance a crash of
    the database server would lose in its last fraction of a second. The commit's wait for the
    disk was most of an advance's time on PostgreSQL (2.5–3.8 ms a commit here). The advance
    and the sweep set it in the query that locks the bracket (``lock_bracket(derived=True)``)."""
    if connection.vendor == "postgresql":
        fetch(f"SELECT {RELAXED_COMMIT}")
