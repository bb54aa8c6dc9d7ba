"""factory_boy factories: leagues → seasons → nights → games."""

import datetime

import factory
from django.contrib.auth import get_user_model

from league.domain.rules import PRESETS
from league.models import League, LeagueRole, Night, Player, Rulebook, Season, Team
from scoring.models import Game


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ["username"]

    username = factory.Sequence(lambda n: f"organiser{n}")
    password = factory.django.Password("correct horse battery staple")


class LeagueFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = League

    name = factory.Sequence(lambda n: f"League {n}")
    slug = factory.Sequence(lambda n: f"league-{n}")


class LeagueRoleFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = LeagueRole

    league = factory.SubFactory(LeagueFactory)
    user = factory.SubFactory(UserFactory)
    role = LeagueRole.Role.OWNER


class RulebookFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Rulebook

    class Params:
        slug = "standard"

    league = None
    name = factory.LazyAttribute(lambda o: PRESETS[o.slug].name)
    preset = factory.LazyAttribute(lambda o: o.slug)
    options = factory.LazyAttribute(lambda o: PRESETS[o.slug].rulebook.to_options())


class SeasonFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Season

    league = factory.SubFactory(LeagueFactory)
    name = factory.Sequence(lambda n: f"Season {n}")
    format = Season.Format.TEAMS
    rulebook = factory.SubFactory(RulebookFactory, league=factory.SelfAttribute("..league"))


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    league = factory.SubFactory(LeagueFactory)
    name = factory.Sequence(lambda n: f"Player {n}")


class TeamFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Team

    season = factory.SubFactory(SeasonFactory)
    name = factory.Sequence(lambda n: f"Team {n}")
    player_one = factory.SubFactory(PlayerFactory, league=factory.SelfAttribute("..season.league"))
    player_two = factory.SubFactory(PlayerFactory, league=factory.SelfAttribute("..season.league"))


class NightFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Night

    season = factory.SubFactory(SeasonFactory)
    date = factory.Sequence(lambda n: datetime.date(2026, 1, 6) + datetime.timedelta(days=7 * n))


def _seat(n):
    return factory.SubFactory(
        PlayerFactory,
        league=factory.SelfAttribute("..season.league"),
        name=factory.Sequence(lambda i: f"Seat{n} player {i}"),
    )


class GameFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Game

    season = factory.SubFactory(SeasonFactory)
    seat_0 = _seat(0)
    seat_1 = _seat(1)
    seat_2 = _seat(2)
    seat_3 = _seat(3)
