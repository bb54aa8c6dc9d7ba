"""Query filters of the API lists, parsed by django-filter: ``?season=abc`` or ``?status=nope`` is
a 400 in the API's error shape (never a query with junk in it), and each filter is documented in
the schema. An id filter takes a whole number from 1 to the largest bigint."""

import django_filters
from django import forms
from rest_framework.exceptions import ValidationError

from league.models import MAX_ID


class IdField(forms.IntegerField):
    def __init__(self, **kwargs):
        super().__init__(min_value=1, max_value=MAX_ID, **kwargs)


class IdFilter(django_filters.NumberFilter):
    field_class = IdField


def id_filter(field_name: str, help_text: str) -> IdFilter:
    return IdFilter(field_name=field_name, label=help_text)


class LeagueScopedFilter(django_filters.FilterSet):
    league = id_filter("league_id", "only this league's")


class SeasonScopedFilter(django_filters.FilterSet):
    season = id_filter("season_id", "only this season's")


def filtered(request, queryset, filterset_class):
    """The queryset narrowed by the request's query filters, for views that are not generic."""
    filterset = filterset_class(request.query_params, queryset=queryset, request=request)
    if not filterset.is_valid():
        raise ValidationError(filterset.errors)
    return filterset.qs


class StrictBooleanField(forms.NullBooleanField):
    """``true``/``false`` (or ``1``/``0``), else a 400: not Django's silent "unknown" (its
    select widget reads any other value as none)."""

    widget = forms.TextInput

    def to_python(self, value):
        if value in (None, ""):
            return None
        if str(value).lower() in ("true", "1"):
            return True
        if str(value).lower() in ("false", "0"):
            return False
        raise forms.ValidationError("true or false")


class StrictBooleanFilter(django_filters.BooleanFilter):
    field_class = StrictBooleanField


class ArchivedFilter(django_filters.FilterSet):
    """``?archived=true``: only the archived rows of the leagues the signed-in user organises
    (none for anyone else); by default, or ``false``, only the rows in use. Rows archived through
    their season count as archived only with ``?archived=true`` and their season's filter."""

    archived = StrictBooleanFilter(
        method="keep",
        label="true: only the archived ones of the leagues you organise (none unless you "
        "organise one); false, the default: only the ones in use",
    )
    league_path = "season__league"

    def keep(self, queryset, name, value):
        return queryset  # applied in filter_queryset, also when the parameter is absent

    def filter_queryset(self, queryset):
        if not self.form.cleaned_data.get("archived"):
            return super().filter_queryset(queryset.not_archived())
        user = getattr(self.request, "user", None)
        if user is None or not user.is_authenticated:
            return queryset.none()
        queryset = queryset.filter(archived_at__isnull=False)
        if not user.is_superuser:
            queryset = queryset.filter(**{f"{self.league_path}__roles__user": user})
        return super().filter_queryset(queryset)


class LeagueScopedArchivedFilter(ArchivedFilter, LeagueScopedFilter):
    league_path = "league"


class SeasonScopedArchivedFilter(ArchivedFilter, SeasonScopedFilter):
    pass
