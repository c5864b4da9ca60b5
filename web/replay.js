// The replay viewer: a finished match's full replay file (or, while it runs, the caller's own
// redacted timeline), a scrubber over its steps, step forward and back, the board at each step
// rebuilt from the receipts' events (for Duel and clover, a summary of what the events establish),
// and the fingerprints of each step.

import { h, s, say, shortRev, seatName } from "./util.js";
import { parseBoard } from "./sokoban.js";
import { describeReceipt } from "./mnk.js";

const SIZES = { connect4: [7, 6], tictactoe: [3, 3] };

/** Boards after each step, from the events: index 0 is the start. Null when the game is unknown. */
function boardsOf(game, entries, initial) {
  if (SIZES[game]) {
    const [W, H] = SIZES[game];
    let rows = Array.from({ length: H }, () => ".".repeat(W));
    const out = [rows];
    for (const { receipt } of entries) {
      rows = rows.slice();
      for (const e of receipt.events || []) {
        if (e.type === "piecePlaced") {
          const r = rows[e.row];
          rows[e.row] = r.slice(0, e.column) + String(e.seat) + r.slice(e.column + 1);
        }
      }
      out.push(rows);
    }
    return out;
  }
  if (game === "sokoban" && initial) {
    // board = {boxes:Set, player:[x,y]}; undo entries are whole commands, as in the engine
    const start = parseBoard(initial);
    const W = start.W;
    const startState = { boxes: new Set(start.cells.flatMap((c, i) => (c.box ? [i] : []))), player: start.player };
    let cur = startState;
    const undo = [], redo = [];
    const out = [cur];
    for (const { receipt } of entries) {
      const ev = receipt.events || [];
      if (ev.some((e) => e.type === "undone")) {
        if (undo.length) { redo.push(cur); cur = undo.pop(); }
      } else if (ev.some((e) => e.type === "redone")) {
        if (redo.length) { undo.push(cur); cur = redo.pop(); }
      } else if (ev.some((e) => e.type === "restarted")) {
        undo.push(cur); redo.length = 0; cur = startState;
      } else if (ev.some((e) => e.type === "moved")) {
        undo.push(cur); redo.length = 0;
        const next = { boxes: new Set(cur.boxes), player: cur.player };
        for (const e of ev) if (e.type === "moved") {
          if (e.pushed) { next.boxes.delete(e.pushed[0][1] * W + e.pushed[0][0]); next.boxes.add(e.pushed[1][1] * W + e.pushed[1][0]); }
          next.player = e.player;
        }
        cur = next;
      }
      out.push(cur);
    }
    return out.map((st) => ({ start, st }));
  }
  if (game === "duel") return duelSummaries(entries, initial);
  if (game === "clover") return cloverSummaries(entries);
  return null;
}

// Duel and clover have no board to draw from events alone (hands and decks are hidden, and the
// setup is not a receipt), so their viewer shows per step what the receipts establish.

/** Duel: health (from the rules' starting health and every health step), whose turn, the stack, the result. */
function duelSummaries(entries, content) {
  const rules = (content && content.rules) || {};
  const cards = (content && content.cards) || {};
  const name = (id) => (cards[id] && cards[id].name) || id;
  let st = { health: [rules.startingHealth ?? null, rules.startingHealth ?? null], turn: 1, active: 0, stack: [], result: null, phase: null };
  const out = [st];
  const stepsIn = (e) => e.kind === "effects" ? e.steps || [] : e.kind === "phase" ? (e.records || []).flatMap((r) => r.steps || r.effects || []) : [];
  for (const { receipt } of entries) {
    st = { ...st, health: st.health.slice(), stack: st.stack.slice() };
    for (const e of receipt.events || []) {
      for (const step of stepsIn(e)) {
        if (step.subject === "health" && step.target && "seat" in step.target && step.after && "int" in step.after) st.health[step.target.seat] = step.after.int;
      }
      if (e.kind === "activationStarted") { st.turn = e.turn; st.active = e.seat; }
      if (e.kind === "cardPlayed" && e.stacked) st.stack.push(`${name(e.card)} (seat ${e.seat})`);
      if ((e.kind === "cardResolved" || e.kind === "cardFizzled") && st.stack.length) st.stack.pop();
      if (e.kind === "activationEnded") st.stack = [];
      if (e.kind === "phase") for (const r of e.records || []) if (r.kind === "Transition" || r.kind === "Entered") st.phase = r.to;
      if (e.kind === "matchEnded") st.result = e.result;
    }
    out.push(st);
  }
  return out.map((x) => ({ summary: [
    ["Turn", `${x.turn}, seat ${x.active} to act`],
    ["Phase", x.phase || "—"],
    ["Health", x.health.map((v, i) => `seat ${i}: ${v ?? "?"}`).join(" · ")],
    ["Stack", x.stack.length ? `${x.stack.join(", ")} (top last)` : "empty"],
    x.result ? ["Result", x.result.winners.length ? `seat ${x.result.winners.join(", ")} won (${x.result.kind})` : `draw (${x.result.kind})`] : null,
  ].filter(Boolean) }));
}

