"""The games of a bracket's matches: reading a match's result from them (reconcile), calling off
the ones that no longer count (void), and giving each ready match its next game (at a free table
of the bracket's night, if it is played on one).

The functions that take ``links`` (:class:`LinkRow`\\ s of the matches concerned) read them
afresh when given ``None``; the advance passes those it read with the matches."""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Collection, Sequence

from django.utils import timezone

from core.errors import ConflictError
from scoring.games import services as scoring_services
from scoring.games.models import Game
from tournaments.models import BracketMatch, BracketMatchGame
from tournaments.services.brackets.loaded import (
    IN_PLAY,
    LinkRow,
    LoadedBracket,
    link_rows,
    link_rows_in_play,
)
from tournaments.services.tables import night_tables_take


def links_void(links: Sequence[BracketMatchGame], reason: str, user=None) -> None:
    """Stop ``links`` counting; call off (void) any of their games not yet finished."""
    for link in links:
        link.status = BracketMatchGame.Status.VOIDED
        link.voided_reason = reason[:300]
        if link.game.status in IN_PLAY:
            # A game that finished meanwhile is kept as played: it just stops counting.
            with contextlib.suppress(ConflictError):
                scoring_services.game_void(game=link.game, reason=reason, user=user)
    BracketMatchGame.objects.bulk_update(links, ["status", "voided_reason"])


def counting_links(matches: Sequence[BracketMatch]) -> list[BracketMatchGame]:
    """The counting game links of ``matches``, each with its game."""
    return list(
        BracketMatchGame.objects.filter(
            match__in=[match.pk for match in matches], status=BracketMatchGame.Status.COUNTING
        ).select_related("game")
    )


def match_games_reconcile(
    loaded: LoadedBracket, check: Collection[str] = (), links: list[LinkRow] | None = None
) -> set[str]:
    """Read results from the games: decide every ready match a team has won (enough finished
    counting games), and check the matches in ``check`` decided by their games: one the games no
    longer support is marked as needing review (with the reason), one they support again is
    cleared. Changes the matches in memory (and notes in ``loaded.in_play`` those of the matches
    read that have a counting game in play); returns the codes changed."""
    matches = [
        match
        for match in loaded.matches.values()
        if match.status == BracketMatch.Status.READY
        or (
            match.code in check
            and match.status == BracketMatch.Status.DECIDED
            and match.decided_by == BracketMatch.DecidedBy.GAMES
        )
    ]
    if not matches:
        return set()
    wins: dict[int, Counter[int]] = {match.pk: Counter() for match in matches}
    reopened: dict[int, list[int]] = {}
    counting = BracketMatchGame.Status.COUNTING
    if links is None:
        links = link_rows(wins)
    for link in links:
        if link.status != counting or link.match_id not in wins:
            continue
        if link.game_status == Game.Status.FINISHED and link.game_winner:
            wins[link.match_id][0 if link.game_winner == "A" else 1] += 1
        elif link.game_status == Game.Status.IN_PROGRESS:
            reopened.setdefault(link.match_id, []).append(link.number)
        if link.game_status in IN_PLAY:
            loaded.in_play.add(link.match_id)
    needed, now, names = loaded.bracket.wins_needed, timezone.now(), loaded.team_names
    changed = set()
    for match in matches:
        teams = (match.first_team_id, match.second_team_id)
        won = next((teams[side] for side in (0, 1) if wins[match.pk][side] >= needed), None)
        if match.status == BracketMatch.Status.READY:
            if won is not None:
                match.winner_id, match.status = won, BracketMatch.Status.DECIDED
                match.decided_by, match.decided_at = BracketMatch.DecidedBy.GAMES, now
                changed.add(match.code)
            continue
        if won == match.winner_id:
            reason = ""
        elif won is not None:
            reason = (
                f"The games now give {match.code} to {names[won]}, not {names[match.winner_id]}."
            )
        elif match.pk in reopened:
            numbers = ", ".join(str(number) for number in sorted(reopened[match.pk]))
            reason = (
                f"Game {numbers} of {match.code} was reopened (a hand undone): "
                f"{names[match.winner_id]} no longer has the {needed} win"
                f"{'s' if needed > 1 else ''} that decided it."
            )
        else:
            reason = (
                f"{names[match.winner_id]} no longer has the {needed} win"
                f"{'s' if needed > 1 else ''} that decided {match.code}: a game's result changed."
            )
        if (match.needs_review, match.review_reason) != (bool(reason), reason[:300]):
            match.needs_review, match.review_reason = bool(reason), reason[:300]
            changed.add(match.code)
    return changed


