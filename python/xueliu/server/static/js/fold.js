// The view of one hand, folded from its events as one viewer receives them (docs/server.md:
// "a seat's own state is the fold of its events"). No DOM here: table.js draws what this holds.
// `me` is the viewer's seat, or null for a spectator. Concealed tiles of other seats are never
// known: their hands are counts.
import { RECEIVE_FROM } from "./names.js";
import { removeOne, sorted } from "./tiles.js";

const WALL = 108;

function emptySeat() {
  return {
    hand: [], // own concealed tiles (other seats: empty, see `count`)
    count: 0, // concealed tiles held
    drawn: null, // the tile just drawn (own seat), true for another seat's unseen draw
    melds: [], // {kind: "pong" | "kong" | "concealed_kong", tile, wilds, from}
    river: [], // discards still on the table, in order
    void: null,
    wins: [], // {tile, from, kind, score}
    given: null, // own exchange: tiles given and received, and the seats
    received: null,
    delta: 0, // points won (+) or paid (-) this hand
  };
}

export class HandView {
  constructor(me) {
    this.me = me;
    this.reset();
    this.n = 0; // events folded
    this.events = [];
  }

  reset() {
    this.seats = [0, 1, 2, 3].map(emptySeat);
    this.wall = WALL;
    this.dealer = null;
    this.rules = null;
    this.phase = "deal";
    this.exchange = null; // {direction, from, to} once resolved
    this.toMove = null; // the seat on the move (after a draw or a pong)
    this.last = null; // {seat, tile}: the last discard, while it is on the table
    this.payments = []; // {payer, payee, amount, reason}
    this.wins = []; // {seat, tile, from, kind, score, payments: [...]}
    this.end = null; // {reason, scores}
    this.revealed = null; // after a reveal: the index of the win being paid
  }

  get wilds() {
    return !!(this.rules && this.rules.wilds);
  }

  apply(e) {
    this.events.push(e);
    this.n += 1;
    const fn = this[`on_${e.type}`];
    if (fn) fn.call(this, e, this.seats[e.seat]);
  }

  // -------------------------------------------------------------- setup
  on_start(e) {
    this.rules = e.rules;
    this.dealer = e.dealer;
    this.phase = e.rules.exchange ? "exchange" : e.rules.declare_void ? "void" : "play";
  }
  on_redeal() {
    const { rules, dealer } = this;
    this.reset();
    this.rules = rules;
    this.dealer = dealer;
    this.phase = "exchange";
  }
  on_deal(e, s) {
    s.count = e.tiles ? e.tiles.length : e.count;
    s.hand = e.tiles ? sorted(e.tiles) : [];
    this.wall -= s.count;
    if (e.seat === this.dealer) this.toMove = this.dealer;
  }
  on_exchange(e) {
    const me = this.me ?? 0;
    const step = RECEIVE_FROM[e.direction];
    this.exchange = { direction: e.direction, from: (me + step) % 4, to: (me + 4 - step) % 4 };
    if (this.me !== null && e.given[this.me]) {
      const s = this.seats[this.me];
      for (const t of e.given[this.me]) removeOne(s.hand, t);
      s.hand = sorted([...s.hand, ...e.received[this.me]]);
      s.given = e.given[this.me];
      s.received = e.received[this.me];
    }
    this.phase = this.rules.declare_void ? "void" : "play";
  }
  on_void(e, s) {
    s.void = e.suit;
    this.phase = "play";
  }

