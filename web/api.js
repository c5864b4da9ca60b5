// Turnstile API client — the one small module a browser (or any fetch-capable JS runtime)
// needs to talk to a Turnstile server (spec: ../shared/spec/api.md; docs/web.md).
//
// No dependencies, no build step: `import { Client, MatchSession } from "/api.js"`.
//
//   const api = new Client();                       // same origin; new Client({ base: "http://host:8080" })
//   const { games } = await api.games();
//   const created = await api.createMatch({ game: "connect4", seats: [{ kind: "human" }, { kind: "bot", bot: "strong" }] });
//   const seat0 = api.withToken(created.seats[0].token);    // every match call needs a seat or spectator token
//   const snap = await seat0.snapshot(created.matchId);
//   const receipt = await seat0.command(created.matchId, { action: { type: "drop", column: 3 }, expectedSequence: snap.sequence });
//
// Errors: every failed call throws an `ApiError` with `status`, `code` (the server's stable
// snake_case code, or `network_error`) and a `message` fit for a person. Nothing here swallows
// errors; callers show `error.message`.
//
// Live stream: `seat0.stream(matchId, { after, onReceipt, onState })` reads the Server-Sent Events
// route with `fetch()` streaming (EventSource cannot send the Authorization header), parses the
// SSE frames, reconnects with backoff when the connection drops, and resumes with
// `Last-Event-ID` (the last sequence seen), so nothing is lost or doubled. `close()` stops it.
//
// `MatchSession` ties it together for a page: it holds the latest snapshot, follows the stream,
// serializes commands (each sent with a fresh `commandId` and the `expectedSequence` it holds),
// turns a 409 into "refresh the snapshot and say so", measures the round trip, and computes the
// fair turn timer (`fairRemaining`, docs/turns.md).

/** An error from the server (`{error: {code, message, details}}`) or from the network. */
export class ApiError extends Error {
  constructor(status, code, message, details = {}) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.details = details || {};
  }
}

