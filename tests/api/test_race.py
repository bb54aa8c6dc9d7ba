"""The playoff race through the service, the job, the sweep, the command and the API: a small
season where one team has clinched and one is out, checked against what can be proven by hand."""

import pytest
from django.core.cache import cache
from django.core.management import call_command

from league.models import Season
from scoring.standings.models import StandingSnapshot
from scoring.standings.services.race import season_race_compute
from scoring.standings.services.recompute import (
    season_set_standing_rules,
    season_standings_recompute,
)
from scoring.standings.tasks import sweep_stale_seasons
from tests.factories import race_season

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def clear_cache():
    cache.clear()


@pytest.fixture
def season(league):
    season, teams, _night, tonight = race_season(league)
    season_standings_recompute(season_id=season.pk)
    season.teams_by_name, season.tonight = teams, tonight
    return season


def lines_of(race):
    return {line["name"]: line for line in race["lines"]}


def test_the_race_proves_clinched_and_eliminated_and_stores_it(season):
    race = season_race_compute(season_id=season.pk)
    snapshot = StandingSnapshot.objects.get(season=season)
    assert snapshot.race == race
    assert snapshot.race_version == snapshot.results_version
    assert race["status"] == "ok"
    assert (race["spots"], race["runs"], race["measure"]) == (2, 10_000, "wins")
    assert race["games_left"] == 2
    lines = lines_of(race)
    assert list(lines) == ["Aces", "Bowers", "Clubs", "Diamonds"]  # standings order
    aces, bowers, clubs, diamonds = (lines[name] for name in lines)
    assert (aces["clinched"], aces["eliminated"], aces["playoff_chance"]) == (True, False, 1.0)
    assert aces["need"] == "Has clinched a top-2 place."
    assert (diamonds["eliminated"], diamonds["playoff_chance"]) == (True, 0.0)
    assert diamonds["need"] == "Can no longer finish in a top-2 place."
    # Bowers v Clubs (2 wins each) decides the last spot: its winner clinches, on 3 wins.
    for line in (bowers, clubs):
        assert (line["clinched"], line["eliminated"], line["decided"]) == (False, False, True)
        assert (line["wins_to_clinch"], line["needs_help"]) == (1, False)
        assert line["need"] == "Clinches a top-2 place by winning its last game."
    assert bowers["playoff_chance"] + clubs["playoff_chance"] == pytest.approx(1.0, abs=1e-3)
    assert 0 < clubs["playoff_chance"] < 1
    # Nobody is sure of first place: Bowers can still draw level with Aces on 3 wins.
    assert aces["clinched_first"] is False and bowers["eliminated_first"] is False
    assert sum(line["first_chance"] for line in race["lines"]) == pytest.approx(1.0, abs=1e-3)
    # The stakes: Bowers v Clubs moves the cut line, Aces v Diamonds cannot.
    aces_diamonds, bowers_clubs = season.tonight
    assert [stake["game"] for stake in race["stakes"]] == [bowers_clubs.pk, aces_diamonds.pk]
    assert race["stakes"][0]["leverage"] == 1.0  # its winner is in, its loser out
    assert race["stakes"][1]["leverage"] == 0.0  # Aces are in and Diamonds out, whatever happens
    assert race["stakes"][0]["name_a"] == "Bowers"


def test_the_same_results_give_the_same_odds_and_a_current_race_is_not_redone(season):
    first = season_race_compute(season_id=season.pk)
    assert season_race_compute(season_id=season.pk) is None  # current: nothing to do
    again = season_race_compute(season_id=season.pk, force=True)
    assert again["seed"] == first["seed"]
    assert again["lines"] == first["lines"]


def test_a_season_ranked_by_points_first_says_why_there_is_no_race(season):
    season_set_standing_rules(season=season, rules={"tiebreaks": ["points_for", "wins"]})
    season_standings_recompute(season_id=season.pk)
    race = season_race_compute(season_id=season.pk)
    assert race["status"] == "not_available"
    assert race["reason"] == (
        "The race is worked out for seasons ranked first by wins or win percentage."
    )
    assert "lines" not in race


def test_byes_that_count_as_wins_keep_the_odds_but_claim_no_proof(season):
    season_set_standing_rules(
        season=season,
        rules={
            "tiebreaks": ["wins"],
            "playoff_spots": 2,
            "bye_value": "fixed",
            "bye_counts_as_win": True,
        },
    )
    season_standings_recompute(season_id=season.pk)
    race = season_race_compute(season_id=season.pk)
    assert race["proven"] is False
    assert "Byes count as wins" in race["reason"]
    aces = lines_of(race)["Aces"]
    assert (aces["clinched"], aces["decided"], aces["need"]) == (False, False, "Not yet decided.")


