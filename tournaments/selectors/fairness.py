"""Reading a season's fairness report (a selector: it never writes).

It loads the season's schedule and byes in a few light queries (``values_list``), hands them to
the pure :func:`tournaments.domain.fairness.fairness_report`, and names the players and teams.
Words: see :mod:`tournaments.domain.fairness`.

Who may read it: the league's organisers always; anyone else only when the organiser turned the
season's ``fairness_public`` option on. The doors below are the only way to a season's report;
for anyone else the report does not exist (404), so a hidden report is not even hinted at.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Q

from core.errors import NotFoundError
from league.access import is_league_organiser, season_for_organiser
from league.models import Player, Season, Team
from scoring.games.models import Game
from scoring.standings.domain.standings.rules import DEFAULT_TIEBREAKS
from tournaments.domain.fairness import (
    DEFAULT_RUNS,
    DEFAULT_SEED,
    FairnessReport,
    PlayedGame,
    SatOut,
    fairness_report,
)
from tournaments.models import PlannedRound, Seat, TeamSchedule

SCHEDULED = (Game.Status.SCHEDULED, Game.Status.IN_PROGRESS, Game.Status.FINISHED)
"""Games of the season's schedule: every game not voided (the finished ones are the played),
as the standings count them: none of an archived night."""

REPORT_VERSION = 1
"""Part of a cached report's key: raise it when the report's arithmetic changes."""

CACHE_SECONDS = 24 * 3600
"""How long a computed report is kept. Its key is a digest of everything it is computed from
(the season's games with their seats, results and order, its byes, its teams, the measure, the
runs and the seed), so a kept report is never stale: any change makes a new key. Keeping it
spares the Monte Carlo (most of a second for a large season) at every page view."""

_GAME_COLUMNS = (
    "pk",
    "seat_0_id",
    "seat_1_id",
    "seat_2_id",
    "seat_3_id",
    "winner",
    "status",
    "finished_at",
    "team_a_id",
    "team_b_id",
    "night_id",
    "round_number",
)


@dataclass(frozen=True)
class SeasonFairness:
    """A season's report with the names it speaks of (player and team ids → names)."""

    season: Season
    report: FairnessReport
    player_names: dict[int, str]
    team_names: dict[int, str]

    def entrant_name(self, entrant_id: int | None) -> str:
        if entrant_id is None:
            return ""
        names = self.team_names if self.report.format == "teams" else self.player_names
        return names.get(entrant_id, f"#{entrant_id}")


def season_fairness_for_organiser(*, user, pk: int) -> Season:
    """A season whose report ``user`` may read as an organiser (``NotFoundError`` or
    ``AccessDeniedError`` otherwise: see :func:`league.access.season_for_organiser`)."""
    return season_for_organiser(user=user, pk=pk)


def season_fairness_for_reader(*, user, pk: int) -> Season:
    """A season whose report ``user`` may read: public when its organiser turned the report on
    (and the season is not archived), else to the league's organisers only; ``NotFoundError``
    for anyone else (one query for a public report, two otherwise)."""
    season = Season.objects.filter(pk=pk).select_related("league").first()
    is_public = season is not None and season.fairness_public and season.archived_at is None
    if season is None or not (
        is_public or is_league_organiser(user=user, league_id=season.league_id)
    ):
        raise NotFoundError("no such season, or its fairness report is not public")
    return season


def season_fairness_public(*, slug: str, season_id: int) -> Season:
    """A season of the league ``slug`` whose report is public, else ``NotFoundError``."""
    season = (
        Season.objects.not_archived()
        .filter(league__slug=slug, pk=season_id, fairness_public=True)
        .select_related("league")
        .first()
    )
    if season is None:
        raise NotFoundError("no such season, or its fairness report is not public")
    return season


