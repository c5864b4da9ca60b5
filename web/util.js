// Small helpers shared by the pages: element building, local storage of tokens, solved levels
// and the player's name, links, messages, reading legal actions. Nothing here knows a game.

/** `h("button", {class: "x", onclick}, "text", child)` → an element. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v == null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k === "text") el.textContent = v;
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c == null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

const SVGNS = "http://www.w3.org/2000/svg";
/** An SVG element with attributes. */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v == null || v === false) continue;
    el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) if (c) el.append(c);
  return el;
}

// ---- local storage -------------------------------------------------------------------------

const TOKENS = "turnstile.tokens.v1";
const SOLVED = "turnstile.solved.v1";

function readJson(key, fallback) {
  try {
    const v = JSON.parse(localStorage.getItem(key) || "null");
    return v ?? fallback;
  } catch {
    return fallback;
  }
}
function writeJson(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* storage full or off */ }
}

/** Tokens this browser holds: [{matchId, game, token, role: "seat"|"spectator", seat?, savedAt}]. */
export function savedTokens() { return readJson(TOKENS, []); }

export function saveToken(entry) {
  const all = savedTokens().filter((t) => t.token !== entry.token);
  all.unshift({ ...entry, savedAt: Date.now() });
  writeJson(TOKENS, all.slice(0, 100));
}

export function tokensFor(matchId) { return savedTokens().filter((t) => t.matchId === matchId); }

/** Solved Sokoban levels: {"microban/1": {moves, pushes, lurd}}. */
export function solvedLevels() { return readJson(SOLVED, {}); }
export function markSolved(collection, level, info) {
  const all = solvedLevels();
  const key = `${collection}/${level}`;
  const prev = all[key];
  // Best moves (with that solution) and, apart, the fewest pushes any solution took.
  const bestPushes = Math.min(info.pushes, prev ? prev.bestPushes ?? prev.pushes : Infinity);
  all[key] = !prev || info.moves < prev.moves ? { ...info, bestPushes } : { ...prev, bestPushes };
  writeJson(SOLVED, all);
}

// ---- the player's name and the matches this browser created ----------------------------------

const NAME = "turnstile.name.v1";
const CREATED = "turnstile.created.v1";

/** The name this browser's player chose in the lobby ("" when none). */
export function playerNameSaved() { return String(readJson(NAME, "") || ""); }
export function savePlayerName(name) { writeJson(NAME, String(name || "").trim().slice(0, 24)); }

/**
 * This browser's player's name on its own seat: a fallback for matches whose seats carry no
 * name. (The server keeps the names given at creation and on joining: `seats[i].name`.)
 */
export function matchNames(matchId, seat) {
  const name = playerNameSaved();
  return seat != null && name ? { [seat]: name } : {};
}

/** Keeps the body a match was created with, so "Rematch" can create the same game again. */
export function rememberCreate(matchId, body) {
  const all = readJson(CREATED, {});
  all[matchId] = body;
  const keys = Object.keys(all);
  for (const k of keys.slice(0, Math.max(0, keys.length - 50))) delete all[k];
  writeJson(CREATED, all);
}
export function createBodyOf(matchId) { return readJson(CREATED, {})[matchId] || null; }

// ---- links ---------------------------------------------------------------------------------

export function matchLink(matchId, token) {
  return `${location.origin}${location.pathname}#/match/${encodeURIComponent(matchId)}?token=${encodeURIComponent(token)}`;
}
export function replayLink(matchId, token) {
  return `${location.origin}${location.pathname}#/replay/${encodeURIComponent(matchId)}?token=${encodeURIComponent(token)}`;
}

/** Parses `#/match/<id>?token=...` → {parts: ["match", id], params}. */
export function parseHash(hash = location.hash) {
  const raw = hash.replace(/^#\/?/, "");
  const [path, query = ""] = raw.split("?");
  return { parts: path.split("/").filter(Boolean).map(decodeURIComponent), params: new URLSearchParams(query) };
}

// ---- messages ------------------------------------------------------------------------------

/** Shows a message in the page's live region (screen readers announce it). */
export function say(text, kind = "info") {
  const box = document.getElementById("messages");
  if (!box) return;
  const item = h("div", { class: `message ${kind}`, role: kind === "error" ? "alert" : "status" },
    h("span", {}, text),
    h("button", { class: "close", "aria-label": "Dismiss message", onclick: () => item.remove() }, "×"));
  box.append(item);
  while (box.children.length > 4) box.firstChild.remove();
  if (kind !== "error") setTimeout(() => item.remove(), 8000);
}

export function clearMessages() {
  const box = document.getElementById("messages");
  if (box) box.replaceChildren();
}

export async function copyText(text, what = "Copied") {
  try {
    await navigator.clipboard.writeText(text);
    say(`${what} to the clipboard.`);
  } catch {
    window.prompt("Copy this:", text);
  }
}

export function shortRev(rev) {
  if (!rev) return "—";
  return rev.replace(/^sha256:/, "").slice(0, 12);
}

// ---- legal actions -------------------------------------------------------------------------

/** The legal action of `kind` in a `legal-actions` answer, or null. */
export function legalAction(legal, kind) {
  return (legal && legal.actions.find((a) => a.kind === kind)) || null;
}

/**
 * Whether `legal` allows `kind` with parameter `param` = `value`: the kind is listed and the
 * parameter's range (oneOf values — integers or strings, as the field takes them —, an integer
 * interval, cells) holds the value. A kind listed
 * without that parameter allows any value (the server then judges the command).
 */
export function legalAllows(legal, kind, param, value) {
  const a = legalAction(legal, kind);
  if (!a) return false;
  const p = (a.params || []).find((x) => x.name === param);
  if (!p || !p.range) return true;
  const r = p.range;
  if (r.kind === "oneOf") return r.values.some((v) => String(v) === String(value));
  if (r.kind === "integer") return Number(value) >= r.min && Number(value) <= r.max;
  if (r.kind === "cells") return r.cells.some(([x, y]) => `${x},${y}` === String(value));
  return true;
}
