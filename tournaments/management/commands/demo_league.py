"""``manage.py demo_league``: load a demo league through the services, then print where to look.

Idempotent: when the demo league is already there it only prints the addresses again.
"""

import datetime
import logging
import random

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from league import services as league_services
from league.models import League, Night, Season
from scoring.games import services as scoring_services
from scoring.games.models import Game
from scoring.standings.services.recompute import (
    season_set_standing_rules,
    season_standings_recompute,
)
from tournaments.models import Bracket, BracketMatchGame
from tournaments.services import nights as night_services
from tournaments.services.brackets.advance import bracket_advance
from tournaments.services.brackets.create import bracket_create, bracket_publish
from tournaments.services.money import season_money_update
from tournaments.services.schedules import season_schedule_create

DEMO_SLUG = "rosies"
DEMO_USER = "organiser"
DEMO_PASSWORD = "euchre-demo"
ADMIN_USER = "admin"
ADMIN_PASSWORD = "euchre-admin"
"""The site's administrator (Django's admin), apart from the demo's organiser: the organiser is
an ordinary account that owns the demo league, so the demo shows what an organiser sees."""
PLAYERS = [
    "Alice Park",
    "Bob Meyer",
    "Carmen Diaz",
    "Dev Patel",
    "Erin Walsh",
    "Frank Osei",
    "Grace Kim",
    "Hank Miller",
]
TEAMS = [
    ("Bowers of Power", "Alice Park", "Bob Meyer"),
    ("Stick the Dealer", "Carmen Diaz", "Dev Patel"),
    ("Loner Rangers", "Erin Walsh", "Frank Osei"),
    ("Next Year's Champs", "Grace Kim", "Hank Miller"),
]
DEMO_MONEY = {
    "currency": "USD",
    "entry_fee_cents": 500,
    "side_pots": [
        {"kind": "lone_march", "cents": 100, "direction": "bonus"},
        {"kind": "lone_caller_euchred", "cents": 50, "direction": "fine"},
    ],
    "prize_shares": [50, 30, 20],
    "remainder": "higher_place",
    "is_public": True,
}
"""The social season's money (``tournaments.domain.pot``), as a bar league keeps it."""

SOCIAL_PLAYERS = [
    "Ivy Chen",
    "Jack Dunn",
    "Kira Novak",
    "Liam Byrne",
    "Maya Ortiz",
    "Noah Fischer",
    "Olga Petrova",
    "Pete Sandoval",
]


