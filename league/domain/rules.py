"""The rulebook: a league's scoring rules as plain data.

Words used here (see ``shared/EUCHRE-RULES.md``):

- *makers*: the side that named trump; the other side are the *defenders*.
- *make*: the makers take 3 or 4 tricks. *march* (or sweep): the makers take all 5.
- *lone caller*: the maker who named trump and went alone (partner sits out). *lone make* and
  *lone march* are the make and march of a lone caller.
- *euchre*: the makers take 0–2 tricks; the defenders score.
- *lone defender*: a defender who went alone against the makers, where the rulebook allows it.
- *renege*: a failure to follow suit when able, caught and claimed; the rulebook says what it costs.
- *stick the dealer*: when all four pass twice the dealer must name trump; with it off such a hand
  is *thrown in* and the deal passes.
- *game length*: a game is played to a *target score*, or for a fixed number of *hands*
  (progressive euchre).

A :class:`Rulebook` is immutable; a league that changes its rules gets a new version of it.
Presets are the rulebooks of the sources the rules digest names.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from league.errors import DomainError


class DefenderAlone(StrEnum):
    """When a defender may go alone against the makers."""

    NEVER = "never"
    ALWAYS = "always"
    AGAINST_LONE_CALLER = "against_lone_caller"


class RenegePenalty(StrEnum):
    """What a caught renege costs (it replaces the hand's own result)."""

    AWARD_INNOCENT = "award_innocent"
    """The hand is played out; the innocent side scores the penalty instead of the hand's result."""
    DEDUCT_GUILTY = "deduct_guilty"
    """The guilty side loses the penalty from its score; nobody scores the hand."""
    HAND_ENDS = "hand_ends"
    """Play stops at the renege (no trick count); the innocent side scores the penalty."""


class GameLength(StrEnum):
    TARGET = "target"
    HANDS = "hands"


@dataclass(frozen=True)
class Rulebook:
    """Every scoring option a league can choose; the defaults are the card-games book's rules."""

    make_points: int = 1
    march_points: int = 2
    lone_make_points: int = 1
    lone_march_points: int = 4
    euchre_points: int = 2
    lone_caller_euchred_points: int = 2
    lone_defender_euchre_points: int = 4
    defender_alone: DefenderAlone = DefenderAlone.NEVER
    stick_the_dealer: bool = False
    renege_penalty: RenegePenalty = RenegePenalty.AWARD_INNOCENT
    renege_points: int = 2
    renege_points_alone: int = 4
    game_length: GameLength = GameLength.TARGET
    target_score: int = 10
    hands_per_game: int = 8
    dealer_partner_must_go_alone: bool = False

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if field.type == "int" and (not isinstance(value, int) or isinstance(value, bool)):
                raise DomainError(f"{field.name} must be a whole number", field=field.name)
        for name in (
            "make_points",
            "march_points",
            "lone_make_points",
            "lone_march_points",
            "euchre_points",
            "lone_caller_euchred_points",
            "lone_defender_euchre_points",
            "renege_points",
            "renege_points_alone",
        ):
            if not 0 <= getattr(self, name) <= 20:
                raise DomainError(f"{name} must be between 0 and 20 points", field=name)
        if not 1 <= self.target_score <= 100:
            raise DomainError("the target score must be between 1 and 100", field="target_score")
        if not 1 <= self.hands_per_game <= 100:
            raise DomainError("hands per game must be between 1 and 100", field="hands_per_game")

    @classmethod
    def from_options(cls, options: dict[str, Any]) -> Rulebook:
        """Build a rulebook from stored or submitted options; unknown names are an error."""
        known = {field.name: field for field in dataclasses.fields(cls)}
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise DomainError(f"unknown rulebook option: {', '.join(unknown)}", field=unknown[0])
        values: dict[str, Any] = {}
        enums = {
            "defender_alone": DefenderAlone,
            "renege_penalty": RenegePenalty,
            "game_length": GameLength,
        }
        for name, value in options.items():
            if name in enums:
                try:
                    value = enums[name](value)
                except ValueError:
                    choices = ", ".join(member.value for member in enums[name])
                    raise DomainError(f"{name} must be one of: {choices}", field=name) from None
            elif known[name].type == "bool" and not isinstance(value, bool):
                raise DomainError(f"{name} must be true or false", field=name)
            values[name] = value
        return cls(**values)

    def to_options(self) -> dict[str, Any]:
        """The options as JSON-able data (enums as their values)."""
        return {
            field.name: (
                getattr(self, field.name).value
                if isinstance(getattr(self, field.name), StrEnum)
                else getattr(self, field.name)
            )
            for field in dataclasses.fields(self)
        }


@dataclass(frozen=True)
class Preset:
    slug: str
    name: str
    description: str
    rulebook: Rulebook


PRESETS: dict[str, Preset] = {
    preset.slug: preset
    for preset in (
        Preset(
            slug="standard",
            name="Standard",
            description=(
                "The card-games book: game to 10, march 2, lone march 4, euchre 2 "
                "(a lone caller too), no lone defenders, no stick the dealer."
            ),
            rulebook=Rulebook(),
        ),
        Preset(
            slug="csl",
            name="Cincinnati Sports Leagues",
            description=(
                "A real bar league: game to 10, stick the dealer, a euchred lone caller gives 4, "
                "a defender may go alone against a lone caller (euchre 4)."
            ),
            rulebook=Rulebook(
                lone_caller_euchred_points=4,
                lone_defender_euchre_points=4,
                defender_alone=DefenderAlone.AGAINST_LONE_CALLER,
                stick_the_dealer=True,
            ),
        ),
        Preset(
            slug="family",
            name="Family rules",
            description=(
                "A family rule sheet: game to 10, a defender may always go alone and scores 4 "
                "for a euchre, no stick the dealer."
            ),
            rulebook=Rulebook(
                defender_alone=DefenderAlone.ALWAYS,
                lone_defender_euchre_points=4,
            ),
        ),
        Preset(
            slug="progressive",
            name="Progressive (8 hands)",
            description=(
                "Progressive euchre nights: 8 hands a game with no target, stick the dealer, "
                "standard points."
            ),
            rulebook=Rulebook(
                game_length=GameLength.HANDS,
                hands_per_game=8,
                stick_the_dealer=True,
            ),
        ),
    )
}


def preset_rulebook(slug: str) -> Rulebook:
    try:
        return PRESETS[slug].rulebook
    except KeyError:
        raise DomainError(
            f"no rulebook preset called {slug!r}; choose one of: {', '.join(PRESETS)}",
            field="rulebook",
        ) from None
