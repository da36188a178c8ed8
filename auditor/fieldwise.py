"""`__repr__` and `__eq__` as `@dataclass` writes them, defined once for many classes.

Python 3.11's `dataclass` compiles a class's `__repr__` and `__eq__` from source with an
`exec` of its own each, at import (for the events alone, a large part of every process's
start). A dataclass declared with `repr=False, eq=False` and
`Fieldwise` among its bases gets these instead, which do what the generated ones do:
`ClassName(field=value!r, ...)` over the fields with `repr=True` (`...` for an object met
again while its own repr is written), and equal when `other` is of the very same class and
the fields with `compare=True` are equal in order (else NotImplemented); no hash, as a
dataclass with `eq=True` that is not frozen has none. For classes whose instances are not
compared on a hot path (these are slower than compiled ones); held to the generated
methods by tests/house/test_lean_audit.py.
"""

from __future__ import annotations

from dataclasses import fields
from reprlib import recursive_repr
from typing import Any

_SHOWN: dict[type, tuple[str, ...]] = {}
_COMPARED: dict[type, tuple[str, ...]] = {}


def _shown(cls: type) -> tuple[str, ...]:
    names = _SHOWN.get(cls)
    if names is None:
        names = _SHOWN[cls] = tuple(f.name for f in fields(cls) if f.repr)
    return names


def _compared(cls: type) -> tuple[str, ...]:
    names = _COMPARED.get(cls)
    if names is None:
        names = _COMPARED[cls] = tuple(f.name for f in fields(cls) if f.compare)
    return names


class Fieldwise:
    """Base of a dataclass declared with repr=False, eq=False: its fields' repr and
    equality, as @dataclass would write them."""

    __slots__ = ()

    @recursive_repr()
    def __repr__(self) -> str:
        return (self.__class__.__qualname__ + "("
                + ", ".join(f"{name}={getattr(self, name)!r}" for name in _shown(self.__class__))
                + ")")

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is self.__class__:
            names = _compared(self.__class__)
            return tuple(getattr(self, name) for name in names) == \
                tuple(getattr(other, name) for name in names)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # as @dataclass(eq=True) leaves it
