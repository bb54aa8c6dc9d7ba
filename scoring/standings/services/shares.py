"""Each ranked game's share of its season's snapshot
(``scoring.standings.domain.season_totals.GameShare``), counted by the database and kept in
``StandingGame`` rows.

- *packed counts*: a game's hands are counted per side as makers (``MAKER_COUNT_NAMES``) and per
  caller's seat (``SEAT_COUNT_NAMES``), each count a 16-bit field of a 64-bit sum, four to a
  sum: one ``GROUP BY`` with a handful of sums instead of a filtered count per count and side,
  so a large season's million hands never reach Python. Each hand's own packed counts are
  stored on its row (``scoring.games.hand_counts``), so the ``GROUP BY`` only adds them up. A game
  has at most 32,767 current hands (their numbers are small integers, one current hand a number),
  so no field carries.
- *stored shares*: the ``StandingGame`` rows are the shares the stored snapshot counted. A
  recompute stores the shares of the games it recounts in its own transaction, writing only
  those that differ from the stored ones (one ``INSERT ... SELECT ... ON CONFLICT``, the
  counting done inside the database), on PostgreSQL and SQLite alike.
- *counted shares*: what the old rows add up to (read before they are deleted) and what the new
  ones do, as the running totals fold them (``scoring.standings.domain.season_totals.Counted``): the
  database adds the shares up per player and seat (and per team and side), so a recompute from
  scratch reads four thousand sums instead of a hundred thousand shares; the meetings (who met
  whom, the result, the night) come one per share, in played order. The sums are of packed
  counts spread out (``_SPREAD``), each field then wide enough for any season.
- *plain SQL*: the statements that count and add up the shares are written here as SQL text,
  their tables and columns named by the models' ``_meta`` (``_column``), run on a cursor with
  their values as parameters: the same text on PostgreSQL and SQLite (``FILTER``, ``CAST``,
  ``&`` and ``>>`` mean the same on both). Built through the ORM, the seat sums' four-way union
  cost more CPU than running it did.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable
from typing import Any

from django.db import connection
from django.db.models import Q

from league.models import Night, Season
from scoring.games.domain.counts import MAKER_COUNT_NAMES
from scoring.games.hand_counts import (
    CALLER_COLUMNS,
    FIELD_BITS,
    MAKER_COLUMNS,
    PER_SUM,
    caller_hand_counts,
)
from scoring.games.models import Game, Hand, Side
from scoring.standings.domain.season_totals import (
    NOTHING_COUNTED,
    SEAT_SIDE_FIELDS,
    Counted,
    GameShare,
    SeatSums,
)
from scoring.standings.domain.stats import side_counts
from scoring.standings.models import StandingGame


def _column(model, name: str) -> str:
    """The column of ``model``'s field ``name`` (the documented ``_meta`` API)."""
    return model._meta.get_field(name).column


_RESULT = (
    "seat_0_id",
    "seat_1_id",
    "seat_2_id",
    "seat_3_id",
    "team_a_id",
    "team_b_id",
    "score_a",
    "score_b",
    "winner",
    "night_id",
)
"""A game's seats, sides and result, as a game row and a share both name them."""
_SUMS = (
    "first_number",
    *(f"a{n}" for n in range(4)),
    *(f"b{n}" for n in range(4)),
    *(f"c{n}" for n in range(8)),
)
"""A share's hand counts (see ``StandingGame``)."""
_RETURNED = ("game_id", *_RESULT, *_SUMS)
"""What a recompute reads back of a share (its season and finishing time it knows)."""
_GAME_FIELDS = (
    "season",
    "id",
    "finished_at",
    *(name.removesuffix("_id") for name in _RESULT),
)
"""The fields of a game a share copies (the share's columns ``_SHARE_COLUMNS`` name them)."""
_SHARE_COLUMNS = tuple(
    _column(StandingGame, name) for name in ("season", "game", "finished_at", *_RESULT, *_SUMS)
)
"""A share's columns, in the order of a row of :func:`_share_select`."""


