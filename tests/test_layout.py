"""The package's layout rules (solver/README.md), checked on every module's imports, and the
registry's hooks, each resolved. Where a package is free of import cycles, it stays so."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from solver.games import GAMES, PARTS, find, game
from solver.rules.words import GameWords

ROOT = Path(__file__).resolve().parent.parent / "solver"
GAME_PACKAGES = {"sabords", "armada", "dragon"}
# what a game may import besides itself: the engine, the shared helpers, the registry, the
# benchmark helpers, and the verifier's storage of verdicts
SHARED = {"solver.errors", "solver.io", "solver.names", "solver.paths", "solver.variants",
          "solver.text", "solver.cache", "solver.cli_status", "solver.reference_times"}
GAME_MAY_IMPORT = SHARED | {"solver.engine", "solver.games", "solver.bench",
                            "solver.rules.claims", "solver.rules.editions", "solver.rules.words",
                            "solver.rules.closed_forms", "solver.review"}
# every package's modules import one another without a cycle
ACYCLIC = sorted(p.parent.name for p in ROOT.glob("*/__init__.py"))


def _imports(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return [n for n in names if n == "solver" or n.startswith("solver.")]


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _runtime_imports(path: Path, modules: set[str]) -> set[str]:
    """The modules of ``modules`` that ``path`` imports when it runs: at the top or inside a
    function (a function-level import closes a cycle as surely), not under TYPE_CHECKING."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {id(n) for node in ast.walk(tree)
                   if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
                   for stmt in node.body for n in ast.walk(stmt)}
    out = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        else:
            continue
        out |= {n for n in names if n in modules}
    return out - {_module_name(path)}


def import_cycle(package: str) -> list[str] | None:
    """One cycle of runtime imports among the modules of ``solver/<package>``, or None."""
    paths = {_module_name(p): p for p in (ROOT / package).rglob("*.py")}
    graph = {m: _runtime_imports(p, set(paths)) for m, p in paths.items()}
    done: set[str] = set()

    def walk(module: str, trail: list[str]) -> list[str] | None:
        if module in trail:
            return trail[trail.index(module):] + [module]
        if module in done:
            return None
        for nxt in sorted(graph[module]):
            found = walk(nxt, trail + [module])
            if found:
                return found
        done.add(module)
        return None

    return next((c for m in sorted(graph) if (c := walk(m, []))), None)


def _under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def test_the_engine_imports_no_game():
    for path in (ROOT / "engine").rglob("*.py"):
        for name in _imports(path):
            assert _under(name, "solver.engine"), f"{path.name} imports {name}"


@pytest.mark.parametrize("package", sorted(GAME_PACKAGES))
def test_a_game_imports_no_other_game(package):
    for path in (ROOT / package).rglob("*.py"):
        for name in _imports(path):
            allowed = _under(name, f"solver.{package}") or any(
                _under(name, a) for a in GAME_MAY_IMPORT)
            assert allowed, f"{path.relative_to(ROOT)} imports {name}"


def test_the_verifier_imports_no_game():
    """The verifier reaches a game only through its registry entry's hooks."""
    for path in (ROOT / "rules").rglob("*.py"):
        for name in _imports(path):
            assert not any(_under(name, f"solver.{g}") for g in GAME_PACKAGES), \
                f"rules/{path.name} imports {name}"


@pytest.mark.parametrize("package", ACYCLIC)
def test_no_import_cycle_in(package):
    """Within the package, the graph of imports (at any depth of a module) is acyclic."""
    cycle = import_cycle(package)
    assert cycle is None, " -> ".join(cycle or [])


