"""How far a season has got: its nights not finished and its games not played (a selector: it
never writes). What seeding a bracket from the standings warns about before the season ends."""

from __future__ import annotations

from dataclasses import dataclass

from league.models import Night, Season
from scoring.games.models import Game


@dataclass(frozen=True)
class SeasonProgress:
    """The season's nights still to finish (in date order) and its standings games (not a
    bracket's) being played or not started."""

    nights_left: list[Night]
    games_playing: int
    games_not_started: int

    @property
    def is_complete(self) -> bool:
        return not (self.nights_left or self.games_playing or self.games_not_started)

    def words(self) -> str:
        """What is unfinished, e.g. "5 nights not finished (from Tue 22 Sep 2026), 1 game being
        played"; empty when nothing is."""
        parts = []
        if self.nights_left:
            count = len(self.nights_left)
            first = f"{self.nights_left[0].date:%a %-d %b %Y}"
            parts.append(
                f"1 night not finished ({first})"
                if count == 1
                else f"{count} nights not finished (from {first})"
            )
        if self.games_playing:
            parts.append(
                f"{self.games_playing} game{'s' if self.games_playing != 1 else ''} being played"
            )
        if self.games_not_started:
            count = self.games_not_started
            parts.append(f"{count} game{'s' if count != 1 else ''} not started")
        return ", ".join(parts)


def season_progress(*, season: Season) -> SeasonProgress:
    nights_left = list(
        Night.objects.not_archived()
        .filter(season=season)
        .exclude(status=Night.Status.FINISHED)
        .order_by("date", "pk")
    )
    games = Game.objects.filter(season=season, counts_for_standings=True)
    return SeasonProgress(
        nights_left=nights_left,
        games_playing=games.filter(status=Game.Status.IN_PROGRESS).count(),
        games_not_started=games.filter(status=Game.Status.SCHEDULED).count(),
    )
