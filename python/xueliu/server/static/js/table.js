// The table: one seat's (or a spectator's) view of the match, and the seat's decisions.
// Messages from the server (docs/server.md) update `this`; `render()` redraws from it.
import { h, kbd } from "./dom.js";
import { HandView } from "./fold.js";
import { languageSwitch, t } from "./i18n.js";
import * as N from "./names.js";
import { Link, tokens } from "./net.js";
import { compact, meldEl, parseTiles, sameTiles, sorted, tileEl } from "./tiles.js";
import { describe } from "./log.js";
import { settlementEl } from "./settlement.js";

const KONG_KEYS = ["k", "l", "j"];
const SWAP_KEYS = ["s", "a", "d"];

export class TableView {
  constructor(root, tableId, { watch = false } = {}) {
    this.root = root;
    this.id = tableId;
    const stored = watch ? null : tokens.get(tableId);
    this.seat = stored ? stored.seat : null;
    this.view = new HandView(this.seat);
    this.hand = null; // the hand number of `view`
    this.table = null; // the public table (docs/server.md <table>)
    this.request = null; // the open request, with `at` (performance.now() when it came)
    this.picks = []; // indices into the shown hand picked for the exchange
    this.notice = null; // {text, kind}
    this.settlement = null; // the last hand's settlement, shown until dismissed
    this.logLines = [];
    this.state = "connecting";
    this.live = false; // false while a welcome's backlog is folded (no animations)
    this.link = new Link(tableId, stored && stored.token, (m) => this.receive(m), (s) => this.connection(s));
    this.link.resume = () => (this.hand === null ? {} : { hand: this.hand, from: this.view.n });
    this.onKey = (e) => this.key(e);
    this.onPointer = () => (this.keyboard = false); // focus follows re-renders only in keyboard play
    document.addEventListener("keydown", this.onKey);
    document.addEventListener("pointerdown", this.onPointer);
    this.timer = setInterval(() => this.tick(), 200);
    this.link.open();
    this.render();
  }

  destroy() {
    this.link.close();
    clearInterval(this.timer);
    document.removeEventListener("keydown", this.onKey);
    document.removeEventListener("pointerdown", this.onPointer);
  }

  // ------------------------------------------------------------------ messages

  connection(state) {
    this.state = state;
    if (state === "unauthorized") tokens.drop(this.id);
    if (["replaced", "unauthorized", "closed"].includes(state)) this.say(t(`conn.why.${state}`), "error");
    this.render();
  }

  receive(m) {
    const handler = this[`msg_${m.type}`];
    if (handler) handler.call(this, m);
    this.render();
  }

  msg_welcome(m) {
    this.table = m.table;
    if (m.hand !== this.hand || m.n === 0 || m.n !== this.view.n) this.newHand(m.hand);
    this.live = false;
    this.fold(m.n, m.events);
    this.live = true;
    this.setRequest(m.request);
    const between = m.table.status === "between" || m.table.status === "over";
    if (between && this.view.end && !this.settlement)
      this.settlement = { view: this.view, hand: m.hand, totals: m.table.totals, next: undefined, over: m.table.status === "over", hands: m.hands };
  }

  msg_events(m) {
    if (m.hand !== this.hand) this.newHand(m.hand);
    this.fold(m.n, m.events);
  }

  msg_request(m) {
    this.setRequest(m);
  }

  msg_accepted(m) {
    if (this.request && this.request.decision === m.decision) this.request = null;
    if (m.by === "clock") this.say(t("table.timed_out", { action: m.action }), "warn");
    if (m.by === "bot") this.say(t("table.auto_played", { action: m.action }), "info");
  }

  msg_error(m) {
    if (m.code === "stale" && this.request === null) return;
    this.say(m.message, "error");
    if (this.request) this.request.sent = false;
  }

  msg_seat(m) {
    if (this.table) this.table.seats[m.seat] = m;
  }

  msg_hand_over(m) {
    if (this.table) {
      this.table.totals = m.totals;
      this.table.results[m.hand] = m.scores;
      this.table.status = m.next_dealer === null ? "over" : "between";
    }
    this.settlement = { view: this.view, hand: m.hand, totals: m.totals, next: m.next_dealer, over: false, hands: m.hands };
  }

