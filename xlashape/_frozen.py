"""Value semantics shared by the model classes."""

from __future__ import annotations


class Frozen:
    """Immutable, hashable and equal by value.

    A subclass defines ``_key()``: the tuple of constructor arguments that
    rebuilds it, which is also what equality, hashing and pickling use.
    """

    __slots__ = ()

    def _key(self) -> tuple[object, ...]:
        raise NotImplementedError

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
