"""The playoff race's proofs, checked against brute force over every outcome of small leagues."""

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import DomainError
from scoring.standings.domain.race import (
    RaceEntrant,
    RaceInput,
    _simulate,
    race_certainty,
    race_need,
    race_report,
    stake_sentence,
)


def outcomes(race: RaceInput):
    """Every way the remaining games can end, as final units per entrant."""
    unit = race.unit
    splits = [(unit, 0), (0, unit)] + ([(1, 1)] if race.draws_possible else [])
    start = {entrant.id: entrant.units for entrant in race.entrants}
    for results in itertools.product(splits, repeat=len(race.remaining)):
        final = dict(start)
        for (first, second), (to_first, to_second) in zip(race.remaining, results, strict=True):
            final[first] += to_first
            final[second] += to_second
        yield final


def ahead(race: RaceInput, final: dict, rival: int, subject: int) -> int:
    """1 if rival is strictly ahead, 0 if level, -1 if behind (exact fractions for win_pct)."""
    if race.measure == "wins":
        a, b = final[rival], final[subject]
    else:
        games = {entrant.id: entrant.games for entrant in race.entrants}
        a = final[rival] * games[subject] if games[rival] else 0
        b = final[subject] * games[rival] if games[subject] else 0
        if games[rival] == 0 or games[subject] == 0:
            # A percentage of no games is 0.
            a = 0 if games[rival] == 0 else (1 if final[rival] > 0 else 0)
            b = 0 if games[subject] == 0 else (1 if final[subject] > 0 else 0)
    return (a > b) - (a < b)


def brute_force(race: RaceInput, spots: int) -> dict[int, tuple[bool, bool]]:
    ids = [entrant.id for entrant in race.entrants]
    clinched = dict.fromkeys(ids, True)
    eliminated = dict.fromkeys(ids, True)
    for final in outcomes(race):
        for subject in ids:
            rivals = [rival for rival in ids if rival != subject]
            strictly = sum(ahead(race, final, rival, subject) > 0 for rival in rivals)
            level_or_more = sum(ahead(race, final, rival, subject) >= 0 for rival in rivals)
            if strictly < spots:
                eliminated[subject] = False
            if level_or_more >= spots:
                clinched[subject] = False
    return {entrant: (clinched[entrant], eliminated[entrant]) for entrant in ids}


def random_race(rng: random.Random, teams: int, games: int, measure: str, draws: bool):
    played = {entrant: rng.randint(0, 6) for entrant in range(1, teams + 1)}
    unit = 2 if draws else 1
    remaining = tuple(tuple(rng.sample(range(1, teams + 1), 2)) for _ in range(games))
    left = {entrant: sum(entrant in game for game in remaining) for entrant in played}
    entrants = tuple(
        RaceEntrant(
            id=entrant,
            units=rng.randint(0, unit * played[entrant]),
            games=played[entrant] + left[entrant],
        )
        for entrant in played
    )
    return RaceInput(entrants=entrants, remaining=remaining, measure=measure, draws_possible=draws)


CASES = [
    (seed, teams, games, measure, draws)
    for seed in range(12)
    for teams, games in ((3, 3), (4, 5), (5, 7), (6, 8))
    for measure in ("wins", "win_pct")
    for draws in (False, True)
    if not (draws and games > 7)
]


@pytest.mark.parametrize(("seed", "teams", "games", "measure", "draws"), CASES)
def test_certainty_matches_brute_force_for_every_cut_line(seed, teams, games, measure, draws):
    race = random_race(random.Random(seed), teams, games, measure, draws)
    for spots in range(1, teams):
        expected = brute_force(race, spots)
        proven = race_certainty(race, spots=spots)
        for entrant, (clinched, eliminated) in expected.items():
            certainty = proven[entrant]
            assert certainty.decided
            assert (certainty.clinched, certainty.eliminated) == (clinched, eliminated), (
                f"entrant {entrant}, {spots} spots: {race}"
            )


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    st.integers(3, 6).flatmap(
        lambda teams: st.tuples(
            st.just(teams),
            st.lists(st.integers(0, 8), min_size=teams, max_size=teams),
            st.lists(
                st.tuples(st.integers(1, teams), st.integers(1, teams)).filter(
                    lambda game: game[0] != game[1]
                ),
                max_size=7,
            ),
            st.integers(1, teams - 1),
        )
    )
)
def test_wins_races_match_brute_force(case):
    _teams, units, remaining, spots = case
    race = RaceInput(
        entrants=tuple(RaceEntrant(id=i + 1, units=u) for i, u in enumerate(units)),
        remaining=tuple(remaining),
    )
    expected = brute_force(race, spots)
    proven = race_certainty(race, spots=spots)
    assert {e: (c.clinched, c.eliminated) for e, c in proven.items()} == expected


