// The replay viewer: a match's receipts step by step, from the start, with autoplay at a chosen
// speed. Each game's web module supplies the frames (`replay.frames`), their drawing
// (`replay.draw`) and the readable line of each step (`describe`), the same module as live
// play, so nothing here knows a game. Fingerprints, hashes and raw events are developer
// details: they appear only with the debug panel open (`?debug=1`, or the Debug button).
//
// Also opens a replay file imported in the debug panel (`#/replay-file`, kept in sessionStorage).

import { h, say, shortRev } from "./util.js";
import { gameOf, outcomeText } from "./registry.js";

export const IMPORTED = "turnstile.importedReplay.v1";

const SPEEDS = [["Slow", 1500], ["Normal", 800], ["Fast", 350], ["Very fast", 120]];

export async function mountReplay(root, { client = null, matchId = null, imported = false, debug = false }) {
  let file, snap = null;
  if (imported) {
    try { file = JSON.parse(sessionStorage.getItem(IMPORTED) || "null"); } catch { file = null; }
    if (!file) {
      root.append(h("h1", {}, "Replay"), h("p", {}, "No imported replay in this tab. Import one from the debug panel of any game."));
      return {};
    }
  } else {
    file = await client.replay(matchId);
    snap = await client.snapshot(matchId).catch(() => null);
  }
  const game = file.game || (snap && snap.game);
  const g = gameOf(game);
  const entries = file.entries || [];
  const seats = (snap && snap.seats) || (file.seats || []).map((x, i) => ({ seat: i, ...x }));
  const viewerSeat = snap && snap.viewer && snap.viewer.kind === "seat" ? snap.viewer.seat : null;
  let content = (file.bundle && file.bundle.content) ? file.bundle : null;
  if (!content && g.replay && g.replay.needsContent && client) {
    const c = await client.content(game, file.revision || (snap && snap.revision)).catch(() => null);
    content = c && c.bundle ? c.bundle : null;
  }
  const info = { game, seats, content: content && content.content, viewerSeat, file, snapshot: snap };
  const frames = g.replay ? g.replay.frames(entries, info) : null;

  root.append(h("h1", {}, `${g.title}: replay`));
  const outcome = (snap && snap.outcome) || null;
  root.append(h("p", { class: "lede" },
    `${entries.length} move${entries.length === 1 ? "" : "s"}`,
    file.redacted ? " so far, as you saw them" : "",
    outcome ? ` · ${outcomeText(game, outcome, info)}` : "",
    imported ? " · imported file" : ""));

  const slider = h("input", { type: "range", id: "scrub", min: 0, max: entries.length, value: 0, step: 1, "aria-label": "Step" });
  const label = h("output", { for: "scrub", class: "step-label", "data-testid": "step-label" });
  const prev = h("button", { type: "button", "aria-label": "Step back", "aria-keyshortcuts": "ArrowLeft", onclick: () => { stop(); go(pos - 1); } }, "◀");
  const next = h("button", { type: "button", "aria-label": "Step forward", "aria-keyshortcuts": "ArrowRight", onclick: () => { stop(); go(pos + 1); } }, "▶");
  const first = h("button", { type: "button", "aria-label": "First step", onclick: () => { stop(); go(0); } }, "«");
  const last = h("button", { type: "button", "aria-label": "Last step", onclick: () => { stop(); go(entries.length); } }, "»");
  const playB = h("button", { type: "button", class: "primary play-pause", "aria-keyshortcuts": "Space", "data-testid": "autoplay", onclick: () => (timer ? stop() : start()) }, "Play");
  const speed = h("select", { id: "replay-speed", "aria-label": "Speed" }, SPEEDS.map(([n, ms]) => h("option", { value: ms, selected: ms === 800 }, n)));
  speed.addEventListener("change", () => { if (timer) { stop(); start(); } });
  const boardBox = h("div", { class: "board-wrap replay-board" });
  const stepLine = h("p", { class: "step-line", "data-testid": "step-line", "aria-live": "polite" });
  const devBox = h("section", { class: "debug-panel replay-dev", "aria-label": "Developer details of this step", hidden: !debug });
  const list = h("ol", { class: "steps", "aria-label": "All moves" });

  root.append(
    h("div", { class: "scrubber", role: "group", "aria-label": "Timeline" }, first, prev, playB, next, last, slider, speed, label),
    h("div", { class: "replay" }, h("div", {}, stepLine, boardBox), h("section", { class: "replay-list", "aria-label": "Moves" }, h("h2", {}, "Moves"), list)),
    devBox);

  const line = (r) => g.describe(r, info);
  list.append(h("li", { value: 0 }, h("button", { type: "button", class: "link-button", onclick: () => { stop(); go(0); } }, "The start")));
  entries.forEach(({ receipt }, i) => list.append(h("li", { value: i + 1 },
    h("button", { type: "button", class: "link-button", onclick: () => { stop(); go(i + 1); } }, line(receipt)))));

  let pos = 0;
  let timer = null;
  function start() {
    if (pos >= entries.length) go(0);
    playB.textContent = "Pause";
    playB.setAttribute("aria-pressed", "true");
    timer = setInterval(() => { if (pos >= entries.length) stop(); else go(pos + 1); }, Number(speed.value));
  }
  function stop() {
    if (timer) clearInterval(timer);
    timer = null;
    playB.textContent = "Play";
    playB.setAttribute("aria-pressed", "false");
  }
  function go(n) {
    pos = Math.max(0, Math.min(entries.length, n));
    slider.value = pos;
    label.textContent = `Step ${pos} of ${entries.length}`;
    prev.disabled = first.disabled = pos === 0;
    next.disabled = last.disabled = pos === entries.length;
    const r = pos > 0 ? entries[pos - 1].receipt : null;
    stepLine.textContent = r ? line(r) : "The start, before the first move.";
    boardBox.replaceChildren(frames && g.replay.draw ? g.replay.draw(frames[pos], info) : h("p", { class: "muted" }, "This game has no board drawing in the viewer; its moves are listed."));
    for (const li of list.children) li.classList.toggle("current", Number(li.value) === pos);
    followInList(list.querySelector("li.current"));
    devBox.replaceChildren(h("h2", {}, "Developer details"), h("dl", { class: "step-details", "data-testid": "step-details" }, ...devRows(r).flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)])));
  }
  function devRows(r) {
    const head = [["Match", h("code", {}, matchId || "(imported)")], ["Revision", h("code", { title: file.revision || "" }, shortRev(file.revision))], ...(file.seed ? [["Seed", h("code", {}, file.seed)]] : [])];
    if (!r) return [...head, ["Step", "the start"], ["State", h("code", { class: "fp", "data-testid": "fingerprint" }, entries[0] ? entries[0].receipt.before : "—")]];
    const view = r.views && (r.views.fingerprint || r.views.spectator);
    return [...head,
      ["Sequence", r.sequence], ["Command", r.commandId], ["Seat", r.seat == null ? "system" : String(r.seat)], ["Tick", r.tick],
      ["Action", h("code", {}, JSON.stringify(r.action))],
      ["State before", h("code", { class: "fp" }, r.before)], ["State after", h("code", { class: "fp", "data-testid": "fingerprint" }, r.after)],
      ["View", h("code", { class: "fp" }, typeof view === "string" ? view : JSON.stringify(view))],
      ["Receipt hash", h("code", { class: "fp" }, r.hash)],
      ["Events", h("details", {}, h("summary", {}, `${(r.events || []).length} events`), h("pre", { class: "json" }, JSON.stringify(r.events, null, 2)))]];
  }
  /**
   * Keeps the current step in view inside the move list by scrolling the list alone: on a
   * phone the list sits below the board, and scrolling the page to it (scrollIntoView) would
   * carry the board off the screen while it autoplays.
   */
  function followInList(li) {
    if (!li || list.scrollHeight <= list.clientHeight) return;
    const top = li.offsetTop, bottom = top + li.offsetHeight;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
  }
  slider.addEventListener("input", () => { stop(); go(Number(slider.value)); });
  const onKey = (ev) => {
    if (ev.target && (ev.target.tagName === "INPUT" || ev.target.tagName === "TEXTAREA" || ev.target.tagName === "SELECT")) return;
    if (ev.key === "ArrowLeft") { stop(); go(pos - 1); ev.preventDefault(); }
    if (ev.key === "ArrowRight") { stop(); go(pos + 1); ev.preventDefault(); }
    if (ev.key === " " && ev.target.tagName !== "BUTTON") { if (timer) stop(); else start(); ev.preventDefault(); }
    if (ev.key === "~" || ev.key === "`") { devBox.hidden = !devBox.hidden; ev.preventDefault(); }
  };
  document.addEventListener("keydown", onKey);
  go(0);
  if (!entries.length) say("This game has no moves yet.");
  return { destroy() { stop(); document.removeEventListener("keydown", onKey); } };
}
