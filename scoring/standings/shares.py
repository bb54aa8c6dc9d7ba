"""Each ranked game's share of its season's snapshot (``scoring.domain.season_totals.GameShare``),
counted by the database and kept in ``StandingGame`` rows.

- *packed counts*: a game's hands are counted per side as makers (``MAKER_COUNT_NAMES``) and per
  caller's seat (``SEAT_COUNT_NAMES``), each count a 16-bit field of a 64-bit sum, four to a
  sum: one ``GROUP BY`` with a handful of sums instead of a filtered count per count and side,
  so a large season's million hands never reach Python. Each hand's own packed counts are
  stored on its row (``scoring.hand_counts``), so the ``GROUP BY`` only adds them up. A game has
  at most 32,767 current hands (their numbers are small integers, one current hand a number),
  so no field carries.
- *stored shares*: the ``StandingGame`` rows are the shares the stored snapshot counted. A
  recompute replaces the rows of the games it recounts in its own transaction, reading the old
  ones as it deletes them (``DELETE ... RETURNING``) and the new ones as it inserts them
  (``INSERT ... SELECT ... RETURNING``, the counting done inside the database), on PostgreSQL
  and SQLite alike.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable
from typing import Any

from django.db import connection
from django.db.models import BigIntegerField, F, FilteredRelation, Min, Q, Sum
from django.db.models.functions import Cast

from league.models import Season
from scoring.domain.season_totals import GameShare
from scoring.domain.stats import MAKER_COUNT_NAMES, side_counts
from scoring.hand_counts import CALLER_COLUMNS, FIELD_BITS, MAKER_COLUMNS, PER_SUM
from scoring.models import Game, Hand, StandingGame

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
_GAME_FIELDS = ("season_id", "id", "finished_at", *_RESULT)
_SHARE_COLUMNS = ("season_id", "game_id", "finished_at", *_RESULT, *_SUMS)


def ranked_games(season: Season):
    """The season's ranked games: finished, counting for the standings, and in a team season
    between two teams (a friendly between players of a team season does not rank teams)."""
    games = Game.objects.filter(
        season=season, status=Game.Status.FINISHED, counts_for_standings=True
    )
    if season.format == Season.Format.TEAMS:
        games = games.filter(team_a__isnull=False, team_b__isnull=False)
    return games


def _share_query(season: Season, game_ids: Iterable[int] | None):
    """The shares of the season's ranked games (of ``game_ids`` only, unless ``None``) as rows
    of ``_SHARE_COLUMNS``: each game left-joined to its counted hands (current, not misdealt,
    not thrown in), which are packed and summed."""
    games = ranked_games(season)
    if game_ids is not None:
        games = games.filter(pk__in=list(game_ids))
    counted = FilteredRelation(
        "hands",
        condition=Q(hands__status=Hand.Status.ACTIVE, hands__misdeal=False, hands__thrown_in=False),
    )
    sums: dict[str, Any] = {}
    for side in ("A", "B"):  # each hand's maker counts go to its makers' sums
        for index, column in enumerate(MAKER_COLUMNS):
            sums[f"s_{side.lower()}{index}"] = _bigint(
                Sum(f"counted__{column}", filter=Q(counted__makers=side), default=0)
            )
    for seat in range(4):  # and its caller counts to its caller's
        for index, column in enumerate(CALLER_COLUMNS):
            sums[f"s_c{seat * 2 + index}"] = _bigint(
                Sum(
                    f"counted__{column}",
                    filter=Q(counted__caller_id=F(f"seat_{seat}_id")),
                    default=0,
                )
            )
    return (
        games.order_by()
        .annotate(counted=counted)
        .values("pk")
        .annotate(s_first_number=Min("counted__number"), **sums)
        .values_list(*_GAME_FIELDS, "s_first_number", *sums)
    )


def _bigint(total: Sum) -> Cast:
    """A packed sum as a 64-bit integer, which it always is (see *packed counts*): PostgreSQL sums
    64-bit integers as ``numeric``, slow to compare and to add up again (``shares_insert_all``
    compares every share with the stored one and sums them all per seat)."""
    return Cast(total, BigIntegerField())


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
            calls, made, marches, tried, loners_made, marched, suffered, reneges = own
            alone.append(
                (
                    seats[seat],
                    (0, calls, made, marches, tried, loners_made, marched, suffered, 0, reneges),
                )
            )
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


def shares_replace(
    season: Season, game_ids: Iterable[int] | None
) -> tuple[list[tuple], list[tuple]]:
    """Recount the shares of ``game_ids`` (every game of the season with ``None``): delete their
    stored rows and insert their rows as the games stand now; return both, old (none when
    recounting every game) and new, as rows of ``_RETURNED``. Call inside the transaction that
    stores the snapshot."""
    table = StandingGame._meta.db_table
    columns, returned = ", ".join(_SHARE_COLUMNS), ", ".join(_RETURNED)
    where, params = "season_id = %s", [season.pk]
    if game_ids is not None:
        game_ids = list(game_ids)
        if not game_ids:
            return [], []
        where += f" AND game_id IN ({', '.join(['%s'] * len(game_ids))})"
        params += game_ids
    select, select_params = _share_query(season, game_ids).query.sql_with_params()
    with connection.cursor() as cursor:
        if game_ids is None:  # from scratch: the old shares are not needed
            cursor.execute(f"DELETE FROM {table} WHERE {where}", params)
            old = []
        else:
            cursor.execute(f"DELETE FROM {table} WHERE {where} RETURNING {returned}", params)
            old = cursor.fetchall()
        cursor.execute(
            f"INSERT INTO {table} ({columns}) {select} RETURNING {returned}", select_params
        )
        new = cursor.fetchall()
    return old, new


def played_order(season: Season) -> list[int]:
    """The season's ranked games in played order (finished first first, then by id)."""
    return list(ranked_games(season).order_by("finished_at", "pk").values_list("pk", flat=True))


