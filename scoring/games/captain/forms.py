"""Forms that parse the captain's taps into the services' inputs (no scoring rules here).

The hand form names the *caller* (one of the four players); the makers are the caller's side
(seats 0 and 2 are side A). A thrown-in or misdealt hand is a submit button of its own
(``special``), so whatever else was tapped is not part of that hand, except "time was called"
(``time_called``), which a thrown-in hand may carry too.
"""

from __future__ import annotations

from django import forms

from scoring.games.domain.engine import side_of_seat
from scoring.games.models import Game, Hand
from scoring.games.services import HandInput

SPECIAL_CHOICES = [("", "a played hand"), ("thrown_in", "thrown in"), ("misdeal", "misdeal")]
SIDE_CHOICES = [("", "no renege"), ("A", "side A"), ("B", "side B")]
TRICK_CHOICES = [("", "not given")] + [(str(n), str(n)) for n in range(6)]


class HandFactsForm(forms.Form):
    caller = forms.TypedChoiceField(coerce=int, required=False, empty_value=None)
    caller_alone = forms.BooleanField(required=False)
    defender_alone = forms.BooleanField(required=False)
    ordered_up = forms.BooleanField(required=False)
    tricks_won = forms.TypedChoiceField(
        choices=TRICK_CHOICES, coerce=int, required=False, empty_value=None
    )
    renege = forms.ChoiceField(choices=SIDE_CHOICES, required=False)
    special = forms.ChoiceField(choices=SPECIAL_CHOICES, required=False)
    time_called = forms.BooleanField(required=False)

    def __init__(self, *args, game: Game, **kwargs):
        super().__init__(*args, **kwargs)
        self.game = game
        self.fields["caller"].choices = [("", "nobody")] + [
            (str(player.pk), player.name) for player in game.seats
        ]

    def clean(self):
        data = super().clean()
        special = data.get("special")
        if special:
            self.hand_input = HandInput(
                thrown_in=special == "thrown_in",
                misdeal=special == "misdeal",
                time_called=data.get("time_called", False),
            )
            return data
        caller = data.get("caller")
        if caller is None:
            if "caller" not in self.errors:
                self.add_error("caller", "Tap the player who called trump.")
            return data
        seat = self.game.seat_player_ids.index(caller)
        self.hand_input = HandInput(
            makers=side_of_seat(seat).value,
            caller_id=caller,
            caller_alone=data.get("caller_alone", False),
            defender_alone=data.get("defender_alone", False),
            ordered_up=data.get("ordered_up") or None,
            tricks_won=data.get("tricks_won"),
            renege=data.get("renege") or None,
            time_called=data.get("time_called", False),
        )
        return data

    def first_error(self) -> str:
        for field, messages in self.errors.items():
            label = "" if field == "__all__" else _FIELD_WORDS.get(field, field)
            return f"{label}{messages[0]}" if label else messages[0]
        return ""


_FIELD_WORDS = {
    "caller": "",
    "tricks_won": "Tricks: ",
    "renege": "Renege: ",
    "key": "",
    "number": "",
    "reason": "",
}


class HandForm(HandFactsForm):
    """The next hand, with the client key and the hand number the captain believes is next."""

    key = forms.CharField(
        max_length=100, error_messages={"required": "The form was incomplete; reload the page."}
    )
    number = forms.IntegerField(
        min_value=1, error_messages={"required": "The form was incomplete; reload the page."}
    )


class CorrectionForm(HandFactsForm):
    reason = forms.CharField(
        max_length=500,
        error_messages={"required": "Say why the hand is corrected."},
    )


class UndoForm(forms.Form):
    number = forms.IntegerField(min_value=1)


class DisputeForm(forms.Form):
    reason = forms.CharField(
        max_length=500,
        error_messages={"required": "Say briefly what is wrong with the score."},
    )


def form_values(form: forms.Form) -> dict:
    """The submitted values as the templates re-fill them (strings, as posted)."""
    return {name: form.data.get(name, "") for name in form.fields}


def hand_values(hand: Hand) -> dict:
    """A recorded hand's facts as form values, to start a correction from."""
    special = "thrown_in" if hand.thrown_in else "misdeal" if hand.misdeal else ""
    return {
        "caller": str(hand.caller_id or ""),
        "caller_alone": "on" if hand.caller_alone else "",
        "defender_alone": "on" if hand.defender_alone else "",
        "ordered_up": "on" if hand.ordered_up else "",
        "tricks_won": "" if hand.tricks_won is None else str(hand.tricks_won),
        "renege": hand.renege,
        "special": special,
        "time_called": "on" if hand.time_called else "",
    }
