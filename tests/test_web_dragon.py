"""Die Dracheninsel in the table companion: the API's answers are the command line's (the
route byte for byte as ``treasure dragon route --json`` prints it, the patrol as ``patrol
--json``), an impossible position is 422 with one line, the position file round-trips; and
in Debian's headless Chromium, a position tapped on the page is the one its export names, and
the route drawn is the CLI's route for that exported file."""

from __future__ import annotations

import json
import re
import tomllib

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from solver.cli import cli
from solver.dragon import route
from solver.dragon.board import default_island
from solver.dragon.position import position_from_data, position_toml
from solver.dragon.svg import draw_board
from tests import test_web_browser as shared_fixtures
from tests.web_browser import browser_missing, off_screen, open_page, page_in_language

HAND = ["flight", "swap-adjacent", "water", "mountain", "desert", "dragon-patrol"]
# red on 3,1; yellow and blue carry a treasure on -1,-1; grey waits on the treasure field;
# a dragon on 1,1; the tiles of 1,0 and 2,-2 swapped; 150 on the treasure field
TAPS_POSITION = {
    "treasure": 150, "dragons": ["1,1"],
    "hunters": {"red": {"at": "3,1"}, "yellow": {"at": "-1,-1", "with": "blue"},
                "blue": {"at": "-1,-1", "with": "yellow"}, "grey": {"at": "0,0"}},
}


def _position_data() -> dict:
    """TAPS_POSITION with every tile (1,0 and 2,-2 swapped), as a position file gives it."""
    isl = default_island()
    tiles = {isl.names[v]: t for v, t in zip(isl.fields, isl.start_tiles(), strict=False)}
    tiles["1,0"], tiles["2,-2"] = tiles["2,-2"], tiles["1,0"]
    return {**TAPS_POSITION, "tiles": tiles}