def stored_shares(season: Season) -> list[tuple]:
    """Every stored share of the season, as rows of ``_RETURNED``."""
    return list(StandingGame.objects.filter(season=season).values_list(*_RETURNED))


# --------------------------------------------------------------------------------------------
# A recompute from scratch on PostgreSQL: the shares summed per seat by the database
# --------------------------------------------------------------------------------------------

GAME_RETURNED = (
    "game_id",
    "(EXTRACT(EPOCH FROM finished_at) * 1000000)::bigint",  # exact, and an int loads fast
    *_RESULT,
)
"""What :func:`shares_insert_all` reads back of each share: its game's finishing time (in
microseconds since 1970), seats and result."""

_SPREAD = 0x0000FFFF0000FFFF
"""Two of a packed sum's four 16-bit fields, 32 bits apart: a packed sum masked with it (the
fields 0 and 2) or shifted by 16 and masked (1 and 3) adds up over 131,071 games of 32,767 hands
without a field carrying into the next."""
SUM_MOST_GAMES = 65535
"""The most games the seat sums add up in one group (of one entrant in one seat): its
spread sums stay 64-bit integers and never carry."""


def shares_insert_all(season: Season, *, teams: bool) -> tuple[list, list, list]:
    """Recount every game's share and store them (as ``shares_replace(season, None)`` does);
    return each game's seats and result (rows of ``GAME_RETURNED``) and the shares summed per
    player and, with ``teams``, per team and night (the seat sums of :func:`_seat_selects`; per
    player and night in an individual season).

    One statement: it compares the shares as counted with those stored (one join), writes only
    those that differ (after a change of the standing rules none may: nothing is written) and
    deletes those of games no longer ranked; and it sums the shares as it counted them, which
    are exactly those stored. Shares that did not change are neither written nor locked, so the
    caller must keep other recomputes of the season from writing shares meanwhile
    (``scoring.standings.one_fold_at_a_time``)."""
    table = StandingGame._meta.db_table
    columns, returned = ", ".join(_SHARE_COLUMNS), ", ".join(GAME_RETURNED)
    changed = ", ".join(f"{column} = EXCLUDED.{column}" for column in _SHARE_COLUMNS)
    old = ", ".join(f"o.{column}" for column in _SHARE_COLUMNS)
    new = ", ".join(f"f.{column}" for column in _SHARE_COLUMNS)
    select, select_params = _share_query(season, None).query.sql_with_params()
    width = len(GAME_RETURNED)
    sums = 23  # columns of a row of seat sums
    parts = [f"SELECT 0, {returned}, {', '.join(['NULL::bigint'] * sums)} FROM fresh"]
    for part, (of_teams, nights) in enumerate(((False, not teams), (True, True))[: 1 + teams]):
        parts += [
            f"SELECT {1 + part}, {', '.join(['NULL'] * width)}, sums.* FROM ({select}) AS sums"
            for select in _seat_selects("fresh", teams=of_teams, nights=nights)
        ]
    with connection.cursor() as cursor:
        # Compiling the statement's many expressions would take longer than running them.
        cursor.execute("SET LOCAL jit = off")
        cursor.execute(
            f"WITH fresh ({columns}) AS MATERIALIZED ({select}), "
            f"diff AS MATERIALIZED (SELECT o.game_id AS old_game_id, "
            f"f.game_id IS NOT NULL AS counted, f.* FROM fresh f FULL JOIN "
            f"(SELECT {columns} FROM {table} WHERE season_id = %s) o ON o.game_id = f.game_id "
            f"WHERE f.game_id IS NULL OR o.game_id IS NULL OR ({old}) IS DISTINCT FROM ({new})), "
            f"gone AS (DELETE FROM {table} WHERE game_id IN "
            f"(SELECT old_game_id FROM diff WHERE NOT counted)), "
            f"stored AS (INSERT INTO {table} ({columns}) SELECT {columns} FROM diff WHERE counted "
            f"ON CONFLICT (game_id) DO UPDATE SET {changed}) " + " UNION ALL ".join(parts),
            [*select_params, season.pk],
        )
        rows = cursor.fetchall()
    found: tuple[list, list, list] = ([], [], [])
    for row in rows:
        found[row[0]].append(row[1 : 1 + width] if row[0] == 0 else row[1 + width :])
    return found