def test_the_classic_first_place_elimination_needs_the_flow():
    # Team 4 can reach 6 wins, and no rival is past 6 on its own; but teams 1-3 still play
    # each other twice each, 6 games, and three teams on 5, 5 and 4 wins cannot share 6 wins
    # without one of them reaching 7.
    race = RaceInput(
        entrants=(
            RaceEntrant(1, 5),
            RaceEntrant(2, 5),
            RaceEntrant(3, 4),
            RaceEntrant(4, 4),
        ),
        remaining=((1, 2), (1, 2), (1, 3), (1, 3), (2, 3), (2, 3), (4, 1), (4, 2)),
    )
    assert race_certainty(race)[4] == race_certainty(race)[4].__class__(
        clinched=False, eliminated=True
    )
    assert brute_force(race, 1)[4] == (False, True)


def test_a_race_with_no_games_left_is_decided_by_the_table():
    race = RaceInput(
        entrants=(RaceEntrant(1, 9), RaceEntrant(2, 7), RaceEntrant(3, 7), RaceEntrant(4, 2)),
        remaining=(),
        spots=2,
    )
    proven = race_certainty(race)
    assert proven[1].clinched and not proven[1].eliminated
    # 2 and 3 are level for the second spot: only the tie-breaks can settle it.
    assert not proven[2].clinched and not proven[2].eliminated
    assert proven[4].eliminated


def test_an_exhausted_budget_says_not_yet_decided_and_a_full_one_decides():
    undecided = 0
    for seed in range(40):
        race = random_race(random.Random(seed), 6, 8, "wins", False)
        for spots in (2, 3, 4):
            short = race_certainty(race, spots=spots, budget=1)
            full = race_certainty(race, spots=spots)
            expected = brute_force(race, spots)
            for entrant, certainty in short.items():
                assert not (certainty.clinched and certainty.eliminated)
                if certainty.decided:
                    assert (certainty.clinched, certainty.eliminated) == expected[entrant]
                else:
                    undecided += 1
                    assert not certainty.clinched and not certainty.eliminated
                assert full[entrant].decided
    assert undecided > 0


@pytest.mark.parametrize(
    ("entrants", "remaining", "message"),
    [
        ((RaceEntrant(1, 0), RaceEntrant(1, 2)), (), "once"),
        ((RaceEntrant(1, 0), RaceEntrant(2, 2)), ((1, 3),), "between two entrants"),
        ((RaceEntrant(1, 0), RaceEntrant(2, 2)), ((1, 1),), "between two entrants"),
    ],
)
def test_bad_input_is_refused(entrants, remaining, message):
    with pytest.raises(DomainError, match=message):
        RaceInput(entrants=entrants, remaining=remaining)


def brute_wins_to_clinch(race: RaceInput, subject: int, spots: int) -> int | None:
    """The fewest wins in its own remaining games after which every outcome keeps the subject
    in the spots."""
    games = [game for game in race.remaining if subject in game]
    unit = race.unit
    for wins in range(len(games) + 1):
        safe = True
        for final in outcomes(race):
            start = next(entrant.units for entrant in race.entrants if entrant.id == subject)
            if final[subject] - start < unit * wins:
                continue
            rivals = [entrant.id for entrant in race.entrants if entrant.id != subject]
            if sum(ahead(race, final, rival, subject) >= 0 for rival in rivals) >= spots:
                safe = False
                break
        if safe:
            return wins
    return None


