"""A snapshot's values, folded from the stored one and the games that changed.

- *base*: the stored snapshot a recompute goes on from: its standings rows (each entrant's
  record and Buchholz), ratings, nights, its per-entrant stats lines and the shares of the games
  it counted (``StandingGame``, see :mod:`scoring.standings.services.shares`).
- *basis*: what a snapshot was ranked under (the rulebook, the standing rules, the format).
  A base ranked under another basis is not gone on from: a rulebook or standing-rules change
  folds from empty.
- *fold*: the changed games' old shares are taken out of the base's running totals and their
  new shares put in (:mod:`scoring.standings.domain.season_totals`), counted: summed per player and
  seat by the database, and one meeting per game (:mod:`scoring.standings.services.shares`); only
  the lines of the players and teams they touch are read, and of those only the ones whose digest
  changed are rendered again. A recompute from scratch is the same fold started from empty: no base,
  every ranked game changed, no old share. Ratings go on from the stored ones when the changed
  games are new and played after every other game; otherwise they are replayed from the stored
  shares' meetings in played order.
- *one view*: whatever a fold reads of the games after it counted their shares (the sums, the
  meetings in played order, the shares to rank best nights from) it reads from the shares it
  stored, never from the games again: a game that finishes meanwhile (its change logged, so the
  next run folds it) is not half seen.

Call these inside the transaction that stores the snapshot: they replace the changed games'
stored shares.
"""

from __future__ import annotations

from array import array
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from django.db.models import Q

import scoring.standings.services.shares as stored_shares
from league.models import Attendance, Player, Season, Team
from scoring.games.models import Game
from scoring.standings.domain.ratings import (
    RatingSettings,
    RatingState,
    rated_last_alike,
    rating_rows,
    ratings_after,
)
from scoring.standings.domain.season_totals import (
    Counted,
    GameShare,
    SeasonTotals,
    SeatSums,
    buchholz_changes,
)
from scoring.standings.domain.standings import GameRecord, SideTally, compute_standings
from scoring.standings.models import StandingLine, StandingSnapshot

KIND = StandingLine.Kind


def basis_of(season: Season) -> dict[str, Any]:
    """What the season's snapshot is ranked under (see the module docstring)."""
    return {
        "rulebook": season.rulebook_id,
        "rules": season.standing_rules or {},
        "format": season.format,
    }


@dataclass
class Computed:
    """A recompute's result: the snapshot's values and the per-entrant lines to write (``None``
    data: the line is gone), the only store of each player's and team's stats. The stats lines
    are ``rendered`` on demand: their digest, and how to render them, since only those whose
    digest changed are written (a large season's stats run to tens of megabytes, most of them
    unchanged when the rules change). ``complete`` says the lines of every entrant are given (a
    fold from empty); ``incremental`` that it went on from a base."""

    values: dict[str, Any]
    lines: dict[tuple[str, int], dict[str, Any] | None] = field(default_factory=dict)
    rendered: dict[tuple[str, int], tuple[str, Callable[[], dict[str, Any]]]] = field(
        default_factory=dict
    )
    complete: bool = False
    incremental: bool = False


def snapshot_values(
    season: Season,
    rules,
    *,
    base: StandingSnapshot | None = None,
    changed_game_ids: Iterable[int] | None = None,
) -> Computed:
    """The season's snapshot values, folded from ``base`` and the games of ``changed_game_ids``
    when it can (a base of the same basis), else from empty. Replaces the stored shares of the
    games it counts; call it in the transaction that stores the result."""
    basis = basis_of(season)
    if base is None or changed_game_ids is None or base.basis != basis:
        return season_fold(season, rules, None, None, basis)
    return season_fold(season, rules, base, set(changed_game_ids), basis)


def _rated(meeting: tuple) -> tuple[tuple[int, int], tuple[int, int], str | None, bool]:
    """A meeting as the ratings take a game (``MEETING_FIELDS``; a draw's winner is ``None``)."""
    return (meeting[1], meeting[3]), (meeting[2], meeting[4]), meeting[7] or None, False


def _rated_share(share: GameShare) -> tuple[tuple[int, int], tuple[int, int], str | None, bool]:
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
    """Who is listed: in a team season every team not withdrawn (named in ``names``); in an
    individual season whoever has a counted game, and also whoever was checked in on one of its
    nights or is seated in one of its games not yet finished (listed unranked until a game of
    theirs counts), each added to ``names``."""
    if season.format == Season.Format.TEAMS:
        teams = list(season.teams.filter(is_withdrawn=False).values_list("pk", "name"))
        names.update(dict(teams))
        return [pk for pk, _name in teams]
    listed = list(totals.records)  # among them whoever sits in a counted game
    waiting = _season_players(season) - set(listed)
    if waiting:
        names.update(_names(season, waiting, is_teams=False))
        listed.extend(sorted(waiting))
    return listed