def _spread_sums(columns: Iterable[str]) -> list[str]:
    """Two spread sums per packed column; ``NULL`` for a group of more than ``SUM_MOST_GAMES``
    games (whose sums might carry or overflow)."""
    return [
        f"CASE WHEN COUNT(*) <= {SUM_MOST_GAMES} THEN SUM({expression} & {_SPREAD})::bigint END"
        for column in columns
        for expression in (f"{column}::bigint", f"({column}::bigint >> {FIELD_BITS})")
    ]


def _seat_selects(source: str, *, teams: bool, nights: bool) -> list[str]:
    """SELECTs, one per seat (per side), summing the shares in ``source`` per player (per team
    with ``teams``), and with ``nights`` per entrant and night as well. Their rows (*seat sums*):
    the entrant, the night, games, wins, losses, draws, points for and against, then packed
    sums, each as two spread sums (fields 0 and 2, then 1 and 3): the entrant's side's sums 0, 1
    and 2 as makers, the other side's 0 and 3, and for a player their own as caller (their
    seat's two; ``None`` for a team); last, 1 for an entrant's row over all nights, 0 for its
    row of one night. An entrant has rows for each seat (side) it sat in. The spread sums of a
    group of over ``SUM_MOST_GAMES`` games are ``None``."""
    if teams:
        slots = [("team_a_id", "a", "b", ()), ("team_b_id", "b", "a", ())]
    else:
        slots = [
            (
                f"seat_{seat}_id",
                *("ab" if seat % 2 == 0 else "ba"),
                (f"c{2 * seat}", f"c{2 * seat + 1}"),
            )
            for seat in range(4)
        ]
    selects = []
    for entrant, side, other, own in slots:
        packed = (f"{side}0", f"{side}1", f"{side}2", f"{other}0", f"{other}3", *own)
        winner, loser = side.upper(), other.upper()
        if nights:
            night, grouping = "night_id", f"GROUPING SETS (({entrant}), ({entrant}, night_id))"
        else:
            night, grouping = "NULL::bigint", entrant
        sums = _spread_sums(packed) + ["NULL::bigint"] * (4 - 2 * len(own))
        selects.append(
            f"SELECT {entrant}, {night}, COUNT(*), "
            f"COUNT(*) FILTER (WHERE winner = '{winner}'), "
            f"COUNT(*) FILTER (WHERE winner = '{loser}'), "
            f"COUNT(*) FILTER (WHERE winner NOT IN ('A', 'B')), "
            f"SUM(score_{side})::bigint, SUM(score_{other})::bigint, "
            + ", ".join(sums)
            + (", GROUPING(night_id)" if nights else ", 1")
            + f" FROM {source} WHERE {entrant} IS NOT NULL GROUP BY {grouping}"
        )
    return selects


def spread_fields(even: int, odd: int) -> tuple[int, int, int, int]:
    """The four fields of a packed sum from its two spread sums."""
    return even & 0xFFFFFFFF, odd & 0xFFFFFFFF, even >> 32, odd >> 32
