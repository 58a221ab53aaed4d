// One line of plain English (with the Chinese term) for each event, as the viewer sees it.
import * as N from "./names.js";

const you = (seat, me) => (seat === me ? "You" : N.SEATS[seat]);

export function describe(e, view, me) {
  const who = you(e.seat, me);
  switch (e.type) {
    case "start":
      return `New hand (${e.rules.preset || "custom"} rules); dealer 庄 ${N.SEATS[e.dealer]}.`;
    case "dice":
      return diceText(e, me);
    case "deal":
      return `${who} ${e.seat === me ? "are" : "is"} dealt ${e.tiles ? e.tiles.length : e.count} tiles.`;
    case "exchange":
      return `Exchange three 换三张: direction ${e.direction}.`;
    case "redeal":
      return "Redeal: every seat got back what it gave.";
    case "void":
      return `${who} declared void 定缺: ${N.suitName(e.suit)}.`;
    case "draw":
      return `${who} drew ${e.tile || "a tile"}${e.replacement ? " (kong replacement)" : ""}.`;
    case "discard":
      return `${who} discarded ${e.tile}.`;
    case "pass":
      return `${who} passed (could ${e.could.join(" or ")}).`;
    case "pong":
      return `${who} ponged 碰 ${e.tile} from ${you(e.from, me)}.`;
    case "kong":
      return `${who} declared a ${N.label(N.KONG_KINDS[e.kind])} of ${e.tile}${e.from !== null ? ` from ${you(e.from, me)}` : ""}.`;
    case "swap":
      return `${who} swapped ${e.tile} into a kong and took a wild back 幺鸡换.`;
    case "beaten":
      return `${who}'s ${e.claim} lost to a win.`;
    case "robbed":
      return `${who}'s kong of ${e.tile} was robbed 抢杠.`;
    case "win":
      return `${who} won 胡 on ${e.tile}, ${N.label(N.WIN_KINDS[e.kind])}${e.from !== null ? ` from ${you(e.from, me)}` : ""}: ${N.pattern(e.score.pattern)}, ${e.score.capped_fan} fan, ${e.score.points} points.`;
    case "payment":
      return `${you(e.payer, me)} paid ${you(e.payee, me)} ${e.amount} (${N.reason(e.reason)}).`;
    case "abandon":
      return `${who} left the hand 逃跑.`;
    case "end":
      return `Hand over: ${N.END_REASONS[e.reason] || e.reason}; this hand ${e.scores.join(", ")}.`;
    default:
      return `${e.type}${e.seat !== undefined ? ` (${N.SEATS[e.seat]})` : ""}.`;
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
      return pairs.join(", then ");
    });
    return `Dice for the dealer: ${throws.map((t, s) => `${N.SEATS[s]} ${t}`).join("; ")}.`;
  }
  const who = you(e.seat, me);
  const verb = e.seat === me ? "roll" : "rolls";
  const why = e.purpose === "wall" ? "to break the wall" : "for the exchange's direction";
  return `${who} ${verb} ${e.rolls.join(" and ")} ${why}.`;
}
