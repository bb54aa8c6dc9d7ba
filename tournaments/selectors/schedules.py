"""Reading a team season's schedule (a selector: it never writes)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from league.models import Night, Season, Team
from scoring.games.models import Game
from tournaments.models import TeamSchedule


@dataclass(frozen=True)
class ScheduledRound:
    number: int
    games: list[Game]
    bye: Team | None


@dataclass(frozen=True)
class ScheduledNightLine:
    night: Night
    rounds: list[ScheduledRound]


@dataclass(frozen=True)
class ScheduleSummary:
    schedule: TeamSchedule
    nights: list[ScheduledNightLine]

    @property
    def game_count(self) -> int:
        return sum(len(played.games) for night in self.nights for played in night.rounds)

    def byes_of(self) -> dict[str, int]:
        """Byes per team name (balanced: they differ by at most one)."""
        counted: Counter[str] = Counter()
        for night in self.nights:
            for played in night.rounds:
                if played.bye is not None:
                    counted[played.bye.name] += 1
        return dict(counted)


def season_schedule_summary(*, season: Season) -> ScheduleSummary | None:
    """A season's schedule night by night, round by round (a selector); ``None`` if it has
    none. An archived night is left out, with its games."""
    schedule = TeamSchedule.objects.filter(season=season).first()
    if schedule is None:
        return None
    teams = {team.pk: team for team in season.teams.all()}
    byes = {(bye["night"], bye["round"]): teams.get(bye["team"]) for bye in schedule.byes}
    games = (
        Game.objects.filter(
            season=season,
            night__isnull=False,
            night__archived_at__isnull=True,
            team_a__isnull=False,
        )
        .select_related("team_a", "team_b", "night")
        .order_by("night__date", "night_id", "round_number", "table_number")
    )
    nights: dict[int, ScheduledNightLine] = {}
    rounds: dict[tuple[int, int], ScheduledRound] = {}
    for game in games:
        line = nights.setdefault(game.night_id, ScheduledNightLine(game.night, []))
        key = (game.night_id, game.round_number)
        if key not in rounds:
            rounds[key] = ScheduledRound(game.round_number, [], byes.get(key))
            line.rounds.append(rounds[key])
        rounds[key].games.append(game)
    return ScheduleSummary(schedule, list(nights.values()))
