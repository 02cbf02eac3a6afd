"""The table companion's pages in a real headless Chromium (Debian's package, driven by
Playwright), served by the real app with uvicorn: tap a card and eight dice (or the board and
five dice), read the advice off the page, and check it against what the command line's
``--json`` answers for the same position. At phone size (360x740): a screenshot under the
test's temporary folder and no element off the screen. Skipped, with the reason shown, where
no browser is installed. Whole games are small (target 500, lowest score -300)."""

from __future__ import annotations

import json
from collections import Counter
from contextlib import contextmanager

import pytest
from click.testing import CliRunner

from solver.cli import cli
from solver.web.serve import in_thread
from tests.test_web_i18n import TABLES
from tests.web_browser import (
    LAPTOP,
    PHONE,
    armada_position,
    browser_missing,
    launch,
    off_screen,
    open_page,
    page_in_language,
    read_armada,
    read_sabords,
    sabords_position,
    tap_dice,
    wait_for_advice,
)

REASON = browser_missing()
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(REASON is not None, reason=f"browser tests: {REASON}")]

LOW = -300
TARGET = 500


@pytest.fixture(scope="module")
def base_url(tmp_path_factory):
    """The real app (no shipped tables, a cache folder of its own, small whole games) served
    on a free local port."""
    from solver.web.app import create_app

    mp = pytest.MonkeyPatch()
    mp.setenv("TREASURE_CACHE", str(tmp_path_factory.mktemp("browser-cache")))
    mp.setattr("solver.sabords.game.two_player.DEFAULT_LOW", LOW)
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


# -- the players' languages --------------------------------------------------------------------

def _spaces(text: str) -> str:
    """Text with the no-break spaces French puts in numbers ("30,6 %") as plain spaces."""
    return text.replace("\u202f", " ").replace("\xa0", " ")


def _card_names(page) -> dict[str, str]:
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
      '#cards .card')].map((b) => [b.dataset.card,
        b.querySelector(':scope > span:last-child').innerText.trim()]))""")


def _face_names(page) -> dict[str, str]:
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
      '#palette .face')].map((b) => [b.dataset.face,
        b.querySelector(':scope > span:last-child').innerText.trim()]))""")


def test_the_browser_language_and_the_remembered_switch(base_url, browser):
    """A French browser gets the French page (the names as printed, numbers written the French
    way), the switch shows German and is remembered over the browser's language; Gold Armada
    and the index follow it."""
    from solver.sabords.rules import load_rules
    from solver.web.i18n import names_document

    names = names_document()
    letters = dict(zip(load_rules().faces, load_rules().letters, strict=True))
    with page_in_language(browser, f"{base_url}/sabords.html", "fr-FR") as page:
        assert page.get_attribute("html", "lang") == "fr" and page.input_value("#language") == "fr"
        cards = names["sabords"]["cards"]
        assert _card_names(page) == {name: shown["fr"] for name, shown in cards.items()}
        assert _card_names(page)["captain"] == "Pirate"
        assert _face_names(page) == {letters[name]: shown["fr"]
                                     for name, shown in names["sabords"]["faces"].items()}
        sabords_position(page, "captain", "CCDMPSXX")
        shown = read_sabords(page)
        cli_doc = cli_json("sabords", "hold", "--all", "--card", "captain", "CCDMPSXX")
        assert shown["verdict"] == "STOP" and page.inner_text("h1") == "Mille Sabords"
        assert f"{cli_doc['value']:.1f}".replace(".", ",") in shown["value_text"]
        for row, option in zip(shown["rows"], cli_doc["options"], strict=False):
            assert [_spaces(c) for c in row["cells"][1:]] == [
                f"{option['value']:.1f}".replace(".", ","),
                percent(option["bust_next"]).replace(".", ",").replace("%", " %"),
                percent(option["bust"]).replace(".", ",").replace("%", " %")]

        page.select_option("#language", "de")
        page.wait_for_function("document.documentElement.lang === 'de'")
        assert _card_names(page) == {name: shown["de"] for name, shown in cards.items()}
        assert _card_names(page)["sorceress"] == "Wächterin"
        assert page.inner_text("#verdict") == "AUFHÖREN"
        assert page.inner_text("h1") == "Piraten Kapern"
        assert page.inner_text("#palette").count("Totenkopf") == 1
        assert off_screen(page) == []  # the longer German words fit a phone
        open_page(page, f"{base_url}/sabords.html")  # the choice outlives the page
        assert page.input_value("#language") == "de" and _card_names(page)["captain"] == "Kapitän"

        open_page(page, f"{base_url}/armada.html")
        piers = page.evaluate("""() => [...document.querySelectorAll('#piers .pier b')]
          .map((b) => b.innerText)""")
        assert piers[6:] == ["Drilling", "Full House", "Vierling", "Fünfling"]
        assert _face_names(page)["B"] == "Fass"
        assert "Nachgebautes Spielbrett" in page.inner_text("#board-warning")
        assert off_screen(page) == []
        page.select_option("#language", "fr")
        page.wait_for_function("document.documentElement.lang === 'fr'")
        assert page.inner_text('#piers [data-pier="five-of-a-kind"] b') == "Yam's"
        assert "tonneau" in page.inner_text('#piers [data-pier="barrels"]').lower()
        page.goto(f"{base_url}/")
        page.wait_for_selector("body[data-ready]", state="attached")
        assert page.inner_text("#link-armada").startswith("Gold Armada")
        assert "Tout est calculé" in page.inner_text("main")


