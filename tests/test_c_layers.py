"""The C core's folders are layers (xlashape/csrc/README.md): a file
includes only files of its own folder or of a folder below it, every
include names a file that exists, no chain of includes comes back to
where it started, and no folder holds more than 15 source files."""

import re
from pathlib import Path

import pytest

CSRC = Path(__file__).resolve().parent.parent / "xlashape" / "csrc"

# Lowest first: each folder may include its own files and those of the
# folders before it, never those after it.
LAYERS = ("base", "runtime", "vec", "kernels", "tiled", "relayout", "levels", "cpu", "driver")

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)


def includes(root: Path = CSRC) -> dict[str, set[str]]:
    """Each C file under ``root`` (as a path relative to it) and the files
    it includes by name, as written."""
    return {
        path.relative_to(root).as_posix(): set(INCLUDE.findall(path.read_text()))
        for path in sorted(root.rglob("*.[ch]"))
    }


def wrong_way(graph: dict[str, set[str]], layers: tuple[str, ...]) -> list[str]:
    """The includes that point at a higher layer, or outside every layer."""
    rank = {name: k for k, name in enumerate(layers)}
    found = []
    for source, targets in graph.items():
        folder = source.split("/")[0]
        for target in sorted(targets):
            up = target.split("/")[0]
            if folder not in rank or up not in rank or rank[up] > rank[folder]:
                found.append(f"{source} includes {target}")
    return found


def cycle(graph: dict[str, set[str]]) -> list[str]:
    """One chain of includes that comes back to its start, or []."""
    state: dict[str, int] = {}  # 1: on the current chain, 2: done

    def visit(node: str, chain: list[str]) -> list[str]:
        state[node] = 1
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                return [*chain[chain.index(target):], target] if target in chain else [node, target]
            if target not in state:
                found = visit(target, [*chain, target])
                if found:
                    return found
        state[node] = 2
        return []

    for node in sorted(graph):
        if node not in state:
            found = visit(node, [node])
            if found:
                return found
    return []


def test_every_folder_is_a_layer():
    folders = sorted(path.name for path in CSRC.iterdir() if path.is_dir())
    assert folders == sorted(LAYERS), "a folder of csrc/ missing from LAYERS, or the reverse"


def test_every_include_names_a_file():
    missing = [f"{source} includes {target}" for source, targets in includes().items()
               for target in targets if not (CSRC / target).is_file()]
    assert missing == []


def test_includes_point_down():
    assert wrong_way(includes(), LAYERS) == []


def test_no_include_cycle():
    assert cycle(includes()) == []


@pytest.mark.parametrize("folder", LAYERS)
def test_folders_stay_small(folder):
    sources = list((CSRC / folder).glob("*.[ch]"))
    assert 0 < len(sources) <= 15, f"csrc/{folder} holds {len(sources)} source files"


def test_the_checks_can_fail():
    """A made-up graph with an include upward and a cycle: both are found."""
    graph = {"base/a.h": {"driver/b.h"}, "driver/b.h": {"driver/c.h"}, "driver/c.h": {"driver/b.h"}}
    assert wrong_way(graph, LAYERS) == ["base/a.h includes driver/b.h"]
    assert cycle(graph) == ["driver/b.h", "driver/c.h", "driver/b.h"]