  msg_match_over(m) {
    if (this.table) this.table.totals = m.totals;
    if (this.settlement) Object.assign(this.settlement, { over: true, placement: m.placement });
  }

  newHand(hand) {
    this.hand = hand;
    this.view = new HandView(this.seat);
    this.picks = [];
    if (this.table && this.table.status === "between") this.table.status = "playing";
  }

  fold(n, events) {
    events.forEach((e, i) => {
      if (n + i !== this.view.n) return; // already folded (a resume never repeats, but be sure)
      this.view.apply(e);
      this.logCount = (this.logCount || 0) + 1;
      this.logLines.push([this.logCount, e]); // described when drawn, in the language of the moment
      if (this.live && e.type === "payment") this.flash(e);
    });
    this.logLines = this.logLines.slice(-200);
  }

  setRequest(r) {
    const total = r && this.table && this.table.clocks ? this.table.clocks[r.kind] : r && r.seconds_left;
    this.request = r && { ...r, at: performance.now(), sent: false, total };
    this.picks = [];
    if (r && r.actions.length === 1 && r.actions[0] === "pass") this.autoPass(r.decision);
  }

  /** A seat with no claim on a discard is asked too (so nobody learns who could claim); the
   * page answers for it after a short, fixed pause (`xueliu:autopass` ms in localStorage). */
  autoPass(decision) {
    const ms = Number(localStorage.getItem("xueliu:autopass") ?? 400);
    setTimeout(() => {
      if (this.request && this.request.decision === decision && !this.request.sent) this.act("pass");
    }, ms);
  }

  act(action) {
    const r = this.request;
    if (!r) {
      this.say(t("table.nothing_to_decide"), "info");
      this.render();
      return;
    }
    r.sent = true;
    this.notice = null;
    this.link.send({ type: "act", decision: r.decision, action });
    this.render();
  }

  say(text, kind) {
    this.notice = { text, kind };
  }

  flash(payment) {
    this.flashes = [...(this.flashes || []), { ...payment, at: performance.now() }];
  }

  tick() {
    const clock = this.root.querySelector(".clock");
    if (clock && this.request) {
      const left = this.secondsLeft();
      clock.querySelector(".secs").textContent = t("seconds", { n: Math.ceil(left) });
      clock.querySelector(".fill").style.width = `${(100 * left) / Math.max(1, this.request.total)}%`;
      clock.classList.toggle("low", left < 5);
    }
  }

  secondsLeft() {
    const r = this.request;
    return Math.max(0, r.seconds_left - (performance.now() - r.at) / 1000);
  }

  // ------------------------------------------------------------------ what may be done

  actions(kind) {
    const r = this.request;
    if (!r || r.sent) return [];
    return r.actions.filter((a) => a.split(" ")[0] === kind);
  }

  /** My hand as shown: sorted, wilds first, the drawn tile apart at the end. */
  shownHand() {
    const s = this.view.seats[this.seat];
    const rest = [...s.hand];
    let drawn = null;
    if (typeof s.drawn === "string" && this.view.toMove === this.seat) {
      const i = rest.lastIndexOf(s.drawn);
      if (i >= 0) drawn = rest.splice(i, 1)[0];
    }
    const wildFirst = (t) => (this.view.wilds && t === "1s" ? -1 : 0);
    const tiles = sorted(rest).sort((a, b) => wildFirst(a) - wildFirst(b));
    return { tiles: drawn ? [...tiles, drawn] : tiles, drawn: drawn !== null };
  }

  clickTile(i) {
    const r = this.request;
    const { tiles } = this.shownHand();
    if (r && r.kind === "exchange" && !r.sent) {
      this.picks = this.picks.includes(i) ? this.picks.filter((p) => p !== i) : [...this.picks, i].slice(-3);
      this.render();
      return;
    }
    if (r && r.kind === "turn" && !r.sent) {
      this.act(`discard ${tiles[i]}`); // an illegal discard comes back with the engine's reason
      return;
    }
    this.say(t(r ? "table.not_a_discard" : "table.not_your_turn"), "info");
    this.render();
  }

  exchangeAction() {
    const { tiles } = this.shownHand();
    const picked = this.picks.map((i) => tiles[i]);
    const legal = this.actions("exchange").find((a) => sameTiles(parseTiles(a.slice(9)), picked));
    return legal || `exchange ${compact(picked)}`;
  }

