"""The bracket's locks and the advance's narrow read (``tournaments.services.locks``,
``tournaments.services.brackets.loaded``), each one statement written out (``Manager.raw``),
give what plain querysets give: the same rows, the same field values after conversion, the
related objects attached; a team that withdrew sends the advance to the whole bracket's replay;
and the advance's commit waits for the disk like any other write (no relaxed durability)."""

import datetime

import pytest
from django.db import connection, transaction
from django.utils import timezone

from scoring.games import services as scoring
from tournaments.models import Bracket, BracketEntry, BracketMatch, BracketMatchGame
from tournaments.selectors.bracket_structure import bracket_structure
from tournaments.services.brackets import store
from tournaments.services.brackets.loaded import (
    LOADED_MATCH_FIELDS,
    MATCH_ATTNAMES,
    MATCH_FIELDS,
    LinkRow,
    bracket_load,
    bracket_load_matches,
    link_rows,
)
from tournaments.services.locks import bracket_lock, bracket_of_game_lock

from .test_brackets import make_teams

pytestmark = pytest.mark.django_db


def loaded(instance, like=None):
    """An instance's loaded field values (its deferred ones left out); with ``like``, those that
    ``like`` (an instance read another way) has loaded."""
    deferred = (like or instance).get_deferred_fields()
    return {
        field.attname: getattr(instance, field.attname)
        for field in instance._meta.concrete_fields
        if field.attname not in deferred
    }


@pytest.fixture
def bracket_id(organiser_api, make_season, django_capture_on_commit_callbacks):
    """A published double elimination of 6 teams with two games played."""
    season = make_season("standard")
    teams = make_teams(season, 6)
    body = {"season": season.pk, "kind": "double", "teams": [team.pk for team in teams]}
    bracket_id = organiser_api.post("/api/v1/brackets/", body, format="json").json()["id"]
    assert organiser_api.post(f"/api/v1/brackets/{bracket_id}/publish/").status_code == 200
    for link in BracketMatchGame.objects.filter(match__bracket_id=bracket_id).select_related(
        "game"
    )[:2]:
        with django_capture_on_commit_callbacks(execute=True):
            scoring.game_record_final_score(game=link.game, score_a=10, score_b=4)
    return bracket_id


def test_the_bracket_of_a_game_is_locked_with_the_code_of_the_match_it_counts_for(
    bracket_id, django_assert_num_queries
):
    links = BracketMatchGame.objects.filter(match__bracket_id=bracket_id).select_related("match")
    for link in links:
        with transaction.atomic(), django_assert_num_queries(1):  # the lock and the count
            found = bracket_of_game_lock(link.game_id)
            league_id = found[0].season.league_id if found else None  # read with the lock
        if link.status != BracketMatchGame.Status.COUNTING:
            assert found is None
            continue
        bracket, code = found
        assert (bracket.pk, code) == (bracket_id, link.match.code)
        with transaction.atomic():
            expected = bracket_lock(bracket_id)
        assert loaded(bracket) == loaded(expected)
        assert bracket.season.get_deferred_fields()  # its id and league alone: the rest on use
        assert league_id == expected.season.league_id
        assert loaded(bracket.season) == loaded(expected.season, like=bracket.season)
        assert loaded(bracket.season.league) == loaded(expected.season.league)
        assert bracket.team_count == 6
    with transaction.atomic():
        assert bracket_of_game_lock(-1) is None


def test_the_locked_bracket_is_the_orm_s_with_its_season_league_and_team_count(
    bracket_id, django_assert_num_queries
):
    with transaction.atomic(), django_assert_num_queries(2):  # the lock, the entries' count
        bracket = bracket_lock(bracket_id)
        bracket.season.league  # noqa: B018 - read in the lock's query
    expected = Bracket.objects.select_related("season__league").get(pk=bracket_id)
    assert loaded(bracket) == loaded(expected)
    assert loaded(bracket.season) == loaded(expected.season)
    assert loaded(bracket.season.league) == loaded(expected.season.league)
    assert bracket.team_count == 6
    with pytest.raises(Bracket.DoesNotExist), transaction.atomic():
        bracket_lock(-1)


