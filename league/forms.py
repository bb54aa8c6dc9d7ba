"""Forms of the organiser's workspace: they parse and check the shape of input, nothing more.

The rules (who may, what is allowed) live in the services and access functions the views call.
"""

from __future__ import annotations

import csv
import datetime
import io

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm

from core.errors import DomainError
from league.domain.pasted import MAX_RECURRING_NIGHTS, WEEKDAYS, pasted_names
from league.domain.rules import (
    PRESETS,
    TIME_LIMIT_MINUTES,
    DefenderAlone,
    GameLength,
    RenegePenalty,
    TieAtTime,
)
from league.domain.rules import Rulebook as RulebookRules
from league.models import MAX_ID, Season

MAX_ROSTER_BYTES = 512 * 1024
MAX_ROSTER_ROWS = 2000
ROSTER_TEMPLATE = "name,email\nAlice Adams,alice@example.com\nBob Brown,\n"


def whole_number(value: str | None) -> int | None:
    """A form value written as a whole number from 0 to ``MAX_ID`` in ASCII digits, or ``None``.

    ``str.isdigit`` alone is not enough: it passes "²", which ``int`` refuses, and any number of
    digits, while ``int`` refuses more than 4300 and the database a number beyond its column.
    """
    value = (value or "").strip()
    if not (value.isascii() and value.isdigit()) or len(value) > len(str(MAX_ID)):
        return None
    number = int(value)
    return number if number <= MAX_ID else None


def form_id(value: str | None) -> int | None:
    """A row's id chosen in a form (a ``<select>`` of players, teams …), or ``None`` when the
    value cannot be one: the caller treats it as it treats an id that names no row."""
    number = whole_number(value)
    return number or None


class SignupForm(UserCreationForm):
    email = forms.EmailField(required=False, help_text="Optional: for a lost password.")

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")


class LeagueForm(forms.Form):
    name = forms.CharField(max_length=120)
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False)


class ApiTokenForm(forms.Form):
    name = forms.CharField(
        max_length=80, help_text="What will use it, e.g. “scoreboard script” or “Zapier”."
    )


class InvitationForm(forms.Form):
    email = forms.EmailField(required=False, help_text="Whom the link is for (a note only).")


PRESET_CHOICES = [(slug, preset.name) for slug, preset in PRESETS.items()]

# The rulebook options an organiser may change, with their labels (rules.Rulebook's fields).
OPTION_LABELS = {
    "target_score": "Game to (points)",
    "game_length": "Game length",
    "hands_per_game": "Hands per game (if a fixed number)",
    "time_limit_minutes": "Time limit (minutes; empty: none)",
    "tie_at_time": "Level when time is called",
    "make_points": "Make (3 or 4 tricks)",
    "march_points": "March (all 5)",
    "lone_make_points": "Lone caller makes",
    "lone_march_points": "Lone caller marches",
    "euchre_points": "Euchre",
    "lone_caller_euchred_points": "Lone caller euchred",
    "lone_defender_euchre_points": "Lone defender euchres",
    "defender_alone": "Defender may go alone",
    "stick_the_dealer": "Stick the dealer",
    "renege_penalty": "Renege penalty",
    "renege_points": "Renege points",
    "renege_points_alone": "Renege points (alone)",
    "dealer_partner_must_go_alone": "Dealer's partner who orders up goes alone",
}
ENUM_CHOICES = {
    "defender_alone": [(m.value, m.value.replace("_", " ")) for m in DefenderAlone],
    "renege_penalty": [(m.value, m.value.replace("_", " ")) for m in RenegePenalty],
    "game_length": [
        (GameLength.TARGET.value, "to the target score"),
        (GameLength.HANDS.value, "a number of hands"),
        (GameLength.TIME.value, "the time limit alone"),
    ],
    "tie_at_time": [
        (TieAtTime.NEXT_HAND.value, "play on: the next hand decides"),
        (TieAtTime.DRAW.value, "a draw"),
    ],
}
OPTION_HELP = {
    "game_length": "With a time limit, a game to the target or of a number of hands ends at "
    "whichever comes first; the time limit alone: the higher score at time wins.",
    "time_limit_minutes": "1 to 180. When time is called, the hand being played is finished and "
    "the higher score wins.",
    "tie_at_time": "A bracket game is never a draw: level at time, it plays one more hand "
    "(and on until the tie is broken), whatever this says.",
}


