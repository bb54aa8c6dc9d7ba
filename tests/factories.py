"""factory_boy factories: leagues → seasons → nights → games."""

import datetime

import factory
from django.contrib.auth import get_user_model

from league.domain.rules import PRESETS
from league.models import League, LeagueRole, Night, Player, Rulebook, Season, Team
from scoring.games.models import Game


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


def team_game(season, team_a, team_b, night=None):
    """A game between two teams of a season, each team's players seated as partners."""
    return GameFactory(
        season=season,
        night=night,
        team_a=team_a,
        team_b=team_b,
        seat_0=team_a.player_one,
        seat_2=team_a.player_two,
        seat_1=team_b.player_one,
        seat_3=team_b.player_two,
    )


def race_season(league, *, night_status="planned"):
    """A team season of four teams with two playoff spots, ranked by wins, two games left on one
    night: Aces (3 wins) have clinched a top-2 place, Diamonds (0 wins, one game left) are out,
    Bowers and Clubs (2 wins each, Bowers ahead on head-to-head) meet for the last spot. Returns
    the season, the teams by name, the night and its two games (Aces v Diamonds, Bowers v Clubs).
    Nothing is computed yet."""
    from league.models import Player, Team
    from scoring.games import services
    from scoring.standings.services.recompute import season_set_standing_rules

    season = SeasonFactory(league=league, name="Spring", rulebook__slug="standard")
    teams = {
        name: Team.objects.create(
            season=season,
            name=name,
            player_one=Player.objects.create(league=league, name=f"{name} one"),
            player_two=Player.objects.create(league=league, name=f"{name} two"),
        )
        for name in ("Aces", "Bowers", "Clubs", "Diamonds")
    }

    def game(first, second, night=None):
        return team_game(season, teams[first], teams[second], night)

    played = [
        ("Aces", "Bowers"),
        ("Aces", "Clubs"),
        ("Aces", "Diamonds"),
        ("Bowers", "Diamonds"),
        ("Clubs", "Diamonds"),
        ("Bowers", "Clubs"),
        ("Clubs", "Diamonds"),
    ]
    for winner, loser in played:
        services.game_record_final_score(game=game(winner, loser), score_a=10, score_b=4)
    night = NightFactory(season=season, status=night_status)
    tonight = [game("Aces", "Diamonds", night), game("Bowers", "Clubs", night)]
    season_set_standing_rules(
        season=season, rules={"tiebreaks": ["wins", "head_to_head"], "playoff_spots": 2}
    )
    return season, teams, night, tonight


def individual_season(league, *, ended=False):
    """An individual season of eight players ranked by wins: one night played (two rounds at two
    tables, results below), then either a night to come (the default) or, with ``ended``, no
    night left, the season's end date past and one game seated but not played (players 2 and 1
    against 6 and 3). Wins after the night played: 1 and 7 have two, 3, 4, 5 and 8 one, 2 and 6
    none. Returns the season and the players by number (1 to 8). Nothing is computed yet."""
    from league.models import Player
    from scoring.games import services
    from scoring.standings.services.recompute import season_set_standing_rules

    season = SeasonFactory(
        league=league,
        name="Progressive",
        format=Season.Format.INDIVIDUAL,
        rulebook__slug="standard",
        starts_on=datetime.date(2026, 1, 1),
        ends_on=datetime.date(2026, 1, 20) if ended else None,
    )
    players = {
        number: Player.objects.create(league=league, name=f"Player {number}")
        for number in range(1, 9)
    }
    played = NightFactory(season=season, date=datetime.date(2026, 1, 6), status="finished")
    # Seats 0 and 2 (the first and third number) beat seats 1 and 3 at every table.
    tables = [(1, (1, 2, 3, 4)), (1, (5, 6, 7, 8)), (2, (1, 5, 7, 2)), (2, (4, 3, 8, 6))]
    for table_number, (round_number, seats) in enumerate(tables, start=1):
        game = GameFactory(
            season=season,
            night=played,
            round_number=round_number,
            table_number=table_number,
            **{f"seat_{seat}": players[number] for seat, number in enumerate(seats)},
        )
        services.game_record_final_score(game=game, score_a=10, score_b=4)
    if ended:
        GameFactory(
            season=season,
            night=played,
            round_number=3,
            table_number=1,
            **{f"seat_{seat}": players[n] for seat, n in enumerate((2, 6, 1, 3))},
        )
    else:
        NightFactory(season=season, date=datetime.date(2026, 1, 13))
    season_set_standing_rules(season=season, rules={"tiebreaks": ["wins", "point_diff"]})
    return season, players
