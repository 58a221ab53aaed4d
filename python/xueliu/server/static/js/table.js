// The table: one seat's (or a spectator's) view of the match, and the seat's decisions.
// Messages from the server (docs/server.md) update `this`; `render()` redraws from it.
import { h, kbd } from "./dom.js";
import { HandView } from "./fold.js";
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
    const why = {
      replaced: "This seat was opened in another tab or browser; this page no longer plays it.",
      unauthorized: "This browser's seat token is not valid for this table any more.",
      closed: "The server closed the connection (is the table gone?).",
    }[state];
    if (why) this.say(why, "error");
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
    if (m.by === "clock") this.say(`Time ran out: played “${m.action}” for you.`, "warn");
    if (m.by === "bot") this.say(`托管 (auto-play) played “${m.action}”.`, "info");
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
      this.table.status = m.next_dealer === null ? "over" : "between";
    }
    this.settlement = { view: this.view, hand: m.hand, totals: m.totals, next: m.next_dealer, over: false, hands: m.hands };
  }

  msg_match_over(m) {
    if (this.table) this.table.totals = m.totals;
    if (this.settlement) this.settlement.over = true;
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
      this.logLines.push([this.logCount, describe(e, this.view, this.seat)]);
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
      this.say("Nothing to decide now: wait for your turn.", "info");
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
      clock.querySelector(".secs").textContent = `${Math.ceil(left)} s`;
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
    this.say(r ? "This decision is not a discard: use the buttons." : "Not your turn yet.", "info");
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
    const t = this.table;
    const v = this.view;
    const me = this.seat;
    const bottom = me ?? 0;
    const seats = [0, 1, 2, 3].map((k) => this.seatEl((bottom + k) % 4, N.PLACES[k]));
    return h(
      "div.table-page",
      { dataset: { seat: me ?? "spectator", hand: this.hand ?? "", phase: v.phase } },
      this.header(),
      h("div.felt", seats[2], seats[3], this.centre(), seats[1], seats[0]),
      me === null ? h("p.spectating", "You are watching: every concealed tile stays hidden 旁观.") : this.mine(),
      this.notice && h(`p.notice.${this.notice.kind}#notice`, { role: "alert" }, this.notice.text),
      h("details.log", { open: true }, h("summary", "What happened 记录"), h("ol#log", this.logLines.slice(-60).reverse().map(([n, line]) => h("li", { value: n }, line)))),
      this.settlement && settlementEl(this.settlement, this.table, me, () => ((this.settlement = null), this.render())),
    );
  }

  header() {
    const t = this.table;
    const link = `${location.origin}/#/t/${this.id}`;
    return h(
      "header.bar",
      h("a.home", { href: "#/" }, "xueliu 血流"),
      h("span.tag", `Table ${this.id}`),
      t && h("span.tag", `${t.preset}${t.options && t.options.cap_fan !== undefined ? `, cap ${t.options.cap_fan ?? "none"}` : ""}`),
      t && h("span.tag#hand-no", `Hand ${(this.hand ?? 0) + 1} of ${t.hands}`),
      h("span.tag", this.seat === null ? "Spectator 旁观" : `You: ${N.seatName(this.seat)}`),
      h(`span.tag.conn.${this.state}`, this.state),
      h("button.small", { onclick: () => navigator.clipboard && navigator.clipboard.writeText(link), title: link }, "Copy link"),
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
      { title: auto ? "Play your own moves again" : "A bot (greedy) plays your seat until you take it back", onclick: () => this.link.send({ type: "auto", on: !auto }) },
      auto ? "Take back 取消托管" : "Auto-play 托管",
    );
    const leave = h("button.small#leave", { title: "Leave this table for good", onclick: () => this.leave() }, "Leave 离桌");
    return [toggle, leave];
  }

  leave() {
    const rule = this.table.on_leave === "abandon" ? "you leave the hand (逃跑) and pay the escape penalty; a bot plays your seat after it" : "a bot plays your seat (托管) for the rest of the match";
    if (!confirm(`Leave this table? ${rule[0].toUpperCase()}${rule.slice(1)}.`)) return;
    this.link.send({ type: "leave" });
    tokens.drop(this.id);
    location.hash = "#/";
  }

  centre() {
    const v = this.view;
    const r = this.request;
    const rows = [
      h("div.wall#wall", h("b", v.wall), " tiles in the wall 牌墙"),
      v.dealer !== null && h("div", `Dealer 庄: ${N.seatName(v.dealer)}`),
      h("div.phase", phaseText(v, this.table)),
    ];
    if (v.exchange && this.seat !== null) {
      const s = v.seats[this.seat];
      rows.push(
        h("div.exchanged", "换三张: gave ", inlineTiles(s.given), ` to ${N.SEATS[v.exchange.to]}, got `, inlineTiles(s.received, v.wilds), ` from ${N.SEATS[v.exchange.from]}`),
      );
    }
    if (v.wilds)
      rows.push(
        h("div.wilds-note#wilds-note", tileEl("1s", { wild: true }), h("span", "幺鸡 wilds: every 1 条 stands for any tile. It is never discarded or passed, and four of them win at once.")),
      );
    if (r && !r.sent)
      rows.push(
        h("div.clock", { title: `Played for you when time runs out: ${r.default}` }, h("span", "Your decision ", h("span.secs", "")), h("div.bar", h("div.fill"))),
      );
    return h("section.centre", rows);
  }

  seatEl(seat, place) {
    const v = this.view;
    const s = v.seats[seat];
    const t = this.table;
    const info = t && t.seats[seat];
    const who = playerName(info, seat === this.seat);
    const flags = [
      v.dealer === seat && h("span.badge.dealer", { title: "dealer" }, "庄 dealer"),
      s.void && h("span.badge.void", { dataset: { void: s.void } }, `void 缺 ${N.SUITS_ZH[s.void]}`),
      info && info.auto && info.player === "person" && h("span.badge", "托管 auto"),
      info && info.player === "person" && info.taken && !info.connected && seat !== this.seat && h("span.badge", "away"),
      v.toMove === seat && v.phase === "play" && h("span.badge.move", "to move"),
    ];
    const last = v.last && v.last.seat === seat;
    const total = t ? t.totals[seat] : 0;
    return h(
      `section.seat.${place}`,
      { id: `seat-${seat}`, dataset: { seat } },
      h(
        "div.who",
        h("span.wind", N.SEATS_ZH[seat]),
        h("span.name", `${N.SEATS[seat]} · ${who}`),
        flags,
        h("span.score", { id: `score-${seat}`, title: "this hand / match total", dataset: { hand: s.delta, total } }, N.signed(s.delta), h("small", ` / ${N.signed(total)}`)),
        this.flashEl(seat),
      ),
      s.wins.length > 0 &&
        h(
          "div.wins",
          s.wins.map((w) =>
            h("span.won", { dataset: { tile: w.tile } }, "胡 won ", tileEl(w.tile, { wild: v.wilds && w.tile === "1s" }), ` ${N.WIN_KINDS[w.kind][1]} ${N.pattern(w.score.pattern)}, ${w.score.capped_fan} fan`),
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

  /** Before the deal: who is still to sit down, and the link that brings them. */
  waitingEl() {
    const link = `${location.origin}/#/t/${this.id}`;
    const open = this.table.seats.filter((s) => s.player === "person" && !s.taken).map((s) => N.seatName(s.seat));
    const copy = h("button.act#copy-link", { onclick: () => navigator.clipboard && navigator.clipboard.writeText(link).then(() => (copy.textContent = "Copied 已复制")) }, "Copy link 复制链接");
    return h(
      "div.waiting#waiting",
      h("p", h("b", `Waiting for a friend to sit at ${open.join(" and ")}.`), " The hand is dealt as soon as every seat is taken. Send them this link 发给朋友:"),
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
      { role: "group", "aria-label": "your hand" },
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
      if (this.request && this.request.sent) return h("p.hint", "Sent; waiting for the others…");
      return h("p.hint", this.view.phase === "over" ? "The hand is over." : "Waiting for the others…");
    }
    const v = this.view;
    const s = v.seats[this.seat];
    const out = [];
    const button = (action, key, ...text) =>
      h("button.act", { dataset: { action, key, focus: `act-${action}` }, onclick: () => this.act(action) }, ...text, kbd(key.toUpperCase()));
    if (r.kind === "exchange") {
      const rule = N.EXCHANGE_RULE[v.rules.exchange] || "";
      out.push(h("p.hint", `Pick three tiles ${v.rules.exchange_same_suit ? "of one suit " : ""}to pass on 换三张: ${rule}.`));
      const ready = this.picks.length === 3;
      const b = button(ready ? this.exchangeAction() : "exchange", "e", `Exchange ${this.picks.length}/3 换三张 `);
      if (!ready) b.disabled = true;
      out.push(b);
      return out;
    }
    if (r.kind === "void") {
      out.push(h("p.hint", "Choose the suit you will not keep 定缺: its tiles must go first, and a hand holding it cannot win."));
      for (const suit of ["m", "p", "s"]) {
        const n = s.hand.filter((t) => t[1] === suit && !(v.wilds && t === "1s")).length;
        const b = button(`void ${suit}`, suit, `Void ${N.suitName(suit)} (${n} held) `);
        if (r.default === `void ${suit}`) b.classList.add("suggested");
        out.push(b);
      }
      return out;
    }
    if (r.waits && r.waits.length) out.push(readyEl(r.waits, v.wilds));
    if (r.kind === "claim" || r.kind === "rob") {
      const last = v.last || {};
      const what = r.kind === "rob" ? "declared a kong of" : "discarded";
      const seat = r.kind === "rob" ? lastKong(v) : last;
      out.push(h("p.hint", `${N.SEATS[seat.seat] ?? "?"} ${what} `, seat.tile ? tileEl(seat.tile) : "", "."));
    } else {
      const legal = this.actions("discard").length;
      out.push(h("p.hint", legal ? "Your turn: click a tile to discard it (or ←/→ and Enter)." : "Your turn."));
    }
    for (const a of r.actions) {
      const [kind, tile] = a.split(" ");
      if (kind === "win") {
        const value = r.win_score || (r.values && r.values.win);
        out.push(button(a, "w", "Win 胡 ", value ? h("small", `${N.pattern(value.pattern)}, ${value.capped_fan} fan, ${value.points} pts `) : ""));
      } else if (kind === "pong") out.push(button(a, "p", "Pong 碰 "));
      else if (kind === "kong") out.push(button(a, KONG_KEYS[this.actions("kong").indexOf(a)] || "k", "Kong 杠 ", tileEl(tile), " "));
      else if (kind === "swap") out.push(button(a, SWAP_KEYS[this.actions("swap").indexOf(a)] || "s", "Swap 幺鸡换 ", tileEl(tile), " "));
      else if (kind === "pass") out.push(button(a, "x", "Pass 过 "));
    }
    return out;
  }
}

/** 听牌: each tile the hand waits on, the copies this seat has not seen, and the win's value. */
function readyEl(waits, wilds) {
  return h(
    "div.ready#ready",
    h("b", "Ready 听牌: "),
    waits.map((w) =>
      h("span.wait", { dataset: { tile: w.tile, unseen: w.unseen, points: w.points } }, tileEl(w.tile, { wild: wilds && w.tile === "1s" }), ` ×${w.unseen} left · ${N.pattern(w.pattern)} ${w.fan} fan ${w.points} pts `),
    ),
  );
}

/** Who plays a seat: the name its person chose, "You", the bot, or an open seat. */
function playerName(info, mine) {
  if (!info) return mine ? "You" : "";
  if (info.player === "bot") return `Bot ${info.bot}`;
  if (!info.taken) return "Open seat: waiting for a friend";
  if (mine) return info.name ? `${info.name} (you)` : "You";
  return info.name || "Player";
}

function phaseText(v, table) {
  if (table && table.status === "waiting") return "Waiting for players to sit down 等人";
  return {
    deal: "Dealing",
    exchange: "Exchange three 换三张",
    void: "Declare a void suit 定缺",
    play: v.rules && v.rules.mode === "xueliu" ? "Play 血流成河" : "Play 血战到底",
    over: `Hand over: ${v.end ? N.END_REASONS[v.end.reason] || v.end.reason : ""}`,
  }[v.phase];
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
