"""The race never goes stale: games scheduled after the last result change the race, and the
API's ``is_current`` tells the truth at every step; bracket games (which do not count for the
season's standings) neither recompute the standings nor rerun the race.

The season of the issue: four teams, one playoff spot, ranked by wins. Aces beat Bowers 10–3:
with no game left, Aces have clinched and the three others are out. Then Clubs–Diamonds and
Bowers–Clubs are scheduled: Clubs can still reach two wins and pass Aces, so nothing is
clinched any more and two games are left.
"""

import pytest
from django.core.cache import cache

from league.models import Player, Team
from scoring.games import jobs, services
from scoring.games.models import Game, ResultChange
from scoring.standings.models import StandingSnapshot
from scoring.standings.services.recompute import season_set_standing_rules
from scoring.standings.tasks import sweep_stale_seasons
from tests.factories import SeasonFactory, team_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def clear_cache():
    cache.clear()


def four_teams(league):
    season = SeasonFactory(league=league, rulebook__slug="standard")
    teams = {
        name: Team.objects.create(
            season=season,
            name=name,
            player_one=Player.objects.create(league=league, name=f"{name} one"),
            player_two=Player.objects.create(league=league, name=f"{name} two"),
        )
        for name in ("Aces", "Bowers", "Clubs", "Diamonds")
    }
    season_set_standing_rules(season=season, rules={"tiebreaks": ["wins"], "playoff_spots": 1})
    return season, teams


@pytest.fixture
def clinched(league, django_capture_on_commit_callbacks):
    """The season after Aces beat Bowers 10–3, its standings and race worked out on commit."""
    season, teams = four_teams(league)
    with django_capture_on_commit_callbacks(execute=True):
        game = team_game(season, teams["Aces"], teams["Bowers"])
        services.game_record_final_score(game=game, score_a=10, score_b=3)
    return season, teams


def race_of(api, season):
    response = api.get(f"/api/v1/seasons/{season.pk}/race/")
    assert response.status_code == 200
    body = response.json()
    body["by_name"] = {line["name"]: line for line in body.get("lines", [])}
    return body


def schedule(organiser_api, season, first, second):
    response = organiser_api.post(
        "/api/v1/games/",
        {
            "season": season.pk,
            "seats": [first.player_one_id, second.player_one_id, first.player_two_id,
                      second.player_two_id],
            "team_a": first.pk,
            "team_b": second.pk,
        },
        format="json",
    )  # fmt: skip
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def test_games_scheduled_after_the_last_result_change_the_race_and_current_tells_the_truth(
    api, organiser_api, clinched, django_capture_on_commit_callbacks
):
    season, teams = clinched
    race = race_of(api, season)
    assert (race["status"], race["is_current"], race["games_left"]) == ("ok", True, 0)
    assert race["by_name"]["Aces"]["clinched"] is True
    assert [race["by_name"][name]["eliminated"] for name in ("Bowers", "Clubs", "Diamonds")] == [
        True,
        True,
        True,
    ]

    with django_capture_on_commit_callbacks(execute=False) as asked:
        schedule(organiser_api, season, teams["Clubs"], teams["Diamonds"])
        assert race_of(api, season)["is_current"] is False  # one game in: stale already
        schedule(organiser_api, season, teams["Bowers"], teams["Clubs"])
    # Committed, the race not yet run: the stored race is the old one, and says it is not current.
    stale = race_of(api, season)
    assert stale["is_current"] is False
    assert (stale["games_left"], stale["by_name"]["Aces"]["clinched"]) == (0, True)
    assert len(asked) == 2  # each game asks for the race after commit (coalesced)

    for callback in asked:  # the race job runs (eagerly here: no broker)
        callback()
    race = race_of(api, season)
    assert race["is_current"] is True
    assert race["games_left"] == 2
    aces, clubs = race["by_name"]["Aces"], race["by_name"]["Clubs"]
    assert (aces["clinched"], aces["eliminated"]) == (False, False)
    assert (clubs["clinched"], clubs["eliminated"]) == (False, False)
    # Diamonds can still draw level with Aces at one win; Bowers too (by beating Clubs)
    assert race["by_name"]["Diamonds"]["eliminated"] is False
    assert race["by_name"]["Bowers"]["eliminated"] is False
    assert race["race_version"] == season.__class__.objects.get(pk=season.pk).results_version


def test_the_sweep_finds_a_game_added_behind_the_services_back(api, clinched):
    """A game added in the admin (no service, no message): the sweep compares the games the race
    was computed from with the season's, not only the versions."""
    season, teams = clinched
    assert sweep_stale_seasons()["race"] == []
    game = team_game(season, teams["Clubs"], teams["Diamonds"])  # straight into the database
    assert race_of(api, season)["is_current"] is False
    assert sweep_stale_seasons()["race"] == [season.pk]  # and runs it (eagerly here)
    race = race_of(api, season)
    assert (race["is_current"], race["games_left"]) == (True, 1)
    assert race["by_name"]["Aces"]["clinched"] is False  # Clubs or Diamonds can draw level
    # moved to another night, then removed: each time stale, each time swept back to current
    from tests.factories import NightFactory

    Game.objects.filter(pk=game.pk).update(night=NightFactory(season=season))
    assert race_of(api, season)["is_current"] is False
    assert sweep_stale_seasons()["race"] == [season.pk]
    Game.objects.filter(pk=game.pk).delete()
    assert race_of(api, season)["is_current"] is False
    assert sweep_stale_seasons()["race"] == [season.pk]
    race = race_of(api, season)
    assert (race["is_current"], race["games_left"]) == (True, 0)
    assert sweep_stale_seasons()["race"] == []