def test_the_cycle_finder_sees_a_function_level_cycle(tmp_path, monkeypatch):
    """The finder itself: a cycle closed by an import inside a function is found, one through
    TYPE_CHECKING is not."""
    pkg = tmp_path / "solver" / "toy"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from solver.toy.b import f\n")
    (pkg / "b.py").write_text("def f():\n    from solver.toy import a\n")
    (pkg / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                              "    from solver.toy.d import g\n")
    (pkg / "d.py").write_text("from solver.toy.c import h\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path / "solver")
    assert import_cycle("toy") == ["solver.toy.a", "solver.toy.b", "solver.toy.a"]
    (pkg / "b.py").write_text("def f():\n    pass\n")
    assert import_cycle("toy") is None


def test_the_registry_imports_no_part_until_a_hook_is_used():
    assert _imports(ROOT / "games.py") == ["solver.names", "solver.paths"]


def test_every_hook_resolves_to_the_shape_its_field_promises():
    for part in PARTS:
        for field in ("command", "reports", "bench"):
            if getattr(part, field):
                assert callable(part.hook(field)), (part.name, field)
    for g in GAMES:
        assert (ROOT.parent / "models" / g.folder).is_dir(), g.name
        assert callable(g.hook("variants")) and callable(g.hook("fact"))
        assert callable(g.hook("invariants").prove_all)
        assert callable(g.hook("invariants").verify_all)
        assert callable(g.hook("ambiguity").measure_all)
        assert callable(g.hook("ambiguity").verify_claims)
        for field in ("certify", "certificates", "readings", "closed_forms"):
            assert getattr(g, field) is None or callable(g.hook(field)), (g.name, field)
        assert isinstance(g.hook("verifier"), GameWords), g.name


def test_one_name_per_part_any_case_any_alias():
    assert find("Dragon") is find("dracheninsel") is game("DIE_DRACHENINSEL")
    assert find("Piraten Kapern") is game("sabords")
    assert find("rules") is find("check") and find("chess") is None
    names = [p.name for p in PARTS] + [a for p in PARTS for a in p.aliases]
    assert len(names) == len(set(names))
    with pytest.raises(KeyError):
        game("serve")


# Mille Sabords' own layers, lowest first: a module imports its own layer or lower ones only,
# at module level or inside a function alike (solver/README.md draws them).
SABORDS_LAYERS = (
    ("rules", ("names", "rules", "scoring", "dice", "objective", "verifier", "closed_forms")),
    ("turn", ("turn",)),
    ("game", ("game",)),
    ("answers", ("answers", "answer_text")),
    ("review", ("review",)),
    ("cli", ("cli",)),
    ("entry points", ("reports", "bench")),
)


def _sabords_modules() -> dict[str, Path]:
    modules = {}
    for path in (ROOT / "sabords").rglob("*.py"):
        parts = path.relative_to(ROOT.parent).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def _sabords_imports(path: Path, modules: dict[str, Path]) -> set[str]:
    """The solver.sabords modules a file imports, anywhere in it (``from package import
    module`` counts as the module)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        assert not (isinstance(node, ast.ImportFrom) and node.level), f"{path}: relative import"
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{a.name}" for a in node.names}
    return {name for name in found if name in modules and modules[name] != path}


def _sabords_layer(module: str) -> int:
    rest = module.removeprefix("solver.sabords.").split(".")[0]
    for rank, (_, heads) in enumerate(SABORDS_LAYERS):
        if rest in heads:
            return rank
    raise AssertionError(f"{module} is in no layer of SABORDS_LAYERS")


def test_sabords_imports_flow_rules_turn_game_answers_cli():
    modules = _sabords_modules()
    for name, path in modules.items():
        if name == "solver.sabords":
            continue
        for imported in _sabords_imports(path, modules):
            if imported == "solver.sabords":
                continue
            assert _sabords_layer(imported) <= _sabords_layer(name), \
                f"{name} ({SABORDS_LAYERS[_sabords_layer(name)][0]}) imports {imported} " \
                f"({SABORDS_LAYERS[_sabords_layer(imported)][0]})"


def test_sabords_modules_import_each_other_in_no_cycle():
    modules = _sabords_modules()
    graph = {name: _sabords_imports(path, modules) for name, path in modules.items()}
    done: set[str] = set()

    def visit(name: str, trail: list[str]) -> None:
        if name in trail:
            cycle = trail[trail.index(name):] + [name]
            raise AssertionError("import cycle: " + " -> ".join(cycle))
        if name in done:
            return
        for imported in sorted(graph[name]):
            visit(imported, trail + [name])
        done.add(name)

    for name in sorted(graph):
        visit(name, [])
