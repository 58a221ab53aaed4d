// The page's words in the player's language. Every user-facing string lives in one table,
// strings.json: a key, then its text in English, 简体中文 and 繁體中文, "{name}" marking what is
// filled in. The language is the player's choice from the switch (kept in localStorage), else the
// first of the browser's languages (navigator.languages) we have, else English.
import { h } from "./dom.js";

const STRINGS = await fetch(new URL("../strings.json", import.meta.url)).then((r) => r.json());
const STORED = "xueliu:lang";

export const LANGUAGES = ["zh-Hans", "zh-Hant", "en"];

/** The language for a list of BCP 47 tags: zh-TW, zh-HK, zh-MO and zh-Hant* read 繁體, other zh 简体. */
export function pickLanguage(tags) {
  for (const tag of tags || []) {
    const t = tag.toLowerCase();
    if (t === "zh" || t.startsWith("zh-")) return /^zh-(hant|tw|hk|mo)/.test(t) ? "zh-Hant" : "zh-Hans";
    if (t === "en" || t.startsWith("en-")) return "en";
  }
  return "en";
}

let current = LANGUAGES.includes(localStorage.getItem(STORED)) ? localStorage.getItem(STORED) : pickLanguage(navigator.languages);
document.documentElement.lang = current;

export const language = () => current;

/** The text of `key` in the current language, each {name} replaced by `params[name]`. */
export function t(key, params = {}) {
  const entry = STRINGS[key];
  if (!entry) return key;
  return entry[current].replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** `t(prefix + name)` if the table has it, else `fallback` (a name the page does not know yet). */
export function tOr(key, fallback, params) {
  return key in STRINGS ? t(key, params) : fallback;
}

/** The switch: each language in its own words; a choice is remembered and redraws the page. */
export function languageSwitch() {
  return h(
    "select.small#lang",
    {
      "aria-label": t("language.label"),
      title: t("language.label"),
      onchange: (e) => {
        current = e.target.value;
        localStorage.setItem(STORED, current);
        document.documentElement.lang = current;
        window.dispatchEvent(new Event("xueliu:language"));
      },
    },
    LANGUAGES.map((l) => h("option", { value: l, selected: l === current }, STRINGS["language.name"][l])),
  );
}
