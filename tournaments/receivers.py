"""Receivers of ``scoring.signals.game_finished``: the one sanctioned signal (DESIGN.md).

A finished game may decide a bracket match; ``bracket_advance`` moves its winner on (a game that
belongs to no bracket is ignored). The signal is sent on commit, so the advance runs in its own
transaction after the hand that ended the game is stored.
"""

from django.dispatch import receiver

from scoring.signals import game_finished
from tournaments.services import brackets


@receiver(game_finished, dispatch_uid="tournaments.bracket_advance")
def advance_bracket(sender, game_id: int, **kwargs) -> None:
    brackets.bracket_advance(game_id=game_id)
