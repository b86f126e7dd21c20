"""The director's modules import each other without a cycle (issue 19). A use case that must follow another
raises an internal event (service/events.py) instead of calling it: the follow-up runs after the commit, and
neither module imports the other. This walks every `import` of the package's source (ast, nothing imported),
but those made for annotations only (`if TYPE_CHECKING:`)."""

from __future__ import annotations

import ast
from pathlib import Path

import tournament_director

PACKAGE = "tournament_director"
ROOT = Path(tournament_director.__file__).parent


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The package's modules that `path` imports: `import a.b`, `from a import b` (b a module, or a name of a)."""
    found: set[str] = set()
    for node in _runtime_nodes(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in modules)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                child = f"{node.module}.{alias.name}"
                found.add(child if child in modules else node.module)
    return {name for name in found if name in modules}


def _runtime_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node but those under `if TYPE_CHECKING:` (imports for annotations only, never run)."""
    nodes: list[ast.AST] = []
    pending = [tree]
    while pending:
        node = pending.pop()
        nodes.append(node)
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            pending.extend(node.orelse)
            continue
        pending.extend(ast.iter_child_nodes(node))
    return nodes


def import_graph() -> dict[str, set[str]]:
    paths = {module_name(path): path for path in ROOT.rglob("*.py")}
    modules = set(paths)
    # A package's __init__ is imported by each of its modules: an edge to it is no dependency on a sibling.
    return {name: imports_of(path, modules) - {name} - _parents(name) for name, path in paths.items()}


def _parents(name: str) -> set[str]:
    parts = name.split(".")
    return {".".join(parts[:end]) for end in range(1, len(parts))}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each strongly connected group of modules (Tarjan), as the path that closes it."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def test_the_directors_modules_import_each_other_without_a_cycle() -> None:
    graph = import_graph()
    assert graph.get(f"{PACKAGE}.service.registration"), "the walk works"
    assert cycles(graph) == []


def test_the_walk_finds_a_cycle() -> None:
    """The check itself: the cycle issue 19 found, lifecycle → runs → settlement → satellites → registration →
    lifecycle, is reported."""
    chain = ["lifecycle", "runs", "settlement", "satellites", "registration"]
    graph = {name: {chain[(i + 1) % len(chain)]} for i, name in enumerate(chain)} | {"clock": {"lifecycle"}}
    assert cycles(graph) == [sorted(chain)]