@pytest.mark.parametrize(("seed", "teams", "games", "measure", "draws"), CASES[::3])
def test_wins_to_clinch_matches_brute_force(seed, teams, games, measure, draws):
    from scoring.standings.domain.race import _Race

    race = random_race(random.Random(seed), teams, games, measure, draws)
    view = _Race(race)
    for spots in range(1, teams):
        for entrant in race.entrants:
            expected = brute_wins_to_clinch(race, entrant.id, spots)
            assert view.wins_to_clinch(entrant.id, spots, 10_000) == (expected, True), (
                entrant.id,
                spots,
                race,
            )


def forty_teams(seed: int = 1) -> RaceInput:
    rng = random.Random(seed)
    ids = list(range(1, 41))
    remaining = []
    for _night in range(10):
        rng.shuffle(ids)
        remaining += [(ids[i], ids[i + 1]) for i in range(0, 40, 2)]
    entrants = tuple(RaceEntrant(i, rng.randint(3, 15), 30) for i in range(1, 41))
    return RaceInput(entrants=entrants, remaining=tuple(remaining), spots=8)


def test_odds_are_seeded_and_stable_to_a_point():
    race = random_race(random.Random(5), 6, 8, "wins", False)
    race = RaceInput(entrants=race.entrants, remaining=race.remaining, spots=2)
    one = race_report(race, seed=1)
    assert race_report(race, seed=1) == one
    other = race_report(race, seed=2)
    for a, b in zip(one.lines, other.lines, strict=True):
        assert abs(a.playoff_chance - b.playoff_chance) <= 0.02
        assert abs(a.first_chance - b.first_chance) <= 0.02
    assert sum(line.first_chance for line in one.lines) == pytest.approx(1.0)
    assert sum(line.playoff_chance for line in one.lines) == pytest.approx(2.0)


@pytest.mark.parametrize("seed", range(20))
def test_simulated_seasons_never_contradict_a_proof(seed):
    race = random_race(random.Random(seed), 6, 7, "win_pct" if seed % 2 else "wins", seed % 3 == 0)
    race = RaceInput(
        entrants=race.entrants,
        remaining=race.remaining,
        measure=race.measure,
        draws_possible=race.draws_possible,
        spots=1 + seed % 3,
    )
    rng = random.Random(seed)
    chances = [rng.random() for _ in race.remaining]
    top, _firsts, _ranks, _stakes = _simulate(
        race, chances, [e.id for e in race.entrants], 2_000, seed
    )
    proven = race_certainty(race)
    for entrant, certainty in proven.items():
        if certainty.clinched:
            assert top[entrant] == 2_000
        if certainty.eliminated:
            assert top[entrant] == 0


def test_a_forty_team_race_is_fully_decided_and_consistent():
    race = forty_teams()
    report = race_report(race, runs=2_000)
    for line in report.lines:
        assert line.playoffs.decided
        assert 1 <= line.best_rank <= line.worst_rank <= 40
        if line.wins_to_clinch is not None:
            assert 0 <= line.wins_to_clinch <= line.games_left


def test_the_sentences_say_what_each_entrant_needs():
    race = RaceInput(
        entrants=(RaceEntrant(1, 9), RaceEntrant(2, 6), RaceEntrant(3, 5), RaceEntrant(4, 1)),
        remaining=((1, 2), (2, 3), (3, 1), (2, 4)),
        spots=2,
    )
    lines = {line.id: line for line in race_report(race, runs=500).lines}
    assert race_need(lines[1], 2) == "Has clinched a top-2 place."
    assert race_need(lines[4], 2) == "Can no longer finish in a top-2 place."
    # Team 2 (6 wins, 3 left) is safe with 2 more wins: 8, which team 3 (at most 7) cannot reach.
    assert lines[2].wins_to_clinch == 2
    assert race_need(lines[2], 2) == "Clinches a top-2 place by winning 2 of its last 3 games."
    # Team 3 winning both (7) still trails team 2 if team 2 beats team 4 and loses only to 3 (8).
    assert lines[3].wins_to_clinch is None
    assert lines[3].needs_help
    assert race_need(lines[3], 2) == (
        "Can still reach a top-2 place, but needs other results to go its way."
    )


