"""The engine's small frozen values (orders, locations, units, dislodged units, outcomes) copy, pickle,
compare, hash and refuse assignment alike whether the engine is the pure one or the compiled one
(judge.engine.quick_init: compiled, they are native classes with an `__init__` of their own, which
pickle and copy would call bare but for the reducer `quick_init` registers). Run both ways: plainly,
and with JUDGE_COMPILED_ENGINE pointing at a build (bin/compile-engine)."""
from __future__ import annotations

import copy
import dataclasses
import json
import pickle
from pathlib import Path

import pytest

from judge.engine import DislodgedUnit, Location, Unit, UnitKind, load_variant
from judge.engine.notation import parse_order
from judge.engine.outcomes import Outcome, Reason, Why

ORDERS = json.loads((Path(__file__).parent / "data" / "engine_values.json").read_text(encoding="utf-8"))["orders"]
VARIANT = load_variant("standard")


def values_of(text: str) -> list[object]:
    order = parse_order(VARIANT, text)
    where = getattr(order, "location", None) or getattr(getattr(order, "unit", None), "location", None)
    values: list[object] = [order, Outcome("FRANCE", order, False, Reason.BOUNCED, Why.OWN_UNIT, ("bur",),
                                           ("bur", "mar"), "gas", True)]
    if where is not None:
        unit = Unit("FRANCE", UnitKind.FLEET, where)
        values += [where, unit, DislodgedUnit(unit, "bur", (Location("gas"),), True)]
    return values


@pytest.mark.parametrize("text", ORDERS)
def test_each_value_copies_pickles_and_stays_frozen(text):
    for value in values_of(text):
        for again in (copy.copy(value), copy.deepcopy(value), pickle.loads(pickle.dumps(value))):
            assert again == value and hash(again) == hash(value) and type(again) is type(value)
            assert repr(again) == repr(value)
        fields = dataclasses.fields(value)
        if fields:
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(value, fields[0].name, None)
            changed = dataclasses.replace(value, **{fields[0].name: getattr(value, fields[0].name)})
            assert changed == value
