"""Swiss rounds: pairing the next round from the records (``swiss.swiss_pairings``) once every
match of the round before is decided, and playing it. Correcting a Swiss result resets nothing:
the later rounds' pairings stand, as they do at a real Swiss event."""

from __future__ import annotations

from collections import Counter

from django.utils import timezone

from core.errors import DomainError
from league.models import Team
from scoring.standings.domain.standings import Standings
from tournaments.domain.swiss import SwissEntry, swiss_pairings
from tournaments.models import Bracket, BracketMatch
from tournaments.selectors.bracket_standings import swiss_standings
from tournaments.services.brackets.loaded import LoadedBracket
from tournaments.services.brackets.store import Changes


def swiss_round_matches(
    bracket: Bracket,
    pairing,
    round_number: int,
    first_order: int,
    team_by_seed: dict[int, Team],
) -> list[BracketMatch]:
    """The unsaved matches of a paired Swiss round: ``S{round}-{index}``, the bye last."""
    sides = [(pair.first, pair.second) for pair in pairing.pairings]
    if pairing.bye is not None:
        sides.append((pairing.bye, None))
    matches = []
    for index, (first, second) in enumerate(sides, start=1):
        matches.append(
            BracketMatch(
                bracket=bracket,
                code=f"S{round_number}-{index}",
                order=first_order + index - 1,
                part=BracketMatch.Part.SWISS,
                round=round_number,
                first_slot={"kind": "seed", "label": f"Seed {first}", "seed": first},
                second_slot={"kind": "bye", "label": "Bye"}
                if second is None
                else {"kind": "seed", "label": f"Seed {second}", "seed": second},
                is_bye=second is None,
                first_team=team_by_seed[first],
                second_team=None if second is None else team_by_seed[second],
                status=BracketMatch.Status.BYE if second is None else BracketMatch.Status.READY,
            )
        )
    return matches


def swiss_changes(loaded: LoadedBracket, touched: set[str]) -> Changes:
    """What a reconcile of a Swiss bracket changes: the ready matches of withdrawn teams are
    forfeited, and once a round is all decided the next one is paired from the records (none
    once the rounds are played, or when no pairing avoids a rematch: the event ends)."""
    bracket, now = loaded.bracket, timezone.now()
    withdrawn_teams = {entry.team_id for entry in loaded.entries if entry.is_withdrawn}
    forfeited = []
    for match in loaded.matches.values():
        out = {match.first_team_id, match.second_team_id} & withdrawn_teams
        if match.status != BracketMatch.Status.READY or not out:
            continue
        first_out, second_out = match.first_team_id in out, match.second_team_id in out
        match.winner_id = (
            match.second_team_id if first_out and not second_out else match.first_team_id
        )
        match.status = BracketMatch.Status.DECIDED
        match.decided_by, match.decided_at = BracketMatch.DecidedBy.FORFEIT, now
        forfeited.append(match)
    changed = {match.pk: match for match in forfeited}
    changed.update((loaded.matches[code].pk, loaded.matches[code]) for code in touched)
    matches = list(loaded.matches.values())
    open_matches = [match for match in matches if match.status == BracketMatch.Status.READY]
    created = []
    current = max((match.round for match in matches), default=0)
    if (
        bracket.status != Bracket.Status.DRAFT
        and not open_matches
        and current < bracket.swiss_rounds
    ):
        active = [entry for entry in loaded.entries if not entry.is_withdrawn]
        standings = swiss_standings(matches, loaded.seed_by_team, loaded.names, loaded.points())
        pairing = None
        if len(active) >= 2:
            pairing = _swiss_pairing(standings, matches, loaded, {e.seed for e in active})
        if pairing is not None:
            created = swiss_round_matches(
                bracket, pairing, current + 1, len(matches), loaded.team_by_seed
            )
            open_matches = [match for match in created if match.status == BracketMatch.Status.READY]
    return Changes(
        changed=list(changed.values()),
        ready=open_matches,
        is_open=bool(open_matches),
        forfeited=forfeited,
        created=created,
    )


def _swiss_pairing(standings: Standings, matches, loaded: LoadedBracket, active: set[int]):
    """The next round's pairing of the ``active`` seeds from ``standings``, or ``None`` when no
    pairing avoids a rematch (the event then ends with the rounds played)."""
    opponents: dict[int, set[int]] = {seed: set() for seed in active}
    byes: Counter[int] = Counter()
    for match in matches:
        if match.status == BracketMatch.Status.BYE and match.first_team_id:
            byes[loaded.seed_by_team[match.first_team_id]] += 1
        elif match.first_team_id and match.second_team_id:
            first = loaded.seed_by_team[match.first_team_id]
            second = loaded.seed_by_team[match.second_team_id]
            opponents.setdefault(first, set()).add(second)
            opponents.setdefault(second, set()).add(first)
    entries = [
        SwissEntry(
            team=row.entrant,
            score=row.wins,
            opponents=frozenset(opponents[row.entrant]),
            byes=byes[row.entrant],
        )
        for row in standings.rows
        if row.entrant in active
    ]
    try:
        return swiss_pairings(entries)
    except DomainError as error:
        if error.code == "no_pairing":
            return None
        raise
