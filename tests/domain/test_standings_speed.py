"""The fast paths of the standings, stats and ratings give exactly what the plain ones gave.

The recompute of a large season was made several times faster by counting hands once, folding
records from shared tuples and rating through a transcription of openskill's arithmetic. Each
test here keeps the plain version (as it was written before) as a reference and checks, on
random seasons, that the results are equal: every count, every float to the last bit, every
reason. No timings: ``benchmarks/`` measures those.
"""

from __future__ import annotations

import random
from collections import defaultdict

import pytest
from openskill.models import PlackettLuce

from scoring.standings.domain.ratings import (
    MODELS,
    ORDINAL_Z,
    Prior,
    RatingSettings,
    compute_ratings,
)
from scoring.standings.domain.standings import (
    SIDES,
    Bye,
    GameRecord,
    SeasonRules,
    SideTally,
    compute_standings,
)
from scoring.standings.domain.standings import compute as standings_compute
from scoring.standings.domain.standings import records as standings_records
from scoring.standings.domain.standings import tiebreaks as standings_tiebreaks
from scoring.standings.domain.stats import (
    HandRecord,
    HandTotals,
    PairRecord,
    PlayerStats,
    TeamStats,
    hand_rows,
    hand_totals,
    player_stats,
    side_tallies,
    team_stats,
)

SEEDS = [1, 2, 3, 4, 5, 6, 7, 8]


# --- random seasons ----------------------------------------------------------------------------


def random_hand(rng: random.Random, game_id: int, number: int, seats: tuple) -> HandRecord:
    """Any hand the scoring engine can record: thrown in, reneged, alone on either side, with or
    without a known caller or lone defender."""
    if rng.random() < 0.08:
        return HandRecord(game_id, number, seats, makers=None, thrown_in=True)
    makers = rng.choice("AB")
    first = 0 if makers == "A" else 1
    caller = seats[first + 2 * rng.randrange(2)] if rng.random() < 0.85 else None
    caller_alone = rng.random() < 0.2
    defender_alone = rng.random() < 0.1
    lone_defender = None
    if defender_alone and rng.random() < 0.6:
        lone_defender = seats[(1 - first) + 2 * rng.randrange(2)]
    if rng.random() < 0.08:
        return HandRecord(
            game_id, number, seats, makers, None, caller, caller_alone, defender_alone,
            lone_defender, renege=rng.choice("AB"),
        )  # fmt: skip
    return HandRecord(
        game_id, number, seats, makers, rng.randrange(6), caller, caller_alone, defender_alone,
        lone_defender,
    )  # fmt: skip


def random_season(seed: int, *, teams: bool):
    """(games, hands, byes): 10 players (or 6 teams of two), 4 nights, draws and forfeits."""
    rng = random.Random(seed)
    roster = list(range(1, 11))
    team_players = {10 + n: (2 * n + 1, 2 * n + 2) for n in range(6)}
    games, hands, byes = [], [], []
    for game_id in range(1, 61):
        night = rng.choice([None, 1, 2, 3, 4])
        if teams:
            team_a, team_b = rng.sample(sorted(team_players), 2)
            side_a, side_b = (team_a,), (team_b,)
            players_a, players_b = team_players[team_a], team_players[team_b]
        else:
            seated = rng.sample(roster, 4)
            side_a, side_b = (seated[0], seated[2]), (seated[1], seated[3])
            players_a, players_b = side_a, side_b
        seats = (players_a[0], players_b[0], players_a[1], players_b[1])
        forfeited_by = rng.choice([None] * 8 + ["A", "B"])
        points_a, points_b = rng.randrange(12), rng.randrange(12)
        winner = None if points_a == points_b else "A" if points_a > points_b else "B"
        tallies = [SideTally(rng.randrange(3), rng.randrange(2), rng.randrange(3)) for _ in "AB"]
        games.append(
            GameRecord(
                game_id,
                side_a,
                side_b,
                points_a,
                points_b,
                None if forfeited_by else winner,
                night,
                rng.randrange(30),
                forfeited_by,
                *tallies,
                players_a=players_a if teams else (),
                players_b=players_b if teams else (),
            )
        )
        if forfeited_by is None:
            hands.extend(random_hand(rng, game_id, n, seats) for n in range(1, rng.randint(2, 9)))
    entrants = sorted(team_players) if teams else roster
    byes = [Bye(rng.choice(entrants), rng.choice([None, 1, 2, 3, 4])) for _ in range(6)]
    return games, hands, byes