/** clover: the ante, the blind and its target, chips scored, hands played and the best, money once paid out. */
function cloverSummaries(entries) {
  let st = { ante: 1, blind: "small", target: null, scored: 0, hands: 0, best: null, money: null, tags: [], phase: "selectBlind" };
  const out = [st];
  for (const { receipt } of entries) {
    st = { ...st, tags: st.tags.slice() };
    for (const e of receipt.events || []) {
      if (e.type === "blindStarted") { st.blind = e.blind; st.target = e.target; st.scored = 0; st.phase = "playing"; }
      if (e.type === "blindSkipped") { st.tags.push(e.tag); st.blind = st.blind === "small" ? "big" : "boss"; }
      if (e.type === "handScored") {
        const score = typeof e.score === "object" ? e.score.score : e.score;
        st.scored = e.total; st.hands += 1;
        if (!st.best || score > st.best.score) st.best = { hand: e.hand, score };
      }
      if (e.type === "blindBeaten") {
        st.money = e.money; st.phase = "shop";
        if (st.blind === "boss") st.ante += 1;
        st.blind = st.blind === "small" ? "big" : st.blind === "big" ? "boss" : "small";
      }
      if (e.type === "shopLeft") st.phase = "selectBlind";
      if (e.type === "runLost") st.phase = "lost";
      if (e.type === "runWon") st.won = true;
    }
    out.push(st);
  }
  return out.map((x) => ({ summary: [
    ["Ante", String(x.ante)],
    ["Now", x.phase === "playing" ? `playing the ${x.blind} blind` : x.phase === "shop" ? "in the shop" : x.phase === "lost" ? "the run is lost" : `choosing the ${x.blind} blind`],
    ["Scored", x.target != null && x.phase === "playing" ? `${x.scored} of ${x.target}` : "—"],
    ["Hands played", String(x.hands)],
    ["Best hand", x.best ? `${x.best.hand}: ${x.best.score}` : "—"],
    ["Money", x.money != null ? `$${x.money} (after the last payout)` : "—"],
    x.tags.length ? ["Tags taken", x.tags.join(", ")] : null,
    x.won ? ["Run", "won"] : null,
  ].filter(Boolean) }));
}

function drawSummary(b) {
  return h("dl", { class: "step-details replay-summary", "data-testid": "replay-summary", "aria-label": "The match at this step" },
    b.summary.flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]));
}

function drawSokoban(b) {
  const { start, st } = b;
  const svg = s("svg", { class: "sokoban-board", viewBox: `0 0 ${start.W} ${start.H}`, role: "img", "aria-label": "Sokoban board at this step" });
  svg.style.aspectRatio = `${start.W} / ${start.H}`;
  const g = s("g", { "shape-rendering": "crispEdges" });
  const things = s("g");
  for (let y = 0; y < start.H; y++) for (let x = 0; x < start.W; x++) {
    const c = start.at(x, y);
    if (c.wall) g.append(s("rect", { x, y, width: 1, height: 1, class: "wall" }));
    else if (c.inside) g.append(s("rect", { x, y, width: 1, height: 1, class: "floor" }));
    if (c.goal) things.append(s("circle", { cx: x + 0.5, cy: y + 0.5, r: 0.18, class: "goal" }));
    if (st.boxes.has(y * start.W + x)) things.append(s("rect", { x: x + 0.1, y: y + 0.1, width: 0.8, height: 0.8, rx: 0.12, class: `box${c.goal ? " on-goal" : ""}` }));
  }
  if (st.player) things.append(s("circle", { cx: st.player[0] + 0.5, cy: st.player[1] + 0.5, r: 0.32, class: "player" }));
  svg.append(g, things);
  return svg;
}

