from django.contrib import admin

from scoring.models import Game, Hand, StandingLine, StandingSnapshot


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
        "points_a",
        "points_b",
        "change_reason",
    ]
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False  # hands are written by the scoring services, which keep history


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    """Games change through the scoring services (captain pages, the workspace, the API), which
    keep scores derived, audit corrections and tell brackets and standings: here they are read."""

    list_display = ["id", "season", "status", "score_a", "score_b", "winner", "confirmation"]
    list_filter = ["status", "confirmation", "season"]
    exclude = ["captain_token"]
    inlines = [HandInline]

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ["game", "number", "status", "outcome", "points_a", "points_b", "created_at"]
    list_filter = ["status", "outcome", "source"]
    raw_id_fields = ["game", "caller", "replaced_by", "rulebook"]

    def has_change_permission(self, request, obj=None):
        return False  # corrections go through the services, which keep the old row

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(StandingSnapshot)
class StandingSnapshotAdmin(admin.ModelAdmin):
    """Written by the recompute job; run ``manage.py recompute_standings`` to refresh one."""

    list_display = ["season", "results_version", "computed_at", "duration_ms"]
    readonly_fields = ["season", "results_version", "computed_at", "duration_ms"]
    exclude = ["standings", "player_stats", "team_stats", "ratings", "nights"]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(StandingLine)
class StandingLineAdmin(admin.ModelAdmin):
    """One entrant's line of a snapshot, written with it by the recompute job (read only)."""

    list_display = ["season", "kind", "entrant_id"]
    list_filter = ["kind"]
    list_select_related = ["season"]
    readonly_fields = ["season", "kind", "entrant_id", "data"]

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False
