// The leaderboard page: GET api/ladder once, then one preset's ratings at a time (chosen in the
// select, kept in the URL's ?preset=). Everything shown is built with textContent: names come
// from bot accounts.

import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

function signed(x) {
  return (x >= 0 ? "+" : "−") + Math.abs(x).toFixed(2);
}

function row(rank, bot) {
  const tr = document.createElement("tr");
  tr.className = bot.reference ? "reference" : "";
  tr.dataset.bot = bot.name;
  const cells = [String(rank), bot.name, signed(bot.rating),
    bot.name === "random" ? "anchor" : `${signed(bot.ci_low)} … ${signed(bot.ci_high)}`, String(bot.sets)];
  for (const text of cells) {
    const td = document.createElement("td");
    td.textContent = text;
    tr.append(td);
  }
  return tr;
}

function show(data, preset) {
  const bots = data.ladder[preset] || [];
  const body = $("board").querySelector("tbody");
  body.replaceChildren(...bots.map((bot, i) => row(i + 1, bot)));
  $("board").hidden = bots.length === 0;
  $("empty").hidden = bots.length > 0;
}

function manifest(data) {
  $("manifest").replaceChildren(...data.manifest.bots.map((bot) => {
    const li = document.createElement("li");
    const name = document.createElement("code");
    name.textContent = bot.name;
    li.append(name, t("ladder.frozen", { budget: bot.budget, engine: bot.engine }));
    return li;
  }));
}

async function main() {
  let data;
  try {
    const response = await fetch("api/ladder");
    if (!response.ok) throw new Error(t("ladder.server_answered", { status: response.status }));
    data = await response.json();
  } catch (e) {
    $("failed").textContent = t("ladder.failed", { reason: e.message });
    $("failed").hidden = false;
    return;
  }
  const presets = Object.keys(data.manifest.rules);
  const select = $("preset");
  select.replaceChildren(...presets.map((name) => {
    const option = document.createElement("option");
    option.value = option.textContent = name;
    return option;
  }));
  const asked = new URLSearchParams(location.search).get("preset");
  const rated = presets.find((name) => (data.ladder[name] || []).length > 0);
  select.value = presets.includes(asked) ? asked : rated || "chengdu";
  select.addEventListener("change", () => {
    history.replaceState(null, "", `?preset=${encodeURIComponent(select.value)}`);
    show(data, select.value);
  });
  manifest(data);
  show(data, select.value);
  document.body.dataset.ready = "true";
}

main();
