"""Scoring-engine throughput: hands scored per second, per preset, on one core.

Run: ``python benchmarks/bench_engine.py`` (or ``make bench``). Prints its figures; not a test.
"""

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import contextlib

from core.errors import DomainError
from league.domain.rules import PRESETS
from scoring.games.domain.engine import HandFacts, Side, game_state, score_hand

HANDS = 200_000


def sample_hands(count: int, seed: int = 1) -> list[HandFacts]:
    chance = random.Random(seed)
    hands = []
    for _ in range(count):
        caller_alone = chance.random() < 0.1
        hands.append(
            HandFacts(
                makers=chance.choice((Side.A, Side.B)),
                caller_alone=caller_alone,
                defender_alone=caller_alone and chance.random() < 0.2,
                tricks_won=chance.choices(range(6), weights=(1, 2, 5, 12, 8, 5))[0],
                renege=chance.choice((Side.A, Side.B)) if chance.random() < 0.01 else None,
            )
        )
    return hands


def main() -> None:
    hands = sample_hands(HANDS)
    print(f"Scoring engine: {HANDS:,} random hands per preset (Python {sys.version.split()[0]})")
    print(f"{'preset':<12} {'hands/s':>12} {'µs/hand':>9} {'refused':>8} {'games/s':>10}")
    for slug, preset in PRESETS.items():
        rulebook = preset.rulebook
        refused = 0
        scores = []
        started = time.perf_counter()
        for hand in hands:
            try:
                scores.append(score_hand(rulebook, hand))
            except DomainError:
                refused += 1
        elapsed = time.perf_counter() - started
        # game_state over games of 12 hands (a typical game to 10)
        games = [scores[index : index + 12] for index in range(0, 12_000, 12)]
        started_games = time.perf_counter()
        for game in games:
            with contextlib.suppress(DomainError):
                game_state(rulebook, game)
        games_elapsed = time.perf_counter() - started_games
        print(
            f"{slug:<12} {HANDS / elapsed:>12,.0f} {elapsed / HANDS * 1e6:>9.2f} "
            f"{refused:>8,} {len(games) / games_elapsed:>10,.0f}"
        )


if __name__ == "__main__":
    main()
