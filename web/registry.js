// The per-game web module contract. Each game's module (`web/<game id>.js`) calls
// `registerGame({...})` when it is imported; the lobby, the match page, the replay viewer and
// the debug panel ask the registry for a game's title, seat names, readable log lines, renderer
// and replay frames, so no shared file branches on a game id and adding a game's module edits no
// shared web file. The page loads the modules of the games the server lists (`loadGameModules`),
// finding them through `GET /web-files.json` (the embedded client's file list), so a game
// without a module quietly gets the generic view.
//
// A game definition (every field but `id` is optional; the defaults are the generic ones):
//
//   registerGame({
//     id: "connect4",
//     title: "Connect Four", blurb: "Four in a row, with gravity.", order: 20,
//     seatName(seat) → "Red",                       // the seat as players say it
//     mount(root, ctx) → {update(snapshot), receipt(receipt, fromStream), destroy()},
//     describe(receipt, info) → "Red dropped a disc in column 4",   // a log line in words
//     outcomeText(outcome, info) → "Red won",
//     lobby: {
//       needsContent: false,                        // read the content bundle for the options
//       options(gameInfo, content) → {el, value()}, // the folded-away options of a new match
//       quickSeats(gameInfo) → [{kind: "human"}, {kind: "bot", bot: "strong"}],  // one-click play
//       quickConfig(gameInfo) → config | undefined,
//       bots(gameInfo) → ["strong"],                // the bots offered for its seats
//     },
//     replay: {
//       needsContent: false,                        // fetch the content bundle for `frames`
//       frames(entries, {file, content, snapshot}) → [frame0, frame1, …],  // one per step + the start
//       draw(frame, info) → Element,                // the board (or summary) of one frame
//       summary(frames, info) → "Red won in 7 moves",
//     },
//   });
//
// `info` is `{game, seats, content, viewerSeat, names}` — what a module needs to word things.

import { h } from "./util.js";

const GAMES = new Map();

/** Registers a game's web module (called by the module itself when imported). */
export function registerGame(def) {
  if (!def || typeof def.id !== "string" || !def.id) throw new Error("registerGame needs an id");
  GAMES.set(def.id, def);
}

/** Every registered game (fallback excluded), in their `order`. */
export function registeredGames() {
  return [...GAMES.values()].filter((g) => g.id !== "*").sort((a, b) => (a.order ?? 100) - (b.order ?? 100));
}

const titleCase = (id) => String(id).replace(/[-_]/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());

/**
 * A game's definition with every field filled in: its own where it has them, the generic
 * module's (`id: "*"`) otherwise, then plain defaults. Never null.
 */
export function gameOf(id) {
  const own = GAMES.get(id) || {};
  const generic = GAMES.get("*") || {};
  const pick = (k) => own[k] ?? generic[k];
  return {
    id,
    own: GAMES.has(id),
    title: own.title || titleCase(id),
    blurb: own.blurb || "",
    order: own.order ?? 100,
    seatName: own.seatName || ((seat) => `Player ${Number(seat) + 1}`),
    mount: pick("mount"),
    describe: own.describe || generic.describe || ((r) => (r.action && r.action.type) || "a move"),
    outcomeText: own.outcomeText || null,
    lobby: { ...(generic.lobby || {}), ...(own.lobby || {}) },
    replay: own.replay || generic.replay || null,
    debugLabel: own.debugLabel || null,
  };
}

/** A short display form of an outcome, using the game's own words when it has them. */
export function outcomeText(game, outcome, info = {}) {
  if (!outcome) return "";
  const g = gameOf(game);
  if (g.outcomeText) {
    const own = g.outcomeText(outcome, info);
    if (own) return own;
  }
  const w = outcome.winners || [];
  const names = (list) => list.map((s) => playerName(game, s, info)).join(" and ");
  if (outcome.kind === "draw") return "a draw";
  const who = w.length ? `${names(w)} won` : "no winner";
  if (outcome.kind === "timeout") return `${who} on time`;
  if (outcome.kind === "resigned") return `${who} by resignation`;
  return who;
}

/**
 * How a seat is called on the page: "You" for the viewer's own seat, the bot's name for a bot,
 * else the game's seat name ("Red", "X").
 */
export function playerName(game, seat, { viewerSeat = null, seats = [], you = true } = {}) {
  const g = gameOf(game);
  if (you && viewerSeat != null && seat === viewerSeat) return "You";
  const info = seats.find((x) => x.seat === seat);
  const base = g.seatName(seat);
  if (info && info.kind === "bot") return `${base} (${botName(info.bot)})`;
  return base;
}

/** A bot's id in words. */
export function botName(bot) {
  if (bot === "strong") return "strong bot";
  if (bot === "random") return "random bot";
  if (bot === "greedy") return "greedy bot";
  return `${String(bot || "").replace(/[-_]/g, " ")} bot`.trim();
}

let loading = null;
/**
 * Imports the web modules of the given game ids that the client has (`web/<id>.js`, listed in
 * `/web-files.json`), and the generic module. Idempotent.
 */
export function loadGameModules(ids) {
  if (!loading) loading = fetch("web-files.json").then((r) => (r.ok ? r.json() : { files: [] })).catch(() => ({ files: [] }));
  return loading.then(async ({ files }) => {
    const have = new Set(files || []);
    await import("./generic.js");
    await Promise.all(ids.filter((id) => /^[a-z0-9_-]+$/i.test(id) && have.has(`${id}.js`) && !GAMES.has(id))
      .map((id) => import(`./${id}.js`).catch((e) => console.warn(`the web module of ${id} did not load: ${e.message}`))));
  });
}

/** A small "who plays" line for headers: "You (Red) against Yellow (strong bot)". */
export function tableLine(game, snapshot, names = {}) {
  const g = gameOf(game);
  const me = snapshot.viewer && snapshot.viewer.kind === "seat" ? snapshot.viewer.seat : null;
  const named = (x) => {
    // the name the server keeps for the seat (given at creation or on joining), else this
    // browser's own name for its seat (matches created before names were kept)
    const n = x.name || names[x.seat];
    const base = g.seatName(x.seat);
    if (x.kind === "bot") return `${base} (${botName(x.bot)})`;
    if (x.kind === "open") return `${base} (a seat still open)`;
    return n ? `${n} (${base})` : base;
  };
  if (snapshot.seats.length <= 1) return me != null ? "" : "You are watching";
  if (me == null) return `You are watching ${snapshot.seats.map(named).join(" against ")}`;
  const others = snapshot.seats.filter((x) => x.seat !== me).map(named);
  return h("span", {}, "You play ", h("strong", {}, g.seatName(me)), " against ", others.join(" and "));
}
