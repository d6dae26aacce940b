// The live feed: a WebSocket that delivers each new event (as this viewer may see it) with its version, and
// reconnects with `?after=n` so nothing is missed. Falls back to polling `GET /events?after=n` while down.
// The socket is opened with `?state=1&batch=1`: after the backlog and after each batch of events the server
// sends one frame `{"kind": "batch", "version", "events": […], "state": …}` holding the batch's events and the
// viewer's state (what `GET /state` answers), so while the socket is up the page never fetches the state
// itself; while it polls, `live` is false and the page fetches it after events. Frames of one event each and
// `{"kind": "state"}` frames (a socket opened without `batch=1`) are read too.

export class LiveFeed {
  /**
   * @param {import("./api.js").Table} table
   * @param {(events: object[]) => void} onEvents called with new events, in version order, never twice (each event has its own version)
   * @param {(up: boolean) => void} onStatus
   */
  constructor(table, onEvents, onStatus = () => {}) {
    this.table = table;
    this.onEvents = onEvents;
    this.onStatus = onStatus;
    this.after = 0;
    this.socket = null;
    this.retry = 0;
    this.closed = false;
    this.pollTimer = null;
    this.seen = new Set();
    /** Called with who is connected now, [{who, name, role}], whenever someone comes or goes. */
    this.onPresence = null;
    /** Called with the viewer's state (what GET /state answers) after the backlog and each batch of events. */
    this.onState = null;
  }

  /** Whether events come from polling (the socket is down): then the page fetches the state itself. */
  get polling() {
    return this.pollTimer !== null;
  }

  /** Whether the socket is open: then each batch of events is followed by the state, no fetch needed. */
  get live() {
    return this.socket !== null && this.socket.readyState === WebSocket.OPEN;
  }

  /** Feed events fetched over HTTP (the first load, or a poll) through the same gate as socket messages. */
  accept(events) {
    const fresh = [];
    for (const ev of events || []) {
      const v = Number(ev.version);
      if (this.seen.has(v)) continue;
      this.seen.add(v);
      fresh.push(ev);
      if (Number.isFinite(v)) this.after = Math.max(this.after, v);
    }
    if (fresh.length) this.onEvents(fresh);
  }

  start(after = 0) {
    this.after = Math.max(this.after, after);
    this.connect();
  }

  connect() {
    if (this.closed) return;
    let socket;
    try {
      socket = new WebSocket(this.table.socketUrl(this.after));
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.retry = 0;
      this.onStatus(true);
      this.stopPolling();
    });
    socket.addEventListener("message", (msg) => {
      let data;
      try {
        data = JSON.parse(msg.data);
      } catch {
        return;
      }
      if (data && data.kind === "presence") {
        if (this.onPresence) this.onPresence(data.online || []);
        return;
      }
      if (data && data.kind === "batch") {
        this.accept(Array.isArray(data.events) ? data.events : []);
        if (this.onState && data.state) this.onState(data.state);
        return;
      }
      if (data && data.kind === "state") {
        if (this.onState && data.state) this.onState(data.state);
        return;
      }
      if (Array.isArray(data)) this.accept(data);
      else if (data && Array.isArray(data.events)) this.accept(data.events);
      else if (data && (data.type || data.event)) this.accept([data]);
    });
    socket.addEventListener("close", () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.onStatus(false);
      this.scheduleReconnect();
    });
    socket.addEventListener("error", () => socket.close());
  }

  scheduleReconnect() {
    if (this.closed) return;
    this.startPolling();
    const delay = Math.min(8000, 400 * 2 ** this.retry++);
    setTimeout(() => this.connect(), delay);
  }

  startPolling() {
    if (this.pollTimer) return;
    this.pollTimer = setInterval(async () => {
      try {
        const res = await this.table.events(this.after);
        this.accept(Array.isArray(res) ? res : res.events);
      } catch {
        // The server is away; the socket reconnect will catch up.
      }
    }, 3000);
  }

  stopPolling() {
    clearInterval(this.pollTimer);
    this.pollTimer = null;
  }

  /** Drop the connection now (the page reconnects by itself), e.g. to test catching up. */
  drop() {
    if (this.socket) this.socket.close();
  }

  close() {
    this.closed = true;
    this.stopPolling();
    if (this.socket) this.socket.close();
  }
}