  key(e) {
    if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT" || e.ctrlKey || e.metaKey || e.altKey) return;
    const k = e.key.toLowerCase();
    this.keyboard = true;
    if (this.settlement && (k === "enter" || k === "escape")) {
      e.preventDefault();
      this.settlement = null;
      this.render();
      return;
    }
    if (k === "arrowleft" || k === "arrowright") {
      const tiles = [...this.root.querySelectorAll("#hand .tile")];
      if (!tiles.length) return;
      const at = tiles.indexOf(document.activeElement);
      const next = at < 0 ? (k === "arrowleft" ? tiles.length - 1 : 0) : (at + (k === "arrowleft" ? -1 : 1) + tiles.length) % tiles.length;
      tiles[next].focus();
      e.preventDefault();
      return;
    }
    const button = this.root.querySelector(`#actions button[data-key="${CSS.escape(k)}"]:not([disabled])`);
    if (button) {
      e.preventDefault();
      button.click();
    }
  }

  // ------------------------------------------------------------------ drawing

  render() {
    const focused = this.keyboard && document.activeElement && document.activeElement.dataset.focus;
    this.root.replaceChildren(this.page());
    if (focused) {
      const el = this.root.querySelector(`[data-focus="${focused}"]`);
      if (el) el.focus();
    }
    this.tick();
  }

  page() {
    const v = this.view;
    const me = this.seat;
    const bottom = me ?? 0;
    const seats = [0, 1, 2, 3].map((k) => this.seatEl((bottom + k) % 4, N.PLACES[k]));
    return h(
      "div.table-page",
      { dataset: { seat: me ?? "spectator", hand: this.hand ?? "", phase: v.phase } },
      this.header(),
      h("div.felt", seats[2], seats[3], this.centre(), seats[1], seats[0]),
      me === null ? h("p.spectating", t("table.watching")) : this.mine(),
      this.notice && h(`p.notice.${this.notice.kind}#notice`, { role: "alert" }, this.notice.text),
      this.finishedEl(),
      h("details.log", { open: true }, h("summary", t("table.log")), h("ol#log", this.logLines.slice(-60).reverse().map(([n, e]) => h("li", { value: n }, describe(e, this.view, this.seat))))),
      this.settlement && settlementEl(this.settlement, this.table, me, () => ((this.settlement = null), this.render())),
    );
  }

  header() {
    const table = this.table;
    const link = `${location.origin}/#/t/${this.id}`;
    const cap = table && table.options && table.options.cap_fan !== undefined ? t("table.cap", { cap: table.options.cap_fan ?? t("lobby.no_cap") }) : "";
    return h(
      "header.bar",
      h("a.home", { href: "#/" }, t("brand")),
      h("span.tag", t("table.id", { id: this.id })),
      table && h("span.tag", `${table.preset}${cap}`),
      table && h("span.tag#hand-no", t("table.hand_of", { hand: (this.hand ?? 0) + 1, hands: table.hands })),
      table && table.session_ends_at && table.status !== "over" && h("span.tag#session", sessionText(table.session_ends_at)),
      h("span.tag", this.seat === null ? t("table.spectator") : t("table.you_are", { seat: N.seatName(this.seat) })),
      h(`span.tag.conn.${this.state}`, t(`conn.${this.state}`)),
      h("button.small", { onclick: () => navigator.clipboard && navigator.clipboard.writeText(link), title: link }, t("table.copy_link")),
      languageSwitch(),
      this.seat !== null && this.seatButtons(),
    );
  }

  /** 托管 on and off, and leaving the table: the protocol's `auto` and `leave` (docs/server.md). */
  seatButtons() {
    const info = this.table && this.table.seats[this.seat];
    if (!info || this.state === "replaced" || this.state === "unauthorized") return null;
    const auto = info.auto;
    const toggle = h(
      "button.small#auto",
      { title: t(auto ? "table.auto_off_title" : "table.auto_on_title"), onclick: () => this.link.send({ type: "auto", on: !auto }) },
      t(auto ? "table.auto_off" : "table.auto_on"),
    );
    const leave = h("button.small#leave", { title: t("table.leave_title"), onclick: () => this.leave() }, t("table.leave"));
    return [toggle, leave];
  }

