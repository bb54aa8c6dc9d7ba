"""A snapshot's values, worked out from scratch or from the stored one and the games that changed.

- *base*: the stored snapshot a recompute goes on from: its standings rows (each entrant's
  record and Buchholz), ratings, nights, its per-entrant stats lines and the shares of the games
  it counted (``StandingGame``, see :mod:`scoring.standings.shares`).
- *basis*: what a snapshot was ranked under (the rulebook, the standing rules, the format).
  A base ranked under another basis is not gone on from: a rulebook or standing-rules change
  recomputes from scratch.
- *incremental recompute*: the changed games' old shares are taken out of the base's running
  totals and their new shares put in (:mod:`scoring.domain.season_totals`); only the lines of
  the players and teams they touch are read and rendered again. Ratings go on from the stored
  ones when the changed games are new and played after every other game; otherwise they are
  replayed from the stored shares in played order.

Call these inside the transaction that stores the snapshot: they replace the changed games'
stored shares.
"""

from __future__ import annotations

from array import array
from collections import OrderedDict
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from django.db import connection
from django.db.models import Q
from django.db.models.expressions import RawSQL

import scoring.standings.shares as stored_shares
from league.models import Player, Season, Team
from scoring.domain.ratings import RatingSettings, RatingState, rating_rows, ratings_after
from scoring.domain.season_sums import (
    PairCounts,
    buchholz_sums,
    meet,
    player_line_text,
    stats_digest,
    team_line_text,
)
from scoring.domain.season_totals import _LINE, GameShare, SeasonTotals, buchholz_changes
from scoring.domain.standings import GameRecord, SideTally, compute_standings
from scoring.models import StandingLine, StandingSnapshot

KIND = StandingLine.Kind


def basis_of(season: Season) -> dict[str, Any]:
    """What the season's snapshot is ranked under (see the module docstring)."""
    return {
        "rulebook": season.rulebook_id,
        "rules": season.standing_rules or {},
        "format": season.format,
    }


class LineText:
    """A stats line known by its digest (``stats_digest``), rendered as the JSON text
    ``json.dumps`` makes of it only when it is written."""

    __slots__ = ("digest", "render")

    def __init__(self, digest: str, render: Callable[[], str]) -> None:
        self.digest, self.render = digest, render


@dataclass
class Computed:
    """A recompute's result: the snapshot's values and the per-entrant lines to write (``None``
    data: the line is gone; a :class:`LineText`: the line's data as JSON text), the only store
    of each player's and team's stats.
    ``complete`` says the lines of every entrant are given (a recompute from scratch)."""

    values: dict[str, Any]
    lines: dict[tuple[str, int], dict[str, Any] | None] = field(default_factory=dict)
    complete: bool = False
    incremental: bool = False


def snapshot_values(
    season: Season,
    rules,
    *,
    base: StandingSnapshot | None = None,
    changed_game_ids: Iterable[int] | None = None,
) -> Computed:
    """The season's snapshot values: from ``base`` and the games of ``changed_game_ids`` when it
    can (same basis, every night counted), else from scratch. Replaces the stored shares of the
    games it counts; call it in the transaction that stores the result."""
    basis = basis_of(season)
    if (
        base is not None
        and changed_game_ids is not None
        and base.basis == basis
        and rules.count_best_nights is None
    ):
        return _incremental(season, rules, base, set(changed_game_ids), basis)
    return _from_scratch(season, rules, basis)


# --------------------------------------------------------------------------------------------
# From scratch
# --------------------------------------------------------------------------------------------


