"""Bracket pages: the public bracket (SVG, placings, the htmx live part) and the organiser's
screens (build from the standings, review the seeds and the cut line, publish, preview then apply
a correction, a withdrawal), with who may see which."""

import pytest
from django.test import Client

from tests.api.test_brackets import finish, make_teams, match_game, play_season
from tests.factories import LeagueRoleFactory
from tournaments.models import Bracket, BracketCorrection, BracketMatchGame
from tournaments.services.brackets.create import bracket_create, bracket_publish

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(make_season):
    return make_season("standard")


@pytest.fixture
def four(season, organiser):
    teams = make_teams(season, 4)
    bracket = bracket_create(
        season=season, user=organiser, kind="single", teams=teams, name="Playoffs"
    )
    return bracket, teams


def test_the_public_page_draws_the_bracket_and_the_placings(
    client, four, organiser, django_capture_on_commit_callbacks
):
    bracket, _teams = four
    bracket_publish(bracket=bracket, user=organiser)
    page = client.get(f"/brackets/{bracket.pk}/")
    html = page.content.decode()
    assert page.status_code == 200
    assert 'hx-trigger="every 5s"' in html  # polled while being played
    assert "vendor/htmx.min.js" in html
    assert "css/brackets.css" in html
    assert html.count('<g class="match') == 3
    assert '<g class="match ready" data-code="W1-1">' in html
    assert '<text class="round" x="78" y="16" text-anchor="middle">Semi-finals</text>' in html
    assert (
        '<text class="team pending"><tspan x="223" y="78">Winner of</tspan>'
        '<tspan x="223" y="91">W1-1</tspan><title>Winner of W1-1</title></text>'
    ) in html
    assert html.count('<path class="feed"') == 2

    for code, side in (("W1-1", "A"), ("W1-2", "B"), ("W2-1", "A")):
        finish(match_game(bracket.pk, code), side, django_capture_on_commit_callbacks)
    html = client.get(f"/brackets/{bracket.pk}/").content.decode()
    assert "hx-trigger" not in html  # finished: no more polling
    assert "Champion: <strong>Team 1</strong>" in html
    assert '<text class="seed" x="209" y="84">1</text>' in html
    assert (
        '<text class="team winner"><tspan x="223" y="84">Team 1</tspan>'
        "<title>Seed 1: Team 1</title></text>"
    ) in html
    assert '<text class="pts winner" x="328" y="84" text-anchor="end">10</text>' in html
    assert '<h2 id="placings-h">Final placings</h2>' in html
    assert "<tr><td>1</td><td>Team 1</td></tr>" in html
    assert "<tr><td>2</td><td>Team 3</td></tr>" in html
    assert html.count("<tr><td>3</td>") == 2


def test_long_names_wrap_whole_beside_their_seeds(client, season, organiser):
    teams = make_teams(season, 4)
    teams[1].name = "Bowers of Power and Glory"
    teams[2].name = "Supercalifragilisticexpialidocious"
    for team in teams[1:3]:
        team.save()
    bracket = bracket_create(
        season=season, user=organiser, kind="single", teams=teams, name="Playoffs"
    )
    bracket_publish(bracket=bracket, user=organiser)
    html = client.get(f"/brackets/{bracket.pk}/").content.decode()
    assert "…" not in html
    # W1-2 is seed 2 v seed 3: names on two lines, a line too wide for the box drawn narrower
    # (textLength), a word too long for a line broken with a hyphen.
    narrower = 'textLength="88" lengthAdjust="spacingAndGlyphs"'
    assert '<text class="seed" x="33" y="123">2</text>' in html
    assert (
        '<text class="team"><tspan x="47" y="117">Bowers of</tspan>'
        f'<tspan x="47" y="130" {narrower}>Power and Glory</tspan>'
        "<title>Seed 2: Bowers of Power and Glory</title></text>"
    ) in html
    assert '<text class="seed" x="33" y="155">3</text>' in html
    assert (
        '<text class="team"><tspan x="47" y="149">Supercalifragi-</tspan>'
        f'<tspan x="47" y="162" {narrower}>listicexpialidocious</tspan>'
        "<title>Seed 3: Supercalifragilisticexpialidocious</title></text>"
    ) in html


