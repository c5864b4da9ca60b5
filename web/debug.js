// The debug panel, for game developers (in the spirit of boardgame.io's): the `~` key, the Debug
// button or `?debug=1` in a match link opens it over any match page. It shows what the player
// pages keep out of sight — match id, revision, sequence, fingerprints — and gives the tools:
//
//   Match    ids, revision, sequence/step, ticks, the seat's view fingerprint
//   View     the seat's view as JSON; the full state (`GET .../state`: once the match has ended,
//            or under `serve --dev`) and, after the end, the seed and config
//   Actions  the legal actions with their parameter ranges; preview any action; send any action
//            as JSON; a bot step (a random legal action for this seat, from its ranges)
//   Log      the receipt log with time travel: step back and forward through the match, each
//            step drawn by the game's own web module (its replay frames) — the match itself does
//            not change; each receipt's fingerprints and hash, its events as JSON
//   Replay   export the replay file; import one and open it in the replay viewer
//
// Everything goes through the public API with the page's token; nothing here is privileged.

import { h, say, shortRev } from "./util.js";
import { gameOf } from "./registry.js";
import { IMPORTED } from "./replay.js";

/** A random value in a legal action's parameter range, or undefined when it can't pick one. */
export function pickInRange(range, rand = Math.random) {
  if (!range) return undefined;
  const any = (list) => list[Math.floor(rand() * list.length)];
  if (range.kind === "oneOf") return range.values.length ? any(range.values) : undefined;
  if (range.kind === "integer") return range.min + Math.floor(rand() * (range.max - range.min + 1));
  if (range.kind === "cells") return range.cells.length ? any(range.cells) : undefined;
  if (range.kind === "subsetOf") {
    const vals = range.items || [];
    const n = Math.max(range.min ?? 1, 1);
    return vals.slice().sort(() => rand() - 0.5).slice(0, Math.min(n, vals.length));
  }
  return undefined;
}

/** A legal action (`{kind, params}`) as an action object with a value picked for each parameter. */
export function actionFrom(legalAction, rand = Math.random) {
  const action = { type: legalAction.kind };
  for (const p of legalAction.params || []) {
    const v = pickInRange(p.range, rand);
    if (v === undefined) return null;
    action[p.name] = v;
  }
  return action;
}