def _from_scratch(season: Season, rules, basis: dict[str, Any]) -> Computed:
    if connection.vendor == "postgresql" and rules.count_best_nights is None:
        computed = _from_scratch_summed(season, rules, basis)
        if computed is not None:
            return computed
    is_teams = season.format == Season.Format.TEAMS
    _old, rows = stored_shares.shares_replace(season, None)
    shares = {row[0]: stored_shares.share_of(row, is_teams=is_teams) for row in rows}
    order = stored_shares.played_order(season)
    totals = SeasonTotals(is_teams=is_teams)
    for share in shares.values():
        totals.add(share)
    names = _names(season, totals.records, is_teams=is_teams)
    entrants = _entrants(season, names, totals)
    if rules.count_best_nights is None:
        buchholz = {entrant: totals.buchholz_of(entrant) for entrant in totals.records}
        standings = totals.standings(rules, entrants=entrants, names=names, buchholz=buchholz)
    else:  # best nights need each night's meetings: rank the games themselves
        records = [_game_record(shares[game_id], order) for game_id, order in _orders(order)]
        standings = compute_standings(records, rules, entrants=entrants, names=names)
    ratings = [
        rating.to_dict() for rating in ratings_after(_rated(shares[game_id]) for game_id in order)
    ]
    computed = _complete(standings, ratings, totals.nights_part(), basis)
    lines = computed.lines
    for player in sorted(totals.players):
        lines[KIND.PLAYER, player] = totals.player_line(player)
    for team in sorted(totals.teams):
        lines[KIND.TEAM, team] = totals.team_line(team)
    return computed


def _complete(standings, ratings: list[dict], nights: dict, basis: dict[str, Any]) -> Computed:
    """A recompute from scratch's result with its standing and rating lines (its stats lines
    are the caller's to add)."""
    computed = Computed(
        values={
            "standings": standings.to_dict(),
            "ratings": ratings,
            "nights": nights,
            "basis": basis,
        },
        complete=True,
    )
    for row in computed.values["standings"]["rows"]:
        computed.lines[KIND.STANDING, row["entrant"]] = row
    for rating in ratings:
        computed.lines[KIND.RATING, rating["player_id"]] = rating
    return computed


def _from_scratch_summed(season: Season, rules, basis: dict[str, Any]) -> Computed | None:
    """The snapshot from scratch, summed by PostgreSQL: each game's share counted as
    :func:`_from_scratch` counts it and, in the same statement, the shares' hand counts and
    results summed per seat (``shares_insert_all``), so no share is unpacked in Python; pairs
    and Buchholz are counted over the games' seat columns and the stats lines rendered as JSON
    text only when changed (:mod:`scoring.domain.season_sums`); ratings as ever, game by game in
    played order.
    Stores exactly what :func:`_from_scratch` stores. ``None`` (nothing computed, the shares
    recounted) when an entrant has more games than the sums take.

    Ratings and pairs need only the games' seats and results: they are worked out in a thread
    from the games as read first, while the database counts and sums the shares (the thread
    holds the interpreter only while this one waits on the database). The shares read back the
    games they counted; should a game have changed in between, those are counted again."""
    is_teams = season.format == Season.Format.TEAMS
    with ThreadPoolExecutor(max_workers=1) as pool:
        counting = pool.submit(_GamesPart, _ranked_rows(season), is_teams=is_teams)
        games, player_rows, team_rows = stored_shares.shares_insert_all(season, teams=is_teams)
        games.sort(key=_played)
        part = counting.result()
    if part.games != games:  # a game changed after it was first read: count the stored ones
        part = _GamesPart(games, is_teams=is_teams)
    if any(row[8] is None for rows in (player_rows, team_rows) for row in rows):
        return None  # an entrant with too many games for the sums: fold them instead
    players, teams = part.players, part.teams
    lines = {player: [0] * _LINE for player in players}
    records: dict[int, list[int]] = {}
    nights: dict[int, dict[int, list[int]]] = {}
    for row in player_rows:
        if row[-1]:
            _add_player_sums(lines[row[0]], row, None if is_teams else records)
        else:
            _add_night(row, nights)
    team_lines = {team: [0] * _LINE for team in teams}
    for row in team_rows:
        if row[-1]:
            _add_team_sums(team_lines[row[0]], row, records)
        else:
            _add_night(row, nights)
    ratings, player_pairs, player_opponents = part.ratings, part.partners, part.opponents
    index, sides, opponents = part.index, part.sides, part.opponents
    if is_teams:
        index, sides, opponents = part.team_index, part.team_sides, part.team_opponents
    entrants_by_index = teams if is_teams else players
    scores = [2 * records[entrant][1] + records[entrant][3] for entrant in entrants_by_index]
    doubled = buchholz_sums(len(entrants_by_index), sides, scores)
    size = 2 if is_teams else 4  # twice the side size
    buchholz = {entrant: doubled[index[entrant]] / size for entrant in entrants_by_index}

    totals = SeasonTotals(is_teams=is_teams)
    totals.records, totals.nights = records, nights
    names = _names(season, totals.records, is_teams=is_teams)
    entrants = _entrants(season, names, totals)
    standings = totals.standings(
        rules,
        entrants=entrants,
        names=names,
        buchholz=buchholz,
        results_against=lambda entrant: (
            opponents.records_of(index[entrant]) if entrant in index else {}
        ),
    )
    computed = _complete(standings, ratings, totals.nights_part(), basis)
    out = computed.lines
    for position, player in enumerate(players):
        out[KIND.PLAYER, player] = LineText(
            stats_digest(
                lines[player],
                player_pairs.columns_of(position),
                player_opponents.columns_of(position),
            ),
            partial(_player_text, player, lines[player], player_pairs, player_opponents, position),
        )
    for position, team in enumerate(teams):
        out[KIND.TEAM, team] = LineText(
            stats_digest(team_lines[team], opponents.columns_of(position)),
            partial(_team_text, team, team_lines[team], opponents, position),
        )
    return computed