# -- the game at the table ---------------------------------------------------------------------

def _turn(page) -> dict:
    return page.evaluate("""() => ({
      line: document.querySelector('#turn-line').innerText,
      at: Number(document.querySelector('#roll-position').dataset.at),
      rolls: document.querySelector('#roll-position').dataset.rolls,
      dice: [...document.querySelectorAll('#tray .die')].map((d) => d.dataset.letter).join(''),
      me: document.querySelector('#me').value, opponent: document.querySelector('#opponent').value,
      card: document.querySelector('#cards [aria-checked="true"]').dataset.card,
      played: [...document.querySelectorAll('#turns li')].map((li) => Number(li.dataset.points)),
    })""")


def exported(page, folder) -> dict:
    """The record the page's Export game saves, checked to be written as the CLI writes
    JSON (keys sorted, two-space indent, a final newline)."""
    from solver.io import dumps_json

    with page.expect_download() as download:
        page.click("#export-game")
    path = folder / download.value.suggested_filename
    download.value.save_as(path)
    text = path.read_text(encoding="utf-8")
    record = json.loads(text)
    assert text == dumps_json(record)
    return record


def test_the_turn_history_undo_step_back_next_player_and_export(base_url, browser, tmp_path):
    """Undo takes back the last dice tapped; each full set of dice is a roll of the turn, to
    step back and forth through (the advice follows); the next player's turn starts with the
    points the dice banked (the CLI's score) carried over; the export is the documented record,
    written as the CLI writes JSON; a reload keeps the game, New game forgets it."""
    page = browser.new_page(viewport=PHONE)
    open_page(page, f"{base_url}/sabords.html")
    sabords_position(page, "captain", "CCDMPSXX")
    assert _turn(page)["rolls"] == "CCDMPSXX" and page.is_disabled("#step-back")
    page.click("#undo-dice")
    page.click("#undo-dice")
    assert _turn(page)["dice"] == "CCDMPS" and page.inner_text("#dice-count").startswith("6")
    page.click('#palette [data-face="X"]')
    page.click('#palette [data-face="X"]')
    wait_for_advice(page, card="captain", dice="CCDMPSXX")
    assert _turn(page)["rolls"] == "CCDMPSXX"  # the same roll again, not a second one

    # the second roll: the monkey and the parrot rolled again came up coins
    for _ in range(2):
        page.click('#tray .slot:nth-child(4)')
    assert _turn(page)["dice"] == "CCDSXX"
    page.click('#palette [data-face="C"]')
    page.click('#palette [data-face="C"]')
    wait_for_advice(page, card="captain", dice="CCDSXXCC")
    assert (_turn(page)["rolls"], _turn(page)["at"]) == ("CCDMPSXX CCDSXXCC", 1)
    page.click("#step-back")
    wait_for_advice(page, card="captain", dice="CCDMPSXX")
    assert (_turn(page)["at"], read_sabords(page)["action"]) == (0, "stop")
    page.click("#step-forward")
    wait_for_advice(page, card="captain", dice="CCDSXXCC")
    assert _turn(page)["at"] == 1 and page.is_disabled("#step-forward")
    # dice entered after a step back replace the rolls that came after
    page.click("#step-back")
    wait_for_advice(page, card="captain", dice="CCDMPSXX")
    for _ in range(2):
        page.click('#tray .slot:nth-child(4)')
    page.click('#palette [data-face="C"]')
    page.click('#palette [data-face="C"]')
    wait_for_advice(page, card="captain", dice="CCDSXXCC")
    assert (_turn(page)["rolls"], _turn(page)["at"]) == ("CCDMPSXX CCDSXXCC", 1)

    page.click("#next-player")
    score = cli_json("sabords", "score", "--card", "captain", "CCDSXXCC")["score"]
    assert page.input_value("#turn-points") == str(score) == "1400"
    page.click("#confirm-turn")
    turn = _turn(page)
    assert turn["line"] == "Turn 2: player 2 to play"
    assert (turn["me"], turn["opponent"], turn["card"], turn["dice"]) == ("0", "1400", "none", "")
    assert turn["played"] == [1400] and turn["rolls"] == ""

    assert exported(page, tmp_path) == {
        "format": "treasure-solver/sabords-game", "version": 1, "game": "sabords",
        "players": 2, "target": 6000, "variants": [],
        "turns": [{"turn": 1, "player": 1, "card": "captain", "sudden_death": False,
                   "scores_before": [0, 0], "rolls": ["CCDMPSXX", "CCDSXXCC"],
                   "points": 1400, "opponents_lose": 0, "scores_after": [1400, 0]}],
        "current": {"turn": 2, "player": 2, "card": "none", "scores": [1400, 0],
                    "sudden_death": False, "rolls": []},
    }

    open_page(page, f"{base_url}/sabords.html")  # a reload keeps the game
    assert _turn(page)["line"] == "Turn 2: player 2 to play" and _turn(page)["played"] == [1400]
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#new-game")
    turn = _turn(page)
    assert (turn["line"], turn["played"], turn["me"]) == ("Turn 1: player 1 to play", [], "")
    page.close()