# --- stats: the plain version ------------------------------------------------------------------


COUNTED = (
    *("games", "wins", "losses", "draws", "forfeit_wins", "forfeit_losses", "hands"),
    *("points_for", "points_against", "calls", "calls_made", "marches", "loners_tried"),
    *("loners_made", "loners_marched", "euchres_suffered", "euchres_inflicted", "reneges"),
)


class _Counts:
    def __init__(self):
        self.values = dict.fromkeys(COUNTED, 0)
        self.partners = defaultdict(lambda: [0, 0, 0])
        self.opponents = defaultdict(lambda: [0, 0, 0])

    def add_game(self, game: GameRecord, side: str) -> float | None:
        values = self.values
        if game.is_forfeit:
            values["forfeit_losses" if game.forfeited_by == side else "forfeit_wins"] += 1
            return None
        result = game.result(side)
        values["games"] += 1
        values["wins"] += result == 1.0
        values["losses"] += result == 0.0
        values["draws"] += result == 0.5
        values["points_for"] += game.points(side)
        values["points_against"] += game.points("B" if side == "A" else "A")
        return result

    def common(self):
        values = dict(self.values)
        values["points_per_game"] = (
            values["points_for"] / values["games"] if values["games"] else 0.0
        )
        return values


def _pairs(pairs):
    return tuple(PairRecord(other, sum(c), *c) for other, c in sorted(pairs.items()))


def _index(result):
    return 0 if result == 1.0 else 1 if result == 0.0 else 2


def reference_player_stats(games, hands):
    counts = defaultdict(_Counts)
    for game in games:
        for side in SIDES:
            players, opponents = game.players(side), game.players("B" if side == "A" else "A")
            for player in players:
                result = counts[player].add_game(game, side)
                if result is None:
                    continue
                for partner in players:
                    if partner != player:
                        counts[player].partners[partner][_index(result)] += 1
                for opponent in opponents:
                    counts[player].opponents[opponent][_index(result)] += 1
    for hand in hands:
        if not hand.is_scored:
            continue
        sitting_out = hand.sitting_out()
        for seat, player in enumerate(hand.seats):
            values = counts[player].values
            values["hands"] += 1
            in_play = player not in sitting_out
            side = "A" if seat % 2 == 0 else "B"
            if side == hand.makers:
                if player == hand.caller_id:
                    values["calls"] += 1
                    values["calls_made"] += hand.call_made_good
                    if hand.caller_alone:
                        values["loners_tried"] += 1
                        values["loners_made"] += hand.is_made
                        values["loners_marched"] += hand.is_march
                if in_play:
                    values["marches"] += hand.is_march
                    values["euchres_suffered"] += hand.is_euchre
            elif in_play:
                values["euchres_inflicted"] += hand.is_euchre
            if in_play and hand.renege == side:
                values["reneges"] += 1
    return tuple(
        PlayerStats(
            player_id=player,
            **count.common(),
            partners=_pairs(count.partners),
            opponents=_pairs(count.opponents),
        )
        for player, count in sorted(counts.items())
    )