def _played(row: tuple) -> tuple:
    """Played order, as ``played_order()`` has PostgreSQL give it: by finishing time (none
    last), then by id (rows of ``GAME_RETURNED``)."""
    return (row[1] is None, row[1], row[0])


def _ranked_rows(season: Season) -> list[tuple]:
    """The season's ranked games as rows of ``GAME_RETURNED``, in played order."""
    rows = list(
        stored_shares.ranked_games(season)
        .order_by()
        .annotate(finished=RawSQL(stored_shares.GAME_RETURNED[1], ()))
        .values_list("pk", "finished", *stored_shares.GAME_RETURNED[2:])
    )
    rows.sort(key=_played)
    return rows


class _GamesPart:
    """What a recompute from scratch counts from the games alone (``games``: rows of
    ``GAME_RETURNED`` in played order): the ratings, and each player's (and team's) pair counts
    over the seat columns, ready to render."""

    def __init__(self, games: list[tuple], *, is_teams: bool) -> None:
        self.games = games
        sides = (((row[2], row[4]), (row[3], row[5]), row[10] or None, False) for row in games)
        self.ratings = [rating.to_dict() for rating in ratings_after(sides)]
        winners = [row[10] for row in games]
        self.results = (
            [0 if winner == "A" else 1 if winner == "B" else 2 for winner in winners],
            [0 if winner == "B" else 1 if winner == "A" else 2 for winner in winners],
        )
        seats = [[row[2 + seat] for row in games] for seat in range(4)]
        self.players = sorted(set().union(*seats))
        self.index, columns = self._columns(self.players, seats)
        self.sides = ((columns[0], columns[2]), (columns[1], columns[3]))
        self.partners, self.opponents = PairCounts(self.players), PairCounts(self.players)
        meet(self.opponents, self.sides, self.results, partners=self.partners)
        self.partners.columns()
        self.opponents.columns()
        self.teams: list[int] = []
        if is_teams:
            sides = [[row[6 + side] for row in games] for side in (0, 1)]
            self.teams = sorted(set().union(*sides))
            self.team_index, columns = self._columns(self.teams, sides)
            self.team_sides = ((columns[0],), (columns[1],))
            self.team_opponents = PairCounts(self.teams)
            meet(self.team_opponents, self.team_sides, self.results)
            self.team_opponents.columns()

    @staticmethod
    def _columns(ids: list[int], columns: list[list[int]]):
        index = {entrant: position for position, entrant in enumerate(ids)}
        return index, [list(map(index.__getitem__, column)) for column in columns]