def cli_out(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.fixture(scope="module")
def client():
    from solver.web.app import create_app

    return TestClient(create_app())


@pytest.fixture(scope="module")
def position_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("dragon") / "game.toml"
    path.write_text(position_toml(position_from_data(_position_data(), default_island())),
                    encoding="utf-8")
    return path


# -- the API ---------------------------------------------------------------------------------

def test_the_route_is_the_cli_json_byte_for_byte(client, position_file):
    body = {"position": tomllib.loads(position_file.read_text(encoding="utf-8")),
            "hunter": "red", "hand": HAND}
    answer = client.post("/api/dragon/route", json=body)
    assert answer.status_code == 200
    printed = cli_out("dragon", "route", "--position", str(position_file), "--hunter", "red",
                      "--hand", ",".join(HAND), "--json")
    assert answer.text == printed
    doc = json.loads(printed)
    assert doc["reachable"] and doc["optimal"] and doc["start"] == "3,1"
    assert any(move["action"] == "flight" for move in doc["plan"])


def test_the_patrol_is_the_cli_json(client, position_file):
    body = {"position": tomllib.loads(position_file.read_text(encoding="utf-8")),
            "hunter": "red"}
    answer = client.post("/api/dragon/patrol", json=body)
    assert answer.status_code == 200
    assert answer.json() == json.loads(cli_out(
        "dragon", "patrol", "--position", str(position_file), "--hunter", "red", "--json"))


@pytest.mark.parametrize("change, words", [
    ({"dragons": ["1,1", "1,1"]}, "two dragons on one field"),
    ({"dragons": ["1,1", "2,2", "-2,2"]}, "3 dragons, at most 2 play"),
    ({"hunters": {"red": "1,1"}}, "red and a dragon on 1,1"),
    ({"dragons": ["0,-4"]}, "in front of a boat"),
    ({"hunters": {"red": "3,1", "blue": {"at": "2,2", "with": "red"}}}, "carries with red"),
    ({"hunters": {"red": "3,1", "blue": "0,0", "grey": "0,0"}}, "on the treasure field"),
    ({"treasure": 99}, "no coin of value 99"),
    ({"tiles": {"1,0": "lava"}}, "unknown terrain"),
    ({"hunters": {"red": "9,9"}}, "not on the island"),
    ({"hunters": {"blue": "boat"}}, "hunter red is not on the board"),
    ({"sea": 1}, "unknown key 'sea'"),
])
def test_an_impossible_position_is_422_with_one_line(client, change, words):
    body = {"position": {**TAPS_POSITION, **change}, "hunter": "red", "hand": HAND}
    answer = client.post("/api/dragon/route", json=body)
    assert answer.status_code == 422, answer.text
    detail = answer.json()["detail"]
    assert words in detail and "\n" not in detail and "Traceback" not in detail


@pytest.mark.parametrize("body, words", [
    ({"hunter": "red", "hand": ["lava"]}, "unknown card 'lava'"),
    ({"hunter": "red", "hand": []}, "no card given"),
    ({"hunter": "red", "hand": ["water"] * 7}, "hand"),
    ({"hunter": "purple", "hand": ["water"]}, "unknown hunter colour"),
    ({"hunter": "red", "hand": "water"}, "hand"),
    ({"hunter": "red", "hand": ["water"], "goal": "boat"}, "carries no treasure"),
    ({"hunter": "red", "hand": ["water"], "variants": ["no-such-reading"]}, "no-such-reading"),
    ({"hunter": "red", "hand": ["water"], "me": 1}, "me: unknown field"),
])
def test_a_bad_query_is_422_with_one_line(client, body, words):
    answer = client.post("/api/dragon/route", json=body)
    assert answer.status_code == 422, answer.text
    detail = answer.json()["detail"]
    assert words in detail and "\n" not in detail


def test_the_position_file_round_trips(client, position_file):
    text = position_file.read_text(encoding="utf-8")
    read = client.post("/api/dragon/position", json={"toml": text})
    assert read.status_code == 200
    assert read.json()["toml"] == text
    again = client.post("/api/dragon/position", json={"position": read.json()["position"]})
    assert again.json() == read.json()
    assert read.json()["position"]["hunters"]["blue"] == {"at": "-1,-1", "with": "yellow"}
    for bad, words in (({}, "send either"), ({"toml": "treasure = ="}, "malformed TOML"),
                       ({"toml": text, "position": {}}, "send either")):
        answer = client.post("/api/dragon/position", json=bad)
        assert answer.status_code == 422 and words in answer.json()["detail"]


def test_the_board_names_every_place_and_numbers_the_route(client, position_file):
    isl = default_island()
    data = tomllib.loads(position_file.read_text(encoding="utf-8"))
    route = json.loads(cli_out("dragon", "route", "--position", str(position_file), "--hunter",
                               "red", "--hand", ",".join(HAND), "--json"))
    svg = client.post("/api/dragon/board", json={"position": data, "route": route}).json()["svg"]
    for name in isl.names:
        assert f'data-field="{name}"' in svg
    assert "reconstructed layout" in svg
    for step, move in enumerate(route["plan"], 1):
        if move["action"] in ("step", "flight") or move["card"]:
            assert f'data-step="{step}"' in svg
    # the command line's picture is the same drawing without the labels, legend beside it
    pos = position_from_data(data, isl)
    plain = draw_board(pos, route, legend=False)
    assert "data-" not in plain and "Terrain (hunter colour)" not in svg
    assert plain.count("<") == svg.count("<")
    assert "data-" not in draw_board(pos, route) and "Terrain (hunter colour)" in draw_board(pos)


def test_the_options_name_the_cards_as_printed(client):
    opts = client.get("/api/dragon/options").json()
    names = {card["name"]: card["german"] for card in opts["cards"]}
    assert names["flight"] == "Tollkühner Flug"
    assert names["swap-adjacent"] == "Zerstörende Kräfte"
    assert names["water+volcano"] == "Wasser+Vulkan"
    assert len(opts["hunters"]) == 6 and opts["hand_size"] == 6
    assert opts["opening"]["hunters"]["red"] == {"at": "boat"}
    assert opts["route_deadline"] == route.DEADLINE


# -- in the browser --------------------------------------------------------------------------

REASON = browser_missing()
browser_only = pytest.mark.skipif(REASON is not None, reason=f"browser tests: {REASON}")


@pytest.fixture(scope="module")
def base_url():
    from solver.web.app import create_app
    from solver.web.serve import in_thread

    with in_thread(create_app()) as url:
        yield url


# the browser and a phone-sized page that fails on any script error: the other pages' fixtures
browser, phone = shared_fixtures.browser, shared_fixtures.phone


def tap_field(page, name: str) -> None:
    """Tap a field (or boat) of the board and wait for the board to be drawn again."""
    page.evaluate("document.querySelector('#board').dataset.drawn = 'old'")
    page.locator(f'#board [data-field="{name}"]').dispatch_event("click")
    page.wait_for_function("document.querySelector('#board svg') && "
                           "!document.querySelector('#board').dataset.drawn")


def tap_position(page) -> None:
    """TAPS_POSITION, tapped: hunters, the pair, the waiter, a dragon, a swap, the treasure."""
    page.click('#tools [data-value="remove"]')
    for colour in ("brown", "green"):
        tap_field(page, f"boat:{colour}")
    page.click('#tools [data-value="hunter"]')
    for colour, field in (("red", "3,1"), ("yellow", "-1,-1"), ("blue", "-1,-1"),
                          ("grey", "0,0")):
        page.click(f'#colours [data-value="{colour}"]')
        tap_field(page, field)
    page.click('#tools [data-value="dragon"]')
    tap_field(page, "1,1")
    page.click('#tools [data-value="swap"]')
    page.locator('#board [data-field="1,0"]').dispatch_event("click")
    tap_field(page, "2,-2")
    page.click('#treasure [data-value="150"]')


def exported(page) -> str:
    page.evaluate("document.querySelector('#position-file').value = ''")
    page.click("#export")
    page.wait_for_function("document.querySelector('#position-file').value !== ''")
    return page.input_value("#position-file")


@pytest.mark.slow
@browser_only
def test_a_tapped_position_gets_the_cli_route_drawn(base_url, phone, tmp_path):
    open_page(phone, f"{base_url}/dragon.html")
    assert "reconstructed layout" in phone.inner_text("#board-warning")
    tap_position(phone)
    text = exported(phone)
    assert position_from_data(tomllib.loads(text), default_island()) == position_from_data(
        _position_data(), default_island())
    for card in HAND:
        phone.click(f'#card-palette [data-card="{card}"]')
    phone.click('#mover [data-value="red"]')
    phone.wait_for_selector(f'#advice[data-hunter="red"][data-hand="{",".join(HAND)}"]',
                            state="attached", timeout=120_000)
    path = tmp_path / "game.toml"
    path.write_text(text, encoding="utf-8")
    doc = json.loads(cli_out("dragon", "route", "--position", str(path), "--hunter", "red",
                             "--hand", ",".join(HAND), "--json"))
    verdict = phone.locator("#verdict")
    assert verdict.get_attribute("data-reachable") == str(doc["reachable"]).lower()
    assert verdict.get_attribute("data-cards-used") == str(doc["cards_used"])
    assert phone.get_attribute("#optimal", "data-optimal") == str(doc["optimal"]).lower()
    rows = phone.evaluate("""() => [...document.querySelectorAll('#plan tbody tr')].map(
        (tr) => [tr.dataset.action, tr.dataset.to, tr.dataset.card])""")
    assert rows == [[m["action"], m["to"], m["card"] or ""] for m in doc["plan"]]
    used = [c for m in doc["plan"] for c in (m["card"], m.get("pay"), m.get("with")) if c]
    assert phone.get_attribute("#cards-used", "data-cards") == ",".join(used)
    left = list(HAND)
    for card in used:
        left.remove(card)
    assert phone.get_attribute("#cards-left", "data-cards") == ",".join(left)
    assert "Tollkühner Flug (flight)" in phone.inner_text("#plan")
    # every move that walks or flies is drawn, a flight as a dashed arc
    for step, move in enumerate(doc["plan"], 1):
        if move["action"] in ("step", "flight"):
            assert phone.locator(f'#board [data-step="{step}"]').count() >= 1
    flight = next(i for i, m in enumerate(doc["plan"], 1) if m["action"] == "flight")
    assert phone.locator(f'#board path[data-step="{flight}"]').count() == 1
    # move by move: after one step back, the last move's drawing is hidden
    phone.click("#step-prev")
    last = len(doc["plan"])
    assert phone.locator(f'#board [data-step="{last}"]').first.is_hidden()
    assert phone.locator('#board [data-step="1"]').first.is_visible()
    # the dragon patrol in hand: the CLI's suggestion
    patrol = json.loads(cli_out("dragon", "patrol", "--position", str(path), "--hunter", "red",
                                "--json"))
    phone.wait_for_selector("#patrol-advice", state="attached")
    assert phone.get_attribute("#patrol-advice", "data-to") == patrol["to"]
    phone.screenshot(path=tmp_path / "dragon.png", full_page=True)
    assert off_screen(phone) == []


@pytest.mark.slow
@browser_only
def test_import_and_an_impossible_position(base_url, phone, tmp_path):
    open_page(phone, f"{base_url}/dragon.html")
    text = position_toml(position_from_data(_position_data(), default_island()))
    phone.fill("#position-file", text)
    phone.click("#import")
    phone.wait_for_function("document.querySelector('#board [data-field=\"1,1\"]')")
    assert exported(phone) == text
    # a third dragon: the server's one line, on the status line
    phone.click('#tools [data-value="dragon"]')
    for field in ("2,2", "-2,2"):
        phone.locator(f'#board [data-field="{field}"]').dispatch_event("click")
    phone.wait_for_selector("#status.error", state="attached")
    assert phone.inner_text("#status") == "position: 3 dragons, at most 2 play"


@pytest.mark.slow
@browser_only
def test_the_screenshots_position_gets_the_cli_route(base_url, phone):
    """make screenshots' Die Dracheninsel picture (the shipped example position, imported)
    shows the command line's route and patrol for it."""
    from tests.web_browser import DRAGON_EXAMPLE, DRAGON_HAND, dragon_position

    open_page(phone, f"{base_url}/dragon.html")
    dragon_position(phone, DRAGON_EXAMPLE.read_text(encoding="utf-8"), "green", DRAGON_HAND)
    doc = json.loads(cli_out("dragon", "route", "--position", str(DRAGON_EXAMPLE), "--hunter",
                             "green", "--hand", ",".join(DRAGON_HAND), "--json"))
    rows = phone.evaluate("""() => [...document.querySelectorAll('#plan tbody tr')].map(
        (tr) => [tr.dataset.action, tr.dataset.to, tr.dataset.card])""")
    assert rows == [[m["action"], m["to"], m["card"] or ""] for m in doc["plan"]]
    assert any(m["action"] == "flight" for m in doc["plan"])
    patrol = json.loads(cli_out("dragon", "patrol", "--position", str(DRAGON_EXAMPLE),
                                "--hunter", "green", "--json"))
    assert phone.get_attribute("#patrol-advice", "data-to") == patrol["to"]


@pytest.mark.slow
@browser_only
def test_a_route_cut_by_its_deadline_names_the_servers_deadline(base_url, phone, monkeypatch):
    """The page's line for a route cut by its deadline says the server's deadline (the
    options carry route.DEADLINE), not a number written into the strings: cut to 1 ms, the
    shipped example's route reaches it on the page as on the command line."""
    from tests.web_browser import DRAGON_EXAMPLE, DRAGON_HAND, dragon_position

    monkeypatch.setattr(route, "DEADLINE", 0.001)
    open_page(phone, f"{base_url}/dragon.html")
    dragon_position(phone, DRAGON_EXAMPLE.read_text(encoding="utf-8"), "green", DRAGON_HAND)
    doc = json.loads(cli_out("dragon", "route", "--position", str(DRAGON_EXAMPLE), "--hunter",
                             "green", "--hand", ",".join(DRAGON_HAND), "--deadline", "0.001",
                             "--json"))
    assert doc["deadline_reached"] and not doc["optimal"]
    assert phone.get_attribute("#optimal", "data-optimal") == "false"
    assert "the answer's deadline of 0.001 seconds was reached" in phone.inner_text("#optimal")


# -- in French and German --------------------------------------------------------------------

def _words(lang: str) -> dict[str, str]:
    from solver.web.i18n import NAMES_FILE

    return json.loads((NAMES_FILE.parent / f"{lang}.json").read_text(encoding="utf-8"))


def _has(text: str, piece: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(piece)}(?!\w)", text) is not None


def _english_pieces(lang: str) -> list[str]:
    """The English words of every dragon.* key the language words otherwise: each text cut at
    its placeholders, the pieces of four letters or more that the language's own words do not
    use too (German says "Hand")."""
    en, other = _words("en"), _words(lang)
    own = "\n".join(text for key, text in other.items() if key.startswith("dragon."))
    pieces = set()
    for key, text in en.items():
        if key.startswith("dragon.") and other[key] != text:
            pieces.update(p.strip(" :;,.()") for p in re.split(r"\{\w+\}", text))
    return sorted(p for p in pieces if sum(c.isalpha() for c in p) >= 4 and not _has(own, p))


def _shown(page) -> str:
    """Everything the page shows or reads out: visible text, the board's words, every
    aria-label and title."""
    return page.evaluate("""() => [document.body.innerText,
      ...[...document.querySelectorAll('#board text')].map((n) => n.textContent),
      ...[...document.querySelectorAll('[aria-label], [title]')].flatMap((n) =>
        [n.getAttribute('aria-label'), n.getAttribute('title')]).filter(Boolean)].join('\\n')""")


def _english_left(page, lang: str) -> list[str]:
    text = _shown(page)
    return [p for p in _english_pieces(lang) if _has(text, p)]


def _verdict(page, words: dict[str, str]) -> str:
    """The verdict the page must show, in its words, from the answer it stamped."""
    data = page.evaluate("({...document.querySelector('#verdict').dataset})")
    goal = "treasure"  # the mover carries nothing
    if data["reachable"] == "true":
        kind = "reach-one" if data["cardsUsed"] == "1" else "reach"
        return words[f"dragon.verdict.{kind}.{goal}"].replace("{n}", data["cardsUsed"])
    if data["remaining"] == "none":
        return words[f"dragon.verdict.never.{goal}"]
    return words[f"dragon.verdict.later.{goal}"].replace("{n}", data["remaining"])


@pytest.mark.slow
@browser_only
def test_the_page_in_french_and_german(base_url, browser):
    """A French browser gets the page in French (cards by their printed German names with the
    French beside, colours, tools, verdict, the board's initials), the switch turns it German;
    no English word of the page's tables is left in either, and German fits a phone."""
    from solver.web.i18n import names_document

    names = names_document()["dragon"]
    with page_in_language(browser, f"{base_url}/dragon.html", "fr-FR") as page:
        _french_then_german(page, names)


def _french_then_german(page, names: dict) -> None:
    assert page.get_attribute("html", "lang") == "fr" and page.input_value("#language") == "fr"
    for card in HAND:
        page.click(f'#card-palette [data-card="{card}"]')
    page.click('#mover [data-value="red"]')
    page.wait_for_selector(f'#advice[data-hunter="red"][data-hand="{",".join(HAND)}"]',
                           state="attached", timeout=120_000)
    page.wait_for_selector("#patrol-advice", state="attached")
    fr = _words("fr")
    assert page.inner_text("#verdict") == _verdict(page, fr)
    assert page.inner_text('#card-palette [data-card="flight"]').split("\n") == [
        "Tollkühner Flug", "vol téméraire"]
    assert "Tollkühner Flug (vol téméraire)" in page.inner_text("#cards-used")
    assert page.inner_text("#tools").split("\n") == [
        fr[f"dragon.tool.{tool}"] for tool in ("hunter", "dragon", "swap", "remove")]
    colours = page.evaluate("[...document.querySelectorAll('#colours button')].map("
                            "(b) => [b.dataset.value, b.innerText])")
    assert colours and all(names["colours"][c]["fr"] == shown for c, shown in colours)
    initials = set(page.evaluate("[...document.querySelectorAll('#board [data-i18n^=\"dragon."
                                 "initials\"]')].map((n) => n.textContent)"))
    assert initials == {fr[f"dragon.initials.{c}"] for c in names["colours"]}
    assert _english_left(page, "fr") == []

    page.select_option("#language", "de")
    page.wait_for_function("document.documentElement.lang === 'de'")
    de = _words("de")
    assert page.inner_text("#verdict") == _verdict(page, de)
    assert page.inner_text('#card-palette [data-card="flight"]') == "Tollkühner Flug"
    assert page.inner_text('#card-palette [data-card="water+volcano"]') == "Wasser+Vulkan"
    assert page.inner_text("#tool-hint") == de["dragon.tool.hunter.hint"]
    assert "Ge" in page.inner_text("#board") and page.inner_text("h3") == "Drachenpatrouille"
    assert _english_left(page, "de") == []
    assert off_screen(page) == []
    page.select_option("#language", "en")  # the check sees the English words it looks for
    page.wait_for_function("document.documentElement.lang === 'en'")
    assert len(_english_left(page, "fr")) > 20
