"""The games of a bracket's matches: reading a match's result from them (reconcile), calling off
the ones that no longer count (void), and giving each ready match its next game."""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Collection, Sequence

from django.utils import timezone

from league.errors import ConflictError
from scoring import services as scoring_services
from scoring.models import Game
from tournaments.models import BracketMatch, BracketMatchGame
from tournaments.services.brackets import _rows
from tournaments.services.brackets._loading import IN_PLAY, _Loaded


def _void(links: Sequence[BracketMatchGame], reason: str, user=None) -> None:
    """Stop ``links`` counting; call off (void) any of their games not yet finished."""
    for link in links:
        link.status = BracketMatchGame.Status.VOIDED
        link.voided_reason = reason[:300]
        if link.game.status in IN_PLAY:
            # A game that finished meanwhile is kept as played: it just stops counting.
            with contextlib.suppress(ConflictError):
                scoring_services.game_void(game=link.game, reason=reason, user=user)
    BracketMatchGame.objects.bulk_update(links, ["status", "voided_reason"])


def _reconcile_games(
    loaded: _Loaded, check: Collection[str] = (), links: list[tuple] | None = None
) -> set[str]:
    """Read results from the games: decide every ready match a team has won (enough finished
    counting games), and check the matches in ``check`` decided by their games: one the games no
    longer support is marked as needing review (with the reason), one they support again is
    cleared. Changes the matches in memory (and notes in ``loaded.in_play`` those of the matches
    read that have a counting game in play); returns the codes changed. ``links``: their game
    links as ``_links`` reads them, if already read (those of other matches are passed over)."""
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
        links = _links(matches)
    for _, match_id, number, status, game_status, winner, _ in links:
        if status != counting or match_id not in wins:
            continue
        if game_status == Game.Status.FINISHED and winner:
            wins[match_id][0 if winner == "A" else 1] += 1
        elif game_status == Game.Status.IN_PROGRESS:
            reopened.setdefault(match_id, []).append(number)
        if game_status in IN_PLAY:
            loaded.in_play.add(match_id)
    needed, now, names = loaded.bracket.wins_needed, timezone.now(), _team_names(loaded)
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


def _team_names(loaded: _Loaded) -> dict[int, str]:
    return {entry.team_id: entry.team.name for entry in loaded.entries}


def _void_unneeded(loaded: _Loaded, user=None) -> None:
    """Call off the games still in play of decided matches (a stray game of a match already
    won), except those of a match waiting for the organiser's review."""
    decided = {
        match.pk: match
        for match in loaded.matches.values()
        if match.status == BracketMatch.Status.DECIDED and not match.needs_review
    }
    if not decided:
        return
    stray = list(
        BracketMatchGame.objects.filter(
            match__bracket=loaded.bracket,
            status=BracketMatchGame.Status.COUNTING,
            game__status__in=IN_PLAY,
        ).select_related("game")
    )
    names = _team_names(loaded)
    for link in stray:
        match = decided.get(link.match_id)
        if match is not None:
            _void([link], f"not needed: {names[match.winner_id]} already won {match.code}", user)


def _counting_links(matches: Sequence[BracketMatch]) -> list[BracketMatchGame]:
    return list(
        BracketMatchGame.objects.filter(
            match__in=[match.pk for match in matches], status=BracketMatchGame.Status.COUNTING
        ).select_related("game")
    )


def _links(matches: Collection[BracketMatch]) -> list[tuple]:
    """(link id, match id, number, link status, game status, game winner, game void reason) of
    every game link of ``matches``."""
    return _rows.match_games([match.pk for match in matches], _rows.LINK_GAME_FIELDS)


def _create_next_games(
    loaded: _Loaded, ready: list[BracketMatch], links: list[tuple] | None = None
) -> None:
    """Give each ready match without a game in play its next game (playoff games do not count
    in the season standings). A counting game called off elsewhere stops counting first.
    ``links``: their game links as ``_links`` reads them, if already read (and not changed
    since; those of other matches are passed over)."""
    ready = [match for match in ready if match.status == BracketMatch.Status.READY]
    if not ready:
        return
    if links is None:
        links = _links(ready)
    wanted = {match.pk for match in ready}
    numbers: dict[int, int] = Counter()
    in_play: set[int] = set()
    called_off = []
    for pk, match_id, number, status, game_status, _, void_reason in links:
        if match_id not in wanted:
            continue
        numbers[match_id] = max(numbers[match_id], number)
        if status != BracketMatchGame.Status.COUNTING:
            continue
        if game_status in IN_PLAY:
            in_play.add(match_id)
        elif game_status == Game.Status.VOIDED:
            called_off.append(
                BracketMatchGame(
                    pk=pk,
                    status=BracketMatchGame.Status.VOIDED,
                    voided_reason=f"called off: {void_reason or 'voided'}"[:300],
                )
            )
    if called_off:
        BracketMatchGame.objects.bulk_update(called_off, ["status", "voided_reason"])
    season = loaded.bracket.season
    teams = {team.pk: team for team in loaded.team_by_seed.values()}
    links = []
    for match in ready:
        if match.pk in in_play:
            continue
        number = numbers[match.pk] + 1
        first, second = teams[match.first_team_id], teams[match.second_team_id]
        game = scoring_services.game_new(
            season=season,
            seats=(first.player_one, second.player_one, first.player_two, second.player_two),
            team_a=first,
            team_b=second,
            round_number=match.round,
            first_dealer_seat=(number - 1) % 4,
            counts_for_standings=False,
        )
        links.append(BracketMatchGame(match=match, game=game, number=number))
    _rows.create_games(links)  # the games and their links together