def _player_text(player, line, partners: PairCounts, opponents: PairCounts, position) -> str:
    return player_line_text(player, line, partners.text_of(position), opponents.text_of(position))


def _team_text(team, line, opponents: PairCounts, position) -> str:
    return team_line_text(team, line, opponents.text_of(position))


def _side_sums(row: tuple) -> tuple[int, ...]:
    """A row of seat sums: the counts of its side and of the other side as makers, in the
    order of ``_SIDE_SUMS``."""
    spread = stored_shares.spread_fields
    calls, made, marches, euchres = spread(row[8], row[9])
    _outcomes, tried, lone_made, lone_marched = spread(row[10], row[11])
    solo_marches, solo_euchres, own_reneges, solo_own_reneges = spread(row[12], row[13])
    other_calls, _made, _marches, other_euchres = spread(row[14], row[15])
    return (
        calls, made, marches, euchres, tried, lone_made, lone_marched, solo_marches,
        solo_euchres, own_reneges, solo_own_reneges, other_calls, other_euchres,
        row[16] & 0xFFFFFFFF,  # the other side's reneges when defending
    )  # fmt: skip


(
    _CALLS, _MADE, _MARCHES, _EUCHRES, _TRIED, _LONE_MADE, _LONE_MARCHED, _SOLO_MARCHES,
    _SOLO_EUCHRES, _OWN_RENEGES, _SOLO_OWN_RENEGES, _OTHER_CALLS, _OTHER_EUCHRES, _THEIR_RENEGES,
) = range(14)  # fmt: skip


def _add_record(row: tuple, counts: tuple[int, ...], records: dict) -> None:
    """Add a seat sums row over all nights to its entrant's record."""
    record = records.get(row[0])
    if record is None:
        record = records[row[0]] = [0] * 9
    for position, value in enumerate(
        (*row[2:8], counts[_MARCHES], counts[_LONE_MADE], counts[_OTHER_EUCHRES])
    ):
        record[position] += value


def _add_night(row: tuple, nights: dict) -> None:
    """Add a seat sums row of one night to its entrant's line of that night."""
    entrant, night, games, wins, _losses, _draws, points_for = row[:7]
    if night is not None:
        line = nights.setdefault(night, {}).setdefault(entrant, [0, 0, 0])
        line[0] += games
        line[1] += wins
        line[2] += points_for


def _add_line(line: list, row: tuple, hand_counts: tuple[int, ...]) -> None:
    """Add a seat sums row's games and ``hand_counts`` to a stats line."""
    for position, value in zip((0, 1, 2, 3, 6, 7), row[2:8], strict=True):
        line[position] += value
    for position, value in enumerate(hand_counts, start=8):
        line[position] += value


def _add_player_sums(line: list, row: tuple, records: dict | None) -> None:
    """Add a seat sums row of a player over all nights to their stats line (as
    ``SeasonTotals`` keeps it) and, in an individual season (``records`` given), their record."""
    counts = _side_sums(row)
    spread = stored_shares.spread_fields
    calls, made, marches, tried = spread(row[18], row[19])  # their own, as caller
    lone_made, lone_marched, suffered, reneges = spread(row[20], row[21])
    _add_line(
        line,
        row,
        (
            counts[_CALLS] + counts[_OTHER_CALLS],  # hands
            calls,
            made,
            counts[_MARCHES] - counts[_SOLO_MARCHES] + marches,
            tried,
            lone_made,
            lone_marched,
            counts[_EUCHRES] - counts[_SOLO_EUCHRES] + suffered,
            counts[_OTHER_EUCHRES],
            counts[_OWN_RENEGES] - counts[_SOLO_OWN_RENEGES] + counts[_THEIR_RENEGES] + reneges,
        ),
    )
    if records is not None:
        _add_record(row, counts, records)