def exact_stakes(race: RaceInput, order: list[int], index: int) -> float:
    """Leverage of remaining game ``index`` over every outcome, equally likely (wins only, ties
    by ``order``): half the sum of |P(top | first wins) - P(top | second wins)|."""
    ids = [entrant.id for entrant in race.entrants]
    tops = {0: dict.fromkeys(ids, 0), 1: dict.fromkeys(ids, 0)}
    count = {0: 0, 1: 0}
    start = {entrant.id: entrant.units for entrant in race.entrants}
    for results in itertools.product((0, 1), repeat=len(race.remaining)):
        final = dict(start)
        for (first, second), result in zip(race.remaining, results, strict=True):
            final[second if result else first] += 1
        ranked = sorted(ids, key=lambda k: (-final[k], order.index(k)))
        count[results[index]] += 1
        for k in ranked[: race.spots]:
            tops[results[index]][k] += 1
    return sum(abs(tops[0][k] / count[0] - tops[1][k] / count[1]) for k in ids) / 2


def test_stakes_measure_the_playoff_places_a_game_moves():
    race = RaceInput(
        entrants=(
            RaceEntrant(1, 9),
            RaceEntrant(2, 5),
            RaceEntrant(3, 5),
            RaceEntrant(4, 1),
        ),
        remaining=((2, 3), (1, 4), (2, 4), (3, 4)),
        spots=2,
    )
    order = [1, 2, 3, 4]
    report = race_report(race, order=order, runs=20_000, seed=3, stakes_for=[0, 1])
    # Team 1 is in whatever happens and team 4 is out: game 0 (2 v 3) weighs on the second
    # place, with team 4's games against them; its exact weight, by enumeration:
    assert report.stakes[0] == pytest.approx(exact_stakes(race, order, 0), abs=0.02)
    assert report.stakes[0] > 0.5
    # Game 1 (1 v 4) cannot move anyone across the cut line: only sampling noise is left.
    assert exact_stakes(race, order, 1) == 0.0
    assert report.stakes[1] < 0.02
    assert set(report.stakes) == {0, 1}
    assert report.to_dict()["stakes"]["0"] == round(report.stakes[0], 4)


def test_stakes_are_only_asked_of_remaining_games():
    race = RaceInput(entrants=(RaceEntrant(1, 1), RaceEntrant(2, 1)), remaining=((1, 2),))
    with pytest.raises(DomainError):
        race_report(race, stakes_for=[1])
    assert race_report(race, runs=100).stakes == {}


@pytest.mark.parametrize(
    ("leverage", "sentence"),
    [
        (0.0, "changes little for the playoffs"),
        (0.049, "changes little for the playoffs"),
        (0.42, "moves 0.4 of a playoff place"),
        (0.97, "decides a playoff place"),
        (1.0, "decides a playoff place"),
        (1.63, "moves 1.6 playoff places"),
    ],
)
def test_a_stake_in_words(leverage, sentence):
    assert stake_sentence(leverage) == sentence


def test_a_race_without_entrants_is_empty():
    report = race_report(RaceInput(entrants=(), remaining=()), runs=10)
    assert report.lines == () and report.stakes == {}


@pytest.mark.parametrize("seed", range(30))
def test_the_max_flow_matches_networkx(seed):
    import networkx as nx

    from scoring.standings.domain.race_flow import max_flow as _max_flow

    rng = random.Random(seed)
    nodes = rng.randint(2, 14)
    edges = [
        (rng.randrange(nodes), rng.randrange(nodes), rng.randint(0, 9))
        for _ in range(rng.randint(0, 40))
    ]
    edges = [(start, end, capacity) for start, end, capacity in edges if start != end]
    graph = nx.DiGraph()
    graph.add_nodes_from(range(nodes))
    for start, end, capacity in edges:  # parallel edges add up
        previous = graph.get_edge_data(start, end, {"capacity": 0})["capacity"]
        graph.add_edge(start, end, capacity=previous + capacity)
    value, reached = _max_flow(nodes, edges)
    expected = nx.maximum_flow_value(graph, 0, 1)
    assert value == expected
    # The source side it reports is a minimum cut: its edges out carry exactly the flow.
    assert reached[0] and not reached[1]
    cut = sum(capacity for start, end, capacity in edges if reached[start] and not reached[end])
    assert cut == value


