// The dice on both pages: a palette of faces to tap, a tray of the dice showing, and the
// pictures of dice (with the advice's marks) in the answer.
import { $, el } from "./common.js";
import { face } from "./icons.js";

/**
 * The dice input in #palette and #tray (and the count in #dice-count, the #clear-dice
 * button): faces [{letter, name}], count dice, onChange() after every tap.
 */
export class Dice {
  constructor(faces, count, onChange) {
    this.faces = faces;
    this.count = count;
    this.letters = [];
    this.onChange = onChange;
    $("#clear-dice").onclick = () => this.set([]);
    $("#palette").replaceChildren(...faces.map((f) => el("button", {
      type: "button", class: "face", "data-face": f.letter, title: f.name,
      "aria-label": `add ${f.name}`,
      onclick: () => { if (!this.full()) this.set([...this.letters, f.letter]); },
    }, el("span", { class: "picture", html: face(f.name) }), el("span", {}, f.name))));
    this.drawTray();
  }

  full() { return this.letters.length >= this.count; }

  text() { return this.letters.join(""); }

  set(letters) {
    this.letters = letters;
    this.drawTray();
    this.onChange();
  }

  name(letter) { return this.faces.find((f) => f.letter === letter)?.name ?? letter; }

  /** One die's picture; mark ("reroll", "protect", "keep") draws the advice on it. */
  die(letter, mark = "") {
    return el("span", { class: `die ${mark ? `mark-${mark}` : ""}`, "data-letter": letter,
                        "data-mark": mark || false, html: face(this.name(letter)) });
  }

  /** Small dice in a row, for the options table. */
  mini(letters) {
    return el("span", { class: "mini" }, [...(letters || "")].map((letter) => this.die(letter)));
  }

  /** The dice showing, each marked as marks[i] says (the best move drawn on them). */
  marked(marks) {
    return el("div", { id: "best-dice", class: "tray result" },
      this.letters.map((letter, i) => this.die(letter, marks[i])));
  }

  drawTray() {
    const slots = this.letters.map((letter, i) => el("button", {
      type: "button", class: "slot", "aria-label": `remove ${this.name(letter)}`,
      onclick: () => this.set(this.letters.filter((_, j) => j !== i)),
    }, this.die(letter)));
    while (slots.length < this.count) slots.push(el("span", { class: "slot empty" }));
    $("#tray").replaceChildren(...slots);
    $("#dice-count").textContent = `${this.letters.length} of ${this.count}`;
    for (const button of document.querySelectorAll("#palette .face")) {
      button.disabled = this.full();
    }
  }
}
