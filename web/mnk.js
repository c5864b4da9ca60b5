// The m,n,k games' web module kernel (Connect Four and Tic-Tac-Toe share it, as they share the
// rules' kernel): the board as buttons (keyboard and screen reader friendly) with a disc that
// drops and a winning line drawn across the board, a clear turn banner in the seat's colour, the
// fair turn timer, a log in words, and the replay frames rebuilt from `piecePlaced` events.
// `web/connect4.js` and `web/tictactoe.js` register a game each through `registerMnk`.

import { h, s, say } from "./util.js";
import { registerGame, playerName } from "./registry.js";

/** Tic-Tac-Toe's cells by name on a 3 × 3 board; other sizes say row and column. */
function cellName(c, r, W, H) {
  if (W === 3 && H === 3) {
    const row = ["top", "middle", "bottom"][r], col = ["left", "centre", "right"][c];
    return r === 1 && c === 1 ? "the centre" : `the ${row === "middle" ? col : col === "centre" ? row : `${row} ${col}`} square`;
  }
  return `row ${r + 1}, column ${c + 1}`;
}

/**
 * Registers one m,n,k game: `pieces` are the seats' marks ("X"/"O") or null for discs, `names`
 * the seats' names, `gravity` whether pieces drop (Connect Four).
 */
