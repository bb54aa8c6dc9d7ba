"""The plain SQL of the advance's hot path (``tournaments.services.brackets._rows``) returns what
the ORM querysets it replaces return: the same rows, the same field values after conversion
(aware datetimes, booleans, JSON), the related objects attached."""

import pytest
from django.db import transaction

from scoring import services as scoring
from tournaments.models import Bracket, BracketEntry, BracketMatch, BracketMatchGame
from tournaments.services.brackets import _rows
from tournaments.services.brackets._loading import MATCH_FIELDS

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


def test_the_bracket_of_a_game_is_locked_with_the_code_of_the_match_it_counts_for(bracket_id):
    links = BracketMatchGame.objects.filter(match__bracket_id=bracket_id).select_related("match")
    for link in links:
        with transaction.atomic():
            found = _rows.lock_bracket_of_game(link.game_id)
        if link.status != BracketMatchGame.Status.COUNTING:
            assert found is None
            continue
        bracket, code = found
        assert (bracket.pk, code) == (bracket_id, link.match.code)
        with transaction.atomic():
            assert loaded(bracket) == loaded(_rows.lock_bracket(bracket_id))
        assert (bracket.team_count, bracket.withdrawn_count) == (6, 1)
    with transaction.atomic():
        assert _rows.lock_bracket_of_game(-1) is None


def test_the_locked_bracket_is_the_orm_s_with_its_season_league_and_team_count(bracket_id):
    with transaction.atomic():
        bracket = _rows.lock_bracket(bracket_id)
    expected = Bracket.objects.select_related("season__league").get(pk=bracket_id)
    assert loaded(bracket) == loaded(expected)
    assert loaded(bracket.season) == loaded(expected.season)
    assert loaded(bracket.season.league) == loaded(expected.season.league)
    assert (bracket.team_count, bracket.withdrawn_count) == (6, 1)
    with pytest.raises(Bracket.DoesNotExist), transaction.atomic():
        _rows.lock_bracket(-1)


def test_matches_with_their_links_and_entries_are_the_orm_s(bracket_id, django_assert_num_queries):
    """The matches, their game links as ``match_games`` reads them (a match without a link has
    none), and the entries of their teams with the teams and players, in one query."""
    fields = ("bracket_id", "code", "order", "round", *MATCH_FIELDS)
    expected = {
        match.code: loaded(match)
        for match in BracketMatch.objects.filter(bracket_id=bracket_id).only(*fields)
    }
    assert any(row["decided_at"] is not None for row in expected.values())
    with django_assert_num_queries(1):
        found, links, entries = _rows.matches_with_links(bracket_id, list(expected), fields)
    assert {match.code: loaded(match) for match in found} == expected
    ids = [match.pk for match in found]
    assert sorted(links) == sorted(_rows.match_games(ids, _rows.LINK_GAME_FIELDS))
    linked = {link[1] for link in links}
    assert len(linked) > 2 and linked < set(ids)  # some matches have games, some none yet
    code = next(match.code for match in found if match.pk not in linked)
    assert _rows.matches_with_links(bracket_id, [code], fields)[1] == []
    one, _, _ = _rows.matches_with_links(bracket_id, ["W1-1"], fields)
    assert [match.code for match in one] == ["W1-1"]
    teams = {team for match in found for team in (match.first_team_id, match.second_team_id)}
    assert_entries_are_the_orm_s(entries, bracket_id, teams - {None})


