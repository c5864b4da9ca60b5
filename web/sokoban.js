// Sokoban: the board as SVG (crisp at any size and pixel ratio), keyboard, click to walk
// (walkTo), drag a box — or click it, then click a cell — to push it there (pushTo), counters,
// the level picker with solved marks, the solved banner with its LURD, dead-square warnings.
// Also: Hexoban boards (hex cells in the .hsb layout, six directions), the Hint button (the
// server's node-bounded search; no receipt), the "still solvable?" warning from the game's
// `deadlocked` events, undo after solving (moving on is the `finish` command), previous/next
// level, and playing a pasted LURD solution step by step (an animated playback).

import { Client } from "./api.js";
import { h, s, say, saveToken, matchLink, solvedLevels, markSolved, copyText } from "./util.js";
import { registerGame } from "./registry.js";

const KEYS = {
  ArrowUp: "up", ArrowRight: "right", ArrowDown: "down", ArrowLeft: "left",
  w: "up", d: "right", s: "down", a: "left", W: "up", D: "right", S: "down", A: "left",
};
// Hexoban: w e / a d / z x are north-west, north-east / west, east / south-west, south-east.
const HEX_KEYS = {
  ArrowLeft: "left", ArrowRight: "right", a: "left", d: "right", w: "up_left", e: "up_right", z: "down_left", x: "down_right",
  A: "left", D: "right", W: "up_left", E: "up_right", Z: "down_left", X: "down_right",
};
// Solution letters of each board (upper case pushes): LURD, and Hexoban's l r u n s d.
const LETTERS = {
  square: { l: "left", u: "up", r: "right", d: "down" },
  hex: { l: "left", r: "right", u: "up_left", n: "up_right", s: "down_left", d: "down_right" },
};
const HEX_STEPS = [[-2, 0], [2, 0], [-1, -1], [1, -1], [-1, 1], [1, 1]];
const SQUARE_STEPS = [[1, 0], [-1, 0], [0, 1], [0, -1]];
// Hex geometry: a grid entry (x, y) is centred at (x / 2 + 1/2, y · √3/2 + 1/2); cells are
// pointy-top hexagons one unit wide.
const HEX_DY = Math.sqrt(3) / 2;
const HEX_R = 1 / Math.sqrt(3);
const hexCentre = (x, y) => [x / 2 + 0.5, y * HEX_DY + 0.5];
function hexPoints(x, y, scale = 1) {
  const [cx, cy] = hexCentre(x, y);
  const pts = [];
  for (let k = 0; k < 6; k++) {
    const a = Math.PI / 6 + (k * Math.PI) / 3;
    pts.push(`${(cx + Math.cos(a) * HEX_R * scale).toFixed(3)},${(cy + Math.sin(a) * HEX_R * scale).toFixed(3)}`);
  }
  return pts.join(" ");
}

/** The moves of a solution string in a board's letters, or the first bad character. */
export function parseMoves(text, topology = "square") {
  const letters = LETTERS[topology === "hex" ? "hex" : "square"];
  const moves = [];
  for (const [i, ch] of [...text].entries()) {
    if (/\s/.test(ch)) continue;
    const d = letters[ch.toLowerCase()];
    if (!d) return { error: `character ${i + 1}: "${ch}" is not a move (${Object.keys(letters).join(" ")}, upper case for a push)` };
    moves.push(d);
  }
  return { moves };
}

/** Collection + level selects, with ✓ on the levels this browser solved. */
export function levelPicker(options, defaults = {}, idPrefix = "") {
  const collections = (options && options.collections) || [{ id: "microban", levels: 155 }];
  const solved = solvedLevels();
  const col = h("select", { id: `${idPrefix}collection` }, collections.map((c) => h("option", { value: c.id, selected: c.id === defaults.collection }, `${c.id} (${c.levels} levels)`)));
  const lvl = h("select", { id: `${idPrefix}level` });
  const fill = (selected) => {
    const c = collections.find((x) => x.id === col.value) || collections[0];
    lvl.replaceChildren(...Array.from({ length: c.levels }, (_, i) => {
      const n = i + 1;
      const mark = solved[`${c.id}/${n}`] ? " ✓ solved" : "";
      return h("option", { value: n, selected: n === selected }, `Level ${n}${mark}`);
    }));
  };
  col.addEventListener("change", () => fill(1));
  fill(defaults.level || 1);
  const el = h("div", { class: "level-picker" },
    h("div", { class: "field" }, h("label", { for: `${idPrefix}collection` }, "Collection"), col),
    h("div", { class: "field" }, h("label", { for: `${idPrefix}level` }, "Level"), lvl));
  return { el, col, lvl, value: () => ({ collection: col.value, level: Number(lvl.value) }) };
}