def test_a_game_starting_play_does_not_make_the_race_stale(api, clinched):
    season, teams = clinched
    game = team_game(season, teams["Clubs"], teams["Diamonds"])
    sweep_stale_seasons()
    Game.objects.filter(pk=game.pk).update(status=Game.Status.IN_PROGRESS)
    assert race_of(api, season)["is_current"] is True
    assert sweep_stale_seasons()["race"] == []


def test_a_bracket_game_recomputes_neither_the_standings_nor_the_race(
    api, clinched, django_capture_on_commit_callbacks, monkeypatch
):
    """A bracket's game (``counts_for_standings`` false) moves the season's results version, so
    its pages show the new score; its recompute folds nothing and runs no race: the snapshot's
    version, and its race's, just move on."""
    from scoring.standings.services import values

    season, teams = clinched
    work = []
    real_fold = values.season_fold
    monkeypatch.setattr(
        values, "season_fold", lambda *args: work.append("fold") or real_fold(*args)
    )
    monkeypatch.setattr(jobs, "send_race_compute", lambda *args, **kw: work.append("race"))
    before = StandingSnapshot.objects.get(season=season)
    aces, bowers = teams["Aces"], teams["Bowers"]
    seats = (aces.player_one, bowers.player_one, aces.player_two, bowers.player_two)
    with django_capture_on_commit_callbacks(execute=True):
        game = services.game_create(
            season=season, seats=seats, team_a=aces, team_b=bowers, counts_for_standings=False
        )
        services.game_record_final_score(game=game, score_a=4, score_b=10)
    assert work == []  # no fold, no race
    assert not ResultChange.objects.filter(season=season).exists()
    after = StandingSnapshot.objects.get(season=season)
    version = season.__class__.objects.get(pk=season.pk).results_version
    assert (after.results_version, after.race_version) == (version, version)
    assert version == before.results_version + 1
    assert (after.standings, after.race, after.race_games) == (
        before.standings,
        before.race,
        before.race_games,
    )
    standings = api.get(f"/api/v1/seasons/{season.pk}/standings/").json()
    assert standings["is_current"] is True
    assert [row["wins"] for row in standings["standings"]["rows"]][:2] == [1, 0]
    assert race_of(api, season)["is_current"] is True
    assert sweep_stale_seasons() == {"rederive": [], "recompute": [], "race": []}


def test_a_season_game_still_asks_for_the_standings_and_the_race(
    clinched, django_capture_on_commit_callbacks, monkeypatch
):
    season, teams = clinched
    sent = []
    monkeypatch.setattr(jobs, "send_race_compute", lambda *args, **kw: sent.append("race") or 1)
    monkeypatch.setattr(
        jobs, "send_standings_recompute", lambda *args, **kw: sent.append("standings") or 1
    )
    clubs, diamonds = teams["Clubs"], teams["Diamonds"]
    seats = (clubs.player_one, diamonds.player_one, clubs.player_two, diamonds.player_two)
    with django_capture_on_commit_callbacks(execute=True):
        game = services.game_create(season=season, seats=seats, team_a=clubs, team_b=diamonds)
    assert sent == ["race"]
    with django_capture_on_commit_callbacks(execute=True):
        services.game_record_final_score(game=game, score_a=10, score_b=4)
    assert sent == ["race", "standings"]
    assert ResultChange.objects.filter(season=season, game=game).count() == 1


def test_a_night_starting_in_a_team_season_leaves_its_race_current(api, clinched):
    from tests.factories import NightFactory

    season, _teams = clinched
    night = NightFactory(season=season, status="planned")
    assert race_of(api, season)["is_current"] is True  # a team season's race reads its games
    assert sweep_stale_seasons()["race"] == []
    night.status = "playing"
    night.save(update_fields=["status"])
    assert race_of(api, season)["is_current"] is True  # the race reads only the games
    assert sweep_stale_seasons()["race"] == []


def test_an_individual_season_projects_again_when_a_night_is_added(api, league):
    """Projected ranks count the nights still to come: a night added makes them due."""
    from scoring.standings.services.recompute import season_standings_recompute
    from tests.factories import NightFactory, individual_season

    season, _players = individual_season(league)
    season_standings_recompute(season_id=season.pk)
    sweep_stale_seasons()
    before = race_of(api, season)
    assert (before["is_current"], before["kind"], before["nights_left"]) == (
        True,
        "individual",
        1,
    )
    NightFactory(season=season, status="planned")
    assert race_of(api, season)["is_current"] is False
    assert sweep_stale_seasons()["race"] == [season.pk]
    after = race_of(api, season)
    assert (after["is_current"], after["nights_left"]) == (True, 2)


def test_a_season_game_called_off_is_taken_out_of_the_race_on_commit(
    api, organiser_api, clinched, django_capture_on_commit_callbacks
):
    season, teams = clinched
    with django_capture_on_commit_callbacks(execute=True):
        schedule(organiser_api, season, teams["Clubs"], teams["Diamonds"])
        game_id = schedule(organiser_api, season, teams["Bowers"], teams["Clubs"])
    assert (race_of(api, season)["games_left"], race_of(api, season)["is_current"]) == (2, True)
    with django_capture_on_commit_callbacks(execute=True):
        services.game_void(game=Game.objects.get(pk=game_id), reason="rained off")
    race = race_of(api, season)
    assert (race["is_current"], race["games_left"]) == (True, 1)
    # Clubs can reach one win at most now: level with Aces, not past them
    assert race["by_name"]["Bowers"]["eliminated"] is True
