"""Driving the table companion's pages in Debian's headless Chromium (through Playwright, which
downloads nothing here: it is pointed at /usr/bin/chromium), for the browser tests and for
``make screenshots``.

``python -m tests.web_browser [FOLDER]`` writes the screenshots of both pages, each showing
real advice for a sample position, into FOLDER (default ``reports/web``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CHROMIUM = os.environ.get("TREASURE_CHROMIUM", "/usr/bin/chromium")  # Debian's package
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1280, "height": 800}
ANSWER_SECONDS = 600  # the longest a test waits for advice (a cold table is built first)


def browser_missing() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (pip install -e '.[test]')"
    if not Path(CHROMIUM).exists():
        return (f"no browser: {CHROMIUM} is missing "
                "(apt-get install chromium chromium-driver; .ci/run does it)")
    return None


def launch(playwright: Any) -> Any:
    """Debian's Chromium, headless, with nothing fetched from the network."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


# -- the pages ---------------------------------------------------------------------------------

def open_page(page: Any, url: str) -> None:
    """Load a page and wait until it has drawn its controls from /api/options."""
    page.goto(url)
    page.wait_for_selector("body[data-ready]", state="attached")


@contextmanager
def page_in_language(browser: Any, url: str, locale: str) -> Iterator[Any]:
    """A phone-sized page at url in a new browser context whose language is locale (nothing
    remembered from other pages), loaded; on leaving, the context is closed and any script
    error fails the test."""
    context = browser.new_context(viewport=PHONE, locale=locale)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        open_page(page, url)
        yield page
    finally:
        context.close()
    assert not errors, errors


def tap_dice(page: Any, letters: str) -> None:
    """Clear the dice and tap each face in turn."""
    page.click("#clear-dice")
    for letter in letters:
        page.click(f'#palette [data-face="{letter}"]')


def wait_for_advice(page: Any, **fields: object) -> None:
    """Wait until the advice is labelled with these query fields (data-* attributes on
    #advice, e.g. dice="CCDMPSXX") and nothing is pending."""
    labels = "".join(f'[data-{_kebab(k)}="{v}"]' for k, v in fields.items())
    page.wait_for_selector(f"#advice{labels}", state="attached", timeout=1000 * ANSWER_SECONDS)
    page.wait_for_selector("#status.working", state="detached", timeout=1000 * ANSWER_SECONDS)


def _kebab(name: str) -> str:
    return "".join(f"-{c.lower()}" if c.isupper() else c for c in name).replace("_", "-")


def sabords_position(page: Any, card: str, dice: str, me: int | None = None,
                     opponent: int | None = None) -> None:
    """Tap a card and the dice, type the scores (or clear them), wait for the advice."""
    page.click("#clear-scores")
    if me is not None:
        page.fill("#me", str(me))
        page.fill("#opponent", str(opponent))
    page.click(f'#cards [data-card="{card}"]')
    tap_dice(page, dice)
    wait_for_advice(page, card=card, dice=dice, me="" if me is None else me,
                    opponent="" if opponent is None else opponent)


def read_sabords(page: Any) -> dict:
    """What the Mille Sabords page shows: the verdict, the dice it marks, the best value,
    the chance to bust, the points line and every option row (text and data)."""
    return page.evaluate("""() => {
      const q = (s) => document.querySelector(s);
      const rows = [...document.querySelectorAll('#options tbody tr')].map((tr) => ({
        action: tr.dataset.action, reroll: tr.dataset.reroll, protect: tr.dataset.protect,
        value: Number(tr.dataset.value),
        cells: [...tr.querySelectorAll('td')].map((td) => td.innerText.trim()),
      }));
      const marked = (mark) => [...document.querySelectorAll(
        `#best-dice .die[data-mark="${mark}"]`)].map((d) => d.dataset.letter).join('');
      return {
        action: q('#verdict').dataset.action, verdict: q('#verdict').innerText,
        reroll_marked: marked('reroll'), protect_marked: marked('protect'),
        value: Number(q('#best-value').dataset.value), value_text: q('#best-value').innerText,
        bust_text: q('#best-bust') ? q('#best-bust').innerText : null,
        differs: q('#differs') ? q('#differs').innerText : null,
        differs_action: q('#differs') ? q('#differs').dataset.action : null,
        rows,
      };
    }""")


def armada_position(page: Any, dice: str, taken: dict[str, int], skulls: int,
                    rolls_left: int) -> str:
    """Tap the piers (doubloons taken on each named pier), the skulls taken, the rolls left
    and the dice; wait for the advice. Returns the board state the page shows."""
    page.click("#clear-board")
    for pier, count in taken.items():
        for _ in range(count):
            page.click(f'#piers [data-pier="{pier}"]')
    page.click(f'#skulls [data-value="{skulls}"]')
    page.click(f'#rolls [data-value="{rolls_left}"]')
    tap_dice(page, dice)
    state = page.inner_text("#board-state")
    wait_for_advice(page, dice=dice, board_state=state, rolls_left=rolls_left)
    return state


