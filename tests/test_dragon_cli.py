"""Die Dracheninsel: the ``treasure dragon`` commands, their output and their errors."""

from __future__ import annotations

import json

import pytest

from solver.cli import main


def run(capsys, *args) -> tuple[int, str, str]:
    try:
        main(["dragon", *args])
        code = 0
    except SystemExit as exc:
        code = exc.code or 0
    out, err = capsys.readouterr()
    return code, out, err


def test_help_shows_examples(capsys):
    for cmd in (["--help"], ["route", "--help"], ["board", "--help"], ["patrol", "--help"],
                ["layout", "--help"], ["variants", "--help"]):
        code, out, _ = run(capsys, *cmd)
        assert code == 0 and "Example" in out


def test_route_json_contract(capsys):
    code, out, _ = run(capsys, "route", "--hunter", "blue", "--hand",
                       "Vulkan,forest,farmland", "--json")
    assert code == 0
    data = json.loads(out)
    assert {"reachable", "cards_used", "remaining", "plan"} <= set(data)
    assert data["reachable"] is True and data["cards_used"] == 3 and data["remaining"] == 0
    assert all({"card", "to"} <= set(step) for step in data["plan"])
    assert data["hunter"] == "blue" and data["start"] == "boat:blue"


def test_route_table_for_people(capsys):
    code, out, _ = run(capsys, "route", "--hunter", "blue", "--hand", "volcano,forest")
    assert code == 0
    assert "reconstructed layout" in out and "not reachable this turn" in out
    assert "#  action" in out


@pytest.mark.parametrize("args, message", [
    (["route", "--hunter", "purple", "--hand", "water"], "unknown hunter colour 'purple'"),
    (["route", "--hunter", "blue", "--hand", "lava"], "unknown card 'lava'"),
    (["route", "--hunter", "blue", "--hand", "water,water,water,water,water,water,water"],
     "at most 6 cards"),
    (["route", "--hunter", "blue", "--hand", "water", "--goal", "boat"], "carries no treasure"),
    (["route", "--hunter", "blue", "--hand", "water", "--variant", "nope=1"], "unknown variant"),
    (["route", "--hunter", "blue", "--hand", "water", "--board", "/no/such.toml"],
     "cannot read board file /no/such.toml: no such file"),
    (["patrol", "--hunter", "blue", "--against", "blue"], "against itself"),
    (["route", "--hunter", "red", "--hand", "swap-any,forest", "--work-limit", "1e-6"],
     "no route found within --work-limit 1e-06"),
])
def test_bad_input_is_one_line_and_status_2(capsys, args, message):
    code, out, err = run(capsys, *args)
    assert code == 2
    assert err.startswith("error: ") and message in err and err.count("\n") == 1
    assert "Traceback" not in err


@pytest.mark.parametrize("option, says", [
    ("--work-limit", "not proved optimal"),
    ("--work-budget", "not proved optimal; --work-budget 1e9 proves it"),
    ("--deadline", "the deadline was reached: the best route found by then, not proved"),
])
def test_a_cut_off_route_is_marked_not_proved(capsys, option, says):
    """A cut-off (a model's work limit, the whole query's budget, or its deadline: 0.01 s is
    past before any round) still prints the best route found and says it is not proved
    optimal; the status line stays off stderr when stderr is not a terminal."""
    hand = "swap-any,swap-adjacent,swap-adjacent,flight,forest,desert"
    cut = ("route", "--hunter", "red", "--hand", hand, option, "0.01")
    code, out, err = run(capsys, *cut, "--json")
    assert code == 0 and err == ""
    doc = json.loads(out)
    assert doc["optimal"] is False and doc["deadline_reached"] is (option == "--deadline")
    code, out, _ = run(capsys, *cut)
    assert code == 0 and says in out


def test_a_budget_left_unspent_changes_nothing(capsys):
    outs = [run(capsys, "route", "--hunter", "red", "--hand", "forest,swap-adjacent",
                "--json", *extra)[1]
            for extra in ((), ("--work-budget", "1e9"), ("--deadline", "0"))]
    assert outs[0] == outs[1] == outs[2]
    doc = json.loads(outs[0])
    assert doc["optimal"] is True and doc["deadline_reached"] is False


def test_bad_board_file_is_reported(capsys, tmp_path):
    bad = tmp_path / "board.toml"
    bad.write_text('[boats]\nblue = ["4,-4", "4,-3"]\n[fields]\n"0,-4" = "water"\n',
                   encoding="utf-8")
    code, _, err = run(capsys, "route", "--hunter", "blue", "--hand", "water", "--board",
                       str(bad))
    assert code == 2 and "has no terrain" in err


