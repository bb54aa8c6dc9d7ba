"""What the wall shows (a read for ``tournaments.views.wall``; nothing here writes).

Words:

- *wall*: a season's display page for a TV in the room: where everyone sits in the current round
  and the next, the live scores of the tables playing, then the standings or the bracket.
- *the night on the wall*: the season's night being played (its first round started), else one
  checking players in, else tonight's night (a team night of a schedule is never "started"),
  else none: the wall then shows the standings and the bracket alone.
- *current round*: of an individual night, the latest round of its published plan that has
  started; of a team night, the first round with a game not over; of a season's published bracket
  (no night), the first round with a game not over.
- *next round*: the round after the current one, only once players may see it: a round of the
  night's *published* plan (a draft is the organisers' alone), or a team schedule's next round
  (its games exist once the schedule is made). A bracket's next round is not known before its
  current one is played.
- *seats*: seat 0 to 3 clockwise, seat 0 dealing first; the wall calls them North, East, South
  and West (North and South partner against East and West).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from itertools import groupby

from django.db.models import Count, Max
from django.utils import timezone

from league.models import Night, Season
from scoring.games.models import Game
from tournaments.models import Bracket, NightPlan, PlannedRound
from tournaments.selectors.nav import season_published_brackets
from tournaments.services.nights import RoundChart, night_chart

SEAT_NAMES = ("North", "East", "South", "West")
"""Seat 0 to 3, clockwise from the first dealer."""
NIGHT_ORDER = (Night.Status.PLAYING, Night.Status.CHECK_IN)


@dataclass
class WallTable:
    """One table of a round: its number, its seats (``(seat name, player name)`` clockwise) or,
    in a team season, its two teams, and its game once the round has started."""

    number: int
    seats: list[tuple[str, str]] = field(default_factory=list)
    teams: tuple[str, str] | None = None
    game: Game | None = None


@dataclass
class WallRound:
    title: str
    tables: list[WallTable] = field(default_factory=list)
    byes: list[str] = field(default_factory=list)


@dataclass
class Wall:
    night: Night | None
    current: WallRound | None = None
    next: WallRound | None = None
    bracket: Bracket | None = None


def wall_night(*, season: Season) -> Night | None:
    """The night on the wall (see the module's words)."""
    nights = Night.objects.filter(season=season).not_archived()
    for status in NIGHT_ORDER:
        night = nights.filter(status=status).order_by("-date", "-pk").first()
        if night is not None:
            return night
    return nights.filter(date=timezone.localdate()).exclude(status=Night.Status.FINISHED).first()


def _seated_round(chart: RoundChart) -> WallRound:
    return WallRound(
        title=f"Round {chart.number}",
        tables=[
            WallTable(
                number=table.number,
                seats=[
                    (SEAT_NAMES[seat], player.name) for seat, player in enumerate(table.players)
                ],
                game=table.game,
            )
            for table in chart.tables
        ],
        byes=[player.name for player in chart.byes],
    )


def _rotation_rounds(night: Night) -> tuple[WallRound | None, WallRound | None]:
    charts = night_chart(night=night)  # a published plan's rounds, none of a draft
    started = [chart for chart in charts if chart.status != PlannedRound.Status.PLANNED]
    current = started[-1] if started else None
    after = current.number if current is not None else 0
    upcoming = next(
        (c for c in charts if c.number > after and c.status == PlannedRound.Status.PLANNED), None
    )
    return (
        _seated_round(current) if current is not None else None,
        _seated_round(upcoming) if upcoming is not None else None,
    )


def _game_round(title: str, games: list[Game]) -> WallRound:
    tables = []
    for index, game in enumerate(games, start=1):
        players = [game.seat_0, game.seat_1, game.seat_2, game.seat_3]
        tables.append(
            WallTable(
                number=game.table_number or index,
                seats=[(SEAT_NAMES[seat], player.name) for seat, player in enumerate(players)],
                teams=(game.side_name("A"), game.side_name("B")),
                game=game,
            )
        )
    return WallRound(title=title, tables=tables)


def _game_rounds(games: list[Game]) -> list[tuple[int, list[Game]]]:
    """The games by round, rounds from the first with a game not over."""
    rounds = [
        (number or 0, list(group))
        for number, group in groupby(games, key=lambda game: game.round_number)
    ]
    while rounds and all(game.status == Game.Status.FINISHED for game in rounds[0][1]):
        rounds.pop(0)
    return rounds


def _team_games():
    return (
        Game.objects.exclude(status=Game.Status.VOIDED)
        .select_related("team_a", "team_b", "seat_0", "seat_1", "seat_2", "seat_3")
        .order_by("round_number", "table_number", "pk")
    )


def wall_get(*, season: Season) -> Wall:
    """The seating the wall shows now (see the module's words)."""
    night = wall_night(season=season)
    brackets = season_published_brackets(season=season)
    wall = Wall(night=night, bracket=brackets[-1] if brackets else None)
    if night is not None and NightPlan.objects.filter(night=night).exists():
        wall.current, wall.next = _rotation_rounds(night)
        return wall
    if night is not None:
        rounds = _game_rounds(list(_team_games().filter(night=night)))
    else:
        rounds = _game_rounds(
            list(
                _team_games().filter(
                    season=season,
                    night__isnull=True,
                    status__in=[Game.Status.SCHEDULED, Game.Status.IN_PROGRESS],
                )
            )
        )[:1]
    if rounds:
        wall.current = _game_round(f"Round {rounds[0][0]}", rounds[0][1])
    if len(rounds) > 1:
        wall.next = _game_round(f"Round {rounds[1][0]}", rounds[1][1])
    return wall


def wall_version(*, season: Season) -> str:
    """A short digest that changes whenever what the wall seats changes without a result changing
    the season's versions: a plan published or re-planned, a round started, a game created,
    voided or moved, a night's status (for the key of the cached wall)."""
    games = Game.objects.filter(season=season).aggregate(count=Count("pk"), last=Max("updated_at"))
    plans = NightPlan.objects.filter(night__season=season).aggregate(
        count=Count("pk"), last=Max("updated_at"), rounds=Count("planned_rounds")
    )
    started = PlannedRound.objects.filter(plan__night__season=season).aggregate(
        last=Max("started_at"), finished=Max("finished_at")
    )
    nights = ",".join(
        f"{pk}{status}"
        for pk, status in Night.objects.filter(season=season)
        .values_list("pk", "status")
        .order_by("pk")
    )
    parts = [
        games["count"],
        games["last"],
        plans["count"],
        plans["last"],
        plans["rounds"],
        started["last"],
        started["finished"],
        nights,
        len(season_published_brackets(season=season)),
        timezone.localdate(),
    ]
    return hashlib.blake2b(repr(parts).encode(), digest_size=10).hexdigest()