def _ranked(season: Season, games: str, nights: str) -> str:
    """SQL that the game ``games`` (an alias of the games' table, left-joined to the nights'
    as ``nights`` on its night) is ranked in ``season``: finished, counting for the standings,
    not of an archived night, and in a team season between two teams (a friendly between
    players of a team season does not rank teams). Parameters ``season`` and ``finished``
    (:func:`_parameters`)."""
    where = (
        f"{games}.{_column(Game, 'season')} = %(season)s"
        f" AND {games}.{_column(Game, 'status')} = %(finished)s"
        f" AND {games}.{_column(Game, 'counts_for_standings')}"
        f" AND {nights}.{_column(Night, 'archived_at')} IS NULL"
    )
    if season.format == Season.Format.TEAMS:
        for side in ("team_a", "team_b"):
            where += f" AND {games}.{_column(Game, side)} IS NOT NULL"
    return where


def _ranked_games(season: Season, games: str = "g", nights: str = "n") -> str:
    """The season's games, ranked or not, as ``games``, joined to their nights as ``nights``."""
    night = f"{games}.{_column(Game, 'night')}"
    return (
        f"{Game._meta.db_table} {games} LEFT JOIN {Night._meta.db_table} {nights}"
        f" ON {nights}.{Night._meta.pk.column} = {night}"
    )


def _parameters(season: Season, game_ids: list[int] | None) -> tuple[dict[str, Any], str]:
    """The statements' parameters (the season, the constants they compare with, the games) and
    the placeholders of the games (``game_ids``; ``""`` with ``None``: every game)."""
    parameters: dict[str, Any] = {
        "season": season.pk,
        "finished": Game.Status.FINISHED,
        "active": Hand.Status.ACTIVE,
        "side_a": Side.A,
        "side_b": Side.B,
    }
    if game_ids is None:
        return parameters, ""
    names = [f"game_{index}" for index in range(len(game_ids))]
    parameters.update(zip(names, game_ids, strict=True))
    return parameters, ", ".join(f"%({name})s" for name in names)


def _share_select(season: Season, games_in: str) -> str:
    """A ``SELECT`` of the shares of the season's ranked games (of the games ``games_in`` names,
    unless empty) as rows of ``_SHARE_COLUMNS``: each game left-joined to its counted hands
    (current, not misdealt, not thrown in), whose packed counts are summed, each sum a 64-bit
    integer, which it always is (see *packed counts*; PostgreSQL sums 64-bit integers as
    ``numeric``, slower to store and to read back)."""
    hand = Hand._meta.db_table
    makers, caller = _column(Hand, "makers"), _column(Hand, "caller")
    sums = []
    for side in ("side_a", "side_b"):  # each hand's maker counts go to its makers' sums
        sums += [
            f"CAST(COALESCE(SUM(h.{column}) FILTER (WHERE h.{makers} = %({side})s), 0) AS BIGINT)"
            for column in MAKER_COLUMNS
        ]
    for seat in range(4):  # and its caller counts to its caller's
        seated = f"g.{_column(Game, f'seat_{seat}')}"
        sums += [
            f"CAST(COALESCE(SUM(h.{column}) FILTER (WHERE h.{caller} = {seated}), 0) AS BIGINT)"
            for column in CALLER_COLUMNS
        ]
    game_columns = ", ".join(f"g.{_column(Game, name)}" for name in _GAME_FIELDS)
    hands = (
        f"LEFT JOIN {hand} h ON h.{_column(Hand, 'game')} = g.{Game._meta.pk.column}"
        f" AND h.{_column(Hand, 'status')} = %(active)s"
        f" AND NOT h.{_column(Hand, 'misdeal')} AND NOT h.{_column(Hand, 'thrown_in')}"
    )
    only = f" AND g.{Game._meta.pk.column} IN ({games_in})" if games_in else ""
    return (
        f"SELECT {game_columns}, MIN(h.{_column(Hand, 'number')}), {', '.join(sums)}"
        f" FROM {_ranked_games(season)} {hands}"
        f" WHERE {_ranked(season, 'g', 'n')}{only}"
        f" GROUP BY g.{Game._meta.pk.column}"
    )


_FIELDS = struct.Struct(f"<{16 * PER_SUM}H")  # the 16 packed sums of a share, as fields


