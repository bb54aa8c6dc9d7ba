"""The API's stats line (``PlayerStatsLine`` in the OpenAPI schema) has the fields of the domain's
``STATS_LINE``, in its order, each typed by its kind: a stat declared there and missing here
fails, and so does one out of today's order."""

import pytest

from scoring.standings.domain.stats import STATS_LINE, STATS_LINE_NAMES
from tests.domain.test_stats_line import TODAY

TYPES = {
    "count": {"type": "integer"},
    "points": {"type": "number", "format": "double"},
    "average": {"type": "number", "format": "double"},
}


@pytest.fixture(scope="module")
def component():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    operation = schema["paths"]["/api/v1/seasons/{id}/players/{player_id}/stats/"]["get"]
    ref = operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    season = schema["components"]["schemas"][ref.rsplit("/", 1)[1]]
    ref = season["properties"]["stats"]["allOf"][0]["$ref"]  # nullable: allOf the line
    return schema["components"]["schemas"][ref.rsplit("/", 1)[1]]


def test_the_stats_line_in_the_schema_is_the_declared_one(component):
    properties = component["properties"]
    assert list(properties) == ["player_id", *STATS_LINE_NAMES, "partners", "opponents"]
    assert list(properties) == ["player_id", *TODAY, "partners", "opponents"]
    assert sorted(component["required"]) == sorted(properties)
    for stat in STATS_LINE:
        expected = dict(TYPES[stat.kind])
        if stat.description:
            expected["description"] = stat.description
        assert properties[stat.name] == expected, stat.name