  leave() {
    if (!confirm(t(this.table.on_leave === "abandon" ? "table.leave_confirm_abandon" : "table.leave_confirm_auto"))) return;
    this.link.send({ type: "leave" });
    tokens.drop(this.id);
    location.hash = "#/";
  }

  centre() {
    const v = this.view;
    const r = this.request;
    const rows = [
      h("div.wall#wall", h("b", v.wall), " ", t("table.wall")),
      v.dealer !== null && h("div", t("table.dealer", { seat: N.seatName(v.dealer) })),
      h("div.phase", phaseText(v, this.table)),
    ];
    if (v.exchange && this.seat !== null) {
      const s = v.seats[this.seat];
      rows.push(
        h("div.exchanged", t("table.exchanged.gave"), " ", inlineTiles(s.given), " ", t("table.exchanged.to", { seat: N.seat(v.exchange.to) }), " ", inlineTiles(s.received, v.wilds), " ", t("table.exchanged.from", { seat: N.seat(v.exchange.from) })),
      );
    }
    if (v.wilds)
      rows.push(
        h("div.wilds-note#wilds-note", tileEl("1s", { wild: true }), h("span", t("table.wilds_note"))),
      );
    if (r && !r.sent)
      rows.push(
        h("div.clock", { title: t("table.clock_title", { action: r.default }) }, h("span", t("table.your_decision"), " ", h("span.secs", "")), h("div.bar", h("div.fill"))),
      );
    return h("section.centre", rows);
  }

  seatEl(seat, place) {
    const v = this.view;
    const s = v.seats[seat];
    const table = this.table;
    const info = table && table.seats[seat];
    const who = playerName(info, seat === this.seat);
    const flags = [
      v.dealer === seat && h("span.badge.dealer", { title: t("badge.dealer_title") }, t("badge.dealer")),
      s.void && h("span.badge.void", { dataset: { void: s.void } }, t("badge.void", { mark: N.suitMark(s.void) })),
      info && info.auto && info.player === "person" && h("span.badge", t("badge.auto")),
      info && info.player === "person" && info.taken && !info.connected && seat !== this.seat && h("span.badge", t("badge.away")),
      v.toMove === seat && v.phase === "play" && h("span.badge.move", t("badge.to_move")),
    ];
    const last = v.last && v.last.seat === seat;
    const total = table ? table.totals[seat] : 0;
    return h(
      `section.seat.${place}`,
      { id: `seat-${seat}`, dataset: { seat } },
      h(
        "div.who",
        h("span.wind", N.wind(seat)),
        h("span.name", `${N.seat(seat)} · ${who}`),
        flags,
        h("span.score", { id: `score-${seat}`, title: t("table.score_title"), dataset: { hand: s.delta, total } }, N.signed(s.delta), h("small", ` / ${N.signed(total)}`)),
        this.flashEl(seat),
      ),
      s.wins.length > 0 &&
        h(
          "div.wins",
          s.wins.map((w) =>
            h(
              "span.won",
              { dataset: { tile: w.tile || "" } },
              t("table.won"),
              " ",
              w.tile ? tileEl(w.tile, { wild: v.wilds && w.tile === "1s" }) : "",
              " ",
              // win_reveal = "hand_end": another seat's score (and self-drawn tile) wait for the reveal.
              w.score ? t("table.won_with", { kind: N.winKind(w.kind), pattern: N.pattern(w.score.pattern), fan: w.score.capped_fan }) : t("table.won_hidden", { kind: N.winKind(w.kind) }),
            ),
          ),
        ),
      h("div.melds", { id: `melds-${seat}` }, s.melds.map((m) => meldEl(m, v.wilds))),
      seat !== this.seat && h("div.concealed", { id: `concealed-${seat}`, dataset: { count: s.count } }, concealedEl(s)),
      h(
        "div.river",
        { id: `river-${seat}` },
        s.river.map((tile, i) => tileEl(tile, { extra: last && i === s.river.length - 1 ? "last" : "" })),
      ),
    );
  }

