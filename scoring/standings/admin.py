from django.contrib import admin

from scoring.games.admin import DerivedAdmin
from scoring.standings.models import StandingGame, StandingLine, StandingSnapshot


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
