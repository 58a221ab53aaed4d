"""The core crate's homes and the imports between them (issue 29): no cycle, the written form
above the engine (record imports game; game never imports record), and search between the
engine and the bots (engine <- view <- search <- bots).

A home is a top-level module of rust/xueliu-core/src (`game`, `record`, `tile`, ...). An edge
A -> B is any path in A's code that names B: `use crate::B::...`, an inline `crate::B::...` (a
serde attribute counts), `super::...` climbing out of A, or a name the crate root re-exports from B
(`crate::Choice` is `choice`). Comments are not code; test-only modules (`#[cfg(test)]`, tests.rs,
*_tests.rs, tests/) are left out: a test may reach anywhere.
"""

from __future__ import annotations

import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "rust" / "xueliu-core" / "src"
PATH = re.compile(r"\b(crate|super)((?:::super)*)::(\w+)")
TEST_MOD = re.compile(r"#\[cfg\(test\)\]\s*(?:pub(?:\([\w:]+\))?\s+)?mod\s+(\w+)\s*([;{])")


def module_path(file: Path) -> list[str]:
    """`game/claims.rs` is `["game", "claims"]`; `game/mod.rs` is `["game"]`; lib.rs is `[]`."""
    parts = list(file.relative_to(SRC).with_suffix("").parts)
    if parts[-1] in ("mod", "lib"):
        parts.pop()
    return parts


def code_of(file: Path) -> tuple[str, set[str]]:
    """The file's code without comments and without inline test modules, and the names of the
    test-only modules it declares in files of their own."""
    text = "\n".join(line for line in file.read_text().splitlines() if not line.lstrip().startswith("//"))
    test_files = set()
    for m in TEST_MOD.finditer(text):
        if m.group(2) == ";":
            test_files.add(m.group(1))
    inline = [m.start() for m in TEST_MOD.finditer(text) if m.group(2) == "{"]
    return (text[: inline[0]] if inline else text), test_files


def root_reexports() -> dict[str, str]:
    """Names the crate root re-exports, by the home they come from (`Choice` -> `choice`)."""
    names = {}
    for m in re.finditer(r"pub use (\w+)::\{?([\w, ]+)\}?;", (SRC / "lib.rs").read_text()):
        for name in m.group(2).split(","):
            names[name.strip()] = m.group(1)
    return names


def home_graph() -> dict[str, set[str]]:
    files = sorted(SRC.rglob("*.rs"))
    test_only: set[tuple[str, ...]] = set()
    code = {}
    for file in files:
        text, tests = code_of(file)
        code[file] = text
        test_only |= {(*module_path(file), name) for name in tests}
    homes = {module_path(f)[0] for f in files if module_path(f)}
    reexports = root_reexports()
    graph: dict[str, set[str]] = {home: set() for home in homes}
    for file, text in code.items():
        path = module_path(file)
        if not path or any(tuple(path[:i]) in test_only for i in range(1, len(path) + 1)):
            continue
        if file.name == "tests.rs" or file.stem.endswith("_tests") or "tests" in path[:-1]:
            continue
        for m in PATH.finditer(text):
            climbs = 1 + m.group(2).count("super") if m.group(1) == "super" else len(path)
            base = path[: len(path) - climbs] + [m.group(3)]
            target = reexports.get(base[0], base[0])
            if target in homes and target != path[0]:
                graph[path[0]].add(target)
    return graph


def cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of `graph` as the homes along it, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_the_homes_import_each_other_without_a_cycle():
    graph = home_graph()
    assert {"game", "record", "search", "wire", "tile"} <= graph.keys()
    assert cycle(graph) is None, " -> ".join(cycle(graph) or [])


def test_the_record_stands_above_the_game():
    graph = home_graph()
    assert "game" in graph["record"]
    assert "record" not in graph["game"]


def test_search_stands_above_the_game_and_below_the_bots():
    graph = home_graph()
    assert "game" in graph["search"]
    assert "search" not in graph["game"], "the game knows no search: search asks the seat's view"
    assert "search" in graph["bots"]
    assert not graph["search"] & {"bots", "record", "env", "matches"}


def test_the_lowest_homes_know_no_game():
    graph = home_graph()
    for low in ("wire", "tile", "hand", "meld", "choice"):
        assert not graph[low] & {"game", "record"}, low
    assert not graph["wire"], "wire knows no game type"


def test_the_checker_sees_a_cycle_and_each_kind_of_path():
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) is None
    graph = home_graph()
    assert "choice" in graph["rules"]  # `use crate::choice::...`
    assert "wire" in graph["meld"]  # a serde attribute's `crate::wire::upto`
    assert "choice" in graph["game"]  # `crate::Choice`, re-exported at the root
