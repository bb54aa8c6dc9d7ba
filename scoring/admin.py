from django.contrib import admin

from scoring.models import Game, Hand, ResultChange, StandingGame, StandingLine, StandingSnapshot


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


@admin.register(StandingSnapshot)
class StandingSnapshotAdmin(admin.ModelAdmin):
    """Written by the recompute job; run ``manage.py recompute_standings`` to refresh one."""

    list_display = ["season", "results_version", "computed_at", "duration_ms"]
    readonly_fields = ["season", "results_version", "computed_at", "duration_ms"]
    exclude = ["standings", "ratings", "nights", "basis"]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(StandingLine)
class StandingLineAdmin(DerivedAdmin):
    """One entrant's line of a snapshot, written with it by the recompute job (read only)."""

    list_display = ["season", "kind", "entrant_id"]
    list_filter = ["kind"]
    list_select_related = ["season"]
    readonly_fields = ["season", "kind", "entrant_id", "data"]


@admin.register(StandingGame)
class StandingGameAdmin(DerivedAdmin):
    """One game's share of its season's snapshot, written with it by the recompute (read only)."""

    list_display = ["season", "game_id", "finished_at", "score_a", "score_b", "winner"]
    list_select_related = ["season"]
    readonly_fields = [field.name for field in StandingGame._meta.fields]


@admin.register(ResultChange)
class ResultChangeAdmin(WrittenByServicesAdmin):
    """Changes to results that the next standings recompute folds (read only; an empty list
    means every season's standings are current)."""

    list_display = ["pk", "season", "game", "created_at"]
    list_select_related = ["season", "game"]
    readonly_fields = ["season", "game", "created_at"]