def reference_team_stats(games, hands):
    by_id = {game.game_id: game for game in games}
    counts = defaultdict(_Counts)
    for game in games:
        for side in SIDES:
            other = "B" if side == "A" else "A"
            result = counts[game.entrants(side)[0]].add_game(game, side)
            if result is not None:
                counts[game.entrants(side)[0]].opponents[game.entrants(other)[0]][
                    _index(result)
                ] += 1
    for hand in hands:
        if not hand.is_scored:
            continue
        game = by_id[hand.game_id]
        for side in SIDES:
            values = counts[game.entrants(side)[0]].values
            values["hands"] += 1
            if side == hand.makers:
                values["calls"] += 1
                values["calls_made"] += hand.call_made_good
                values["marches"] += hand.is_march
                values["euchres_suffered"] += hand.is_euchre
                if hand.caller_alone:
                    values["loners_tried"] += 1
                    values["loners_made"] += hand.is_made
                    values["loners_marched"] += hand.is_march
            else:
                values["euchres_inflicted"] += hand.is_euchre
            values["reneges"] += hand.renege == side
    return tuple(
        TeamStats(team_id=team, **count.common(), opponents=_pairs(count.opponents))
        for team, count in sorted(counts.items())
    )


def reference_side_tallies(hands):
    sums = defaultdict(lambda: [0] * 6)
    for hand in hands:
        if not hand.has_outcome:
            continue
        row = sums[hand.game_id]
        makers = 0 if hand.makers == "A" else 3
        row[makers] += hand.tricks_won == 5
        row[makers + 1] += hand.caller_alone and hand.tricks_won >= 3
        row[3 - makers + 2] += hand.tricks_won <= 2
    return {game: (SideTally(*row[:3]), SideTally(*row[3:])) for game, row in sums.items()}


@pytest.mark.parametrize("seed", SEEDS)
def test_player_stats_equal_the_plain_count(seed):
    games, hands, _byes = random_season(seed, teams=False)
    expected = reference_player_stats(games, hands)
    assert player_stats(games, hands) == expected
    assert player_stats(games, hand_totals(hands)) == expected
    assert player_stats(games, HandTotals.from_rows(hand_rows(hands))) == expected
    assert [line.to_dict() for line in player_stats(games, hands)] == [
        line.to_dict() for line in expected
    ]
    assert sum(line.hands for line in expected) > 0


@pytest.mark.parametrize("seed", SEEDS)
def test_team_stats_and_player_stats_of_a_team_season_equal_the_plain_count(seed):
    games, hands, _byes = random_season(seed, teams=True)
    totals = hand_totals(hands)
    assert team_stats(games, totals) == reference_team_stats(games, hands)
    assert team_stats(games, hands) == reference_team_stats(games, hands)
    assert player_stats(games, totals) == reference_player_stats(games, hands)


@pytest.mark.parametrize("seed", SEEDS)
def test_side_tallies_equal_the_plain_count(seed):
    _games, hands, _byes = random_season(seed, teams=False)
    expected = reference_side_tallies(hands)
    assert side_tallies(hands) == expected
    assert side_tallies(hand_totals(hands)) == expected


def test_hand_rows_keep_every_fact_but_the_points():
    hand = HandRecord(7, 3, (1, 2, 3, 4), "B", 2, 2, True, True, 3, None, False, 0, 2)
    assert hand_rows([hand]) == [(7, 3, (1, 2, 3, 4), "B", 2, 2, True, True, 3, None, False)]


# --- ratings: openskill's own rate() -----------------------------------------------------------


def reference_ratings(games, settings=None, priors=None):
    """Every game through ``model.rate``, as ratings were computed before."""
    settings = settings or RatingSettings()
    priors = priors or {}
    model = MODELS[settings.model](
        mu=settings.mu, sigma=settings.sigma, beta=settings.beta, tau=settings.tau
    )
    ratings, results = {}, {}

    def rating_of(player):
        if player not in ratings:
            prior = priors.get(player)
            ratings[player] = (
                model.rating(mu=prior.mu, sigma=prior.sigma) if prior else model.rating()
            )
            results[player] = [0, 0, 0]
        return ratings[player]

    for player in priors:
        rating_of(player)
    for game in sorted(games, key=lambda g: (g.played_order, g.game_id)):
        side_a, side_b = game.players("A"), game.players("B")
        teams = [[rating_of(p) for p in side_a], [rating_of(p) for p in side_b]]
        if game.is_forfeit:
            continue
        ranks, outcomes = {
            None: ([1, 1], (2, 2)),
            "A": ([1, 2], (0, 1)),
            "B": ([2, 1], (1, 0)),
        }[game.winner]
        for players, rated, outcome in zip(
            (side_a, side_b), model.rate(teams, ranks=ranks), outcomes, strict=True
        ):
            for player, rating in zip(players, rated, strict=True):
                ratings[player] = rating
                results[player][outcome] += 1
    return {
        player: (rating.mu, rating.sigma, rating.ordinal(z=ORDINAL_Z), *results[player])
        for player, rating in ratings.items()
    }


