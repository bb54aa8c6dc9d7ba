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
"""

from __future__ import annotations

import struct
from collections.abc import Iterable
from typing import Any

from django.db import connection
from django.db.models import BigIntegerField, Count, F, FilteredRelation, Min, Q, Sum
from django.db.models.functions import Cast

from league.models import Season
from scoring.games.domain.counts import MAKER_COUNT_NAMES
from scoring.games.hand_counts import (
    CALLER_COLUMNS,
    FIELD_BITS,
    MAKER_COLUMNS,
    PER_SUM,
    caller_hand_counts,
)
from scoring.games.models import Game, Hand
from scoring.standings.domain.season_totals import (
    NOTHING_COUNTED,
    SEAT_SIDE_FIELDS,
    Counted,
    GameShare,
    SeatSums,
)
from scoring.standings.domain.stats import side_counts
from scoring.standings.models import StandingGame

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
    """The season's ranked games: finished, counting for the standings, not of an archived night,
    and in a team season between two teams (a friendly between players of a team season does not
    rank teams)."""
    games = Game.objects.filter(
        Q(night__isnull=True) | Q(night__archived_at__isnull=True),
        season=season,
        status=Game.Status.FINISHED,
        counts_for_standings=True,
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
    (:func:`shares_counted`; no old rows when recounting every game: the fold starts from
    empty). Call inside the transaction that stores the snapshot."""
    old = NOTHING_COUNTED
    if game_ids is not None:
        game_ids = list(game_ids)
        if not game_ids:
            return NOTHING_COUNTED, NOTHING_COUNTED
        old = shares_counted(season, game_ids)
    table = StandingGame._meta.db_table
    columns = ", ".join(_SHARE_COLUMNS)
    select, params = _share_query(season, game_ids).query.sql_with_params()
    same = " AND ".join(_same(column) for column in _SHARE_COLUMNS)
    update = ", ".join(f"{column} = excluded.{column}" for column in _SHARE_COLUMNS)
    with connection.cursor() as cursor:
        # Unchanged shares are left as they are: a recompute from scratch after a rules change
        # writes none of a large season's hundred thousand, and leaves no dead rows behind.
        cursor.execute(
            f"WITH counted ({columns}) AS ({select}) "
            f"INSERT INTO {table} ({columns}) SELECT {columns} FROM counted "
            f"WHERE NOT EXISTS (SELECT 1 FROM {table} stored "
            f"WHERE stored.game_id = counted.game_id AND {same}) "
            f"ON CONFLICT (game_id) DO UPDATE SET {update}",
            params,
        )
    ranked = ranked_games(season)
    if game_ids is not None:
        ranked = ranked.filter(pk__in=game_ids)
    _stored(season, game_ids).exclude(game_id__in=ranked.values("pk")).delete()
    return old, shares_counted(season, game_ids)


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
    stored = _stored(season, game_ids)
    seats = [_side_sums(stored, f"seat_{seat}_id", seat % 2, seat) for seat in range(4)]
    players = [_seat_sums(row) for row in seats[0].union(*seats[1:], all=True)]
    teams: list[SeatSums] = []
    if season.format == Season.Format.TEAMS:
        sides = [_side_sums(stored, f"team_{side}_id", index) for index, side in enumerate("ab")]
        teams = [_seat_sums(row) for row in sides[0].union(sides[1], all=True)]
    return Counted(players, teams, _meetings(stored))


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


def _side_sums(stored, who: str, side: int, seat: int | None = None):
    """The seat sums of the players in seat ``seat`` (or of the teams on ``side``, 0 for A and 1
    for B, with ``seat`` ``None``): per player (``who`` the column that names them), the games,
    wins, losses, points for and against, and the packed counts of their side as makers, of the
    other side as makers and of themselves as caller, spread out (``_SPREAD``)."""
    own, other = ("a", "b") if side == 0 else ("b", "a")
    packed = [f"{own}{index}" for index in range(len(MAKER_COLUMNS))]
    packed += [f"{other}{index}" for index in range(len(MAKER_COLUMNS))]
    if seat is not None:
        packed += [f"c{seat * len(CALLER_COLUMNS) + index}" for index in range(len(CALLER_COLUMNS))]
    sums: dict[str, Any] = {}
    for index, column in enumerate(packed):
        sums[f"s_{index}_even"] = _bigint(Sum(F(column).bitand(_SPREAD)))
        sums[f"s_{index}_odd"] = _bigint(Sum(F(column).bitrightshift(FIELD_BITS).bitand(_SPREAD)))
    won, lost = ("A", "B") if side == 0 else ("B", "A")
    return (
        stored.values(who=F(who))
        .annotate(
            s_games=Count("pk"),
            s_wins=Count("pk", filter=Q(winner=won)),
            s_losses=Count("pk", filter=Q(winner=lost)),
            s_for=Sum(f"score_{own}"),
            s_against=Sum(f"score_{other}"),
            **sums,
        )
        .values_list("who", "s_games", "s_wins", "s_losses", "s_for", "s_against", *sums)
    )


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


def latest_game_ids(season: Season, count: int) -> list[int]:
    """The games of the season's ``count`` stored shares played last, in played order."""
    if count <= 0:
        return []
    latest = StandingGame.objects.filter(season=season).order_by("-finished_at", "-game_id")
    return list(reversed(latest.values_list("game_id", flat=True)[:count]))


def _in_played_order(season: Season):
    return StandingGame.objects.filter(season=season).order_by("finished_at", "game_id")
