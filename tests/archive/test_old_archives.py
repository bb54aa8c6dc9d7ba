"""Archives written before still import. ``league-v1.jsonl`` is a format-version-1 archive (a
small team season: games, hands corrected and undone, standings, two organisers, invitations,
written without passwords) kept as it was written: when a change to the models stops it from
importing, the archive's format version must be raised and an upgrade from version 1 written
(see tournaments.domain.archive), not this file rewritten."""

import json
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from league.models import League
from scoring.games.models import Hand
from scoring.standings.models import StandingLine
from scoring.standings.selectors import line_shown
from tests.factories import PlayerFactory
from tournaments.domain.archive import kind_upgraded
from tournaments.services.archive import archive_reader, league_import

pytestmark = pytest.mark.django_db

VERSION_1 = Path(__file__).resolve().parent / "league-v1.jsonl"


def test_a_version_1_archive_imports_and_its_league_is_served(client):
    header = json.loads(VERSION_1.read_text().splitlines()[0])
    assert header["version"] == 1
    with archive_reader(VERSION_1) as lines:
        summary = league_import(lines=lines)
    # Kinds added since (a season's money rules) are none in a version 1 archive; the standings'
    # kinds, renamed in version 2 (the scoring app's then, the standings app's now), are read
    # under their new names.
    promised = {kind_upgraded(label, 1): count for label, count in header["counts"].items()}
    assert header["counts"]["scoring.standingsnapshot"] == 1
    assert set(promised) <= set(summary.counts)
    # The lines of its standings rows (kept by version 1's program) are read, not written: the
    # rows live in the snapshot alone.
    rows_lines = sum('"kind": "standing"' in line for line in VERSION_1.read_text().splitlines())
    assert rows_lines == 4
    promised["standings.standingline"] -= rows_lines
    assert summary.counts == {label: promised.get(label, 0) for label in summary.counts}
    assert summary.counts["standings.standingsnapshot"] == 1
    assert summary.accounts_created == ["archived-v1-co", "archived-v1-owner"]
    league = League.objects.get(slug="archived-v1")
    assert sorted(league.roles.values_list("user__username", "role")) == [
        ("archived-v1-co", "organiser"),
        ("archived-v1-owner", "owner"),
    ]
    statuses = sorted(Hand.objects.filter(game__season__league=league).values_list("status"))
    assert statuses == [("active",), ("active",), ("superseded",), ("voided",)]
    assert not any(account.has_usable_password() for account in get_user_model().objects.all())
    season = league.seasons.get()
    kinds = set(StandingLine.objects.filter(season=season).values_list("kind", flat=True))
    assert kinds and "standing" not in kinds
    # Its stats lines listed their pair records as objects; version 3 keeps them as numbers,
    # and they read back as the archive had them.
    archived = {
        (record["fields"]["kind"], record["fields"]["entrant_id"]): record["fields"]["data"]
        for record in map(json.loads, VERSION_1.read_text().splitlines()[1:])
        if record["model"] == "scoring.standingline"
        and record["fields"]["kind"] in ("player", "team")
    }
    stored = StandingLine.objects.filter(season=season, kind__in=("player", "team"))
    assert archived and len(stored) == len(archived)
    for line in stored:
        assert all(isinstance(number, int) for number in line.data["opponents"])
        assert line_shown(line.kind, line.data) == archived[line.kind, line.entrant_id]
    assert len(season.snapshot.standings["rows"]) == 4
    page = client.get(f"/l/{league.slug}/s/{season.pk}/")
    assert page.status_code == 200
    assert "Aces" in page.content.decode()


def test_on_postgresql_an_import_never_moves_an_id_sequence_back():
    """The imported ids are small; the database had handed out larger ones: new rows go on
    from the larger (another transaction may be writing a row under one of them)."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite's AUTOINCREMENT never goes back by itself")
    with connection.cursor() as cursor:
        cursor.execute("SELECT setval(pg_get_serial_sequence('league_player', 'id'), 100000)")
    with archive_reader(VERSION_1) as lines:
        league_import(lines=lines)
    assert PlayerFactory().pk == 100001