def share_of(row: tuple, *, is_teams: bool) -> GameShare:
    """A stored share (a row of ``_RETURNED``) as the running totals take it."""
    (
        game_id,
        seat_0,
        seat_1,
        seat_2,
        seat_3,
        team_a,
        team_b,
        score_a,
        score_b,
        winner,
        night_id,
        first_number,
        *packed,
    ) = row
    seats = (seat_0, seat_1, seat_2, seat_3)
    fields = _FIELDS.unpack(b"".join([value.to_bytes(8, "little") for value in packed]))
    width = len(MAKER_COUNT_NAMES)
    side_a = side_b = None
    if first_number is not None:
        side_a, side_b = side_counts(fields[0:width], fields[16 : 16 + width])
    alone = []
    for seat in range(4):
        own = fields[32 + 8 * seat : 40 + 8 * seat]
        if own[0]:  # calls
            alone.append((seats[seat], caller_hand_counts(own)))
    return GameShare(
        game_id,
        seats,
        (team_a, team_b) if is_teams else None,
        score_a,
        score_b,
        winner or None,
        night_id,
        side_a,
        side_b,
        tuple(alone),
    )


def shares_replace(season: Season, game_ids: Iterable[int] | None) -> tuple[Counted, Counted]:
    """Recount the shares of ``game_ids`` (every game of the season with ``None``) and store
    them: each game's share as the game stands now is written where it differs from the stored
    one (inserted, or updated over it), the counting done inside the database, and the shares of
    games no longer ranked are deleted. Return what the old rows and the new ones add up to
    (:func:`shares_counted`), of the games whose share changed only (:func:`_differing`; no old
    rows when recounting every game: the fold starts from empty). Call inside the transaction
    that stores the snapshot."""
    old = NOTHING_COUNTED
    if game_ids is not None:
        game_ids = _differing(season, list(game_ids))
        if not game_ids:
            return NOTHING_COUNTED, NOTHING_COUNTED
        old = shares_counted(season, game_ids)
    parameters, games_in = _parameters(season, game_ids)
    table = StandingGame._meta.db_table
    columns = ", ".join(_SHARE_COLUMNS)
    game = _column(StandingGame, "game")
    update = ", ".join(f"{column} = excluded.{column}" for column in _SHARE_COLUMNS)
    only = f" AND {game} IN ({games_in})" if games_in else ""
    with connection.cursor() as cursor:
        # Unchanged shares are left as they are: a recompute from scratch after a rules change
        # writes none of a large season's hundred thousand, and leaves no dead rows behind.
        cursor.execute(
            f"{_counted(season, games_in)} "
            f"INSERT INTO {table} ({columns}) SELECT {columns} FROM counted "
            f"WHERE {_unlike_stored()} ON CONFLICT ({game}) DO UPDATE SET {update}",
            parameters,
        )
        # The shares of games no longer ranked (finished no more, called off, of a night
        # archived) go.
        cursor.execute(
            f"DELETE FROM {table} WHERE {_column(StandingGame, 'season')} = %(season)s{only}"
            f" AND NOT EXISTS (SELECT 1 FROM {_ranked_games(season)}"
            f" WHERE g.{Game._meta.pk.column} = {table}.{game} AND {_ranked(season, 'g', 'n')})",
            parameters,
        )
    return old, shares_counted(season, game_ids)


def _differing(season: Season, game_ids: list[int]) -> list[int]:
    """Those of ``game_ids`` whose share as the game stands now is not the stored one: a share to
    insert, update or delete. A game whose change a run folded already comes back unchanged when
    its next change was logged while that run counted it (the game finished a moment after the
    run read the pending changes): the fold then takes nothing out and puts nothing in, and the
    ratings go on from the stored ones (nothing is replayed for a game that did not change)."""
    if not game_ids:
        return []
    parameters, games_in = _parameters(season, game_ids)
    table = StandingGame._meta.db_table
    game = _column(StandingGame, "game")
    with connection.cursor() as cursor:
        cursor.execute(
            f"{_counted(season, games_in)} "
            f"SELECT {game} FROM counted WHERE {_unlike_stored()} "
            f"UNION SELECT {game} FROM {table} "
            f"WHERE {_column(StandingGame, 'season')} = %(season)s AND {game} IN ({games_in}) "
            f"AND {game} NOT IN (SELECT {game} FROM counted)",
            parameters,
        )
        return sorted(row[0] for row in cursor.fetchall())


