"""``league_import`` writes a whole league or nothing: every refusal says why, and leaves every
table as it was. Also the commands' files (plain, gzip, standard output), passwords left out, and
an archive that tries to give rights on the site or to slip rows into another league."""

import gzip
import io
import json
import sys
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from core.errors import ConflictError, DomainError
from league.models import League, LeagueRole
from tests.archive.support import (
    empty_database,
    export_text,
    import_text,
    lines_of,
    picture,
    row_counts,
    small_league,
)
from tests.factories import UserFactory
from tournaments.domain.archive import ArchiveError
from tournaments.services import archive as archive_service

pytestmark = pytest.mark.django_db


@pytest.fixture
def archive():
    league = small_league()
    return league, export_text(league.slug)


def refused(text: str, code: str, **options) -> DomainError:
    """Import ``text``; it must be refused with ``code`` and leave every table as it was."""
    before = picture()
    with pytest.raises(DomainError) as raised:
        import_text(text, **options)
    assert raised.value.code == code, raised.value.message
    assert picture() == before
    return raised.value


def with_header(text: str, **changes) -> str:
    first, *rest = lines_of(text)
    header = json.loads(first)
    header.update(changes)
    return json.dumps(header) + "\n" + "".join(rest)


def test_refuses_a_league_that_is_already_there(archive):
    _, text = archive
    error = refused(text, "league_exists")
    assert isinstance(error, ConflictError)
    assert "a league with the address 'tuesdays' already exists" in error.message


def test_refuses_rows_that_are_already_there_under_another_address(archive):
    league, text = archive
    League.objects.filter(pk=league.pk).update(slug="renamed")
    error = refused(text, "rows_exist", use_existing_accounts=True)
    assert f"league.league with id {league.pk}" in error.message


def test_refuses_accounts_already_there_unless_told_to_use_them(archive):
    _, text = archive
    empty_database()
    mine = UserFactory(username="tuesdays-owner", password="my own password")
    error = refused(text, "accounts_exist")
    assert "tuesdays-owner" in error.message and "--use-existing-accounts" in error.message
    assert row_counts()["auth.user"] == 1

    summary = import_text(text, use_existing_accounts=True)
    assert summary.accounts_linked == ["tuesdays-owner"]
    assert summary.accounts_created == ["tuesdays-co"]
    mine.refresh_from_db()
    assert mine.check_password("my own password")  # kept as it was
    role = LeagueRole.objects.get(league__slug="tuesdays", role=LeagueRole.Role.OWNER)
    assert role.user_id == mine.pk


def test_refuses_a_newer_format_version(archive):
    _, text = archive
    empty_database()
    error = refused(with_header(text, version=4), "archive_too_new")
    assert "format version 4, newer than this program reads (up to 3)" in error.message


def test_refuses_an_archive_of_a_newer_schema(archive):
    _, text = archive
    empty_database()
    schema = json.loads(text.splitlines()[0])["schema"]
    schema["scoring"] = [*schema["scoring"], "0099_from_the_future"]
    error = refused(with_header(text, schema=schema), "archive_too_new")
    assert "scoring.0099_from_the_future" in error.message


@pytest.mark.parametrize("cut", [1, 5, 40])
def test_refuses_a_file_cut_short(archive, cut):
    _, text = archive
    empty_database()
    error = refused("".join(lines_of(text)[:-cut]), "archive_incomplete")
    assert "was it cut short?" in error.message


def test_refuses_a_row_taken_out_of_the_middle(archive):
    _, text = archive
    empty_database()
    lines = lines_of(text)
    hand = next(n for n, line in enumerate(lines) if '"model": "scoring.hand"' in line)
    refused("".join(lines[:hand] + lines[hand + 1 :]), "archive_incomplete")