def as_reference(ratings):
    return {
        rating.player_id: (
            rating.mu,
            rating.sigma,
            rating.ordinal,
            rating.wins,
            rating.losses,
            rating.draws,
        )
        for rating in ratings
    }


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("teams", [False, True])
def test_ratings_equal_openskill_rate_to_the_last_bit(seed, teams):
    games, _hands, _byes = random_season(seed, teams=teams)
    assert as_reference(compute_ratings(games)) == reference_ratings(games)


@pytest.mark.parametrize(
    "rating_settings",
    [
        RatingSettings(mu=30.0, sigma=5.0, beta=2.0, tau=0.5),
        RatingSettings(tau=0.0),
        RatingSettings(model="bradley_terry_full"),
        RatingSettings(model="thurstone_mosteller_part"),
    ],
)
def test_ratings_under_other_settings_and_priors_equal_openskill(rating_settings):
    games, _hands, _byes = random_season(11, teams=False)
    priors = {1: Prior(mu=31.5, sigma=3.25), 42: Prior(mu=20.0, sigma=6.0)}
    assert as_reference(compute_ratings(games, rating_settings, priors=priors)) == (
        reference_ratings(games, rating_settings, priors)
    )


def test_sides_of_three_are_summed_in_openskill_order():
    rng = random.Random(5)
    games = []
    for n in range(1, 80):
        seated = rng.sample(range(1, 9), 6)
        points_a, points_b = rng.randrange(11), rng.randrange(11)
        winner = None if points_a == points_b else "A" if points_a > points_b else "B"
        games.append(GameRecord(n, seated[:3], seated[3:], points_a, points_b, winner))
    assert as_reference(compute_ratings(games)) == reference_ratings(games)


def test_a_long_season_of_one_sided_games_still_equals_openskill():
    """Sigmas shrink towards kappa's floor and mus drift far apart: the edges of the maths."""
    games = [GameRecord(n, (1, 2), (3, 4), 10, 2, "A", played_order=n) for n in range(1, 400)] + [
        GameRecord(400, (1, 2), (3, 4), 5, 5, None, played_order=400)
    ]
    assert as_reference(compute_ratings(games)) == reference_ratings(games)
    (best, *_rest) = compute_ratings(games)
    model = PlackettLuce()
    assert best.ordinal == model.rating(mu=best.mu, sigma=best.sigma).ordinal(z=ORDINAL_Z)


# --- standings: the plain fold -----------------------------------------------------------------


class _PlainEntry:
    __slots__ = (
        "counts_as_game",
        "forfeit",
        "is_bye",
        "night_id",
        "opponents",
        "points_against",
        "points_for",
        "result",
        "tally",
    )

    def __init__(self, **values):
        values = {"opponents": (), "tally": None, "forfeit": None, "is_bye": False} | values
        for name, value in values.items():
            setattr(self, name, value)