def _counted(season: Season, games_in: str) -> str:
    """SQL ``WITH counted``: the shares of the games ``games_in`` names (every ranked game of the
    season when empty) as they stand now (:func:`_share_select`), as rows of ``_SHARE_COLUMNS``."""
    return f"WITH counted ({', '.join(_SHARE_COLUMNS)}) AS ({_share_select(season, games_in)})"


def _unlike_stored() -> str:
    """SQL that a ``counted`` share is not the stored one: none is stored for its game, or a
    column differs."""
    table, game = StandingGame._meta.db_table, _column(StandingGame, "game")
    same = " AND ".join(_same(column) for column in _SHARE_COLUMNS)
    return (
        f"NOT EXISTS (SELECT 1 FROM {table} stored WHERE stored.{game} = counted.{game} AND {same})"
    )


def _same(column: str) -> str:
    """SQL that a stored share's ``column`` equals the counted one's, a null equal to a null (on
    PostgreSQL and any SQLite, which spells ``IS NOT DISTINCT FROM`` only since 3.39)."""
    equal = f"stored.{column} = counted.{column}"
    nullable = {field.column for field in StandingGame._meta.concrete_fields if field.null}
    if column in nullable:
        return f"({equal} OR (stored.{column} IS NULL AND counted.{column} IS NULL))"
    return equal


assert PER_SUM == 4  # a packed sum is spread out in two halves, below
_SPREAD = ((1 << FIELD_BITS) - 1) * (1 + (1 << 2 * FIELD_BITS))
"""Fields 0 and 2 of a packed sum, each in twice its bits (and fields 1 and 3, after a shift by
``FIELD_BITS``): one game's fields never carry, but a player's sums over many games would, so
the database adds them up spread out, each field then with room for 2**32 hands."""


def shares_counted(season: Season, game_ids: Iterable[int] | None) -> Counted:
    """What the season's stored shares (of ``game_ids`` only, unless ``None``) add up to: the
    seat sums of every player (and in a team season every team) added up by the database, one
    row per player and seat, and the meetings in played order
    (``scoring.standings.domain.season_totals.Counted``)."""
    if game_ids is not None:
        game_ids = list(game_ids)
    parameters, games_in = _parameters(season, game_ids)
    with connection.cursor() as cursor:
        cursor.execute(_seat_sums_sql(games_in, sides=False), parameters)
        players = [_seat_sums(row) for row in cursor.fetchall()]
        teams: list[SeatSums] = []
        if season.format == Season.Format.TEAMS:
            cursor.execute(_seat_sums_sql(games_in, sides=True), parameters)
            teams = [_seat_sums(row) for row in cursor.fetchall()]
    return Counted(players, teams, _meetings(_stored(season, game_ids)))


def meetings_in_played_order(season: Season) -> list[tuple]:
    """Every stored share of the season as a meeting, in played order (finished first first,
    then by id): the order the ratings are replayed in."""
    return _meetings(_stored(season, None))


def _stored(season: Season, game_ids: Iterable[int] | None):
    stored = StandingGame.objects.filter(season=season).order_by()
    if game_ids is not None:
        stored = stored.filter(game_id__in=list(game_ids))
    return stored


def _meetings(stored) -> list[tuple]:
    return list(stored.order_by("finished_at", "game_id").values_list(*_MEETING_COLUMNS))


_MEETING_COLUMNS = (
    "game_id",
    "seat_0_id",
    "seat_1_id",
    "seat_2_id",
    "seat_3_id",
    "team_a_id",
    "team_b_id",
    "winner",
    "night_id",
    "score_a",
    "score_b",
)
"""A stored share as a meeting (``scoring.standings.domain.season_totals.MEETING_FIELDS``)."""


