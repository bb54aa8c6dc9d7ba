from django.contrib import admin

from league.models import (
    ApiToken,
    Attendance,
    AuditEntry,
    EmailConsent,
    Invitation,
    League,
    LeagueRole,
    Night,
    Player,
    Rsvp,
    Rulebook,
    Season,
    SelfCheckIn,
    Team,
)


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows the services alone write (records, trails): read here, never added, changed or
    deleted."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ArchivedNotDeletedAdmin(admin.ModelAdmin):
    """Seasons and nights are archived, never deleted (their games and hands are a league's
    record): the workspace's and the API's archive and restore do it, audited. Here they can be
    read and edited, not deleted."""

    readonly_fields = ["archived_at", "archived_by"]

    def has_delete_permission(self, request, obj=None):
        return False


class LeagueRoleInline(admin.TabularInline):
    model = LeagueRole
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "created_at"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [LeagueRoleInline]


@admin.register(Rulebook)
class RulebookAdmin(admin.ModelAdmin):
    list_display = ["name", "version", "league", "preset", "created_at"]
    list_filter = ["preset"]
    search_fields = ["name"]
    readonly_fields = ["previous", "created_by", "created_at"]

    def has_change_permission(self, request, obj=None):
        # A rulebook in use is never edited in place: change a season's rules instead.
        return obj is None or not obj.seasons.exists()


@admin.register(Season)
class SeasonAdmin(ArchivedNotDeletedAdmin):
    list_display = ["name", "league", "format", "rulebook", "starts_on", "archived_at"]
    list_filter = ["format", "league"]
    search_fields = ["name", "league__name"]
    readonly_fields = ["results_version", *ArchivedNotDeletedAdmin.readonly_fields]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "league", "is_active"]
    list_filter = ["league", "is_active"]
    search_fields = ["name", "email"]


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["name", "season", "player_one", "player_two", "is_withdrawn"]
    list_filter = ["season"]
    search_fields = ["name"]
    autocomplete_fields = ["player_one", "player_two"]


@admin.register(Night)
class NightAdmin(ArchivedNotDeletedAdmin):
    list_display = ["season", "date", "venue", "status", "archived_at"]
    list_filter = ["status", "season"]


@admin.register(Attendance)
class AttendanceAdmin(admin.ModelAdmin):
    list_display = ["night", "player", "checked_in_at", "left_at"]
    autocomplete_fields = ["player"]


@admin.register(SelfCheckIn)
class SelfCheckInAdmin(admin.ModelAdmin):
    """Check-ins at a night's door (the attendance itself is the Attendance row)."""

    list_display = ["night", "player", "created_at", "refused_at"]
    autocomplete_fields = ["player"]
    readonly_fields = ["device"]


@admin.register(Rsvp)
class RsvpAdmin(admin.ModelAdmin):
    list_display = ["night", "player", "answer", "updated_at"]
    list_filter = ["answer"]
    autocomplete_fields = ["player"]


@admin.register(LeagueRole)
class LeagueRoleAdmin(admin.ModelAdmin):
    list_display = ["league", "user", "role", "created_at"]
    list_filter = ["role"]


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ["league", "email", "invited_by", "created_at", "accepted_by", "accepted_at"]
    readonly_fields = ["token", "invited_by", "accepted_by", "accepted_at"]


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    """The audit trail is written by the services only: read it here, never change it."""

    list_display = ["created_at", "league", "season", "actor_label", "action", "target_type"]
    list_filter = ["action", "league"]
    search_fields = ["reason", "actor_label"]


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Organisers' API tokens: made on /manage/tokens/ (the key is shown once, there); here they
    can be read and revoked (``revoked_at``), never made or shown."""

    list_display = ["name", "user", "prefix", "created_at", "last_used_at", "revoked_at"]
    search_fields = ["name", "user__username", "prefix"]
    readonly_fields = ["user", "name", "digest", "prefix", "created_at", "last_used_at"]

    def has_add_permission(self, request):
        return False


@admin.register(EmailConsent)
class EmailConsentAdmin(ReadOnlyAdmin):
    """Consents to the league's emails: a record of what each player agreed to and when, written
    by the services only (the organiser's player page, the player's sign-up and unsubscribe
    links). Read here, never changed."""

    list_display = ["player", "email", "source", "consented_at", "confirmed_at", "ending"]
    list_filter = ["source", "ending"]
    search_fields = ["player__name", "email"]