def test_board_picture_with_a_route(capsys, tmp_path):
    code, out, _ = run(capsys, "route", "--hunter", "red", "--hand", "volcano,flight,forest",
                       "--json")
    route = tmp_path / "r.json"
    route.write_text(out, encoding="utf-8")
    svg = tmp_path / "island.svg"
    code, _, _ = run(capsys, "board", "--route", str(route), "--svg", str(svg))
    assert code == 0
    text = svg.read_text(encoding="utf-8")
    assert text.startswith("<svg") and "reconstructed layout" in text
    assert text.count("<polygon") >= 61 and 'marker-end="url(#arrow)"' in text
    code, _, err = run(capsys, "board", "--route", str(tmp_path / "none.json"), "--svg",
                       str(svg))
    assert code == 2 and "cannot read route file" in err and "no such file" in err


def test_patrol_json(capsys):
    code, out, _ = run(capsys, "patrol", "--hunter", "red", "--against", "blue", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["to"] == "3,-3" and data["opponents"]["blue"] == {"before": 3, "after": 4}


def test_variants_listed(capsys):
    code, out, _ = run(capsys, "variants", "--json")
    readings = json.loads(out)
    assert code == 0 and readings["flight-from-boat-allowed"]["default"] is True
    assert readings["flight-from-boat-forbidden"] == {
        "default": False, "sets": {"flight-from-boat": "forbidden"},
        "default_reading": {"flight-from-boat": "allowed"},
        "description": readings["flight-from-boat-allowed"]["description"]}


def test_choices_and_all_are_case_insensitive(capsys):
    """One spelling of every name, in any case: --goal, --method and --against all."""
    code, lower, _ = run(capsys, "route", "--hunter", "red", "--hand", "forest", "--json")
    assert code == 0
    code, upper, _ = run(capsys, "route", "--hunter", "RED", "--hand", "Forest", "--goal",
                         "Treasure", "--method", "CP-SAT", "--json")
    assert code == 0 and upper == lower
    code, lower, _ = run(capsys, "patrol", "--hunter", "red", "--json")
    assert code == 0
    code, upper, _ = run(capsys, "patrol", "--hunter", "red", "--against", "All", "--method",
                         "Enumeration", "--json")
    assert code == 0 and json.loads(upper)["to"] == json.loads(lower)["to"]


def test_a_solve_cut_off_by_its_work_limit_is_one_line_with_status_1(capsys, monkeypatch):
    """CP-SAT stopped before its proof (a work limit, or Ctrl-C, which CP-SAT catches) is a
    one-line error, not a traceback."""
    import solver.dragon.layout as layout
    from solver.errors import SolveError

    with pytest.raises(SolveError, match="not solved to optimality"):
        layout.solve_layout(work=1e-9)
    solve = layout.solve_layout
    monkeypatch.setattr(layout, "solve_layout", lambda model: solve(model, 1e-9))
    code, out, err = run(capsys, "layout")
    assert code == 1 and out == "" and "Traceback" not in err
    assert err.startswith("error: layout model: stage") and len(err.strip().splitlines()) == 1


def test_a_step_paid_with_the_own_colour_says_joker(capsys):
    # red's own colour is volcano: the first step onto a mountain is paid with it as a joker
    code, out, _ = run(capsys, "route", "--hunter", "red", "--hand",
                       "volcano,flight,swap-adjacent,forest,farmland,desert")
    assert code == 0
    step = next(line for line in out.splitlines() if line.startswith("1 "))
    assert "pays mountain (joker: volcano is red's own colour)" in step
    assert "joker" not in "\n".join(line for line in out.splitlines()
                                     if line[:1].isdigit() and "volcano" not in line)


def test_a_hand_with_no_useful_move_says_so(capsys):
    code, out, _ = run(capsys, "route", "--hunter", "red", "--hand", "curse,slumber")
    assert code == 0
    assert "no useful move: no card of this hand brings red closer" in out
    assert "action" not in out  # no empty table
    code, out, _ = run(capsys, "route", "--hunter", "red", "--hand", "curse,slumber", "--json")
    assert code == 0 and json.loads(out)["plan"] == []


def test_the_example_position_the_readme_names_works(capsys, tmp_path):
    from solver.paths import MODELS_DIR

    example = MODELS_DIR / "dracheninsel" / "example-position.toml"
    svg = tmp_path / "island.svg"
    code, out, err = run(capsys, "board", "--position", str(example), "--svg", str(svg))
    assert code == 0 and out == f"wrote {svg}\n" and svg.read_text().startswith("<svg")
    code, out, _ = run(capsys, "route", "--position", str(example), "--hunter", "green",
                       "--hand", "forest,water,flight,desert,mountain,farmland", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["reachable"] and doc["plan"][0]["action"] == "flight"
