"""The playoff race for a 40-team season with 10 nights left: proofs and odds, on one core.

Run: ``python benchmarks/bench_race.py`` (or ``make bench``). Prints its figures; not a test.
Floor, measured in the same run: the bare simulation loop (one coin per remaining game for
every simulated season, no ranking), which any Monte Carlo of the same size must pay.
"""

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.standings.domain.projection import (
    DEFAULT_PROJECTION_RUNS,
    NightLeft,
    ProjectionInput,
    ProjectionPlayer,
    project_ranks,
)
from scoring.standings.domain.race import (
    DEFAULT_RUNS,
    RaceEntrant,
    RaceInput,
    race_certainty,
    race_report,
)

TEAMS = 40


def season(nights_left: int, played: int, spots: int, seed: int = 1) -> RaceInput:
    """A round of games a night (every team plays), ``played`` games behind everyone, and the
    wins so far spread like a real table (strong teams win more)."""
    rng = random.Random(seed)
    strength = {team: rng.random() for team in range(1, TEAMS + 1)}
    wins = {
        team: sum(rng.random() < 0.25 + 0.5 * strength[team] for _ in range(played))
        for team in strength
    }
    ids = list(strength)
    remaining = []
    for _night in range(nights_left):
        rng.shuffle(ids)
        remaining += [(ids[i], ids[i + 1]) for i in range(0, TEAMS, 2)]
    entrants = tuple(RaceEntrant(team, wins[team], played + nights_left) for team in strength)
    return RaceInput(entrants=entrants, remaining=tuple(remaining), spots=spots)


def floor(race: RaceInput, runs: int) -> float:
    rng = random.Random(0)
    units = [entrant.units for entrant in race.entrants]
    started = time.perf_counter()
    for _ in range(runs):
        final = units[:]
        for first, _second in race.remaining:
            if rng.random() < 0.5:
                final[first - 1] += 1
    return time.perf_counter() - started


def main() -> None:
    print(f"Playoff race, {TEAMS} teams, {DEFAULT_RUNS:,} simulated seasons (one core)")
    print(
        f"{'nights left':>11} {'spots':>5} {'games':>6} {'proofs s':>9} {'report s':>9}"
        f" {'floor s':>8} {'ratio':>6} {'clinched':>8} {'out':>4} {'undecided':>9}"
    )
    for nights_left, played, spots in ((10, 20, 8), (10, 20, 1), (10, 20, 16), (3, 27, 8)):
        race = season(nights_left, played, spots)
        started = time.perf_counter()
        proofs = race_certainty(race)
        proof_seconds = time.perf_counter() - started
        started = time.perf_counter()
        report = race_report(race)
        report_seconds = time.perf_counter() - started
        bare = floor(race, DEFAULT_RUNS)
        clinched = sum(line.playoffs.clinched for line in report.lines)
        out = sum(line.playoffs.eliminated for line in report.lines)
        undecided = sum(not proof.decided for proof in proofs.values())
        print(
            f"{nights_left:>11} {spots:>5} {len(race.remaining):>6} {proof_seconds:>9.3f}"
            f" {report_seconds:>9.3f} {bare:>8.3f} {report_seconds / bare:>6.1f}"
            f" {clinched:>8} {out:>4} {undecided:>9}"
        )
    print("report = proofs for the spots and for first place, wins to clinch, and the odds.")
    individual()


def individual(players: int = TEAMS, nights_left: int = 5, rounds: int = 7) -> None:
    """Projected ranks of an individual season: ``players`` players (most come most nights),
    ``nights_left`` nights of ``rounds`` rounds each seated at random. Floor: the same number of
    shuffles of the night's players and coins for its tables, without ranks or win chances."""
    rng = random.Random(2)
    field = tuple(
        ProjectionPlayer(
            number,
            rng.randint(5, 30),
            40,
            attendance=rng.uniform(0.5, 1.0),
            mu=rng.uniform(20, 30),
            sigma=rng.uniform(2, 6),
        )
        for number in range(1, players + 1)
    )
    field = tuple(sorted(field, key=lambda player: -player.units))
    projection = ProjectionInput(
        players=field, nights=tuple(NightLeft(rounds) for _ in range(nights_left))
    )
    started = time.perf_counter()
    project_ranks(projection, runs=DEFAULT_PROJECTION_RUNS)
    seconds = time.perf_counter() - started
    coins = random.Random(0)
    present = list(range(players))
    started = time.perf_counter()
    for _ in range(DEFAULT_PROJECTION_RUNS):
        for _night in range(nights_left):
            for _round in range(rounds):
                coins.shuffle(present)
                for _table in range(players // 4):
                    coins.random()
    bare = time.perf_counter() - started
    print(
        f"Projected ranks, {players} players, {nights_left} nights of {rounds} rounds left,"
        f" {DEFAULT_PROJECTION_RUNS:,} runs: {seconds:.3f} s, floor {bare:.3f} s,"
        f" ratio {seconds / bare:.1f}"
    )


if __name__ == "__main__":
    main()
