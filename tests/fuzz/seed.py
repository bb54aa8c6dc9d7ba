"""A small league for the fuzz test: a team season with games in play, a finished game (so the
standings exist), a published bracket, and an individual season with a night whose first round
is being played. Built through the services, as an organiser would."""

import datetime
from dataclasses import dataclass, field

from league.models import Season
from scoring.games import services as scoring
from tests.factories import LeagueRoleFactory, PlayerFactory, SeasonFactory, TeamFactory
from tournaments.services import brackets, nights


@dataclass
class League:
    """The ids the fuzzer aims its path parameters at, and who may do what."""

    organiser: object
    captain_token: str
    ids: dict[str, list[int]] = field(default_factory=dict)


def seed_league() -> League:
    role = LeagueRoleFactory()
    organiser, league = role.user, role.league
    teams_season = SeasonFactory(league=league, rulebook__slug="standard")
    teams = [TeamFactory(season=teams_season, name=f"Team {n}") for n in range(1, 5)]

    def seats(first, second):
        return (first.player_one, second.player_one, first.player_two, second.player_two)

    finished = scoring.game_create(
        season=teams_season, seats=seats(teams[0], teams[1]), team_a=teams[0], team_b=teams[1]
    )
    scoring.game_record_final_score(game=finished, score_a=10, score_b=4)
    in_play = scoring.game_create(
        season=teams_season, seats=seats(teams[2], teams[3]), team_a=teams[2], team_b=teams[3]
    )
    scoring.hand_record(
        game=in_play,
        data=scoring.HandInput(makers="A", tricks_won=3),
        client_key="seed-1",
    )
    bracket = brackets.bracket_create(
        season=teams_season, user=organiser, kind="single", teams=[team.pk for team in teams]
    )
    brackets.bracket_publish(bracket=bracket, user=organiser)

    individual = SeasonFactory(
        league=league, format=Season.Format.INDIVIDUAL, rulebook__slug="standard"
    )
    roster = [PlayerFactory(league=league, name=f"P{n:02d}") for n in range(1, 9)]
    night = nights.night_create(
        season=individual, date=datetime.date(2026, 12, 1), venue="Rosie's", user=organiser
    )
    for player in roster:
        nights.night_check_in(night=night, user=organiser, player=player)
    nights.night_plan(night=night, rounds=3, user=organiser)
    nights.night_publish(night=night, user=organiser)
    round_games = nights.round_start(night=night, number=1, user=organiser)

    players = [team.player_one_id for team in teams] + [player.pk for player in roster]
    return League(
        organiser=organiser,
        captain_token=in_play.captain_token,
        ids={
            "league": [league.pk],
            "season": [teams_season.pk, individual.pk],
            "game": [in_play.pk, finished.pk, *(game.pk for game in round_games)],
            "bracket": [bracket.pk],
            "night": [night.pk],
            "player": players,
            "team": [team.pk for team in teams],
            "rulebook": [teams_season.rulebook_id, individual.rulebook_id],
        },
    )