def test_gold_armada_keeps_the_game(base_url, browser, tmp_path):
    """Gold Armada: new dice are a roll with one roll fewer left, undo and the steps work as on
    the other page, the next player's turn takes what the CLI's answer says is best (offered
    first, worth its doubloon) and carries the board and the scores; the export is the
    record."""
    page = browser.new_page(viewport=PHONE)
    open_page(page, f"{base_url}/armada.html")
    page.click("#settings-button")
    page.select_option("#objective", "turn")
    armada_position(page, "BBOPA", {}, 0, 2)
    for _ in range(3):
        page.click("#tray .slot:nth-child(3)")
    for face in "BAA":
        page.click(f'#palette [data-face="{face}"]')
    wait_for_advice(page, dice="BBBAA", board_state="0000000000/0", rolls_left=1)
    page.click("#undo-dice")
    page.click('#palette [data-face="A"]')
    wait_for_advice(page, dice="BBBAA", rolls_left=1)
    for _ in range(2):
        page.click("#tray .slot:nth-child(4)")
    page.click('#palette [data-face="B"]')
    page.click('#palette [data-face="B"]')
    wait_for_advice(page, dice="BBBBB", rolls_left=0)
    rolls = "BBOPA:2 BBBAA:1 BBBBB:0"
    assert page.get_attribute("#roll-position", "data-rolls") == rolls
    page.click("#step-back")
    wait_for_advice(page, dice="BBBAA", rolls_left=1)
    assert page.get_attribute('#rolls [aria-pressed="true"]', "data-value") == "1"
    page.click("#step-forward")
    wait_for_advice(page, dice="BBBBB", rolls_left=0)

    cli_doc = cli_json("armada", "hold", "--objective", "turn", "--board-state", "0000000000/0",
                       "--rolls-left", "0", "BBBBB")
    best = cli_doc["best"]["take"]
    worth = next(x["doubloon"] for x in cli_doc["targets"] if x["pier"] == best)
    page.click("#next-player")
    assert page.input_value("#turn-take") == best
    assert page.get_attribute("#turn-take option:first-child", "data-value") == str(worth)
    page.click("#confirm-turn")
    piers = page.evaluate(
        "() => [...document.querySelectorAll('#piers .pier')].map((p) => p.dataset.pier)")
    after = "".join("1" if name == best else "0" for name in piers) + "/0"
    assert page.inner_text("#board-state") == after
    assert page.inner_text("#turn-line") == "Turn 2: player 2 to play"
    assert page.get_attribute('#rolls [aria-pressed="true"]', "data-value") == "2"
    assert page.inner_text("#dice-count").startswith("0")

    assert exported(page, tmp_path) == {
        "format": "treasure-solver/armada-game", "version": 1, "game": "armada", "players": 2,
        "objective": "turn", "variants": [],
        "turns": [{"turn": 1, "player": 1, "board": "0000000000/0", "scores_before": [0, 0],
                   "rolls": [{"dice": d, "rolls_left": int(k)}
                             for d, k in (r.split(":") for r in rolls.split())],
                   "take": best, "points": worth, "board_after": after,
                   "scores_after": [worth, 0]}],
        "current": {"turn": 2, "player": 2, "board": after, "scores": [worth, 0], "rolls": []},
    }
    open_page(page, f"{base_url}/armada.html")  # a reload keeps the board and the turn
    assert page.inner_text("#board-state") == after
    assert [int(li.get_attribute("data-points")) for li in page.query_selector_all("#turns li")
            ] == [worth]
    page.close()


