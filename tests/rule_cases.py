"""What the rule-case tests share (tests/data/variants/straits.json, cape.json, partisans.json,
seasonal.json, dpjudge_rules.json): a case's request played by `judge adjudicate`'s own code on a
variant the test makes, its results and codes checked; and DPjudge's map files imported as the
catalogue imports them (the tests' copy, never ../shared)."""
from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from judge.adjudicate_cli import adjudicate_request
from judge.engine.variant import Variant, variant_from_data
from judge.language import OrderReader
from judge.variants.importer import import_map

MAPS = Path(__file__).parent / "data" / "dpjudge-maps"


def adjudicated(case: dict[str, Any], make: Callable[[str], Variant]) -> dict[str, Any]:
    """The case's request adjudicated on `make(variant named)`; each order of its `results` must
    succeed or fail (or be absent: null) as it says, with the codes of its `why`."""
    def named(name: str) -> tuple[Variant, OrderReader]:
        variant = make(name)
        return variant, OrderReader(variant)

    response = adjudicate_request(json.loads(json.dumps(case["request"])), named)
    assert "errors" not in response, response.get("errors")
    got = {r["order"]: r for rs in response["results"].values() for r in rs}
    assert {order: got[order]["result"] if order in got else None for order in case["results"]} == case["results"]
    assert {order: got[order].get("why") for order in case.get("why", {})} == case.get("why", {})
    return response


@functools.cache
def _imported_json(map_file: str) -> str:
    data, report, needs = import_map(MAPS / map_file)
    assert not report.errors and not needs, (map_file, report.errors, needs)
    return json.dumps(data)


def imported_data(map_file: str) -> dict[str, Any]:
    """A DPjudge map file as the importer reads it (a fresh copy each call)."""
    return json.loads(_imported_json(map_file))


def imported(map_file: str) -> Variant:
    """A DPjudge map file's variant, imported as the catalogue imports it."""
    return variant_from_data(imported_data(map_file))
