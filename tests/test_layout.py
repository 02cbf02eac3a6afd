"""The package's layout rules (solver/README.md), checked on every module's imports, and the
registry's hooks, each resolved."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from solver.games import GAMES, PARTS, find, game
from solver.rules.words import GameWords

ROOT = Path(__file__).resolve().parent.parent / "solver"
GAME_PACKAGES = {"sabords", "armada", "dragon"}
# what a game may import besides itself: the engine, the shared helpers, the registry, the
# benchmark helpers, and the verifier's storage of verdicts
GAME_MAY_IMPORT = {"solver.engine", "solver.util", "solver.text", "solver.cache",
                   "solver.games", "solver.bench", "solver.rules.claims",
                   "solver.rules.editions", "solver.rules.words",
                   "solver.rules.closed_forms", "solver.review"}


def _imports(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return [n for n in names if n == "solver" or n.startswith("solver.")]


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


def test_the_verifier_has_no_import_cycle():
    """Within solver/rules, the graph of imports (at any depth of a module) is acyclic."""
    modules = {f"solver.rules.{p.stem}": p for p in (ROOT / "rules").glob("*.py")}

    def edges(path: Path) -> set[str]:
        names = set(_imports(path))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "solver.rules":
                names |= {f"solver.rules.{a.name}" for a in node.names}  # from-package form
        return {n for n in names if n in modules}

    graph = {m: edges(p) - {m} for m, p in modules.items()}
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, " -> ".join(path + (module,))
        if module not in done:
            for other in sorted(graph[module]):
                visit(other, path + (module,))
            done.add(module)

    for module in sorted(graph):
        visit(module, ())


def test_the_registry_imports_no_part_until_a_hook_is_used():
    assert _imports(ROOT / "games.py") == ["solver.util"]


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