def _add_team_sums(line: list, row: tuple, records: dict) -> None:
    """Add a seat sums row of a team over all nights to its stats line and record."""
    counts = _side_sums(row)
    _add_line(
        line,
        row,
        (
            counts[_CALLS] + counts[_OTHER_CALLS],  # hands
            counts[_CALLS],
            counts[_MADE],
            counts[_MARCHES],
            counts[_TRIED],
            counts[_LONE_MADE],
            counts[_LONE_MARCHED],
            counts[_EUCHRES],
            counts[_OTHER_EUCHRES],
            counts[_OWN_RENEGES] + counts[_THEIR_RENEGES],
        ),
    )
    _add_record(row, counts, records)


def _orders(order: list[int]) -> Iterable[tuple[int, int]]:
    return ((game_id, position) for position, game_id in enumerate(order))


def _rated(share: GameShare) -> tuple[tuple[int, int], tuple[int, int], str | None, bool]:
    seats = share.seats
    return (seats[0], seats[2]), (seats[1], seats[3]), share.winner, False


def _game_record(share: GameShare, order: int) -> GameRecord:
    """A share as the standings engine's game record (tallies from its side counts)."""
    side_a, side_b = share.sides()
    tallies = [SideTally(), SideTally()]
    if share.side_a is not None and share.side_a[-1]:  # some outcome known
        tallies = [
            SideTally(counts[3], counts[5], counts[8]) for counts in (share.side_a, share.side_b)
        ]
    seats = share.seats
    return GameRecord(
        game_id=share.game_id,
        side_a=side_a,
        side_b=side_b,
        points_a=share.points_a,
        points_b=share.points_b,
        winner=share.winner,
        night_id=share.night_id,
        played_order=order,
        tally_a=tallies[0],
        tally_b=tallies[1],
        players_a=(seats[0], seats[2]) if share.teams else (),
        players_b=(seats[1], seats[3]) if share.teams else (),
    )


def _names(season: Season, entrants: Iterable[int], *, is_teams: bool) -> dict[int, str]:
    """The names of ``entrants`` (teams, or players: a guest from another league too)."""
    wanted = set(entrants)
    if is_teams:
        return dict(Team.objects.filter(pk__in=list(wanted)).values_list("pk", "name"))
    found = dict(Player.objects.filter(league_id=season.league_id).values_list("pk", "name"))
    missing = [pk for pk in wanted if pk not in found]
    if missing:
        found.update(Player.objects.filter(pk__in=missing).values_list("pk", "name"))
    return {pk: found[pk] for pk in wanted}


def _entrants(season: Season, names: dict[int, str], totals: SeasonTotals) -> list[int]:
    """Who is ranked: in a team season every team not withdrawn (named in ``names``), and in
    any season whoever has a game."""
    if season.format == Season.Format.TEAMS:
        teams = list(season.teams.filter(is_withdrawn=False).values_list("pk", "name"))
        names.update(dict(teams))
        return [pk for pk, _name in teams]
    return list(totals.records)


# --------------------------------------------------------------------------------------------
# From the base and the changed games
# --------------------------------------------------------------------------------------------


def _lines_of(season: Season, kind: str, entrants: Iterable[int] | None = None) -> list[dict]:
    lines = StandingLine.objects.filter(season=season, kind=kind)
    if entrants is not None:
        lines = lines.filter(entrant_id__in=list(entrants))
    return list(lines.values_list("data", flat=True))


