"""Forms that read the captain's taps into the services' inputs (no scoring rules here).

The hand form names the *caller* (one of the four players); the makers are the caller's side
(seats 0 and 2 are side A). A thrown-in or misdealt hand is a submit button of its own
(``special``), so whatever else was tapped is not part of that hand, except "time was called"
(``time_called``), which a thrown-in hand may carry too.

The taps become a hand's facts, which the one parser of every entrance checks
(``scoring.games.domain.hand_input.hand_input_parse``); the form's own fields only say which
taps it reads (and the page re-fills them after a refusal, :func:`form_values`).
"""

from __future__ import annotations

from django import forms

from core.errors import DomainError
from scoring.games.domain.engine import side_of_seat
from scoring.games.domain.hand_input import hand_input_parse
from scoring.games.models import Game, Hand

SPECIAL_CHOICES = [("", "a played hand"), ("thrown_in", "thrown in"), ("misdeal", "misdeal")]
PLAYED_TAPS = ("caller_alone", "defender_alone", "ordered_up", "tricks_won", "renege")
"""The facts a played hand's taps give as the parser reads them (a checkbox's ``on``, a
number's or a side's text), besides the caller and the makers the form works out."""


class HandFactsForm(forms.Form):
    caller = forms.TypedChoiceField(coerce=int, required=False, empty_value=None)
    caller_alone = forms.CharField(required=False)
    defender_alone = forms.CharField(required=False)
    ordered_up = forms.CharField(required=False)
    tricks_won = forms.CharField(required=False)
    renege = forms.CharField(required=False)
    special = forms.ChoiceField(choices=SPECIAL_CHOICES, required=False)
    time_called = forms.CharField(required=False)

    def __init__(self, *args, game: Game, **kwargs):
        super().__init__(*args, **kwargs)
        self.game = game
        self.fields["caller"].choices = [("", "nobody")] + [
            (str(player.pk), player.name) for player in game.seats
        ]

    def clean(self):
        data = super().clean()
        special = data.get("special")
        taps = ("time_called",) if special else ("time_called", *PLAYED_TAPS)
        # A box left unticked is not sent: an untapped fact is left to its default.
        facts = {name: data[name] for name in taps if data.get(name)}
        if special:
            facts[special] = True
        else:
            caller = data.get("caller")
            if caller is None:
                if "caller" not in self.errors:
                    self.add_error("caller", "Tap the player who called trump.")
                return data
            seat = self.game.seat_player_ids.index(caller)
            facts |= {"makers": side_of_seat(seat).value, "caller": caller}
        try:
            self.hand_input, _ = hand_input_parse(facts)
        except DomainError as error:  # the card's own taps never get here: a forged or old form
            self.add_error(None, f"The hand could not be read ({error.message}); reload the page.")
        return data

    def first_error(self) -> str:
        for field, messages in self.errors.items():
            label = "" if field == "__all__" else _FIELD_WORDS.get(field, field)
            return f"{label}{messages[0]}" if label else messages[0]
        return ""


_FIELD_WORDS = {
    "caller": "",
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
