// Shared by the pages: the language, talking to the API, the working indicator, saved
// settings.

const $ = (selector, root = document) => root.querySelector(selector);
export { $ };

/* ---------- languages ---------- */

/**
 * The pages speak English, French and German. Strings are data: i18n/<language>.json (page
 * words, by key; English is the fallback) and i18n/names.json (cards, faces and piers as
 * printed, written from solver/web/i18n.py). A page calls `await startLanguage()` once, then
 * uses t(key, params) and named(game, kind, name) in what it draws, and data-i18n="key" (text)
 * or data-i18n-attr="attribute:key ..." in its HTML; onLanguage(redraw) redraws the rest when
 * the switch in the header changes the language (remembered in localStorage).
 */
export const LANGUAGES = ["en", "fr", "de"];
const LANGUAGE_KEY = "treasure.language";
// The words a page needs when the tables cannot be fetched (the server is gone); a test
// checks that they are en.json's.
const BUILT_IN = { "status.unreachable": "cannot reach the solver: {error}" };
const i18n = { lang: "en", strings: {}, fallback: {}, names: {}, redraws: [] };

/** The remembered language, else the browser's first of ours, else English. */
export function chooseLanguage() {
  let saved = null;
  try { saved = localStorage.getItem(LANGUAGE_KEY); } catch { /* private browsing */ }
  if (LANGUAGES.includes(saved)) return saved;
  for (const tag of navigator.languages || [navigator.language || ""]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

async function getJson(path) {
  const response = await fetch(path);
  if (!response.ok) throw new Error(`${path}: ${response.status} ${response.statusText}`);
  return response.json();
}

/** The language now shown ("en", "fr" or "de"). */
export const language = () => i18n.lang;

/** The page's words for key in the language, {name} replaced from params (English if the
 * language lacks the key, the key itself if English does too). */
export function t(key, params = {}) {
  const text = i18n.strings[key] ?? i18n.fallback[key] ?? BUILT_IN[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name])
    : whole));
}

/** The English words for key (to recognise a text the server sent in English). */
export const english = (key) => i18n.fallback[key] ?? key;

/** A card, face or pier as printed in the language: named("sabords", "cards", "captain"). */
export function named(game, kind, name) {
  const names = i18n.names[game]?.[kind]?.[name];
  return names?.[i18n.lang] ?? names?.en ?? name;
}

/** Set every data-i18n text and data-i18n-attr attribute under root. */
export function translate(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of node.dataset.i18nAttr.trim().split(/\s+/)) {
      const [attribute, key] = pair.split(":");
      node.setAttribute(attribute, t(key));
    }
  }
}

/** Call redraw (the parts drawn from data) whenever the language changes. */
export function onLanguage(redraw) { i18n.redraws.push(redraw); }

/** Show the page in lang; remember it when the player chose it. */
export async function setLanguage(lang, remember = false) {
  if (!LANGUAGES.includes(lang)) lang = "en";
  if (!i18n.fallback["language.name"]) {
    [i18n.fallback, i18n.names] = await Promise.all([getJson("i18n/en.json"),
      getJson("i18n/names.json")]);
  }
  i18n.strings = lang === "en" ? i18n.fallback : await getJson(`i18n/${lang}.json`);
  i18n.lang = lang;
  document.documentElement.lang = lang;
  if (remember) {
    try { localStorage.setItem(LANGUAGE_KEY, lang); } catch { /* this visit only */ }
  }
  translate();
  const choice = $("#language");
  if (choice) choice.value = lang;
  for (const redraw of i18n.redraws) redraw();
}

/** The language switch (in the header) and the first translation of the page. */
export async function startLanguage() {
  const header = $("header");
  if (header && !$("#language")) {
    const choice = el("select", { id: "language", class: "language",
                                  "data-i18n-attr": "aria-label:language.choose",
                                  onchange: () => setLanguage(choice.value, true) });
    header.append(choice);
  }
  await setLanguage(chooseLanguage());
  const choice = $("#language");
  if (choice) {
    const names = await Promise.all(LANGUAGES.map(async (lang) => (lang === i18n.lang
      ? t("language.name") : (await getJson(`i18n/${lang}.json`))["language.name"])));
    choice.replaceChildren(...LANGUAGES.map((lang, i) =>
      el("option", { value: lang, selected: lang === i18n.lang }, names[i])));
  }
}

/** x with digits decimals, as the language writes numbers ("1,157.6", "1 157,6"). */
export function number(x, digits = 0) {
  return new Intl.NumberFormat(i18n.lang, { minimumFractionDigits: digits,
                                            maximumFractionDigits: digits }).format(x);
}

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

/** Probability as a percentage with one decimal, as the language writes it ("30.6%",
 * "30,6 %"). */
export const percent = (p, digits = 1) => new Intl.NumberFormat(i18n.lang, {
  style: "percent", minimumFractionDigits: digits, maximumFractionDigits: digits }).format(p);

/** P(win) with two decimals, enough to tell close options apart ("40.66%"). */
export const winPercent = (p) => percent(p, 2);

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
      t("dice.more", { n: dice.count - dice.letters.length })));
    return;
  }
  status.working(t("status.working"));
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
    showingAll ? t("options.fewer") : t("options.all", { n: total }));
}
