from rest_framework import permissions


class ReadOnlyOrOrganiser(permissions.BasePermission):
    """Reads are public. Writes need a signed-in user; which league they may change is decided by
    the access functions the views call (league.access), so the rule lives in one place."""

    message = "sign in as an organiser of this league to change it"

    def has_permission(self, request, view) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        if getattr(view, "allows_captain_token", False) and request.headers.get("X-Captain-Token"):
            return True
        return bool(request.user and request.user.is_authenticated)
