"""The demo league shows standings, stats and a chart on its public pages."""

import re
from io import StringIO

import pytest
from django.core.management import call_command

from league.models import League, Player

pytestmark = pytest.mark.django_db


def test_the_demo_league_shows_standings_stats_and_a_chart(client):
    out = StringIO()
    call_command("demo_league", stdout=out)
    season = League.objects.get(slug="rosies").seasons.get()
    assert f"/l/rosies/s/{season.pk}/" in out.getvalue()
    assert season.nights.count() == 3
    body = client.get(f"/l/rosies/s/{season.pk}/").content.decode()
    ranks = re.findall(r'<td class="rank">(\d+)</td>', body)
    assert ranks == ["1", "2", "3", "4"]
    assert len(re.findall(r'<path class="series"', body)) == 4
    assert 'hx-trigger="every 5s"' in body  # a game is still being played
    assert "Playing now" in body
    alice = Player.objects.get(name="Alice Park")
    player = client.get(f"/l/rosies/players/{alice.pk}/").content.decode()
    assert "<dt>Calls / made</dt>" in player and "Rating <b>" in player
    call_command("demo_league", stdout=StringIO())  # idempotent: loads nothing twice
    assert League.objects.filter(slug="rosies").count() == 1