/** Parses XSB rows into cells; marks the inside (reachable from the player, boxes ignored). */
export function parseBoard(rows, width, height, topology = "square") {
  const W = width || Math.max(...rows.map((r) => r.length));
  const H = height || rows.length;
  const cells = [];
  let player = null;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const c = (rows[y] || "")[x] || " ";
      const cell = { wall: c === "#", goal: c === "." || c === "*" || c === "+", box: c === "$" || c === "*", inside: false };
      if (c === "@" || c === "+") player = [x, y];
      cells.push(cell);
    }
  }
  const at = (x, y) => (x >= 0 && y >= 0 && x < W && y < H ? cells[y * W + x] : null);
  if (player) {
    const stack = [player];
    while (stack.length) {
      const [x, y] = stack.pop();
      const c = at(x, y);
      if (!c || c.wall || c.inside) continue;
      c.inside = true;
      for (const [dx, dy] of topology === "hex" ? HEX_STEPS : SQUARE_STEPS) stack.push([x + dx, y + dy]);
    }
  }
  for (const c of cells) if (c.box || c.goal) c.inside = c.inside || !c.wall;
  return { W, H, cells, player, at, hex: topology === "hex" };
}

export function mount(root, ctx) {
  const { session, seat } = ctx;
  const canPlay = seat != null;
  let snap = ctx.snapshot;
  let selected = null; // a box chosen by click, waiting for its target
  let drag = null;
  let lastSolvedSeq = -1;
  let hinted = null; // the last hint's {boxFrom, boxTo}, drawn on the board until the next move
  let stuck = null; // the last receipt's deadlock, shown until a receipt without one
  const hex = () => snap.view.topology === "hex";

  const counters = h("p", { class: "counters", "aria-live": "polite" });
  const title = h("h2", { class: "level-title" });
  const undoB = h("button", { type: "button", onclick: () => send({ type: "undo" }), "aria-keyshortcuts": "U Z" }, "Undo");
  const redoB = h("button", { type: "button", onclick: () => send({ type: "redo" }), "aria-keyshortcuts": "R Y" }, "Redo");
  const restartB = h("button", { type: "button", onclick: () => send({ type: "restart" }), "aria-keyshortcuts": "Backspace" }, "Restart");
  const picker = levelPicker({ collections: ctx.collections || null }, { collection: snap.view.collection, level: snap.view.level }, "play-");
  const goB = h("button", { type: "button", onclick: () => newLevel(picker.value()) }, "Play level");
  const prevB = h("button", { type: "button", "data-testid": "prev-level", onclick: () => moveOn(-1) }, "◀ Previous");
  const nextB = h("button", { type: "button", "data-testid": "next-level", onclick: () => moveOn(1) }, "Next ▶");
  const hintB = h("button", { type: "button", "data-testid": "hint", onclick: () => askHint(), "aria-keyshortcuts": "H" }, "Hint");
  const hintText = h("p", { class: "hint-text", role: "status", "data-testid": "hint-text", hidden: true });
  const best = h("p", { class: "best muted", "data-testid": "best" });
  const lurdIn = h("input", { type: "text", id: "play-lurd", placeholder: "paste a solution (LURD; Hexoban: l r u n s d)", "aria-label": "Solution to play", size: 36 });
  const playB = h("button", { type: "button", "data-testid": "play-solution", onclick: () => playSolution(lurdIn.value) }, "Play solution");
  // Paste a level: a match whose config carries the level text, validated by the server like a
  // shipped level (its errors name line and column).
  const pasteIn = h("textarea", { id: "paste-level", rows: 6, cols: 30, placeholder: "#####\n#@$.#\n#####", "aria-label": "Level to paste (XSB, or Hexoban .hsb)" });
  const pasteHex = h("input", { type: "checkbox", id: "paste-hex" });
  const pasteError = h("p", { class: "paste-error", role: "alert", "data-testid": "paste-error" });
  const pasteB = h("button", { type: "button", "data-testid": "paste-play", onclick: () => {
    pasteError.textContent = "";
    const config = { collection: "pasted", level: 1, xsb: pasteIn.value };
    if (pasteHex.checked) config.topology = "hex";
    newLevel(config, (e) => { pasteError.textContent = e.message; });
  } }, "Play this level");
  const pasteBox = h("details", { class: "paste-level" }, h("summary", {}, "Paste a level"), pasteIn,
    h("label", { for: "paste-hex" }, pasteHex, " Hexoban (.hsb)"), pasteB, pasteError);
  const dead = h("p", { class: "dead-warning", role: "status" });
  const banner = h("div", { class: "solved-banner", hidden: true, role: "status" });
  const svgWrap = h("div", { class: "board-wrap sokoban-wrap" });
  const touch = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
  const help = h("p", { class: "help muted" }, canPlay && touch
    ? "Tap a square to walk there · drag a box (or tap it, then a square) to push it there · the pad moves one step."
    : canPlay
    ? "Arrows or WASD move · U/Z undo · R/Y redo · Backspace restart · click a cell to walk there · drag a box (or click it, then a cell) to push it there."
    : "You are watching: the board follows the player live.");

  root.append(
    h("div", { class: "sokoban" },
      h("div", { class: "sokoban-top" }, title, counters),
      // the moves' buttons, then the level picker: one row on a wide screen; on a phone the
      // picker goes below the board (style.css), so the board opens on screen
      canPlay ? h("div", { class: "sokoban-controls" },
        h("div", { class: "toolbar", role: "toolbar", "aria-label": "Sokoban controls" }, undoB, redoB, restartB, hintB),
        h("div", { class: "toolbar level-nav", role: "group", "aria-label": "Levels" }, prevB, nextB, picker.el, goB)) : null,
      best, dead, hintText, banner, svgWrap,
      // on a touch screen the arrow keys are not there: a pad of the four moves under the board
      canPlay ? h("div", { class: "dpad", role: "group", "aria-label": "Move" }, (snap.view.topology === "hex"
        ? [["up_left", "↖"], ["up_right", "↗"], ["left", "◀"], ["right", "▶"], ["down_left", "↙"], ["down_right", "↘"]]
        : [["up", "▲"], ["left", "◀"], ["down", "▼"], ["right", "▶"]]).map(([d, glyph]) =>
        h("button", { type: "button", class: `dpad-${d}`, "data-move": d, "aria-label": `Move ${d.replace("_", " ")}`, onclick: () => send({ type: "move", direction: d }) }, glyph))) : null,
      canPlay ? h("div", { class: "row solution-row" }, lurdIn, playB) : null,
      canPlay ? pasteBox : null,
      help));
  if (snap.view.topology === "hex") help.textContent = canPlay
    ? "W E / A D / Z X move north-west, north-east / west, east / south-west, south-east · U undo · R redo · Backspace restart · click a cell to walk there · drag a box to push it there."
    : help.textContent;

  // Load the collection sizes for the picker (from the games list) without blocking the board.
  new Client().games().then(({ games }) => {
    const g = games.find((x) => x.id === "sokoban");
    if (g && g.configOptions) {
      const v = picker.value();
      const fresh = levelPicker(g.configOptions, v, "play-");
      picker.el.replaceWith(fresh.el);
      Object.assign(picker, fresh);
    }
  }).catch(() => {});

  // A solved level stays open for undo until the player moves on (the `finish` command, whose
  // receipt is the outcome); a finished match takes no more commands.
  const live = () => canPlay && snap.status === "active";

  /** Finish the solved level (if it is), then open the level `delta` away in its collection. */
  async function moveOn(delta) {
    const v = snap.view;
    if (v.solved && live()) await session.send({ type: "finish" });
    const sizes = (picker.col && [...picker.col.options].find((o) => o.value === v.collection)) || null;
    const count = sizes ? Number((sizes.textContent.match(/\((\d+) levels\)/) || [])[1] || 0) : 0;
    const level = v.level + delta;
    if (level < 1 || (count && level > count)) { say("There is no level there in this collection.", "warning"); return; }
    newLevel({ collection: v.collection, level });
  }

  /** Asks the server for the next push (no receipt); draws it and says it. */
  async function askHint() {
    if (!live()) return;
    hintB.disabled = true;
    hintText.hidden = false;
    hintText.textContent = "Searching for a hint…";
    try {
      const r = await session.client.request("POST", `/api/v1/matches/${encodeURIComponent(session.matchId)}/hint`, {});
      const k = r.hint || {};
      hinted = null;
      if (k.kind === "push") {
        hinted = { from: k.boxFrom, to: k.boxTo, moves: k.moves };
        hintText.textContent = `Hint: push the box at column ${k.boxFrom[0] + 1}, row ${k.boxFrom[1] + 1} one square (to column ${k.boxTo[0] + 1}, row ${k.boxTo[1] + 1}); ${k.pushesLeft} push${k.pushesLeft === 1 ? "" : "es"} to go. Moves: ${k.moves}`;
        hintText.append(" ", h("button", { type: "button", "data-testid": "hint-play", onclick: () => playMoves(k.moves, 0) }, "Do it"));
      } else if (k.kind === "unsolvable") {
        stuck = { reason: (k.deadlock && k.deadlock.kind) || "search" };
        hintText.textContent = "No hint: the level can't be solved from here. Undo.";
      } else if (k.kind === "already_solved") hintText.textContent = "The level is solved.";
      else hintText.textContent = "No hint found within the search budget: the level may still be solvable.";
      render();
    } catch (e) {
      hintText.textContent = e.status === 409 || e.status === 429 ? "A hint is being searched already; wait a moment." : `No hint: ${e.message}`;
    } finally { hintB.disabled = false; }
  }

  /** Plays a solution string move by move (an animated playback through real commands). */
  async function playMoves(text, delayMs = 120) {
    const parsed = parseMoves(text, hex() ? "hex" : "square");
    if (parsed.error) { say(parsed.error, "warning"); return false; }
    for (const direction of parsed.moves) {
      if (!live() || snap.view.solved) break;
      const r = await session.send({ type: "move", direction });
      if (!r) return false;
      if (delayMs) await new Promise((res) => setTimeout(res, delayMs));
    }
    return true;
  }

  /** Restart, then play a pasted solution; says whether it solved the level. */
  async function playSolution(text) {
    if (!live() || !text.trim()) return;
    const parsed = parseMoves(text, hex() ? "hex" : "square");
    if (parsed.error) { say(parsed.error, "warning"); return; }
    if (snap.view.moves > 0) await session.send({ type: "restart" });
    await playMoves(text);
    say(snap.view.solved ? "The solution solves the level." : "The solution does not solve the level.", snap.view.solved ? "info" : "warning");
  }

  function send(action) {
    if (!live()) { if (canPlay) say("This match is over: start the level again or play the next one.", "warning"); return; }
    selected = null;
    return session.send(action);
  }

  async function newLevel(config, onError = null) {
    try {
      const created = await new Client().createMatch({ game: "sokoban", config, seats: [{ kind: "human" }] });
      const t = created.seats[0].token;
      saveToken({ matchId: created.matchId, game: "sokoban", token: t, role: "seat", seat: 0 });
      saveToken({ matchId: created.matchId, game: "sokoban", token: created.spectatorToken, role: "spectator" });
      location.hash = new URL(matchLink(created.matchId, t)).hash;
    } catch (e) { if (onError) onError(e); else say(e.message, "error"); }
  }

  // ---- the board ---------------------------------------------------------------------------
  const svg = s("svg", { class: "sokoban-board", role: "img", tabindex: canPlay ? 0 : -1, "aria-label": "Sokoban board", preserveAspectRatio: "xMidYMid meet" });
  svgWrap.append(svg);

  function cellAt(ev) {
    if (hex()) {
      const el = document.elementFromPoint(ev.clientX, ev.clientY);
      const key = el && el.getAttribute && el.getAttribute("data-cell");
      return key ? key.split(",").map(Number) : null;
    }
    const pt = svg.createSVGPoint();
    pt.x = ev.clientX; pt.y = ev.clientY;
    const m = svg.getScreenCTM();
    if (!m) return null;
    const p = pt.matrixTransform(m.inverse());
    const x = Math.floor(p.x), y = Math.floor(p.y);
    const b = board();
    if (x < 0 || y < 0 || x >= b.W || y >= b.H) return null;
    return [x, y];
  }
  const same = (a, b) => a && b && a[0] === b[0] && a[1] === b[1];
  let parsed = null;
  const board = () => parsed;

  if (canPlay) {
    svg.addEventListener("pointerdown", (ev) => {
      if (ev.button !== 0 || !live()) return;
      const c = cellAt(ev);
      if (!c) return;
      const cell = board().at(c[0], c[1]);
      if (cell && cell.box) {
        drag = { from: c, over: c };
        try { svg.setPointerCapture(ev.pointerId); } catch { /* synthetic pointer */ }
        render();
      }
      ev.preventDefault();
    });
    svg.addEventListener("pointermove", (ev) => {
      if (!drag) return;
      const c = cellAt(ev);
      if (c && !same(c, drag.over)) { drag.over = c; render(); }
    });
    svg.addEventListener("pointerup", (ev) => {
      if (!live()) { drag = null; return; }
      const c = cellAt(ev);
      const d = drag;
      drag = null;
      if (!c) { render(); return; }
      if (d) {
        if (!same(c, d.from)) { send({ type: "pushTo", from: d.from, to: c }); render(); return; }
        // a click on a box: select it (click a cell next to push it there), or deselect
        selected = same(selected, c) ? null : c;
        render();
        if (selected) say("Box picked: now click the square to push it to.");
        return;
      }
      const cell = board().at(c[0], c[1]);
      if (!cell || cell.wall) return;
      if (selected) { const from = selected; selected = null; send({ type: "pushTo", from, to: c }); render(); return; }
      if (same(c, board().player)) return;
      send({ type: "walkTo", to: c });
    });
    svg.addEventListener("pointercancel", () => { drag = null; render(); });
  }

  function onKey(ev) {
    if (!live() || ev.ctrlKey && ev.key !== "z" && ev.key !== "y" || ev.metaKey || ev.altKey) return;
    const t = ev.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
    let action = null;
    const keys = hex() ? HEX_KEYS : KEYS;
    if (keys[ev.key]) action = { type: "move", direction: keys[ev.key] };
    else if (ev.key === "h" || ev.key === "H") { ev.preventDefault(); askHint(); return; }
    else if (ev.key === "u" || ev.key === "z" || ev.key === "U" || ev.key === "Z") action = { type: "undo" };
    else if (ev.key === "r" || ev.key === "y" || ev.key === "R" || ev.key === "Y") action = { type: "redo" };
    else if (ev.key === "Backspace") action = { type: "restart" };
    else if (ev.key === "Escape") { selected = null; render(); return; }
    if (!action) return;
    if (t && t.tagName === "BUTTON" && (ev.key === " " || ev.key === "Enter")) return;
    ev.preventDefault();
    send(action);
  }
  document.addEventListener("keydown", onKey);

  function renderHex(v, b, deadSet) {
    const w = b.W / 2 + 0.5, hgt = (b.H - 1) * HEX_DY + 1;
    svg.setAttribute("viewBox", `-0.05 -0.05 ${w + 0.1} ${hgt + 0.1}`);
    svg.style.aspectRatio = `${w} / ${hgt}`;
    const layers = { floor: s("g"), marks: s("g"), things: s("g"), hits: s("g") };
    for (let y = 0; y < b.H; y++) for (let x = 0; x < b.W; x++) {
      const c = b.at(x, y);
      if (!c.wall && !c.inside) continue;
      const key = `${x},${y}`;
      const [cx, cy] = hexCentre(x, y);
      layers.floor.append(s("polygon", { points: hexPoints(x, y, 0.98), class: c.wall ? "wall" : "floor" }));
      if (deadSet.has(key) && !c.goal && !c.wall) layers.marks.append(s("polygon", { points: hexPoints(x, y, 0.8), class: "dead" }));
      if (c.goal) layers.marks.append(s("circle", { cx, cy, r: 0.18, class: "goal" }));
      if (hinted && (same(hinted.from, [x, y]) || same(hinted.to, [x, y]))) layers.marks.append(s("polygon", { points: hexPoints(x, y, 0.9), class: "hint-mark", "data-hint": same(hinted.from, [x, y]) ? "box" : "target" }));
      if (c.box) {
        const cls = `box${c.goal ? " on-goal" : ""}${same(selected, [x, y]) || (drag && same(drag.from, [x, y])) ? " selected" : ""}`;
        layers.things.append(s("polygon", { points: hexPoints(x, y, 0.72), class: cls }));
      }
      const label = c.wall ? "wall" : `${c.box ? (c.goal ? "box on goal" : "box") : c.goal ? "goal" : "floor"}`;
      layers.hits.append(s("polygon", { points: hexPoints(x, y, 1), class: "hit", "data-cell": key, "data-kind": label }));
    }
    if (b.player) {
      const [cx, cy] = hexCentre(b.player[0], b.player[1]);
      layers.things.append(s("circle", { cx, cy, r: 0.3, class: "player" }));
    }
    svg.replaceChildren(s("title", {}, `Hexoban level ${v.level}${v.title ? ` (${v.title})` : ""}`), layers.floor, layers.marks, layers.things, layers.hits);
  }

  function render() {
    const v = snap.view;
    parsed = parseBoard(v.rows, v.width, v.height, v.topology || "square");
    const b = parsed;
    const deadSet = new Set((v.deadSquares || []).map(([x, y]) => `${x},${y}`));
    svg.setAttribute("viewBox", `-0.05 -0.05 ${b.W + 0.1} ${b.H + 0.1}`);
    svg.style.aspectRatio = `${b.W} / ${b.H}`;
    const layers = { floor: s("g", { "shape-rendering": "crispEdges" }), marks: s("g"), things: s("g"), hits: s("g") };
    let deadBoxes = [];
    for (let y = 0; y < b.H; y++) for (let x = 0; x < b.W; x++) {
      const c = b.at(x, y);
      const key = `${x},${y}`;
      if (c.wall) layers.floor.append(s("rect", { x, y, width: 1, height: 1, class: "wall" }));
      else if (c.inside) {
        layers.floor.append(s("rect", { x, y, width: 1, height: 1, class: "floor" }));
        if (deadSet.has(key) && !c.goal) layers.marks.append(s("rect", { x: x + 0.06, y: y + 0.06, width: 0.88, height: 0.88, rx: 0.08, class: "dead" }));
      }
      if (c.goal) layers.marks.append(s("circle", { cx: x + 0.5, cy: y + 0.5, r: 0.18, class: "goal" }));
      if (c.box) {
        const isDead = deadSet.has(key) && !c.goal;
        if (isDead) deadBoxes.push([x, y]);
        const cls = `box${c.goal ? " on-goal" : ""}${isDead ? " dead-box" : ""}${same(selected, [x, y]) || (drag && same(drag.from, [x, y])) ? " selected" : ""}`;
        layers.things.append(s("rect", { x: x + 0.1, y: y + 0.1, width: 0.8, height: 0.8, rx: 0.12, class: cls }));
        layers.things.append(s("path", { d: `M${x + 0.22} ${y + 0.22}L${x + 0.78} ${y + 0.78}M${x + 0.78} ${y + 0.22}L${x + 0.22} ${y + 0.78}`, class: "box-x" }));
      }
      if (c.inside || c.wall) {
        const label = c.wall ? "wall" : `${c.box ? (c.goal ? "box on goal" : "box") : c.goal ? "goal" : "floor"}`;
        layers.hits.append(s("rect", { x, y, width: 1, height: 1, class: "hit", "data-cell": key, "data-kind": label }));
      }
    }
    if (b.player) {
      const [px, py] = b.player;
      layers.things.append(s("circle", { cx: px + 0.5, cy: py + 0.5, r: 0.32, class: "player" }));
      layers.things.append(s("circle", { cx: px + 0.4, cy: py + 0.42, r: 0.05, class: "eye" }), s("circle", { cx: px + 0.6, cy: py + 0.42, r: 0.05, class: "eye" }));
    }
    if (drag && !same(drag.over, drag.from)) layers.marks.append(s("rect", { x: drag.over[0] + 0.06, y: drag.over[1] + 0.06, width: 0.88, height: 0.88, class: "drop-target" }));
    if (hinted) for (const [i, c] of [hinted.from, hinted.to].entries()) layers.marks.append(s("rect", { x: c[0] + 0.03, y: c[1] + 0.03, width: 0.94, height: 0.94, class: "hint-mark", "data-hint": i ? "target" : "box" }));
    svg.replaceChildren(s("title", {}, `Level ${v.level}${v.title ? ` (${v.title})` : ""}: ${v.width} by ${v.height}`), layers.floor, layers.marks, layers.things, layers.hits);
    if (b.hex) renderHex(v, b, deadSet);
    svg.setAttribute("aria-label", `Sokoban board, ${v.collection} level ${v.level}. Player at column ${b.player ? b.player[0] : "?"}, row ${b.player ? b.player[1] : "?"}. ${v.solved ? "Solved." : ""}`);

    title.textContent = `${v.collection} · level ${v.level}${v.title && v.title !== `${v.collection} ${v.level}` ? ` — ${v.title}` : ""}`;
    counters.replaceChildren(h("span", { class: "counter" }, "Moves ", h("strong", { "data-testid": "moves" }, v.moves)), " ", h("span", { class: "counter" }, "Pushes ", h("strong", { "data-testid": "pushes" }, v.pushes)));
    undoB.disabled = !v.canUndo || !live();
    redoB.disabled = !v.canRedo || !live();
    restartB.disabled = (v.moves === 0 && !v.canUndo) || !live();
    hintB.disabled = !live() || v.solved;
    prevB.disabled = v.level <= 1 || v.collection === "pasted";
    nextB.disabled = v.collection === "pasted";
    const record = solvedLevels()[`${v.collection}/${v.level}`];
    best.textContent = record ? `✓ Solved before — best ${record.moves} moves, ${record.bestPushes ?? record.pushes} pushes.` : "";
    dead.textContent = deadBoxes.length && !v.solved
      ? `⚠ ${deadBoxes.length === 1 ? "A box is" : `${deadBoxes.length} boxes are`} stuck on a dead square (outlined in red): ${deadBoxes.length === 1 ? "it" : "they"} can never reach a goal. Undo or restart.`
      : "";
    if (!dead.textContent && stuck && !v.solved) {
      dead.textContent = `⚠ This position can't be solved any more (${stuck.reason.replace("_", " ")}${stuck.cell ? ` at column ${stuck.cell[0] + 1}, row ${stuck.cell[1] + 1}` : ""}). Undo to take the push back.`;
    }
    dead.setAttribute("data-testid", "unsolvable");
    dead.hidden = !dead.textContent;
    if (v.solved) {
      banner.hidden = false;
      banner.replaceChildren(
        h("h2", {}, "Solved!"),
        h("p", {}, `${v.moves} moves, ${v.pushes} pushes.`),
        h("label", { for: "lurd" }, v.topology === "hex" ? "Solution (l r u n s d)" : "Solution (LURD)"),
        h("textarea", { id: "lurd", readonly: true, rows: 2, "data-testid": "lurd" }, v.lurd),
        h("div", { class: "row" },
          h("button", { type: "button", onclick: () => copyText(v.lurd, "The solution was copied") }, "Copy solution"),
          canPlay ? h("button", { type: "button", onclick: () => newLevel({ collection: v.collection, level: v.level }) }, "Play again") : null,
          canPlay && live() ? h("button", { type: "button", onclick: () => send({ type: "undo" }) }, "Undo") : null,
          canPlay ? h("button", { type: "button", class: "primary", "data-testid": "banner-next", onclick: () => moveOn(1) }, "Next level") : null));
      if (canPlay && lastSolvedSeq !== snap.sequence) {
        lastSolvedSeq = snap.sequence;
        markSolved(v.collection, v.level, { moves: v.moves, pushes: v.pushes, lurd: v.lurd });
        const opt = picker.col.value === v.collection && picker.lvl.querySelector(`option[value="${v.level}"]`);
        if (opt && !/solved/.test(opt.textContent)) opt.textContent += " ✓ solved";
      }
    } else if (snap.status !== "active" && snap.outcome && snap.outcome.kind === "resigned") {
      // given up (the Resign button, `resign`): the match is over; the level can be tried again
      banner.hidden = false;
      banner.replaceChildren(
        h("h2", {}, "Given up"),
        h("p", { "data-testid": "gave-up" }, `You gave this level up after ${v.moves} move${v.moves === 1 ? "" : "s"} and ${v.pushes} push${v.pushes === 1 ? "" : "es"}.`),
        h("div", { class: "row" },
          canPlay ? h("button", { type: "button", onclick: () => newLevel({ collection: v.collection, level: v.level }) }, "Try again") : null,
          canPlay && v.collection !== "pasted" ? h("button", { type: "button", class: "primary", onclick: () => moveOn(1) }, "Next level") : null));
    } else {
      banner.hidden = true;
      banner.replaceChildren();
    }
  }

  return {
    update(next) { snap = next; render(); },
    receipt(r) {
      const events = r.events || [];
      const d = events.find((e) => e.type === "deadlocked");
      const was = stuck;
      stuck = d ? { reason: d.reason, cell: d.cell } : null;
      const changed = events.some((e) => e.type === "moved" || e.type === "undone" || e.type === "redone" || e.type === "restarted");
      if (changed) {
        hinted = null;
        hintText.hidden = true;
      }
      // the receipt may arrive after the new view was drawn: draw again when the warning changed
      if (changed || Boolean(was) !== Boolean(stuck)) render();
      if (d && !events.some((e) => e.type === "deadSquare")) say("That push makes the level unsolvable. Undo to take it back.", "warning");
      for (const e of events) {
        if (e.type === "deadSquare") say("That box is stuck now: the level can't be solved from here. Undo to take the push back.", "warning");
        if (e.type === "solved") say(`Solved in ${e.moves} moves and ${e.pushes} pushes!`);
        if (e.type === "resigned") say("You gave the level up. Try it again, or go on to the next one.");
      }
    },
    destroy() { document.removeEventListener("keydown", onKey); },
  };
}

