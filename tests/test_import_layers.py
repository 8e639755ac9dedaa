"""The package's layers import downwards only, and no module imports itself
back through others.

Every import counts: at module level or inside a function, in the Python
modules and in the Cython ones (``import``, ``from ... import`` and
``cimport`` lines of the .pyx and .pxd files). Only imports under ``if
TYPE_CHECKING:`` are left out, since they never run. The layers are those
xlashape's ``__init__`` names, each subpackage's ``__init__`` saying what
it may import; a module may import its own part of a layer and the layers
below, never a layer above or another part of its own layer.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "xlashape"

# From the bottom up. A layer's parts (a subpackage or a module kept at its
# documented path) do not import each other.
LAYERS: list[tuple[str, ...]] = [
    ("xlashape.errors",),
    ("xlashape._validate",),
    ("xlashape.model", "xlashape.reference"),
    ("xlashape.core",),
    ("xlashape.cpu", "xlashape.shapes"),
    ("xlashape.xla", "xlashape.linear", "xlashape.dask"),
    ("xlashape.pictures", "xlashape.drop_ins"),
    ("xlashape",),  # the package's own __init__: the public names
    ("xlashape.cli",),
    ("xlashape.__main__",),
]

# A Cython import: ``from X cimport/import a, b`` (or ``(a,\n b)``) or ``cimport/import X``.
_CYTHON_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+(?P<base>\.*[\w.]*)[ \t]+c?import[ \t]+(?P<names>\([^)]*\)|[\w, \t]+)"
    r"|c?import[ \t]+(?P<module>[\w.]+))",
    re.MULTILINE,
)


def module_files(package: Path = PACKAGE) -> dict[str, list[Path]]:
    """Every module of the package, by dotted name: its .py, or its .pyx
    and .pxd (the C sources under csrc aside)."""
    modules: dict[str, list[Path]] = {}
    for path in sorted(package.rglob("*")):
        if path.suffix not in (".py", ".pyx", ".pxd") or "csrc" in path.parts:
            continue
        parts = path.relative_to(package.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules.setdefault(".".join(parts), []).append(path)
    return modules


def _absolute(module: str, is_package: bool, level: int, target: str | None) -> str:
    """The dotted name a relative import in ``module`` names."""
    if not level:
        return target or ""
    parts = module.split(".") if is_package else module.split(".")[:-1]
    parts = parts[: len(parts) - (level - 1)]
    return ".".join([*parts, *([target] if target else [])])


def _type_checking_only(tree: ast.AST) -> set[int]:
    """The ids of the import nodes under ``if TYPE_CHECKING:``."""
    skipped = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                skipped.update(id(n) for n in ast.walk(inner))
    return skipped


def imported_names(module: str, path: Path) -> list[tuple[str, list[str]]]:
    """What ``path`` (of ``module``) imports: for each import, the dotted
    name it imports from and the names it takes (none for ``import X``)."""
    is_package = path.stem == "__init__"
    text = path.read_text()
    found: list[tuple[str, list[str]]] = []
    if path.suffix == ".py":
        tree = ast.parse(text)
        skipped = _type_checking_only(tree)
        for node in ast.walk(tree):
            if id(node) in skipped:
                continue
            if isinstance(node, ast.Import):
                found.extend((alias.name, []) for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = _absolute(module, is_package, node.level, node.module)
                found.append((base, [alias.name for alias in node.names]))
        return found
    for match in _CYTHON_IMPORT.finditer(text):
        if match["module"]:
            found.append((match["module"], []))
            continue
        dots = len(match["base"]) - len(match["base"].lstrip("."))
        base = _absolute(module, is_package, dots, match["base"].lstrip(".") or None)
        names = match["names"].strip("()").replace(",", " ").split()
        found.append((base, names))
    return found


def import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """Module -> the package's modules it imports (never itself). ``from X
    import a`` imports the module ``X.a`` where there is one, else ``X``."""
    modules = module_files(package)
    graph = {}
    for module, paths in modules.items():
        targets = set()
        for path in paths:
            for base, names in imported_names(module, path):
                submodules = {f"{base}.{name}" for name in names} & modules.keys()
                targets |= submodules
                if len(submodules) < len(names) or not names:
                    targets.add(base)
        graph[module] = {target for target in targets if target in modules and target != module}
    return graph


def layer_of(module: str) -> tuple[int, str]:
    """The layer of ``module`` (its index from the bottom) and its part:
    the longest part that is the module or holds it."""
    best: tuple[int, str] | None = None
    for index, layer in enumerate(LAYERS):
        for part in layer:
            if (module == part or module.startswith(part + ".")) and (
                best is None or len(part) > len(best[1])
            ):
                best = (index, part)
    assert best is not None, f"{module} is in no layer: add it to LAYERS"
    return best


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """Each import of a layer above its importer, or of another part of
    the importer's own layer."""
    wrong = []
    for module, targets in sorted(graph.items()):
        level, part = layer_of(module)
        for target in sorted(targets):
            target_level, target_part = layer_of(target)
            if target_level > level or (target_level == level and target_part != part):
                wrong.append(f"{module} ({part}) imports {target} ({target_part})")
    return wrong


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's
    algorithm, iterative): each holds an import cycle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


