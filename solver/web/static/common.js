// Shared by the two pages: talking to the API, the working indicator, saved settings.

const $ = (selector, root = document) => root.querySelector(selector);
export { $ };

/** Create an element: el("button", {class: "x", onclick: f}, child, ...). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "html") node.innerHTML = value;
    else if (value !== false && value !== null && value !== undefined) {
      node.setAttribute(key, value === true ? "" : value);
    }
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** The status line: working (with a spinner), an error, or nothing. */
export const status = {
  working(text) {
    const line = $("#status");
    line.className = "status working";
    line.replaceChildren(el("span", { class: "spinner", "aria-hidden": "true" }), text);
    document.body.setAttribute("aria-busy", "true");
  },
  error(text) {
    const line = $("#status");
    line.className = "status error";
    line.textContent = text;
    document.body.removeAttribute("aria-busy");
  },
  clear() {
    const line = $("#status");
    line.className = "status";
    line.textContent = "";
    document.body.removeAttribute("aria-busy");
  },
};

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A one-line message from a failed response. */
async function detail(response) {
  try {
    const doc = await response.json();
    if (typeof doc.detail === "string") return doc.detail;
    return JSON.stringify(doc.detail ?? doc);
  } catch {
    return `${response.status} ${response.statusText}`;
  }
}

/**
 * POST body to path and return the JSON answer. A 202 ("building a table") is shown on the
 * status line and the request repeated after retry_after seconds until the answer comes.
 * Throws Error(one line) on a refusal; an AbortSignal cancels the wait.
 */
export async function post(path, body, signal) {
  for (;;) {
    const response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      signal,
    });
    if (response.status === 202) {
      const doc = await response.json();
      status.working(doc.detail || "building a table…");
      await sleep(1000 * (doc.retry_after || 5));
      if (signal?.aborted) throw new DOMException("aborted", "AbortError");
      continue;
    }
    if (!response.ok) throw new Error(await detail(response));
    return response.json();
  }
}

/** GET /api/options (the cards, faces, variants, piers and targets). */
export async function options() {
  const response = await fetch("/api/options");
  if (!response.ok) throw new Error(await detail(response));
  return response.json();
}

/**
 * Run one query at a time: a new call cancels the one in flight, so only the answer to the
 * latest position is drawn. run(work) passes work an AbortSignal.
 */
export function latestOnly() {
  let current = null;
  return async function run(work) {
    current?.abort();
    const controller = new AbortController();
    current = controller;
    try {
      return await work(controller.signal);
    } finally {
      if (current === controller) current = null;
    }
  };
}

/** Settings kept in localStorage under key, merged over defaults. */
export function loadSettings(key, defaults) {
  try {
    return { ...defaults, ...JSON.parse(localStorage.getItem(key) || "{}") };
  } catch {
    return { ...defaults };
  }
}

export function saveSettings(key, settings) {
  try {
    localStorage.setItem(key, JSON.stringify(settings));
  } catch {
    // private browsing: settings last for this visit only
  }
}

/** Probability as a percentage with one decimal ("30.6%"). */
export const percent = (p) => `${(100 * p).toFixed(1)}%`;

/** P(win) with two decimals, enough to tell close options apart ("40.66%"). */
export const winPercent = (p) => `${(100 * p).toFixed(2)}%`;

/** Dice letters -> a multiset {letter: count}. */
export function countLetters(text) {
  const counts = {};
  for (const letter of text || "") counts[letter] = (counts[letter] || 0) + 1;
  return counts;
}

/**
 * Mark which of the dice showing (letters in tap order) the advice names: for each die, the
 * first of marks (e.g. {reroll: "MP", protect: "CC"}) whose multiset still holds its letter.
 */
export function markDice(letters, marks) {
  const left = Object.fromEntries(
    Object.entries(marks).map(([mark, text]) => [mark, countLetters(text)]));
  return letters.map((letter) => {
    for (const [mark, counts] of Object.entries(left)) {
      if (counts[letter] > 0) {
        counts[letter] -= 1;
        return mark;
      }
    }
    return "keep";
  });
}

/**
 * Label the advice with the query it answers (data-* attributes: what a reader, or a test,
 * checks before trusting it); null clears the labels while a new query is pending.
 */
export function stamp(node, fields) {
  for (const key of Object.keys(node.dataset)) delete node.dataset[key];
  for (const [key, value] of Object.entries(fields || {})) node.dataset[key] = String(value);
}

/** The Settings button shows and hides the #settings panel. */
export function settingsToggle() {
  $("#settings-button").onclick = () => {
    const panel = $("#settings");
    panel.hidden = !panel.hidden;
    $("#settings-button").setAttribute("aria-expanded", String(!panel.hidden));
  };
}

/** A checkbox per rule variant in #variants; settings.variants is kept up to date. */
export function variantBoxes(variants, settings, onChange) {
  $("#variants").replaceChildren(...variants.map((v) => el("label", { class: "check" },
    el("input", { type: "checkbox", value: v.name, checked: settings.variants.includes(v.name),
                  onchange: (e) => {
                    const on = new Set(settings.variants);
                    if (e.target.checked) on.add(v.name); else on.delete(v.name);
                    settings.variants = [...on];
                    onChange();
                  } }),
    el("span", {}, el("b", {}, v.name), " ", v.summary))));
}

/**
 * Ask for advice once the dice are all in: clears the advice and shows the working indicator,
 * then draw(answer) with the query's fields stamped on #advice, or the error's one line.
 * Only the latest query is drawn.
 */
export async function advise(dice, query, draw) {
  const advice = $("#advice");
  stamp(advice, null);
  if (!dice.full()) {
    runLatest(async () => {});
    status.clear();
    advice.replaceChildren(el("p", { class: "hint" },
      `Tap ${dice.count - dice.letters.length} more dice.`));
    return;
  }
  status.working("working…");
  try {
    await runLatest(async (signal) => {
      const { answer, fields } = await query(signal);
      status.clear();
      draw(answer);
      stamp(advice, fields);
    });
  } catch (error) {
    if (error.name === "AbortError") return;
    status.error(error.message);
    advice.replaceChildren();
  }
}
const runLatest = latestOnly();

/** A "show all N options" / "show fewer" button, or nothing when all are shown anyway. */
export function showAllButton(total, shown, showingAll, toggle) {
  if (total <= shown) return null;
  return el("button", { type: "button", class: "small", id: "show-all", onclick: toggle },
    showingAll ? "Show fewer" : `Show all ${total} options`);
}
