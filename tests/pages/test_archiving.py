"""Archiving in the workspace, with forms as a browser without JavaScript posts them: archive a
night, a season or a bracket; undo it from the flash message; the league's Archived list and its
Restore buttons; what the public pages and the night desk show meanwhile."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from league.models import AuditEntry, Night, Season
from tests.factories import LeagueRoleFactory
from tests.fuzz.seed import seed_league
from tournaments.models import Bracket

pytestmark = pytest.mark.django_db

UNDO = re.compile(r'<form method="post" action="([^"]+)" class="flash-undo">')


@pytest.fixture
def seeded():
    return seed_league()


@pytest.fixture
def owner(seeded):
    client = Client()
    client.force_login(seeded.organiser)
    return client


def follow(client, response):
    assert response.status_code == 302, response.content[:300]
    page = client.get(response["Location"])
    assert page.status_code == 200
    return page.content.decode()


def test_a_night_archived_from_its_season_list_is_undone_from_the_flash(seeded, owner):
    night = Night.objects.get(pk=seeded.ids["night"][0])
    nights_page = f"/manage/seasons/{night.season_id}/nights/"
    assert f"/manage/nights/{night.pk}/archive/" in owner.get(nights_page).content.decode()
    desk = owner.get(f"/manage/nights/{night.pk}/").content.decode()
    assert f'action="/manage/nights/{night.pk}/archive/"' in desk

    body = follow(owner, owner.post(f"/manage/nights/{night.pk}/archive/"))
    assert f"Night of {night.date:%a %-d %b %Y} archived: nothing was deleted." in body
    assert UNDO.findall(body) == [f"/manage/nights/{night.pk}/restore/"]
    assert f"/manage/nights/{night.pk}/archive/" not in body  # not in the list any more
    assert owner.get(f"/manage/nights/{night.pk}/").status_code == 404  # nor on the desk
    assert Client().get(f"/nights/{night.pk}/").status_code == 404
    assert Night.objects.get(pk=night.pk).archived_at is not None

    body = follow(owner, owner.post(UNDO.findall(body)[0]))
    assert f"Night of {night.date:%a %-d %b %Y} restored, as it was." in body
    assert f"/manage/nights/{night.pk}/archive/" in body
    assert not UNDO.findall(body)  # the flash is shown once
    assert owner.get(f"/manage/nights/{night.pk}/").status_code == 200
    restored = Night.objects.get(pk=night.pk)
    assert (restored.archived_at, restored.archived_by) == (None, None)
    assert list(
        AuditEntry.objects.filter(target_type="night").order_by("pk").values_list("action")
    ) == [("night.archive",), ("night.restore",)]


def test_the_archived_list_restores_a_season(seeded, owner):
    league_id = seeded.ids["league"][0]
    season = Season.objects.get(pk=seeded.ids["season"][0])
    league_page = f"/manage/leagues/{league_id}/"
    archived_page = f"/manage/leagues/{league_id}/archived/"
    assert "Nothing is archived." in owner.get(archived_page).content.decode()
    assert f'href="{archived_page}"' in owner.get(league_page).content.decode()

    body = follow(owner, owner.post(f"/manage/seasons/{season.pk}/archive/"))
    assert f"Season {season.name} archived" in body
    assert f'href="/manage/seasons/{season.pk}/"' not in body  # off the league's season list
    assert season.name not in Client().get(f"/l/{season.league.slug}/").content.decode()
    for workspace_page in ("", "nights/", "teams/", "audit/"):  # out of the workspace too
        path = f"/manage/seasons/{season.pk}/{workspace_page}"
        assert owner.get(path).status_code == 404, path

    page = owner.get(archived_page).content.decode()
    assert season.name in page
    assert f'action="/manage/seasons/{season.pk}/restore/"' in page
    body = follow(
        owner, owner.post(f"/manage/seasons/{season.pk}/restore/", {"next": archived_page})
    )
    assert f"Season {season.name} restored" in body
    assert "Nothing is archived." in body  # back on the archived list, now empty
    assert season.name in Client().get(f"/l/{season.league.slug}/").content.decode()
    assert owner.get(f"/manage/seasons/{season.pk}/").status_code == 200
    # A restore of what is in use says so and changes nothing.
    body = follow(owner, owner.post(f"/manage/seasons/{season.pk}/restore/"))
    assert "this season is not archived" in body
    assert AuditEntry.objects.filter(target_type="season").count() == 2


def test_a_bracket_archived_from_the_brackets_list(seeded, owner):
    bracket = Bracket.objects.get(pk=seeded.ids["bracket"][0])
    detail = owner.get(f"/manage/brackets/{bracket.pk}/").content.decode()
    assert f'action="/manage/brackets/{bracket.pk}/archive/"' in detail
    body = follow(owner, owner.post(f"/manage/brackets/{bracket.pk}/archive/"))
    assert f"Bracket {bracket.name} archived" in body
    assert UNDO.findall(body) == [f"/manage/brackets/{bracket.pk}/restore/"]
    assert f'href="/manage/brackets/{bracket.pk}/"' not in body
    assert Client().get(f"/brackets/{bracket.pk}/").status_code == 404
    archived = owner.get(f"/manage/leagues/{seeded.ids['league'][0]}/archived/")
    assert bracket.name in archived.content.decode()
    follow(owner, owner.post(UNDO.findall(body)[0]))
    assert Client().get(f"/brackets/{bracket.pk}/").status_code == 200


def test_another_leagues_organiser_cannot_archive_restore_or_see_the_list(seeded):
    stranger = Client()
    stranger.force_login(LeagueRoleFactory().user)
    night = seeded.ids["night"][0]
    season = seeded.ids["season"][0]
    bracket = seeded.ids["bracket"][0]
    for path in (
        f"/manage/nights/{night}/archive/",
        f"/manage/seasons/{season}/archive/",
        f"/manage/brackets/{bracket}/archive/",
        f"/manage/nights/{night}/restore/",
    ):
        assert stranger.post(path).status_code == 403, path
    assert stranger.get(f"/manage/leagues/{seeded.ids['league'][0]}/archived/").status_code == 403
    assert Client().post(f"/manage/nights/{night}/archive/").status_code == 302  # to log in
    assert not Night.objects.exclude(archived_at=None).exists()
    assert not Season.objects.exclude(archived_at=None).exists()
    assert not Bracket.objects.exclude(archived_at=None).exists()
    assert not AuditEntry.objects.filter(action__endswith="archive").exists()
    assert stranger.get(f"/manage/nights/{night}/archive/").status_code == 405


def test_the_admin_deletes_no_night_season_or_bracket(seeded, django_user_model):
    """Deleting is not archiving: the admin offers neither the delete page nor the bulk delete
    action for a night, a season or a bracket (nor a night's plan, rounds and seats)."""
    admin = Client()
    admin.force_login(django_user_model.objects.create_superuser("root", password="x" * 12))
    night, season, bracket = (seeded.ids[kind][0] for kind in ("night", "season", "bracket"))
    for path in (
        f"/admin/league/night/{night}/delete/",
        f"/admin/league/season/{season}/delete/",
        f"/admin/tournaments/bracket/{bracket}/delete/",
    ):
        assert admin.get(path).status_code == 403, path
        assert admin.post(path, {"post": "yes"}).status_code == 403, path
    for changelist in ("league/night", "league/season", "tournaments/bracket", "tournaments/seat"):
        page = admin.get(f"/admin/{changelist}/")
        assert page.status_code == 200
        assert "delete_selected" not in page.content.decode(), changelist
    assert Night.objects.filter(pk=night).exists()
    assert Season.objects.filter(pk=season).exists()
    assert Bracket.objects.filter(pk=bracket).exists()
