// The replay viewer (#/replay): a log file dropped on the page (`xueliu play --log`, `simulate
// --log`, a match log), a hand just finished at a table, a finished hand of a table as its
// spectators saw it (#/replay/ID/N), or every hand of a finished match (#/replay/ID: the table's
// published log, docs/server.md), stepped event by event, back and forth,
// with every hand open or from one seat's view. Each seat's hand is its own fold of the events
// (fold.js), so a log holding every tile shows every hand exactly as the engine held it.
import { h, kbd } from "./dom.js";
import { HandView } from "./fold.js";
import { languageSwitch, t } from "./i18n.js";
import { describe } from "./log.js";
import * as N from "./names.js";
import { api } from "./net.js";
import { meldEl, sorted, tileEl } from "./tiles.js";

const STORED = "xueliu:replay"; // a hand handed over by the table page (sessionStorage)

/** The hands of a log's text: JSON lines or a JSON list (one hand), or a match log (its games). */
export function readLog(text) {
  const trimmed = text.trim();
  if (trimmed.startsWith("{")) {
    try {
      const whole = JSON.parse(trimmed);
      if (whole && whole.type === "match") return whole.games;
    } catch (e) {
      // not one object: JSON lines
    }
  }
  if (trimmed.startsWith("[")) return [JSON.parse(trimmed)];
  const events = trimmed.split("\n").filter((line) => line.trim()).map((line, i) => {
    try {
      return JSON.parse(line);
    } catch (e) {
      throw new Error(t("replay.not_json", { line: i + 1 }));
    }
  });
  if (!events.length || events[0].type !== "start") throw new Error(t("replay.no_start"));
  return [events];
}

export class ReplayView {
  constructor(root, tableId, hand) {
    this.root = root;
    this.hands = [];
    this.hand = 0;
    this.step = 0; // events shown
    this.viewer = "all"; // "all" or a seat
    this.error = null;
    this.onKey = (e) => this.key(e);
    document.addEventListener("keydown", this.onKey);
    const stored = sessionStorage.getItem(STORED);
    if (stored) {
      sessionStorage.removeItem(STORED);
      const { events, seat } = JSON.parse(stored);
      this.hands = [events];
      this.viewer = seat ?? "all";
      this.step = events.length;
    }
    if (tableId) this.loadTable(tableId, hand);
    this.render();
  }

  /** Finished hand `hand` of a table as its spectators saw it, or (no `hand`) every hand of a
   * finished match, from the table's log (published once the match is over). */
  async loadTable(tableId, hand) {
    try {
      this.hands = hand === undefined ? (await api.log(tableId)).games : [await api.hand(tableId, hand)];
      this.hand = this.step = 0;
      this.error = null;
    } catch (e) {
      this.error = t("replay.no_log", { id: tableId, why: e.message });
    }
    this.render();
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
  }

  /** Opens the replay of `events` as seat `seat` received them (null: a spectator's). */
  static open(events, seat) {
    sessionStorage.setItem(STORED, JSON.stringify({ events, seat }));
    location.hash = "#/replay";
  }

  async load(file) {
    try {
      this.hands = readLog(await file.text());
      this.hand = 0;
      this.step = 0;
      this.error = null;
    } catch (e) {
      this.error = `${file.name}: ${e.message}`;
    }
    this.render();
  }

  get events() {
    return this.hands[this.hand] || [];
  }

  go(step) {
    this.step = Math.max(0, Math.min(this.events.length, step));
    this.render();
  }

  key(e) {
    if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    const moves = { arrowright: this.step + 1, arrowleft: this.step - 1, home: 0, end: this.events.length };
    const to = moves[e.key.toLowerCase()];
    if (to !== undefined) {
      e.preventDefault();
      this.go(to);
    }
  }

  /** Each seat's own fold of the events shown (a seat's hand is known only to its own fold). */
  folds() {
    return [0, 1, 2, 3].map((seat) => {
      const view = new HandView(seat);
      for (const e of this.events.slice(0, this.step)) view.apply(e);
      return view;
    });
  }

  render() {
    const events = this.events;
    const folds = this.folds();
    const shown = this.viewer === "all" ? null : Number(this.viewer);
    const last = this.step > 0 ? events[this.step - 1] : null;
    const file = h("input#replay-file", { type: "file", accept: ".jsonl,.json,.log,.txt", onchange: (e) => e.target.files[0] && this.load(e.target.files[0]) });
    const drop = h(
      "label.dropzone#dropzone",
      {
        ondragover: (e) => e.preventDefault(),
        ondrop: (e) => {
          e.preventDefault();
          if (e.dataTransfer.files[0]) this.load(e.dataTransfer.files[0]);
        },
      },
      t("replay.drop"),
      " ",
      file,
    );
    const button = (id, text, to) => h(`button.small#${id}`, { onclick: () => this.go(to), disabled: !events.length }, text);
    const controls = h(
      "div.replay-controls",
      button("first", t("replay.first"), 0),
      button("back", t("replay.back"), this.step - 1),
      h("span#step", `${this.step} / ${events.length}`),
      button("next", t("replay.next"), this.step + 1),
      button("last", t("replay.last"), events.length),
      this.hands.length > 1 &&
        h("select#replay-hand", { onchange: (e) => ((this.hand = Number(e.target.value)), (this.step = 0), this.render()) }, this.hands.map((_, i) => h("option", { value: i, selected: i === this.hand }, t("replay.hand", { hand: i + 1 })))),
      h(
        "select#replay-viewer",
        { onchange: (e) => ((this.viewer = e.target.value), this.render()) },
        h("option", { value: "all", selected: this.viewer === "all" }, t("replay.all_open")),
        [0, 1, 2, 3].map((s) => h("option", { value: s, selected: String(this.viewer) === String(s) }, t("replay.view_of", { seat: N.seatName(s) }))),
      ),
      kbd("←"),
      kbd("→"),
    );
    const seats = [0, 1, 2, 3].map((seat) => this.seatEl(seat, folds[seat], shown));
    this.root.replaceChildren(
      h(
        "div.replay-page",
        h("header.bar", h("a.home", { href: "#/" }, t("brand")), h("span.tag", t("replay.title")), languageSwitch()),
        drop,
        this.error && h("p.notice.error#notice", { role: "alert" }, this.error),
        events.length > 0 && controls,
        events.length > 0 && h("p.replay-event#event", last ? describe(last, folds[shown ?? 0], shown) : t("replay.before")),
        events.length > 0 && h("div.replay-seats", seats),
      ),
    );
  }

  seatEl(seat, view, shown) {
    const s = view.seats[seat];
    const open = shown === null || shown === seat;
    const wild = (t) => view.wilds && t === "1s";
    const hand = open ? sorted(s.hand).map((t) => tileEl(t, { wild: wild(t) })) : Array.from({ length: s.count }, () => tileEl(null));
    return h(
      "section.replay-seat",
      { id: `replay-seat-${seat}`, dataset: { seat } },
      h("div.who", h("span.wind", N.wind(seat)), h("span.name", N.seat(seat)), s.void && h("span.badge", t("badge.void", { mark: N.suitMark(s.void) })), h("span.score", N.signed(s.delta))),
      h("div.replay-hand", { dataset: { open } }, hand),
      h("div.melds", s.melds.map((m) => meldEl(m, view.wilds))),
      h("div.river", s.river.map((t) => tileEl(t))),
    );
  }
}