def _incremental(
    season: Season, rules, base: StandingSnapshot, changed: set[int], basis: dict[str, Any]
) -> Computed:
    is_teams = season.format == Season.Format.TEAMS
    old_rows, new_rows = stored_shares.shares_replace(season, changed)
    old = [stored_shares.share_of(row, is_teams=is_teams) for row in old_rows]
    new = [stored_shares.share_of(row, is_teams=is_teams) for row in new_rows]
    totals = SeasonTotals(is_teams=is_teams)
    players = {player for share in (*old, *new) for player in share.seats}
    teams = {team for share in (*old, *new) for team in (share.teams or ())}
    for data in _lines_of(season, KIND.PLAYER, players):
        totals.load_player(data)
    for data in _lines_of(season, KIND.TEAM, teams):
        totals.load_team(data)
    rows = _lines_of(season, KIND.STANDING)
    stored_buchholz = {}
    for row in rows:
        totals.load_record(row)
        if row["games"]:
            stored_buchholz[row["entrant"]] = row["buchholz"]
    totals.load_nights(base.nights)
    touched = {entrant for share in (*old, *new) for entrant in share.entrants()}
    scores_before = {entrant: totals.score(entrant) for entrant in touched}
    for share in old:
        totals.add(share, -1)
    for share in new:
        totals.add(share)
    buchholz = buchholz_changes(totals, scores_before, stored_buchholz)
    names = _names(season, totals.records, is_teams=is_teams)
    entrants = _entrants(season, names, totals)
    results_against = _OpponentLines(season, totals)
    standings = totals.standings(
        rules, entrants=entrants, names=names, buchholz=buchholz, results_against=results_against
    )
    ratings = _ratings(season, base, old, new, changed)
    computed = Computed(
        values={
            "standings": standings.to_dict(),
            "ratings": [rating.to_dict() for rating in ratings],
            "nights": totals.nights_part(),
            "basis": basis,
        },
        incremental=True,
    )
    lines = computed.lines
    for row in computed.values["standings"]["rows"]:
        lines[KIND.STANDING, row["entrant"]] = row
    for row in rows:
        lines.setdefault((KIND.STANDING, row["entrant"]), None)
    for player in totals.changed_players:
        lines[KIND.PLAYER, player] = totals.player_line(player)
    for team in totals.changed_teams:
        lines[KIND.TEAM, team] = totals.team_line(team)
    for rating in base.ratings:
        lines[KIND.RATING, rating["player_id"]] = None
    for rating in computed.values["ratings"]:
        lines[KIND.RATING, rating["player_id"]] = rating
    return computed


class _OpponentLines:
    """Head-to-head for the incremental standings: an entrant's results against each opponent,
    from the running totals when its line was read (or the changes left it without a game),
    else from its stored stats line, read when a tied group first asks, the whole group in one
    query (a large individual season has a hundred tied groups), or from the records kept from
    an earlier recompute (:data:`_OPPONENTS`) while the line is unchanged."""

    def __init__(self, season: Season, totals: SeasonTotals) -> None:
        self.season, self.totals = season, totals
        is_teams = totals.is_teams
        self.kind = KIND.TEAM if is_teams else KIND.PLAYER
        self.loaded = totals.team_opponents if is_teams else totals.opponents
        self.changed = totals.changed_teams if is_teams else totals.changed_players
        self.read: dict[int, dict[int, tuple[int, int, int]]] = {}

    def prefetch(self, group: Iterable[int]) -> None:
        wanted = [
            entrant
            for entrant in group
            if entrant not in self.loaded and entrant not in self.changed
            and entrant not in self.read
        ]  # fmt: skip
        if not wanted:
            return
        lines = StandingLine.objects.filter(season=self.season, kind=self.kind)
        missing = []
        for entrant, digest in lines.filter(entrant_id__in=wanted).values_list(
            "entrant_id", "digest"
        ):
            kept = _OPPONENTS.get(digest)
            if kept is None:
                missing.append(entrant)
            else:
                self.read[entrant] = kept
        found = lines.filter(entrant_id__in=missing).values_list(
            "entrant_id", "digest", "data__opponents"
        )
        for entrant, digest, opponents in found if missing else ():
            self.read[entrant] = _OPPONENTS.put(digest, opponents or ())
        for entrant in wanted:
            self.read.setdefault(entrant, {})

    def __call__(self, entrant: int) -> dict[int, Any]:
        if entrant in self.loaded or entrant in self.changed:
            return self.loaded.get(entrant, {})
        if entrant not in self.read:
            self.prefetch([entrant])
        return self.read[entrant]