def test_the_lock_locks_the_bracket_row_alone(bracket_id):
    """``FOR UPDATE OF`` the bracket: its season and league, read in the same query, stay free."""
    statements = []

    def spy(execute, sql, params, many, context):
        statements.append(sql)
        return execute(sql, params, many, context)

    game_id = BracketMatchGame.objects.filter(
        match__bracket_id=bracket_id, status=BracketMatchGame.Status.COUNTING
    ).values_list("game_id", flat=True)[0]
    with transaction.atomic(), connection.execute_wrapper(spy):
        bracket_lock(bracket_id)
        bracket_of_game_lock(game_id)
    table = connection.ops.quote_name(Bracket._meta.db_table)
    locking = [sql for sql in statements if "FOR UPDATE" in sql]
    if connection.features.has_select_for_update_of:
        assert len(locking) == 2
        assert locking[0].endswith(f"FOR UPDATE OF {table}")
        assert locking[1].endswith("FOR UPDATE OF b")  # the bracket's alias in the statement
        assert f"FROM {Bracket._meta.db_table} b" in locking[1]
    else:
        assert locking == []


def test_matches_with_their_links_and_entries_are_the_orm_s(bracket_id, django_assert_num_queries):
    """The matches, their game links as ``link_rows`` reads them (a match without a link has
    none), and the entries of their teams with the teams and players, in one query."""
    bracket = Bracket.objects.select_related("season__league").get(pk=bracket_id)
    structure = bracket_structure(bracket)
    expected = {
        match.code: loaded(match)
        for match in BracketMatch.objects.filter(bracket_id=bracket_id).only(*LOADED_MATCH_FIELDS)
    }
    assert any(row["decided_at"] is not None for row in expected.values())
    with django_assert_num_queries(1):
        read, links = bracket_load_matches(bracket, structure, list(expected))
    assert not read.is_whole
    assert {code: loaded(match) for code, match in read.matches.items()} == expected
    ids = [match.pk for match in read.matches.values()]
    assert sorted(links) == sorted(link_rows(ids))
    assert all(isinstance(link, LinkRow) for link in links)
    linked = {link.match_id for link in links}
    assert len(linked) > 2 and linked < set(ids)  # some matches have games, some none yet
    code = next(match.code for match in read.matches.values() if match.pk not in linked)
    assert bracket_load_matches(bracket, structure, [code])[1] == []
    one, _ = bracket_load_matches(bracket, structure, ["W1-1"])
    assert list(one.matches) == ["W1-1"]
    assert bracket_load_matches(bracket, structure, ["W1-1", "nowhere"]) is None
    teams = {
        team
        for match in read.matches.values()
        for team in (match.first_team_id, match.second_team_id)
    }
    assert_entries_are_the_orm_s(read.entries, bracket_id, teams - {None})


def test_the_entries_read_are_those_of_the_matches_teams(bracket_id):
    """One match's teams' entries, each once, in seed order; an empty slot reads none."""
    bracket = Bracket.objects.get(pk=bracket_id)
    structure = bracket_structure(bracket)
    for match in BracketMatch.objects.filter(bracket_id=bracket_id):
        read, _ = bracket_load_matches(bracket, structure, [match.code])
        teams = {match.first_team_id, match.second_team_id} - {None}
        assert_entries_are_the_orm_s(read.entries, bracket_id, teams)
    waiting = BracketMatch.objects.filter(bracket_id=bracket_id, first_team__isnull=True).first()
    assert waiting is not None  # a match whose teams are not known yet
    decided = BracketMatch.objects.filter(
        bracket_id=bracket_id, status=BracketMatch.Status.DECIDED
    ).first()
    read, links = bracket_load_matches(bracket, structure, [decided.code, waiting.code])
    assert len(links) > 0  # a match with a game: its entries are still read once
    assert_entries_are_the_orm_s(
        read.entries, bracket_id, {decided.first_team_id, decided.second_team_id}
    )


def test_a_match_of_a_team_that_withdrew_is_not_read_alone(bracket_id):
    """A team that withdrew forfeits its ready matches, which only the whole bracket's replay
    does: the narrow read of matches one of which has that team gives ``None`` (as for a code
    that names no match), and the advance replays the bracket; the other matches read as
    before."""
    bracket = Bracket.objects.get(pk=bracket_id)
    structure = bracket_structure(bracket)
    withdrawn = BracketEntry.objects.get(bracket_id=bracket_id, seed=6)
    BracketEntry.objects.filter(pk=withdrawn.pk).update(
        withdrawn_at=timezone.now(), withdrawal_reason="moved away"
    )
    matches = list(BracketMatch.objects.filter(bracket_id=bracket_id))
    with_it = {m.code for m in matches if withdrawn.team_id in (m.first_team_id, m.second_team_id)}
    assert with_it and len(with_it) < len(matches)
    for match in matches:
        assert (bracket_load_matches(bracket, structure, [match.code]) is None) == (
            match.code in with_it
        )
    codes = [match.code for match in matches]
    assert bracket_load_matches(bracket, structure, codes) is None
    others = [code for code in codes if code not in with_it]
    assert bracket_load_matches(bracket, structure, others) is not None


