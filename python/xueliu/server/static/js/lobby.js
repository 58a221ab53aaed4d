// The lobby: create a table, list the open ones, join a seat or watch. A table page reached by
// link without a seat offers the same choices for that one table.
import { h } from "./dom.js";
import { languageSwitch, t } from "./i18n.js";
import * as N from "./names.js";
import { api, myName, tokens } from "./net.js";

// The clocks offered (seconds per decision), each named by `clock.NAME` in the string table.
const CLOCKS = {
  standard: { exchange: 15, void: 15, turn: 15, claim: 10, rob: 10 },
  relaxed: { exchange: 30, void: 30, turn: 30, claim: 20, rob: 20 },
  long: { exchange: 120, void: 120, turn: 120, claim: 60, rob: 60 },
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
      .catch((e) => ((this.error = t("lobby.no_presets", { why: e.message })), this.render()));
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
      this.error = t("lobby.no_tables", { why: e.message });
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
    const settings = { preset: data.get("preset"), options, hands: Number(data.get("hands")), seats, clocks: CLOCKS[data.get("clock")] };
    settings.next_hand_delay = Number(data.get("pause"));
    if (data.get("time_limit") !== "none") settings.time_limit = Number(data.get("time_limit")) * 60;
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
        h("header.bar", h("a.home", { href: "#/" }, t("brand")), h("span.tag", t("tagline")), h("a.button.small#replay-link", { href: "#/replay" }, t("lobby.replay")), h("a.button.small#ladder-link", { href: "ladder.html" }, t("lobby.ladder")), languageSwitch()),
        h("h1", t("lobby.title")),
        this.error && h("p.notice.error#notice", { role: "alert" }, this.error),
        h("div.lobby-grid", this.form(), h("section.panel", h("h2", t("lobby.open_tables")), this.list())),
      ),
    );
  }

  form() {
    const presets = this.presets.map((p) =>
      h("label.preset", h("input", { type: "radio", name: "preset", value: p.name, checked: p.name === "xuezhan" }), h("b", p.name), h("span", N.presetText(p))),
    );
    const seatRow = (s) =>
      h(
        "label.seat-choice",
        h("span", N.seatName(s)),
        h(
          "select",
          { name: `seat${s}`, id: `seat${s}` },
          N.BOTS.map((bot) => h("option", { value: bot }, t("lobby.bot", { bot: N.bot(bot) }))),
          h("option", { value: "person" }, t("lobby.open_seat")),
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
      h("h2", t("lobby.new_table")),
      nameField(),
      h("fieldset", h("legend", t("lobby.rules")), presets),
      h(
        "div.row",
        h("label", t("lobby.cap"), " ", h("select", { name: "cap", id: "cap" }, h("option", { value: "preset", id: "cap-preset" }, t("lobby.cap_preset")), [3, 4, 5, 6, 8].map((n) => h("option", { value: n }, t("fan", { n }))), h("option", { value: "none" }, t("lobby.no_cap")))),
        h("label", t("lobby.hands"), " ", h("select", { name: "hands", id: "hands" }, [1, 2, 4, 8, 16].map((n) => h("option", { value: n, selected: n === 4 }, n)))),
        h("label", t("lobby.clock"), " ", h("select", { name: "clock", id: "clock" }, Object.keys(CLOCKS).map((k) => h("option", { value: k }, t(`clock.${k}`))))),
      ),
      h(
        "div.row",
        h(
          "label",
          t("lobby.your_seat"),
          " ",
          h("select", { name: "me", id: "me" }, [0, 1, 2, 3].map((s) => h("option", { value: s }, N.seatName(s))), h("option", { value: "watch" }, t("lobby.only_watch"))),
        ),
      ),
      h(
        "details.more",
        h("summary#more", t("lobby.more")),
        h(
          "div.row",
          h("label", t("lobby.pause"), " ", h("select", { name: "pause", id: "pause" }, [1, 3, 5, 10].map((n) => h("option", { value: n, selected: n === 5 }, t("seconds", { n }))))),
          h("label", t("lobby.seed"), " ", h("input", { name: "seed", id: "seed", type: "number", min: 0, placeholder: t("lobby.seed_random"), title: t("lobby.seed_title") })),
          h(
            "label",
            { title: t("lobby.time_limit_title") },
            t("lobby.time_limit"),
            " ",
            h("select", { name: "time_limit", id: "time_limit" }, h("option", { value: "none" }, t("lobby.no_limit")), [30, 60, 90, 120].map((n) => h("option", { value: n }, t("minutes", { n })))),
          ),
        ),
      ),
      h("fieldset.seats", h("legend", t("lobby.other_seats")), [0, 1, 2, 3].map(seatRow)),
      h("button.act.primary#create-table", { type: "submit" }, t("lobby.create")),
    );
    const hide = () => {
      const me = form.querySelector("#me").value;
      for (let s = 0; s < 4; s++) form.querySelector(`#seat${s}`).closest("label").hidden = String(s) === me;
    };
    form.querySelector("#me").addEventListener("change", hide);
    hide();
    const cap = () => {
      const chosen = this.presets.find((p) => p.name === new FormData(form).get("preset"));
      if (chosen) form.querySelector("#cap-preset").textContent = t("lobby.cap_of_preset", { cap: chosen.cap_fan === null ? t("lobby.no_cap") : t("fan", { n: chosen.cap_fan }) });
    };
    form.addEventListener("change", cap);
    cap();
    return form;
  }

  list() {
    const rows = this.tables.filter((t) => t.status !== "over");
    if (!rows.length) return h("div#tables", h("p.hint", t("lobby.none_yet")));
    return h("div#tables", rows.map((t) => tableCard(t)));
  }
}