def _season_players(season: Season) -> set[int]:
    """Players checked in on a night of the season, or seated in one of its games, but for the
    players of its finished games that count: whoever sits in one of those has a counted game,
    listed already (a large season's hundred thousand games' seats are not gathered). Two short
    reads: the games are those still to play and the finished playoff games, each found through
    an index of its own (``game_left``, ``game_playoff``), never by scanning the season."""
    left = Q(status__in=(Game.Status.SCHEDULED, Game.Status.IN_PROGRESS))
    games = Game.objects.filter(
        left | Q(status=Game.Status.FINISHED, counts_for_standings=False), season=season
    ).exclude(night__archived_at__isnull=False)
    seated = games.order_by().values_list("seat_0_id", "seat_1_id", "seat_2_id", "seat_3_id")
    players = {pk for seats in seated for pk in seats if pk is not None}
    checked_in = Attendance.objects.filter(night__season=season, night__archived_at__isnull=True)
    players.update(checked_in.order_by().values_list("player_id", flat=True))
    return players


# --------------------------------------------------------------------------------------------
# From the base and the changed games
# --------------------------------------------------------------------------------------------


def _lines_of(season: Season, kind: str, entrants: Iterable[int] | None = None) -> list[dict]:
    lines = StandingLine.objects.filter(season=season, kind=kind)
    if entrants is not None:
        lines = lines.filter(entrant_id__in=list(entrants))
    return list(lines.values_list("data", flat=True))


def season_fold(
    season: Season,
    rules,
    base: StandingSnapshot | None,
    changed: set[int] | None,
    basis: dict[str, Any],
) -> Computed:
    """Fold the ``changed`` games (every ranked game when ``base`` is ``None``: the fold from
    empty) into the base's running totals and render the snapshot (see the module docstring)."""
    is_teams = season.format == Season.Format.TEAMS
    old, new = stored_shares.shares_replace(season, changed)
    totals = SeasonTotals(is_teams=is_teams)
    stored_buchholz: dict[int, float] = {}
    if base is not None:
        players = {row.who for row in (*old.players, *new.players)}
        teams = {row.who for row in (*old.teams, *new.teams)}
        for data in _lines_of(season, KIND.PLAYER, players):
            totals.load_player(data)
        for data in _lines_of(season, KIND.TEAM, teams):
            totals.load_team(data)
        for row in base.standings["rows"]:
            totals.load_record(row)
            if row["games"]:
                stored_buchholz[row["entrant"]] = row["buchholz"]
        totals.load_nights(base.nights)
    touched = {row.who for counted in (old, new) for row in _entrant_sums(counted, is_teams)}
    scores_before = {entrant: totals.score(entrant) for entrant in touched}
    totals.add_counted(old, -1)
    totals.add_counted(new)
    names = _names(season, totals.records, is_teams=is_teams)
    entrants = _entrants(season, names, totals)
    played: list[GameShare] | None = None  # every stored share in played order, when needed
    if not rules.ranks_game_by_game:
        buchholz = buchholz_changes(totals, scores_before, stored_buchholz)
        standings = totals.standings(
            rules,
            entrants=entrants,
            names=names,
            buchholz=buchholz,
            results_against=_OpponentLines(season, totals),
        )
    else:  # best nights and game-by-game measures need each game: rank the games themselves
        played = _played_shares(season, is_teams=is_teams)
        records = [_game_record(share, order) for order, share in enumerate(played)]
        standings = compute_standings(records, rules, entrants=entrants, names=names)
    ratings = _ratings(season, base, old, new, played)
    computed = Computed(
        values={
            "standings": standings.to_dict(),
            "ratings": [rating.to_dict() for rating in ratings],
            **({"nights": totals.nights_part()} if base is None or totals.nights_changed else {}),
            "basis": basis,
        },
        complete=base is None,
        incremental=base is not None,
    )
    lines = computed.lines
    for player in sorted(totals.changed_players):
        if player in totals.players:
            digest = totals.player_digest(player)
            computed.rendered[KIND.PLAYER, player] = (digest, partial(totals.player_line, player))
        else:
            lines[KIND.PLAYER, player] = None
    for team in sorted(totals.changed_teams):
        if team in totals.teams:
            digest = totals.team_digest(team)
            computed.rendered[KIND.TEAM, team] = (digest, partial(totals.team_line, team))
        else:
            lines[KIND.TEAM, team] = None
    # The rating lines the ratings changed (after one game, its four players'): the stored lines
    # are the base's ratings, written with it.
    stored = {rating["player_id"]: rating for rating in base.ratings} if base is not None else {}
    for rating in computed.values["ratings"]:
        if stored.pop(rating["player_id"], None) != rating:
            lines[KIND.RATING, rating["player_id"]] = rating
    for player in stored:
        lines[KIND.RATING, player] = None
    return computed