function drawMnk(game, rows) {
  const isC4 = game === "connect4";
  const el = h("div", { class: `mnk-board ${game} static`, role: "img", "aria-label": `Board: ${rows.join(" / ")}` });
  el.style.setProperty("--cols", rows[0].length);
  if (isC4) {
    for (let c = 0; c < rows[0].length; c++) el.append(h("div", { class: "column" }, rows.map((r) => h("span", { class: `piece ${r[c] === "0" ? "p0" : r[c] === "1" ? "p1" : "empty"}` }))));
  } else {
    for (const r of rows) for (const ch of r) el.append(h("div", { class: "cell" }, h("span", { class: `piece ${ch === "0" ? "p0" : ch === "1" ? "p1" : "empty"}` }, ch === "0" ? "X" : ch === "1" ? "O" : "")));
  }
  return el;
}

function sokobanInitial(file, content) {
  const bundle = (file && file.bundle) || (content && content.bundle);
  const cfg = file.config || {};
  const cols = bundle && bundle.content && bundle.content.collections;
  const col = cols && cols.find((c) => c.id === cfg.collection);
  const level = col && col.levels[(cfg.level || 1) - 1];
  return level ? level.rows : null;
}

export async function mountReplay(root, { client, matchId }) {
  root.append(h("h1", {}, "Replay"));
  const file = await client.replay(matchId);
  const snap = await client.snapshot(matchId).catch(() => null);
  const game = file.game || (snap && snap.game);
  const entries = file.entries || [];
  let content = null;
  if ((game === "sokoban" || game === "duel") && !(file.bundle && file.bundle.content)) content = await client.content(game, file.revision || snap.revision).catch(() => null);
  const duelContent = game === "duel" ? ((file.bundle && file.bundle.content) || (content && content.bundle && content.bundle.content)) : null;
  const boards = boardsOf(game, entries, game === "sokoban" ? sokobanInitial(file, content) : duelContent);
  const seats = (snap && snap.seats) || (file.seats || []).map((x, i) => ({ seat: i, ...x }));

  const info = h("p", { class: "meta" },
    `${game} · match `, h("code", {}, matchId), ` · ${entries.length} step${entries.length === 1 ? "" : "s"}`,
    file.redacted ? " · running match: your own view of its timeline so far" : " · full replay",
    file.seed ? [" · seed ", h("code", {}, file.seed)] : null,
    " · rev ", h("code", { title: file.revision || "" }, shortRev(file.revision)));
  const slider = h("input", { type: "range", id: "scrub", min: 0, max: entries.length, value: entries.length, step: 1, "aria-label": "Step" });
  const label = h("output", { for: "scrub", class: "step-label", "data-testid": "step-label" });
  const prev = h("button", { type: "button", "aria-label": "Step back", "aria-keyshortcuts": "ArrowLeft", onclick: () => go(pos - 1) }, "◀ Back");
  const next = h("button", { type: "button", "aria-label": "Step forward", "aria-keyshortcuts": "ArrowRight", onclick: () => go(pos + 1) }, "Forward ▶");
  const first = h("button", { type: "button", "aria-label": "First step", onclick: () => go(0) }, "|◀");
  const last = h("button", { type: "button", "aria-label": "Last step", onclick: () => go(entries.length) }, "▶|");
  const boardBox = h("div", { class: "board-wrap replay-board" });
  const details = h("dl", { class: "step-details", "data-testid": "step-details" });
  const list = h("ol", { class: "steps", "aria-label": "All steps" });
  const download = h("button", { type: "button", onclick: () => {
    const url = URL.createObjectURL(new Blob([JSON.stringify(file, null, 2)], { type: "application/json" }));
    const a = h("a", { href: url, download: `${matchId}.replay.json` });
    document.body.append(a); a.click(); a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  } }, "Download replay file");

  root.append(info,
    h("div", { class: "scrubber", role: "group", "aria-label": "Timeline" }, first, prev, slider, next, last, label),
    h("div", { class: "replay" }, boardBox, h("section", { "aria-label": "This step" }, details, download)),
    h("h2", {}, "Steps"), list);

  list.append(h("li", { value: 0 }, h("button", { type: "button", class: "link-button", onclick: () => go(0) }, "Start")));
  entries.forEach(({ receipt }, i) => list.append(h("li", { value: i + 1 },
    h("button", { type: "button", class: "link-button", onclick: () => go(i + 1) }, `#${receipt.sequence} ${describe(receipt)}`),
    " ", h("code", { class: "fp", title: receipt.after }, short(receipt.after)))));

  function describe(r) {
    if (SIZES[game]) return describeReceipt(game, r, seats);
    const a = r.action || {};
    const played = (r.events || []).find((e) => e.kind === "cardPlayed");
    if (played) return `${seatName(game, r.seat)}: played ${(duelContent && duelContent.cards && duelContent.cards[played.card]?.name) || played.card}`;
    const scored = (r.events || []).find((e) => e.type === "handScored");
    if (scored) return `${a.type} ${scored.hand}: ${typeof scored.score === "object" ? scored.score.score : scored.score}`;
    return `${r.seat == null ? "system" : seatName(game, r.seat)}: ${a.type || JSON.stringify(a)}${a.direction ? ` ${a.direction}` : ""}${a.to ? ` → ${a.to.join(",")}` : ""}`;
  }
  function short(fp) { return fp ? fp.replace(/^sha256:/, "").slice(0, 16) : "—"; }

  let pos = entries.length;
  function go(n) {
    pos = Math.max(0, Math.min(entries.length, n));
    slider.value = pos;
    const e = pos > 0 ? entries[pos - 1] : null;
    label.textContent = `Step ${pos} of ${entries.length}`;
    prev.disabled = pos === 0;
    first.disabled = pos === 0;
    next.disabled = pos === entries.length;
    last.disabled = pos === entries.length;
    boardBox.replaceChildren();
    if (boards) {
      const b = boards[pos];
      boardBox.append(game === "sokoban" ? drawSokoban(b) : b.summary ? drawSummary(b) : drawMnk(game, b));
    } else boardBox.append(h("p", { class: "muted" }, "No board drawing for this game yet; the steps and fingerprints are below."));
    const r = e && e.receipt;
    const view = r && r.views && (r.views.fingerprint || (r.views.spectator && (r.views.spectator.fingerprint || r.views.spectator)));
    const rowsD = r ? [
      ["Sequence", r.sequence], ["Command", r.commandId], ["Seat", r.seat == null ? "system" : `${seatName(game, r.seat)} (seat ${r.seat})`], ["Tick", r.tick],
      ["Action", h("code", {}, JSON.stringify(r.action))],
      ["State before", h("code", { class: "fp" }, r.before)], ["State after (fingerprint)", h("code", { class: "fp", "data-testid": "fingerprint" }, r.after)],
      ["View fingerprint", h("code", { class: "fp" }, typeof view === "string" ? view : JSON.stringify(view))],
      ["Receipt hash", h("code", { class: "fp" }, r.hash)],
      ["Events", h("details", {}, h("summary", {}, `${(r.events || []).length} events`), h("pre", { class: "json" }, JSON.stringify(r.events, null, 2)))],
    ] : [["Step", "the start, before any command"], ["State", h("code", { class: "fp", "data-testid": "fingerprint" }, entries[0] ? entries[0].receipt.before : "—")]];
    details.replaceChildren(...rowsD.flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]));
    for (const li of list.children) li.classList.toggle("current", Number(li.value) === pos);
  }
  slider.addEventListener("input", () => go(Number(slider.value)));
  const onKey = (ev) => {
    if (ev.target && (ev.target.tagName === "INPUT" || ev.target.tagName === "TEXTAREA" || ev.target.tagName === "SELECT")) return;
    if (ev.key === "ArrowLeft") { go(pos - 1); ev.preventDefault(); }
    if (ev.key === "ArrowRight") { go(pos + 1); ev.preventDefault(); }
  };
  document.addEventListener("keydown", onKey);
  go(entries.length);
  if (!entries.length) say("This match has no steps yet.");
  return { destroy() { document.removeEventListener("keydown", onKey); } };
}