GRAPH = import_graph()


def test_every_module_has_a_layer() -> None:
    for module in GRAPH:
        layer_of(module)


def test_layers_import_downwards() -> None:
    assert upward_imports(GRAPH) == []


def test_no_import_cycles() -> None:
    assert cycles(GRAPH) == []


def test_the_walk_sees_every_kind_of_import() -> None:
    """The graph holds the arrows the rules are about: module-level and
    function-level Python imports, relative ones, and Cython cimports."""
    assert "xlashape.core._plan" in GRAPH["xlashape.core._batch"]  # a cimport in a .pyx
    assert "xlashape.core._plan" in GRAPH["xlashape.core._tiled"]  # and in a .pxd
    assert "xlashape.core._plan" in GRAPH["xlashape.drop_ins._drop_ins"]  # over several lines
    assert "xlashape.shapes.shape_text" in GRAPH["xlashape.shapes._convert"]  # a .pyx import
    assert "xlashape.dask" in GRAPH["xlashape.drop_ins.duck_arrays"]  # inside a function
    assert "xlashape.cli.bench.suite" in GRAPH["xlashape.cli.bench"]  # inside a function
    assert "xlashape.shapes.shape" in GRAPH["xlashape.shapes.shape_text"]  # relative


@pytest.mark.parametrize(
    ("module", "line", "rule"),
    [
        # The compiled core reaching up for a Shape, inside a function.
        ("core/_batch.pyx", "def _f(s):\n    from xlashape.shapes.shape_text import require_shape\n",
         "layers"),
        # The drop-ins' compiled front importing their face, which imports it,
        # on first use (the circle this package once had, through numpy_compat).
        ("drop_ins/_drop_ins.pyx", "cdef _general():\n    from xlashape import drop_ins\n", "cycle"),
        # A Shape drawing itself with the pictures, inside a method.
        ("shapes/shape.py", "def _draw():\n    from ..pictures import layout_picture\n", "layers"),
        # A Shape reading its text, which reads Shapes (a cycle within a layer).
        ("shapes/shape.py", "def _text():\n    from .shape_text import parse_array_shape_string\n",
         "cycle"),
        # The bench's shared measuring importing the bench back.
        ("cli/bench/measure.py", "from . import suite\n", "cycle"),
        # Two parts of one layer.
        ("linear/packing.py", "from ..xla import byte_sizes\n", "layers"),
    ],
)
def test_a_back_import_is_caught(tmp_path: Path, module: str, line: str, rule: str) -> None:
    """Each rule fails on a copy of the package given one import it
    forbids, and passes on the copy as it was."""
    copy = tmp_path / "xlashape"
    for path in PACKAGE.rglob("*"):
        if path.suffix in (".py", ".pyx", ".pxd") and "csrc" not in path.parts:
            target = copy / path.relative_to(PACKAGE)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(path.read_text())
    graph = import_graph(copy)
    assert (upward_imports(graph), cycles(graph)) == ([], [])
    edited = copy / module
    edited.write_text(edited.read_text() + "\n" + line)
    graph = import_graph(copy)
    assert (upward_imports(graph) if rule == "layers" else cycles(graph)) != []