def _entrant_sums(counted: Counted, is_teams: bool) -> Sequence[SeatSums]:
    return counted.teams if is_teams else counted.players


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
        self.read: dict[int, Mapping[int, tuple[int, int, int]]] = {}

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
            return self.totals.results_against(entrant)
        if entrant not in self.read:
            self.prefetch([entrant])
        return self.read[entrant]


class OpponentRecords:
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

    def get(self, digest: str) -> PackedRecords | None:
        packed = self.packed.get(digest)
        if packed is None:
            return None
        self.packed.move_to_end(digest)
        return PackedRecords(packed)

    def put(self, digest: str, opponents: Iterable[int]) -> PackedRecords:
        """Keep a stored line's opponents: the very numbers it packs
        (:data:`~scoring.standings.domain.stats.PAIR_STORED_FIELDS`)."""
        packed = array("q", opponents)
        if digest and digest not in self.packed and len(packed) // 4 <= self.capacity:
            self.packed[digest] = packed
            self.size += len(packed) // 4
            while self.size > self.capacity:
                _digest, oldest = self.packed.popitem(last=False)
                self.size -= len(oldest) // 4
        return PackedRecords(packed)

    def clear(self) -> None:
        self.packed.clear()
        self.size = 0


class PackedRecords(Mapping):
    """An entrant's head-to-head records, ``other_id: (wins, losses, draws)``, read straight from
    their packed array: head-to-head asks only about the few others of a tied group, so no
    record is unpacked but those (a player of a large season met some six hundred others)."""

    __slots__ = ("others", "packed")

    def __init__(self, packed: array) -> None:
        self.packed, self.others = packed, packed[0::4]

    def __getitem__(self, other: int) -> tuple[int, int, int]:
        try:
            at = self.others.index(other) * 4
        except (ValueError, TypeError, OverflowError):
            raise KeyError(other) from None
        return self.packed[at + 1], self.packed[at + 2], self.packed[at + 3]

    def __iter__(self):
        return iter(self.others)

    def __len__(self) -> int:
        return len(self.others)


_OPPONENTS = OpponentRecords(capacity=1_000_000)
"""Some 32 MB at most: the opponents of every tied player of a few 1M-hand seasons."""


def _ratings(
    season: Season,
    base: StandingSnapshot | None,
    old: Counted,
    new: Counted,
    played: list[GameShare] | None,
):
    """The ratings after the change: gone on from the stored ones when every changed game is new
    (it had no share) and no game played after one of them shares a player with it
    (:func:`~scoring.standings.domain.ratings.rated_last_alike`); else replayed over the stored
    shares in played order (``played``, if the caller read them already; the new meetings, when
    they are every stored share)."""
    if base is not None and not old.meetings and not new.meetings:
        return rating_rows(RatingState.from_rows(base.ratings), RatingSettings())
    if base is not None and not old.meetings:
        new_games = {meeting[0]: meeting for meeting in new.meetings}
        later = stored_shares.meetings_played_from(season, new_games)
        if later is not None and rated_last_alike(
            ((meeting[0], meeting[1:5]) for meeting in later), new_games
        ):
            return ratings_after(
                (_rated(new_games[meeting[0]]) for meeting in later if meeting[0] in new_games),
                RatingState.from_rows(base.ratings),
            )
    if played is not None:
        return ratings_after(_rated_share(share) for share in played)
    meetings = new.meetings if base is None else stored_shares.meetings_in_played_order(season)
    return ratings_after(_rated(meeting) for meeting in meetings)


def _played_shares(season: Season, *, is_teams: bool) -> list[GameShare]:
    """Every stored share of the season in played order."""
    return [
        stored_shares.share_of(row, is_teams=is_teams)
        for row in stored_shares.shares_in_played_order(season)
    ]
