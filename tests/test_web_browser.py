"""The table companion's pages in a real headless Chromium (Debian's package, driven by
Playwright), served by the real app with uvicorn: tap a card and eight dice (or the board and
five dice), read the advice off the page, and check it against what the command line's
``--json`` answers for the same position. At phone size (360x740): a screenshot under the
test's temporary folder and no element off the screen. Skipped, with the reason shown, where
no browser is installed. Whole games are small (target 500, lowest score -300)."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from click.testing import CliRunner

from solver.cli import cli
from solver.web.serve import in_thread
from tests.web_browser import (
    LAPTOP,
    PHONE,
    armada_position,
    browser_missing,
    launch,
    off_screen,
    open_page,
    read_armada,
    read_sabords,
    sabords_position,
    tap_dice,
    wait_for_advice,
)

REASON = browser_missing()
pytestmark = pytest.mark.skipif(REASON is not None, reason=f"browser tests: {REASON}")

LOW = -300
TARGET = 500


@pytest.fixture(scope="module")
def base_url(tmp_path_factory):
    """The real app (no shipped tables, a cache folder of its own, small whole games) served
    on a free local port."""
    from solver.web.app import create_app

    mp = pytest.MonkeyPatch()
    mp.setenv("TREASURE_CACHE", str(tmp_path_factory.mktemp("browser-cache")))
    mp.setattr("solver.sabords.game.DEFAULT_LOW", LOW)
    try:
        with in_thread(create_app(proofs_dir=tmp_path_factory.mktemp("no-proofs"))) as url:
            yield url
    finally:
        mp.undo()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()


@pytest.fixture
def phone(browser):
    page = browser.new_page(viewport=PHONE)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    page.close()
    assert not errors, errors


def cli_json(*args: str) -> dict:
    """What ``treasure ARGS --json`` prints (in-process, the same small games)."""
    result = CliRunner().invoke(cli, [*args, "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def percent(p: float, digits: int = 1) -> str:
    return f"{100 * p:.{digits}f}%"


def check_phone_layout(page, path) -> None:
    page.screenshot(path=path, full_page=True)
    assert path.stat().st_size > 10_000
    assert off_screen(page) == []


def same_move(a: dict, b: dict) -> bool:
    return all(a.get(k, "") == b.get(k, "") for k in ("action", "reroll", "protect"))


# -- Mille Sabords -----------------------------------------------------------------------------

@pytest.mark.parametrize("card,dice", [("captain", "CCDMPSXX"), ("treasure-island", "CCDMPSSX")])
def test_sabords_advice_is_the_cli_answer(base_url, phone, tmp_path, card, dice):
    open_page(phone, f"{base_url}/sabords.html")
    sabords_position(phone, card, dice)
    shown = read_sabords(phone)
    cli_doc = cli_json("sabords", "hold", "--all", "--card", card, dice)
    best = next(o for o in cli_doc["options"] if same_move(o, cli_doc["best"]))

    assert shown["action"] == cli_doc["best"]["action"]
    assert Counter(shown["reroll_marked"]) == Counter(cli_doc["best"].get("reroll", ""))
    assert Counter(shown["protect_marked"]) == Counter(cli_doc["best"].get("protect", ""))
    assert shown["value"] == cli_doc["value"]
    assert f"{cli_doc['value']:.1f}" in shown["value_text"]
    if best["action"] == "reroll":
        assert percent(best["bust_next"]) in shown["bust_text"]
        assert percent(best["bust"]) in shown["bust_text"]
    assert shown["differs"] is None
    # every row shown is the CLI's option in the same place, every number as printed
    assert 0 < len(shown["rows"]) <= len(cli_doc["options"])
    for row, option in zip(shown["rows"], cli_doc["options"], strict=False):
        assert (row["action"], row["reroll"], row["protect"]) == (
            option["action"], option.get("reroll", ""), option.get("protect", ""))
        assert row["value"] == option["value"]
        assert row["cells"][1:] == [f"{option['value']:.1f}", percent(option["bust_next"]),
                                    percent(option["bust"])]
    check_phone_layout(phone, tmp_path / f"sabords-{card}.png")


def test_sabords_with_scores_is_the_cli_answer(base_url, browser, tmp_path):
    """Scores give P(win); the first query builds the small whole game while the page shows
    that it is working; where points play differs the page says so."""
    page = browser.new_page(viewport=PHONE)
    open_page(page, f"{base_url}/sabords.html")
    page.evaluate("(t) => localStorage.setItem('treasure.sabords.settings',"
                  " JSON.stringify({target: t, variants: []}))", TARGET)
    open_page(page, f"{base_url}/sabords.html")
    assert page.input_value("#target") == str(TARGET)
    page.fill("#me", "0")
    page.fill("#opponent", "600")
    assert "last turn" in page.inner_text("#phase")
    page.click('#cards [data-card="none"]')
    tap_dice(page, "CCCDMPX")
    page.click('#palette [data-face="X"]')
    page.wait_for_selector("#status.working", state="attached")
    wait_for_advice(page, card="none", dice="CCCDMPXX", me=0, opponent=600, target=TARGET)
    shown = read_sabords(page)
    args = ["sabords", "hold", "--all", "--card", "none", "CCCDMPXX"]
    cli_doc = cli_json(*args, "--target", str(TARGET), "--me", "0", "--opponent", "600")
    points = cli_json(*args)

    assert shown["action"] == cli_doc["best"]["action"] == "reroll"
    assert Counter(shown["reroll_marked"]) == Counter(cli_doc["best"]["reroll"])
    assert shown["value"] == cli_doc["value"]
    assert percent(cli_doc["value"], 2) in shown["value_text"]
    assert cli_doc["points_differs"]
    assert shown["differs_action"] == cli_doc["points_best"]["action"] == "stop"
    assert percent(cli_doc["points_best"]["win"], 2) in shown["differs"]
    for row, option in zip(shown["rows"], cli_doc["options"], strict=False):
        assert (row["action"], row["reroll"]) == (option["action"], option.get("reroll", ""))
        assert row["value"] == option["value"]
        bust = next(o["bust_next"] for o in points["options"] if same_move(o, option))
        assert row["cells"][1:] == [percent(option["value"], 2), percent(bust)]
    check_phone_layout(page, tmp_path / "sabords-scores.png")
    page.close()


def test_the_island_of_skulls_is_the_cli_answer(base_url, phone):
    open_page(phone, f"{base_url}/sabords.html")
    sabords_position(phone, "none", "XXXXCCDM")
    shown = read_sabords(phone)
    cli_doc = cli_json("sabords", "hold", "--all", "--card", "none", "XXXXCCDM")
    assert shown["action"] == cli_doc["best"]["action"] == "island"
    assert Counter(shown["reroll_marked"]) == Counter(cli_doc["best"]["reroll"])
    loss = phone.get_attribute("#island-loss", "data-loss")
    assert float(loss) == cli_doc["opponents_loss"]
    assert f"{cli_doc['opponents_loss']:.1f}" in phone.inner_text("#island-loss")


def test_bad_dice_are_one_line_on_the_page(base_url, phone):
    open_page(phone, f"{base_url}/sabords.html")
    phone.click('#cards [data-card="none"]')
    tap_dice(phone, "CCDMPXXX")
    phone.wait_for_selector("#status.error")
    text = phone.inner_text("#status")
    assert "bust" in text and "\n" not in text
    assert phone.query_selector("#verdict") is None


# -- Gold Armada -------------------------------------------------------------------------------

def test_armada_advice_is_the_cli_answer(base_url, phone, tmp_path):
    """The board tapped in (a doubloon of the barrels pier, a skull), the aim chosen in the
    settings (this turn's token: no whole-game table to build), two rolls left; then no roll
    left, and which doubloon to take."""
    open_page(phone, f"{base_url}/armada.html")
    assert "RECONSTRUCTION" in phone.inner_text("#board-warning").upper()
    phone.click("#settings-button")
    phone.select_option("#objective", "turn")
    state = armada_position(phone, "BBOPA", {"barrels": 1}, 1, 2)
    assert state == "1000000000/1"
    shown = read_armada(phone)
    cli_doc = cli_json("armada", "hold", "--all", "--objective", "turn", "--board-state", state,
                       "--rolls-left", "2", "BBOPA")
    best = cli_doc["best"]
    assert (shown["keep"], shown["reroll"]) == (best["keep"], best["reroll"])
    assert Counter(shown["reroll_marked"]) == Counter(best["reroll"])
    assert shown["value"] == best["value"] and f"{best['value']:.3f}" in shown["value_text"]
    likeliest = sorted(best["reach"].items(), key=lambda kv: -kv[1])[:len(shown["reach"])]
    assert [(r["outcome"], r["p"], r["text"]) for r in shown["reach"]] == [
        (name, p, percent(p)) for name, p in likeliest]
    assert 0 < len(shown["rows"]) <= len(cli_doc["options"])
    for row, option in zip(shown["rows"], cli_doc["options"], strict=False):
        assert (row["keep"], row["value"]) == (option["keep"], option["value"])
        assert row["cells"][-1] == f"{option['value']:.3f}"
    check_phone_layout(phone, tmp_path / "armada.png")

    armada_position(phone, "BBBAA", {"barrels": 1}, 1, 0)
    shown = read_armada(phone)
    cli_doc = cli_json("armada", "hold", "--all", "--objective", "turn", "--board-state", state,
                       "--rolls-left", "0", "BBBAA")
    assert shown["take"] == cli_doc["best"]["take"] != "skull"
    assert shown["value"] == cli_doc["best"]["value"]
    assert [(r["take"], r["value"]) for r in shown["rows"]] == [
        (o["take"], o["value"]) for o in cli_doc["options"]][:len(shown["rows"])]
    check_phone_layout(phone, tmp_path / "armada-take.png")


# -- both pages --------------------------------------------------------------------------------

def test_index_links_both_pages_and_a_laptop_fits(base_url, browser):
    page = browser.new_page(viewport=LAPTOP)
    page.goto(f"{base_url}/")
    page.click("#link-sabords")
    page.wait_for_selector("body[data-ready]", state="attached")
    assert off_screen(page) == []
    page.go_back()
    page.click("#link-armada")
    page.wait_for_selector("body[data-ready]", state="attached")
    assert off_screen(page) == []
    page.close()


def test_a_second_roll_on_the_same_card_is_answered(base_url, phone):
    """Tap the eighth die of a new roll on a card whose table is already built: the advice
    for the new dice replaces the old (how fast is `make bench`'s question, not a test's)."""
    open_page(phone, f"{base_url}/sabords.html")
    sabords_position(phone, "gold", "CCDMPSSX")  # builds the card's turn table
    phone.click('#cards [data-card="gold"]')
    tap_dice(phone, "CCDMPSX")
    phone.click('#palette [data-face="X"]')
    wait_for_advice(phone, card="gold", dice="CCDMPSXX")