def test_refuses_a_damaged_line_and_says_which(archive):
    _, text = archive
    empty_database()
    lines = lines_of(text)
    lines[7] = lines[7][: len(lines[7]) // 2] + "\n"
    error = refused("".join(lines), "archive_damaged")
    assert "line 8" in error.message


@pytest.mark.parametrize(
    "text",
    ["", "\n", "name,email\nAlice,a@x.org\n", "[1, 2]\n", '{"format": "something else"}\n'],
    ids=["empty", "blank", "csv", "json-list", "other-format"],
)
def test_refuses_what_is_not_an_archive(text):
    error = refused(text, "archive")
    assert "league archive" in error.message or "empty" in error.message


def test_refuses_rows_no_league_archive_holds(archive):
    _, text = archive
    empty_database()
    lines = lines_of(text)
    token = json.dumps(
        {"fields": {"key": "0123", "user": ["tuesdays-owner"]}, "model": "authtoken.token"}
    )
    error = refused("".join([*lines[:3], token + "\n", *lines[3:]]), "archive")
    assert "'authtoken.token', which no league archive holds" in error.message


def test_refuses_rows_out_of_order(archive):
    _, text = archive
    empty_database()
    lines = lines_of(text)
    league = next(n for n, line in enumerate(lines) if '"model": "league.league"' in line)
    season = next(n for n, line in enumerate(lines) if '"model": "league.season"' in line)
    lines[league], lines[season] = lines[season], lines[league]
    error = refused("".join(lines), "archive")
    assert "after the rows of league.season (out of order)" in error.message


def test_refuses_rows_that_would_join_another_league():
    """A league's role pointed at another league's id: the import would make its owner an
    organiser of a league that is not in the archive."""
    small_league("first")
    UserFactory(username="intruder")
    small_league("second", owner=get_user_model().objects.get(username="intruder"))
    first, second = export_text("first"), export_text("second")
    first_id = League.objects.get(slug="first").pk
    empty_database()
    import_text(first)
    lines = lines_of(second)
    (role,) = [
        n
        for n, line in enumerate(lines)
        if '"model": "league.leaguerole"' in line and '"user": ["intruder"]' in line
    ]
    record = json.loads(lines[role])
    record["fields"]["league"] = first_id
    lines[role] = json.dumps(record) + "\n"
    error = refused("".join(lines), "archive")
    assert "belong to another league" in error.message
    assert not LeagueRole.objects.filter(user__username="intruder").exists()


def test_an_archive_brings_no_rights_on_the_site(archive):
    _, text = archive
    empty_database()
    lines = lines_of(text)
    for n, line in enumerate(lines):
        if '"model": "auth.user"' in line:
            record = json.loads(line)
            record["fields"].update(is_superuser=True, is_staff=True)
            lines[n] = json.dumps(record) + "\n"
    import_text("".join(lines))
    accounts = get_user_model().objects.all()
    assert len(accounts) == 2
    assert not any(account.is_superuser or account.is_staff for account in accounts)


def test_an_archive_without_passwords_holds_no_hash_and_its_accounts_must_reset(archive, client):
    league, with_passwords = archive
    owner = get_user_model().objects.get(username="tuesdays-owner")
    assert owner.password in with_passwords
    text = export_text(league.slug, passwords=False)
    assert owner.password not in text
    assert json.loads(text.splitlines()[0])["passwords"] == "removed"
    empty_database()
    summary = import_text(text)
    assert summary.passwords is False
    owner = get_user_model().objects.get(username="tuesdays-owner")
    assert not owner.has_usable_password()
    assert not client.login(username="tuesdays-owner", password="correct horse battery staple")


def test_the_commands_write_and_read_plain_and_gzip_files(archive, tmp_path, client):
    league, text = archive
    plain, packed, out = tmp_path / "league.jsonl", tmp_path / "league.jsonl.gz", StringIO()
    call_command("league_export", league.slug, "-o", str(plain), stderr=StringIO())
    call_command("league_export", str(league.pk), "--output", str(packed), stderr=StringIO())
    call_command("league_export", league.slug, stdout=out, stderr=StringIO())
    assert plain.read_text() == gzip.decompress(packed.read_bytes()).decode() == out.getvalue()
    assert out.getvalue() == text
    assert "maker_counts_0" not in text  # generated columns: the database works them out again
    assert sorted(path.name for path in tmp_path.iterdir()) == ["league.jsonl", "league.jsonl.gz"]
    # The same league gives the same bytes, compressed too (no time in the gzip header).
    again = tmp_path / "again.jsonl.gz"
    call_command("league_export", league.slug, "-o", str(again), stderr=StringIO())
    assert again.read_bytes() == packed.read_bytes()

    empty_database()
    said = StringIO()
    call_command("league_import", str(packed), stdout=said)
    assert "Imported the league 'League tuesdays' (tuesdays)" in said.getvalue()
    assert "Accounts created, with their passwords: tuesdays-co, tuesdays-owner." in said.getvalue()
    assert client.login(username="tuesdays-owner", password="correct horse battery staple")
    with pytest.raises(CommandError, match="nothing was imported: a league with the address"):
        call_command("league_import", str(plain), stdout=StringIO())


@pytest.mark.parametrize(
    "content",
    [b"\x00\xff\xfe binary", b"\x1f\x8b\x08\x00 not really gzip", gzip.compress(b"\xff\xfe")],
    ids=["binary", "broken-gzip", "gzip-of-binary"],
)
def test_the_import_command_refuses_unreadable_files(tmp_path, content):
    path = tmp_path / "archive.jsonl"
    path.write_bytes(content)
    before = row_counts()
    with pytest.raises(CommandError, match="nothing was imported: "):
        call_command("league_import", str(path), stdout=StringIO())
    assert row_counts() == before


def test_the_commands_name_what_is_missing(tmp_path):
    with pytest.raises(CommandError, match="no league with the address or id 'nowhere'"):
        call_command("league_export", "nowhere", stdout=StringIO())
    with pytest.raises(CommandError, match=r"nothing was imported: .* cannot be read"):
        call_command("league_import", str(tmp_path / "missing.jsonl"), stdout=StringIO())
    assert not (tmp_path / "x.jsonl").exists()
    with pytest.raises(CommandError):
        call_command("league_export", "nowhere", "-o", str(tmp_path / "x.jsonl"))
    assert list(tmp_path.iterdir()) == []  # no half-written archive left behind


def test_the_import_command_reads_standard_input(archive, monkeypatch):
    league, _ = archive
    packed = gzip.compress(export_text(league.slug).encode())
    empty_database()
    stdin = io.TextIOWrapper(io.BufferedReader(io.BytesIO(packed)))
    monkeypatch.setattr(sys, "stdin", stdin)
    said = StringIO()
    call_command("league_import", "-", stdout=said)
    assert "Imported the league 'League tuesdays'" in said.getvalue()
    assert League.objects.filter(slug="tuesdays").exists()


def test_refuses_a_database_not_migrated(archive, monkeypatch):
    _, text = archive
    empty_database()
    assert archive_service.database_is_migrated()
    monkeypatch.setattr(archive_service, "database_is_migrated", lambda: False)
    error = refused(text, "not_migrated")
    assert "run manage.py migrate, then import again" in error.message


def test_archive_error_is_a_domain_error():
    assert issubclass(ArchiveError, DomainError)
