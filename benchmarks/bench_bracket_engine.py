"""Bracket engine alone (no database): a 1,024-team double elimination played through.

Run: ``python benchmarks/bench_bracket_engine.py``. Prints its figures; not a test.

- build: the structure (2,047 matches with the reset);
- play through, one ``play`` per result: what a service pays if it replays the bracket after each
  finished game to find the matches that became ready (the per-advance figure);
- play through, one ``advance`` per result: the matches downstream of the result only (what
  ``bracket_advance`` asks of the engine now);
- play through, one ``play`` per wave of ready matches;
- one correction preview (``correct_result``) of a first-round match once everything is played.
"""

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.domain.brackets import MatchState, correct_result, play
from tournaments.domain.brackets import advance as advance_one
from tournaments.domain.elimination import double_elimination

TEAMS = 1024
SEED = 1


def main() -> None:
    started = time.perf_counter()
    structure = double_elimination(TEAMS, grand_final_reset=True)
    built = time.perf_counter() - started
    print(f"build: {TEAMS} teams, {len(structure.matches)} matches in {built * 1000:.1f} ms")

    rng = random.Random(SEED)
    results: dict[str, int] = {}
    per_advance = []
    state = play(structure, results)
    while state.ready:
        code = state.ready[0]
        results[code] = rng.choice(state.matches[code].teams)
        started = time.perf_counter()
        state = play(structure, results)
        per_advance.append(time.perf_counter() - started)
    print(
        f"play after each result: {len(results)} results, total {sum(per_advance):.2f} s, "
        f"per advance median {statistics.median(per_advance) * 1000:.2f} ms, "
        f"max {max(per_advance) * 1000:.2f} ms; champion seed {state.champion}"
    )

    rng = random.Random(SEED)
    kept = {
        code: MatchState(
            code,
            match.status,
            match.first if isinstance(match.first, int) else None,
            match.second if isinstance(match.second, int) else None,
        )
        for code, match in play(structure, {}).matches.items()
    }
    ready = [code for code in play(structure, {}).ready]
    per_result = []
    while ready:
        code = ready.pop(0)
        winner = rng.choice((kept[code].first, kept[code].second))
        started = time.perf_counter()
        changed = advance_one(structure, kept, code=code, winner=winner)
        per_result.append(time.perf_counter() - started)
        kept.update(changed)
        ready.extend(other for other, match in changed.items() if match.status == "ready")
    print(
        f"advance after each result: {len(per_result)} results, total "
        f"{sum(per_result) * 1000:.1f} ms, per advance median "
        f"{statistics.median(per_result) * 1e6:.1f} us"
    )

    rng = random.Random(SEED)
    results = {}
    started = time.perf_counter()
    waves = 0
    state = play(structure, results)
    while state.ready:
        for code in state.ready:
            results[code] = rng.choice(state.matches[code].teams)
        state = play(structure, results)
        waves += 1
    elapsed = time.perf_counter() - started
    print(f"play per wave: {waves} waves, {len(results)} results in {elapsed * 1000:.0f} ms")

    started = time.perf_counter()
    first = "W1-1"
    teams = state.matches[first].teams
    loser = teams[1] if results[first] == teams[0] else teams[0]
    correction = correct_result(structure, results, code=first, winner=loser)
    elapsed = time.perf_counter() - started
    print(
        f"correction preview of {first}: {len(correction.reset)} matches reset "
        f"in {elapsed * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