def reference_clinched(race: RaceInput, subject: int, spots: int, wins: int) -> bool:
    """Clinched after ``wins`` of the subject's games, by the plain search: every set of
    ``spots`` rivals tried with a networkx flow, no pruning (wins only)."""
    import networkx as nx

    units = {entrant.id: entrant.units for entrant in race.entrants}
    final = units[subject] + wins
    rivals = [entrant for entrant in units if entrant != subject]
    needs = {rival: final - units[rival] for rival in rivals}
    level = [rival for rival in rivals if needs[rival] <= 0]
    if len(level) >= spots:
        return False
    others = [game for game in race.remaining if subject not in game]
    against = [a if b == subject else b for a, b in race.remaining if subject in (a, b)]
    losses = len(against) - wins
    for chosen in itertools.combinations([r for r in rivals if needs[r] > 0], spots - len(level)):
        graph = nx.DiGraph()
        for index, (first, second) in enumerate(others):
            graph.add_edge("source", ("game", index), capacity=1)
            for entrant in (first, second):
                if entrant in chosen:
                    graph.add_edge(("game", index), entrant)
        graph.add_edge("source", "losses", capacity=losses)
        for index, rival in enumerate(against):
            if rival in chosen:
                graph.add_edge("losses", ("lost", index), capacity=1)
                graph.add_edge(("lost", index), rival)
        for rival in chosen:
            graph.add_edge(rival, "sink", capacity=needs[rival])
        if nx.maximum_flow_value(graph, "source", "sink") == sum(needs[r] for r in chosen):
            return False
    return True


@pytest.mark.parametrize("seed", range(4))
def test_wins_to_clinch_with_pruned_search_matches_the_plain_search_on_larger_leagues(seed):
    """Leagues too large to enumerate outcomes (11 teams, 26 games): the search that skips sets
    holding a core, with cores carried between counts of wins, against trying every set."""
    from scoring.standings.domain.race import _Race

    rng = random.Random(seed)
    ids = list(range(1, 12))
    remaining = tuple(tuple(rng.sample(ids, 2)) for _ in range(26))
    race = RaceInput(
        entrants=tuple(RaceEntrant(i, rng.randint(2, 9)) for i in ids), remaining=remaining
    )
    view = _Race(race)
    for spots in (2, 4, 6):
        for subject in ids[::2]:
            left = view.left[subject]
            expected = next(
                (w for w in range(left + 1) if reference_clinched(race, subject, spots, w)), None
            )
            assert view.wins_to_clinch(subject, spots, 100_000) == (expected, True), (
                seed,
                spots,
                subject,
            )


def test_a_forty_team_race_with_sixteen_spots_finds_the_fewest_wins_within_its_budget():
    """The report's shared budget (a few flows an entrant) reaches the same counts of wins as
    an unlimited search: the cores keep the search short enough for 16 spots."""
    from scoring.standings.domain.race import _Race

    # A real table's spread (strong teams won more of their 20 games), 10 nights left: the
    # plain search ran out of budget here and claimed one win too many for most teams.
    rng = random.Random(1)
    strength = {team: rng.random() for team in range(1, 41)}
    wins = {
        team: sum(rng.random() < 0.25 + 0.5 * strength[team] for _ in range(20))
        for team in strength
    }
    ids, remaining = list(strength), []
    for _night in range(10):
        rng.shuffle(ids)
        remaining += [(ids[i], ids[i + 1]) for i in range(0, 40, 2)]
    race = RaceInput(
        entrants=tuple(RaceEntrant(team, wins[team], 30) for team in strength),
        remaining=tuple(remaining),
        spots=16,
    )
    report = race_report(race, runs=100)
    view = _Race(race)
    open_lines = [
        line for line in report.lines if not (line.playoffs.clinched or line.playoffs.eliminated)
    ]
    assert sum(line.wins_to_clinch is not None for line in open_lines) >= 10
    for line in open_lines:
        assert (line.wins_to_clinch, True) == view.wins_to_clinch(line.id, 16, 10**6), line.id
