// The page: a hash router over the lobby, "my matches", a match and its replay.
//
//   #/                          lobby: games, create a match, join by link
//   #/matches                   my matches (tokens kept in localStorage, listed by search)
//   #/match/<id>?token=T        play (a seat's token) or watch (the spectator token)
//   #/replay/<id>?token=T       the replay viewer
//
// Each game has a view module exporting `mount(root, ctx) → {update(snapshot), receipt(r), destroy()}`;
// GAMES maps a game id to it. Games without a module get the generic view (the JSON view and
// the legal actions), so a new game is playable from day one and gets its own module later.

import { Client, MatchSession, ApiError } from "./api.js";
import { h, say, clearMessages, savedTokens, saveToken, tokensFor, matchLink, replayLink, parseHash, copyText, shortRev, solvedLevels, seatName } from "./util.js";
import * as sokoban from "./sokoban.js";
import * as mnk from "./mnk.js";
import * as duel from "./duel.js";
import * as clover from "./clover.js";
import * as generic from "./generic.js";
import { mountReplay } from "./replay.js";

export const GAMES = {
  sokoban: { view: sokoban, title: "Sokoban", blurb: "Push every box onto a goal." },
  connect4: { view: mnk, title: "Connect Four", blurb: "Four in a row, with gravity." },
  tictactoe: { view: mnk, title: "Tic-Tac-Toe", blurb: "Three in a row." },
  duel: { view: duel, title: "Duel", blurb: "Two seats, cards, mana and a stack to answer." },
  clover: { view: clover, title: "clover", blurb: "Poker hands, jokers and a shop, ante by ante." },
};

const api = new Client();
const main = () => document.getElementById("main");
let current = null; // the mounted page: {destroy()}

function setConn(text, kind = "") {
  const el = document.getElementById("conn");
  if (el) { el.textContent = text; el.className = `conn ${kind}`; }
}

async function route() {
  if (current && current.destroy) current.destroy();
  current = null;
  setConn("");
  const { parts, params } = parseHash();
  const root = main();
  root.replaceChildren();
  try {
    if (parts[0] === "match" && parts[1]) current = await matchPage(root, parts[1], params.get("token"));
    else if (parts[0] === "replay" && parts[1]) current = await replayPage(root, parts[1], params.get("token"));
    else if (parts[0] === "matches") current = await myMatchesPage(root);
    else current = await lobbyPage(root);
  } catch (e) {
    root.replaceChildren(h("h1", {}, "Something went wrong"), h("p", { class: "error", role: "alert" }, e.message),
      h("p", {}, h("a", { href: "#/" }, "Back to the lobby")));
  }
  document.title = `${document.querySelector("main h1")?.textContent || "Turnstile"} — Turnstile`;
}

window.addEventListener("hashchange", async () => {
  clearMessages();
  await route();
  main().focus({ preventScroll: false }); // screen readers start at the new page
});
// The skip link must not change the hash (the hash is the route).
document.addEventListener("click", (e) => {
  if (e.target.closest && e.target.closest("a.skip")) { e.preventDefault(); main().focus(); }
});
window.addEventListener("unhandledrejection", (e) => { say(e.reason?.message || String(e.reason), "error"); });
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", route);
else route();

// ---- lobby ---------------------------------------------------------------------------------

