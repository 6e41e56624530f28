"""A quicker `__init__` for the engine's small frozen values (orders, locations, units, outcomes).

A frozen dataclass sets each field through `object.__setattr__`, looked up anew for every field;
a phase builds a few hundred such values, and that was a tenth of adjudicating it. With `slots`,
each field is a slot whose setter can be fetched once, when the class is made, and called
directly: the same object, built in about half the time. The values stay frozen (assignment
still raises), compare and hash as before; only the way `__init__` fills the slots changes.

Each such class writes its `__init__` out (plain assignments) and is passed to `quick_init` after its
body, not decorated: so mypyc (judge/engine/compiled.py) compiles it as a native class, whose
`__init__` stores each field straight into the object, and `quick_init` leaves it alone. A class
decorated with anything but `dataclass` would be a plain Python class to mypyc, its dataclass
`__init__` interpreted: the values a phase makes by the hundred built as slowly as pure Python.
"""
from __future__ import annotations

import copyreg
import dataclasses
from types import FunctionType
from typing import Any, TypeVar

T = TypeVar("T")


def quick_init(cls: type[T]) -> type[T]:
    """Give a frozen, slotted dataclass an `__init__` that fills its slots directly.

    Only for plain fields (no default factory, no `__post_init__`, every field in `__init__`):
    anything else is refused when the class is made, not found out later. A class compiled by mypyc
    (its `__init__` native already, its type not to be changed) is returned as it is, copied and
    pickled by its fields."""
    if not isinstance(cls.__dict__.get("__init__"), FunctionType):
        # (a native object is made by calling its __init__: pickle's and copy's default make it bare)
        copyreg.pickle(cls, _by_fields)
        return cls
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]  # a dataclass, checked here at import
    if not getattr(cls, "__slots__", None) or hasattr(cls, "__post_init__") or any(
            not f.init or f.kw_only or f.default_factory is not dataclasses.MISSING for f in fields):
        raise TypeError(f"quick_init: {cls.__name__} is not a plain frozen slotted dataclass")
    names = [f.name for f in fields]
    scope: dict[str, Any] = {f"_set_{n}": getattr(cls, n).__set__ for n in names}
    params = []
    for f in fields:
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            scope[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
    lines = [f"def __init__(self, {', '.join(params)}):"] + [f"    _set_{n}(self, {n})" for n in names]
    # the source is made here from the field names alone, as `dataclasses` makes its own __init__
    exec("\n".join(lines), scope)
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    setattr(cls, "__init__", init)  # noqa: B010  (mypy refuses a method assigned)
    return cls


def _by_fields(value: Any) -> tuple[type, tuple[Any, ...]]:
    """How pickle and copy make a compiled value again: its class called with its fields."""
    return type(value), tuple(getattr(value, f.name) for f in dataclasses.fields(value))