def stray_games_void(loaded: LoadedBracket, links: list[LinkRow] | None = None, user=None) -> None:
    """Call off the games still in play of the loaded decided matches (a stray game of a match
    already won), except those of a match waiting for the organiser's review."""
    decided = {
        match.pk: match
        for match in loaded.matches.values()
        if match.status == BracketMatch.Status.DECIDED and not match.needs_review
    }
    if not decided:
        return
    if links is None:
        links = link_rows_in_play(loaded.bracket)
    stray = [
        link
        for link in links
        if link.match_id in decided
        and link.status == BracketMatchGame.Status.COUNTING
        and link.game_status in IN_PLAY
    ]
    if not stray:
        return
    games = Game.objects.in_bulk([link.game_id for link in stray])
    names = loaded.team_names
    for link in stray:
        match = decided[link.match_id]
        row = BracketMatchGame(pk=link.pk, match_id=link.match_id, game=games[link.game_id])
        links_void([row], f"not needed: {names[match.winner_id]} already won {match.code}", user)


def next_games_create(
    loaded: LoadedBracket, ready: list[BracketMatch], links: list[LinkRow] | None = None
) -> None:
    """Give each ready match without a game in play its next game (playoff games do not count
    in the season standings), the games and their links in two statements. A counting game
    called off elsewhere stops counting first. ``links``: as read, and not changed since."""
    ready = [match for match in ready if match.status == BracketMatch.Status.READY]
    if not ready:
        return
    wanted = {match.pk for match in ready}
    if links is None:
        links = link_rows(wanted)
    numbers: dict[int, int] = Counter()
    in_play: set[int] = set()
    called_off = []
    for link in links:
        if link.match_id not in wanted:
            continue
        numbers[link.match_id] = max(numbers[link.match_id], link.number)
        if link.status != BracketMatchGame.Status.COUNTING:
            continue
        if link.game_status in IN_PLAY:
            in_play.add(link.match_id)
        elif link.game_status == Game.Status.VOIDED:
            called_off.append(
                BracketMatchGame(
                    pk=link.pk,
                    status=BracketMatchGame.Status.VOIDED,
                    voided_reason=f"called off: {link.game_void_reason or 'voided'}"[:300],
                )
            )
    if called_off:
        BracketMatchGame.objects.bulk_update(called_off, ["status", "voided_reason"])
    season, night = loaded.bracket.season, loaded.bracket.night
    teams = {team.pk: team for team in loaded.team_by_seed.values()}
    starting = [match for match in ready if match.pk not in in_play]
    # Played on a night: each game takes a free table of it, which the table's card opens.
    # Earlier rounds take the free tables first; a later round's game waits at a busy table.
    table_of: dict[int, int] = {}
    if night is not None:
        by_round = sorted(starting, key=lambda match: (match.round, match.order))
        # A best-of-N match's next game stays at the table of its last one, if that is free.
        last_table = dict(
            Game.objects.filter(
                bracket_link__match__in=[match.pk for match in by_round if numbers[match.pk]],
                night=night,
            )
            .order_by("bracket_link__number")
            .values_list("bracket_link__match_id", "table_number")
        )
        tables = night_tables_take(
            night=night,
            count=len(by_round),
            preferred=[last_table.get(match.pk) for match in by_round],
        )
        table_of = {match.pk: table for match, table in zip(by_round, tables, strict=True)}
    new_links = []
    for match in starting:
        number = numbers[match.pk] + 1
        first, second = teams[match.first_team_id], teams[match.second_team_id]
        game = scoring_services.game_new(
            season=season,
            seats=(first.player_one, second.player_one, first.player_two, second.player_two),
            team_a=first,
            team_b=second,
            night=night,
            round_number=match.round,
            table_number=table_of.get(match.pk),
            first_dealer_seat=(number - 1) % 4,
            counts_for_standings=False,
        )
        new_links.append(BracketMatchGame(match=match, game=game, number=number))
    if new_links:
        Game.objects.bulk_create([link.game for link in new_links])
        for link in new_links:
            link.game = link.game  # the game's new id onto the link
        BracketMatchGame.objects.bulk_create(new_links)