def season_fairness_get(
    *, season: Season, runs: int = DEFAULT_RUNS, seed: int = DEFAULT_SEED
) -> SeasonFairness:
    """The season's fairness report: three queries for an individual season (games, byes,
    names), four for a team season (games, the schedule's byes, teams, names)."""
    is_teams = season.format == Season.Format.TEAMS
    games = Game.objects.filter(
        Q(night__isnull=True) | Q(night__archived_at__isnull=True),
        season=season,
        counts_for_standings=True,
        status__in=SCHEDULED,
    )
    if is_teams:
        games = games.filter(team_a__isnull=False, team_b__isnull=False)
    rows = list(games.order_by().values_list(*_GAME_COLUMNS))
    finished = sorted(
        (row for row in rows if row[6] == Game.Status.FINISHED),
        key=lambda row: (row[7] is None, row[7], row[0]),
    )
    order = {row[0]: position for position, row in enumerate(finished)}
    schedule = [
        PlayedGame(
            game_id=row[0],
            seats=row[1:5],
            winner=row[5] or None,
            played_order=order.get(row[0], len(order)),
            is_finished=row[0] in order,
            team_a=row[8],
            team_b=row[9],
        )
        for row in rows
    ]
    teams: dict[int, tuple[int, int]] = {}
    team_names: dict[int, str] = {}
    if is_teams:
        for pk, name, one, two in Team.objects.filter(season=season).values_list(
            "pk", "name", "player_one_id", "player_two_id"
        ):
            teams[pk] = (one, two)
            team_names[pk] = name
        byes = [
            SatOut(player, night, number)
            for team, night, number in _team_byes(season, rows)
            for player in teams.get(team, ())
        ]
    else:
        byes = [
            SatOut(player, night, number)
            for player, night, number in Seat.objects.filter(
                round__plan__night__season=season,
                round__plan__night__archived_at__isnull=True,
                round__status__in=(PlannedRound.Status.STARTED, PlannedRound.Status.FINISHED),
                table_number__isnull=True,
            ).values_list("player_id", "round__plan__night_id", "round__number")
        ]
    inputs = {
        "games": sorted(schedule, key=lambda game: game.game_id),
        "byes": sorted(
            byes, key=lambda bye: (bye.player_id, bye.night_id or 0, bye.round_number or 0)
        ),
        "season_format": "teams" if is_teams else "individual",
        "teams": teams,
        "runs": runs,
        "seed": seed,
        "measure": "wins" if _first_measure(season) == "wins" else "win_pct",
    }
    key = f"fairness:{REPORT_VERSION}:{season.pk}:{_digest(inputs)}"
    report = cache.get(key)
    if report is None:
        report = fairness_report(**inputs)
        cache.set(key, report, CACHE_SECONDS)
    player_ids = {line.player_id for line in report.players}
    for members in teams.values():
        player_ids.update(members)
    player_names = dict(Player.objects.filter(pk__in=player_ids).values_list("pk", "name"))
    return SeasonFairness(season, report, player_names, team_names)


def _first_measure(season: Season) -> str:
    """The first measure of the season's ranking (the standings' default when none is set)."""
    chain = (season.standing_rules or {}).get("tiebreaks") or DEFAULT_TIEBREAKS
    return chain[0] if chain else DEFAULT_TIEBREAKS[0]


def _digest(inputs: dict) -> str:
    """A digest of a report's inputs (dataclasses and plain values: their ``repr`` is exact)."""
    text = repr(sorted((name, repr(value)) for name, value in inputs.items()))
    return hashlib.sha256(text.encode()).hexdigest()


def _team_byes(season: Season, rows: list[tuple]) -> list[tuple[int, int, int]]:
    """A team schedule's byes ``(team, night, round)`` of the rounds played so far: a round is
    played once one of its games has finished."""
    schedule = TeamSchedule.objects.filter(season=season).values_list("byes", flat=True).first()
    played = {(row[10], row[11]) for row in rows if row[6] == Game.Status.FINISHED}
    return [
        (bye["team"], bye["night"], bye["round"])
        for bye in schedule or ()
        if (bye.get("night"), bye.get("round")) in played
    ]


def fairness_data(fairness: SeasonFairness) -> dict:
    """The report as plain data with names: what the API returns and the pages show (the one
    list of the report's fields, read by ``tournaments.api.fairness``'s serializers)."""
    report, names = fairness.report, fairness.player_names
    carlo = report.monte_carlo

    def name(player_id: int) -> str:
        return names.get(player_id, f"#{player_id}")

    return {
        "season": fairness.season.pk,
        "format": report.format,
        "is_public": fairness.season.fairness_public,
        "games_played": report.games_played,
        "most_partnered": report.most_partnered,
        "repeated_partnerships": report.repeated_partnerships,
        "most_opposed": report.most_opposed,
        "repeated_oppositions": report.repeated_oppositions,
        "fewest_byes": report.fewest_byes,
        "most_byes": report.most_byes,
        "field_rating": report.field_rating,
        "players": [
            {
                "id": line.player_id,
                "name": name(line.player_id),
                "games": line.games,
                "byes": line.byes,
                "distinct_partners": line.distinct_partners,
                "distinct_opponents": line.distinct_opponents,
                "most_with_one_partner": line.most_with_one_partner,
                "most_against_one_opponent": line.most_against_one_opponent,
                "strength_of_schedule": line.strength_of_schedule,
                "average_partner_rating": line.average_partner_rating,
                "partner_luck": line.partner_luck,
                "rating": line.rating_now,
            }
            for line in report.players
        ],
        "pairs": [
            {
                "first": pair.first,
                "first_name": name(pair.first),
                "second": pair.second,
                "second_name": name(pair.second),
                "partnered": pair.partnered,
                "opposed": pair.opposed,
            }
            for pair in report.pairs
        ],
        "monte_carlo": {
            "runs": carlo.runs,
            "seed": carlo.seed,
            "games": carlo.games,
            "measure": carlo.measure,
            "entrant_kind": "team" if report.format == "teams" else "player",
            "strongest": carlo.strongest_id,
            "strongest_name": fairness.entrant_name(carlo.strongest_id),
            "strongest_first_chance": carlo.strongest_first_chance,
            "chances": [
                {
                    "id": chance.entrant_id,
                    "name": fairness.entrant_name(chance.entrant_id),
                    "skill": chance.skill,
                    "first_chance": chance.first_chance,
                }
                for chance in carlo.chances
            ],
        },
    }
