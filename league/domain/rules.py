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
- *game length*: a game is played to a *target score*, for a fixed number of *hands*
  (progressive euchre), or for a number of *minutes* (a *timed* game: the higher score wins).
- *time limit*: minutes after which time is *called* on a game: the hand being played is
  finished, and that hand is the game's last. A game to a target (or of N hands) with a time
  limit ends at whichever comes first. Bar leagues play "to 13 or 20 minutes" and "25 minutes".
- *tie at time*: what a game level when time is called becomes: it *plays on* (the next hand that
  breaks the tie ends it) or it is a *draw*. A bracket game is never drawn: tied at time, it always
  plays on, whatever the rulebook says (a knockout needs a winner).

A :class:`Rulebook` is immutable; a league that changes its rules gets a new version of it.
Presets are the rulebooks of the sources the rules digest names.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from core.errors import DomainError


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
    """To the target score (or the time limit, if there is one, whichever first)."""
    HANDS = "hands"
    """A fixed number of hands (or the time limit, if there is one, whichever first)."""
    TIME = "time"
    """Until time is called, with no target: the higher score wins."""


class TieAtTime(StrEnum):
    """What a game level when time is called becomes."""

    NEXT_HAND = "next_hand"
    """Play on: the next hand that breaks the tie ends the game (hand after hand while level)."""
    DRAW = "draw"
    """The game is recorded as a draw (a half win in the standings)."""


TIME_LIMIT_MINUTES = (1, 180)
"""The shortest and longest time limit, in minutes (three hours: a whole bar night)."""


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
    time_limit_minutes: int | None = None
    """Minutes after which time is called; ``None``: no time limit (required for ``time``)."""
    tie_at_time: TieAtTime = TieAtTime.NEXT_HAND

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
        minutes = self.time_limit_minutes
        if minutes is not None:
            low, high = TIME_LIMIT_MINUTES
            if isinstance(minutes, bool) or not isinstance(minutes, int):
                raise DomainError(
                    "the time limit must be a whole number of minutes", field="time_limit_minutes"
                )
            if not low <= minutes <= high:
                raise DomainError(
                    f"the time limit must be between {low} and {high} minutes",
                    field="time_limit_minutes",
                )
        elif self.game_length is GameLength.TIME:
            raise DomainError(
                "a game played for a time needs its time limit in minutes",
                field="time_limit_minutes",
            )

    @property
    def is_timed(self) -> bool:
        """Whether time can be called on a game (the rulebook has a time limit)."""
        return self.time_limit_minutes is not None

    @property
    def draws_possible(self) -> bool:
        """Whether a game can end level: a game of N hands, or a timed one whose tie is a draw
        (a bracket's games never are: see the module docstring)."""
        return self.game_length is GameLength.HANDS or (
            self.is_timed and self.tie_at_time is TieAtTime.DRAW
        )

    @property
    def length_words(self) -> str:
        """The length of a game in words: "Game to 10", "Game to 13 or 20 minutes",
        "8 hands a game", "25-minute games"."""
        minutes = self.time_limit_minutes
        if self.game_length is GameLength.TIME:
            return f"{minutes}-minute games, the higher score wins"
        if self.game_length is GameLength.HANDS:
            length = f"{self.hands_per_game} hands"
            return f"{length} or {minutes} minutes a game" if minutes else f"{length} a game"
        length = f"Game to {self.target_score}"
        return f"{length} or {minutes} minutes, whichever first" if minutes else length

    @property
    def tie_at_time_words(self) -> str:
        """What a tie at time becomes, in words ("" for an untimed rulebook)."""
        if not self.is_timed:
            return ""
        if self.tie_at_time is TieAtTime.DRAW:
            return "A tie at time is a draw (a bracket game plays one more hand)."
        return "A tie at time plays on: the next hand that breaks it ends the game."

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
            "tie_at_time": TieAtTime,
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
        Preset(
            slug="points-or-time",
            name="To 13 or 20 minutes",
            description=(
                "A bar league's short games: to 13 points or 20 minutes, whichever first; at "
                "time the hand being played is finished and the higher score wins, a tie plays "
                "one more hand."
            ),
            rulebook=Rulebook(target_score=13, time_limit_minutes=20),
        ),
        Preset(
            slug="timed",
            name="25-minute games",
            description=(
                "Games against the clock: 25 minutes, no target; at time the hand being played "
                "is finished and the higher score wins, a tie plays one more hand."
            ),
            rulebook=Rulebook(game_length=GameLength.TIME, time_limit_minutes=25),
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
