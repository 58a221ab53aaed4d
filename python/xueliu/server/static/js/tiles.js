// Tiles as text: "5m" is the 5 of characters (万), "3p" dots (筒), "7s" bamboo (条); 27 kinds,
// index 0-26 in the order 1m..9m 1p..9p 1s..9s, as the engine writes them.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import * as N from "./names.js";

const SUIT_ORDER = { m: 0, p: 1, s: 2 };

export const index = (tile) => SUIT_ORDER[tile[1]] * 9 + Number(tile[0]) - 1;
export const byIndex = (a, b) => index(a) - index(b);
export const sorted = (tiles) => [...tiles].sort(byIndex);

/** "123m45p" -> ["1m", "2m", "3m", "4p", "5p"] (the engine's compact form). */
export function parseTiles(text) {
  const tiles = [];
  let ranks = [];
  for (const ch of text.replace(/\s+/g, "")) {
    if (ch >= "1" && ch <= "9") ranks.push(ch);
    else if (ch in SUIT_ORDER) {
      for (const r of ranks) tiles.push(r + ch);
      ranks = [];
    }
  }
  return tiles;
}

/** Removes one copy of `tile` from `tiles` (in place); false if there was none. */
export function removeOne(tiles, tile) {
  const i = tiles.indexOf(tile);
  if (i < 0) return false;
  tiles.splice(i, 1);
  return true;
}

/** ["1m", "2m", "3p"] -> "12m3p", sorted. */
export function compact(tiles) {
  let out = "";
  let group = "";
  let suit = null;
  for (const t of sorted(tiles)) {
    if (t[1] !== suit && suit !== null) {
      out += group + suit;
      group = "";
    }
    suit = t[1];
    group += t[0];
  }
  return suit === null ? "" : out + group + suit;
}

/** The same multiset? (order ignored) */
export const sameTiles = (a, b) => a.length === b.length && sorted(a).join() === sorted(b).join();

/**
 * One tile as an element: the rank large, the suit character under it, coloured by suit.
 * `wild` marks a 幺鸡 (1s under the yaoji rules); `tile = null` draws a face-down tile.
 */
export function tileEl(tile, { wild = false, tag = "span", extra = "" } = {}) {
  const el = document.createElement(tag);
  el.className = `tile ${extra}`.trim();
  if (tile === null) {
    el.classList.add("back");
    el.setAttribute("aria-label", t("tile.back"));
    return el;
  }
  const suit = tile[1];
  el.classList.add(`suit-${suit}`);
  el.dataset.tile = tile;
  const rank = document.createElement("b");
  rank.textContent = tile[0];
  const mark = document.createElement("i");
  mark.textContent = N.suitMark(suit);
  el.append(rank, mark);
  let name = t("tile.name", { rank: t(`rank.${tile[0]}`), suit: t(`suit.${suit}`), mark: N.suitMark(suit) });
  if (wild) {
    el.classList.add("wild");
    const badge = document.createElement("em");
    badge.textContent = t("tile.wildmark");
    el.append(badge);
    name = t("tile.wild", { name });
  }
  el.setAttribute("aria-label", name);
  el.title = name;
  return el;
}

/** A row of tiles. */
export function tilesEl(tiles, options = {}, cls = "tiles") {
  const row = document.createElement("div");
  row.className = cls;
  for (const t of tiles) row.append(tileEl(t, { ...options, wild: options.wilds && t === "1s" }));
  return row;
}

/** A meld: a pong shows three tiles, a kong four, a concealed kong its two ends face down. */
export function meldEl(m, wilds) {
  const size = m.kind === "pong" ? 3 : 4;
  const tiles = [...Array(size - m.wilds).fill(m.tile), ...Array(m.wilds).fill("1s")];
  return h(
    `span.meld.${m.kind}`,
    { dataset: { meld: m.kind, tile: m.tile, wilds: m.wilds }, title: N.meld(m.kind) },
    tiles.map((t, i) =>
      m.kind === "concealed_kong" && (i === 0 || i === 3) ? tileEl(null, { extra: "kong-end" }) : tileEl(t, { wild: wilds && t === "1s" }),
    ),
    h("small", N.meldMark(m.kind)),
  );
}
