"""The demo's accounts: ``organiser`` is an ordinary account that owns the demo league (no site
rights), so the demo shows what an organiser sees; ``admin`` is the site's administrator."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from league.models import League, LeagueRole

pytestmark = pytest.mark.django_db


def test_the_demo_organiser_owns_the_demo_league_and_nothing_more():
    out = StringIO()
    call_command("demo_league", stdout=out)
    organiser = get_user_model().objects.get(username="organiser")
    assert (organiser.is_superuser, organiser.is_staff) == (False, False)
    role = LeagueRole.objects.get(user=organiser)
    assert (role.league.slug, role.role) == ("rosies", LeagueRole.Role.OWNER)
    admin = get_user_model().objects.get(username="admin")
    assert admin.is_superuser
    assert "user 'admin', password 'euchre-admin'" in out.getvalue()

    other = League.objects.create(name="Elsewhere", slug="elsewhere")
    client = Client()
    assert client.login(username="organiser", password="euchre-demo")
    home = client.get("/manage/").content.decode()
    assert "Tuesday Euchre at Rosie" in home and "Elsewhere" not in home
    assert client.get(f"/manage/leagues/{other.pk}/").status_code == 403
    assert client.get("/admin/").status_code == 302  # not staff: the admin's login
    assert client.get("/manage/tokens/").status_code == 200
