"""Routers whose detail routes take only ids: ``/games/abc/`` and ``/games/99999999999999999999/``
are 404 at routing, before any view parses the id. Eighteen digits stay inside PostgreSQL's
bigint (9,223,372,036,854,775,807 has nineteen), so no id a router passes can overflow a query."""

from rest_framework.routers import DefaultRouter, SimpleRouter

ID_REGEX = r"[0-9]{1,18}"


class IdRoutesMixin:
    def get_lookup_regex(self, viewset, lookup_prefix=""):
        if not hasattr(viewset, "lookup_value_regex"):
            viewset.lookup_value_regex = ID_REGEX
        return super().get_lookup_regex(viewset, lookup_prefix)


class IdRouter(IdRoutesMixin, DefaultRouter):
    pass


class IdSimpleRouter(IdRoutesMixin, SimpleRouter):
    pass
