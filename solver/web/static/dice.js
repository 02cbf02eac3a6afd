// The dice on the pages: a palette of faces to tap, a tray of the dice showing (with an undo of
// every tap), and the pictures of dice (with the advice's marks) in the answer.
import { $, el, named, t } from "./common.js";
import { face } from "./icons.js";

/**
 * The dice input in #palette and #tray (and the count in #dice-count, the #clear-dice and
 * #undo-dice buttons): faces [{letter, name}] of game ("sabords", "armada": their printed
 * names), count dice, onChange() after every change.
 */
export class Dice {
  constructor(faces, count, onChange, game) {
    this.faces = faces;
    this.count = count;
    this.game = game;
    this.letters = [];
    this.undone = [];  // the dice before each change, latest last
    this.onChange = onChange;
    $("#clear-dice").onclick = () => this.set([]);
    const undo = $("#undo-dice");
    if (undo) undo.onclick = () => this.undo();
    this.draw();
  }

  full() { return this.letters.length >= this.count; }

  text() { return this.letters.join(""); }

  /** Show letters (a tap, a clear, a step through the turn); undo() comes back. */
  set(letters) {
    if (letters.join("") === this.text()) return;
    this.undone.push(this.letters);
    this.letters = letters;
    this.drawTray();
    this.onChange();
  }

  /** Back to the dice before the last change; false when there is none. */
  undo() {
    if (this.undone.length === 0) return false;
    this.letters = this.undone.pop();
    this.drawTray();
    this.onChange();
    return true;
  }

  /** Forget the changes to undo (a new turn starts). */
  forget() {
    this.undone = [];
    this.drawTray();
  }

  name(letter) { return this.faces.find((f) => f.letter === letter)?.name ?? letter; }

  /** A face's name as printed in the page's language. */
  label(name) { return named(this.game, "faces", name); }

  /** One die's picture; mark ("reroll", "protect", "keep") draws the advice on it. */
  die(letter, mark = "") {
    return el("span", { class: `die ${mark ? `mark-${mark}` : ""}`, "data-letter": letter,
                        "data-mark": mark || false,
                        html: face(this.name(letter), this.label(this.name(letter))) });
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

  /** The palette and the tray, in the page's language. */
  draw() {
    $("#palette").replaceChildren(...this.faces.map((f) => el("button", {
      type: "button", class: "face", "data-face": f.letter, title: this.label(f.name),
      "aria-label": t("dice.add", { face: this.label(f.name) }),
      onclick: () => { if (!this.full()) this.set([...this.letters, f.letter]); },
    }, el("span", { class: "picture", html: face(f.name, this.label(f.name)) }),
    el("span", {}, this.label(f.name)))));
    this.drawTray();
  }

  drawTray() {
    const slots = this.letters.map((letter, i) => el("button", {
      type: "button", class: "slot", "aria-label": t("dice.remove",
        { face: this.label(this.name(letter)) }),
      onclick: () => this.set(this.letters.filter((_, j) => j !== i)),
    }, this.die(letter)));
    while (slots.length < this.count) slots.push(el("span", { class: "slot empty" }));
    $("#tray").replaceChildren(...slots);
    $("#dice-count").textContent = t("dice.count", { n: this.letters.length, count: this.count });
    for (const button of document.querySelectorAll("#palette .face")) {
      button.disabled = this.full();
    }
    const undo = $("#undo-dice");
    if (undo) undo.disabled = this.undone.length === 0;
  }
}