class Command(BaseCommand):
    help = "Load a demo league (CSL rules, four teams, finished games, one in progress)."

    def add_arguments(self, parser):
        parser.add_argument("--base-url", default="http://127.0.0.1:8000")

    def handle(self, *args, base_url, verbosity=1, **options):
        # The demo plays its hands through the services, which run the standings and race jobs
        # (in process when tasks are eager): their "Task … succeeded" lines are not for this
        # console, whatever the logging settings. -v 2 shows them.
        celery_logger = logging.getLogger("celery")
        level = celery_logger.level
        if verbosity < 2:
            celery_logger.setLevel(max(level, logging.WARNING))
        try:
            self._handle(base_url)
        finally:
            celery_logger.setLevel(level)

    def _handle(self, base_url):
        league = League.objects.filter(slug=DEMO_SLUG).first()
        if league is None:
            with transaction.atomic():
                league = self._load()
            self.stdout.write(self.style.SUCCESS(f"Loaded the demo league “{league.name}”."))
        else:
            self.stdout.write(f"The demo league “{league.name}” is already loaded.")
        for season in league.seasons.all():  # eager Celery did it already; a worker may not have
            season_standings_recompute(season_id=season.pk)
        self._print_addresses(league, base_url.rstrip("/"))

    def _load(self) -> League:
        user_model = get_user_model()
        organiser = user_model.objects.filter(username=DEMO_USER).first()
        if organiser is None:
            organiser = user_model.objects.create_user(
                DEMO_USER, "organiser@example.org", DEMO_PASSWORD
            )
        if not user_model.objects.filter(username=ADMIN_USER).exists():
            user_model.objects.create_superuser(ADMIN_USER, "admin@example.org", ADMIN_PASSWORD)
        league = league_services.league_create(
            name="Tuesday Euchre at Rosie's", slug=DEMO_SLUG, owner=organiser
        )
        self._team_season(league, organiser)
        self._individual_season(league, organiser)
        return league

    def _team_season(self, league, organiser) -> None:
        """Fall 2026: four teams on a round-robin schedule of three nights (two finished, the
        third being played), then a knockout of the four, published: both semi-finals played,
        the final under way."""
        season = league_services.season_create(
            league=league, name="Fall 2026", preset="csl", user=organiser
        )
        # Two of the four make the playoffs, so the race on the standings has something to say.
        season_set_standing_rules(season=season, rules={"playoff_spots": 2}, user=organiser)
        players = {
            name: league_services.player_create(league=league, name=name) for name in PLAYERS
        }
        for name, one, two in TEAMS:
            league_services.team_create(
                season=season, name=name, player_one=players[one], player_two=players[two]
            )
        chance = random.Random(2026)  # the same demo every time
        first_night = datetime.date(2026, 9, 8)
        season_schedule_create(
            season=season,
            nights=[first_night + datetime.timedelta(weeks=week) for week in range(3)],
            rounds_per_night=1,
            user=organiser,
        )
        nights = list(season.nights.order_by("date"))
        for night, status in zip(
            nights,
            [Night.Status.FINISHED, Night.Status.FINISHED, Night.Status.PLAYING],
            strict=True,
        ):
            Night.objects.filter(pk=night.pk).update(venue="Rosie's", status=status)
        scheduled = list(
            Game.objects.filter(season=season).order_by("night__date", "table_number", "pk")
        )
        for game in scheduled[:-1]:
            self._play(game, chance, organiser, until_over=True)
        self._play(scheduled[-1], chance, organiser, until_over=False, hands=5)

        bracket = bracket_create(
            season=season,
            user=organiser,
            kind=Bracket.Kind.SINGLE,
            name="Fall Cup",
            team_count=len(TEAMS),
            confirm_unfinished=True,  # its last night is still being played
        )
        bracket_publish(bracket=bracket, user=organiser)
        for game in self._bracket_games(bracket):  # the semi-finals
            self._play(game, chance, organiser, until_over=True)
            bracket_advance(game_id=game.pk)  # on commit too; idempotent
        final = self._bracket_games(bracket)
        if len(final) != 1:
            raise RuntimeError("the demo bracket's final did not start")
        self._play(final[0], chance, organiser, until_over=False, hands=3)

    def _bracket_games(self, bracket) -> list[Game]:
        """The bracket's games not finished yet, in match order."""
        return list(
            Game.objects.filter(
                pk__in=BracketMatchGame.objects.filter(match__bracket=bracket).values("game_id")
            )
            .exclude(status__in=[Game.Status.FINISHED, Game.Status.VOIDED])
            .order_by("pk")
        )

    def _individual_season(self, league, organiser) -> None:
        """Summer social 2026: partners rotate. One night, eight players checked in, a
        three-round rotation published and its first round under way; a $5 entry fee, a dollar
        to each lone march's caller, the payouts public."""
        season = league_services.season_create(
            league=league,
            name="Summer Social 2026",
            format=Season.Format.INDIVIDUAL,
            preset="csl",
            user=organiser,
        )
        night = night_services.night_create(
            season=season, date=datetime.date(2026, 7, 14), venue="Rosie's patio", user=organiser
        )
        for name in SOCIAL_PLAYERS:
            night_services.night_check_in(night=night, name=name, user=organiser)
        night_services.night_plan(night=night, rounds=3, seed=2026, user=organiser)
        night_services.night_publish(night=night, user=organiser)
        season_money_update(season=season, data=DEMO_MONEY, user=organiser)
        games = night_services.round_start(night=night, number=1, user=organiser)
        chance = random.Random(714)
        self._play(games[0], chance, organiser, until_over=True)
        self._play(games[1], chance, organiser, until_over=False, hands=4)

    def _game(self, season, team_a, team_b, first_dealer, night=None):
        return scoring_services.game_create(
            season=season,
            night=night,
            seats=(team_a.player_one, team_b.player_one, team_a.player_two, team_b.player_two),
            team_a=team_a,
            team_b=team_b,
            first_dealer_seat=first_dealer,
        )

    def _play(self, game, chance, user, *, until_over, hands=40):
        for _ in range(hands):
            game.refresh_from_db()
            if game.status == Game.Status.FINISHED:
                return
            caller_seat = chance.randrange(4)
            alone = chance.random() < 0.12
            tricks = chance.choices([0, 1, 2, 3, 4, 5], weights=[1, 2, 5, 12, 8, 5])[0]
            data = scoring_services.HandInput(
                makers="A" if caller_seat % 2 == 0 else "B",
                caller_id=game.seat_player_ids[caller_seat],
                caller_alone=alone,
                tricks_won=tricks,
            )
            scoring_services.hand_record(game=game, data=data, user=user)
        if until_over and game.status != Game.Status.FINISHED:
            raise RuntimeError("the demo game did not finish; raise the hand count")

    def _print_addresses(self, league, base_url):
        game = (
            Game.objects.filter(season__league=league, status=Game.Status.IN_PROGRESS)
            .order_by("pk")
            .first()
        )
        lines = [
            "",
            f"  Workspace (organisers): {base_url}/manage/  (user {DEMO_USER!r}, "
            f"password {DEMO_PASSWORD!r})",
            f"  Public site:            {base_url}/",
            f"  League home:            {base_url}/l/{league.slug}/",
        ]
        for season in league.seasons.order_by("pk"):
            lines.append(f"  Season {season.name!r}: {base_url}/l/{league.slug}/s/{season.pk}/")
        if game is not None:
            lines.append(f"  Captain page (a game in progress): {base_url}/t/{game.captain_token}/")
        lines += [
            f"  API docs:               {base_url}/api/docs/  (ReDoc: {base_url}/api/redoc/)",
            f"  API root:               {base_url}/api/v1/",
            f"  Admin:                  {base_url}/admin/  (user {ADMIN_USER!r}, "
            f"password {ADMIN_PASSWORD!r})",
        ]
        self.stdout.write("\n".join(lines) + "\n")