class RulebookOptionsForm(forms.Form):
    """Every rulebook option as a field; ``initial`` is the current rulebook's options."""

    def __init__(self, *args, base: RulebookRules | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        options = (base or RulebookRules()).to_options()
        for name, label in OPTION_LABELS.items():
            value = options[name]
            if name in ENUM_CHOICES:
                field = forms.ChoiceField(choices=ENUM_CHOICES[name], label=label)
            elif name == "time_limit_minutes":
                low, high = TIME_LIMIT_MINUTES
                field = forms.IntegerField(
                    min_value=low, max_value=high, required=False, label=label
                )
            elif isinstance(value, bool):
                field = forms.BooleanField(required=False, label=label)
            else:
                field = forms.IntegerField(min_value=0, max_value=100, label=label)
            field.initial = value
            field.help_text = OPTION_HELP.get(name, "")
            self.fields[name] = field

    def options(self) -> dict:
        return {name: self.cleaned_data[name] for name in OPTION_LABELS}


class SeasonForm(forms.Form):
    name = forms.CharField(max_length=120)
    format = forms.ChoiceField(choices=Season.Format.choices)
    preset = forms.ChoiceField(choices=PRESET_CHOICES, label="Rulebook")
    starts_on = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    ends_on = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    usual_rounds = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=30,
        label="Rounds a night, usually (optional)",
        help_text="The rounds a night's plan starts from; empty: the last night's, or a few "
        "that fit an evening.",
    )
    balance_partner_strength = forms.BooleanField(
        required=False,
        label="Balance partners by strength (partners rotate)",
        help_text="Among rotations equally good, choose the one that makes each player's average "
        "partner rating most even.",
    )
    customise = forms.BooleanField(
        required=False, label="Change some of the preset's options (below)"
    )


class PlayerForm(forms.Form):
    name = forms.CharField(max_length=120)
    email = forms.EmailField(required=False)


class EmailConsentForm(forms.Form):
    """An organiser records a player's consent to the emails; the box says the player agreed,
    and its words (``league.services.email_consent_wording``) are stored with the consent."""

    consent_email = forms.EmailField(label="Email address for the night's emails", max_length=254)
    agreed = forms.BooleanField(required=False)


class DeactivateForm(forms.Form):
    reason = forms.CharField(max_length=500, required=False)


class TeamForm(forms.Form):
    name = forms.CharField(max_length=120)
    player_one = forms.ModelChoiceField(queryset=None)
    player_two = forms.ModelChoiceField(queryset=None)

    def __init__(self, *args, players, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player_one"].queryset = players
        self.fields["player_two"].queryset = players


class RosterPasteForm(forms.Form):
    """Names pasted one a line (a name and an email separated by a tab, from a spreadsheet, also
    do): the rows of the one roster import (``league.services.roster_import``)."""

    names = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 6, "autocomplete": "off", "spellcheck": "false"}),
        label="Paste names, one a line",
        help_text="From a spreadsheet too: a name and an email in two columns.",
    )

    def clean_names(self):
        try:
            return pasted_names(self.cleaned_data["names"])
        except DomainError as error:
            raise forms.ValidationError(error.message) from None


class TeamsPasteForm(forms.Form):
    """Teams pasted one a line: ``Ann Baker & Bob Carter`` or ``Aces: Ann Baker & Bob Carter``."""

    teams = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 6, "autocomplete": "off", "spellcheck": "false"}),
        label="Paste teams, one a line",
        help_text="“Ann Baker & Bob Carter”, or with the team's name first: “Aces: Ann Baker & "
        "Bob Carter”. Names not on the roster are added to it once you confirm.",
    )


WEEKDAY_CHOICES = [(str(number), name) for number, name in enumerate(WEEKDAYS)]


class RecurringNightsForm(forms.Form):
    """A series of nights: a weekday, every N weeks, how many, dates to skip."""

    starts_on = forms.DateField(
        label="Starting on or after", widget=forms.DateInput(attrs={"type": "date"})
    )
    weekday = forms.TypedChoiceField(choices=WEEKDAY_CHOICES, coerce=int, label="Every")
    every_weeks = forms.IntegerField(
        min_value=1, max_value=52, initial=1, label="Every how many weeks"
    )
    count = forms.IntegerField(
        min_value=1, max_value=MAX_RECURRING_NIGHTS, initial=7, label="How many nights"
    )
    skip = forms.CharField(
        required=False,
        label="Skip these dates (optional)",
        help_text="YYYY-MM-DD, separated by commas or spaces: a holiday. The series runs on past "
        "them.",
    )
    venue = forms.CharField(max_length=120, required=False, label="Venue (every night)")

    def clean_skip(self):
        dates = set()
        for word in self.cleaned_data["skip"].replace(",", " ").split():
            try:
                dates.add(datetime.date.fromisoformat(word))
            except ValueError:
                raise forms.ValidationError(f"{word!r} is not a date: write YYYY-MM-DD") from None
        return frozenset(dates)