/** The name this browser sits down with, kept for the next table too. */
export function nameField() {
  return h(
    "label.name-field",
    t("lobby.name"),
    " ",
    h("input", { id: "name", name: "name", maxLength: 24, placeholder: t("lobby.name_hint"), value: myName.get(), oninput: (e) => myName.put(e.target.value) }),
  );
}

export function tableCard(table) {
  const mine = tokens.get(table.id);
  const seats = table.seats.map((s) => {
    const label = s.player === "bot" ? t("card.bot", { bot: s.bot }) : s.taken ? s.name || t("card.player") : t("card.open");
    const chip = h(`span.chip${s.player === "person" && !s.taken ? ".open" : ""}`, `${N.wind(s.seat)} ${label}`);
    if (s.player === "person" && !s.taken && !mine)
      return h("button.small.join", { dataset: { seat: s.seat }, onclick: () => take(table.id, s.seat).catch((e) => alert(e.message)) }, t("card.sit", { seat: N.seatName(s.seat) }));
    return chip;
  });
  return h(
    "article.table-card",
    { dataset: { table: table.id } },
    h("div", h("b", table.preset), t("card.status", { status: t(`status.${table.status}`), hand: Math.min(table.hands_played + 1, table.hands), hands: table.hands })),
    h("div.chips", seats),
    h("div", mine ? h("a.button", { href: `#/t/${table.id}` }, t("card.back", { seat: N.seat(mine.seat) })) : null, " ", h("a.button.watch", { href: `#/t/${table.id}/watch` }, t("card.watch"))),
  );
}

/** A table reached by link with no seat of ours: sit in an open seat or watch. */
export async function joinPage(root, tableId) {
  try {
    const table = await api.table(tableId);
    const open = table.seats.some((s) => s.player === "person" && !s.taken) && !tokens.get(tableId);
    root.replaceChildren(
      h(
        "div.lobby",
        h("header.bar", h("a.home", { href: "#/" }, t("brand")), languageSwitch()),
        h("h1", t("table.id", { id: tableId })),
        open && h("p", t("join.saved")),
        open && nameField(),
        tableCard(table),
      ),
    );
  } catch (e) {
    root.replaceChildren(h("div.lobby", h("header.bar", h("a.home", { href: "#/" }, t("brand")), languageSwitch()), h("p.notice.error#notice", e.message)));
  }
}
