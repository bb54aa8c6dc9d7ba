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
