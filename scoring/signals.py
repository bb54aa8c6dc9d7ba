"""The one sanctioned signal: ``game_finished``, sent on commit when a game ends.

It lets ``tournaments`` advance a bracket without ``scoring`` importing it (DESIGN.md).
Receivers get ``game_id``.
"""

from django.dispatch import Signal

game_finished = Signal()