  flashEl(seat) {
    const now = performance.now();
    this.flashes = (this.flashes || []).filter((f) => now - f.at < 2500);
    const mine = this.flashes.filter((f) => f.payer === seat || f.payee === seat);
    if (!mine.length) return null;
    const sum = mine.reduce((a, f) => a + (f.payee === seat ? f.amount : -f.amount), 0);
    // redrawn on every message: the animation resumes where it was instead of starting over
    const style = `animation-delay: -${((now - mine[0].at) / 1000).toFixed(2)}s`;
    return h(`span.flash.${sum >= 0 ? "up" : "down"}`, { style }, N.signed(sum));
  }

  /** The finished hands, each a link to the replay viewer (as the spectators saw it). */
  finishedEl() {
    const results = (this.table && this.table.results) || [];
    if (!results.length) return null;
    const link = (_, n) => h("a.button.small", { href: `#/replay/${this.id}/${n}`, dataset: { hand: n } }, t("replay.hand", { hand: n + 1 }));
    return h("p.finished#finished", t("table.finished"), " ", results.map(link));
  }

  /** Before the deal: who is still to sit down, and the link that brings them. */
  waitingEl() {
    const link = `${location.origin}/#/t/${this.id}`;
    const open = this.table.seats.filter((s) => s.player === "person" && !s.taken).map((s) => N.seatName(s.seat));
    const copy = h("button.act#copy-link", { onclick: () => navigator.clipboard && navigator.clipboard.writeText(link).then(() => (copy.textContent = t("table.copied"))) }, t("table.copy_link"));
    return h(
      "div.waiting#waiting",
      h("p", h("b", t("table.waiting_for", { seats: open.join(t("log.and")) })), " ", t("table.send_link")),
      h("div.share", h("input#share-link", { readOnly: true, value: link, onfocus: (e) => e.target.select() }), copy),
    );
  }

  mine() {
    const v = this.view;
    const s = v.seats[this.seat];
    const r = this.request && !this.request.sent ? this.request : null;
    const { tiles, drawn } = this.shownHand();
    const discards = new Set(this.actions("discard").map((a) => a.slice(8)));
    const exchange = r && r.kind === "exchange";
    const hand = h(
      "div.hand#hand",
      { role: "group", "aria-label": t("table.your_hand") },
      tiles.map((tile, i) => {
        const el = tileEl(tile, { tag: "button", wild: v.wilds && tile === "1s" });
        el.dataset.focus = `tile-${i}`;
        el.dataset.index = i;
        if (drawn && i === tiles.length - 1) el.classList.add("drawn");
        if (s.void && tile[1] === s.void && !(v.wilds && tile === "1s")) el.classList.add("void-tile");
        if (r && r.kind === "turn") el.classList.add(discards.has(tile) ? "legal" : "illegal");
        if (exchange && this.picks.includes(i)) el.classList.add("picked");
        el.addEventListener("click", () => this.clickTile(i));
        return el;
      }),
    );
    return h("section.mine", h("div.hand-row", hand), h("div.actions#actions", { dataset: { kind: r ? r.kind : "" } }, this.buttons(r)));
  }

