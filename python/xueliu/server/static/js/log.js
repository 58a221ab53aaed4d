// One line for each event, as the viewer sees it, in the page's language.
import { t, tOr } from "./i18n.js";
import * as N from "./names.js";

const who = (seat, me) => (seat === me ? t("you") : N.seat(seat));
const from = (seat, me) => (seat === null || seat === undefined ? "" : t("log.from", { who: who(seat, me) }));
// a line about the viewer's own seat may have its own wording ("You are dealt", key.you)
function said(key, seat, me, params) {
  const all = { who: who(seat, me), ...params };
  return seat === me ? tOr(`${key}.you`, t(key, all), all) : t(key, all);
}
const verb = (action) => tOr(`verb.${action}`, action);

export function describe(e, view, me) {
  switch (e.type) {
    case "start":
      return t("log.start", { preset: e.rules.preset || t("log.custom"), dealer: N.seat(e.dealer) });
    case "dice":
      return diceText(e, me);
    case "deal":
      return said("log.deal", e.seat, me, { n: e.tiles ? e.tiles.length : e.count });
    case "exchange":
      return t("log.exchange", { direction: t(`direction.${e.direction}`) });
    case "redeal":
      return t("log.redeal");
    case "void":
      return said("log.void", e.seat, me, { suit: N.suitName(e.suit) });
    case "draw":
      return said(e.replacement ? "log.draw.replacement" : "log.draw", e.seat, me, { tile: N.tileWord(e.tile) });
    case "discard":
      return said("log.discard", e.seat, me, { tile: N.tileWord(e.tile) });
    case "pass":
      return said(e.could.includes("win") ? "log.pass_win" : "log.pass", e.seat, me, { could: e.could.map(verb).join(t("log.or")) });
    case "pong":
      return said("log.pong", e.seat, me, { tile: N.tileWord(e.tile), from: from(e.from, me) });
    case "kong":
      return said("log.kong", e.seat, me, { kind: N.kongKind(e.kind), tile: N.tileWord(e.tile), from: from(e.from, me) });
    case "swap":
      return said("log.swap", e.seat, me, { tile: N.tileWord(e.tile) });
    case "beaten":
      return said("log.beaten", e.seat, me, { claim: verb(e.claim) });
    case "robbed":
      return said("log.robbed", e.seat, me, { tile: N.tileWord(e.tile) });
    case "win":
      // win_reveal = "hand_end": another seat's score (and self-drawn tile) wait for the reveal.
      if (e.score === null) return said("log.win_hidden", e.seat, me, { kind: N.winKind(e.kind), from: from(e.from, me) });
      return said("log.win", e.seat, me, {
        tile: N.tileWord(e.tile),
        kind: N.winKind(e.kind),
        from: from(e.from, me),
        pattern: N.pattern(e.score.pattern),
        fan: e.score.capped_fan,
        points: e.score.points,
      });
    case "payment":
      return t("log.payment", { payer: who(e.payer, me), payee: who(e.payee, me), amount: e.amount, reason: N.reason(e.reason) });
    case "reveal":
      return t("log.reveal");
    case "abandon":
      return said("log.abandon", e.seat, me);
    case "end":
      return t("log.end", { reason: N.endReason(e.reason), scores: e.scores.join(t("log.comma")) });
    default:
      return e.seat === undefined ? e.type : `${e.type} (${N.seat(e.seat)})`;
  }
}

/** The dice as `xueliu play` says them: "Dice for the dealer: East 5+2; South 4+2; West 6+2,
 * then 6+6" (a seat's rolls: two dice a throw, rerolls of ties after), "East rolls 5 and 2 to
 * break the wall". */
function diceText(e, me) {
  if (e.purpose === "dealer") {
    const throws = e.rolls.map((r) => {
      const pairs = [];
      for (let i = 0; i + 1 < r.length; i += 2) pairs.push(`${r[i]}+${r[i + 1]}`);
      return pairs.join(t("log.dice.then"));
    });
    return t("log.dice.dealer", { throws: throws.map((x, s) => `${N.seat(s)} ${x}`).join(t("log.semicolon")) });
  }
  const key = e.purpose === "wall" ? "log.dice.wall" : "log.dice.exchange";
  return said(key, e.seat, me, { dice: e.rolls.join(t("log.and")) });
}
