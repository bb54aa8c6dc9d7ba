"""``manage.py demo_league``: load a demo league through the services, then print where to look.

Idempotent: when the demo league is already there it only prints the addresses again.
"""

import datetime
import random

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from league import services as league_services
from league.models import League, Night
from scoring import services as scoring_services
from scoring.models import Game
from scoring.standings import season_standings_recompute

DEMO_SLUG = "rosies"
DEMO_USER = "organiser"
DEMO_PASSWORD = "euchre-demo"
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


class Command(BaseCommand):
    help = "Load a demo league (CSL rules, four teams, finished games, one in progress)."

    def add_arguments(self, parser):
        parser.add_argument("--base-url", default="http://127.0.0.1:8000")

    def handle(self, *args, base_url, **options):
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
            organiser = user_model.objects.create_superuser(
                DEMO_USER, "organiser@example.org", DEMO_PASSWORD
            )
        league = league_services.league_create(
            name="Tuesday Euchre at Rosie's", slug=DEMO_SLUG, owner=organiser
        )
        season = league_services.season_create(
            league=league, name="Fall 2026", preset="csl", user=organiser
        )
        players = {
            name: league_services.player_create(league=league, name=name) for name in PLAYERS
        }
        teams = [
            league_services.team_create(
                season=season, name=name, player_one=players[one], player_two=players[two]
            )
            for name, one, two in TEAMS
        ]
        chance = random.Random(2026)  # the same demo every time
        first_night = datetime.date(2026, 9, 8)
        nights = [
            Night.objects.create(
                season=season,
                date=first_night + datetime.timedelta(weeks=week),
                venue="Rosie's",
                status=status,
            )
            for week, status in enumerate(
                [Night.Status.FINISHED, Night.Status.FINISHED, Night.Status.PLAYING]
            )
        ]
        pairings = [(0, 1), (2, 3), (0, 2), (1, 3), (0, 3)]
        for index, (first, second) in enumerate(pairings):
            game = self._game(
                season,
                teams[first],
                teams[second],
                first_dealer=index % 4,
                night=nights[index // 2],
            )
            self._play(game, chance, organiser, until_over=True)
        in_progress = self._game(season, teams[1], teams[2], first_dealer=1, night=nights[2])
        self._play(in_progress, chance, organiser, until_over=False, hands=5)
        return league

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
            f"  League home:       {base_url}/l/{league.slug}/",
        ]
        for season in league.seasons.all():
            lines.append(f"  Standings:         {base_url}/l/{league.slug}/s/{season.pk}/")
        lines += [
            f"  API docs:          {base_url}/api/docs/",
            f"  API root:          {base_url}/api/v1/",
            f"  Admin:             {base_url}/admin/  (user {DEMO_USER!r}, "
            f"password {DEMO_PASSWORD!r})",
        ]
        if game is not None:
            lines.append(
                f"  Captain's link for the game in progress: {base_url}/t/{game.captain_token}/"
            )
        self.stdout.write("\n".join(lines) + "\n")