async function lobbyPage(root) {
  root.append(h("h1", {}, "Lobby"));
  const { games } = await api.games();
  const known = games.filter((g) => g.revision);
  // Duel's presets and decks and clover's decks and stakes are in their content, not in
  // `configOptions`: read those bundles once for the create form (a failure leaves the defaults).
  const contents = {};
  await Promise.all(known.filter((g) => g.id === "duel" || g.id === "clover").map((g) =>
    api.content(g.id, g.revision).then((c) => { contents[g.id] = c; }).catch(() => {})));

  const list = h("ul", { class: "games", "aria-label": "Games on this server" }, known.map((g) => h("li", { class: "card" },
    h("h3", {}, GAMES[g.id]?.title || g.id),
    h("p", { class: "muted" }, GAMES[g.id]?.blurb || ""),
    h("dl", {},
      h("dt", {}, "revision"), h("dd", { title: g.revision }, h("code", {}, shortRev(g.revision))),
      h("dt", {}, "seats"), h("dd", {}, g.seats ? (g.seats.min === g.seats.max ? `${g.seats.min}` : `${g.seats.min}–${g.seats.max}`) : "—"),
      h("dt", {}, "bots"), h("dd", {}, botsOf(g).join(", ") || "none"),
      g.timeouts ? [h("dt", {}, "timers"), h("dd", {}, "turn timers")] : null),
    h("button", { type: "button", onclick: () => { gameSelect.value = g.id; gameSelect.dispatchEvent(new Event("change")); gameSelect.focus(); } }, `New ${GAMES[g.id]?.title || g.id} match`))));

  // create form
  const gameSelect = h("select", { id: "game", name: "game" }, known.map((g) => h("option", { value: g.id }, GAMES[g.id]?.title || g.id)));
  const options = h("div", { class: "options" });
  const seedInput = h("input", { id: "seed", name: "seed", type: "text", placeholder: "random", autocomplete: "off" });
  const result = h("div", { class: "created", "aria-live": "polite" });
  const form = h("form", { class: "create", "aria-labelledby": "create-h" },
    h("h2", { id: "create-h" }, "New match"),
    h("div", { class: "field" }, h("label", { for: "game" }, "Game"), gameSelect),
    options,
    h("div", { class: "field" }, h("label", { for: "seed" }, "Seed"), seedInput),
    h("button", { type: "submit", class: "primary" }, "Create match"),
    result);

  let getConfig = () => undefined;
  let getSeats = () => [];
  const renderOptions = () => {
    const g = known.find((x) => x.id === gameSelect.value);
    options.replaceChildren();
    if (!g) return;
    if (g.id === "sokoban") {
      const built = sokoban.levelPicker(g.configOptions, g.defaultConfig);
      options.append(built.el);
      getConfig = built.value;
    } else if (g.id === "duel" || g.id === "clover") {
      const built = (g.id === "duel" ? duel : clover).configPicker(contents[g.id], g.defaultConfig);
      options.append(built.el);
      getConfig = built.value;
    } else if (g.configOptions && g.configOptions.turnConfigs) {
      const ids = Object.keys(g.configOptions.turnConfigs);
      const def = g.configOptions.defaultTurnConfig;
      const sel = h("select", { id: "turnConfig" }, ids.map((id) => {
        const c = g.configOptions.turnConfigs[id] || {};
        const label = c.usesTimer ? `${id} — ${(c.turnDurationTicks / 10).toFixed(1)} s a turn${c.isSkippable ? ", skippable" : ""}` : `${id} — no timer`;
        return h("option", { value: id, selected: id === def }, label);
      }));
      options.append(h("div", { class: "field" }, h("label", { for: "turnConfig" }, "Turn timer"), sel));
      getConfig = () => ({ turnConfig: sel.value });
    } else if (g.defaultConfig) {
      const ta = h("textarea", { id: "config", rows: 3 }, JSON.stringify(g.defaultConfig));
      options.append(h("div", { class: "field" }, h("label", { for: "config" }, "Config (JSON)"), ta));
      getConfig = () => JSON.parse(ta.value || "null") ?? undefined;
    } else getConfig = () => undefined;
    const n = g.seats ? g.seats.max : 1;
    const bots = botsOf(g);
    const seatSelects = [];
    const fs = h("fieldset", { class: "seats" }, h("legend", {}, "Seats"));
    for (let i = 0; i < n; i++) {
      const sel = h("select", { id: `seat-${i}`, name: `seat-${i}` },
        h("option", { value: "human" }, "Human"),
        bots.map((b) => h("option", { value: `bot:${b}`, selected: i > 0 && b === "strong" && false }, `Bot: ${b}`)));
      seatSelects.push(sel);
      fs.append(h("div", { class: "field" }, h("label", { for: `seat-${i}` }, g.id === "sokoban" ? "Player" : `${seatName(g.id, i)} (seat ${i})`), sel));
    }
    options.append(fs);
    getSeats = () => seatSelects.map((sel) => sel.value === "human" ? { kind: "human" } : { kind: "bot", bot: sel.value.slice(4) });
  };
  gameSelect.addEventListener("change", renderOptions);
  renderOptions();

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      const body = { game: gameSelect.value, seats: getSeats() };
      const config = getConfig();
      if (config !== undefined) body.config = config;
      if (seedInput.value.trim()) body.seed = seedInput.value.trim();
      const created = await api.createMatch(body);
      for (const t of created.seats) if (t.token) saveToken({ matchId: created.matchId, game: created.game, token: t.token, role: "seat", seat: t.seat });
      saveToken({ matchId: created.matchId, game: created.game, token: created.spectatorToken, role: "spectator" });
      result.replaceChildren(createdLinks(created));
      result.querySelector("a.play")?.focus();
    } catch (e) {
      say(e instanceof SyntaxError ? `The config is not JSON: ${e.message}` : e.message, "error");
    } finally {
      button.disabled = false;
    }
  });

  const joinInput = h("input", { id: "join", type: "url", placeholder: "paste a match link", autocomplete: "off" });
  const join = h("form", { class: "join", "aria-labelledby": "join-h" },
    h("h2", { id: "join-h" }, "Join by link"),
    h("div", { class: "field" }, h("label", { for: "join" }, "Link"), joinInput),
    h("button", { type: "submit" }, "Join"));
  join.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const v = joinInput.value.trim();
    const i = v.indexOf("#/");
    if (i < 0) { say("That is not a match link (it should contain #/match/…).", "error"); return; }
    location.hash = v.slice(i + 1);
  });

  root.append(h("div", { class: "lobby" }, h("section", { "aria-label": "Games" }, h("h2", {}, "Games"), list), h("div", { class: "side" }, form, join)));
  return {};
}