/** A fresh command id: printable ASCII, unique enough per match. Works outside secure contexts. */
export function newCommandId(prefix = "web") {
  const bytes = new Uint8Array(12);
  globalThis.crypto.getRandomValues(bytes);
  return `${prefix}-${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * The fair timer (docs/turns.md): ticks left before the deadline as a command sent now would be
 * judged. Integers only; half the round trip rounded up, so the display errs towards less time.
 */
export function fairRemainingTicks({ deadlineTick, serverTick, tickRate, rttMs = 0, inputOffsetTicks = 0 }) {
  if (deadlineTick == null) return null;
  const halfRttTicks = Math.ceil((Math.max(0, Math.round(rttMs)) * tickRate) / 2000);
  return Math.max(deadlineTick - (serverTick + halfRttTicks + inputOffsetTicks), 0);
}

/** Ticks → whole milliseconds, rounded down (for display). */
export function ticksToMillis(ticks, tickRate) {
  return Math.floor((ticks * 1000) / tickRate);
}

/** A client of one server, optionally holding one bearer token (a seat's or a spectator's). */
export class Client {
  constructor({ base = "", token = null, fetch: fetchFn = null } = {}) {
    this.base = base.replace(/\/$/, "");
    this.token = token;
    this._fetch = fetchFn || globalThis.fetch.bind(globalThis);
  }

  /** The same server, another token. */
  withToken(token) {
    return new Client({ base: this.base, token, fetch: this._fetch });
  }

  headers(extra = {}) {
    const h = { Accept: "application/json", ...extra };
    if (this.token) h.Authorization = `Bearer ${this.token}`;
    return h;
  }

  /** One JSON request; throws ApiError. Returns the parsed body (null for an empty one). */
  async request(method, path, body) {
    let response;
    const init = { method, headers: this.headers(body !== undefined ? { "Content-Type": "application/json" } : {}) };
    if (body !== undefined) init.body = JSON.stringify(body);
    try {
      response = await this._fetch(this.base + path, init);
    } catch (e) {
      throw new ApiError(0, "network_error", `The server did not answer (${e.message || e}). Check your connection.`);
    }
    const text = await response.text().catch(() => "");
    let json = null;
    if (text) {
      try {
        json = JSON.parse(text);
      } catch {
        json = null;
      }
    }
    if (!response.ok) {
      const err = json && json.error;
      throw new ApiError(
        response.status,
        (err && err.code) || `http_${response.status}`,
        (err && err.message) || `The server answered ${response.status} ${response.statusText}`,
        err && err.details,
      );
    }
    return json;
  }

  games() { return this.request("GET", "/api/v1/games"); }

  /** `{game, config?, seed?, revision?, seats: [{kind, bot?}], tickRate?}` → `{matchId, seats:[{seat, token?}], spectatorToken, ...}` */
  createMatch(body) { return this.request("POST", "/api/v1/matches", body); }

  /** The matches of these tokens, newest first. */
  search(tokens) { return this.request("POST", "/api/v1/matches/search", { tokens }); }

  snapshot(matchId) { return this.request("GET", `/api/v1/matches/${enc(matchId)}`); }

  /** Submits `action`; `commandId` defaults to a fresh one. Returns the receipt. */
  command(matchId, { action, expectedSequence, expectedStep, seat, commandId }) {
    const body = { commandId: commandId || newCommandId(), expectedSequence, action };
    if (expectedStep != null) body.expectedStep = expectedStep;
    if (seat != null) body.seat = seat;
    return this.request("POST", `/api/v1/matches/${enc(matchId)}/commands`, body);
  }

  legalActions(matchId) { return this.request("GET", `/api/v1/matches/${enc(matchId)}/legal-actions`); }

  preview(matchId, action, seat) {
    const body = { action };
    if (seat != null) body.seat = seat;
    return this.request("POST", `/api/v1/matches/${enc(matchId)}/preview`, body);
  }

  /** One page of receipts after `after`. */
  timeline(matchId, after = 0, limit) {
    const q = new URLSearchParams({ after: String(after) });
    if (limit) q.set("limit", String(limit));
    return this.request("GET", `/api/v1/matches/${enc(matchId)}/timeline?${q}`);
  }

  /** Every receipt after `after`, following pages. */
  async timelineAll(matchId, after = 0) {
    const receipts = [];
    let cursor = after;
    for (let i = 0; i < 10000; i++) {
      const page = await this.timeline(matchId, cursor);
      receipts.push(...page.receipts);
      if (page.nextAfter == null || page.receipts.length === 0) break;
      cursor = page.nextAfter;
    }
    return receipts;
  }

  resolution(matchId, commandId) {
    return this.request("GET", `/api/v1/matches/${enc(matchId)}/resolutions/${enc(commandId)}`);
  }

  resign(matchId, commandId) {
    return this.request("POST", `/api/v1/matches/${enc(matchId)}/resign`, commandId ? { commandId } : {});
  }

  /** The replay file: the caller's redacted timeline while running, the full file once ended. */
  replay(matchId) { return this.request("GET", `/api/v1/matches/${enc(matchId)}/replay`); }

  content(game, revision) { return this.request("GET", `/api/v1/content/${enc(game)}/${enc(revision)}`); }

  /**
   * Follows the live stream of receipts. `after`: resume after this sequence (default: now).
   * Callbacks: `onReceipt(receipt, sequence)`, `onState(state, detail)` with state
   * `connecting` | `open` | `reconnecting` | `closed`, `onError(ApiError)` for refusals (401/404
   * stop the stream). Returns `{ close(), lastSequence() }`.
   */
  stream(matchId, { after = null, onReceipt = () => {}, onState = () => {}, onError = () => {}, maxBackoffMs = 8000 } = {}) {
    let last = after;
    let closed = false;
    let controller = null;
    let attempt = 0;
    const url = `${this.base}/api/v1/matches/${enc(matchId)}/events`;

    const run = async () => {
      while (!closed) {
        onState(attempt === 0 ? "connecting" : "reconnecting", { attempt, lastSequence: last });
        controller = new AbortController();
        const headers = this.headers({ Accept: "text/event-stream" });
        if (last != null) headers["Last-Event-ID"] = String(last);
        try {
          const response = await this._fetch(url, { headers, signal: controller.signal, cache: "no-store" });
          if (!response.ok) {
            let body = null;
            try { body = await response.json(); } catch { /* not JSON */ }
            const err = body && body.error;
            const error = new ApiError(response.status, (err && err.code) || `http_${response.status}`, (err && err.message) || `stream refused (${response.status})`);
            onError(error);
            if (response.status === 401 || response.status === 403 || response.status === 404 || response.status === 400) {
              closed = true;
              onState("closed", { error });
              return;
            }
            throw error;
          }
          onState("open", { lastSequence: last });
          attempt = 0;
          await readSse(response.body, (frame) => {
            if (frame.event && frame.event !== "receipt" && frame.event !== "message") return;
            if (!frame.data) return;
            let receipt;
            try { receipt = JSON.parse(frame.data); } catch { return; }
            const seq = frame.id != null && frame.id !== "" ? Number(frame.id) : receipt.sequence;
            if (last != null && seq <= last) return; // never doubled
            last = seq;
            onReceipt(receipt, seq);
          });
        } catch (e) {
          if (closed) break;
          if (!(e instanceof ApiError)) onError(new ApiError(0, "stream_dropped", `Live updates dropped (${e.message || e}); reconnecting…`));
        }
        if (closed) break;
        attempt += 1;
        const delay = Math.min(maxBackoffMs, 500 * 2 ** Math.min(attempt - 1, 5));
        onState("reconnecting", { attempt, delay, lastSequence: last });
        await sleep(delay);
      }
      onState("closed", {});
    };
    run();
    return {
      close() {
        closed = true;
        if (controller) controller.abort();
      },
      lastSequence: () => last,
      /** Drops the current connection (it reconnects and resumes); for tests and "retry now". */
      reconnect() { if (controller) controller.abort(); },
    };
  }
}

function enc(s) { return encodeURIComponent(String(s)); }
function sleep(ms) { return new Promise((r) => setTimeout(r, ms)); }

/** Reads an SSE body, calling `onFrame({event, id, data})` per dispatched event. */
export async function readSse(body, onFrame) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let frame = { event: "", id: null, data: [] };
  const dispatch = () => {
    if (frame.data.length) onFrame({ event: frame.event, id: frame.id, data: frame.data.join("\n") });
    frame = { event: "", id: null, data: [] };
  };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let nl;
    while ((nl = buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + (buffer[nl] === "\r" && buffer[nl + 1] === "\n" ? 2 : 1));
      if (line === "") { dispatch(); continue; }
      if (line.startsWith(":")) continue; // keep-alive comment
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? "" : line.slice(colon + 1);
      if (value.startsWith(" ")) value = value.slice(1);
      if (field === "event") frame.event = value;
      else if (field === "data") frame.data.push(value);
      else if (field === "id") frame.id = value;
    }
  }
}

/**
 * One match as a page sees it: the snapshot, the live stream, commands in order.
 *
 *   const session = new MatchSession(client.withToken(token), matchId, {
 *     onChange: (snapshot) => render(snapshot),       // after every refresh
 *     onReceipt: (receipt) => log(receipt),           // each receipt once, in order (stream or own command)
 *     onMessage: (text, kind) => toast(text, kind),   // "info" | "error" | "warning"
 *     onConnection: (state) => ...,
 *   });
 *   await session.start();
 *   session.send({ type: "move", direction: "left" });   // resolves to the receipt, or null after an error (already reported)
 *   session.timer();  // {remainingTicks, remainingMs} by the fair-timer formula, or null
 *   session.close();
 */
export class MatchSession {
  constructor(client, matchId, { onChange = () => {}, onReceipt = () => {}, onMessage = () => {}, onConnection = () => {}, inputOffsetTicks = 0 } = {}) {
    this.client = client;
    this.matchId = matchId;
    this.snapshot = null;
    this.sequence = 0;
    this.rttMs = 0;
    this.inputOffsetTicks = inputOffsetTicks;
    this.receivedAt = 0; // performance.now() when the snapshot arrived
    this.seen = 0; // highest receipt sequence handed to onReceipt
    this.cb = { onChange, onReceipt, onMessage, onConnection };
    this._queue = Promise.resolve();
    this._refreshing = null;
    this._stream = null;
    this._closed = false;
  }

  /** Loads the snapshot and opens the stream from its sequence. */
  async start() {
    await this.refresh();
    this.seen = this.sequence;
    this._stream = this.client.stream(this.matchId, {
      after: this.sequence,
      onReceipt: (receipt) => this._onReceipt(receipt, true),
      onState: (state, detail) => this.cb.onConnection(state, detail),
      onError: (e) => this.cb.onMessage(e.message, "warning"),
    });
    return this.snapshot;
  }

  close() {
    this._closed = true;
    if (this._stream) this._stream.close();
  }

  /** Re-reads the snapshot (coalesced); measures the round trip. */
  refresh() {
    if (this._refreshing) {
      // a receipt arrived while a snapshot was on its way: read again once it lands
      this._again = true;
      return this._refreshing;
    }
    this._again = false;
    const t0 = performance.now();
    this._refreshing = this.client.snapshot(this.matchId).then((snap) => {
      const t1 = performance.now();
      this.rttMs = Math.round(t1 - t0);
      this.receivedAt = t1;
      if (!this.snapshot || snap.sequence >= this.snapshot.sequence) {
        this.snapshot = snap;
        this.sequence = snap.sequence;
      }
      this.cb.onChange(this.snapshot);
      return this.snapshot;
    }).finally(() => {
      this._refreshing = null;
      if (this._again && !this._closed) this.refresh().catch((e) => this.cb.onMessage(e.message, "error"));
    });
    return this._refreshing;
  }

  _onReceipt(receipt, fromStream) {
    if (receipt.sequence <= this.seen) return;
    this.seen = receipt.sequence;
    this.cb.onReceipt(receipt, fromStream);
    if (this._closed) return;
    this.refresh().catch((e) => this.cb.onMessage(e.message, "error"));
  }

  /** Sends one action after the ones before it. Resolves to the receipt, or null when refused (reported). */
  send(action) {
    const run = async () => {
      try {
        const receipt = await this.client.command(this.matchId, { action, expectedSequence: this.sequence });
        if (receipt.sequence > this.sequence) this.sequence = receipt.sequence;
        this._onReceipt(receipt, false);
        return receipt;
      } catch (e) {
        if (e.status === 409) {
          // player words: the sequence number is the protocol's, not the player's (the debug
          // panel shows it)
          this.cb.onMessage("The match had moved on before your move arrived; the view was refreshed — please try again.", "warning");
          await this.refresh().catch(() => {});
        } else {
          this.cb.onMessage(e.message, e.status === 422 ? "warning" : "error");
        }
        return null;
      }
    };
    const p = this._queue.then(run);
    this._queue = p.catch(() => null);
    return p;
  }

  /** How many commands are waiting or in flight. */
  async idle() { await this._queue; }

  /** The server tick now, estimated from the last snapshot and local time. */
  serverTickNow() {
    const s = this.snapshot;
    if (!s) return 0;
    const elapsed = Math.max(0, performance.now() - this.receivedAt);
    return s.serverTick + Math.floor((elapsed * s.tickRate) / 1000);
  }

  /** The fair timer for the current turn, or null when the turn does not time out. */
  timer() {
    const s = this.snapshot;
    if (!s || s.deadlineTick == null || s.status !== "active") return null;
    const remainingTicks = fairRemainingTicks({
      deadlineTick: s.deadlineTick,
      serverTick: this.serverTickNow(),
      tickRate: s.tickRate,
      rttMs: this.rttMs,
      inputOffsetTicks: this.inputOffsetTicks,
    });
    return { remainingTicks, remainingMs: ticksToMillis(remainingTicks, s.tickRate), deadlineTick: s.deadlineTick };
  }
}