export function mountDebug(parent, { session, client, matchId, seat, game, onClose }) {
  const g = gameOf(game);
  let snap = session.snapshot;
  let receipts = [];
  let frames = null;
  let pos = null; // the step shown in time travel (null: follow the live match)
  let replayInfo = null;

  const tabs = ["Match", "View", "Actions", "Log", "Replay"];
  const panes = Object.fromEntries(tabs.map((t) => [t, h("div", { class: "debug-pane", role: "tabpanel", "data-pane": t, hidden: t !== "Match" })]));
  const tabButtons = tabs.map((t) => h("button", { type: "button", role: "tab", "aria-selected": t === "Match" ? "true" : "false", "data-tab": t, onclick: () => show(t) }, t));
  const panel = h("aside", { class: "debug-panel drawer", role: "complementary", "aria-label": "Debug panel", "data-testid": "debug-panel" },
    // a touch screen has no ~ key: its help names the × button instead
    h("div", { class: "debug-head" }, h("strong", {}, "Debug"), h("span", { class: "muted", "data-testid": "debug-help" }, ` ${g.title} · ${window.matchMedia && window.matchMedia("(pointer: coarse)").matches ? "× to close" : "~ to close"}`),
      h("button", { type: "button", class: "close", "aria-label": "Close the debug panel", onclick: () => destroy() }, "×")),
    h("div", { class: "debug-tabs", role: "tablist" }, tabButtons),
    Object.values(panes));
  parent.append(panel);

  function show(t) {
    for (const b of tabButtons) b.setAttribute("aria-selected", b.dataset.tab === t ? "true" : "false");
    for (const [k, p] of Object.entries(panes)) p.hidden = k !== t;
    if (t === "Log") loadLog();
  }

  const dl = (rows) => h("dl", { class: "step-details" }, rows.flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]));
  const json = (v, testid) => h("pre", { class: "json", ...(testid ? { "data-testid": testid } : {}) }, JSON.stringify(v, null, 2));

  // ---- Match and View ----
  function renderMatch() {
    panes.Match.replaceChildren(dl([
      ["Match", h("code", { "data-testid": "debug-match-id" }, matchId)],
      ["Game", h("code", {}, game)],
      ["Revision", h("code", { title: snap.revision }, shortRev(snap.revision))],
      ["Viewer", seat == null ? "spectator" : `seat ${seat}`],
      ["Status", `${snap.status}${snap.outcome ? ` ${JSON.stringify(snap.outcome)}` : ""}`],
      ["Sequence", h("span", { "data-testid": "debug-sequence" }, String(snap.sequence))],
      ["Step", String(snap.step)],
      ["Ticks", `server ${snap.serverTick} at ${snap.tickRate}/s${snap.deadlineTick != null ? `, deadline ${snap.deadlineTick}` : ""}`],
      ["View fingerprint", h("code", { class: "fp", "data-testid": "debug-view-fingerprint" }, snap.viewFingerprint)],
      ["Seats", snap.seats.map((x) => `${x.seat}: ${x.kind}${x.bot ? ` (${x.bot})` : ""}`).join(" · ")],
    ]));
  }
  async function renderView() {
    const ended = snap.status !== "active";
    const stateBox = h("div", { "data-testid": "debug-state" });
    panes.View.replaceChildren(h("h3", {}, seat == null ? "The spectator's view" : `Seat ${seat}'s view`), json(snap.view, "debug-view"),
      h("h3", {}, "Full state"),
      h("p", { class: "muted" }, ended ? "The match has ended: its full state and replay are open to every token."
        : "Hidden while the match runs (it holds what seats may not see), unless the server runs with `serve --dev`."),
      h("div", { class: "row" },
        h("button", { type: "button", "data-testid": "debug-load-state", onclick: async () => {
          try { const st = await client.request("GET", `/api/v1/matches/${encodeURIComponent(matchId)}/state`); stateBox.replaceChildren(json(st.state, "debug-full-state")); }
          catch (e) { stateBox.replaceChildren(h("p", { class: "error" }, `${e.code}: ${e.message}`)); }
        } }, "Load the full state"),
        ended ? h("button", { type: "button", onclick: async (ev) => {
          ev.target.disabled = true;
          try { const file = await client.replay(matchId); stateBox.replaceChildren(dl([["Seed", h("code", {}, file.seed || "—")], ["Config", json(file.config)], ["Receipts", String((file.entries || []).length)]])); }
          catch (e) { say(e.message, "error"); } finally { ev.target.disabled = false; }
        } }, "Seed and config") : null),
      stateBox);
  }

  // ---- Actions ----
  const input = h("textarea", { id: "debug-action", rows: 4, spellcheck: "false", "aria-label": "Action as JSON", placeholder: '{"type": "..."}' });
  const out = h("div", { class: "debug-out", "aria-live": "polite", "data-testid": "debug-out" });
  const legalList = h("ul", { class: "legal", "data-testid": "debug-legal" });
  function parsed() {
    try { return JSON.parse(input.value); } catch (e) { say(`Not JSON: ${e.message}`, "error"); return null; }
  }
  async function preview(action) {
    out.replaceChildren(h("p", { class: "muted" }, "Previewing…"));
    try {
      const p = await client.preview(matchId, action);
      out.replaceChildren(h("h4", {}, "Preview: events"), json(p.events || [], "debug-preview-events"), h("details", {}, h("summary", {}, "Previewed view"), json(p.view)));
    } catch (e) { out.replaceChildren(h("p", { class: "error" }, `${e.code}: ${e.message}`)); }
  }
  async function send(action) {
    const r = await session.send(action);
    if (r) out.replaceChildren(h("h4", {}, `Accepted: sequence ${r.sequence}`), json(r.events || []));
  }
  async function botStep() {
    if (seat == null) { say("A spectator has no moves.", "warning"); return; }
    try {
      const legal = await client.legalActions(matchId);
      // a bot plays the game: it never resigns (a developer who wants that sends it as JSON)
      const choices = (legal.actions || []).filter((a) => !/resign/i.test(a.kind)).map((a) => actionFrom(a)).filter(Boolean);
      if (!choices.length) { say("This seat has no legal action now.", "warning"); return; }
      const action = choices[Math.floor(Math.random() * choices.length)];
      input.value = JSON.stringify(action);
      await send(action);
    } catch (e) { say(e.message, "error"); }
  }
  panes.Actions.append(
    h("h3", {}, "Legal actions"), legalList,
    h("label", { for: "debug-action" }, "Any action (JSON)"), input,
    h("div", { class: "row" },
      h("button", { type: "button", onclick: () => { const a = parsed(); if (a) preview(a); } }, "Preview"),
      h("button", { type: "button", class: "primary", "data-testid": "debug-send", onclick: () => { const a = parsed(); if (a) send(a); } }, "Send"),
      h("button", { type: "button", "data-testid": "debug-bot-step", onclick: botStep, title: "Plays a random legal action for this seat" }, "Bot step (random)")),
    out);
  async function renderLegal() {
    if (seat == null || snap.status !== "active") { legalList.replaceChildren(h("li", { class: "muted" }, seat == null ? "A spectator has no actions." : "The match has ended.")); return; }
    try {
      const legal = await client.legalActions(matchId);
      legalList.replaceChildren(...legal.actions.map((a) => h("li", {},
        h("button", { type: "button", class: "link-button", onclick: () => { const act = actionFrom(a, () => 0) || { type: a.kind }; input.value = JSON.stringify(act); preview(act); } }, a.kind),
        a.params.length ? h("code", {}, ` ${a.params.map((p) => `${p.name}: ${JSON.stringify(p.range)}`).join("; ")}`) : "")));
      if (!legal.actions.length) legalList.replaceChildren(h("li", { class: "muted" }, "No legal action for this seat now."));
    } catch (e) { legalList.replaceChildren(h("li", { class: "error" }, e.message)); }
  }

  // ---- Log with time travel ----
  const travel = h("input", { type: "range", min: 0, max: 0, value: 0, "aria-label": "Time travel: step", "data-testid": "debug-travel" });
  const travelLabel = h("output", { "data-testid": "debug-travel-label" });
  const travelBoard = h("div", { class: "debug-board", "data-testid": "debug-board" });
  const travelDetails = h("div", {});
  const logList = h("ol", { class: "debug-log", "data-testid": "debug-log" });
  travel.addEventListener("input", () => go(Number(travel.value)));
  panes.Log.append(
    h("div", { class: "row" },
      h("button", { type: "button", "aria-label": "Step back in time", "data-testid": "debug-back", onclick: () => go((pos ?? receipts.length) - 1) }, "◀"),
      travel,
      h("button", { type: "button", "aria-label": "Step forward in time", "data-testid": "debug-forward", onclick: () => go((pos ?? receipts.length) + 1) }, "▶"),
      h("button", { type: "button", onclick: () => go(receipts.length, true) }, "Live"), travelLabel),
    h("p", { class: "muted" }, "Time travel redraws earlier steps here; the match itself does not change."),
    travelBoard, travelDetails, logList);

  let logLoaded = null;
  async function loadLog() {
    if (!logLoaded) {
      logLoaded = (async () => {
        const file = await client.replay(matchId).catch(() => null);
        const content = file && file.bundle && file.bundle.content ? file.bundle : g.replay && g.replay.needsContent
          ? await client.content(game, snap.revision).then((c) => c && c.bundle).catch(() => null) : null;
        replayInfo = { game, seats: snap.seats, content: content && content.content, viewerSeat: seat, file, snapshot: snap };
        receipts = file ? (file.entries || []).map((e) => e.receipt) : await client.timelineAll(matchId, 0);
      })().catch((e) => { say(e.message, "error"); logLoaded = null; });
    }
    await logLoaded;
    rebuild();
    go(pos ?? receipts.length, pos == null);
  }
  function rebuild() {
    if (!replayInfo) return;
    frames = g.replay && g.replay.frames ? g.replay.frames(receipts.map((receipt) => ({ receipt })), replayInfo) : null;
    travel.max = receipts.length;
    logList.replaceChildren(...receipts.map((r, i) => h("li", { value: r.sequence, "data-seq": r.sequence },
      h("button", { type: "button", class: "link-button", onclick: () => go(i + 1) }, `#${r.sequence} ${r.seat == null ? "system" : `seat ${r.seat}`} ${JSON.stringify(r.action)}`),
      " ", h("code", { class: "fp" }, shortRev(r.after)))));
  }
  function go(n, live = false) {
    const at = Math.max(0, Math.min(receipts.length, n));
    pos = live || at === receipts.length ? null : at;
    travel.value = at;
    travelLabel.textContent = `${pos == null ? "live · " : ""}step ${at} of ${receipts.length}`;
    travelBoard.replaceChildren(frames && g.replay.draw && frames[at] ? g.replay.draw(frames[at], replayInfo) : h("p", { class: "muted" }, "This game's module draws no replay frames."));
    const r = at > 0 ? receipts[at - 1] : null;
    travelDetails.replaceChildren(r ? dl([
      ["Sequence", String(r.sequence)], ["Command", h("code", {}, r.commandId)], ["Seat", r.seat == null ? "system" : String(r.seat)], ["Tick", String(r.tick)],
      ["Action", h("code", {}, JSON.stringify(r.action))],
      ["Before", h("code", { class: "fp" }, r.before)], ["After", h("code", { class: "fp", "data-testid": "debug-fingerprint" }, r.after)],
      ["Hash", h("code", { class: "fp" }, r.hash)],
      ["Events", h("details", {}, h("summary", {}, `${(r.events || []).length} events`), json(r.events || []))],
    ]) : h("p", { class: "muted" }, "The start, before the first command."));
    for (const li of logList.children) li.classList.toggle("current", Number(li.dataset.seq) === at);
  }

  // ---- Replay export / import ----
  const fileInput = h("input", { type: "file", accept: "application/json,.json", "aria-label": "Import a replay file", "data-testid": "debug-import" });
  fileInput.addEventListener("change", async () => {
    const f = fileInput.files && fileInput.files[0];
    if (!f) return;
    try {
      const text = await f.text();
      const file = JSON.parse(text);
      if (!file || !Array.isArray(file.entries) || typeof file.game !== "string") throw new Error("not a replay file: it needs `game` and `entries`");
      sessionStorage.setItem(IMPORTED, text);
      location.hash = "#/replay-file?debug=1";
    } catch (e) { say(`Could not import the replay: ${e.message}`, "error"); }
  });
  panes.Replay.append(
    h("p", {}, "The replay file: while the match runs, your own view of its timeline; once it has ended, the full file with the seed, which `turnstile replay verify` checks."),
    h("button", { type: "button", class: "primary", "data-testid": "debug-export", onclick: async () => {
      try {
        const file = await client.replay(matchId);
        const url = URL.createObjectURL(new Blob([JSON.stringify(file, null, 2)], { type: "application/json" }));
        const a = h("a", { href: url, download: `${matchId}.replay.json` });
        document.body.append(a); a.click(); a.remove();
        setTimeout(() => URL.revokeObjectURL(url), 1000);
      } catch (e) { say(e.message, "error"); }
    } }, "Export the replay"),
    h("h3", {}, "Import a replay"), fileInput);

  function destroy() {
    panel.remove();
    document.body.classList.remove("debug-open");
    if (onClose) onClose();
  }
  document.body.classList.add("debug-open");

  return {
    update(next) {
      snap = next;
      renderMatch();
      renderView();
      renderLegal();
    },
    receipt(r) {
      if (!logLoaded) return;
      if (!receipts.some((x) => x.sequence === r.sequence)) receipts.push(r);
      rebuild();
      go(pos ?? receipts.length, pos == null);
    },
    destroy,
  };
}