function botsOf(g) {
  const names = ["random", ...(g.bots || [])];
  return [...new Set(names)];
}

function createdLinks(created) {
  const rows = [];
  for (const t of created.seats) {
    if (t.token) {
      const link = matchLink(created.matchId, t.token);
      rows.push(h("li", {},
        h("span", { class: "who" }, `${seatName(created.game, t.seat)} (seat ${t.seat})`),
        h("a", { class: "play", href: link, dataset: { seat: t.seat } }, "Play"),
        h("button", { type: "button", onclick: () => copyText(link, "The seat link was copied"), "aria-label": `Copy the link of seat ${t.seat}` }, "Copy link"),
        h("input", { class: "link", readonly: true, value: link, "aria-label": `Link of seat ${t.seat}`, onfocus: (e) => e.target.select() })));
    } else rows.push(h("li", {}, h("span", { class: "who" }, `${seatName(created.game, t.seat)} (seat ${t.seat})`), `bot: ${t.bot}`));
  }
  const spec = matchLink(created.matchId, created.spectatorToken);
  rows.push(h("li", {}, h("span", { class: "who" }, "Spectator"), h("a", { class: "watch", href: spec }, "Watch"),
    h("button", { type: "button", onclick: () => copyText(spec, "The spectator link was copied") }, "Copy link"),
    h("input", { class: "link", readonly: true, value: spec, "aria-label": "Spectator link", onfocus: (e) => e.target.select() })));
  return h("div", {}, h("h3", {}, `Match ${created.matchId}`),
    h("p", { class: "muted" }, "Share a seat's link with its player; anyone holding a link acts as that seat. The tokens are kept in this browser."),
    h("ul", { class: "links" }, rows));
}

// ---- my matches ----------------------------------------------------------------------------

