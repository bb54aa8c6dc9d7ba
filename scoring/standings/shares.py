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
from scoring.hand_counts import CALLER_COLUMNS, MAKER_COLUMNS, PER_SUM
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
    64-bit integers as ``numeric``, slower to store and to read back."""
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
    """The games of the season's stored shares in played order (finished first first, then by
    id): the order the ratings are replayed in."""
    return list(_in_played_order(season).values_list("game_id", flat=True))


def shares_in_played_order(season: Season) -> list[tuple]:
    """Every stored share of the season, as rows of ``_RETURNED``, in played order."""
    return list(_in_played_order(season).values_list(*_RETURNED))


def latest_game_ids(season: Season, count: int) -> list[int]:
    """The games of the season's ``count`` stored shares played last, in played order."""
    if count <= 0:
        return []
    latest = StandingGame.objects.filter(season=season).order_by("-finished_at", "-game_id")
    return list(reversed(latest.values_list("game_id", flat=True)[:count]))


def _in_played_order(season: Season):
    return StandingGame.objects.filter(season=season).order_by("finished_at", "game_id")