// ---- the web module contract (web/registry.js) --------------------------------------------

const DIRS = { up: "up", down: "down", left: "left", right: "right" };

/** A step of a replay in words. */
function describe(r) {
  const a = r.action || {};
  const ev = r.events || [];
  const moved = ev.filter((e) => e.type === "moved");
  const pushes = moved.filter((e) => e.pushed).length;
  const solved = ev.some((e) => e.type === "solved");
  let text;
  if (a.type === "move") text = `Moved ${DIRS[a.direction] || a.direction}${pushes ? ", pushing a box" : ""}`;
  else if (a.type === "walkTo") text = `Walked ${moved.length} step${moved.length === 1 ? "" : "s"}`;
  else if (a.type === "pushTo") text = `Pushed a box ${pushes} square${pushes === 1 ? "" : "s"}${moved.length > pushes ? ` (walking ${moved.length - pushes} step${moved.length - pushes === 1 ? "" : "s"} first)` : ""}`;
  else if (a.type === "undo") text = "Undid the last move";
  else if (a.type === "redo") text = "Redid a move";
  else if (a.type === "restart") text = "Started the level again";
  else if (a.type === "finish") text = "Moved on from the solved level";
  else if (a.type === "resign") {
    const r = ev.find((e) => e.type === "resigned");
    text = r ? `Gave the level up after ${r.moves} move${r.moves === 1 ? "" : "s"} and ${r.pushes} push${r.pushes === 1 ? "" : "es"}` : "Gave the level up";
  }
  else text = "Moved";
  return solved ? `${text} — solved!` : text;
}

