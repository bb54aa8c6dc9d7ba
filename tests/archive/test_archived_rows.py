"""An archived night moves house archived: exported, imported into an empty database, it is still
archived (by the same account, at the same moment), still out of the public lists, and can be
restored there like any other."""

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from league.models import LeagueRole, Night
from tests.archive.support import empty_database, export_text, import_text, picture, small_league
from tournaments.services.archiving import archivable_archive, archivable_restore

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_archived_night_is_still_archived_after_export_and_import():
    league = small_league("shelved")
    owner = LeagueRole.objects.get(league=league, role=LeagueRole.Role.OWNER).user
    night = Night.objects.get(season__league=league)
    archivable_archive(row=night, user=owner, reason="played at the wrong bar")
    before = picture()
    text = export_text("shelved")

    empty_database()
    import_text(text)

    assert picture() == before
    moved = Night.objects.get(pk=night.pk)
    assert moved.archived_at is not None
    assert moved.archived_by.get_username() == "shelved-owner"
    assert APIClient().get("/api/v1/nights/", {"season": moved.season_id}).data["results"] == []
    owner = get_user_model().objects.get(username="shelved-owner")
    archivable_restore(row=moved, user=owner)
    listed = APIClient().get("/api/v1/nights/", {"season": moved.season_id}).data["results"]
    assert [row["id"] for row in listed] == [night.pk]
