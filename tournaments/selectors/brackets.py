"""Reading a bracket (selectors: they never write): what the pages and the API show, and the
one door to a bracket a user may read."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from django.db.models import Q
from django.utils import timezone

from core.errors import NotFoundError
from league.access import is_league_organiser
from league.domain.words import ordinal
from league.models import Night, Season, Team
from scoring.games.models import Game
from scoring.standings.domain.standings import Standings
from tournaments.domain.brackets import play
from tournaments.models import Bracket, BracketEntry, BracketMatch, BracketMatchGame
from tournaments.selectors.bracket_standings import pool_tables, swiss_standings
from tournaments.selectors.bracket_structure import bracket_structure


@dataclass(frozen=True)
class GameLine:
    number: int
    game_id: int
    status: str
    score: tuple[int, int]
    winner: int | None
    captain_token: str
    """Empty unless the summary was asked for them (the organiser's screens)."""


@dataclass(frozen=True)
class MatchLine:
    match: BracketMatch
    first: str
    second: str
    games: tuple[GameLine, ...]
    wins: tuple[int, int]

    @property
    def is_live(self) -> bool:
        return any(game.status == Game.Status.IN_PROGRESS for game in self.games)

    @property
    def score(self) -> tuple[int, int] | None:
        """What the box shows: games won (best of N) or the one game's score."""
        if all(game.status == Game.Status.SCHEDULED for game in self.games):
            return None
        if len(self.games) == 1 and self.wins in ((0, 0), (1, 0), (0, 1)):
            return self.games[0].score
        return self.wins


@dataclass(frozen=True)
class PlacingLine:
    place: int
    team: Team
    note: str = ""


@dataclass(frozen=True)
class TableLine:
    """A team's row in a pool table or the Swiss standings."""

    rank: int | None
    team: Team
    games: int
    wins: int
    losses: int
    byes: int
    point_diff: int | float
    reason: str
    is_through: bool = False


@dataclass(frozen=True)
class Table:
    """A pool's table (``Pool A``) or the Swiss standings, with its rows in ranking order."""

    title: str
    lines: list[TableLine]
    is_finished: bool


@dataclass(frozen=True)
class BracketSummary:
    bracket: Bracket
    entries: list[BracketEntry]
    matches: list[MatchLine]
    placings: list[PlacingLine]
    champion: Team | None
    tables: list[Table] = field(default_factory=list)

    @property
    def is_live(self) -> bool:
        return self.bracket.status == Bracket.Status.PUBLISHED


_GAME_COLUMNS = (
    "match_id",
    "number",
    "game_id",
    "game__status",
    "game__score_a",
    "game__score_b",
    "game__winner",
    "game__captain_token",
)


def bracket_summary(*, bracket: Bracket, with_captain_tokens: bool = False) -> BracketSummary:
    """The bracket as pages and the API show it: each match with its teams (or what its slots
    wait for), its games and score, and the placings so far. Captain tokens are left out (empty)
    unless ``with_captain_tokens``: only the organiser's screens ask for them."""
    return bracket_summaries(brackets=[bracket], with_captain_tokens=with_captain_tokens)[
        bracket.pk
    ]


def bracket_summaries(
    *, brackets: list[Bracket], with_captain_tokens: bool = False
) -> dict[int, BracketSummary]:
    """``bracket_summary`` of many brackets by id, in three queries however many they are."""
    ids = [bracket.pk for bracket in brackets]
    entries: dict[int, list[BracketEntry]] = {pk: [] for pk in ids}
    for entry in BracketEntry.objects.filter(bracket_id__in=ids).select_related("team"):
        entries[entry.bracket_id].append(entry)
    matches: dict[int, list[BracketMatch]] = {pk: [] for pk in ids}
    for match in BracketMatch.objects.filter(bracket_id__in=ids).order_by("order", "pk"):
        matches[match.bracket_id].append(match)
    rows: dict[int, list[dict]] = {pk: [] for pk in ids}
    for row in (
        BracketMatchGame.objects.filter(
            match__bracket_id__in=ids, status=BracketMatchGame.Status.COUNTING
        )
        .order_by("match_id", "number")
        .values("match__bracket_id", *_GAME_COLUMNS)
    ):
        rows[row["match__bracket_id"]].append(row)
    return {
        bracket.pk: _summary(
            bracket,
            sorted(entries[bracket.pk], key=lambda entry: entry.seed),
            matches[bracket.pk],
            rows[bracket.pk],
            with_captain_tokens=with_captain_tokens,
        )
        for bracket in brackets
    }


def _summary(
    bracket: Bracket,
    entries: list[BracketEntry],
    matches: list[BracketMatch],
    game_rows: list[dict],
    *,
    with_captain_tokens: bool,
) -> BracketSummary:
    teams = {entry.team_id: entry.team for entry in entries}
    games: dict[int, list[GameLine]] = {}
    for row in game_rows:
        winner = {"A": 0, "B": 1}.get(row["game__winner"])
        games.setdefault(row["match_id"], []).append(
            GameLine(
                number=row["number"],
                game_id=row["game_id"],
                status=row["game__status"],
                score=(row["game__score_a"], row["game__score_b"]),
                winner=winner,
                captain_token=row["game__captain_token"] if with_captain_tokens else "",
            )
        )
    lines = []
    for match in matches:
        played = games.get(match.pk, [])
        wins = (
            sum(game.winner == 0 for game in played),
            sum(game.winner == 1 for game in played),
        )
        lines.append(
            MatchLine(
                match=match,
                first=_side_name(match.first_team_id, match.first_slot, teams),
                second=_side_name(match.second_team_id, match.second_slot, teams),
                games=tuple(played),
                wins=wins,
            )
        )
    points = {
        match_id: (
            sum(game.score[0] for game in played if game.status == Game.Status.FINISHED),
            sum(game.score[1] for game in played if game.status == Game.Status.FINISHED),
        )
        for match_id, played in games.items()
        if any(game.status == Game.Status.FINISHED for game in played)
    }
    tables = _tables(bracket, entries, matches, points)
    placings = _placings(bracket, entries, matches, tables)
    champion = next((line.team for line in placings if line.place == 1), None)
    return BracketSummary(bracket, entries, lines, placings, champion, tables)


def _table_lines(
    standings: Standings, team_by_seed: dict[int, Team], through: int = 0
) -> list[TableLine]:
    """The table's rows; before anything is played, in seed order and unranked (a coin flip
    between teams that have not played would only confuse)."""
    rows = list(standings.rows)
    is_unplayed = not any(row.games or row.byes for row in rows)
    if is_unplayed:
        rows.sort(key=lambda row: row.entrant)
    return [
        TableLine(
            rank=None if is_unplayed else row.rank,
            team=team_by_seed[row.entrant],
            games=row.games,
            wins=row.wins,
            losses=row.losses,
            byes=row.byes,
            point_diff=row.point_diff,
            reason=row.reason if row.games or row.byes else "",
            is_through=index < through,
        )
        for index, row in enumerate(rows)
    ]


def _tables(
    bracket: Bracket,
    entries: list[BracketEntry],
    matches: list[BracketMatch],
    points: dict[int, tuple[int, int]],
) -> list[Table]:
    """The pool tables of a pools bracket, or the Swiss standings; none for other kinds."""
    team_by_seed = {entry.seed: entry.team for entry in entries}
    seed_by_team = {entry.team_id: entry.seed for entry in entries}
    names = {entry.seed: entry.team.name for entry in entries}
    if bracket.kind == Bracket.Kind.SWISS:
        standings = swiss_standings(matches, seed_by_team, names, points)
        current = max((match.round for match in matches), default=0)
        finished = bracket.status == Bracket.Status.FINISHED
        title = (
            "Final standings"
            if finished
            else f"Standings · round {current} of {bracket.swiss_rounds} (its byes counted)"
        )
        return [Table(title, _table_lines(standings, team_by_seed), finished)]
    if bracket.kind != Bracket.Kind.POOLS:
        return []
    structure = bracket_structure(bracket, len(entries))
    by_code = {match.code: match for match in matches}
    results = {
        match.code: seed_by_team[match.winner_id]
        for match in matches
        if match.winner_id and match.status == BracketMatch.Status.DECIDED
    }
    return [
        Table(
            f"Pool {table.name}",
            _table_lines(
                table.standings,
                team_by_seed,
                bracket.advancing_per_pool if table.is_finished else 0,
            ),
            table.is_finished,
        )
        for table in pool_tables(structure, by_code, results, names, points)
    ]


def _side_name(team_id: int | None, slot: dict, teams: dict[int, Team]) -> str:
    if team_id is not None:
        return teams[team_id].name
    return slot.get("label", "")


def _placings(
    bracket: Bracket,
    entries: list[BracketEntry],
    matches: list[BracketMatch],
    tables: list[Table],
) -> list[PlacingLine]:
    team_by_seed = {entry.seed: entry.team for entry in entries}
    seed_by_team = {entry.team_id: entry.seed for entry in entries}
    withdrawn = {entry.team_id for entry in entries if entry.is_withdrawn}
    results = {match.code: seed_by_team[match.winner_id] for match in matches if match.winner_id}
    if bracket.kind == Bracket.Kind.SWISS:
        if bracket.status != Bracket.Status.FINISHED:
            return []
        return [
            PlacingLine(
                line.rank,
                line.team,
                f"{line.wins}–{line.losses}" + (" (withdrew)" if line.team.pk in withdrawn else ""),
            )
            for line in tables[0].lines
        ]
    pool_rankings = {}
    if bracket.kind == Bracket.Kind.POOLS:
        pool_rankings = {
            table.title.removeprefix("Pool "): [seed_by_team[line.team.pk] for line in table.lines]
            for table in tables
            if table.is_finished
        }
    if bracket.kind == Bracket.Kind.ROUND_ROBIN:
        if not all(match.status != BracketMatch.Status.READY for match in matches):
            return []
        wins = Counter(match.winner_id for match in matches if match.winner_id)
        ordered = sorted(entries, key=lambda entry: (-wins[entry.team_id], entry.seed))
        lines, place = [], 0
        for index, entry in enumerate(ordered):
            if index == 0 or wins[entry.team_id] != wins[ordered[index - 1].team_id]:
                place = index + 1
            lines.append(PlacingLine(place, entry.team, f"{wins[entry.team_id]} wins"))
        return lines
    state = play(bracket_structure(bracket, len(entries)), results, pool_rankings=pool_rankings)
    lines = [
        PlacingLine(
            placing.place,
            team_by_seed[placing.seed],
            "withdrew" if team_by_seed[placing.seed].pk in withdrawn else "",
        )
        for placing in state.placings
    ]
    if bracket.kind == Bracket.Kind.POOLS and state.is_complete:
        lines += _pool_placings(tables, bracket.advancing_per_pool, withdrawn)
    return lines


def _pool_placings(tables: list[Table], advancing: int, withdrawn: set[int]) -> list[PlacingLine]:
    """The teams that did not go through, after the knockout's: every pool's next team shares
    a place (all the 3rds, then all the 4ths …)."""
    place = sum(min(advancing, len(table.lines)) for table in tables) + 1
    lines = []
    for position in range(advancing, max(len(table.lines) for table in tables)):
        tier = [(table, table.lines[position]) for table in tables if position < len(table.lines)]
        for table, line in tier:
            note = f"{ordinal(position + 1)} in pool {table.title.removeprefix('Pool ')}"
            if line.team.pk in withdrawn:
                note += ", withdrew"
            lines.append(PlacingLine(place, line.team, note))
        place += len(tier)
    return lines


def brackets_for_season(*, season: Season):
    """A season's brackets, newest first (a selector)."""
    return Bracket.objects.not_archived().filter(season=season).order_by("-created_at")


def bracket_for_viewer(*, user, pk) -> Bracket:
    """The one door to a bracket for reading: a draft is the organisers' to preview, so to
    anyone else it does not exist (``NotFoundError``). An archived one does not exist either
    (its organisers find it in the workspace's archived list)."""
    bracket = (
        Bracket.objects.not_archived().select_related("season__league").filter(pk=pk).first()
        if str(pk).isdigit()
        else None
    )
    if bracket is None or (
        bracket.status == Bracket.Status.DRAFT
        and not is_league_organiser(user=user, league_id=bracket.season.league_id)
    ):
        raise NotFoundError("no such bracket")
    return bracket


def brackets_for_viewer(*, user, include_archived: bool = False):
    """Brackets a user may read: every published or finished one, and the drafts of the leagues
    they organise (every draft for a superuser); none archived unless ``include_archived``."""
    brackets = Bracket.objects.all() if include_archived else Bracket.objects.not_archived()
    if user is not None and user.is_authenticated and user.is_superuser:
        return brackets
    visible = ~Q(status=Bracket.Status.DRAFT)
    if user is not None and user.is_authenticated:
        visible |= Q(season__league__roles__user=user)
    return brackets.filter(visible).distinct()


@dataclass(frozen=True)
class NightChoice:
    """A night a draft can be published on, ``is_suggested`` for tonight's (if the season has
    one) or the night being played."""

    night: Night
    is_suggested: bool


def bracket_night_choices(*, bracket: Bracket) -> list[NightChoice]:
    """The nights of the bracket's season it can be played on (not archived), by date."""
    nights = list(Night.objects.not_archived().filter(season_id=bracket.season_id))
    today = timezone.localdate()
    suggested = next(
        (
            night.pk
            for night in nights
            if night.date == today or night.status == Night.Status.PLAYING
        ),
        None,
    )
    return [NightChoice(night=night, is_suggested=night.pk == suggested) for night in nights]