  buttons(r) {
    if (!r && this.table && this.table.status === "waiting") return this.waitingEl();
    if (!r) {
      if (this.request && this.request.sent) return h("p.hint", t("table.sent"));
      return h("p.hint", t(this.view.phase === "over" ? "table.hand_over" : "table.waiting"));
    }
    const v = this.view;
    const s = v.seats[this.seat];
    const out = [];
    const button = (action, key, ...text) =>
      h("button.act", { dataset: { action, key, focus: `act-${action}` }, onclick: () => this.act(action) }, ...text, kbd(key.toUpperCase()));
    if (r.kind === "exchange") {
      const rule = N.exchangeRule(v.rules.exchange);
      out.push(h("p.hint", t(v.rules.exchange_same_suit ? "table.pick_three_suit" : "table.pick_three", { rule })));
      const ready = this.picks.length === 3;
      const b = button(ready ? this.exchangeAction() : "exchange", "e", t("table.exchange_button", { n: this.picks.length }), " ");
      if (!ready) b.disabled = true;
      out.push(b);
      return out;
    }
    if (r.kind === "void") {
      out.push(h("p.hint", t("table.choose_void")));
      for (const suit of ["m", "p", "s"]) {
        const n = s.hand.filter((t) => t[1] === suit && !(v.wilds && t === "1s")).length;
        const b = button(`void ${suit}`, suit, t("table.void_button", { suit: N.suitName(suit), n }), " ");
        if (r.default === `void ${suit}`) b.classList.add("suggested");
        out.push(b);
      }
      return out;
    }
    if (r.waits && r.waits.length) out.push(readyEl(r.waits, v.wilds));
    if (r.kind === "claim" || r.kind === "rob") {
      const last = v.last || {};
      const seat = r.kind === "rob" ? lastKong(v) : last;
      const who = seat.seat === undefined ? "?" : N.seat(seat.seat);
      out.push(h("p.hint", t(r.kind === "rob" ? "table.konged" : "table.discarded", { who }), " ", seat.tile ? tileEl(seat.tile) : "", t("table.full_stop")));
    } else {
      const legal = this.actions("discard").length;
      out.push(h("p.hint", t(legal ? "table.your_turn_discard" : "table.your_turn")));
    }
    for (const a of r.actions) {
      const [kind, tile] = a.split(" ");
      if (kind === "win") {
        const value = r.win_score || (r.values && r.values.win);
        out.push(button(a, "w", t("action.win"), " ", value ? h("small", t("table.win_value", { pattern: N.pattern(value.pattern), fan: value.capped_fan, points: value.points }), " ") : ""));
      } else if (kind === "pong") out.push(button(a, "p", t("action.pong"), " "));
      else if (kind === "kong") out.push(button(a, KONG_KEYS[this.actions("kong").indexOf(a)] || "k", t("action.kong"), " ", tileEl(tile), " "));
      else if (kind === "swap") out.push(button(a, SWAP_KEYS[this.actions("swap").indexOf(a)] || "s", t("action.swap"), " ", tileEl(tile), " "));
      else if (kind === "pass") out.push(button(a, "x", t("action.pass"), " "));
    }
    return out;
  }
}

/** 听牌: each tile the hand waits on, the copies this seat has not seen, and the win's value. */
function readyEl(waits, wilds) {
  return h(
    "div.ready#ready",
    h("b", t("table.ready"), " "),
    waits.map((w) =>
      h("span.wait", { dataset: { tile: w.tile, unseen: w.unseen, points: w.points } }, tileEl(w.tile, { wild: wilds && w.tile === "1s" }), " ", t("table.wait", { unseen: w.unseen, pattern: N.pattern(w.pattern), fan: w.fan, points: w.points }), " "),
    ),
  );
}

/** Who plays a seat: the name its person chose, "You", the bot, or an open seat. */
function playerName(info, mine) {
  if (!info) return mine ? t("you") : "";
  if (info.player === "bot") return t("table.bot", { bot: info.bot });
  if (!info.taken) return t("table.open_seat");
  if (mine) return info.name ? t("table.name_you", { name: info.name }) : t("you");
  return info.name || t("card.player");
}

/** A session's time limit (issue 28, 盘) as the server's clock sets it: the minutes left, or
 * that the hand in play is the last. */
function sessionText(endsAt) {
  const left = endsAt - Date.now() / 1000;
  return left > 0 ? t("table.session_left", { n: Math.ceil(left / 60) }) : t("table.session_over");
}

function phaseText(v, table) {
  if (table && table.status === "waiting") return t("phase.waiting");
  if (v.phase === "play") return t(v.rules && v.rules.mode === "xueliu" ? "phase.play_xueliu" : "phase.play_xuezhan");
  if (v.phase === "over") return t("phase.over", { reason: v.end ? N.endReason(v.end.reason) : "" });
  return t(`phase.${v.phase}`);
}

function lastKong(v) {
  for (let i = v.events.length - 1; i >= 0; i--) if (v.events[i].type === "kong") return v.events[i];
  return {};
}

function concealedEl(s) {
  const backs = [];
  const n = s.drawn ? s.count - 1 : s.count;
  for (let i = 0; i < Math.max(0, n); i++) backs.push(tileEl(null));
  if (s.drawn && s.count > 0) backs.push(tileEl(null, { extra: "drawn" }));
  return backs;
}

function inlineTiles(tiles, wilds = false) {
  return h("span.inline-tiles", (tiles || []).map((t) => tileEl(t, { wild: wilds && t === "1s" })));
}
