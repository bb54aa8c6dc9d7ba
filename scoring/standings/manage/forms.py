"""Workspace forms of the scoring app that are not the rulebook's options."""

from django import forms

from scoring.standings.domain.standings.rules import MAX_PLAYOFF_SPOTS


class PlayoffSpotsForm(forms.Form):
    """How many teams make the playoffs: the cut line of the playoff race on the standings."""

    playoff_spots = forms.IntegerField(
        label="Playoff spots",
        min_value=1,
        max_value=MAX_PLAYOFF_SPOTS,
        help_text="How many teams make the playoffs; the standings show each team's chance of "
        "a place and whether it has clinched one. It does not change the ranking.",
    )