export function registerMnk({ id, title, blurb, order, names, pieces = null, gravity = false }) {
  const seatName = (seat) => names[seat] ?? `Player ${seat + 1}`;
  const game = id;

  function resultText(r, info = {}) {
    if (!r) return "";
    const who = (seat) => playerName(game, seat, info);
    const wins = (seat) => (who(seat) === "You" ? "You win" : `${who(seat)} wins`);
    switch (r.kind) {
      case "won": return `${wins(r.seat)} with ${r.line ? r.line.length : ""} in a row!`;
      case "draw": return "A draw: the board is full.";
      case "resigned": return `${who(r.seat)} resigned. ${wins(r.seat ^ 1)}.`;
      case "forfeited": return who(r.seat) === "You"
        ? `You ran out of time ${r.timeouts} turns in a row and forfeit. ${wins(r.seat ^ 1)}.`
        : `${who(r.seat)} ran out of time ${r.timeouts} turns in a row and forfeits. ${wins(r.seat ^ 1)}.`;
      default: return "The game is over.";
    }
  }

  function describe(r, info = {}) {
    const who = (seat) => (seat == null ? "The server" : playerName(game, seat, info));
    const a = r.action || {};
    const parts = [];
    const placed = (r.events || []).find((e) => e.type === "piecePlaced");
    if (a.type === "drop") parts.push(`${who(r.seat)} dropped a disc in column ${a.column + 1}`);
    else if (a.type === "mark") parts.push(`${who(r.seat)} took ${cellName(a.cell[0], a.cell[1], info.width || 3, info.height || 3)}`);
    else if (a.type === "timeout") {
      const ended = (r.events || []).find((e) => e.type === "turn" && e.event && e.event.type === "turnEnded");
      const loser = ended && ended.event && (ended.event.seat ?? ended.event.player);
      parts.push(loser != null && who(loser) === "You" ? "Your time ran out" : `Time ran out for ${loser != null ? who(loser) : "the player to move"}`);
    } else if (a.type === "skip") parts.push(`${who(r.seat)} skipped the turn`);
    else if (/^clock/i.test(a.type || "")) parts.push(r.commandId === "clock-resumed:0" ? "Everyone is here: the clock starts" : "The clock resumed (the time the server was away did not count)");
    else if (a.type === "resign") parts.push(`${who(r.seat)} resigned`);
    else if (placed) parts.push(`${who(placed.seat)} played`);
    else parts.push(`${who(r.seat)} moved`);
    const end = (r.events || []).find((e) => e.type === "matchEnded");
    if (end) parts.push(`— ${resultText(end.result, info)}`);
    return parts.join(" ");
  }

  /** The board drawn from its rows ("." empty, "0"/"1" a seat's piece). */
  function drawBoard(rows, { line = [], interactive = false, fresh = null, onPlay = null, mine = false, seat = null, cursor = 3 } = {}) {
    const H = rows.length, W = rows[0].length;
    const onLine = new Set(line.map(([c, r]) => `${c},${r}`));
    const board = h("div", { class: `mnk-board ${game}${interactive ? "" : " static"}${line.length ? " has-win" : ""}`, role: interactive ? "grid" : "img",
      "aria-label": interactive ? `${title} board` : `${title} board: ${rows.join(" / ")}` });
    board.style.setProperty("--cols", W);
    board.style.setProperty("--rows", H);
    const piece = (ch, c, r) => {
      const cls = `piece ${ch === "0" ? "p0" : ch === "1" ? "p1" : "empty"}${onLine.has(`${c},${r}`) ? " win" : ""}${fresh && fresh[0] === c && fresh[1] === r ? " fresh" : ""}`;
      const el = h("span", { class: cls, "aria-hidden": "true" }, pieces && ch !== "." ? pieces[Number(ch)] : "");
      if (gravity && fresh && fresh[0] === c && fresh[1] === r) el.style.setProperty("--fall", `${r + 1}`);
      return el;
    };
    if (gravity) {
      for (let c = 0; c < W; c++) {
        const discs = rows.filter((row) => row[c] !== ".").length;
        const full = discs === H;
        const kids = rows.map((row, r) => { const p = piece(row[c], c, r); if (r === H - 1 - discs) p.classList.add("landing"); return p; });
        board.append(interactive ? h("button", {
          type: "button", class: `column${c === cursor ? " cursor" : ""}`, "data-col": c, "data-row": "",
          "aria-label": `Column ${c + 1}: ${discs} disc${discs === 1 ? "" : "s"}${full ? ", full" : ""}`,
          "aria-disabled": !mine || full ? "true" : "false", onclick: () => onPlay(c),
        }, kids) : h("div", { class: "column" }, kids));
      }
    } else {
      for (let r = 0; r < H; r++) for (let c = 0; c < W; c++) {
        const ch = rows[r][c];
        const p = piece(ch, c, r);
        board.append(interactive ? h("button", {
          type: "button", class: "cell", "data-col": c, "data-row": r, role: "gridcell",
          "aria-label": `${cellName(c, r, W, H).replace(/^the /, "")}: ${ch === "." ? "empty" : pieces[Number(ch)]}`,
          "aria-disabled": !mine || ch !== "." ? "true" : "false", onclick: () => onPlay(c, r),
        }, p) : h("div", { class: "cell" }, p));
      }
    }
    if (line.length > 1) {
      // the winning line, drawn across the board through the centres of its cells
      const [a, b] = [line[0], line[line.length - 1]];
      const svg = s("svg", { class: "win-line", viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: "none", "aria-hidden": "true" },
        s("line", { x1: a[0] + 0.5, y1: a[1] + 0.5, x2: b[0] + 0.5, y2: b[1] + 0.5, pathLength: 100, "vector-effect": "non-scaling-stroke" }));
      board.append(svg);
    }
    if (seat != null) board.classList.add(`me-p${seat}`);
    board.classList.toggle("my-turn", mine);
    return board;
  }

  function mount(root, ctx) {
    const { session, seat, client, matchId } = ctx;
    let snap = ctx.snapshot;
    let legal = null;
    let cursor = 3;
    let lastRows = null;
    const info = () => ({ seats: snap.seats, viewerSeat: seat, width: snap.view.rows[0].length, height: snap.view.rows.length });

    const status = h("div", { class: "turn-banner", "aria-live": "polite", "data-testid": "turn-status" });
    const timer = h("p", { class: "timer", "aria-live": "off", "data-testid": "timer" });
    const boardBox = h("div", { class: "board-wrap" });
    const skipB = h("button", { type: "button", hidden: true, onclick: () => session.send({ type: "skip" }) }, "Skip turn");
    const log = h("ol", { class: "log", "aria-label": "Moves", reversed: true });
    const touch = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
    root.append(h("div", { class: "mnk" },
      h("div", { class: "mnk-main" }, status, timer, boardBox, skipB,
        h("p", { class: "help muted" }, seat == null ? "You are watching." : gravity
          ? (touch ? "Tap a column to drop a disc." : "Click a column to drop a disc, or use ←/→ and Enter, or the keys 1–7.")
          : (touch ? "Tap a square to take it." : "Click a square to take it, or Tab to it and press Enter."))),
      h("section", { class: "mnk-log", "aria-label": "Moves so far" }, h("h2", {}, "Moves"), log)));

    client.timelineAll(matchId, 0).then((receipts) => {
      for (const r of receipts) if (!log.querySelector(`[data-seq="${r.sequence}"]`)) addLog(r);
    }).catch((e) => say(`Could not load the moves so far: ${e.message}`, "warning"));

    /** One line per receipt: the timeline and the stream may both bring the same one. */
    function addLog(r) {
      if (log.querySelector(`[data-seq="${r.sequence}"]`)) return;
      const li = h("li", { "data-seq": r.sequence, value: r.sequence }, describe(r, info()));
      const after = [...log.children].find((x) => Number(x.dataset.seq) < r.sequence);
      log.insertBefore(li, after || null);
    }

    const myTurn = () => seat != null && snap.status === "active" && snap.view.toMove === seat;

    function play(col, row) {
      if (!myTurn()) { say(snap.status !== "active" ? "The game is over." : "Wait for your turn.", "warning"); return; }
      session.send(gravity ? { type: "drop", column: col } : { type: "mark", cell: [col, row] });
    }

    function render() {
      const v = snap.view;
      const rows = v.rows;
      // the piece that appeared since the last drawing falls into place (or pops in)
      let fresh = null;
      if (lastRows && lastRows.length === rows.length) {
        for (let r = 0; r < rows.length && !fresh; r++) for (let c = 0; c < rows[r].length; c++) if (lastRows[r][c] === "." && rows[r][c] !== ".") { fresh = [c, r]; break; }
      }
      lastRows = rows;
      const focusKey = document.activeElement && boardBox.contains(document.activeElement) ? `${document.activeElement.dataset.col},${document.activeElement.dataset.row}` : null;
      const mine = myTurn();
      boardBox.replaceChildren(drawBoard(rows, { line: v.result && v.result.line ? v.result.line : [], interactive: true, fresh, onPlay: (c, r) => { cursor = c; play(c, r); }, mine, seat, cursor }));
      if (focusKey) [...boardBox.querySelectorAll("button")].find((b) => `${b.dataset.col},${b.dataset.row}` === focusKey)?.focus();

      const to = v.toMove;
      const chip = (st) => h("span", { class: `seat-chip p${st}${pieces ? " mark" : ""}`, "aria-hidden": "true" }, pieces ? pieces[st] : "");
      if (snap.status !== "active") status.replaceChildren(h("span", { class: "banner-text" }, v.result ? resultText(v.result, info()) : "The game is over."));
      else if (to == null) status.replaceChildren("Waiting…");
      else status.replaceChildren(chip(to), h("span", { class: "banner-text" }, mine ? "Your turn" : `${playerName(game, to, info())} to move`));
      status.className = `turn-banner${mine ? " mine" : ""}${snap.status !== "active" ? " over" : ""}${to != null ? ` p${to}` : ""}`;
      status.dataset.toMove = to ?? "";
      tick();
      skipB.hidden = !(mine && legal && legal.actions.some((a) => a.kind === "skip"));
    }

    function tick() {
      const t = session.timer();
      if (!t) { timer.textContent = ""; timer.className = "timer"; return; }
      const secs = (t.remainingMs / 1000).toFixed(1);
      timer.textContent = snap.view.toMove === seat ? `You have ${secs} s` : `${playerName(game, snap.view.toMove, info())} has ${secs} s`;
      timer.className = `timer${t.remainingMs < 5000 ? " low" : ""}`;
    }
    const interval = setInterval(tick, 100);

    function onKey(ev) {
      if (!gravity || seat == null || ev.ctrlKey || ev.metaKey || ev.altKey) return;
      const t = ev.target;
      if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
      const W = snap.view.rows[0].length;
      if (/^[1-9]$/.test(ev.key) && Number(ev.key) <= W) { cursor = Number(ev.key) - 1; play(cursor); ev.preventDefault(); return; }
      if (ev.key === "ArrowLeft" || ev.key === "ArrowRight") {
        cursor = (cursor + (ev.key === "ArrowLeft" ? W - 1 : 1)) % W;
        render();
        boardBox.querySelector(`[data-col="${cursor}"]`)?.focus();
        ev.preventDefault();
      }
    }
    document.addEventListener("keydown", onKey);

    async function refreshLegal() {
      if (seat == null || snap.status !== "active") { legal = null; return; }
      try { legal = await client.legalActions(matchId); } catch { legal = null; }
      render();
    }

    return {
      update(next) { snap = next; render(); refreshLegal(); },
      receipt(r) {
        addLog(r);
        if (r.action && r.action.type === "timeout") say(describe(r, info()), "warning");
      },
      destroy() { clearInterval(interval); document.removeEventListener("keydown", onKey); },
    };
  }

  /** Replay frames: the rows after each receipt, rebuilt from `piecePlaced`; the last one's line. */
  function frames(entries, { file }) {
    const size = { connect4: [7, 6], tictactoe: [3, 3] }[game] || [3, 3];
    const cfg = (file && file.config) || {};
    const W = cfg.width || size[0], H = cfg.height || size[1];
    let rows = Array.from({ length: H }, () => ".".repeat(W));
    const out = [{ rows, line: [] }];
    for (const { receipt } of entries) {
      rows = rows.slice();
      let line = [];
      for (const e of receipt.events || []) {
        if (e.type === "piecePlaced") rows[e.row] = rows[e.row].slice(0, e.column) + String(e.seat) + rows[e.row].slice(e.column + 1);
        if (e.type === "matchEnded" && e.result && e.result.line) line = e.result.line;
      }
      out.push({ rows, line });
    }
    return out;
  }

  registerGame({
    id, title, blurb, order, seatName, mount, describe,
    outcomeText: (o, info) => {
      const w = (o && o.winners) || [];
      if (o.kind === "draw") return "a draw";
      if (!w.length) return "";
      const who = playerName(game, w[0], info || {});
      return `${who === "You" ? "you" : who} won${o.kind === "timeout" ? " on time" : o.kind === "resigned" ? " by resignation" : ""}`;
    },
    lobby: {
      quickSeats: () => [{ kind: "human" }, { kind: "bot", bot: "strong" }],
      options(gameInfo) {
        const o = gameInfo.configOptions;
        if (!o || !o.turnConfigs) return null;
        const ids = Object.keys(o.turnConfigs);
        const sel = h("select", { id: "turnConfig" }, ids.map((tc) => {
          const c = o.turnConfigs[tc] || {};
          const label = c.usesTimer ? `${tc[0].toUpperCase()}${tc.slice(1)}: ${Math.round(c.turnDurationTicks / 10)} s a move${c.isSkippable ? ", may skip" : ""}` : `${tc[0].toUpperCase()}${tc.slice(1)}: no clock`;
          return h("option", { value: tc, selected: tc === o.defaultTurnConfig }, label);
        }));
        return { el: h("div", { class: "field" }, h("label", { for: "turnConfig" }, "Clock"), sel), value: () => ({ turnConfig: sel.value }) };
      },
      bots: (gameInfo) => [...new Set(["random", ...(gameInfo.bots || [])])],
      art: () => {
        const W = gravity ? 4 : 3, H = gravity ? 3 : 3;
        const demo = gravity ? ["....", ".1..", "0110"].map((r) => r) : ["0.1", ".0.", "1.0"];
        return drawBoard(demo.slice(0, H).map((r) => r.slice(0, W)), { line: gravity ? [] : [[0, 0], [1, 1], [2, 2]] });
      },
    },
    replay: {
      frames,
      draw: (frame) => drawBoard(frame.rows, { line: frame.line }),
    },
  });
  return { describe, drawBoard };
}