def test_what_changed_in_the_matches_is_written_as_the_orm_writes_it(
    bracket_id, django_assert_num_queries, monkeypatch
):
    """``matches_write`` stores what changed in each match since it was read (a team, no team, a
    time with its microseconds, no time, a flag, a reason with quotes), in one UPDATE per
    ``MATCHES_PER_UPDATE`` matches, read back as it was set; a match that did not change is
    left alone, and nothing that has not changed since is written again."""
    loaded = bracket_load(Bracket.objects.get(pk=bracket_id))
    matches = sorted(loaded.matches.values(), key=lambda match: match.pk)
    left, given = matches[0], matches[1:]
    before = BracketMatch.objects.filter(pk=left.pk).values_list(*MATCH_FIELDS).get()
    teams = sorted(BracketEntry.objects.filter(bracket_id=bracket_id).values_list("team_id"))
    moment = datetime.datetime(2026, 3, 4, 5, 6, 7, 891011, tzinfo=datetime.UTC)
    for number, match in enumerate(given):
        match.review_reason = f'looked at {number}\'s "result"'
        match.decided_at = moment + datetime.timedelta(minutes=number) if number % 2 else None
        if match.status == BracketMatch.Status.WAITING:
            match.first_team_id, match.second_team_id = None, teams[number % len(teams)][0]
        if match.status == BracketMatch.Status.DECIDED:
            match.needs_review = True
    monkeypatch.setattr(store, "MATCHES_PER_UPDATE", 4)
    with django_assert_num_queries(-(-len(matches) // 4)):
        store.matches_write(loaded, matches)
    stored = {
        row[0]: row[1:]
        for row in BracketMatch.objects.filter(bracket_id=bracket_id).values_list(
            "pk", *MATCH_FIELDS
        )
    }
    assert stored.pop(left.pk) == before
    assert stored == {match.pk: loaded.stored[match.pk] for match in given}
    assert stored == {
        match.pk: tuple(getattr(match, name) for name in MATCH_ATTNAMES) for match in given
    }
    assert any(match.needs_review for match in given)
    with django_assert_num_queries(0):
        store.matches_write(loaded, matches)  # nothing changed since
        store.matches_write(loaded, [])
    bracket = loaded.bracket
    narrow, _ = bracket_load_matches(bracket, bracket_structure(bracket), [given[0].code])
    fresh = BracketMatch.objects.get(pk=left.pk)  # not read through ``narrow``: written whole
    statements = []

    def spy(execute, sql, params, many, context):
        statements.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(spy):
        store.matches_write(narrow, [fresh])
    assert len(statements) == 1 and all(
        f"{BracketMatch._meta.get_field(name).column} = CASE" in statements[0]
        for name in MATCH_FIELDS
    )
    assert BracketMatch.objects.filter(pk=left.pk).values_list(*MATCH_FIELDS).get() == before


def assert_entries_are_the_orm_s(entries, bracket_id, team_ids) -> None:
    expected = list(
        BracketEntry.objects.filter(bracket_id=bracket_id, team_id__in=team_ids).order_by("seed")
    )
    assert len(expected) == len(team_ids)
    assert [loaded(entry) for entry in entries] == [
        loaded(entry, like=read) for entry, read in zip(expected, entries, strict=True)
    ]
    for entry in entries:
        team = entry.team
        assert loaded(team) == loaded(type(team).objects.get(pk=entry.team_id), like=team)
        for player, pk in (
            (team.player_one, team.player_one_id),
            (team.player_two, team.player_two_id),
        ):
            assert loaded(player) == loaded(type(player).objects.get(pk=pk), like=player)


def test_an_advance_commits_as_every_write_does(bracket_id):
    """The advance stores what a captain's result implies; it waits for its commit to reach the
    disk like the result itself (no ``synchronous_commit`` or other relaxed durability)."""
    from tournaments.services.brackets.advance import bracket_advance

    link = (
        BracketMatchGame.objects.filter(
            match__bracket_id=bracket_id, status=BracketMatchGame.Status.COUNTING
        )
        .exclude(game__status="finished")
        .select_related("game")
        .first()
    )
    statements = []

    def spy(execute, sql, params, many, context):
        statements.append(sql)
        return execute(sql, params, many, context)

    scoring.game_record_final_score(game=link.game, score_a=10, score_b=7)
    with connection.execute_wrapper(spy):
        bracket_advance(game_id=link.game_id)
    assert BracketMatch.objects.get(pk=link.match_id).status == BracketMatch.Status.DECIDED
    assert statements
    assert not [sql for sql in statements if "synchronous_commit" in sql or "SET " in sql[:4]]
