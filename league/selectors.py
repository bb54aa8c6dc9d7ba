"""Reads of the roster's answers for nights ahead (nothing here writes).

- *answer* (an RSVP): a player's "I'm coming" or "I can't" for a night, from their own link.
- *no answer*: an active roster player who has said neither.
- *next night*: a player's league's first night not started yet, today or later, of a season and
  a night in use (not archived).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils import timezone

from league.models import Night, Player, Rsvp


@dataclass
class NightAnswers:
    """Who answered what for a night: each list by name."""

    coming: list[Player] = field(default_factory=list)
    not_coming: list[Player] = field(default_factory=list)
    no_answer: list[Player] = field(default_factory=list)
    answers: dict[int, Rsvp] = field(default_factory=dict)

    def answer_of(self, player_id: int) -> str:
        rsvp = self.answers.get(player_id)
        return rsvp.answer if rsvp is not None else ""


def night_answers(*, night: Night) -> NightAnswers:
    """The answers for ``night``: its league's active roster and anyone who answered."""
    rsvps = {
        rsvp.player_id: rsvp for rsvp in Rsvp.objects.filter(night=night).select_related("player")
    }
    players = {pk: rsvp.player for pk, rsvp in rsvps.items()}
    for player in Player.objects.filter(league_id=night.season.league_id, is_active=True):
        players.setdefault(player.pk, player)
    result = NightAnswers(answers=rsvps)
    for player in sorted(players.values(), key=lambda p: (p.name.casefold(), p.pk)):
        answer = result.answer_of(player.pk)
        if answer == Rsvp.Answer.COMING:
            result.coming.append(player)
        elif answer == Rsvp.Answer.NOT_COMING:
            result.not_coming.append(player)
        else:
            result.no_answer.append(player)
    return result


def player_next_night(*, player: Player) -> Night | None:
    """The player's next night (see the module's words), or ``None``."""
    return (
        Night.objects.not_archived()
        .select_related("season__league")
        .filter(
            season__league_id=player.league_id,
            date__gte=timezone.localdate(),
            status__in=(Night.Status.PLANNED, Night.Status.CHECK_IN),
        )
        .order_by("date", "pk")
        .first()
    )
