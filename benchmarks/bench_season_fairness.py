"""Season fairness of rotations: planned night by night (no memory) against season-aware.

Run from the repository root: ``python benchmarks/bench_season_fairness.py`` (options:
``--seasons 8 --rounds 6 --seed 0``). Each seeded season draws 10 to 16 nights, a roster of 16 to
40 players, a chance of coming (0.6 to 0.9) and a rating per player; every night the same players
come for every planner. Three planners get the same inputs:

- ``night``: today's planner, each night on its own (no history);
- ``season``: the same planner with the season so far (``SeasonHistory``: partners, opponents,
  sit-outs and nights together of the earlier nights);
- ``balanced``: season-aware with the partner-strength balance on.

Printed per season, side by side: the most times any pair partnered; repeated partnerships (each
partnership of a pair beyond its first); *avoidable* repeats (those beyond the partnerships that
cannot all be new: every partnership more than the pairs who ever came together); *unfair
pairs*: pairs who partnered twice or more while some pair who came together at least as often
never partnered; the spread of byes (most − fewest per player); the spread of average partner
rating (over everyone who came, and over the regulars who came to at least half the nights);
nights at their within-night bound; CPU seconds of planning per night (mean and most: the
process's own CPU time, as the wall clock of a busy machine says little). Then each figure's
mean and min / median / max over the seasons, with *forced* repeats (partnerships made minus
pairs who ever came together: the same for every planner, since all make as many partnerships
among the same attendances, and a floor no planner can go below), one 40-player night planned
against a long history, and each target with MET or NOT MET. Not a timed test: seconds depend
on the machine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.domain.rotation import (
    SeasonHistory,
    full_cycle_length,
    plan_rotation,
    rotation_report,
)
from tournaments.domain.rotation_chart import OPPONENT_SEATS, PARTNER_SEATS

PLANNERS = ("night", "season", "balanced")


class Ledger:
    """One planner's season so far: partner, opponent and sit-out counts, and partner ratings."""

    def __init__(self, ratings: dict[int, float]) -> None:
        self.partners: dict[frozenset[int], int] = {}
        self.opponents: dict[frozenset[int], int] = {}
        self.sit_outs: dict[int, int] = {}
        self.ratings = ratings
        self.partner_rating_totals: dict[int, float] = {}
        self.partner_games: dict[int, int] = {}
        self.nights_at_bound = 0
        self.seconds: list[float] = []

    def history(self, together: dict[frozenset[int], int]) -> SeasonHistory:
        return SeasonHistory(
            partners=dict(self.partners),
            opponents=dict(self.opponents),
            sit_outs=dict(self.sit_outs),
            ratings=self.ratings,
            together=dict(together),
        )

    def add(self, rotation) -> None:
        for round_ in rotation.rounds:
            for table in round_.tables:
                for first, second in PARTNER_SEATS:
                    x, y = table[first], table[second]
                    pair = frozenset((x, y))
                    self.partners[pair] = self.partners.get(pair, 0) + 1
                    for player, mate in ((x, y), (y, x)):
                        self.partner_rating_totals[player] = (
                            self.partner_rating_totals.get(player, 0.0) + self.ratings[mate]
                        )
                        self.partner_games[player] = self.partner_games.get(player, 0) + 1
                for first, second in OPPONENT_SEATS:
                    pair = frozenset((table[first], table[second]))
                    self.opponents[pair] = self.opponents.get(pair, 0) + 1
            for player in round_.byes:
                self.sit_outs[player] = self.sit_outs.get(player, 0) + 1


def season_figures(
    ledger: Ledger,
    together: dict[frozenset[int], int],
    nights_came: dict[int, int],
    nights_played: int,
) -> dict:
    came = set(nights_came)
    counts = {pair: ledger.partners.get(pair, 0) for pair in together}
    repeats = sum(max(0, count - 1) for count in counts.values())
    forced = max(0, sum(counts.values()) - len(counts))
    never_partnered_most_together = max(
        (together[pair] for pair, count in counts.items() if count == 0), default=-1
    )
    unfair = sum(
        1
        for pair, count in counts.items()
        if count >= 2 and together[pair] <= never_partnered_most_together
    )
    byes = [ledger.sit_outs.get(player, 0) for player in came]
    averages = [
        ledger.partner_rating_totals[p] / ledger.partner_games[p]
        for p in came
        if ledger.partner_games.get(p)
    ]
    regular = [
        ledger.partner_rating_totals[p] / ledger.partner_games[p]
        for p in came
        if 2 * nights_came[p] >= nights_played and ledger.partner_games.get(p)
    ]
    return {
        "most": max(counts.values(), default=0),
        "repeats": repeats,
        "avoidable": repeats - forced,
        "forced": forced,
        "unfair": unfair,
        "bye_spread": max(byes) - min(byes),
        "strength_spread": max(averages) - min(averages),
        "strength_regulars": max(regular) - min(regular) if regular else 0.0,
        "mean_seconds": sum(ledger.seconds) / len(ledger.seconds),
        "most_seconds": max(ledger.seconds),
        "at_bound": ledger.nights_at_bound,
    }


