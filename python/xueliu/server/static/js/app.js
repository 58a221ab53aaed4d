// Routes: #/ the lobby; #/t/ID a table (your seat if this browser holds its token, else the
// choice of a seat); #/t/ID/watch the spectator's view; #/replay the replay viewer.
import { joinPage, Lobby } from "./lobby.js";
import { tokens } from "./net.js";
import { ReplayView } from "./replay.js";
import { TableView } from "./table.js";

const root = document.getElementById("app");
let current = null;

function route() {
  if (current && current.destroy) current.destroy();
  current = null;
  const [, page, id, mode] = location.hash.split("/");
  if (page === "t" && id) {
    if (mode === "watch") current = new TableView(root, id, { watch: true });
    else if (tokens.get(id)) current = new TableView(root, id);
    else joinPage(root, id);
  } else if (page === "replay") current = new ReplayView(root);
  else current = new Lobby(root);
  window.xueliuPage = current; // for the browser tests and the curious
}

window.addEventListener("hashchange", route);
route();
