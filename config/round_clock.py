"""The round clock on any page: ``{% load round_clock %}{% round_clock … %}``.

A template library (registered in ``TEMPLATES``), kept in ``config`` for the reason
``config/site_nav.py`` is: the captain's score card is a ``scoring`` page, and ``scoring`` may not
import ``tournaments``, whose selector (``tournaments.selectors.clocks.current_clock``) knows the
clocks. Every display draws ``templates/includes/round_clock.html`` through this tag:

- ``{% round_clock game=game %}``: the clock of the game's round (captain's card, table card);
- ``{% round_clock night=night %}``: the night's current clock (the night page, a table waiting);
- ``{% round_clock night=night number=2 %}`` / ``bracket=bracket number=2``: one round's clock
  (the night desk, a bracket's page, a player's page);
- ``{% round_clock wall=season %}``: the wall's slot, read on arrival by the script (the wall's
  page is cached: a server time baked into it would be stale).
"""

from django import template

from tournaments.selectors.clocks import current_clock
from tournaments.views.clocks import clock_context, wall_clock_context

register = template.Library()


@register.inclusion_tag("includes/round_clock.html")
def round_clock(*, game=None, night=None, bracket=None, number=None, wall=None):
    """The partial's context (``tournaments.views.clocks.clock_context``): the clock read now and
    where the page reads it again."""
    if wall is not None:
        return wall_clock_context(season=wall)
    return clock_context(
        current_clock(game=game, night=night, bracket=bracket, round_number=number)
    )
