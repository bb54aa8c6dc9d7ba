"""The organiser's bracket page says each seed's standing reason and the cut note in a few plain
words, the full sentence behind a tap (``<details>``), on a bracket built from the organiser's
form; a bracket seeded before short reasons were stored shows its full sentences as before."""

import pytest

from scoring.games import services as scoring
from tests.api.test_brackets import make_teams, seats
from tournaments.models import Bracket, BracketEntry

pytestmark = pytest.mark.django_db

RESULTS = ((1, 2), (3, 4), (2, 3))  # Teams 2 and 3 level at 1-1 on win %: 2 beat 3


@pytest.fixture
def season(make_season, django_capture_on_commit_callbacks):
    """Four teams after three games, their standings stored (the recompute run on commit)."""
    season = make_season("standard")
    teams = make_teams(season, 4)
    for winner, loser in RESULTS:
        first, second = teams[winner - 1], teams[loser - 1]
        with django_capture_on_commit_callbacks(execute=True):
            game = scoring.game_create(
                season=season, seats=seats(first, second), team_a=first, team_b=second
            )
            scoring.game_record_final_score(game=game, score_a=10, score_b=5)
    return season


def build_from_the_form(organiser_client, season):
    response = organiser_client.post(
        "/manage/brackets/new/",
        {
            "season": season.pk,
            "name": "Playoffs",
            "kind": "single",
            "best_of": "1",
            "seeding": "standings",
            "team_count": "3",
            "confirm_unfinished": "on",
        },
    )
    assert response.status_code == 302, response.content.decode()
    return organiser_client.get(response["Location"])


def test_each_seed_says_why_in_a_few_words_and_the_full_sentence_on_a_tap(organiser_client, season):
    response = build_from_the_form(organiser_client, season)

    html = response.content.decode()
    entries = list(BracketEntry.objects.order_by("seed"))
    assert [entry.standing_reason_short for entry in entries] == [
        "won more often than Team 2",
        "won less often than Team 1",
        "Team 2 beat them",
    ]
    third = entries[2].standing_reason
    assert third.startswith("behind Team 2 on head-to-head")
    assert (
        f'<details class="reason"><summary>Team 2 beat them</summary>'
        f"<p>{third[0].upper()}{third[1:]}.</p></details>"
    ) in html
    assert (
        '<details class="reason"><summary>won less often than Team 1</summary>'
        "<p>Behind Team 1 on win percentage (0.500 to 1.000).</p></details>"
    ) in html
    bracket = Bracket.objects.get()
    assert (
        '<details class="cut-note reason"><summary>Team 4 is out: won less often than Team 3'
        f"</summary><p>{bracket.cut_note}</p></details>"
    ) in html
    assert bracket.cut_note.startswith("The cut falls after 3rd: Team 3 is in, Team 4 (4th) is out")


def test_a_bracket_seeded_before_short_reasons_shows_its_sentences(organiser_client, season):
    build_from_the_form(organiser_client, season)
    BracketEntry.objects.update(standing_reason_short="")
    Bracket.objects.update(cut_note_short="")
    bracket = Bracket.objects.get()

    html = organiser_client.get(f"/manage/brackets/{bracket.pk}/").content.decode()

    assert "<details" not in html
    assert f'<p class="cut-note">{bracket.cut_note}</p>' in html
    assert "<small>behind Team 1 on win percentage (0.500 to 1.000)</small>" in html


def test_the_bracket_form_shows_the_order_seeds_would_take_with_their_reasons(
    organiser_client, season
):
    html = organiser_client.get(f"/manage/brackets/new/?season={season.pk}").content.decode()

    assert (
        '<details class="seed-order"><summary>The standings now: 4 teams ranked</summary>' in html
    )
    assert (
        "<tr><td>3</td><td>Team 3</td><td>"
        '<details class="reason"><summary>Team 2 beat them</summary>'
        "<p>Behind Team 2 on head-to-head (0–1).</p></details></td></tr>"
    ) in html
    assert (
        "<tr><td>4</td><td>Team 4</td><td>"
        '<details class="reason"><summary>won less often than Team 3</summary>'
        "<p>Behind Team 3 on win percentage (0.000 to 0.500).</p></details></td></tr>"
    ) in html


def test_the_bracket_form_of_a_season_with_no_finished_game_shows_no_order(
    organiser_client, make_season
):
    fresh = make_season("standard")
    make_teams(fresh, 4)

    html = organiser_client.get(f"/manage/brackets/new/?season={fresh.pk}").content.decode()

    assert "How many teams" in html
    assert "seed-order" not in html
