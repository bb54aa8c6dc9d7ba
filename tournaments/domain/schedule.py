"""A team season's schedule: every team meets every other once or twice, over the season's nights.

Words used here (see also ``round_robin.py``):

- **season schedule**: the rounds of a round robin of the season's teams (seeds ``1..n``), one or
  two **cycles**, shared out over the season's **nights**.
- **night**: one evening of play, numbered from 1; it holds one or more consecutive rounds.
- **round**: one sitting, in which every team plays once, except the team with the **bye** when
  the number of teams is odd. Byes are balanced: by Berger tables each team sits out exactly once
  per cycle, and never twice in a night unless a night holds more rounds than there are teams.

How rounds are shared out: ``R`` rounds over ``N`` nights give every night ``R // N`` rounds and
the first ``R mod N`` nights one more, so nights differ by at most one round and the heavier
nights come first (a night cut short by weather is then more likely to be a light one).

Pure Python: no Django import here.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.errors import DomainError
from tournaments.domain.round_robin import RoundRobinRound, berger_rounds


@dataclass(frozen=True)
class ScheduledNight:
    """One night of the season and the rounds played on it."""

    number: int
    rounds: tuple[RoundRobinRound, ...]


@dataclass(frozen=True)
class SeasonSchedule:
    """A season's schedule: ``team_count`` teams, ``cycles`` round robins, night by night."""

    team_count: int
    cycles: int
    nights: tuple[ScheduledNight, ...]

    @property
    def rounds(self) -> tuple[RoundRobinRound, ...]:
        """Every round of the season, in order."""
        return tuple(played for night in self.nights for played in night.rounds)

    def night_of_round(self, round_number: int) -> int:
        """The night on which round ``round_number`` is played."""
        for night in self.nights:
            if any(played.number == round_number for played in night.rounds):
                return night.number
        raise DomainError(f"There is no round {round_number} in this schedule.", field="round")


def season_schedule(
    *,
    team_count: int,
    nights: int,
    cycles: int = 1,
    max_rounds_per_night: int | None = None,
) -> SeasonSchedule:
    """Share a round robin of ``team_count`` teams (``cycles`` times) over ``nights`` nights.

    A ``DomainError`` if there are more nights than rounds (a night with nothing to play), or if
    the rounds do not fit in ``nights`` nights of at most ``max_rounds_per_night`` rounds.
    """
    rounds = berger_rounds(team_count, cycles=cycles)
    if nights < 1:
        raise DomainError("A season needs at least one night.", field="nights")
    if nights > len(rounds):
        raise DomainError(
            f"{team_count} teams play {len(rounds)} rounds in "
            f"{'a double' if cycles == 2 else 'a single'} round robin: fewer than {nights} "
            "nights. Use fewer nights or more cycles.",
            field="nights",
        )
    per_night, heavier = divmod(len(rounds), nights)
    busiest = per_night + (1 if heavier else 0)
    if max_rounds_per_night is not None and busiest > max_rounds_per_night:
        raise DomainError(
            f"{len(rounds)} rounds over {nights} nights means {busiest} rounds on some nights, "
            f"more than the {max_rounds_per_night} a night can hold. Add nights.",
            field="nights",
        )
    scheduled = []
    start = 0
    for night in range(1, nights + 1):
        count = per_night + (1 if night <= heavier else 0)
        scheduled.append(ScheduledNight(number=night, rounds=rounds[start : start + count]))
        start += count
    return SeasonSchedule(team_count=team_count, cycles=cycles, nights=tuple(scheduled))
