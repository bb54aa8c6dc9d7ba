"""An organiser's first evening in the workspace, in a real browser at a phone and a tablet size:
sign up, create a league, import a roster, create a season and a night, settle a dispute."""

from __future__ import annotations

import pytest

from league.models import AuditEntry, League, Night, Player, Season
from scoring.games import services
from scoring.games.models import Game, Hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TABLET = {"width": 800, "height": 1100}
ROSTER = "name,email\nAlice,alice@example.com\nBob,\nCarol,\nDave,dave@example.com\n"


def _dispute_a_game(season: Season) -> Game:
    """What the table did, through the services: A marches five times, B disputes."""
    names = ("Alice", "Bob", "Carol", "Dave")
    seats = tuple(Player.objects.get(league=season.league, name=name) for name in names)
    game = services.game_create(season=season, seats=seats, table_number=2)
    for _ in range(5):
        services.hand_record(game=game, data=services.HandInput(makers="A", tricks_won=5))
    return services.game_dispute(game=game, reason="hand 5 was three tricks, not a march")


@pytest.mark.parametrize("viewport", ["phone", "tablet"])
def test_an_organiser_sets_up_a_league_and_settles_a_dispute(
    new_phone, live_server, shot, tmp_path, viewport
):
    from playwright.sync_api import expect

    page = new_phone().new_page()
    if viewport == "tablet":
        page.set_viewport_size(TABLET)
    base = live_server.url

    # Sign up
    page.goto(f"{base}/manage/")
    expect(page.locator("h1")).to_have_text("Log in")
    page.get_by_role("link", name="Create an account").click()
    page.get_by_label("Username").fill("rosie")
    page.locator("#id_password1").fill("a long pass phrase 42")
    page.locator("#id_password2").fill("a long pass phrase 42")
    shot(page, "signup")
    page.get_by_role("button", name="Create account").click()
    expect(page.locator("h1")).to_have_text("Your leagues")

    # Create a league
    page.get_by_role("link", name="Create a league").click()
    page.get_by_label("Name").fill("Tuesday euchre at Rosie's")
    page.get_by_role("button", name="Create league").click()
    expect(page.locator("h1")).to_have_text("Tuesday euchre at Rosie's")
    league = League.objects.get()
    assert list(league.roles.values_list("user__username", "role")) == [("rosie", "owner")]

    # Import a roster: first a bad file (nothing imported), then a good one
    page.get_by_role("link", name="Roster").click()
    page.get_by_role("link", name="Import a CSV file").click()
    bad = tmp_path / "bad.csv"
    bad.write_text("name,email\nAlice,\nAlice,\n,x@example.com\n")
    page.get_by_label("Roster CSV file").set_input_files(str(bad))
    page.get_by_role("button", name="Import").click()
    expect(page.locator("table.problems tbody tr")).to_have_count(2)
    expect(page.locator("table.problems")).to_contain_text("Alice is also on line 2")
    shot(page, "import-refused")
    assert Player.objects.count() == 0
    good = tmp_path / "roster.csv"
    good.write_text(ROSTER)
    page.get_by_label("Roster CSV file").set_input_files(str(good))
    page.get_by_role("button", name="Import").click()
    expect(page.locator(".messages")).to_contain_text("Imported 4 players.")
    expect(page.locator("table.roster tbody tr")).to_have_count(4)
    shot(page, "roster")

    # Create a season with the CSL preset, then plan a night
    page.locator(".crumbs a:visible").first.click()  # on a phone: the parent, the league
    page.get_by_role("link", name="New season").click()
    page.get_by_label("Name").fill("Winter 2026")
    page.get_by_label("Rulebook").select_option("csl")
    page.get_by_role("button", name="Create season").click()
    expect(page.locator("h1")).to_contain_text("Winter 2026")
    season = Season.objects.get()
    assert (season.rulebook.preset, season.rulebook.options["stick_the_dealer"]) == ("csl", True)
    page.get_by_role("link", name="Nights", exact=True).click()
    page.get_by_label("Date:", exact=True).fill("2026-02-03")
    page.get_by_label("Venue:", exact=True).fill("Rosie's back room")
    page.get_by_role("button", name="Add night").click()
    expect(page.locator("table.nights tbody tr")).to_have_count(1)
    expect(page.locator("table.nights")).to_contain_text("Rosie's back room")
    night = Night.objects.get()
    assert (str(night.date), night.venue, night.season_id) == (
        "2026-02-03",
        "Rosie's back room",
        season.pk,
    )
    assert page.locator("table.nights a").get_attribute("href") == f"/manage/nights/{night.pk}/"
    shot(page, "nights")

    # A table disputes its score; the organiser corrects hand 5 from the dashboard
    game = _dispute_a_game(season)
    page.get_by_role("navigation", name="Breadcrumb").get_by_role(
        "link", name="Winter 2026"
    ).click()
    disputed = page.locator("section.disputed li.game")
    expect(disputed).to_have_count(1)
    expect(disputed).to_contain_text("hand 5 was three tricks, not a march")
    shot(page, "dashboard")
    disputed.get_by_role("link", name="Settle").click()
    page.get_by_label("Correct a hand").check()
    page.get_by_label("Reason").fill("the score sheet shows 3 tricks")
    page.get_by_label("Hand number").fill("5")
    page.get_by_label("Side that named trump").select_option("A")
    page.get_by_label("Tricks the makers took").select_option("3")
    shot(page, "settle")
    page.get_by_role("button", name="Settle").click()
    expect(page.locator(".messages")).to_contain_text(f"Game {game.pk} settled.")
    expect(page.locator("section.disputed li.game")).to_have_count(0)
    expect(page.locator("section.in-progress li.game")).to_contain_text("9–0")
    shot(page, "settled")

    game.refresh_from_db()
    assert (game.status, game.score_a, game.confirmation) == ("in_progress", 9, "pending")
    assert Hand.objects.get(game=game, number=5, status="active").tricks_won == 3
    assert [e.action for e in AuditEntry.objects.filter(season=season).order_by("pk")] == [
        "hand.correct",
        "game.settle-correct",
    ]
    page.get_by_role("link", name="Audit trail").click()
    expect(page.locator("ol.audit li.entry")).to_have_count(2)
    expect(page.locator("ol.audit")).to_contain_text("Why: the score sheet shows 3 tricks")
    shot(page, "audit")

    # Nothing overflows sideways at this size
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"]
