// Connect Four and Tic-Tac-Toe (the m,n,k games): the board as buttons (keyboard and screen
// reader friendly), whose turn it is, the fair turn timer, a log of moves, timeouts, bots and
// the result. Two browsers play live: each receipt arrives through the stream.

import { h, say, seatName } from "./util.js";

function resultText(game, r) {
  if (!r) return "";
  switch (r.kind) {
    case "won": return `${seatName(game, r.seat)} wins with ${r.line ? r.line.length : ""} in a row!`;
    case "draw": return "Draw: the board is full.";
    case "resigned": return `${seatName(game, r.seat)} resigned; ${seatName(game, r.seat ^ 1)} wins.`;
    case "forfeited": return `${seatName(game, r.seat)} timed out ${r.timeouts} times in a row and forfeits; ${seatName(game, r.seat ^ 1)} wins.`;
    default: return JSON.stringify(r);
  }
}

export function describeReceipt(game, r, seats = []) {
  const who = (seat) => {
    if (seat == null) return "The server";
    const info = seats.find((x) => x.seat === seat);
    return `${seatName(game, seat)}${info && info.kind === "bot" ? ` (bot ${info.bot})` : ""}`;
  };
  const a = r.action || {};
  const parts = [];
  if (a.type === "drop") parts.push(`${who(r.seat)} dropped a disc in column ${a.column + 1}`);
  else if (a.type === "mark") parts.push(`${who(r.seat)} marked row ${a.cell[1] + 1}, column ${a.cell[0] + 1}`);
  else if (a.type === "timeout") {
    const ended = (r.events || []).find((e) => e.type === "turn" && e.event && e.event.type === "turnEnded");
    const loser = ended && ended.event && (ended.event.seat ?? ended.event.player);
    parts.push(`Timeout: ${loser != null ? `${seatName(game, loser)}'s` : "the"} turn ran out`);
  } else if (a.type === "skip") parts.push(`${who(r.seat)} skipped`);
  else if (a.type === "resign") parts.push(`${who(r.seat)} resigned`);
  else parts.push(`${who(r.seat)}: ${JSON.stringify(a)}`);
  const end = (r.events || []).find((e) => e.type === "matchEnded");
  if (end) parts.push(`— ${resultText(game, end.result)}`);
  return parts.join(" ");
}

export function mount(root, ctx) {
  const { session, seat, game, client, matchId } = ctx;
  const isC4 = game === "connect4";
  let snap = ctx.snapshot;
  let legal = null;
  let cursor = 3;

  const status = h("p", { class: "turn-status", "aria-live": "polite", "data-testid": "turn-status" });
  const timer = h("p", { class: "timer", "aria-live": "off", "data-testid": "timer" });
  const boardEl = h("div", { class: `mnk-board ${game}`, role: "grid", "aria-label": isC4 ? "Connect Four board" : "Tic-Tac-Toe board" });
  const skipB = h("button", { type: "button", hidden: true, onclick: () => session.send({ type: "skip" }) }, "Skip turn");
  const log = h("ol", { class: "log", "aria-label": "Moves", reversed: true });
  root.append(h("div", { class: "mnk" },
    h("div", { class: "mnk-main" }, status, timer, h("div", { class: "board-wrap" }, boardEl), skipB,
      h("p", { class: "help muted" }, seat == null ? "You are watching." : isC4 ? "Click a column, or use ←/→ and Enter (or the keys 1–7) to drop a disc." : "Click a cell, or Tab to it and press Enter.")),
    h("section", { class: "mnk-log", "aria-label": "Match log" }, h("h2", {}, "Log"), log)));

  // the log from the beginning (as far as this viewer may see it)
  client.timelineAll(matchId, 0).then((receipts) => {
    for (const r of receipts) if (!log.querySelector(`[data-seq="${r.sequence}"]`)) addLog(r);
  }).catch((e) => say(`Could not load the log: ${e.message}`, "warning"));

  function addLog(r) {
    const li = h("li", { "data-seq": r.sequence, value: r.sequence }, describeReceipt(game, r, snap.seats));
    const after = [...log.children].find((x) => Number(x.dataset.seq) < r.sequence);
    log.insertBefore(li, after || null);
  }

  function myTurn() { return seat != null && snap.status === "active" && snap.view.toMove === seat; }

  function play(col, row) {
    if (!myTurn()) { say(snap.status !== "active" ? "The match is over." : "It is not your turn.", "warning"); return; }
    session.send(isC4 ? { type: "drop", column: col } : { type: "mark", cell: [col, row] });
  }

  function render() {
    const v = snap.view;
    const rows = v.rows;
    const H = rows.length, W = rows[0].length;
    const line = new Set(v.result && v.result.line ? v.result.line.map(([c, r]) => `${c},${r}`) : []);
    const focusKey = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.col + "," + document.activeElement.dataset.row : null;
    const piece = (ch, c, r) => h("span", { class: `piece ${ch === "0" ? "p0" : ch === "1" ? "p1" : "empty"}${line.has(`${c},${r}`) ? " win" : ""}`, "aria-hidden": "true" }, isC4 ? "" : ch === "0" ? "X" : ch === "1" ? "O" : "");
    const mine = myTurn();
    if (isC4) {
      boardEl.style.setProperty("--cols", W);
      boardEl.replaceChildren(...Array.from({ length: W }, (_, c) => {
        const discs = rows.filter((row) => row[c] !== ".").length;
        const full = discs === H;
        return h("button", {
          type: "button", class: `column${c === cursor ? " cursor" : ""}`, "data-col": c, "data-row": "",
          "aria-label": `Column ${c + 1}: ${discs} disc${discs === 1 ? "" : "s"}${full ? ", full" : ""}`,
          "aria-disabled": !mine || full ? "true" : "false",
          onclick: () => { cursor = c; play(c); },
        }, rows.map((row, r) => {
          const p = piece(row[c], c, r);
          if (r === H - 1 - discs) p.classList.add("landing"); // where a disc would land: shown on hover
          return p;
        }));
      }));
    } else {
      boardEl.style.setProperty("--cols", W);
      const cells = [];
      for (let r = 0; r < H; r++) for (let c = 0; c < W; c++) {
        const ch = rows[r][c];
        const name = ch === "0" ? "X" : ch === "1" ? "O" : "empty";
        cells.push(h("button", {
          type: "button", class: "cell", "data-col": c, "data-row": r, role: "gridcell",
          "aria-label": `Row ${r + 1}, column ${c + 1}: ${name}`,
          "aria-disabled": !mine || ch !== "." ? "true" : "false",
          onclick: () => play(c, r),
        }, piece(ch, c, r)));
      }
      boardEl.replaceChildren(...cells);
    }
    if (focusKey) {
      const again = [...boardEl.querySelectorAll("button")].find((b) => `${b.dataset.col},${b.dataset.row}` === focusKey);
      if (again) again.focus();
    }
    boardEl.classList.toggle("my-turn", mine);
    boardEl.classList.toggle("me-p0", seat === 0);
    boardEl.classList.toggle("me-p1", seat === 1);
    if (snap.status !== "active") status.textContent = v.result ? resultText(game, v.result) : `The match is ${snap.status}.`;
    else if (v.toMove == null) status.textContent = "Waiting…";
    else {
      const info = snap.seats.find((x) => x.seat === v.toMove);
      status.textContent = mine ? `Your turn (${seatName(game, seat)}).` : `${seatName(game, v.toMove)}${info && info.kind === "bot" ? ` (bot ${info.bot})` : ""} to move.`;
    }
    status.className = `turn-status${mine ? " mine" : ""}${snap.status !== "active" ? " over" : ""}`;
    status.dataset.toMove = v.toMove ?? "";
    tick();
    skipB.hidden = !(mine && legal && legal.actions.some((a) => a.kind === "skip"));
  }

  function tick() {
    const t = session.timer();
    if (!t) { timer.textContent = snap.status === "active" && snap.view.turnConfig ? `Turn config: ${snap.view.turnConfig} (no timer)` : ""; timer.className = "timer"; return; }
    const secs = (t.remainingMs / 1000).toFixed(1);
    const whose = snap.view.toMove === seat ? "You have" : `${seatName(game, snap.view.toMove)} has`;
    timer.textContent = `Time: ${whose} ${secs} s`;
    timer.title = `deadline tick ${t.deadlineTick}; estimated server tick ${session.serverTickNow()} + half round trip (${session.rttMs} ms) + input offset ${session.inputOffsetTicks}`;
    timer.className = `timer${t.remainingMs < 5000 ? " low" : ""}`;
  }
  const interval = setInterval(tick, 100);

  function onKey(ev) {
    if (!isC4 || seat == null || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const t = ev.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
    if (/^[1-7]$/.test(ev.key)) { cursor = Number(ev.key) - 1; play(cursor); ev.preventDefault(); return; }
    if (ev.key === "ArrowLeft" || ev.key === "ArrowRight") {
      cursor = (cursor + (ev.key === "ArrowLeft" ? 6 : 1)) % 7;
      const b = boardEl.querySelector(`[data-col="${cursor}"]`);
      if (b) b.focus();
      render();
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
      if (r.action && r.action.type === "timeout") say(describeReceipt(game, r, snap.seats), "warning");
      const end = (r.events || []).find((e) => e.type === "matchEnded");
      if (end) say(resultText(game, end.result));
    },
    destroy() { clearInterval(interval); document.removeEventListener("keydown", onKey); },
  };
}
