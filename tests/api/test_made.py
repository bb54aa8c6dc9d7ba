"""``league.rows.made`` and ``new`` make the instances Django's ``from_db`` and constructor make:
the same attributes, the same state, the same deferred fields; and where a model's construction
does more than set values (a receiver of ``pre_init`` or ``post_init``, a constructor or
``from_db`` of its own, a field attribute that does more than read), it is the model's own
construction that runs."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.db.models import signals
from django.test.utils import isolate_apps
from hypothesis import given
from hypothesis import strategies as st

from league.models import League, Rulebook, Season
from league.rows import _plainly_made, made, new
from scoring.models import Game, Hand, ResultChange
from tournaments.models import Bracket

MODELS = [Game, Season, Rulebook, Hand, ResultChange, League, Bracket, get_user_model()]
VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 2**40),
    st.text(max_size=5),
    st.just(datetime.datetime(2026, 11, 27, 12, tzinfo=datetime.UTC)),
)


def _seen(instance) -> dict:
    state = instance._state
    return {
        "class": type(instance),
        "values": {name: value for name, value in vars(instance).items() if name != "_state"},
        "deferred": instance.get_deferred_fields(),
        "cached": dict(state.fields_cache),
        "adding": state.adding,
        "db": state.db,
    }


@pytest.mark.parametrize("model", MODELS, ids=lambda model: model.__name__)
def test_the_product_s_models_are_made_plainly(model):
    assert _plainly_made(model)


@pytest.mark.parametrize("model", MODELS, ids=lambda model: model.__name__)
@given(data=st.data())
def test_a_row_is_made_as_from_db_makes_it(model, data):
    fields = [field for field in model._meta.concrete_fields if not field.generated]
    chosen = data.draw(st.lists(st.sampled_from(fields), unique=True, min_size=1))
    names = [field.attname for field in fields if field in chosen]  # in the model's order
    values = [data.draw(VALUES) for _ in names]
    assert _seen(made(model, names, values, "default")) == _seen(
        model.from_db("default", names, values)
    )


@pytest.mark.parametrize("model", MODELS, ids=lambda model: model.__name__)
@given(data=st.data())
def test_a_new_instance_is_made_as_the_keyword_constructor_makes_it(model, data):
    fields = [field for field in model._meta.concrete_fields if not field.generated]
    chosen = data.draw(st.lists(st.sampled_from(fields), unique=True))
    # (a default that differs at each call, a time or a token, is given: the two would differ)
    chosen += [field for field in fields if _varies(field) and field not in chosen]
    values = {field.attname: data.draw(VALUES) for field in chosen}
    assert _seen(new(model, values)) == _seen(model(**values))


def _varies(field) -> bool:
    return field.get_default() != field.get_default()


def test_a_model_with_a_listener_is_made_by_its_constructor():
    heard = []

    def listen(sender, **kwargs):
        heard.append(sender)

    for signal in (signals.pre_init, signals.post_init):
        signal.connect(listen, sender=ResultChange)
        try:
            made(ResultChange, ["id", "season_id"], [1, 2], "default")
            new(ResultChange, {"season_id": 2})
        finally:
            signal.disconnect(listen, sender=ResultChange)
        assert heard == [ResultChange, ResultChange]
        heard.clear()
    made(ResultChange, ["id", "season_id"], [1, 2], "default")
    assert heard == []


@isolate_apps("scoring")  # (not in the project's registry, where other tests list the models)
def test_a_model_that_constructs_in_its_own_way_is_made_its_way():
    class Stamped(Game):
        class Meta:
            proxy = True
            app_label = "scoring"

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.stamped = True

    assert not _plainly_made(Stamped)
    assert made(Stamped, ["id"], [4], "default").stamped
    assert new(Stamped, {"season_id": 3}).stamped


def test_values_that_do_not_match_the_names_are_refused():
    with pytest.raises(ValueError, match="2 values for 1 columns"):
        made(Game, ["id"], [1, 2], "default")
