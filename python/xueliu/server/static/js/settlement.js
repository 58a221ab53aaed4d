// The settlement at the end of a hand: each win with its patterns and fan, every payment by
// reason (the win's, kongs', 查花猪, 查叫, 补差价, 退税), every hand shown (摊牌), the hand's net
// and the match totals.
import { h, kbd } from "./dom.js";
import { t } from "./i18n.js";
import * as N from "./names.js";
import { ReplayView } from "./replay.js";
import { meldEl, sorted, tileEl } from "./tiles.js";

// The payments of the settlement at an empty wall (docs/game-protocol.md §8), shown apart.
const END_OF_HAND = ["flower_pig", "not_ready", "ready_difference", "tax_refund"];

export function settlementEl(s, table, me, close) {
  const v = s.view;
  const chosen = (seat) => (table && table.seats[seat].name ? ` · ${table.seats[seat].name}` : "");
  const name = (seat) => `${N.seat(seat)}${chosen(seat)}${seat === me ? t("settle.you") : ""}`;
  const wins = v.wins.map((w) =>
    h(
      "tr.win-row",
      { dataset: { seat: w.seat } },
      h("td", name(w.seat)),
      h("td", tileEl(w.tile, { wild: v.wilds && w.tile === "1s" }), " ", N.winKind(w.kind), w.from !== null ? t("log.from", { who: N.seat(w.from) }) : ""),
      h(
        "td.patterns",
        h("div", t("settle.fan_of", { what: N.pattern(w.score.pattern), fan: w.score.pattern_fan })),
        w.score.bonuses.map((b) => h("div", t("settle.fan_of", { what: `${N.bonus(b.name)}${b.count > 1 ? ` ×${b.count}` : ""}`, fan: b.fan }))),
      ),
      h("td.num", w.score.capped_fan !== w.score.fan ? t("settle.capped", { fan: w.score.capped_fan, of: w.score.fan }) : w.score.capped_fan),
      h("td.num", w.score.points),
    ),
  );
  const row = (p) =>
    h("tr.payment-row", { dataset: { reason: p.reason } }, h("td", N.reason(p.reason)), h("td", name(p.payer)), h("td", name(p.payee)), h("td.num", p.amount));
  const paymentsTable = (rows) => h("table.payments", h("thead", h("tr", h("th", t("settle.reason")), h("th", t("settle.payer")), h("th", t("settle.payee")), h("th", t("settle.points")))), h("tbody", rows.map(row)));
  const during = v.payments.filter((p) => !END_OF_HAND.includes(p.reason));
  const after = v.payments.filter((p) => END_OF_HAND.includes(p.reason));
  const placement = s.over && s.placement; // the session's placement points (盘分), at the match's end
  const totals = [0, 1, 2, 3].map((seat) =>
    h(
      "tr",
      h("td", name(seat)),
      h("td.num", { id: `hand-score-${seat}` }, N.signed(v.seats[seat].delta)),
      h("td.num", { id: `total-${seat}` }, N.signed(s.totals[seat])),
      placement && h("td.num", { id: `placement-${seat}` }, placement[seat]),
    ),
  );
  const endNote = v.end && ["wall_empty", "three_won", "abandoned"].includes(v.end.reason) ? t(`settle.end.${v.end.reason}`) : "";
  const next =
    s.over || (table && table.status === "over") ? t("settle.over") : s.next === undefined ? t("settle.next_soon") : t("settle.next", { dealer: N.seatName(s.next) });
  return h(
    "div.overlay",
    h(
      "section.settlement#settlement",
      { role: "dialog", "aria-label": t("settle.title", { hand: s.hand + 1 }) },
      h("h2", t("settle.title", { hand: s.hand + 1 })),
      h("p", endNote),
      wins.length
        ? h("table.wins", h("thead", h("tr", h("th", t("settle.winner")), h("th", t("settle.tile")), h("th", t("settle.patterns")), h("th", t("settle.fan")), h("th", t("settle.points")))), h("tbody", wins))
        : h("p", t("settle.nobody")),
      h("h3", t("settle.during")),
      during.length ? paymentsTable(during) : h("p", t("settle.none")),
      after.length > 0 && h("h3", t("settle.after")),
      after.length > 0 && paymentsTable(after),
      s.hands && h("h3", t("settle.shown")),
      s.hands && revealEl(s.hands, v, name),
      h("table.totals", h("thead", h("tr", h("th", t("settle.seat")), h("th", t("settle.this_hand")), h("th", t("settle.total")), placement && h("th", t("settle.placement")))), h("tbody", totals)),
      h("p", next),
      h("button.act#continue", { onclick: close }, t(s.over ? "settle.close" : "settle.continue"), " ", kbd("Enter")),
      " ",
      h("button.small#replay-hand-button", { onclick: () => ReplayView.open(v.events, me) }, t("settle.replay")),
      s.over && table && " ",
      s.over && table && h("a.button.small#replay-match", { href: `#/replay/${table.id}` }, t("settle.replay_match")),
    ),
  );
}

/** 摊牌: each seat's concealed tiles at the end (wilds first), beside its melds. */
function revealEl(hands, v, name) {
  const wild = (t) => v.wilds && t === "1s";
  const rows = hands.map((tiles, seat) =>
    h(
      "tr.reveal-row",
      { id: `reveal-${seat}`, dataset: { seat } },
      h("td", name(seat)),
      h("td.reveal", [...sorted(tiles)].sort((a, b) => wild(b) - wild(a)).map((t) => tileEl(t, { wild: wild(t) }))),
      h("td", v.seats[seat].melds.map((m) => meldEl(m, v.wilds))),
    ),
  );
  return h("table.reveal", h("thead", h("tr", h("th", t("settle.seat")), h("th", t("settle.hand")), h("th", t("settle.melds")))), h("tbody", rows));
}