def read_armada(page: Any) -> dict:
    """What the Gold Armada page shows: the verdict, the marked dice, the best value, the
    likeliest outcomes and every option row."""
    return page.evaluate("""() => {
      const q = (s) => document.querySelector(s);
      const verdict = q('#verdict');
      return {
        keep: verdict.dataset.keep ?? null, reroll: verdict.dataset.reroll ?? null,
        take: verdict.dataset.take ?? null, verdict: verdict.innerText,
        reroll_marked: [...document.querySelectorAll('#best-dice .die[data-mark="reroll"]')]
          .map((d) => d.dataset.letter).join(''),
        value: Number(q('#best-value').dataset.value), value_text: q('#best-value').innerText,
        reach: [...document.querySelectorAll('#reach li')].map((li) => ({
          outcome: li.dataset.outcome, p: Number(li.dataset.p),
          text: li.querySelector('.num').innerText })),
        rows: [...document.querySelectorAll('#options tbody tr')].map((tr) => ({
          keep: tr.dataset.keep ?? null, take: tr.dataset.take ?? null,
          value: Number(tr.dataset.value),
          cells: [...tr.querySelectorAll('td')].map((td) => td.innerText.trim()) })),
      };
    }""")


def off_screen(page: Any) -> list[str]:
    """Visible elements that reach past the viewport's left or right edge (none should)."""
    return page.evaluate("""() => {
      const width = document.documentElement.clientWidth;
      const bad = [];
      for (const node of document.body.querySelectorAll('*')) {
        const box = node.getBoundingClientRect();
        if (box.width === 0 || box.height === 0) continue;
        if (getComputedStyle(node).visibility === 'hidden') continue;
        if (box.left < -1 || box.right > width + 1) {
          const name = `${node.tagName.toLowerCase()}#${node.id}`;
          bad.push(`${name} ${Math.round(box.left)}..${Math.round(box.right)} of ${width}`);
        }
      }
      if (document.documentElement.scrollWidth > width) {
        bad.push(`page scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`);
      }
      return bad;
    }""")


# -- make screenshots --------------------------------------------------------------------------

DRAGON_EXAMPLE = Path(__file__).parent.parent / "models" / "dracheninsel" / "example-position.toml"
DRAGON_HAND = ["flight", "water", "desert", "mountain", "swap-adjacent", "dragon-patrol"]


def dragon_position(page: Any, text: str, hunter: str, hand: list[str]) -> None:
    """Import a position file's text, tap the hand's cards and the hunter to move; wait for
    the route (and, with a Drachenpatrouille in hand, the patrol) to be drawn."""
    page.fill("#position-file", text)
    page.evaluate("document.querySelector('#board').dataset.drawn = 'old'")
    page.click("#import")
    page.wait_for_function("!document.querySelector('#board').dataset.drawn")
    page.click("#clear-hand")
    for card in hand:
        page.click(f'#card-palette [data-card="{card}"]')
    page.click(f'#mover [data-value="{hunter}"]')
    wait_for_advice(page, hunter=hunter, hand=",".join(hand))
    if "dragon-patrol" in hand:
        page.wait_for_selector("#patrol-advice", state="attached")


def screenshots(folder: Path) -> list[Path]:
    """The three pages at phone size (the whole page) and at laptop size, in English, each
    showing the advice for a sample position, served by the real app (the shipped game table,
    the user's cache for the Gold Armada table): Mille Sabords with the score box, Gold
    Armada, and Die Dracheninsel's shipped example position with green's route drawn."""
    from playwright.sync_api import sync_playwright

    from solver.web.app import create_app
    from solver.web.serve import in_thread

    dragon_text = DRAGON_EXAMPLE.read_text(encoding="utf-8")
    pages = [
        ("sabords", lambda page: sabords_position(page, "captain", "CCDMPSXX", me=5400,
                                                  opponent=5900)),
        ("armada", lambda page: armada_position(page, "BBOPA", {"barrels": 1, "full-house": 1},
                                                1, 2)),
        ("dragon", lambda page: dragon_position(page, dragon_text, "green", DRAGON_HAND)),
    ]
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    with in_thread(create_app()) as base, sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            for size_name, size in (("", PHONE), ("-laptop", LAPTOP)):
                page = browser.new_page(viewport=size, locale="en-US")
                for name, show in pages:
                    open_page(page, f"{base}/{name}.html")
                    show(page)
                    path = folder / f"{name}{size_name}.png"
                    page.evaluate("window.scrollTo(0, 0)")
                    page.screenshot(path=path, full_page=not size_name, animations="disabled",
                                    caret="hide")
                    written.append(path)
                page.close()
        finally:
            browser.close()
    return written


def main() -> None:
    reason = browser_missing()
    if reason:
        sys.exit(f"make screenshots: {reason}")
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "reports/web")
    for path in screenshots(folder):
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