def test_a_new_snapshot_asks_for_the_race_once_on_commit(
    season, django_capture_on_commit_callbacks
):
    season.refresh_from_db()
    Season.objects.filter(pk=season.pk).update(results_version=season.results_version + 1)
    sent = []
    from scoring.games import jobs

    original = jobs.send_race_compute
    jobs.send_race_compute = lambda season_id, countdown=None: sent.append(season_id) or True
    try:
        with django_capture_on_commit_callbacks(execute=True):
            season_standings_recompute(season_id=season.pk)
        with django_capture_on_commit_callbacks(execute=True):
            season_standings_recompute(season_id=season.pk, force=True)
    finally:
        jobs.send_race_compute = original
    assert sent == [season.pk]  # the second asked while the first was still queued: coalesced


def test_the_job_runs_after_a_recompute_and_stores_the_race(
    season, django_capture_on_commit_callbacks
):
    season.refresh_from_db()
    Season.objects.filter(pk=season.pk).update(results_version=season.results_version + 5)
    with django_capture_on_commit_callbacks(execute=True):
        season_standings_recompute(season_id=season.pk)
    snapshot = StandingSnapshot.objects.get(season=season)
    assert snapshot.race_version == snapshot.results_version == season.results_version + 5
    assert lines_of(snapshot.race)["Aces"]["clinched"] is True


def test_the_sweep_finds_a_race_behind_its_snapshot(season):
    assert sweep_stale_seasons()["race"] == [season.pk]  # never computed
    assert StandingSnapshot.objects.get(season=season).race_version is not None  # eager: done
    assert sweep_stale_seasons()["race"] == []


def test_the_command_prints_a_progress_line(season, capsys):
    call_command("compute_race", season=season.pk)
    out = capsys.readouterr().out
    assert out.startswith(f"season {season.pk}: 4 teams, 2 games left, 10,000 runs in ")
    assert out.rstrip().endswith(" s")
    call_command("compute_race", all=True)
    assert capsys.readouterr().out == f"season {season.pk}: already current\n"


def test_the_api_gives_the_race_and_404_for_an_unknown_season(season, api):
    assert api.get("/api/v1/seasons/999999/race/").status_code == 404
    pending = api.get(f"/api/v1/seasons/{season.pk}/race/").json()
    assert (pending["status"], pending["is_current"]) == ("pending", False)
    season_race_compute(season_id=season.pk)
    body = api.get(f"/api/v1/seasons/{season.pk}/race/").json()
    assert (body["status"], body["is_current"], body["spots"]) == ("ok", True, 2)
    assert [line["name"] for line in body["lines"]] == ["Aces", "Bowers", "Clubs", "Diamonds"]
    assert body["lines"][0]["clinched"] is True and body["lines"][3]["eliminated"] is True
    assert body["stakes"][0]["name_a"] == "Bowers"


def test_playoff_spots_go_through_the_standing_rules_api(league, organiser_api):
    season, *_ = race_season(league)
    url = f"/api/v1/seasons/{season.pk}/standing-rules/"
    response = organiser_api.put(url, {"tiebreaks": ["wins"], "playoff_spots": 3}, format="json")
    assert response.status_code == 200, response.json()
    season.refresh_from_db()
    assert season.standing_rules["playoff_spots"] == 3
    refused = organiser_api.put(url, {"playoff_spots": 0}, format="json")
    assert refused.status_code == 400
    season.refresh_from_db()
    assert season.standing_rules["playoff_spots"] == 3


