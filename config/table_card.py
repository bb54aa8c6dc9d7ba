"""A finished game's way on to its table's next game: ``{% load table_card %}{% table_card_link
game %}``.

A template library (registered in ``TEMPLATES``), kept in ``config`` for the reason
``config/round_clock.py`` is: the captain's score card is a ``scoring`` page, and ``scoring`` may
not import ``tournaments``, which keeps the table cards (``/tables/<token>/``: one per table for
the night, opening whatever the table plays now). A phone that scanned the table's tent reached
this game's own card; once the game is over, the link takes it to the table's next one.
"""

from django import template

from tournaments.services.tables import table_card_of_game

register = template.Library()


@register.inclusion_tag("includes/table_card_link.html")
def table_card_link(game):
    return {"card": table_card_of_game(game=game)}
