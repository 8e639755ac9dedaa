"""XLA's CamelCase names, answered with xlashape's snake_case ones.

An XLA user's first guess at a helper is XLA's own spelling,
``ShapeUtil.ReshapeIsBitcast``, where xlashape has ``reshape_is_bitcast``.
Such a name still raises AttributeError (so ``hasattr`` and ``getattr``
with a default work as ever), one that says which name to use. The
snake_case name is derived from the CamelCase one by rule, never looked up
in a list, so every method is found, those added later included:
:class:`XlaNames` is the metaclass of the static helper classes, and
:func:`missing_attribute` serves the model classes' ``__getattr__``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, NoReturn

__all__ = ["XlaNames", "missing_attribute", "snake_case"]

# Where the words of a CamelCase name meet: a capital after a small letter
# or a digit (ByteSize, Dim0Minor), and the last capital of an acronym
# before a word (XLAShape).
_WORD_BREAK = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def snake_case(name: str) -> str:
    """``name`` in snake_case, split into words where its case changes, an
    acronym kept whole: ``ByteSizeOf`` -> ``byte_size_of``, ``XLAShape`` ->
    ``xla_shape``, ``IsMonotonicWithDim0Minor`` ->
    ``is_monotonic_with_dim0_minor``."""
    return _WORD_BREAK.sub("_", name).lower()


def _one_edit(a: str, b: str) -> bool:
    """Whether ``a`` is ``b`` misspelt by one letter: one changed, dropped
    or added, or two next to each other swapped (``bitcats`` for
    ``bitcast``; never ``prepend`` for ``append``, nor ``compatibleaind``,
    two words run together, for ``compatible``)."""
    if len(a) < len(b):
        a, b = b, a
    if a == b or len(a) - len(b) > 1:
        return False
    start = 0
    while start < len(b) and a[start] == b[start]:
        start += 1
    if len(a) > len(b):
        return a[start + 1 :] == b[start:]
    return a[start + 1 :] == b[start + 1 :] or (
        a[start + 2 :] == b[start + 2 :] and a[start : start + 2] == b[start : start + 2][::-1]
    )


def _suggestion(name: str, public: list[str]) -> str | None:
    """The public name that the CamelCase ``name`` stands for: its
    snake_case form; else the name with its letters and digits, underscores
    aside (``InsertedOrDeleted1SizedDimensions`` ->
    ``inserted_or_deleted_1_sized_dimensions``); else the one name with as
    many words, all but one the same and that one misspelt by one letter
    (never another word: ``PrependMajorDimension`` is not
    ``append_major_dimension``); else None."""
    snake = snake_case(name)
    if snake in public:
        return snake
    letters = snake.replace("_", "")
    for candidate in public:
        if candidate.replace("_", "") == letters:
            return candidate
    words = snake.split("_")
    close = []
    for candidate in public:
        other = candidate.split("_")
        differ = [(a, b) for a, b in zip(words, other) if a != b]
        if len(other) == len(words) and len(differ) == 1 and _one_edit(*differ[0]):
            close.append(candidate)
    return close[0] if len(close) == 1 else None


def missing_attribute(owner: object, name: str) -> NoReturn:
    """Raise the AttributeError for ``name``, which ``owner`` (a class or an
    instance) lacks, in Python's words; for a name with a capital, add the
    public name it stands for, if ``owner`` has one."""
    if isinstance(owner, type):
        cls, subject = owner, f"type object {owner.__name__!r}"
    else:
        cls = type(owner)
        subject = f"{cls.__name__!r} object"
    message = f"{subject} has no attribute {name!r}"
    if not name.startswith("_") and not name.islower():
        hint = _suggestion(name, sorted(n for n in dir(cls) if not n.startswith("_")))
        if hint is not None:
            message += (
                f"; did you mean {cls.__name__}.{hint}? (xlashape spells XLA's names in snake_case)"
            )
    raise AttributeError(message, name=name, obj=owner)


class XlaNames(type):
    """The metaclass of the classes of static helpers (``ShapeUtil``,
    ``LayoutUtil``, ``IndexUtil``): an XLA name they lack raises an
    AttributeError that names xlashape's."""

    # Hidden from type checkers, which would otherwise take any attribute of
    # these classes as valid and stop flagging misspelt ones.
    if not TYPE_CHECKING:

        def __getattr__(cls, name):
            missing_attribute(cls, name)
