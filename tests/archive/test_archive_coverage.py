"""The archive holds every kind of row the league's apps store, each reached from its league,
after the rows it refers to; a new model or reference breaks this test until the archive (and
its format version, see tournaments.domain.archive) says what becomes of it."""

import pytest
from django.apps import apps
from django.conf import settings

from tournaments.domain.archive import ACCOUNTS, ARCHIVE_MODELS, LEFT_BEHIND, MODEL_ORDER

SELF_REFERENCES = {("league.rulebook", "previous"), ("scoring.hand", "replaced_by")}
"""References to a row of the same kind, possibly a later one (checked at the import's end)."""


def test_every_model_of_the_league_apps_is_archived():
    stored = {
        model._meta.label_lower
        for app in ("league", "scoring", "standings", "tournaments")
        for model in apps.get_app_config(app).get_models()
    }
    archived = {label for label, _ in ARCHIVE_MODELS}
    assert stored - LEFT_BEHIND == archived - {ACCOUNTS}
    assert not LEFT_BEHIND & archived
    assert len(archived) == len(ARCHIVE_MODELS)
    assert settings.AUTH_USER_MODEL.lower() == ACCOUNTS


@pytest.mark.parametrize(("label", "path"), [entry for entry in ARCHIVE_MODELS if entry[1]])
def test_each_kind_reaches_its_league(label, path):
    if path == "pk":
        assert label == "league.league"
        return
    for one in path.split("|"):  # either of two paths (a night's or a bracket's row)
        model = apps.get_model(label)
        for name in one.split("__"):
            model = model._meta.get_field(name).related_model
        assert model is apps.get_model("league.league"), one


@pytest.mark.parametrize("label", [label for label, _ in ARCHIVE_MODELS])
def test_each_reference_is_to_an_archived_row_written_before(label):
    model = apps.get_model(label)
    for field in model._meta.concrete_fields:
        if not field.is_relation:
            continue
        target = field.related_model._meta.label_lower
        assert target in MODEL_ORDER, (label, field.name, target)
        if (label, field.name) in SELF_REFERENCES:
            assert target == label
        else:
            assert MODEL_ORDER[target] < MODEL_ORDER[label], (label, field.name, target)
