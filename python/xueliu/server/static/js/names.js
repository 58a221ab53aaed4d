// The game's words (seats, suits, patterns, payments…) in the page's language, from the one
// string table (i18n.js, strings.json). A name the table does not know (a pattern a newer engine
// scores) is shown as the engine spells it.
import { t, tOr } from "./i18n.js";

// Where a seat sits as seen from `me` (seats run counter-clockwise: me + 1 is on my right).
export const PLACES = ["bottom", "right", "top", "left"];

// "You receive from": docs/game-protocol.md §1 (clockwise: from 下家, seat + 1).
export const RECEIVE_FROM = { clockwise: 1, counterclockwise: 3, opposite: 2 };

// The bots the lobby offers, in the order offered.
export const BOTS = ["greedy", "random", "ismcts:200"];

export const seat = (s) => t(`seat.${s}`);
export const wind = (s) => t(`wind.${s}`);
export const seatName = (s) => t("seat.name", { seat: seat(s), wind: wind(s) });
export const suitMark = (suit) => t(`suitmark.${suit}`);
/** A tile in words: "5m" in English (as the engine writes it), 五万 in Chinese; a tile this
 * viewer may not see (another seat's draw) is "a tile". */
export const tileWord = (tile) => (tile ? t("tile.word", { code: tile, rank: t(`rank.${tile[0]}`), mark: suitMark(tile[1]) }) : t("log.a_tile"));
export const suitName = (suit) => t("suit.name", { suit: t(`suit.${suit}`), mark: suitMark(suit) });

export const pattern = (name) => tOr(`pattern.${name}`, name);
export const bonus = (name) => tOr(`bonus.${name}`, name);
export const reason = (name) => tOr(`reason.${name}`, name);
export const endReason = (name) => tOr(`end.${name}`, name);
export const winKind = (name) => tOr(`winkind.${name}`, name);
export const kongKind = (name) => tOr(`kongkind.${name}`, name);
export const meld = (name) => tOr(`meld.${name}`, name);
export const meldMark = (name) => tOr(`meldmark.${name}`, name);
export const exchangeRule = (name) => tOr(`exchange.${name}`, "");
export const bot = (name) => tOr(`bot.${name}`, name);
export const presetText = (p) => tOr(`preset.${p.name}`, p.description, { description: p.description });

export const signed = (n) => (n > 0 ? `+${n}` : `${n}`);
