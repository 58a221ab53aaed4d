// The settlement at the end of a hand: each win with its patterns and fan, every payment by
// reason (the win's, kongs', 查花猪, 查叫, 补差价, 退税), every hand shown (摊牌), the hand's net
// and the match totals.
import { h, kbd } from "./dom.js";
import * as N from "./names.js";
import { ReplayView } from "./replay.js";
import { meldEl, sorted, tileEl } from "./tiles.js";

// The payments of the settlement at an empty wall (docs/game-protocol.md §8), shown apart.
const END_OF_HAND = ["flower_pig", "not_ready", "ready_difference", "tax_refund"];

export function settlementEl(s, table, me, close) {
  const v = s.view;
  const chosen = (seat) => (table && table.seats[seat].name ? ` · ${table.seats[seat].name}` : "");
  const name = (seat) => `${N.SEATS[seat]}${chosen(seat)}${seat === me ? " (you)" : ""}`;
  const wins = v.wins.map((w) =>
    h(
      "tr.win-row",
      { dataset: { seat: w.seat } },
      h("td", name(w.seat)),
      h("td", tileEl(w.tile, { wild: v.wilds && w.tile === "1s" }), " ", N.label(N.WIN_KINDS[w.kind]), w.from !== null ? ` from ${N.SEATS[w.from]}` : ""),
      h(
        "td.patterns",
        h("div", `${N.pattern(w.score.pattern)}: ${w.score.pattern_fan} fan`),
        w.score.bonuses.map((b) => h("div", `${N.bonus(b.name)}${b.count > 1 ? ` ×${b.count}` : ""}: ${b.fan} fan`)),
      ),
      h("td.num", `${w.score.capped_fan}${w.score.capped_fan !== w.score.fan ? ` (of ${w.score.fan}, capped)` : ""}`),
      h("td.num", w.score.points),
    ),
  );
  const row = (p) =>
    h("tr.payment-row", { dataset: { reason: p.reason } }, h("td", N.reason(p.reason)), h("td", name(p.payer)), h("td", name(p.payee)), h("td.num", p.amount));
  const paymentsTable = (rows) => h("table.payments", h("thead", h("tr", h("th", "Reason"), h("th", "Payer"), h("th", "Payee"), h("th", "Points"))), h("tbody", rows.map(row)));
  const during = v.payments.filter((p) => !END_OF_HAND.includes(p.reason));
  const after = v.payments.filter((p) => END_OF_HAND.includes(p.reason));
  const totals = [0, 1, 2, 3].map((seat) =>
    h("tr", h("td", name(seat)), h("td.num", { id: `hand-score-${seat}` }, N.signed(v.seats[seat].delta)), h("td.num", { id: `total-${seat}` }, N.signed(s.totals[seat]))),
  );
  const endNote = {
    wall_empty: "The wall is empty 流局: flower pigs 查花猪, not ready 查叫 and tax refunds 退税 are settled.",
    three_won: "Three players have won.",
    abandoned: "A player left the hand 逃跑 and paid the penalty; the hand ends here.",
  }[v.end && v.end.reason] || "";
  const next =
    s.over || (table && table.status === "over") ? "The match is over." : s.next === undefined ? "The next hand starts shortly." : `Next hand: dealer ${N.seatName(s.next)}.`;
  return h(
    "div.overlay",
    h(
      "section.settlement#settlement",
      { role: "dialog", "aria-label": "settlement" },
      h("h2", `Hand ${s.hand + 1} settled 结算`),
      h("p", endNote),
      wins.length
        ? h("table.wins", h("thead", h("tr", h("th", "Winner"), h("th", "Tile"), h("th", "Patterns 番种"), h("th", "Fan 番"), h("th", "Points"))), h("tbody", wins))
        : h("p", "Nobody won 荒庄."),
      h("h3", "Payments during the hand 行牌结算"),
      during.length ? paymentsTable(during) : h("p", "None."),
      after.length > 0 && h("h3", "At the end of the hand 查花猪 · 查叫 · 补差价 · 退税"),
      after.length > 0 && paymentsTable(after),
      s.hands && h("h3", "Hands shown 摊牌"),
      s.hands && revealEl(s.hands, v, name),
      h("table.totals", h("thead", h("tr", h("th", "Seat"), h("th", "This hand"), h("th", "Match total"))), h("tbody", totals)),
      h("p", next),
      h("button.act#continue", { onclick: close }, s.over ? "Close " : "Continue ", kbd("Enter")),
      " ",
      h("button.small#replay-hand-button", { onclick: () => ReplayView.open(v.events, me) }, "Replay this hand 回放"),
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
  return h("table.reveal", h("thead", h("tr", h("th", "Seat"), h("th", "Hand 手牌"), h("th", "Melds"))), h("tbody", rows));
}