  // -------------------------------------------------------------- play
  on_draw(e, s) {
    this.wall -= 1;
    s.count += 1;
    if (e.tile) s.hand.push(e.tile);
    s.drawn = e.tile ?? true;
    this.toMove = e.seat;
    this.phase = "play";
  }
  on_discard(e, s) {
    this.take(s, e.tile);
    s.drawn = null;
    s.hand = sorted(s.hand);
    s.river.push(e.tile);
    this.last = { seat: e.seat, tile: e.tile };
    this.toMove = null;
  }
  on_pong(e, s) {
    this.claimDiscard(e.from);
    const w = e.wilds || 0;
    for (let i = 0; i < 2 - w; i++) this.take(s, e.tile);
    for (let i = 0; i < w; i++) this.take(s, "1s");
    s.melds.push({ kind: "pong", tile: e.tile, wilds: w, from: e.from });
    this.toMove = e.seat;
  }
  on_kong(e, s) {
    const w = e.wilds || 0;
    if (e.kind === "added") {
      const meld = s.melds.find((m) => m.kind === "pong" && m.tile === e.tile);
      const added = w > meld.wilds ? "1s" : e.tile;
      this.take(s, added);
      Object.assign(meld, { kind: "kong", wilds: w, added, pongWilds: meld.wilds });
    } else {
      if (e.kind === "direct") this.claimDiscard(e.from);
      const natural = (e.kind === "direct" ? 3 : 4) - w;
      for (let i = 0; i < natural; i++) this.take(s, e.tile);
      for (let i = 0; i < w; i++) this.take(s, "1s");
      s.melds.push({ kind: e.kind === "direct" ? "kong" : "concealed_kong", tile: e.tile, wilds: w, from: e.from });
    }
    s.drawn = null;
    s.hand = sorted(s.hand);
    this.toMove = e.seat;
  }
  on_robbed(e, s) {
    // the kong did not stand: an added kong falls back to its pong, a concealed one to the hand
    const i = s.melds.findIndex((m) => m.tile === e.tile && m.kind !== "pong");
    const meld = s.melds[i];
    if (meld.kind === "kong" && meld.added !== undefined) {
      Object.assign(meld, { kind: "pong", wilds: meld.pongWilds });
    } else {
      s.melds.splice(i, 1);
      const back = [...Array(3 - meld.wilds).fill(e.tile), ...Array(meld.wilds).fill("1s")];
      s.count += 3;
      if (this.me === e.seat) s.hand = sorted([...s.hand, ...back]);
    }
  }
  on_swap(e, s) {
    this.take(s, e.tile);
    s.count += 1;
    if (this.me === e.seat) s.hand = sorted([...s.hand, "1s"]);
    const meld = s.melds.find((m) => m.kind !== "pong" && m.tile === e.tile);
    meld.wilds -= 1;
    if (s.drawn === e.tile && !s.hand.includes(e.tile)) s.drawn = "1s";
  }
  on_win(e, s) {
    if (e.kind === "self_draw") {
      this.take(s, e.tile);
      s.drawn = null;
      s.hand = sorted(s.hand);
    } else if (e.kind === "discard") {
      this.claimDiscard(e.from);
    }
    const win = { seat: e.seat, tile: e.tile, from: e.from, kind: e.kind, score: e.score, payments: [] };
    s.wins.push(win);
    this.wins.push(win);
    this.toMove = null;
  }
  on_payment(e) {
    this.seats[e.payer].delta -= e.amount;
    this.seats[e.payee].delta += e.amount;
    this.payments.push(e);
    // After a reveal (win_reveal = "hand_end") the wins are paid in order: each payment goes to
    // the first revealed win of its payee from the one paid last on.
    if (this.revealed !== null && e.reason !== "kong_transfer") {
      while (this.revealed < this.wins.length - 1 && this.wins[this.revealed].seat !== e.payee) this.revealed += 1;
    }
    const win = this.revealed !== null ? this.wins[this.revealed] : this.wins[this.wins.length - 1];
    if (win && ["win", "self_draw", "kong_flower_feeder", "kong_transfer"].includes(e.reason)) win.payments.push(e);
  }
  /** The hand ends under win_reveal = "hand_end": every win shown, in the order made. */
  on_reveal(e) {
    e.wins.forEach((shown, i) => Object.assign(this.wins[i], { tile: shown.tile, score: shown.score }));
    this.revealed = 0;
  }
  on_end(e) {
    this.end = { reason: e.reason, scores: e.scores };
    this.phase = "over";
    this.toMove = null;
    this.seats.forEach((s) => (s.drawn = null));
  }

  // -------------------------------------------------------------- helpers
  /** A concealed tile leaves seat `s`'s hand (a count for other seats). */
  take(s, tile) {
    s.count -= 1;
    removeOne(s.hand, tile);
    if (s.drawn === tile) s.drawn = null;
  }

  /** The last discard leaves `from`'s river (once, even when several win on it). */
  claimDiscard(from) {
    if (this.last && this.last.seat === from) {
      this.seats[from].river.pop();
      this.last = null;
    }
  }

  /** Seats that have won and are out of the hand (血战), or null in 血流. */
  isOut(seat) {
    return this.rules && this.rules.mode === "xuezhan" && this.seats[seat].wins.length > 0;
  }
}