def reference_entries(games, byes, rules):
    entries = defaultdict(list)
    for game in games:
        for side in SIDES:
            other = "B" if side == "A" else "A"
            if game.is_forfeit:
                won = game.forfeited_by == other
                points_for = (
                    rules.forfeit_points_to_winner if won else rules.forfeit_points_to_forfeiter
                )
                points_against = (
                    rules.forfeit_points_to_forfeiter if won else rules.forfeit_points_to_winner
                )
                counts = rules.forfeit_counts_as_game
                result = (1.0 if won else 0.0) if counts else None
                forfeit = "won" if won else "lost"
            else:
                points_for, points_against = game.points(side), game.points(other)
                counts, result, forfeit = True, game.result(side), None
            for entrant in game.entrants(side):
                entries[entrant].append(
                    _PlainEntry(
                        night_id=game.night_id,
                        counts_as_game=counts,
                        result=result,
                        points_for=points_for,
                        points_against=points_against,
                        opponents=game.entrants(other) if counts else (),
                        tally=game.tally(side),
                        forfeit=forfeit,
                    )
                )
    byes = list(byes)
    if rules.bye_value == "nothing":
        for bye in byes:
            entries[bye.entrant].append(
                _PlainEntry(
                    night_id=None,
                    counts_as_game=False,
                    result=None,
                    points_for=0,
                    points_against=0,
                    is_bye=True,
                )
            )
        return entries
    averages = {}
    for bye in byes:
        if rules.bye_value == "fixed":
            points = rules.bye_points
        else:
            if bye.entrant not in averages:
                played = [e for e in entries[bye.entrant] if e.counts_as_game and not e.is_bye]
                total = sum(e.points_for for e in played)
                averages[bye.entrant] = round(total / len(played), 2) if played else 0
            points = averages[bye.entrant]
        win = rules.bye_counts_as_win
        entries[bye.entrant].append(
            _PlainEntry(
                night_id=bye.night_id,
                counts_as_game=win,
                result=1.0 if win else None,
                points_for=points,
                points_against=0,
                is_bye=True,
            )
        )
    return entries


def reference_fold(entries, rules):
    record = standings_records.EntrantRecord(
        games_in_season=sum(1 for e in entries if e.counts_as_game)
    )
    counted, record.nights_counted, record.nights_dropped = standings_records._counted(
        entries, rules
    )
    for entry in counted:
        record.points_for += entry.points_for
        record.points_against += entry.points_against
        record.byes += entry.is_bye
        if entry.tally is not None:
            record.marches += entry.tally.marches
            record.loners_made += entry.tally.loners_made
            record.euchres_inflicted += entry.tally.euchres_inflicted
        if entry.forfeit == "won":
            record.forfeit_wins += 1
        elif entry.forfeit == "lost":
            record.forfeit_losses += 1
        if not entry.counts_as_game:
            continue
        record.games += 1
        if entry.result == 1.0:
            record.wins += 1
        elif entry.result == 0.0:
            record.losses += 1
        else:
            record.draws += 1
        if entry.opponents:
            record.meetings.append((entry.opponents, entry.result))
    return record


def reference_buchholz(records):
    return {
        entrant: sum(
            sum(records[o].score for o in opponents) / len(opponents)
            for opponents, _ in record.meetings
        )
        for entrant, record in records.items()
    }


RULES = [
    SeasonRules(),
    SeasonRules(
        tiebreaks=("buchholz", "head_to_head", "points_for"),
        count_best_nights=2,
        bye_value="average",
        bye_counts_as_win=True,
        coin_flip_seed=9,
    ),
    SeasonRules(
        tiebreaks=("points_for", "marches", "euchres_inflicted", "buchholz"),
        count_best_nights=3,
        best_nights_by="points",
        min_games=8,
        forfeit_counts_as_game=False,
        bye_value="fixed",
        bye_points=3,
    ),
    SeasonRules(tiebreaks=("wins", "loners_made", "head_to_head"), coin_flip_seed=4),
]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("teams", [False, True])
def test_standings_equal_the_plain_fold(monkeypatch, seed, rules, teams):
    games, _hands, byes = random_season(seed, teams=teams)
    fast = compute_standings(games, rules, byes=byes).to_dict()
    monkeypatch.setattr(standings_compute, "entrant_entries", reference_entries)
    monkeypatch.setattr(standings_compute, "record_of_entries", reference_fold)
    monkeypatch.setattr(standings_tiebreaks, "_buchholz", reference_buchholz)
    plain = compute_standings(games, rules, byes=byes).to_dict()
    assert fast == plain
    assert len(fast["rows"]) == (6 if teams else 10)