def test_htmx_polls_get_the_live_part_alone(client, four, organiser):
    bracket, _teams = four
    bracket_publish(bracket=bracket, user=organiser)
    response = client.get(f"/brackets/{bracket.pk}/", HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert html.startswith('<div id="bracket-live"')
    assert "<html" not in html
    assert "HX-Request" in response["Vary"]
    assert client.get("/brackets/999999/").status_code == 404


def test_the_organiser_builds_a_bracket_from_the_standings_and_publishes_it(
    organiser_client, season
):
    teams = make_teams(season, 5)
    play_season(season, teams)
    form = organiser_client.get(f"/manage/brackets/new/?season={season.pk}")
    assert form.status_code == 200
    assert f'name="seed_{teams[0].pk}"' in form.content.decode()

    response = organiser_client.post(
        "/manage/brackets/new/",
        {
            "season": season.pk,
            "name": "Spring playoffs",
            "kind": "single",
            "best_of": "1",
            "third_place": "on",
            "seeding": "standings",
            "team_count": "4",
        },
    )
    bracket = Bracket.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/manage/brackets/{bracket.pk}/"
    assert (bracket.name, bracket.third_place, bracket.seeding) == (
        "Spring playoffs",
        True,
        "standings",
    )

    html = organiser_client.get(response["Location"]).content.decode()
    assert "The cut falls after 4th: Team 3 is in, Team 5 (5th) is out: behind Team 3 on" in html
    assert "Publish: create the first games" in html

    published = organiser_client.post(f"/manage/brackets/{bracket.pk}/publish/")
    assert published.status_code == 302
    html = organiser_client.get(f"/manage/brackets/{bracket.pk}/").content.decode()
    first = match_game(bracket.pk, "W1-1")
    assert f'href="/t/{first.captain_token}/"' in html
    assert "A team withdraws" in html


def test_building_by_hand_orders_the_teams_by_the_seed_numbers_given(organiser_client, season):
    teams = make_teams(season, 3)
    response = organiser_client.post(
        "/manage/brackets/new/",
        {
            "season": season.pk,
            "kind": "double",
            "seeding": "manual",
            f"seed_{teams[0].pk}": "2",
            f"seed_{teams[2].pk}": "1",
        },
    )
    assert response.status_code == 302
    bracket = Bracket.objects.get()
    assert [entry.team for entry in bracket.entries.order_by("seed")] == [teams[2], teams[0]]


def test_a_refused_build_shows_why_and_writes_nothing(organiser_client, season):
    make_teams(season, 2)
    response = organiser_client.post(
        "/manage/brackets/new/",
        {"season": season.pk, "kind": "single", "seeding": "standings", "team_count": "2"},
    )
    assert response.status_code == 400
    assert (
        "This season has no standings yet (no game has finished): set the seeds by hand."
        in response.content.decode()
    )
    assert Bracket.objects.count() == 0


def test_a_correction_is_shown_before_it_is_applied(
    organiser_client, four, organiser, django_capture_on_commit_callbacks
):
    bracket, teams = four
    bracket_publish(bracket=bracket, user=organiser)
    for code, side in (("W1-1", "A"), ("W1-2", "A"), ("W2-1", "A")):
        finish(match_game(bracket.pk, code), side, django_capture_on_commit_callbacks)
    detail = organiser_client.get(f"/manage/brackets/{bracket.pk}/").content.decode()
    assert "Team 4 won it…" in detail

    url = f"/manage/brackets/{bracket.pk}/correct/"
    preview = organiser_client.get(url, {"match": "W1-1", "winner": teams[3].pk})
    html = preview.content.decode()
    assert preview.status_code == 200
    assert "Team 4 wins W1-1 instead of Team 1; this resets W2-1." in html
    assert (
        "<b>W2-1</b> Team 1 v Team 2: Team 1 won · 1 game played, kept on record but no longer "
        "counting" in html
    )
    assert '<input type="hidden" name="reset" value="W2-1">' in html
    assert BracketCorrection.objects.count() == 0

    applied = organiser_client.post(
        url, {"match": "W1-1", "winner": teams[3].pk, "reset": "W2-1", "reason": "Swapped"}
    )
    assert applied.status_code == 302
    assert BracketCorrection.objects.get().reason == "Swapped"
    assert match_game(bracket.pk, "W2-1").team_a == teams[3]


def test_a_stale_correction_shows_the_new_preview_and_writes_nothing(
    organiser_client, four, organiser, django_capture_on_commit_callbacks
):
    bracket, teams = four
    bracket_publish(bracket=bracket, user=organiser)
    for code, side in (("W1-1", "A"), ("W1-2", "A"), ("W2-1", "A")):
        finish(match_game(bracket.pk, code), side, django_capture_on_commit_callbacks)
    links = BracketMatchGame.objects.filter(status="counting").count()
    response = organiser_client.post(
        f"/manage/brackets/{bracket.pk}/correct/",
        {"match": "W1-1", "winner": teams[3].pk, "reason": "Swapped"},
    )
    assert response.status_code == 409
    assert "The bracket changed since the preview" in response.content.decode()
    assert BracketCorrection.objects.count() == 0
    assert BracketMatchGame.objects.filter(status="counting").count() == links


def test_the_organiser_withdraws_a_team(organiser_client, four, organiser):
    bracket, teams = four
    bracket_publish(bracket=bracket, user=organiser)
    response = organiser_client.post(
        f"/manage/brackets/{bracket.pk}/withdraw/", {"team": teams[3].pk, "reason": "Ill"}
    )
    assert response.status_code == 302
    match = bracket.matches.get(code="W1-1")
    assert (match.winner, match.decided_by) == (teams[0], "forfeit")


def test_organiser_screens_need_an_organiser_of_the_league(client, four):
    bracket, _teams = four
    anonymous = client.get(f"/manage/brackets/{bracket.pk}/")
    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith("/manage/login/")
    stranger = Client()
    stranger.force_login(LeagueRoleFactory().user)
    assert stranger.get(f"/manage/brackets/{bracket.pk}/").status_code == 403
    assert stranger.post(f"/manage/brackets/{bracket.pk}/publish/").status_code == 403
    bracket.refresh_from_db()
    assert bracket.status == "draft"
    listing = stranger.get("/manage/brackets/").content.decode()
    assert "Playoffs" not in listing


@pytest.mark.parametrize("value", ["99999999999999999999", "²", "9" * 5000])
def test_a_value_that_is_no_team_is_refused_and_writes_nothing(
    organiser_client, four, organiser, value
):
    """Beyond any id column (an OverflowError on SQLite), a digit ``int`` refuses, more digits
    than ``int`` reads: the same refusal as no team chosen."""
    bracket, _teams = four
    bracket_publish(bracket=bracket, user=organiser)
    entries = sorted(bracket.entries.values_list("team_id", "withdrawn_at"))
    response = organiser_client.post(
        f"/manage/brackets/{bracket.pk}/withdraw/", {"team": value, "reason": "Ill"}
    )
    assert response.status_code == 400
    assert "Pick the team that withdraws." in response.content.decode()
    assert sorted(bracket.entries.values_list("team_id", "withdrawn_at")) == entries
    url = f"/manage/brackets/{bracket.pk}/correct/"
    for sent in (organiser_client.get, organiser_client.post):
        response = sent(url, {"match": "W1-1", "winner": value, "reason": "Swapped"})
        assert response.status_code == 400
        assert "Pick the team that really won." in response.content.decode()
    assert BracketCorrection.objects.count() == 0


@pytest.mark.parametrize("field", ["best_of", "team_count"])
def test_a_build_with_a_digit_int_refuses_is_explained(organiser_client, season, field):
    make_teams(season, 4)
    form = {"season": season.pk, "kind": "single", "name": "Cup", "team_count": "4", field: "²"}
    response = organiser_client.post("/manage/brackets/new/", form)
    assert response.status_code == 400
    assert f"{field.replace('_', ' ')} must be a whole number" in response.content.decode()
    assert not Bracket.objects.exists()