def simulate(season_seed: int, rounds_wanted: int) -> tuple[dict, dict[str, dict]]:
    generator = random.Random(season_seed)
    nights = generator.randint(10, 16)
    roster = list(range(1, generator.randint(16, 40) + 1))
    chance = generator.uniform(0.6, 0.9)
    ratings = {player: round(generator.gauss(1000.0, 150.0)) for player in roster}
    ledgers = {name: Ledger(ratings) for name in PLANNERS}
    together: dict[frozenset[int], int] = {}
    nights_came: dict[int, int] = {}
    bound_misses = 0
    nights_played = 0
    for night in range(nights):
        present = [player for player in roster if generator.random() < chance]
        if len(present) < 4:
            continue
        nights_played += 1
        together_before = dict(together)
        for player in present:
            nights_came[player] = nights_came.get(player, 0) + 1
        for i, x in enumerate(present):
            for y in present[i + 1 :]:
                pair = frozenset((x, y))
                together[pair] = together.get(pair, 0) + 1
        rounds = min(rounds_wanted, full_cycle_length(len(present)))
        bounds = {}
        for name, ledger in ledgers.items():
            started = time.process_time()
            planned = plan_rotation(
                present,
                rounds,
                seed=night,
                history=None if name == "night" else ledger.history(together_before),
                balance_partner_strength=name == "balanced",
            )
            ledger.seconds.append(time.process_time() - started)
            report = rotation_report(planned.rotation, present)
            bounds[name] = report.at_bound
            ledger.nights_at_bound += report.at_bound
            ledger.add(planned.rotation)
        bound_misses += any(bounds[name] < bounds["night"] for name in PLANNERS)
    shape = {
        "seed": season_seed,
        "nights": nights_played,
        "roster": len(roster),
        "chance": chance,
        "bound_misses": bound_misses,
    }
    return shape, {
        name: season_figures(ledger, together, nights_came, nights_played)
        for name, ledger in ledgers.items()
    }


def forty_player_night() -> tuple[tuple[float, float], tuple[float, float]]:
    """Seconds (wall clock, CPU) to plan 40 players over 8 rounds against twelve nights of
    history, without and with the balance."""
    generator = random.Random(40)
    players = list(range(1, 41))
    ratings = {player: generator.gauss(1000.0, 150.0) for player in players}
    ledger = Ledger(ratings)
    for night in range(12):
        ledger.add(plan_rotation(players, 8, seed=100 + night).rotation)
    together = {frozenset((x, y)): 12 for i, x in enumerate(players) for y in players[i + 1 :]}
    times = []
    for balance in (False, True):
        started, cpu = time.perf_counter(), time.process_time()
        plan_rotation(
            players, 8, seed=7, history=ledger.history(together), balance_partner_strength=balance
        )
        times.append((time.perf_counter() - started, time.process_time() - cpu))
    return times[0], times[1]


