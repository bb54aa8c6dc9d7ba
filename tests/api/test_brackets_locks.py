"""The bracket's locks and the advance's narrow read (``tournaments.services.locks``,
``tournaments.services.brackets.loaded``) give what plain querysets give: the same rows, the same
field values after conversion, the related objects attached; and the advance's commit waits for
the disk like any other write (no relaxed durability)."""

import pytest
from django.db import connection, transaction

from scoring import services as scoring
from tournaments.models import Bracket, BracketEntry, BracketMatch, BracketMatchGame
from tournaments.selectors.bracket_structure import bracket_structure
from tournaments.services.brackets.loaded import (
    LOADED_MATCH_FIELDS,
    LinkRow,
    bracket_load_matches,
    link_rows,
)
from tournaments.services.locks import bracket_lock, bracket_of_game_lock

from .test_brackets import make_teams

pytestmark = pytest.mark.django_db


def loaded(instance):
    """An instance's loaded field values (its deferred ones left out)."""
    deferred = instance.get_deferred_fields()
    return {
        field.attname: getattr(instance, field.attname)
        for field in instance._meta.concrete_fields
        if field.attname not in deferred
    }


@pytest.fixture
def bracket_id(organiser_api, make_season, django_capture_on_commit_callbacks):
    """A published double elimination of 6 teams with two games played and one team
    withdrawn (its withdrawal's time and reason stored)."""
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
    BracketEntry.objects.filter(bracket_id=bracket_id, seed=6).update(
        withdrawn_at="2026-01-02T03:04:05Z", withdrawal_reason="moved away"
    )
    return bracket_id


def test_the_bracket_of_a_game_is_locked_with_the_code_of_the_match_it_counts_for(
    bracket_id, django_assert_num_queries
):
    links = BracketMatchGame.objects.filter(match__bracket_id=bracket_id).select_related("match")
    for link in links:
        with transaction.atomic(), django_assert_num_queries(2):  # the lock, the entries' count
            found = bracket_of_game_lock(link.game_id)
        if link.status != BracketMatchGame.Status.COUNTING:
            assert found is None
            continue
        bracket, code = found
        assert (bracket.pk, code) == (bracket_id, link.match.code)
        with transaction.atomic():
            assert loaded(bracket) == loaded(bracket_lock(bracket_id))
        assert loaded(bracket.season.league) == loaded(bracket_lock(bracket_id).season.league)
        assert (bracket.team_count, bracket.withdrawn_count) == (6, 1)
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
    assert (bracket.team_count, bracket.withdrawn_count) == (6, 1)
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
        assert all(sql.endswith(f"FOR UPDATE OF {table}") for sql in locking)
    else:
        assert locking == []


def test_matches_with_their_links_and_entries_are_the_orm_s(bracket_id, django_assert_num_queries):
    """The matches, their game links as ``link_rows`` reads them (a match without a link has
    none), and the entries of their teams with the teams and players, in two queries."""
    bracket = Bracket.objects.select_related("season__league").get(pk=bracket_id)
    structure = bracket_structure(bracket)
    expected = {
        match.code: loaded(match)
        for match in BracketMatch.objects.filter(bracket_id=bracket_id).only(*LOADED_MATCH_FIELDS)
    }
    assert any(row["decided_at"] is not None for row in expected.values())
    with django_assert_num_queries(2):
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


def assert_entries_are_the_orm_s(entries, bracket_id, team_ids) -> None:
    expected = list(
        BracketEntry.objects.filter(bracket_id=bracket_id, team_id__in=team_ids).order_by("seed")
    )
    assert len(expected) == len(team_ids)
    assert [loaded(entry) for entry in entries] == [loaded(entry) for entry in expected]
    for entry in entries:
        team = entry.team
        assert loaded(team) == loaded(type(team).objects.get(pk=entry.team_id))
        for player, pk in (
            (team.player_one, team.player_one_id),
            (team.player_two, team.player_two_id),
        ):
            assert loaded(player) == loaded(type(player).objects.get(pk=pk))


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
