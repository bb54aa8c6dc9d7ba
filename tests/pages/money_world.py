"""A night played the way an organiser plays it, for the money pages', API's and browser tests:
four players checked in at the desk, one round planned, published and started, its hands
entered one by one (a lone march, a lone caller euchred, then plain makes to the end); and the
money rules' form as an organiser fills it in."""

from __future__ import annotations

import datetime

from scoring.games import services as scoring
from scoring.games.domain.hand_input import HandInput
from scoring.games.models import Game
from tests.factories import NightFactory
from tournaments.services import nights as night_services

PLAYERS = ["Ann", "Bea", "Cy", "Dot"]

FORM = {
    "currency": "USD",
    "entry_fee": "5.00",
    "prize_shares": "60, 40",
    "remainder": "higher_place",
    "lone_march_amount": "1.00",
    "lone_march_direction": "bonus",
    "lone_make_amount": "0",
    "lone_make_direction": "bonus",
    "march_amount": "0",
    "march_direction": "bonus",
    "lone_caller_euchred_amount": "0.50",
    "lone_caller_euchred_direction": "fine",
    "lone_defender_euchre_amount": "",
    "lone_defender_euchre_direction": "bonus",
    "euchre_amount": "0",
    "euchre_direction": "bonus",
    "renege_amount": "0",
    "renege_direction": "fine",
}


def played_night(season, organiser):
    """Four players checked in, one round planned and played hand by hand: a lone march by
    seat 0, a lone caller of side B euchred, then side A makes it until it wins."""
    night = NightFactory(season=season, date=datetime.date(2026, 3, 5), venue="Rosie's")
    for name in PLAYERS:
        night_services.night_check_in(night=night, user=organiser, name=name)
    night_services.night_plan(night=night, rounds=1, user=organiser)
    night_services.night_publish(night=night, user=organiser)
    (game,) = night_services.round_start(night=night, number=1, user=organiser)
    seats = game.seat_player_ids
    scoring.hand_record(
        game=game, data=HandInput(makers="A", caller_id=seats[0], caller_alone=True, tricks_won=5)
    )
    scoring.hand_record(
        game=game, data=HandInput(makers="B", caller_id=seats[1], caller_alone=True, tricks_won=2)
    )
    while Game.objects.get(pk=game.pk).status != Game.Status.FINISHED:
        scoring.hand_record(
            game=Game.objects.get(pk=game.pk), data=HandInput(makers="A", tricks_won=3)
        )
    return night, Game.objects.get(pk=game.pk)


def played_big_night(season, organiser, *, players=20, rounds=4):
    """A full bar night: ``players`` checked in, ``rounds`` played at every table, each game a
    lone caller of side B euchred, then lone marches by seat 0 until side A wins: a side pot
    line for every hand of the night."""
    night = NightFactory(season=season, date=datetime.date(2026, 3, 12), venue="Rosie's")
    for number in range(1, players + 1):
        night_services.night_check_in(night=night, user=organiser, name=f"Player {number:02d}")
    night_services.night_plan(night=night, rounds=rounds, user=organiser)
    night_services.night_publish(night=night, user=organiser)
    for number in range(1, rounds + 1):
        for game in night_services.round_start(night=night, number=number, user=organiser):
            seats = game.seat_player_ids
            scoring.hand_record(
                game=game,
                data=HandInput(makers="B", caller_id=seats[1], caller_alone=True, tricks_won=1),
            )
            while Game.objects.get(pk=game.pk).status != Game.Status.FINISHED:
                scoring.hand_record(
                    game=Game.objects.get(pk=game.pk),
                    data=HandInput(makers="A", caller_id=seats[0], caller_alone=True, tricks_won=5),
                )
    return night
