// After the game (issue 38): the turns played as the game record the command line reviews
// (models/<game>/record.md), saved as a .txt file or read from one, and the review drawn on
// the page: the server's answer to POST /api/<game>/review (what `treasure <game> review FILE
// --json` prints) and its chart (/review/chart: the series the command line's --plot draws).
import { $, el, number, onLanguage, post, status, t } from "./common.js";
import { download } from "./turns.js";

const DIGITS = { win: 4, points: 1, solo: 3, duel: 3 };  // as the command line prints them
const COLOURS = ["#1e88e5", "#e53935", "#43a047", "#8e24aa", "#fb8c00"];
const EPS = 1e-9;  // a cost below this is rounding (solver/review.py)

/** The players' names in the record: the imported ones, else P1, P2... */
export function names(game) {
  return game.names ?? Array.from({ length: game.players() }, (_, i) => `P${i + 1}`);
}

/**
 * The record of the turns played (the turn in play is not: it has no end yet). Imported turns
 * are the imported text as it was; the page's own turns follow, one line each, the kept dice
 * left to follow from consecutive rolls. page.header() gives the header's game lines (target,
 * variants), page.line(turn) a turn's line after "NAME: ".
 */
export function recordText(game, page) {
  const who = names(game);
  const lines = game.imported ? [game.imported.trimEnd()] : [
    `# A game record (treasure-solver): the format is models/${game.game}/record.md`,
    `game ${game.game}`, `players ${who.join(", ")}`, ...page.header(), ""];
  for (const turn of game.turns) {
    if (!turn.imported) lines.push(`${who[turn.player - 1]}: ${page.line(turn)}`);
  }
  return `${lines.join("\n")}\n`;
}

/** The record reviewed by the server: the review and its chart. */
async function reviewOf(game, text) {
  status.working(t("review.working"));
  const body = { record: text };
  const [doc, chart] = await Promise.all([post(`/api/${game.game}/review`, body),
    post(`/api/${game.game}/review/chart`, body)]);
  status.clear();
  return { doc, chart };
}

/**
 * The record's buttons (#export-record, #import-record, #review-game) after the game panel's,
 * and the #review section after the game's panel. page as for gamePanel, with header(),
 * line(turn) and load(doc), which replays an imported record's turns from its review (after
 * game.startImported); redraw() draws the page's turn and the game panel again.
 */
export function reviewPanel(game, page, redraw) {
  const button = (id, key, onclick) => el("button", { id, class: "small", type: "button",
                                                     "data-i18n": key, onclick }, t(key));
  const file = el("input", { id: "record-file", type: "file", accept: ".txt,text/plain",
                             hidden: true });
  const section = el("section", { id: "review", class: "panel later review", hidden: true });
  let shown = null;
  const show = (result) => {
    shown = result;
    section.replaceChildren(...drawReview(result));
    section.hidden = false;
  };
  onLanguage(() => { if (shown && !section.hidden) show(shown); });
  const failed = (error) => status.error(error.message);
  $("#new-game").after(
    button("export-record", "game.export-record",
      () => download(page.file.replace(/\.json$/, ".txt"), recordText(game, page), "text/plain")),
    button("import-record", "game.import-record", () => file.click()),
    button("review-game", "game.review",
      () => reviewOf(game, recordText(game, page)).then(show, failed)),
    file);
  file.onchange = async () => {
    const chosen = file.files[0];
    file.value = "";
    if (!chosen) return;
    const text = await chosen.text();
    try {
      const result = await reviewOf(game, text);
      game.startImported(text, result.doc.players);
      page.load(result.doc);
      redraw();
      show(result);
    } catch (error) {
      failed(error);
    }
  };
  $("#game").after(section);
  $("#new-game").addEventListener("click", () => {  // after the game panel's own handler
    if (game.turns.length === 0) section.hidden = true;
  });
}

/** The review: what the values are, the chart, each player's totals and largest mistakes,
 * and every card, roll and decision with its luck or cost. */
