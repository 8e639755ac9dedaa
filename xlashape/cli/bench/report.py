"""How ``xlashape bench`` shows what it measured: tables built from records.

A measurement is a record (a dict); a :class:`Section` is a list of them with
the :class:`Column` s that show them. The renderers here know nothing of
what was measured, so a new measurement is a new record field and a new
Column, and a new kind of measurement a new Section:

- :func:`text_table`: the terminal form, as wide as allowed (100 columns):
  a key column whose value is the same in every row moves to a line above
  the table, and a table still too wide is cut into panels that each
  repeat the key columns;
- :func:`markdown_table`: every column in one table (``--markdown``);
- :func:`json_document`: every record, as measured (``--json``).

A column with no value in any row is left out, with a line saying why where
its Column knows (``numba M/s: numba not installed``).
"""

from __future__ import annotations

import dataclasses
import textwrap
from collections.abc import Callable, Sequence
from typing import Any

__all__ = [
    "WIDTH", "Column", "Section", "field", "json_document", "markdown_table", "spread_field", "text", "text_table",
    "wrap",
]

WIDTH = 100  # the terminal output's columns
EMPTY = "-"

Record = dict[str, Any]


@dataclasses.dataclass(frozen=True)
class Column:
    """One column: its header, and the text of its cell in a record (None
    where the record has no value for it).

    ``key`` columns say which case a row is (op, layout, N, ...): repeated
    in every panel of a wide table. ``why_empty`` says why no record has a
    value, for the note under a table that leaves the column out."""

    header: str
    cell: Callable[[Record], str | None]
    key: bool = False
    why_empty: Callable[[], str | None] | None = None


def field(name: str, spec: str = "", suffix: str = "", scale: float = 1.0) -> Callable[[Record], str | None]:
    """A cell showing ``record[name] * scale`` formatted by ``spec``, with
    ``suffix``; None where the record has no ``name``."""

    def cell(record: Record) -> str | None:
        if name not in record:
            return None
        value = record[name] if scale == 1.0 else record[name] * scale
        return f"{value:{spec}}{suffix}"

    return cell


def spread_field(name: str, spec: str = "", suffix: str = "") -> Callable[[Record], str | None]:
    """A cell showing ``record[name]`` and, where the record has it, its
    spread ``record[name + "_spread"]`` (low, high) in brackets:
    ``7.6x (6.9-8.1)``; None where the record has no ``name``.

    >>> from xlashape.cli.bench.report import spread_field
    >>> spread_field("speedup", ".1f", "x")({"speedup": 7.6, "speedup_spread": (6.94, 8.1)})
    '7.6x (6.9-8.1)'
    """

    def cell(record: Record) -> str | None:
        if name not in record:
            return None
        value = f"{record[name]:{spec}}{suffix}"
        spread = record.get(name + "_spread")
        if spread is None:
            return value
        low, high = spread
        return f"{value} ({low:{spec}}-{high:{spec}})"

    return cell


@dataclasses.dataclass
class Section:
    """Records of one kind, the columns that show them, and a title."""

    name: str  # its key in the JSON document
    title: str
    columns: Sequence[Column]
    records: list[Record] = dataclasses.field(default_factory=list)

    def cells(self) -> tuple[list[Column], list[list[str]], list[str]]:
        """The columns with a value in some record, their cells, and a note
        for each column left out that knows why it is empty."""
        shown, notes = [], []
        for column in self.columns:
            values = [column.cell(r) for r in self.records]
            if any(v is not None for v in values):
                shown.append(column)
            elif column.why_empty is not None:
                why = column.why_empty()
                if why:
                    notes.append(f"{column.header}: {why}")
        rows = [[text(c.cell(r)) for c in shown] for r in self.records]
        return shown, rows, notes


def text(value: str | None) -> str:
    """A cell's text: its value, or '-' for none."""
    return EMPTY if value is None else value


def _pipe_rows(headers: list[str], rows: list[list[str]], numeric: list[bool]) -> list[str]:
    """A Markdown table, its columns padded to line up."""
    widths = [max([len(h)] + [len(r[k]) for r in rows]) for k, h in enumerate(headers)]

    def line(cells: list[str]) -> str:
        return "| " + " | ".join(
            c.rjust(w) if right else c.ljust(w) for c, w, right in zip(cells, widths, numeric)
        ) + " |"

    rule = "|" + "|".join(("-" * (w + 1) + ":") if right else "-" * (w + 2)
                          for w, right in zip(widths, numeric)) + "|"
    return [line(headers), rule, *map(line, rows)]


def _is_numeric(column: Column, rows: list[list[str]], k: int) -> bool:
    return not column.key or all(r[k][:1].isdigit() for r in rows)


def markdown_table(section: Section) -> list[str]:
    """The section as one Markdown table with every column that has values,
    then its notes."""
    shown, rows, notes = section.cells()
    if not rows:
        return []
    numeric = [_is_numeric(c, rows, k) for k, c in enumerate(shown)]
    return _pipe_rows([c.header for c in shown], rows, numeric) + [f"{n}." for n in notes]


def text_table(section: Section, width: int = WIDTH) -> list[str]:
    """The section for a terminal ``width`` columns wide: key columns of one
    value in every row said once above, the rest cut into panels that each
    repeat the key columns, then the notes."""
    shown, rows, notes = section.cells()
    if not rows:
        return []
    constant = [k for k, c in enumerate(shown) if c.key and len(rows) > 1
                and len({r[k] for r in rows}) == 1]
    lines = []
    if constant:
        lines += wrap("all rows: " + ", ".join(f"{shown[k].header} {rows[0][k]}" for k in constant), width)
    keep = [k for k in range(len(shown)) if k not in constant]
    keys = [k for k in keep if shown[k].key]
    values = [k for k in keep if not shown[k].key]
    numeric = {k: _is_numeric(shown[k], rows, k) for k in keep}

    def table(columns: list[int]) -> list[str]:
        return _pipe_rows([shown[k].header for k in columns], [[row[k] for k in columns] for row in rows],
                          [numeric[k] for k in columns])

    panel: list[int] = []
    for k in values:
        if panel and len(table(keys + panel + [k])[0]) > width:
            lines += table(keys + panel) + [""]
            panel = []
        panel.append(k)
    lines += table(keys + panel)
    return lines + wrap(" ".join(f"{n}." for n in notes), width)


def wrap(prose: str, width: int = WIDTH) -> list[str]:
    """``prose`` as lines of at most ``width`` columns (none for none)."""
    return textwrap.wrap(prose, width, break_on_hyphens=False) if prose else []


def json_document(machine: dict[str, Any], sections: Sequence[Section], **extra: Any) -> dict[str, Any]:
    """Everything measured: the machine, each section's records under its
    name, and ``extra`` (such as ``interrupted``)."""
    return {"machine": machine, **{s.name: s.records for s in sections}, **extra}
