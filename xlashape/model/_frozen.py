"""Value semantics shared by the model classes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._xla_names import missing_attribute


class Frozen:
    """Immutable, hashable and equal by value; an XLA spelling of an
    attribute (``IsArray``) raises an AttributeError naming xlashape's.

    A subclass defines ``_key()``: the tuple of constructor arguments that
    rebuilds it, which is also what equality, hashing and pickling use.
    """

    __slots__ = ()

    def _key(self) -> tuple[object, ...]:
        raise NotImplementedError

    # An XLA name (shape.IsArray) raises an AttributeError naming xlashape's;
    # hidden from type checkers, which would otherwise stop flagging misspelt
    # attributes.
    if not TYPE_CHECKING:

        def __getattr__(self, name):
            if hasattr(type(self), name):  # a property that raised AttributeError: its error
                return object.__getattribute__(self, name)
            missing_attribute(self, name)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; cannot delete {name!r}")

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash((type(self).__name__,) + self._key())

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), self._key())