/** The level's rows from a replay file's embedded bundle (or the fetched content). */
function levelRows(file, content) {
  const cfg = (file && file.config) || {};
  const cols = content && content.collections;
  const col = cols && cols.find((c) => c.id === cfg.collection);
  const level = col && col.levels[(cfg.level || 1) - 1];
  return level ? level.rows : null;
}

/** Replay frames: boxes and player after each receipt (undo entries are whole commands, as in the engine). */
function frames(entries, { file, content }) {
  const rows = levelRows(file, content);
  if (!rows) return null;
  const start = parseBoard(rows);
  const W = start.W;
  const startState = { boxes: new Set(start.cells.flatMap((c, i) => (c.box ? [i] : []))), player: start.player };
  let cur = startState;
  const undo = [], redo = [];
  const out = [{ start, st: cur }];
  for (const { receipt } of entries) {
    const ev = receipt.events || [];
    if (ev.some((e) => e.type === "undone")) { if (undo.length) { redo.push(cur); cur = undo.pop(); } }
    else if (ev.some((e) => e.type === "redone")) { if (redo.length) { undo.push(cur); cur = redo.pop(); } }
    else if (ev.some((e) => e.type === "restarted")) { undo.push(cur); redo.length = 0; cur = startState; }
    else if (ev.some((e) => e.type === "moved")) {
      undo.push(cur); redo.length = 0;
      const next = { boxes: new Set(cur.boxes), player: cur.player };
      for (const e of ev) if (e.type === "moved") {
        if (e.pushed) { next.boxes.delete(e.pushed[0][1] * W + e.pushed[0][0]); next.boxes.add(e.pushed[1][1] * W + e.pushed[1][0]); }
        next.player = e.player;
      }
      cur = next;
    }
    out.push({ start, st: cur });
  }
  return out;
}

function drawFrame(frame) {
  if (!frame) return h("p", { class: "muted" }, "The level of this replay is not in its file.");
  const { start, st } = frame;
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

registerGame({
  id: "sokoban",
  title: "Sokoban",
  blurb: "Push every box onto a goal, in as few moves as you can.",
  order: 10,
  seatName: () => "Player",
  mount,
  describe,
  outcomeText: (o) => (o && o.kind === "solved" ? "solved" : o && o.kind === "resigned" ? "given up" : ""),
  lobby: {
    quickSeats: () => [{ kind: "human" }],
    quickConfig: (info) => info.defaultConfig || undefined,
    // a random walker never solves a level: Sokoban offers no bot seat
    bots: () => [],
    options: (info) => {
      const built = levelPicker(info.configOptions, info.defaultConfig || {});
      return { el: built.el, value: built.value };
    },
    art: () => drawFrame(frames([], { file: { config: { collection: "x", level: 1 } }, content: { collections: [{ id: "x", levels: [{ rows: ["#####", "#@$.#", "#####"] }] }] } })[0]),
  },
  replay: {
    frames: (entries, info) => frames(entries, { file: info.file, content: info.content }),
    draw: drawFrame,
    needsContent: true,
  },
});
