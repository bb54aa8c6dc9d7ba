"""Every row lock the tournaments app takes, and the order it takes them in.

Lock order: a transaction that needs more than one of these rows locks them from the top of this
list down, never back up, so two transactions never wait for each other in a circle.

1. a season (:func:`season_lock`, :func:`season_money_lock`, :func:`archivable_lock`): a team
   schedule's creation, so two of one season queue; its money rules; its archiving;
2. a night (:func:`night_lock`, :func:`archivable_lock`): parent of its plan, planned rounds,
   seats, door check-ins and games;
3. a player's check-in at the night's door (:func:`self_check_in_lock`), the night locked first;
4. a planned round of that night (:func:`planned_round_lock`, :func:`planned_rounds_lock`);
5. a bracket (:func:`bracket_lock`, :func:`bracket_of_game_lock`, :func:`bracket_row_lock`,
   :func:`archivable_lock`): parent of its entries, matches, match games and corrections;
6. last, a game, which ``scoring.games`` locks itself (``scoring.games.locks.game_lock``) when a
   night or a bracket calls a game off or records it (``game_void``).

A walk-in checked in at the desk holds the night's lock (2) when ``league.services.player_create``
takes the league's roster lock (``league.locks.roster_lock``): the league's order puts the roster
after a season and a night. The standings take their own locks in their own transactions
(``scoring.standings.locks``).

Each lock is ``select_for_update()``; where related rows are read in the same query, ``of=``
names the locked row alone, but for :func:`night_lock`, whose one statement locks the night with
its season and rulebook (no transaction holds a night when it locks a season). The advance's lock
(:func:`bracket_of_game_lock`, once per finished game) is the same clause written out in one
statement (``Manager.raw``). On SQLite ``select_for_update()`` does nothing (its write
transactions are immediate and take the whole database), so the constraints carry correctness
there.
"""

from __future__ import annotations

from django.db import connections, router, transaction
from django.db.models import QuerySet

from league.models import Night, Player, Season, SelfCheckIn
from tournaments.models import (
    Bracket,
    BracketEntry,
    BracketMatch,
    BracketMatchGame,
    NightPlan,
    PlannedRound,
)


def season_lock(season_id: int) -> Season | None:
    """The season, its row locked; ``None`` if there is none."""
    return Season.objects.select_for_update().filter(pk=season_id).first()


def season_money_lock(season_id: int) -> Season:
    """The season (its id alone loaded), its row locked: two organisers' saves of its money
    rules take turns."""
    return Season.objects.select_for_update().only("pk").get(pk=season_id)


def archivable_lock(row: Season | Night | Bracket) -> Season | Night | Bracket:
    """A new copy of a season, a night or a bracket, its row locked (its archiving)."""
    return type(row).objects.select_for_update().get(pk=row.pk)


def night_lock(night_id: int) -> Night:
    """The night with its season and rulebook, the three rows locked (a night's change waits
    for a change of its season's rules)."""
    return Night.objects.select_for_update().select_related("season__rulebook").get(pk=night_id)


def self_check_in_lock(night: Night, player: Player) -> SelfCheckIn | None:
    """The player's check-in at the night's door, its row locked (the night locked first);
    ``None`` if they never checked in there."""
    return SelfCheckIn.objects.select_for_update().filter(night=night, player=player).first()


def planned_round_lock(plan: NightPlan, number: int) -> PlannedRound | None:
    """Round ``number`` of the night's plan, its row locked (the night locked first)."""
    return PlannedRound.objects.select_for_update().filter(plan=plan, number=number).first()


def planned_rounds_lock(plan: NightPlan, status: str) -> QuerySet[PlannedRound]:
    """The plan's rounds of ``status``, their rows locked as they are read (the night first)."""
    return plan.planned_rounds.select_for_update().filter(status=status)


def bracket_lock(bracket_id: int) -> Bracket:
    """The bracket with its season and league, its row alone locked, and ``team_count`` (its
    entries) read after the lock."""
    bracket = (
        Bracket.objects.select_for_update(of=("self",))
        .select_related("season__league")
        .get(pk=bracket_id)
    )
    bracket.team_count = bracket.entries.count()
    return bracket


def bracket_row_lock(bracket_id: int) -> Bracket:
    """The bracket alone, its row locked (its name changes)."""
    return Bracket.objects.select_for_update().get(pk=bracket_id)


_BRACKET_OF_GAME = """
SELECT b.*, m.code AS match_code, s.league_id AS season_league_id,
       (SELECT COUNT(*) FROM {BracketEntry} e WHERE e.bracket_id = b.id) AS team_count
FROM {Bracket} b
INNER JOIN {Season} s ON s.id = b.season_id
INNER JOIN {BracketMatch} m ON m.bracket_id = b.id
INNER JOIN {BracketMatchGame} l ON l.match_id = m.id
WHERE l.game_id = %s AND l.status = %s""".format_map(
    {
        model.__name__: model._meta.db_table
        for model in (Bracket, BracketEntry, BracketMatch, BracketMatchGame, Season)
    }
)
"""The bracket of the match a game counts for, with that match's code, its season's league and
its entries' count (``bracket_of_game_lock``): one statement, written out because it runs once
per finished game and the ORM took 0.9 ms of Python to compose it with the count in a second
query (``Manager.raw``: 0.12 ms for both, SQLite at 64 teams)."""


def bracket_of_game_lock(game_id: int) -> tuple[Bracket, str] | None:
    """The bracket of the match the game counts for, its row alone locked, with ``team_count``
    (its entries) and its season (the season's id and league loaded, enough to create games; its
    other fields load when read), and that match's code; ``None`` if the game counts for no
    match. One statement (``Manager.raw``), the lock and the count in it."""
    database = router.db_for_write(Bracket)
    if transaction.get_autocommit(using=database):  # as select_for_update(): no lock outside
        raise transaction.TransactionManagementError(
            "select_for_update cannot be used outside of a transaction."
        )
    sql = _BRACKET_OF_GAME + _for_update_of("b", connections[database])
    found = list(
        Bracket.objects.db_manager(database).raw(sql, [game_id, BracketMatchGame.Status.COUNTING])
    )
    if not found:
        return None
    bracket = found[0]
    bracket.season = Season.from_db(
        database, ("id", "league_id"), (bracket.season_id, bracket.season_league_id)
    )
    return bracket, bracket.match_code


def _for_update_of(alias: str, connection) -> str:
    """The clause that locks the rows of the table ``alias`` alone where the database locks rows
    (PostgreSQL); nothing on SQLite, whose write transactions take the whole database."""
    if connection.features.has_select_for_update_of:
        return f" FOR UPDATE OF {alias}"
    if connection.features.has_select_for_update:
        return " FOR UPDATE"
    return ""
