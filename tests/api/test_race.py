"""The playoff race through the service, the job, the sweep, the command and the API: a small
season where one team has clinched and one is out, checked against what can be proven by hand."""

import pytest
from django.core.cache import cache
from django.core.management import call_command

from league.models import Season
from scoring.models import StandingSnapshot
from scoring.race import season_race_compute
from scoring.standings import season_set_standing_rules, season_standings_recompute
from scoring.tasks import sweep_stale_seasons
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
    from scoring import jobs

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
