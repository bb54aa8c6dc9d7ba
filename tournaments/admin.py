"""Admin for superusers. Brackets and nights change through their services (the organiser pages
and the API), which keep the plan consistent, so these screens are for looking, not editing or
deleting (a bracket is archived, not deleted)."""

from django.contrib import admin

from league.admin import ReadOnlyAdmin
from tournaments.models import (
    Bracket,
    BracketCorrection,
    BracketEntry,
    BracketMatch,
    BracketMatchGame,
    NightEmail,
    NightPlan,
    PlannedRound,
    RoundClock,
    SeasonMoney,
    Seat,
    TableCard,
    TeamSchedule,
)


class BracketEntryInline(admin.TabularInline):
    model = BracketEntry
    extra = 0
    can_delete = False
    readonly_fields = [
        "seed",
        "team",
        "standing_rank",
        "standing_reason",
        "standing_reason_short",
        "withdrawn_at",
    ]
    fields = readonly_fields

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Bracket)
class BracketAdmin(ReadOnlyAdmin):
    list_display = ["name", "season", "kind", "best_of", "status", "published_at", "archived_at"]
    list_filter = ["kind", "status"]
    search_fields = ["name", "season__name"]
    inlines = [BracketEntryInline]


@admin.register(BracketEntry)
class BracketEntryAdmin(ReadOnlyAdmin):
    list_display = ["bracket", "seed", "team", "withdrawn_at"]


@admin.register(BracketMatch)
class BracketMatchAdmin(ReadOnlyAdmin):
    list_display = ["bracket", "code", "round", "part", "first_team", "second_team", "winner"]
    list_filter = ["part", "status"]


@admin.register(BracketMatchGame)
class BracketMatchGameAdmin(ReadOnlyAdmin):
    list_display = ["match", "game", "number", "status"]


@admin.register(BracketCorrection)
class BracketCorrectionAdmin(ReadOnlyAdmin):
    list_display = ["bracket", "created_at"]


@admin.register(NightPlan)
class NightPlanAdmin(ReadOnlyAdmin):
    list_display = ["night", "rounds", "hands_per_game", "status", "updated_at"]
    list_filter = ["status"]


@admin.register(PlannedRound)
class PlannedRoundAdmin(ReadOnlyAdmin):
    list_display = ["plan", "number", "status", "started_at", "finished_at"]


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = ["round", "player", "table_number", "seat"]


@admin.register(TeamSchedule)
class TeamScheduleAdmin(ReadOnlyAdmin):
    list_display = ["season", "cycles", "rounds_per_night", "created_at"]


@admin.register(TableCard)
class TableCardAdmin(ReadOnlyAdmin):
    list_display = ["night", "number", "created_at"]
    list_select_related = ["night__season"]


@admin.register(SeasonMoney)
class SeasonMoneyAdmin(ReadOnlyAdmin):
    """Money rules change on the season's money page, which checks them (the pot's domain)."""

    list_display = ["season", "updated_at"]
    list_select_related = ["season"]


@admin.register(NightEmail)
class NightEmailAdmin(ReadOnlyAdmin):
    """What the night's emails sent (tournaments.services.mail): read only."""

    list_display = ["night", "player", "kind", "number", "email", "sent_at"]
    list_filter = ["kind"]


@admin.register(RoundClock)
class RoundClockAdmin(ReadOnlyAdmin):
    """Clocks are started, extended and stopped from the night desk, a bracket's page or the API
    (``tournaments.services.clocks``, audited)."""

    list_display = ["night", "bracket", "round_number", "started_at", "minutes", "stopped_at"]
    list_select_related = ["night__season", "bracket"]
