// Routes: #/ the lobby; #/t/ID a table (your seat if this browser holds its token, else the
// choice of a seat); #/t/ID/watch the spectator's view; #/replay the replay viewer (#/replay/ID:
// every hand of table ID's finished match; #/replay/ID/N: its finished hand N).
import { t } from "./i18n.js";
import { joinPage, Lobby } from "./lobby.js";
import { tokens } from "./net.js";
import { ReplayView } from "./replay.js";
import { TableView } from "./table.js";

const root = document.getElementById("app");
let current = null;

function route() {
  document.title = t("page.title");
  if (current && current.destroy) current.destroy();
  current = null;
  const [, page, id, mode] = location.hash.split("/");
  if (page === "t" && id) {
    if (mode === "watch") current = new TableView(root, id, { watch: true });
    else if (tokens.get(id)) current = new TableView(root, id);
    else joinPage(root, id);
  } else if (page === "replay") current = new ReplayView(root, id, mode === undefined ? undefined : Number(mode));
  else current = new Lobby(root);
  window.xueliuPage = current; // for the browser tests and the curious
}

window.addEventListener("hashchange", route);
// a new language redraws the page as it is (a table keeps its socket and its state)
window.addEventListener("xueliu:language", () => {
  document.title = t("page.title");
  if (current && current.render) current.render();
  else route();
});
route();
