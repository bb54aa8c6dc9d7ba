"""Corrections and withdrawals: what correcting a match's winner would reset (the preview the
organiser sees first), applying it, and a team's withdrawal (it forfeits what it has not
played)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from core.errors import ConflictError, DomainError
from league.access import require_league_organiser
from league.models import Team
from scoring.games.models import Game
from tournaments.domain.brackets import correct_result, play
from tournaments.models import Bracket, BracketCorrection, BracketMatch, BracketMatchGame
from tournaments.services.brackets.advance import bracket_reconcile
from tournaments.services.brackets.loaded import IN_PLAY, LoadedBracket, bracket_load
from tournaments.services.brackets.match_games import counting_links, links_void
from tournaments.services.locks import bracket_lock


@dataclass(frozen=True)
class ResetMatch:
    """A later match a correction resets: its teams and winner before, and its games."""

    code: str
    teams: tuple[str, ...]
    winner: str | None
    games_kept: int
    games_voided: int


@dataclass(frozen=True)
class CorrectionPreview:
    """What correcting match ``code`` to ``new_winner`` would do, before the organiser agrees.

    ``reset`` lists the decided later matches whose results are thrown away; ``stopped`` the
    undecided matches whose games in play stop counting because a team in them changes. Games
    already finished in them are kept as played (they stop counting for the bracket); unplayed
    ones are voided and their captain links revoked. ``called_off`` counts the corrected match's
    own games still in play (a reopened game), called off once the organiser decides.

    A match that needs review may be "corrected" to the winner it has: the organiser confirms the
    result as it stands, and nothing later changes.
    """

    bracket: Bracket
    code: str
    old_winner: Team
    new_winner: Team
    reset: tuple[ResetMatch, ...]
    stopped: tuple[ResetMatch, ...]
    results: dict[str, int]
    called_off: int = 0

    @property
    def is_confirmation(self) -> bool:
        """The organiser keeps the winner (a match that needed review)."""
        return self.old_winner == self.new_winner

    @property
    def reset_codes(self) -> list[str]:
        return [match.code for match in self.reset]


def correction_message(preview: CorrectionPreview) -> str:
    """The preview in one sentence, for the organiser to agree to."""
    called_off = ""
    if preview.called_off:
        plural = "s" if preview.called_off > 1 else ""
        called_off = f" Its game{plural} still in play {'are' if plural else 'is'} called off."
    if preview.is_confirmation:
        return (
            f"{preview.new_winner} keeps {preview.code}: the result stands as it is; "
            f"no later match changes.{called_off}"
        )
    head = f"{preview.new_winner} wins {preview.code} instead of {preview.old_winner}"
    if not preview.reset and not preview.stopped:
        return f"{head}; no later match changes.{called_off}"
    parts = []
    if preview.reset:
        parts.append(f"resets {', '.join(preview.reset_codes)}")
    if preview.stopped:
        parts.append(f"stops the games of {', '.join(match.code for match in preview.stopped)}")
    return f"{head}; this {' and '.join(parts)}.{called_off}"


def _preview(loaded: LoadedBracket, code: str, winner: Team | int) -> CorrectionPreview:
    winner_id = winner.pk if isinstance(winner, Team) else int(winner)
    match = loaded.matches.get(code)
    if match is None:
        raise DomainError(f"There is no match {code} in this bracket.", field="match")
    if match.status != BracketMatch.Status.DECIDED:
        raise DomainError(f"Match {code} has no result to correct.", field="match")
    if winner_id not in (match.first_team_id, match.second_team_id):
        raise DomainError(f"That team did not play in match {code}.", field="winner")
    teams = {team.pk: team for team in loaded.team_by_seed.values()}
    called_off = BracketMatchGame.objects.filter(
        match=match, status=BracketMatchGame.Status.COUNTING, game__status__in=IN_PLAY
    ).count()
    if winner_id == match.winner_id:
        if not match.needs_review:
            raise DomainError(f"That team already won match {code}.", field="winner")
        return CorrectionPreview(
            bracket=loaded.bracket,
            code=code,
            old_winner=teams[match.winner_id],
            new_winner=teams[winner_id],
            reset=(),
            stopped=(),
            results=loaded.results(),
            called_off=called_off,
        )
    if loaded.structure is None:  # Swiss: the later rounds' pairings stand
        return CorrectionPreview(
            bracket=loaded.bracket,
            code=code,
            old_winner=teams[match.winner_id],
            new_winner=teams[winner_id],
            reset=(),
            stopped=(),
            results={},
            called_off=called_off,
        )
    results = loaded.results()
    new_seed = loaded.seed_by_team[winner_id]
    rankings_after = loaded.pool_rankings({**results, code: new_seed})
    correction = correct_result(
        loaded.structure,
        results,
        code=code,
        winner=new_seed,
        pool_rankings=loaded.pool_rankings(results),
        pool_rankings_after=rankings_after,
    )
    after = play(loaded.structure, correction.results, pool_rankings=rankings_after)
    affected = []
    for other, played in after.matches.items():
        row = loaded.matches[other]
        if other == code:
            continue
        same = (loaded.team_id(played.first), loaded.team_id(played.second)) == (
            row.first_team_id,
            row.second_team_id,
        )
        if other in correction.reset or (row.status == BracketMatch.Status.READY and not same):
            affected.append(row)
    links = counting_links(affected) if affected else []
    reset, stopped = [], []
    for row in affected:
        games = [link for link in links if link.match_id == row.pk]
        finished = sum(link.game.status == Game.Status.FINISHED for link in games)
        if row.status == BracketMatch.Status.READY and not games:
            continue
        described = ResetMatch(
            code=row.code,
            teams=tuple(
                teams[team_id].name
                for team_id in (row.first_team_id, row.second_team_id)
                if team_id
            ),
            winner=teams[row.winner_id].name if row.winner_id else None,
            games_kept=finished,
            games_voided=len(games) - finished,
        )
        (reset if row.code in correction.reset else stopped).append(described)
    return CorrectionPreview(
        bracket=loaded.bracket,
        code=code,
        old_winner=teams[match.winner_id],
        new_winner=teams[winner_id],
        reset=tuple(reset),
        stopped=tuple(stopped),
        results=correction.results,
        called_off=called_off,
    )


def bracket_correction_preview(
    *, bracket: Bracket, code: str, winner: Team | int, user
) -> CorrectionPreview:
    """Which later matches changing the winner of decided match ``code`` would reset (or, for a
    match that needs review, what confirming its winner does). Writes nothing."""
    require_league_organiser(user=user, league_id=bracket.season.league_id)
    if bracket.status == Bracket.Status.DRAFT:
        raise ConflictError("A draft has no results to correct.")
    return _preview(bracket_load(bracket), code, winner)


def bracket_correct(
    *,
    bracket: Bracket,
    code: str,
    winner: Team | int,
    reason: str,
    reset: Sequence[str],
    user,
) -> CorrectionPreview:
    """Apply a correction the organiser has seen: ``reset`` must be the preview's reset list
    (a conflict if the bracket changed since). The corrected match is decided by the correction
    (its games are kept as played); the reset matches lose their results and their games stop
    counting; the matches that become ready get new games."""
    require_league_organiser(user=user, league_id=bracket.season.league_id)
    reason = " ".join((reason or "").split())
    if not reason:
        raise DomainError("Say briefly why the result is corrected.", field="reason")
    with transaction.atomic():
        bracket = bracket_lock(bracket.pk)
        if bracket.status == Bracket.Status.DRAFT:
            raise ConflictError("A draft has no results to correct.")
        loaded = bracket_load(bracket)
        preview = _preview(loaded, code, winner)
        if sorted(preview.reset_codes) != sorted(reset):
            would = ", ".join(preview.reset_codes) or "no match"
            raise ConflictError(
                f"The bracket changed since the preview: correcting {code} now resets {would}. "
                "Look at the preview again.",
                code="preview_stale",
            )
        BracketCorrection.objects.create(
            bracket=bracket,
            code=code,
            old_winner=preview.old_winner,
            new_winner=preview.new_winner,
            reset=[{"code": match.code, "winner": match.winner} for match in preview.reset],
            reason=reason,
            changed_by=user if user is not None and user.is_authenticated else None,
        )
        now = timezone.now()
        corrected = loaded.matches[code]
        corrected.winner_id = preview.new_winner.pk
        corrected.decided_by, corrected.decided_at = BracketMatch.DecidedBy.CORRECTION, now
        corrected.needs_review, corrected.review_reason = False, ""
        affected = [loaded.matches[match.code] for match in (*preview.reset, *preview.stopped)]
        for match in affected:
            match.winner_id, match.status = None, BracketMatch.Status.WAITING
            match.decided_by, match.decided_at = BracketMatch.DecidedBy.NOTHING, None
            match.needs_review, match.review_reason = False, ""
        links_void(counting_links(affected), f"reset by the correction of {code}: {reason}", user)
        bracket_reconcile(loaded, touched={code, *(match.code for match in affected)}, user=user)
    return preview


def bracket_withdraw_team(*, bracket: Bracket, team: Team | int, reason: str, user) -> Bracket:
    """A team withdraws: it forfeits every match it has not played (now or when it becomes
    ready); results it already played are kept."""
    require_league_organiser(user=user, league_id=bracket.season.league_id)
    reason = " ".join((reason or "").split())
    team_id = team.pk if isinstance(team, Team) else int(team)
    with transaction.atomic():
        bracket = bracket_lock(bracket.pk)
        if bracket.status != Bracket.Status.PUBLISHED:
            raise ConflictError(
                "Only a bracket being played takes withdrawals (in a draft, change the seeds)."
            )
        entry = bracket.entries.filter(team_id=team_id).first()
        if entry is None:
            raise DomainError("That team is not in this bracket.", field="team")
        if entry.is_withdrawn:
            raise ConflictError(f"{entry.team} has already withdrawn.")
        entry.withdrawn_at, entry.withdrawal_reason = timezone.now(), reason[:300]
        entry.save(update_fields=["withdrawn_at", "withdrawal_reason"])
        bracket_reconcile(bracket_load(bracket), user=user)
    return bracket
