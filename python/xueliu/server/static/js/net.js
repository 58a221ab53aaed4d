// The server's HTTP API and one WebSocket per seat or spectator (docs/server.md, protocol v1).

export const PROTOCOL = 1;

async function call(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({ message: response.statusText }));
  if (!response.ok) throw new Error(data.message || `HTTP ${response.status}`);
  return data;
}

export const api = {
  presets: () => call("GET", "/api/presets").then((d) => d.presets),
  tables: () => call("GET", "/api/tables").then((d) => d.tables),
  table: (id) => call("GET", `/api/tables/${id}`).then((d) => d.table),
  create: (settings) => call("POST", "/api/tables", settings).then((d) => d.table),
  hand: (id, n) => call("GET", `/api/tables/${id}/hands/${n}`).then((d) => d.events),
  log: (id) => call("GET", `/api/tables/${id}/log`).then((d) => d.log),
  join: (id, seat, name) => call("POST", `/api/tables/${id}/seats/${seat}`, name ? { name } : undefined),
};

// The display name this browser joins tables with (shown to everyone at the table).
export const myName = {
  get: () => localStorage.getItem("xueliu:name") || "",
  put: (name) => localStorage.setItem("xueliu:name", name.trim()),
};

// Seat tokens live in this browser only (localStorage), one per table.
export const tokens = {
  get: (id) => JSON.parse(localStorage.getItem(`xueliu:seat:${id}`) || "null"),
  put: (id, seat, token) => localStorage.setItem(`xueliu:seat:${id}`, JSON.stringify({ seat, token })),
  drop: (id) => localStorage.removeItem(`xueliu:seat:${id}`),
};

/**
 * A socket that says hello, hands every server message to `onMessage`, and reconnects after a
 * drop, resuming from `resume()` ({hand, from}) so no event is lost or repeated.
 */
export class Link {
  constructor(tableId, token, onMessage, onState) {
    this.url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/tables/${tableId}/${token ? "play" : "watch"}`;
    this.token = token;
    this.onMessage = onMessage;
    this.onState = onState;
    this.resume = () => ({});
    this.closed = false;
    this.retry = 500;
  }

  open() {
    const ws = (this.ws = new WebSocket(this.url));
    ws.onopen = () => {
      this.retry = 500;
      const hello = { type: "hello", ...this.resume() };
      if (this.token) hello.token = this.token;
      ws.send(JSON.stringify(hello));
      this.onState("open");
    };
    ws.onmessage = (m) => this.onMessage(JSON.parse(m.data));
    ws.onclose = (e) => {
      if (this.closed || [4000, 4401, 4404].includes(e.code)) {
        this.onState(e.code === 4000 ? "replaced" : e.code === 4401 ? "unauthorized" : "closed");
        return;
      }
      this.onState("reconnecting");
      setTimeout(() => this.open(), this.retry);
      this.retry = Math.min(this.retry * 2, 8000);
    };
  }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  close() {
    this.closed = true;
    if (this.ws) this.ws.close();
  }
}
