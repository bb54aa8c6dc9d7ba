"""The archive's header and the rules of its lines (tournaments.domain.archive), without a
database."""

import json

import pytest

from core.errors import ConflictError
from tournaments.domain.archive import (
    ARCHIVE_FORMAT,
    ARCHIVE_MODELS,
    ARCHIVE_VERSION,
    ArchiveError,
    ArchiveHeader,
    accounts_message,
    counts_check,
    header_parse,
    kind_upgraded,
    record_kind_check,
    schema_problem,
    taken_ids_message,
)

SCHEMA = {"league": ("0003_results_version_help",), "scoring": ("0015_game_list_indexes",)}


def header(**changes) -> ArchiveHeader:
    values = {
        "league_slug": "rosies",
        "league_name": "Tuesday Euchre at Rosie's",
        "schema": SCHEMA,
        "counts": {"auth.user": 2, "league.league": 1, "scoring.hand": 96},
    }
    return ArchiveHeader(**{**values, **changes})


def document(**changes) -> str:
    value = json.loads(header().as_line())
    value.update(changes)
    return json.dumps(value)


def test_the_header_is_one_sorted_line_that_reads_back():
    line = header().as_line()
    assert line.endswith("\n") and line.count("\n") == 1
    value = json.loads(line)
    assert list(value) == sorted(value)
    assert value["format"] == ARCHIVE_FORMAT == "euchre-league-archive"
    assert value["version"] == ARCHIVE_VERSION == 3
    assert value["passwords"] == "hashed"
    # Every kind is counted, those with no row at 0, in one order whatever the dict's.
    assert set(value["counts"]) == {label for label, _ in ARCHIVE_MODELS}
    assert value["counts"]["tournaments.seat"] == 0
    assert header(counts=dict(reversed(header().counts.items()))).as_line() == line
    parsed = header_parse(line)
    assert parsed.as_line() == line
    assert parsed.league_slug == "rosies" and parsed.schema == SCHEMA
    assert header_parse(header(passwords=False).as_line()).passwords is False


def test_a_version_1_header_names_the_standings_kinds_as_this_program_does():
    counts = {label: 0 for label, _ in ARCHIVE_MODELS if not label.startswith("standings.")}
    old = {**counts, "league.league": 1, "scoring.standingsnapshot": 2, "scoring.standingline": 9}
    parsed = header_parse(document(version=1, counts=old))
    assert parsed.version == 1
    assert parsed.counts["standings.standingsnapshot"] == 2
    assert parsed.counts["standings.standingline"] == 9
    assert "scoring.standingsnapshot" not in parsed.counts
    assert kind_upgraded("scoring.standinggame", 1) == "standings.standinggame"
    assert kind_upgraded("scoring.hand", 1) == "scoring.hand"
    assert kind_upgraded("standings.standinggame", 2) == "standings.standinggame"


def test_a_newer_version_is_refused_by_name():
    with pytest.raises(ArchiveError) as raised:
        header_parse(document(version=ARCHIVE_VERSION + 1))
    assert raised.value.code == "archive_too_new"
    assert "format version 4, newer than this program reads (up to 3)" in raised.value.message


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("", "not a league archive"),
        ("name,email", "not a league archive"),
        ("[1, 2]", "not a league archive"),
        ('{"format": "django-fixture", "version": 1}', "not a league archive"),
        (document(version="1"), "damaged: version '1'"),
        (document(version=True), "damaged: version True"),
        (document(version=0), "damaged: version 0"),
        (document(league=None), "header is damaged"),
        (document(counts=[1]), "header is damaged"),
        (document(schema={"league": 3}), "header is damaged"),
        (document(passwords="plain"), "header is damaged"),
        (document(counts={"league.league": 1, "authtoken.token": 1}), "unknown kinds of rows"),
        (document(counts={"league.league": 2}), "exactly one league"),
        (document(counts={"scoring.hand": 3}), "exactly one league"),
        (document(counts={"league.league": 1, "scoring.hand": -1}), "exactly one league"),
    ],
)
def test_what_is_not_a_header_this_program_reads(line, says):
    with pytest.raises(ArchiveError, match=says.replace("(", r"\(")):
        header_parse(line)


def test_a_schema_with_migrations_unknown_here_is_from_a_newer_program():
    known = {("league", "0003_results_version_help"), ("scoring", "0015_game_list_indexes")}
    assert schema_problem(SCHEMA, known) is None
    assert schema_problem(SCHEMA, known | {("scoring", "0016_later")}) is None  # an older archive
    newer = {**SCHEMA, "scoring": ("0017_b", "0016_a"), "tournaments": ("0009_c",)}
    problem = schema_problem(newer, known)
    assert "scoring.0016_a, scoring.0017_b, tournaments.0009_c" in problem
    assert "upgrade this installation, migrate, and import again" in problem


def test_rows_come_in_the_archives_order_and_only_of_its_kinds():
    record_kind_check("auth.user", None)
    record_kind_check("league.league", "auth.user")
    record_kind_check("scoring.hand", "scoring.hand")
    record_kind_check("league.auditentry", "league.player")  # kinds may be skipped
    with pytest.raises(ArchiveError, match=r"'auth\.group', which no league archive holds"):
        record_kind_check("auth.group", None)
    with pytest.raises(ArchiveError, match=r"league.league after the rows of scoring.hand"):
        record_kind_check("league.league", "scoring.hand")


def test_counts_must_match_the_header():
    promised = {"auth.user": 2, "league.league": 1, "scoring.hand": 96}
    counts_check(promised, dict(promised))
    counts_check(promised, {**promised, "tournaments.seat": 0})
    with pytest.raises(ArchiveError) as raised:
        counts_check(promised, {**promised, "scoring.hand": 90})
    assert raised.value.code == "archive_incomplete"
    assert "90 of 96 scoring.hand" in raised.value.message
    with pytest.raises(ArchiveError, match=r"1 of 0 tournaments\.seat"):
        counts_check(promised, {**promised, "tournaments.seat": 1})


def test_refusals_of_rows_and_accounts_already_there_are_conflicts():
    taken = taken_ids_message("scoring.hand", list(range(1, 13)))
    assert isinstance(taken, ConflictError) and taken.code == "rows_exist"
    assert "scoring.hand with id 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 …" in taken.message
    accounts = accounts_message(["zoe", "al"])
    assert isinstance(accounts, ConflictError) and accounts.code == "accounts_exist"
    assert "already exist in this database: al, zoe" in accounts.message