function drawReview({ doc, chart }) {
  const digits = DIGITS[doc.objective] ?? 3;
  const value = (x, signed = false) => (signed && x >= 0 ? "+" : "") + number(x, digits);
  const last = doc.summary[0]?.finished ? t("review.col.result") : t("review.col.now");
  const head = ["review.col.player", "review.col.luck", "review.col.error",
    "review.col.rating"].map((k) => t(k));
  const summary = el("table", { id: "review-summary", class: "options" },
    el("thead", {}, el("tr", {}, [...head, `${t("review.col.start")} → ${last}`].map((h, i) =>
      el("th", { class: i > 0 && i !== 3 ? "num" : false }, h)))),
    el("tbody", {}, doc.summary.map((r) => el("tr", { "data-player": r.player,
      "data-luck": r.luck, "data-error": r.error, "data-result": r.result },
    el("td", {}, r.player), el("td", { class: "num" }, value(r.luck, true)),
    el("td", { class: "num" }, value(r.error)),
    el("td", { class: "rating" }, t(`review.rating.${r.rating}`), el("br"),
      el("span", { class: "hint" }, t("review.per-decision", { n: number(r.decisions),
        error: number(r.average_error, digits + 1) }))),
    el("td", { class: "num" }, value(r.start), el("br"), `→ ${value(r.result)}`)))));
  const mistakes = doc.summary.map((r) => el("div", { class: "mistakes" },
    el("h4", {}, t("review.largest", { player: r.player })),
    r.largest.length === 0 ? el("p", { class: "hint" }, t("review.none"))
      : el("ol", {}, r.largest.map((e) => el("li", { "data-cost": e.cost },
        t("review.mistake", { turn: e.turn, roll: e.roll, position: e.position,
                              played: e.played, best: e.best, cost: value(e.cost) }))))));
  return [
    el("h2", { "data-i18n": "review.title" }, t("review.title")),
    el("p", { class: "hint", id: "review-values" }, t(`review.values.${doc.objective}`,
      { target: doc.target === null ? "" : number(doc.target) })),
    drawChart(chart, doc.objective, digits),
    summary, ...mistakes,
    el("h3", {}, t("review.events")),
    eventsTable(doc, value),
  ];
}

/** Every card, roll and decision: its luck (signed), or what was played, the best play and
 * the cost (unsigned, marked when above rounding). */
function eventsTable(doc, value) {
  const mover = Object.fromEntries(doc.turns.map((turn) => [turn.turn, turn.player]));
  const rows = doc.events.map((e) => {
    const decision = e.kind === "decision";
    const what = decision ? t("review.decision", { position: e.position, played: e.played,
                                                    best: e.best })
      : e.label ?? t("review.roll", { roll: e.roll, dice: e.dice });
    return el("tr", { "data-kind": e.kind, "data-turn": e.turn,
                      "data-value": decision ? e.cost : e.luck,
                      class: decision && e.cost > EPS ? "costly" : false },
    el("td", {}, number(e.turn), el("br"), doc.players[mover[e.turn]]), el("td", {}, what),
    el("td", { class: "num" }, decision ? value(e.cost) : value(e.luck, true)));
  });
  return el("table", { id: "review-events", class: "options" },
    el("thead", {}, el("tr", {}, ["review.col.turn", "review.col.event", "review.col.value"]
      .map((k, i) => el("th", { class: i === 2 ? "num" : false }, t(k))))),
    el("tbody", {}, rows));
}

/** The chart as SVG: a step line per player through the game, turns along the bottom. */
function drawChart(chart, objective, digits) {
  const [W, H, L, R, T, B] = [600, 300, 70, 12, 12, 36];
  const all = chart.series.flat();
  let [low, high] = chart.range ?? [Math.min(...all, 0), Math.max(...all, 0)];
  if (high - low < EPS) { low -= 1; high += 1; }
  const x = (v) => L + ((W - L - R) * v) / Math.max(chart.turns, 1);
  const y = (v) => T + ((H - T - B) * (high - v)) / (high - low);
  const svg = (tag, attrs, ...children) => {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    node.append(...children);
    return node;
  };
  const ticks = [low, (low + high) / 2, high].map((v) => svg("g", {},
    svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), stroke: "#ddd" }),
    svg("text", { x: L - 4, y: y(v) + 4, "text-anchor": "end", "font-size": 20 },
      number(v, objective === "win" ? 1 : 0))));
  const step = Math.max(1, Math.ceil(chart.turns / 10));
  const turns = Array.from({ length: Math.floor(chart.turns / step) + 1 }, (_, k) => k * step)
    .map((k) => svg("text", { x: x(k), y: H - 12, "text-anchor": "middle", "font-size": 20 },
      String(k)));
  const lines = chart.series.map((series, p) => {
    const points = series.flatMap((v, i) => (i + 1 < series.length
      ? [[chart.x[i], v], [chart.x[i + 1], v]] : [[chart.x[i], v]]));
    return svg("polyline", { points: points.map(([a, b]) => `${x(a)},${y(b)}`).join(" "),
                             fill: "none", stroke: COLOURS[p % COLOURS.length],
                             "stroke-width": 2, "data-player": chart.players[p],
                             "data-points": series.length,
                             "data-last": series.length ? series[series.length - 1] : "" });
  });
  const legend = el("p", { class: "legend" }, chart.players.map((name, p) =>
    el("span", { class: "key", style: `color: ${COLOURS[p % COLOURS.length]}` }, `■ ${name}`)));
  return el("figure", { id: "review-chart", class: "chart" },
    el("figcaption", {}, t(`review.chart.${objective}`)),
    svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": t(`review.chart.${objective}`),
                 "data-digits": digits },
    svg("line", { x1: L, x2: L, y1: T, y2: H - B, stroke: "#888" }),
    svg("line", { x1: L, x2: W - R, y1: H - B, y2: H - B, stroke: "#888" }),
    ...ticks, ...turns, ...lines),
    legend);
}
