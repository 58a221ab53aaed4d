"""The `.pyi` stub and the compiled module must name the same things, with the same parameters
(mypy.stubtest, in test_stubtest.py, checks their types and defaults too)."""

from __future__ import annotations

import ast
import inspect
import typing
from pathlib import Path

import pytest

import xueliu
import xueliu.events
from xueliu import _xueliu

STUB = Path(xueliu.__file__).with_name("_xueliu.pyi")
# Names the stub declares for type checkers only: those stubtest's allow-list names.
ALLOWLIST = Path(__file__).with_name("stubtest-allowlist.txt").read_text("utf-8")
STUB_ONLY = {name.rpartition(".")[2] for name in ALLOWLIST.split() if name.startswith("xueliu.")}


def stub_tree() -> dict[str, ast.AST]:
    tree = ast.parse(STUB.read_text(encoding="utf-8"))
    names: dict[str, ast.AST] = {}
    for node in tree.body:
        if isinstance(node, ast.If):  # `if TYPE_CHECKING:` imports the submodules' own stubs
            for alias in (a for imp in node.body if isinstance(imp, ast.ImportFrom) for a in imp.names):
                names[alias.asname or alias.name] = ast.parse(STUB.with_name(f"{alias.name}.pyi").read_text("utf-8"))
        elif isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            names[node.name] = node
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names[node.target.id] = node
        elif isinstance(node, ast.Assign):
            names.update({t.id: node for t in node.targets if isinstance(t, ast.Name)})
    return names


def public(names) -> set[str]:
    return {n for n in names if not n.startswith("_")}


def members(cls_node: ast.ClassDef) -> set[str]:
    return {n.name for n in cls_node.body if isinstance(n, ast.FunctionDef)}


def runtime_members(obj) -> set[str]:
    return set(vars(obj)) if isinstance(obj, type) else set(dir(obj))


def test_stub_and_module_name_the_same_things():
    assert public(stub_tree()) - STUB_ONLY == public(dir(_xueliu))


@pytest.mark.parametrize("name", sorted(public(dir(_xueliu))))
def test_stub_members_and_parameters_match(name):
    node = stub_tree()[name]
    obj = getattr(_xueliu, name)
    if isinstance(node, ast.ClassDef):
        assert public(members(node)) == public(runtime_members(obj)), name
        for method in node.body:
            if isinstance(method, ast.FunctionDef) and not method.name.startswith("_") and not is_property(method):
                check_parameters(method, getattr(obj, method.name), skip_self=not is_static(method))
    elif isinstance(node, ast.FunctionDef):
        check_parameters(node, obj, skip_self=False)
    elif isinstance(node, ast.Module):
        functions = {f.name: f for f in node.body if isinstance(f, ast.FunctionDef)}
        assert set(functions) == public(dir(obj)), name
        for function in functions.values():
            check_parameters(function, getattr(obj, function.name), skip_self=False)


def is_property(node: ast.FunctionDef) -> bool:
    return any(isinstance(d, ast.Name) and d.id == "property" for d in node.decorator_list)


def is_static(node: ast.FunctionDef) -> bool:
    return any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list)


def check_parameters(node: ast.FunctionDef, obj, skip_self: bool) -> None:
    args = node.args
    stub = [(a.arg, "positional") for a in args.posonlyargs + args.args]
    stub += [(a.arg, "keyword") for a in args.kwonlyargs]
    if args.kwarg:
        stub.append((args.kwarg.arg, "var_keyword"))
    if skip_self:
        stub = stub[1:]
    runtime = []
    kinds = {inspect.Parameter.KEYWORD_ONLY: "keyword", inspect.Parameter.VAR_KEYWORD: "var_keyword"}
    for p in inspect.signature(obj).parameters.values():
        runtime.append((p.name, kinds.get(p.kind, "positional")))
    if skip_self and runtime and runtime[0][0] in ("self", "cls", "$self"):
        runtime = runtime[1:]
    assert stub == runtime, node.name


def literal_values(alias: str) -> set[str]:
    """The strings of a `Name = Literal[...]` alias: stub-only, or one of xueliu.events (which
    the stub imports, the events' types sharing it)."""
    if alias in vars(xueliu.events):
        return set(typing.get_args(getattr(xueliu.events, alias)))
    node = stub_tree()[alias]
    assert isinstance(node, ast.Assign) and isinstance(node.value, ast.Subscript), alias
    return {e.value for e in ast.walk(node.value.slice) if isinstance(e, ast.Constant)}


def test_literal_aliases_name_the_values_the_runtime_returns():
    assert {xueliu.Tile(i).suit for i in range(27)} == literal_values("Suit")
    kinds = {xueliu.Action.from_id(i).kind for i in range(27, xueliu.ACTION_COUNT)}
    assert kinds | {xueliu.Action.from_ids([0, 1, 2]).kind} == literal_values("ActionKind")
    assert {d.kind for d in xueliu.decompositions("11223344556677m")} == literal_values("DecompositionKind")
    phases, melds, wins = set(), set(), set()
    for seed in range(20):
        game = xueliu.Game("xuezhan", seed=seed)
        while True:
            phases.add(game.phase)
            melds.update(m.kind for s in range(4) for m in game.melds(s))
            if game.is_over:
                break
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            game.act(seat, next((a for a in legal if a.kind in ("win", "kong", "pong")), legal[-1]))
        wins.update(w.kind for w in game.wins)
    assert phases == literal_values("Phase")
    assert melds <= literal_values("MeldKind") and wins <= literal_values("WinKind")
    assert {"pong", "kong"} <= melds and {"discard", "self_draw"} <= wins