def _seat_sums_sql(games_in: str, *, sides: bool) -> str:
    """The seat sums of the season's stored shares (of the games ``games_in`` names, unless
    empty), one ``SELECT`` per seat (or side, with ``sides``) joined by ``UNION ALL``: per player
    in that seat (or team on that side), the games, wins, losses, points for and against, and
    the packed counts of their side as makers, of the other side as makers and (a seat's) of
    themselves as caller, spread out (``_SPREAD``), as :func:`_seat_sums` reads them."""
    table = StandingGame._meta.db_table
    where = f"{_column(StandingGame, 'season')} = %(season)s"
    if games_in:
        where += f" AND {_column(StandingGame, 'game')} IN ({games_in})"
    winner = _column(StandingGame, "winner")
    seats = [("team_a_id", 0, None), ("team_b_id", 1, None)] if sides else [
        (f"seat_{seat}_id", seat % 2, seat) for seat in range(4)
    ]  # fmt: skip
    selects = []
    for who, side, seat in seats:
        own, other = ("a", "b") if side == 0 else ("b", "a")
        packed = [f"{own}{index}" for index in range(len(MAKER_COLUMNS))]
        packed += [f"{other}{index}" for index in range(len(MAKER_COLUMNS))]
        if seat is not None:
            packed += [
                f"c{seat * len(CALLER_COLUMNS) + index}" for index in range(len(CALLER_COLUMNS))
            ]
        sums = []
        for name in packed:
            column = _column(StandingGame, name)
            sums.append(f"CAST(SUM({column} & {_SPREAD}) AS BIGINT)")
            sums.append(f"CAST(SUM(({column} >> {FIELD_BITS}) & {_SPREAD}) AS BIGINT)")
        won, lost = ("side_a", "side_b") if side == 0 else ("side_b", "side_a")
        selects.append(
            f"SELECT {_column(StandingGame, who)}, COUNT(*),"
            f" COUNT(*) FILTER (WHERE {winner} = %({won})s),"
            f" COUNT(*) FILTER (WHERE {winner} = %({lost})s),"
            f" SUM({_column(StandingGame, f'score_{own}')}),"
            f" SUM({_column(StandingGame, f'score_{other}')}), {', '.join(sums)}"
            f" FROM {table} WHERE {where} GROUP BY {_column(StandingGame, who)}"
        )
    return " UNION ALL ".join(selects)


_LOW = (1 << 2 * FIELD_BITS) - 1
_MAKER_FIELDS = len(MAKER_COLUMNS) * PER_SUM
_NO_CALLS = (0,) * (len(CALLER_COLUMNS) * PER_SUM)


def _seat_sums(row: tuple) -> SeatSums:
    """A row of :func:`_side_sums` as seat sums: the spread sums read back as fields, the side's
    counts worked out from the makers' counts (``side_counts``: sums of sums, as its counts are
    sums and differences of theirs), the caller's own counts in ``HAND_COUNT_NAMES`` order."""
    who, games, wins, losses, points_for, points_against, *spread = row
    fields = []
    for even, odd in zip(spread[0::2], spread[1::2], strict=True):
        fields += (even & _LOW, odd & _LOW, even >> 2 * FIELD_BITS, odd >> 2 * FIELD_BITS)
    width = len(MAKER_COUNT_NAMES)
    side, _other = side_counts(fields[:width], fields[_MAKER_FIELDS : _MAKER_FIELDS + width])
    own = fields[2 * _MAKER_FIELDS : 2 * _MAKER_FIELDS + len(CALLER_COLUMNS) * PER_SUM]
    return SeatSums(
        who,
        games,
        wins,
        losses,
        games - wins - losses,
        points_for,
        points_against,
        side[:SEAT_SIDE_FIELDS],
        caller_hand_counts(own or _NO_CALLS),
    )


def shares_in_played_order(season: Season) -> list[tuple]:
    """Every stored share of the season, as rows of ``_RETURNED``, in played order."""
    return list(_in_played_order(season).values_list(*_RETURNED))


def meetings_played_from(season: Season, game_ids: Iterable[int]) -> list[tuple] | None:
    """The stored shares of the season played from the first of ``game_ids`` (games whose shares
    are stored) on, as meetings in played order: those games and every game played after the
    first of them (a share without a finishing time among them, wherever the database sorts it).
    ``None`` when the first of them in played order has none (where a database sorts the games
    without a finishing time first). Two range reads of the index
    ``standing_game_played``: a handful of rows when the games were just played."""
    first = (
        _stored(season, game_ids)
        .order_by("finished_at", "game_id")
        .values_list("finished_at", flat=True)
        .first()
    )
    if first is None:
        return None
    played_from = Q(finished_at__gte=first) | Q(finished_at__isnull=True)
    return _meetings(_stored(season, None).filter(played_from))


def _in_played_order(season: Season):
    return StandingGame.objects.filter(season=season).order_by("finished_at", "game_id")