def test_the_entries_read_are_those_of_the_matches_teams(bracket_id):
    """One match's teams' entries, each once, in seed order; an empty slot reads none."""
    fields = ("bracket_id", "code", *MATCH_FIELDS)
    for match in BracketMatch.objects.filter(bracket_id=bracket_id):
        _, links, entries = _rows.matches_with_links(bracket_id, [match.code], fields)
        teams = {match.first_team_id, match.second_team_id} - {None}
        assert_entries_are_the_orm_s(entries, bracket_id, teams)
    waiting = BracketMatch.objects.filter(bracket_id=bracket_id, first_team__isnull=True).first()
    assert waiting is not None  # a match whose teams are not known yet
    decided = BracketMatch.objects.filter(
        bracket_id=bracket_id, status=BracketMatch.Status.DECIDED
    ).first()
    _, links, entries = _rows.matches_with_links(bracket_id, [decided.code, waiting.code], fields)
    assert len(links) > 0  # a match with a game: its entries are still read once
    assert_entries_are_the_orm_s(
        entries, bracket_id, {decided.first_team_id, decided.second_team_id}
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


@pytest.mark.parametrize("at_once", [500, 1])
def test_created_games_and_links_are_stored_as_the_orm_stores_them(
    bracket_id, django_assert_max_num_queries, monkeypatch, at_once
):
    """Two new games and their links, stored together (one statement on PostgreSQL, or one
    each past ``GAMES_PER_STATEMENT``): each game as ``game_create`` would store it, each link
    pointing at its own match's game, ids given to both."""
    monkeypatch.setattr(_rows, "GAMES_PER_STATEMENT", at_once)
    from scoring.models import Game

    waiting = list(
        BracketMatch.objects.filter(bracket_id=bracket_id, status=BracketMatch.Status.READY)
    )[:2]
    reference = BracketMatchGame.objects.filter(match__bracket_id=bracket_id).first().game
    links = []
    for number, match in enumerate(waiting, start=7):
        game = scoring.game_new(
            season=reference.season,
            seats=(reference.seat_0, reference.seat_1, reference.seat_2, reference.seat_3),
            round_number=number,
            first_dealer_seat=number % 4,
            counts_for_standings=False,
        )
        links.append(BracketMatchGame(match=match, game=game, number=number))
    assert len(links) == 2
    statements = -(-len(links) // at_once) if _vendor() == "postgresql" else 2  # games, links
    with django_assert_max_num_queries(statements):
        _rows.create_games(links)
    for link, match in zip(links, waiting, strict=True):
        stored = BracketMatchGame.objects.select_related("game").get(pk=link.pk)
        assert (stored.match_id, stored.game_id, stored.number) == (
            match.pk,
            link.game.pk,
            link.number,
        )
        assert stored.status == BracketMatchGame.Status.COUNTING
        assert loaded(stored.game) == loaded(link.game)
        assert stored.game.round_number == link.number and not stored.game.counts_for_standings
        assert stored.game.status == Game.Status.SCHEDULED
    assert len({link.game.captain_token for link in links}) == 2
    assert _rows.create_games([]) is None


def _vendor() -> str:
    from django.db import connection

    return connection.vendor


def test_match_games_are_the_orm_s(bracket_id):
    ids = list(BracketMatch.objects.filter(bracket_id=bracket_id).values_list("pk", flat=True))
    expected = list(
        BracketMatchGame.objects.filter(match__in=ids).values_list(
            "pk", "match_id", "number", "status", "game__status", "game__winner"
        )
    )
    assert len(expected) > 2
    assert _rows.match_games(ids, ("status", "winner")) == expected


def test_update_matches_writes_each_row_its_own_values_in_one_statement(
    bracket_id, django_assert_num_queries
):
    """Each match gets its own values (a NULL, a time, a flag, text), the fields not named and
    the matches not given are left as they were; as ``bulk_update`` would write them."""
    rows = list(BracketMatch.objects.filter(bracket_id=bracket_id).order_by("order"))
    first = next(row for row in rows if row.status == BracketMatch.Status.DECIDED)
    second, untouched = [row for row in rows if row.status != BracketMatch.Status.DECIDED][:2]
    before = {row.pk: loaded(row) for row in rows}
    other = first.second_team_id if first.winner_id == first.first_team_id else first.first_team_id
    first.winner_id, first.decided_at = other, None
    first.needs_review, first.review_reason = True, "checked"
    second.decided_at = "2026-03-04T05:06:07Z"
    second.needs_review, second.review_reason = False, "it's fine"
    first.status = second.status = untouched.status = "not named: not written"
    named = ["winner", "decided_at", "needs_review", "review_reason"]
    with django_assert_num_queries(1):
        _rows.update_matches([first, second], named)
    after = {row.pk: loaded(row) for row in BracketMatch.objects.filter(bracket_id=bracket_id)}
    changed = {"winner_id", "decided_at", "needs_review", "review_reason"}
    for row in rows:
        for name, value in before[row.pk].items():
            if row not in (first, second) or name not in changed:
                assert after[row.pk][name] == value, (row.code, name)
    assert {name: after[first.pk][name] for name in changed} == {
        "winner_id": other,
        "decided_at": None,
        "needs_review": True,
        "review_reason": "checked",
    }
    assert after[second.pk]["decided_at"].isoformat() == "2026-03-04T05:06:07+00:00"
    assert (after[second.pk]["needs_review"], after[second.pk]["review_reason"]) == (
        False,
        "it's fine",
    )


def test_an_advance_commits_without_waiting_for_the_disk_and_a_result_does_not(bracket_id):
    """On PostgreSQL the advance (derived: the sweep redoes a lost one) does not wait for its
    commit to reach the disk, set for its transaction alone; the game's result it follows,
    accepted from a captain, does wait."""
    from django.db import connection

    from tournaments.services.brackets.advance import bracket_advance

    link = (
        BracketMatchGame.objects.filter(
            match__bracket_id=bracket_id, status=BracketMatchGame.Status.COUNTING
        )
        .exclude(game__status="finished")
        .select_related("game")
        .first()
    )
    settings_seen = []
    if connection.vendor == "postgresql":  # as a new transaction starts (the fixture's advances
        with connection.cursor() as cursor:  # ran in the test's one transaction)
            cursor.execute("SET LOCAL synchronous_commit TO on")

    def spy(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if not sql.startswith("SHOW") and connection.vendor == "postgresql":
            with connection.cursor() as cursor:  # the setting after each statement
                cursor.execute("SHOW synchronous_commit")
                settings_seen.append((sql, cursor.fetchone()[0]))
        return result

    with connection.execute_wrapper(spy):
        scoring.game_record_final_score(game=link.game, score_a=10, score_b=7)
        recorded = {setting for _, setting in settings_seen}
        settings_seen.clear()
        bracket_advance(game_id=link.game_id)
    assert BracketMatch.objects.get(pk=link.match_id).status == BracketMatch.Status.DECIDED
    if connection.vendor == "postgresql":
        assert recorded == {"on"}
        locked = next(index for index, (sql, _) in enumerate(settings_seen) if "FOR UPDATE" in sql)
        assert "synchronous_commit" in settings_seen[locked][0]
        assert {setting for _, setting in settings_seen[locked:]} == {"off"}  # to its commit
        # for that transaction alone (``SET LOCAL``; the test's own transaction hides the end)
        assert _rows.RELAXED_COMMIT == "set_config('synchronous_commit', 'off', true)"
