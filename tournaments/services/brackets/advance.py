"""Advancing a bracket: the one path from its games' results to its stored state.

``matches_advance`` is the advance. It runs when a game's final result changes
(``bracket_advance``, from the ``game_finished`` task) and for what a lost signal left behind (the
periodic ``bracket_sweep``): it locks the bracket, reads the matches' results from their games
(``match_games_reconcile``), works out what they change, and stores it (``changes_store``, which
also marks the bracket finished). ``bracket_reconcile`` is its step over a whole loaded bracket,
which publishing, a correction and a withdrawal also take.

What the results change is the engine's to say (``tournaments.domain.brackets``). For a knockout
match decided by its games the engine's ``advance`` moves the winner and loser on, and only that
match and those it feeds (``Structure.downstream``) are read: a few rows, whatever the bracket's
size. Where that does not apply (Swiss rounds, pools, whose ranking fills the knockout, a match
of a team that withdrew, whose ready matches the replay forfeits, a match neither ready nor
decided, stored states the engine cannot advance), the whole bracket is read and replayed
(``play``) instead; both end in the same writes.

An advance by a game is five statements: the transaction's BEGIN, the lock (with the entries'
count and the match's code), one read of the matches with their games and their teams' entries
(``bracket_load_matches``), one UPDATE of what changed in them (``matches_write``) and the
commit; two more (the new game and its link) when a match becomes ready."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection

from django.db import transaction
from django.db.models import Exists, F, OuterRef, Q
from django.utils import timezone

from core.errors import DomainError
from scoring.games.models import Game
from tournaments.domain.brackets import MatchState, MatchStatus, advance, play
from tournaments.models import Bracket, BracketMatch, BracketMatchGame
from tournaments.selectors.bracket_structure import bracket_structure
from tournaments.services.brackets.loaded import (
    IN_PLAY,
    LinkRow,
    LoadedBracket,
    bracket_load,
    bracket_load_matches,
)
from tournaments.services.brackets.match_games import match_games_reconcile
from tournaments.services.brackets.store import Changes, changes_store
from tournaments.services.brackets.swiss import swiss_changes
from tournaments.services.locks import bracket_lock, bracket_of_game_lock


def bracket_advance(*, game_id: int) -> Bracket | None:
    """A game's final result changed (it finished, its winner changed, or it was reopened): if
    it counts for a match, advance its bracket from that match (``matches_advance``). Idempotent,
    and the same whatever the change was, so a repeated or lost signal does no harm."""
    with transaction.atomic():
        locked = bracket_of_game_lock(game_id)  # the lock and the game's match in one query
        if locked is None:
            return None
        bracket, code = locked
        matches_advance(bracket, {code})
    return bracket


def bracket_sweep() -> list[int]:
    """Advance every bracket a lost ``game_finished`` may have left behind, from the matches it
    left (the periodic sweep); returns their ids. Idempotent: a bracket in order is not written
    to."""
    found = brackets_to_reconcile()
    for bracket_id, codes in sorted(found.items()):
        with transaction.atomic():
            matches_advance(bracket_lock(bracket_id), codes)
    return sorted(found)


def matches_advance(bracket: Bracket, codes: Collection[str]) -> None:
    """The advance of a bracket, locked by the caller (``tournaments.services.locks``), from the
    matches ``codes``: a ready match a team has won is decided and its winner (and, in a double
    elimination, its loser) moves on; a match decided by its games that they no longer support
    is marked for review; the matches that became ready get their games; the bracket is marked
    finished once nothing is left to play. Reads only the matches concerned where the engine can
    advance them alone, and the whole bracket otherwise."""
    if bracket.status == Bracket.Status.DRAFT:
        return
    structure = bracket_structure(bracket, bracket.team_count)
    if structure is not None and all(
        code in structure.by_code and not structure.by_code[code].pool for code in codes
    ):
        downstream = {other for code in codes for other in structure.downstream[code]}
        read = bracket_load_matches(bracket, structure, {*codes, *downstream})
        if read is not None:
            loaded, links = read
            changes = _advanced(loaded, codes, links)
            if changes is not None:
                changes_store(loaded, changes, links)
                return
    bracket_reconcile(bracket_load(bracket), check=codes)


def bracket_reconcile(
    loaded: LoadedBracket,
    *,
    check: Collection[str] = (),
    touched: Collection[str] = (),
    user=None,
) -> None:
    """Reconcile a whole loaded bracket: read the ready matches' (and ``check``'s) results from
    their games, replay every result through the structure (forfeiting the ready matches of
    withdrawn teams, filling the knockout from finished pools, pairing the next Swiss round), and
    store what changed (``touched``: matches changed in memory before, stored whatever the
    replay says)."""
    touched = {*touched, *match_games_reconcile(loaded, check)}
    if loaded.structure is None:
        changes = swiss_changes(loaded, touched)
    else:
        changes = _replayed(loaded, touched)
    changes_store(loaded, changes, user=user)


def _replayed(loaded: LoadedBracket, touched: set[str]) -> Changes:
    """The changes of replaying every result of a whole loaded bracket (``play``), with the
    ready matches of withdrawn teams forfeited."""
    now = timezone.now()
    results = loaded.results()
    withdrawn = loaded.withdrawn
    forfeited: list[BracketMatch] = []
    while True:
        state = play(loaded.structure, results, pool_rankings=loaded.pool_rankings(results))
        due = [code for code in state.ready if set(state.matches[code].teams) & withdrawn]
        if not due:
            break
        for code in due:
            played = state.matches[code]
            first_out, second_out = played.first in withdrawn, played.second in withdrawn
            results[code] = played.second if first_out and not second_out else played.first
            match = loaded.matches[code]
            match.decided_by, match.decided_at = BracketMatch.DecidedBy.FORFEIT, now
            forfeited.append(match)
    changed = []
    for code, played in state.matches.items():
        match = loaded.matches[code]
        values = _row_values(loaded, played)
        if values["status"] != BracketMatch.Status.DECIDED and match.decided_by:
            match.decided_by, match.decided_at = BracketMatch.DecidedBy.NOTHING, None
            touched = {*touched, code}
        if values["status"] != BracketMatch.Status.DECIDED and match.needs_review:
            match.needs_review, match.review_reason = False, ""
            touched = {*touched, code}
        if code in touched or _differs(match, values):
            _set(match, values)
            changed.append(match)
    return Changes(
        changed=changed,
        ready=[loaded.matches[code] for code in state.ready],
        is_open=not state.is_complete,
        forfeited=forfeited,
    )


def _advanced(
    loaded: LoadedBracket, codes: Collection[str], links: list[LinkRow]
) -> Changes | None:
    """The changes of the matches ``codes`` and those they feed (all that ``loaded`` holds): each
    reconciled with its games, and each that this decides advanced by the engine (``advance``).
    ``None`` where the engine cannot (a match neither ready nor decided, a match decided that
    was not asked about, stored states that only a replay repairs): nothing is written then."""
    matches, structure = loaded.matches, loaded.structure
    if any(
        matches[code].status not in (BracketMatch.Status.READY, BracketMatch.Status.DECIDED)
        for code in codes
    ):
        return None
    seed = loaded.seed_by_team.get
    states = {  # as stored, before the games are read
        code: MatchState(
            code, MatchStatus(match.status), seed(match.first_team_id), seed(match.second_team_id)
        )
        for code, match in matches.items()
    }
    was_ready = {
        code for code, match in matches.items() if match.status == BracketMatch.Status.READY
    }
    touched = match_games_reconcile(loaded, codes, links)
    changed = {code: matches[code] for code in touched}
    for code in sorted(was_ready, key=structure.position.__getitem__):
        match = matches[code]
        if match.status != BracketMatch.Status.DECIDED:
            continue
        if code not in codes:
            return None
        try:
            played = advance(structure, states, code=code, winner=seed(match.winner_id))
        except DomainError:
            return None
        states.update(played)
        for other, state in played.items():
            values = _row_values(loaded, state)
            if other != code and _differs(matches[other], values):
                _set(matches[other], values)
                changed[other] = matches[other]
    return Changes(
        changed=list(changed.values()),
        ready=[match for match in matches.values() if match.status == BracketMatch.Status.READY],
        is_open=any(
            match.status in (BracketMatch.Status.WAITING, BracketMatch.Status.READY)
            for match in matches.values()
        ),
    )


def _row_values(loaded: LoadedBracket, played: MatchState) -> dict:
    """A match row's fields as the engine's state of it gives them."""
    return {
        "first_team_id": loaded.team_id(played.first),
        "second_team_id": loaded.team_id(played.second),
        "status": str(played.status),
        "winner_id": loaded.team_id(played.winner)
        if played.status is MatchStatus.DECIDED
        else None,
    }


def _differs(match: BracketMatch, values: dict) -> bool:
    return any(getattr(match, name) != value for name, value in values.items())


def _set(match: BracketMatch, values: dict) -> None:
    for name, value in values.items():
        setattr(match, name, value)


def brackets_to_reconcile() -> dict[int, set[str]]:
    """What a lost signal may have left behind (a selector for the periodic sweep): bracket id →
    the codes of matches to reconcile. A ready match without a game in play (its last game ended
    unnoticed: it is won, or it needs its next game) or already won; a match decided by its
    games with a game in play (reopened, or a stray game to call off) or a game won by the other
    team (its winner may have changed)."""
    found: dict[int, set[str]] = {}
    in_play = BracketMatchGame.objects.filter(
        match=OuterRef("pk"), status=BracketMatchGame.Status.COUNTING, game__status__in=IN_PLAY
    )
    for row in (
        BracketMatch.objects.filter(
            status=BracketMatch.Status.READY, bracket__status=Bracket.Status.PUBLISHED
        )
        .exclude(Exists(in_play))
        .values("bracket_id", "code")
    ):
        found.setdefault(row["bracket_id"], set()).add(row["code"])
    wins: Counter[tuple[int, str, str]] = Counter()
    for row in BracketMatchGame.objects.filter(
        status=BracketMatchGame.Status.COUNTING,
        game__status=Game.Status.FINISHED,
        match__status=BracketMatch.Status.READY,
        match__bracket__status=Bracket.Status.PUBLISHED,
    ).values("match__bracket_id", "match__bracket__best_of", "match__code", "game__winner"):
        key = (row["match__bracket_id"], row["match__code"], row["game__winner"])
        wins[key] += 1
        if row["game__winner"] and wins[key] == row["match__bracket__best_of"] // 2 + 1:
            found.setdefault(key[0], set()).add(key[1])  # won, yet a game is still in play
    decided = BracketMatchGame.objects.filter(
        status=BracketMatchGame.Status.COUNTING,
        match__status=BracketMatch.Status.DECIDED,
        match__decided_by=BracketMatch.DecidedBy.GAMES,
        match__needs_review=False,
        match__bracket__status__in=(Bracket.Status.PUBLISHED, Bracket.Status.FINISHED),
    )
    other_won = (Q(game__winner="A") & ~Q(game__team_a=F("match__winner"))) | (
        Q(game__winner="B") & ~Q(game__team_b=F("match__winner"))
    )
    for row in decided.filter(
        Q(game__status__in=IN_PLAY) | (Q(game__status=Game.Status.FINISHED) & other_won)
    ).values("match__bracket_id", "match__code"):
        found.setdefault(row["match__bracket_id"], set()).add(row["match__code"])
    return found