def test_a_page_without_its_word_tables_says_why_in_english(base_url, phone):
    """The string tables cannot be fetched: one line of English on the status line, not a
    key name."""
    phone.route("**/i18n/*", lambda route: route.abort())
    phone.goto(f"{base_url}/sabords.html")
    phone.wait_for_selector("#status.error")
    text = phone.inner_text("#status")
    assert text.startswith("cannot reach the solver: ") and "\n" not in text


# -- after the game: the record and its review (issue 38) --------------------------------------

@contextmanager
def _page_set(browser, url: str, key: str, settings: dict):
    """A fresh phone-sized page at url (English, downloads kept) with settings stored under
    key, loaded; on leaving, any script error fails the test."""
    context = browser.new_context(viewport=PHONE, locale="en-GB", accept_downloads=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        open_page(page, url)
        page.evaluate("([k, v]) => localStorage.setItem(k, JSON.stringify(v))", [key, settings])
        open_page(page, url)
        yield page
    finally:
        context.close()
    assert not errors, errors


def _saved(page, selector: str, path) -> str:
    """Click selector, save the download it offers at path, return its text."""
    with page.expect_download() as download:
        page.click(selector)
    download.value.save_as(path)
    return path.read_text(encoding="utf-8")


def _shown_review(page) -> dict:
    """What the review section shows: each player's row (data), every event's value, each
    chart line's player, points and last value, the largest mistakes' costs."""
    page.wait_for_selector("#review-summary", timeout=1000 * 600)
    return page.evaluate("""() => ({
      summary: [...document.querySelectorAll('#review-summary tbody tr')].map((tr) => ({
        player: tr.dataset.player, luck: Number(tr.dataset.luck),
        error: Number(tr.dataset.error), result: Number(tr.dataset.result),
        rating: tr.querySelector('.rating').firstChild.textContent })),
      events: [...document.querySelectorAll('#review-events tbody tr')].map((tr) =>
        [tr.dataset.kind, Number(tr.dataset.turn), Number(tr.dataset.value)]),
      lines: [...document.querySelectorAll('#review-chart polyline')].map((line) =>
        [line.dataset.player, Number(line.dataset.points), Number(line.dataset.last)]),
      costs: [...document.querySelectorAll('#review .mistakes li')].map((li) =>
        Number(li.dataset.cost)),
    })""")


def _check_review(page, doc: dict, series) -> None:
    """The page's review is the CLI's: totals, every luck and cost, the chart's lines."""
    shown = _shown_review(page)
    assert [(r["player"], r["luck"], r["error"], r["result"]) for r in shown["summary"]] == [
        (r["player"], r["luck"], r["error"], r["result"]) for r in doc["summary"]]
    assert [r["rating"] for r in shown["summary"]] == [r["rating"] for r in doc["summary"]]
    assert shown["events"] == [[e["kind"], e["turn"], e["cost"] if e["kind"] == "decision"
                                else e["luck"]] for e in doc["events"]]
    xs, ys = series(doc)[:2]
    assert shown["lines"] == [[name, len(xs), y[-1]] for name, y in zip(doc["players"], ys,
                                                                         strict=True)]
    assert shown["costs"] == [e["cost"] for r in doc["summary"] for e in r["largest"]]


RECORD_500 = """# A game record (treasure-solver): the format is models/sabords/record.md
game sabords
players P1, P2
target 500
variant score-floor-zero

P1: captain CCDMPSXX, CCDSXXCC
P2: gold CDMPPSXX, CCDDMSXX
"""


def test_a_game_recorded_exported_imported_and_reviewed(base_url, browser, tmp_path):
    """Two turns played on the page (each roll entered for advice is the record's) give the
    documented record; Review shows what ``treasure sabords review FILE --json`` says of it
    (each player's luck, error, rating and result, every event's luck or cost, the chart's
    lines); a new game importing the file has the turns and scores of the review and shows
    it again, and exports the same text."""
    from solver.sabords.review.plot import chart_series

    with _page_set(browser, f"{base_url}/sabords.html", "treasure.sabords.settings",
                   {"target": TARGET, "variants": ["score-floor-zero"]}) as page:
        _play_and_review_sabords(page, tmp_path, chart_series)


def _play_and_review_sabords(page, tmp_path, chart_series) -> None:
    for card, rolls in (("captain", ["CCDMPSXX", "CCDSXXCC"]),
                        ("gold", ["CDMPPSXX", "CCDDMSXX"])):
        page.click(f'#cards [data-card="{card}"]')
        for roll in rolls:
            tap_dice(page, roll)
            wait_for_advice(page, card=card, dice=roll)
        page.click("#next-player")
        page.click("#confirm-turn")
    path = tmp_path / "game.txt"
    assert _saved(page, "#export-record", path) == RECORD_500
    doc = cli_json("sabords", "review", str(path))
    assert [t["points"] for t in doc["turns"]] == [1400, 600]

    page.click("#review-game")
    _check_review(page, doc, chart_series)
    assert off_screen(page) == []  # the review fits a phone

    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#new-game")
    assert page.is_hidden("#review")
    page.set_input_files("#record-file", str(path))
    _check_review(page, doc, chart_series)
    assert page.inner_text("#turn-line") == "Turn 3: player 1 to play"
    assert [int(li.get_attribute("data-points")) for li in page.query_selector_all("#turns li")
            ] == [1400, 600]
    assert (page.input_value("#me"), page.input_value("#opponent")) == ("1400", "600")
    assert _saved(page, "#export-record", tmp_path / "again.txt") == RECORD_500

    page.set_input_files("#record-file", [{  # a bad record: the CLI's line, nothing imported
        "name": "bad.txt", "mimeType": "text/plain",
        "buffer": RECORD_500.replace("captain", "captian").encode()}])
    page.wait_for_selector("#status.error")
    line = page.inner_text("#status")
    assert line.startswith("game record: turn 1 (line 7): unknown card 'captian'; known: ")
    assert "\n" not in line and page.inner_text("#turn-line") == "Turn 3: player 1 to play"
    page.select_option("#language", "fr")  # the review is drawn again in French
    french = TABLES["fr"]
    # the French words load asynchronously; wait for the redraw, then read it
    page.wait_for_function("(title) => document.querySelector('#review h2').innerText === title",
                           arg=french["review.title"])
    assert page.inner_text("#review h2") == french["review.title"]
    assert [r["rating"] for r in _shown_review(page)["summary"]] == [
        french[f"review.rating.{r['rating']}"] for r in doc["summary"]]


ARMADA_RECORD = """# A game record (treasure-solver): the format is models/armada/record.md
game armada
players P1, P2

P1: BBOPA, BBBAA, take full-house
P2: OOOPP, take three-of-a-kind
"""


def test_a_gold_armada_game_recorded_and_reviewed(base_url, browser, tmp_path, monkeypatch):
    """Gold Armada: two turns played on the page are the record; Review shows the CLI's
    review, and the record imported into a new game gives the turns and the review again.
    The review's board is reduced (four piers, two skulls) for the server and the CLI alike,
    so the duel table takes a second, not a minute; the page plays on the shipped board, its
    advice aiming at the turn (no table), and takes only piers the reduced board has."""
    from solver.armada import game as game_module
    from solver.armada.review_cli import chart_series

    game = game_module.default_game().reduced(
        piers=["barrels", "parrots", "three-of-a-kind", "full-house"], skulls=2)
    monkeypatch.setattr(game_module, "default_game", lambda variants=(): game)
    with _page_set(browser, f"{base_url}/armada.html", "treasure.armada.settings",
                   {"objective": "turn", "variants": []}) as page:
        _play_and_review_armada(page, tmp_path, chart_series)


def _play_and_review_armada(page, tmp_path, chart_series) -> None:
    for rolls, take in ((["BBOPA", "BBBAA"], "full-house"), (["OOOPP"], "three-of-a-kind")):
        for left, roll in zip((2, 1), rolls, strict=False):
            tap_dice(page, roll)
            wait_for_advice(page, dice=roll, rolls_left=left)
        page.click("#next-player")
        page.select_option("#turn-take", take)
        page.click("#confirm-turn")
    path = tmp_path / "armada.txt"
    assert _saved(page, "#export-record", path) == ARMADA_RECORD
    doc = cli_json("armada", "review", str(path))
    page.click("#review-game")
    _check_review(page, doc, chart_series)

    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#new-game")
    page.set_input_files("#record-file", str(path))
    _check_review(page, doc, chart_series)
    assert [int(li.get_attribute("data-points")) for li in page.query_selector_all("#turns li")
            ] == [t["token"] for t in doc["turns"]] == [3, 2]
    assert page.inner_text("#turn-line") == "Turn 3: player 1 to play"
    assert _saved(page, "#export-record", tmp_path / "again.txt") == ARMADA_RECORD