async function myMatchesPage(root) {
  root.append(h("h1", {}, "My matches"));
  const tokens = savedTokens();
  if (!tokens.length) {
    root.append(h("p", {}, "No matches yet. ", h("a", { href: "#/" }, "Create one in the lobby"), "."));
    return {};
  }
  const { matches } = await api.search(tokens.map((t) => t.token).slice(0, 100));
  const rows = matches.map((m) => {
    const mine = tokens.filter((t) => t.matchId === m.matchId);
    const seatTok = mine.find((t) => t.role === "seat");
    const specTok = mine.find((t) => t.role === "spectator");
    const best = seatTok || specTok;
    return h("tr", {},
      h("td", {}, GAMES[m.game]?.title || m.game),
      h("td", {}, h("code", {}, m.matchId)),
      h("td", {}, m.status, m.outcome ? ` (${outcomeText(m.game, m.outcome)})` : ""),
      h("td", {}, new Date(m.createdAtMs).toLocaleString()),
      h("td", {}, m.seats.length ? m.seats.map((s) => seatName(m.game, s)).join(", ") : "spectator"),
      h("td", {}, best ? h("a", { href: matchLink(m.matchId, best.token) }, m.status === "active" ? (seatTok ? "Play" : "Watch") : "Open") : "",
        " ", best ? h("a", { href: replayLink(m.matchId, best.token) }, "Replay") : ""));
  });
  root.append(h("div", { class: "table-wrap" }, h("table", { class: "matches" },
    h("caption", { class: "sr-only" }, "Matches whose links this browser holds, newest first"),
    h("thead", {}, h("tr", {}, ["Game", "Match", "Status", "Created", "You", ""].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, rows))));
  return {};
}

export function outcomeText(game, outcome) {
  if (!outcome) return "";
  const w = outcome.winners || [];
  if (outcome.kind === "solved") return "solved";
  if (outcome.kind === "draw") return "draw";
  if (outcome.kind === "lost") return "the run is lost";
  if (outcome.kind === "wonThenLost") return "the run was won, then lost in endless play";
  const who = w.length ? w.map((s) => seatName(game, s)).join(", ") + " won" : "no winner";
  if (outcome.kind === "timeout") return `${who} on time`;
  if (outcome.kind === "resigned") return `${who} by resignation`;
  return who;
}

// ---- a match -------------------------------------------------------------------------------

async function matchPage(root, matchId, tokenParam) {
  const token = tokenParam || tokensFor(matchId)[0]?.token;
  if (!token) throw new ApiError(401, "no_token", "This link has no token. Ask for a seat's link or the spectator link.");
  const client = api.withToken(token);
  const header = h("div", { class: "match-head" });
  const body = h("div", { class: "match-body" });
  root.append(header, body);
  let view = null;
  let gone = false;
  let canResign = false;
  const session = new MatchSession(client, matchId, {
    onChange: (snap) => { renderHead(snap); if (view) view.update(snap); },
    onReceipt: (r, fromStream) => { if (view && view.receipt) view.receipt(r, fromStream); },
    onMessage: (text, kind) => say(text, kind),
    onConnection: (state, d) => !gone && setConn(state === "open" ? "● live" : state === "reconnecting" ? `○ reconnecting${d && d.delay ? ` in ${Math.ceil(d.delay / 1000)} s` : "…"}` : state === "closed" ? "○ offline" : "○ connecting…", state),
  });
  const snap = await session.start();
  // the Resign button only for games that take a resignation (`resign` in GET /games)
  canResign = await api.games().then(({ games }) => !!games.find((g) => g.id === snap.game)?.resign).catch(() => false);
  const seat = snap.viewer.kind === "seat" ? snap.viewer.seat : null;
  saveToken({ matchId, game: snap.game, token, role: seat == null ? "spectator" : "seat", seat });

  function renderHead(s) {
    const you = s.viewer.kind === "seat" ? `You are ${seatName(s.game, s.viewer.seat)} (seat ${s.viewer.seat})` : "You are watching";
    const seats = s.seats.map((x) => `${seatName(s.game, x.seat)}: ${x.kind === "bot" ? `bot (${x.bot})` : "human"}`).join(" · ");
    header.replaceChildren(
      h("h1", {}, GAMES[s.game]?.title || s.game),
      h("p", { class: "meta" }, you, " · ", h("span", {}, seats), " · match ", h("code", {}, s.matchId), " · rev ", h("code", { title: s.revision }, shortRev(s.revision))),
      h("p", { class: "meta" },
        h("span", { class: `status ${s.status}` }, s.status === "active" ? "in progress" : `${s.status}${s.outcome ? `: ${outcomeText(s.game, s.outcome)}` : ""}`),
        " · ", h("a", { href: replayLink(matchId, token) }, "Replay viewer"),
        " · ", h("button", { type: "button", class: "link-button", onclick: () => copyText(location.href, "This page's link was copied") }, "Copy this link"),
        s.viewer.kind === "seat" && s.status === "active" && canResign
          ? [" · ", h("button", { type: "button", class: "danger", onclick: async () => {
              if (!confirm("Resign this match?")) return;
              try { await client.resign(matchId); await session.refresh(); } catch (e) { say(e.message, "error"); }
            } }, "Resign")]
          : null));
  }

  renderHead(snap);
  const mod = GAMES[snap.game]?.view || generic;
  view = mod.mount(body, { session, client, matchId, token, seat, game: snap.game, snapshot: snap });
  view.update(snap);
  return { destroy() { gone = true; session.close(); if (view && view.destroy) view.destroy(); } };
}

// ---- replay --------------------------------------------------------------------------------

async function replayPage(root, matchId, tokenParam) {
  const token = tokenParam || tokensFor(matchId)[0]?.token;
  if (!token) throw new ApiError(401, "no_token", "This link has no token; the replay needs a seat's or the spectator's link.");
  return mountReplay(root, { client: api.withToken(token), matchId, token, games: GAMES, solved: solvedLevels });
}
