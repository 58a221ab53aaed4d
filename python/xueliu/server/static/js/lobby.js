// The lobby: create a table, list the open ones, join a seat or watch. A table page reached by
// link without a seat offers the same choices for that one table.
import { h } from "./dom.js";
import * as N from "./names.js";
import { api, myName, tokens } from "./net.js";

const CLOCKS = {
  standard: { label: "standard: 15 s, 10 s to claim", clocks: { exchange: 15, void: 15, turn: 15, claim: 10, rob: 10 } },
  relaxed: { label: "relaxed: 30 s, 20 s to claim", clocks: { exchange: 30, void: 30, turn: 30, claim: 20, rob: 20 } },
  long: { label: "long: 2 min, 1 min to claim", clocks: { exchange: 120, void: 120, turn: 120, claim: 60, rob: 60 } },
};

export async function take(tableId, seat) {
  const answer = await api.join(tableId, seat, myName.get());
  tokens.put(tableId, seat, answer.token);
  const target = `#/t/${tableId}`;
  if (location.hash === target) window.dispatchEvent(new HashChangeEvent("hashchange"));
  else location.hash = target;
}

export class Lobby {
  constructor(root) {
    this.root = root;
    this.tables = [];
    this.presets = [];
    this.error = null;
    this.render();
    api
      .presets()
      .then((presets) => ((this.presets = presets), this.render()))
      .catch((e) => ((this.error = `Could not list the presets: ${e.message}`), this.render()));
    this.refresh();
    this.timer = setInterval(() => this.refresh(), 3000);
  }

  destroy() {
    clearInterval(this.timer);
  }

  async refresh() {
    try {
      this.tables = await api.tables();
    } catch (e) {
      this.error = `Could not list the tables: ${e.message}`;
    }
    const list = this.root.querySelector("#tables");
    if (list) list.replaceWith(this.list());
  }

  async create(form) {
    const data = new FormData(form);
    const options = {};
    if (data.get("cap") !== "preset") options.cap_fan = data.get("cap") === "none" ? null : Number(data.get("cap"));
    const mine = data.get("me") === "watch" ? null : Number(data.get("me"));
    const seats = [0, 1, 2, 3].map((s) => (s === mine ? "person" : data.get(`seat${s}`) || "greedy"));
    const settings = { preset: data.get("preset"), options, hands: Number(data.get("hands")), seats, clocks: CLOCKS[data.get("clock")].clocks };
    settings.next_hand_delay = Number(data.get("pause"));
    if (data.get("seed") !== "") settings.seed = Number(data.get("seed"));
    try {
      const table = await api.create(settings);
      if (mine === null) location.hash = `#/t/${table.id}/watch`;
      else await take(table.id, mine);
    } catch (e) {
      this.error = e.message;
      this.render();
    }
  }

  render() {
    this.root.replaceChildren(
      h(
        "div.lobby",
        h("header.bar", h("a.home", { href: "#/" }, "xueliu 血流"), h("span.tag", "Sichuan mahjong 四川麻将"), h("a.button.small#replay-link", { href: "#/replay" }, "Replay a log 回放")),
        h("h1", "Play Sichuan mahjong 四川麻将"),
        this.error && h("p.notice.error#notice", { role: "alert" }, this.error),
        h("div.lobby-grid", this.form(), h("section.panel", h("h2", "Open tables 牌桌"), this.list())),
      ),
    );
  }

