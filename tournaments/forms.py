"""Forms of the tournaments app's organiser pages: they parse the shape of input, nothing more.

:class:`MoneyRulesForm` is the season's money rules as typed (amounts as "5.00", the shares as
"50, 30, 20"); its fields are derived from :data:`tournaments.domain.pot.SIDE_POT_KINDS`, and
its ``clean`` turns them into the rules' JSON, which the service checks.
"""

from __future__ import annotations

from django import forms

from core.errors import DomainError
from tournaments.domain.pot import (
    BONUS,
    FINE,
    REMAINDER_RULES,
    SIDE_POT_KINDS,
    MoneyRules,
    cents_parse,
    cents_text,
    shares_parse,
)

DIRECTION_CHOICES = [(BONUS, "Bonus: paid from the pot"), (FINE, "Fine: paid into the pot")]


def amount_field_name(kind: str) -> str:
    return f"{kind}_amount"


def direction_field_name(kind: str) -> str:
    return f"{kind}_direction"


class MoneyRulesForm(forms.Form):
    currency = forms.CharField(
        max_length=3, min_length=3, help_text="Its three-letter code: USD, CAD, EUR, GBP …"
    )
    entry_fee = forms.CharField(
        label="Entry fee per player per night",
        max_length=20,
        help_text="In the currency, e.g. 5.00; 0 for none. Every player checked in or seated pays.",
    )
    prize_shares = forms.CharField(
        label="Prize shares by place",
        max_length=200,
        help_text="Whole numbers, first place first, e.g. 50, 30, 20 (the winner half, then 30% "
        "and 20%). Places beyond the night's entrants are dropped.",
    )
    remainder = forms.ChoiceField(label="Leftover cents", choices=list(REMAINDER_RULES.items()))
    is_public = forms.BooleanField(
        label="Show each night's payouts on its public page", required=False
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for kind in SIDE_POT_KINDS:
            self.fields[amount_field_name(kind.outcome)] = forms.CharField(
                label=kind.label, max_length=20, required=False, help_text="Per hand; 0 for none."
            )
            self.fields[direction_field_name(kind.outcome)] = forms.ChoiceField(
                label=f"{kind.label}: paid how", choices=DIRECTION_CHOICES
            )

    @classmethod
    def initial_of(cls, rules: MoneyRules) -> dict:
        initial = {
            "currency": rules.currency,
            "entry_fee": cents_text(rules.entry_fee_cents),
            "prize_shares": ", ".join(str(share) for share in rules.prize_shares),
            "remainder": rules.remainder,
            "is_public": rules.is_public,
        }
        for kind in SIDE_POT_KINDS:
            rule = rules.side_pot(kind.outcome)
            initial[amount_field_name(kind.outcome)] = cents_text(rule.cents if rule else 0)
            initial[direction_field_name(kind.outcome)] = rule.direction if rule else BONUS
        return initial

    def side_pot_rows(self) -> list[tuple]:
        """Each kind's (label, amount field, direction field), for the form's table."""
        return [
            (
                kind.label,
                self[amount_field_name(kind.outcome)],
                self[direction_field_name(kind.outcome)],
            )
            for kind in SIDE_POT_KINDS
        ]

    def clean(self):
        """Amounts in whole cents and the shares as a list, each error on its field; the
        rules' JSON in ``cleaned_data["rules"]`` (the service checks the rules themselves)."""
        cleaned = super().clean()
        cents: dict[str, int] = {}
        for name in ["entry_fee"] + [amount_field_name(kind.outcome) for kind in SIDE_POT_KINDS]:
            if name not in cleaned:
                continue
            try:
                cents[name] = cents_parse(cleaned[name] or "0", name)
            except DomainError as error:
                self.add_error(name, error.message)
        shares = None
        if "prize_shares" in cleaned:
            try:
                shares = shares_parse(cleaned["prize_shares"])
            except DomainError as error:
                self.add_error("prize_shares", error.message)
        if self.errors:
            return cleaned
        cleaned["rules"] = {
            "currency": cleaned["currency"].upper(),
            "entry_fee_cents": cents["entry_fee"],
            "side_pots": [
                {
                    "kind": kind.outcome,
                    "cents": cents[amount_field_name(kind.outcome)],
                    "direction": cleaned[direction_field_name(kind.outcome)],
                }
                for kind in SIDE_POT_KINDS
            ],
            "prize_shares": shares,
            "remainder": cleaned["remainder"],
            "is_public": cleaned["is_public"],
        }
        return cleaned