def spread_of(values: list[float]) -> str:
    """min / median / max of a figure over the seasons."""
    return f"{min(values):.0f} / {statistics.median(values):.1f} / {max(values):.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seasons", type=int, default=8)
    parser.add_argument(
        "--rounds", type=int, default=6, help="rounds a night (capped at the cycle)"
    )
    parser.add_argument("--seed", type=int, default=0, help="the first season's seed")
    options = parser.parse_args()
    columns = (
        "most",
        "repeats",
        "avoidable",
        "unfair",
        "bye_spread",
        "strength_spread",
        "strength_regulars",
    )
    print(
        "per season: night-by-night | season-aware | season-aware + strength balance "
        f"({options.rounds} rounds a night, capped at the full cycle)"
    )
    header = f"{'seed':>4} {'nights':>6} {'roster':>6} {'p':>4}  " + "  ".join(
        f"{column:>20}" for column in (*columns, "at bound", "s/night mean|max")
    )
    print(header)
    per_season: dict[str, dict[str, list[float]]] = {
        name: {column: [] for column in (*columns, "forced")} for name in PLANNERS
    }
    worse_seasons = []
    misses = 0
    nights_total = 0
    slowest = 0.0
    for offset in range(options.seasons):
        shape, figures = simulate(options.seed + offset, options.rounds)
        misses += shape["bound_misses"]
        nights_total += shape["nights"]
        cells = []
        for column in columns:
            values = [figures[name][column] for name in PLANNERS]
            text = " | ".join(f"{v:.0f}" for v in values)
            cells.append(f"{text:>20}")
        for name in PLANNERS:
            for column in (*columns, "forced"):
                per_season[name][column].append(figures[name][column])
        cells.append(f"{' | '.join(str(figures[name]['at_bound']) for name in PLANNERS):>20}")
        means = " | ".join(f"{figures[n]['mean_seconds']:.2f}" for n in PLANNERS)
        most_seconds = max(figures[n]["most_seconds"] for n in PLANNERS)
        cells.append(f"{means:>20} max {most_seconds:.2f}")
        slowest = max(slowest, *(figures[n]["most_seconds"] for n in PLANNERS))
        print(
            f"{shape['seed']:>4} {shape['nights']:>6} {shape['roster']:>6} "
            f"{shape['chance']:>4.2f}  " + "  ".join(cells),
            flush=True,
        )
        for name in ("season", "balanced"):
            if any(
                figures[name][column] > figures["night"][column]
                for column in ("most", "repeats", "avoidable", "unfair")
            ):
                worse_seasons.append((shape["seed"], name))
    print()
    print(
        f"{'over seasons':<20}"
        + "".join(f"{name + ' mean':>14}{'min / median / max':>22}" for name in PLANNERS)
    )
    for column in (*columns, "forced"):
        print(
            f"{column:<20}"
            + "".join(
                f"{statistics.mean(per_season[name][column]):>14.1f}"
                f"{spread_of(per_season[name][column]):>22}"
                for name in PLANNERS
            )
        )
    totals = {
        name: {column: sum(values) for column, values in figures.items()}
        for name, figures in per_season.items()
    }
    cuts = {}
    for column in ("repeats", "avoidable", "unfair"):
        night_total = totals["night"][column]
        cuts[column] = {
            name: 1 - totals[name][column] / night_total if night_total else 0.0
            for name in ("season", "balanced")
        }
    # Every planner makes the same number of partnerships among the same attendances, so the
    # repeats a night-by-night plan has beyond the forced ones are all any planner can save.
    possible_cut = (
        totals["night"]["avoidable"] / totals["night"]["repeats"]
        if totals["night"]["repeats"]
        else 0.0
    )
    per_season_cuts = [
        1 - season / night if night else 0.0
        for season, night in zip(
            per_season["season"]["repeats"], per_season["night"]["repeats"], strict=True
        )
    ]
    with_balance, without_balance = (
        statistics.mean(per_season["balanced"]["strength_spread"]),
        statistics.mean(per_season["season"]["strength_spread"]),
    )
    regulars_with, regulars_without = (
        statistics.mean(per_season["balanced"]["strength_regulars"]),
        statistics.mean(per_season["season"]["strength_regulars"]),
    )
    forty_plain, forty_balanced = forty_player_night()
    forty_most = max(forty_plain[1], forty_balanced[1], slowest)

    def verdict(met: bool) -> str:
        return "MET" if met else "NOT MET"

    print()
    print("targets")
    print(
        "  season-aware never worse than night-by-night (most, repeats, avoidable, unfair) on "
        f"any season: {verdict(not worse_seasons)}"
        + (f" (worse: {worse_seasons})" if worse_seasons else "")
    )
    print(
        f"  at least 50% fewer repeated partnerships on average: "
        f"{verdict(cuts['repeats']['season'] >= 0.5)}: season-aware "
        f"{cuts['repeats']['season']:.0%} fewer ({cuts['repeats']['balanced']:.0%} with the "
        f"balance; per season {spread_of([100 * c for c in per_season_cuts])} %). Out of reach: "
        f"{statistics.mean(per_season['night']['forced']):.1f} of the night-by-night planner's "
        f"{statistics.mean(per_season['night']['repeats']):.1f} repeats a season are forced "
        "(partnerships made minus pairs who ever came together), so no planner can cut more than "
        f"{possible_cut:.0%}"
    )
    print(
        f"  at least 50% fewer repeats beyond the forced ones on average: "
        f"{verdict(cuts['avoidable']['season'] >= 0.5)}: season-aware "
        f"{cuts['avoidable']['season']:.0%} fewer ({cuts['avoidable']['balanced']:.0%} with the "
        "balance)"
    )
    print(
        "  at least 50% fewer pairs who partnered twice while a pair who came together as often "
        f"never did (the issue's printed repeat figure): {verdict(cuts['unfair']['season'] >= 0.5)}"
        f": season-aware {cuts['unfair']['season']:.0%} fewer ({cuts['unfair']['balanced']:.0%} "
        "with the balance)"
    )
    print(
        f"  every night at least at the night-by-night plan's within-night bound: "
        f"{verdict(misses == 0)}: {misses} of {nights_total} nights fell below it"
    )
    print(
        f"  partner-strength spread with the balance {with_balance:.0f}, without "
        f"{without_balance:.0f} (among regulars, who came to at least half the nights: "
        f"{regulars_with:.0f} and {regulars_without:.0f})"
    )
    print(
        f"  planning at most 2 s of CPU a night for 40 players: {verdict(forty_most <= 2.0)}: "
        f"40 players, 8 rounds, 12 nights of history: {forty_plain[1]:.2f} s of CPU "
        f"({forty_plain[0]:.2f} s wall), {forty_balanced[1]:.2f} s of CPU "
        f"({forty_balanced[0]:.2f} s wall) with the balance; slowest night of the seasons "
        f"{slowest:.2f} s of CPU"
    )


if __name__ == "__main__":
    main()