class _OpponentRecords:
    """Stored stats lines' head-to-head records (``other_id: (wins, losses, draws)``) kept in
    the process between recomputes, by the line's digest: a hash of its data, so one digest
    always names the same records. After one game of a large individual season a few hundred
    players tied on win percentage are asked about and four of their lines changed; reading
    and decoding the others' opponent lists again took a third of the incremental recompute.
    Packed (four integers a record) and bounded (least recently used first out)."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity  # records
        self.size = 0
        self.packed: OrderedDict[str, array] = OrderedDict()

    def get(self, digest: str) -> dict[int, tuple[int, int, int]] | None:
        packed = self.packed.get(digest)
        if packed is None:
            return None
        self.packed.move_to_end(digest)
        return _unpacked(packed)

    def put(self, digest: str, opponents: Iterable[dict]) -> dict[int, tuple[int, int, int]]:
        packed = array("q")
        for record in opponents:
            packed.extend((record["other_id"], record["wins"], record["losses"], record["draws"]))
        if digest and digest not in self.packed and len(packed) // 4 <= self.capacity:
            self.packed[digest] = packed
            self.size += len(packed) // 4
            while self.size > self.capacity:
                _digest, oldest = self.packed.popitem(last=False)
                self.size -= len(oldest) // 4
        return _unpacked(packed)

    def clear(self) -> None:
        self.packed.clear()
        self.size = 0


def _unpacked(packed: array) -> dict[int, tuple[int, int, int]]:
    records = zip(packed[1::4], packed[2::4], packed[3::4], strict=True)
    return dict(zip(packed[0::4], records, strict=True))


_OPPONENTS = _OpponentRecords(capacity=1_000_000)
"""Some 32 MB at most: the opponents of every tied player of a few 1M-hand seasons."""


def _ratings(season: Season, base: StandingSnapshot, old: list, new: list, changed: set[int]):
    """The ratings after the change: gone on from the stored ones when every changed game is new
    (it had no share) and played after every other ranked game; else replayed in played order."""
    if not old and not new:
        return rating_rows(RatingState.from_rows(base.ratings), RatingSettings())
    if not old and not _played_after(season, changed):
        order = {
            game_id: position
            for position, game_id in enumerate(
                stored_shares.ranked_games(season)
                .filter(pk__in=[share.game_id for share in new])
                .order_by("finished_at", "pk")
                .values_list("pk", flat=True)
            )
        }
        ordered = sorted(new, key=lambda share: order[share.game_id])
        return ratings_after(
            (_rated(share) for share in ordered), RatingState.from_rows(base.ratings)
        )
    shares = {
        row[0]: stored_shares.share_of(row, is_teams=False)
        for row in stored_shares.stored_shares(season)
    }
    return ratings_after(_rated(shares[game_id]) for game_id in stored_shares.played_order(season))


def _played_after(season: Season, changed: set[int]) -> bool:
    """Whether some ranked game other than ``changed`` is played after one of them (or a
    finishing time is missing, when the order is left to the database)."""
    games = stored_shares.ranked_games(season)
    firsts = games.filter(pk__in=list(changed)).order_by("finished_at", "pk")
    first = firsts.values_list("finished_at", "pk").first()
    if first is None:
        return False
    finished_at, pk = first
    if finished_at is None or games.filter(finished_at__isnull=True).exists():
        return True
    later = Q(finished_at__gt=finished_at) | Q(finished_at=finished_at, pk__gt=pk)
    return games.exclude(pk__in=list(changed)).filter(later).exists()
