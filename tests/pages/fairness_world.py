"""A season played the way an organiser plays it, for the fairness report's page, API and
browser tests: an individual season of two nights run at the night desk's services (check in,
plan, publish, start each round, final scores), with byes on the first night; and a team
season played from its schedule. Also the brute-force count the tests compare the report with,
read straight from the stored seats and games."""

from __future__ import annotations

import datetime
from collections import Counter
from itertools import combinations

from league.models import Season
from scoring.games import services as scoring
from scoring.games.models import Game
from tests.factories import NightFactory, SeasonFactory
from tournaments.models import PlannedRound, Seat
from tournaments.services import nights as night_services

FIRST_NIGHT = ["Ann", "Bea", "Cy", "Dot", "Eli"]
SECOND_NIGHT = ["Ann", "Bea", "Cy", "Fox"]


def play_night(season, organiser, names, rounds, date):
    """One night at the desk: ``names`` checked in, ``rounds`` planned, each played (side A wins
    at odd tables, side B at even ones); the last round is left started, as a desk leaves it."""
    night = NightFactory(season=season, date=date)
    for name in names:
        night_services.night_check_in(night=night, user=organiser, name=name)
    night_services.night_plan(night=night, rounds=rounds, user=organiser)
    night_services.night_publish(night=night, user=organiser)
    for number in range(1, rounds + 1):
        for game in night_services.round_start(night=night, number=number, user=organiser):
            a_wins = game.table_number % 2 == 1 or number % 2 == 0
            scoring.game_record_final_score(
                game=game, score_a=10 if a_wins else 6, score_b=6 if a_wins else 10
            )
    return night


def individual_season(league, organiser, *, name="Thursdays", is_public=False):
    season = SeasonFactory(
        league=league,
        name=name,
        format=Season.Format.INDIVIDUAL,
        rulebook__slug="standard",
        fairness_public=is_public,
    )
    play_night(season, organiser, FIRST_NIGHT, 5, datetime.date(2026, 2, 5))
    play_night(season, organiser, SECOND_NIGHT, 3, datetime.date(2026, 2, 12))
    return season


def brute_force(season) -> dict:
    """The counts of the stored seats, one game and one seat at a time."""
    games = list(
        Game.objects.filter(season=season, status=Game.Status.FINISHED, counts_for_standings=True)
    )
    players = {p for g in games for p in g.seat_player_ids}
    partnered, opposed = Counter(), Counter()
    for first, second in combinations(sorted(players), 2):
        for game in games:
            seats = game.seat_player_ids
            if first in seats and second in seats:
                same = seats.index(first) % 2 == seats.index(second) % 2
                (partnered if same else opposed)[(first, second)] += 1
    byes = Counter(
        Seat.objects.filter(
            round__plan__night__season=season,
            table_number__isnull=True,
            round__status__in=[PlannedRound.Status.STARTED, PlannedRound.Status.FINISHED],
        ).values_list("player_id", flat=True)
    )
    return {
        "games": len(games),
        "partnered": partnered,
        "opposed": opposed,
        "byes": byes,
        "games_of": Counter(p for g in games for p in g.seat_player_ids),
    }