  form() {
    const presets = this.presets.map((p) =>
      h("label.preset", h("input", { type: "radio", name: "preset", value: p.name, checked: p.name === "xuezhan" }), h("b", p.name), h("span", p.description)),
    );
    const seatRow = (s) =>
      h(
        "label.seat-choice",
        h("span", N.seatName(s)),
        h(
          "select",
          { name: `seat${s}`, id: `seat${s}` },
          Object.entries(N.BOTS).map(([bot, text]) => h("option", { value: bot }, `Bot ${text}`)),
          h("option", { value: "person" }, "Open: a person joins by link"),
        ),
      );
    const form = h(
      "form.panel#create",
      {
        onsubmit: (e) => {
          e.preventDefault();
          this.create(e.target);
        },
      },
      h("h2", "New table 开桌"),
      nameField(),
      h("fieldset", h("legend", "Rules 规则"), presets),
      h(
        "div.row",
        h("label", "Cap 封顶 ", h("select", { name: "cap", id: "cap" }, h("option", { value: "preset", id: "cap-preset" }, "the preset's"), [3, 4, 5, 6, 8].map((n) => h("option", { value: n }, `${n} fan`)), h("option", { value: "none" }, "no cap"))),
        h("label", "Hands 局数 ", h("select", { name: "hands", id: "hands" }, [1, 2, 4, 8, 16].map((n) => h("option", { value: n, selected: n === 4 }, n)))),
        h("label", "Clock 计时 ", h("select", { name: "clock", id: "clock" }, Object.entries(CLOCKS).map(([k, c]) => h("option", { value: k }, c.label)))),
      ),
      h(
        "div.row",
        h(
          "label",
          "Your seat 座位 ",
          h("select", { name: "me", id: "me" }, [0, 1, 2, 3].map((s) => h("option", { value: s }, N.seatName(s))), h("option", { value: "watch" }, "none: only watch")),
        ),
      ),
      h(
        "details.more",
        h("summary#more", "More settings"),
        h(
          "div.row",
          h("label", "Pause between hands ", h("select", { name: "pause", id: "pause" }, [1, 3, 5, 10].map((n) => h("option", { value: n, selected: n === 5 }, `${n} s`)))),
          h("label", "Seed 种子 ", h("input", { name: "seed", id: "seed", type: "number", min: 0, placeholder: "random", title: "the same seed and the same moves replay the same match" })),
        ),
      ),
      h("fieldset.seats", h("legend", "The other seats (yours is left out) 其他座位"), [0, 1, 2, 3].map(seatRow)),
      h("button.act.primary#create-table", { type: "submit" }, "Create table 开桌"),
    );
    const hide = () => {
      const me = form.querySelector("#me").value;
      for (let s = 0; s < 4; s++) form.querySelector(`#seat${s}`).closest("label").hidden = String(s) === me;
    };
    form.querySelector("#me").addEventListener("change", hide);
    hide();
    const cap = () => {
      const chosen = this.presets.find((p) => p.name === new FormData(form).get("preset"));
      if (chosen) form.querySelector("#cap-preset").textContent = `the preset's (${chosen.cap_fan === null ? "no cap" : `${chosen.cap_fan} fan`})`;
    };
    form.addEventListener("change", cap);
    cap();
    return form;
  }

  list() {
    const rows = this.tables.filter((t) => t.status !== "over");
    if (!rows.length) return h("div#tables", h("p.hint", "No tables yet: create one."));
    return h("div#tables", rows.map((t) => tableCard(t)));
  }
}

/** The name this browser sits down with, kept for the next table too. */
export function nameField() {
  return h(
    "label.name-field",
    "Your name 昵称 ",
    h("input", { id: "name", name: "name", maxLength: 24, placeholder: "shown to the table", value: myName.get(), oninput: (e) => myName.put(e.target.value) }),
  );
}

export function tableCard(t) {
  const mine = tokens.get(t.id);
  const seats = t.seats.map((s) => {
    const label = s.player === "bot" ? `bot ${s.bot}` : s.taken ? s.name || "player" : "open";
    const chip = h(`span.chip${s.player === "person" && !s.taken ? ".open" : ""}`, `${N.SEATS_ZH[s.seat]} ${label}`);
    if (s.player === "person" && !s.taken && !mine)
      return h("button.small.join", { dataset: { seat: s.seat }, onclick: () => take(t.id, s.seat).catch((e) => alert(e.message)) }, `Sit ${N.seatName(s.seat)}`);
    return chip;
  });
  return h(
    "article.table-card",
    { dataset: { table: t.id } },
    h("div", h("b", t.preset), ` · ${t.status} · hand ${Math.min(t.hands_played + 1, t.hands)} of ${t.hands}`),
    h("div.chips", seats),
    h("div", mine ? h("a.button", { href: `#/t/${t.id}` }, `Back to my seat (${N.SEATS[mine.seat]})`) : null, " ", h("a.button.watch", { href: `#/t/${t.id}/watch` }, "Watch 旁观")),
  );
}

/** A table reached by link with no seat of ours: sit in an open seat or watch. */
export async function joinPage(root, tableId) {
  try {
    const t = await api.table(tableId);
    const open = t.seats.some((s) => s.player === "person" && !s.taken) && !tokens.get(tableId);
    root.replaceChildren(
      h(
        "div.lobby",
        h("header.bar", h("a.home", { href: "#/" }, "xueliu 血流")),
        h("h1", `Table ${tableId}`),
        open && h("p", "A friend saved you a seat: type your name, then sit down."),
        open && nameField(),
        tableCard(t),
      ),
    );
  } catch (e) {
    root.replaceChildren(h("div.lobby", h("header.bar", h("a.home", { href: "#/" }, "xueliu 血流")), h("p.notice.error#notice", e.message)));
  }
}
