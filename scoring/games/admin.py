from django.contrib import admin

from scoring.games.models import Game, Hand, ResultChange


class DerivedAdmin(admin.ModelAdmin):
    """Rows the scoring services or the recompute write: neither added nor changed here (an
    organiser may still delete one; the next recompute writes it again)."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class WrittenByServicesAdmin(DerivedAdmin):
    """Rows only the scoring services write, and keep: read here, never deleted."""

    def has_delete_permission(self, request, obj=None):
        return False


class HandInline(admin.TabularInline):
    model = Hand
    fk_name = "game"
    extra = 0
    can_delete = False
    fields = [
        "number",
        "status",
        "makers",
        "caller_alone",
        "defender_alone",
        "tricks_won",
        "renege",
        "thrown_in",
        "time_called",
        "points_a",
        "points_b",
        "change_reason",
    ]
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False  # hands are written by the scoring services, which keep history


@admin.register(Game)
class GameAdmin(WrittenByServicesAdmin):
    """Games change through the scoring services (captain pages, the workspace, the API), which
    keep scores derived, audit corrections and tell brackets and standings: here they are read."""

    list_display = ["id", "season", "status", "score_a", "score_b", "winner", "confirmation"]
    list_filter = ["status", "confirmation", "season"]
    exclude = ["captain_token"]
    inlines = [HandInline]


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ["game", "number", "status", "outcome", "points_a", "points_b", "created_at"]
    list_filter = ["status", "outcome", "source"]
    raw_id_fields = ["game", "caller", "replaced_by", "rulebook"]

    def has_change_permission(self, request, obj=None):
        return False  # corrections go through the services, which keep the old row

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(ResultChange)
class ResultChangeAdmin(WrittenByServicesAdmin):
    """Changes to results that the next standings recompute folds (read only; an empty list
    means every season's standings are current)."""

    list_display = ["pk", "season", "game", "created_at"]
    list_select_related = ["season", "game"]
    readonly_fields = ["season", "game", "created_at"]