def test_an_individual_season_projects_each_players_final_rank(league, api):
    from scoring.standings.domain.projection import rank_range_text
    from tests.factories import individual_season

    season, players = individual_season(league)
    season_standings_recompute(season_id=season.pk)
    race = season_race_compute(season_id=season.pk)
    assert (race["status"], race["kind"], race["proven"]) == ("ok", "individual", False)
    assert (race["nights_left"], race["rounds_per_night"], race["games_left"]) == (1, 2, 0)
    assert (race["runs"], race["lines"], race["stakes"]) == (2_000, [], [])
    projections = {line["id"]: line for line in race["projections"]}
    assert set(projections) == {player.pk for player in players.values()}
    for line in race["projections"]:
        assert 1 <= line["projected_low"] <= line["projected_median"] <= line["projected_high"]
        assert line["projected"] == rank_range_text(line["projected_low"], line["projected_high"])
        assert line["best_possible"] is None and line["worst_possible"] is None
        # Everyone played the one night, so everyone plays both rounds of the next.
        assert line["games_left"] == 2
    leader, last = projections[players[1].pk], projections[players[6].pk]
    assert leader["projected_low"] == 1 and last["projected_high"] == 8
    assert leader["projected_median"] < last["projected_median"]
    # Seeded by the season and its results: computed again, the same projection.
    again = season_race_compute(season_id=season.pk, force=True)
    assert again["projections"] == race["projections"]

    body = api.get(f"/api/v1/seasons/{season.pk}/race/").json()
    assert (body["status"], body["kind"], body["is_current"]) == ("ok", "individual", True)
    assert (body["nights_left"], body["rounds_per_night"]) == (1, 2)
    assert body["projections"] == race["projections"]


def test_a_season_over_but_for_a_seated_game_proves_the_bounds(league, api):
    from tests.factories import individual_season

    season, players = individual_season(league, ended=True)
    season_standings_recompute(season_id=season.pk)
    race = season_race_compute(season_id=season.pk)
    assert (race["proven"], race["nights_left"], race["games_left"]) == (True, 0, 1)
    bounds = {
        line["id"]: (line["best_possible"], line["worst_possible"]) for line in race["projections"]
    }
    number = {player.pk: n for n, player in players.items()}
    by_number = {number[pk]: bound for pk, bound in bounds.items()}
    # Player 1 (2 wins, 3 at most) trails nobody for sure and leads the five who cannot pass 1.
    assert by_number[1] == (1, 3)
    # Player 7 (2 wins, no game left) can be passed by 1 only, and leads the same five.
    assert by_number[7] == (1, 3)
    # Player 6 (no win, one game left: one at most) trails for sure the two on two wins.
    assert by_number[6] == (3, 8)
    for line in race["projections"]:
        assert line["best_possible"] <= line["projected_low"] <= line["projected_high"]
        assert line["projected_high"] <= line["worst_possible"]
    body = api.get(f"/api/v1/seasons/{season.pk}/race/").json()
    assert body["projections"][0]["best_possible"] == race["projections"][0]["best_possible"]


def test_the_projections_are_in_the_schema(api):
    schema = api.get("/api/schema/?format=json").json()
    operation = schema["paths"]["/api/v1/seasons/{id}/race/"]["get"]
    ref = operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    race = schema["components"]["schemas"][ref.rsplit("/", 1)[1]]
    assert {"kind", "nights_left", "rounds_per_night", "projections"} <= set(race["properties"])
    line_ref = race["properties"]["projections"]["items"]["$ref"]
    line = schema["components"]["schemas"][line_ref.rsplit("/", 1)[1]]
    assert {
        "projected_low",
        "projected_median",
        "projected_high",
        "projected",
        "best_possible",
        "worst_possible",
    } <= set(line["required"])


def test_the_command_prints_a_progress_line_for_projected_ranks(league, capsys):
    from tests.factories import individual_season

    season, _players = individual_season(league)
    season_standings_recompute(season_id=season.pk)
    call_command("compute_race", season=season.pk, runs=300)
    out = capsys.readouterr().out
    assert out.startswith(
        f"season {season.pk}: 8 players, 1 night and 0 seated games left, 300 runs in "
    )
    assert StandingSnapshot.objects.get(season=season).race["runs"] == 300


def test_a_night_under_way_adds_its_seated_games_and_its_rounds_not_started(league):
    from league.models import Night
    from tests.factories import GameFactory, individual_season

    season, players = individual_season(league)
    tonight = Night.objects.get(season=season, status=Night.Status.PLANNED)
    Night.objects.filter(pk=tonight.pk).update(status=Night.Status.PLAYING)
    for table_number, seats in enumerate(((1, 3, 5, 7), (2, 4, 6, 8)), start=1):
        GameFactory(
            season=season,
            night=tonight,
            round_number=1,
            table_number=table_number,
            **{f"seat_{seat}": players[n] for seat, n in enumerate(seats)},
        )
    season_standings_recompute(season_id=season.pk)
    race = season_race_compute(season_id=season.pk)
    # Round 1 is seated (two games); round 2 of the two a night has is not started yet.
    assert (race["nights_left"], race["games_left"], race["proven"]) == (0, 2, False)
    for line in race["projections"]:
        assert line["games_left"] == 2  # the seated game and one more round, for all eight
