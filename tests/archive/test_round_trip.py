"""A league survives the move: the demo league (with a season's history added: corrections,
undos, a bracket correction, a dispute, invitations, a pending change) and a second league that
shares an organiser are exported, the database is emptied, both are imported, and every row of
every table is as it was, to the microsecond, and exporting again gives the same bytes. Runs on
SQLite and on PostgreSQL (both passes of the suite)."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from league.models import League
from scoring.games import services as scoring_services
from scoring.games.models import Game, Hand
from tests.archive.support import (
    empty_database,
    enrich_demo,
    export_text,
    import_text,
    picture,
    small_league,
)

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_leagues_move_into_an_empty_database_and_come_back_the_same(client):
    call_command("demo_league", stdout=StringIO())
    # The site's superuser belongs to no league: no archive carries it (ACCOUNT_FIELDS).
    get_user_model().objects.filter(username="admin", is_superuser=True).delete()
    enrich_demo()
    organiser = get_user_model().objects.get(username="organiser")
    other = small_league("elsewhere")
    other.roles.create(user=organiser, role="organiser")
    before = picture()
    # Every kind of row is there to be lost (the standings too, and their pending change).
    empty = sorted(label for label, rows in before.items() if not rows)
    assert empty == [], empty
    assert {row["status"] for row in before["scoring.hand"]} == {"active", "superseded", "voided"}

    rosies, elsewhere = export_text("rosies"), export_text("elsewhere")
    empty_database()
    first = import_text(rosies)
    second = import_text(elsewhere, use_existing_accounts=True)

    assert picture() == before
    assert export_text("rosies") == rosies
    assert export_text("elsewhere") == elsewhere
    assert first.accounts_created == ["co-organiser", "organiser"]
    assert second.accounts_linked == ["organiser"]
    assert sorted(second.accounts_created) == ["elsewhere-co", "elsewhere-owner"]
    assert first.counts["scoring.hand"] == len(
        [line for line in rosies.splitlines() if '"model": "scoring.hand"' in line]
    )

    # The organisers sign in as before; the demo's superuser brought no rights on the site.
    assert client.login(username="organiser", password="euchre-demo")
    organiser = get_user_model().objects.get(username="organiser")  # a new id here
    assert not organiser.is_superuser
    # Play goes on: ids are handed out after the imported ones, the running score continues.
    game = (
        Game.objects.filter(season__league__slug="rosies", status=Game.Status.IN_PROGRESS)
        .order_by("pk")
        .first()
    )
    newest = Hand.objects.order_by("-pk").first().pk
    result = scoring_services.hand_record(
        game=game,
        data=scoring_services.HandInput(makers="A", caller_id=game.seat_0_id, tricks_won=3),
        user=organiser,
    )
    assert result.hand.pk > newest
    assert League.objects.count() == 2