class UsualRoundsForm(forms.Form):
    usual_rounds = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=30,
        label="Rounds a night, usually",
        help_text="Where a night's plan starts; empty: the last night's, or a few that fit an "
        "evening.",
    )


class PartnerBalanceForm(forms.Form):
    balance_partner_strength = forms.BooleanField(
        required=False,
        label="Balance partners by strength",
        help_text="Among rotations equally good for the night and the season, choose the one that "
        "makes each player's average partner rating most even (the ratings of the standings).",
    )


class NightForm(forms.Form):
    date = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}))
    venue = forms.CharField(max_length=120, required=False)


class RosterImportForm(forms.Form):
    """A CSV file with a header row naming a ``name`` column (and optionally ``email``)."""

    file = forms.FileField(label="Roster CSV file")

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_ROSTER_BYTES:
            raise forms.ValidationError("the file is larger than 512 KB")
        try:
            text = upload.read().decode("utf-8-sig")
        except UnicodeDecodeError:
            message = "the file is not UTF-8 text (save it as CSV UTF-8)"
            raise forms.ValidationError(message) from None
        if "\x00" in text:  # no text column may hold one (PostgreSQL refuses it)
            raise forms.ValidationError("the file holds a NUL character: save it as CSV text")
        reader = csv.DictReader(io.StringIO(text, newline=""))
        headers = [(name or "").strip().lower() for name in reader.fieldnames or []]
        if "name" not in headers:
            raise forms.ValidationError("the first line must name the columns: name,email")
        reader.fieldnames = headers
        rows = []
        try:
            for record in reader:
                if not any(isinstance(value, str) and value.strip() for value in record.values()):
                    continue  # a blank line
                rows.append((reader.line_num, record.get("name") or "", record.get("email") or ""))
                if len(rows) > MAX_ROSTER_ROWS:
                    raise forms.ValidationError(f"at most {MAX_ROSTER_ROWS} players at a time")
        except csv.Error as error:
            raise forms.ValidationError(f"line {reader.line_num}: {error}") from None
        return rows


SIDE_CHOICES = [("", "—"), ("A", "Side A"), ("B", "Side B")]


class SettleForm(forms.Form):
    """An organiser's decision on a disputed or unconfirmed game."""

    decision = forms.ChoiceField(
        choices=[("confirm", "Confirm the score"), ("correct", "Correct a hand")],
        widget=forms.RadioSelect,
        initial="confirm",
    )
    reason = forms.CharField(max_length=500)
    number = forms.IntegerField(min_value=1, required=False, label="Hand number")
    makers = forms.ChoiceField(choices=SIDE_CHOICES, required=False, label="Side that named trump")
    caller = forms.TypedChoiceField(
        choices=(), coerce=int, required=False, empty_value=None, label="Caller (optional)"
    )
    caller_alone = forms.BooleanField(required=False)
    defender_alone = forms.BooleanField(required=False)
    tricks_won = forms.TypedChoiceField(
        choices=[("", "—")] + [(n, str(n)) for n in range(6)],
        coerce=int,
        required=False,
        empty_value=None,
        label="Tricks the makers took",
    )
    renege = forms.ChoiceField(choices=SIDE_CHOICES, required=False, label="Renege by")
    thrown_in = forms.BooleanField(required=False)
    misdeal = forms.BooleanField(required=False)
    time_called = forms.BooleanField(
        required=False,
        label="Time was called on this hand",
        help_text="A timed rulebook only: the game's last hand (unless level and playing on).",
    )

    def __init__(self, *args, game=None, **kwargs):
        super().__init__(*args, **kwargs)
        if game is not None:
            self.fields["caller"].choices = [("", "—")] + [
                (player.pk, player.name) for player in game.seats
            ]

    def clean(self):
        data = super().clean()
        if data.get("decision") == "correct" and not data.get("number"):
            self.add_error("number", "say which hand to correct")
        return data
