// The page: a hash router over the lobby, "my matches", a match, its replay and the API page.
//
//   #/                          lobby: one click to play each game, options folded away, join by link
//   #/matches                   my matches (tokens kept in localStorage, listed by search)
//   #/match/<id>?token=T        play (a seat's token) or watch (the spectator token); `&debug=1` opens the debug panel
//   #/join/<id>                 take an open seat of a match (`POST /api/v1/matches/{id}/join`)
//   #/replay/<id>?token=T       the replay viewer
//   #/replay-file               the replay viewer over a file imported in the debug panel
//   #/api                       the API, rendered from /openapi.json
//
// Games are known only through the registry (web/registry.js): each game's module registers its
// title, seat names, renderer, log lines and replay frames, so nothing here names a game.

import { Client, MatchSession, ApiError } from "./api.js";
import { h, say, clearMessages, savedTokens, saveToken, tokensFor, matchLink, replayLink, parseHash, copyText, playerNameSaved, savePlayerName, matchNames, rememberCreate, createBodyOf } from "./util.js";
import { gameOf, registeredGames, loadGameModules, outcomeText, tableLine } from "./registry.js";
import { mountReplay } from "./replay.js";
import { mountDebug } from "./debug.js";
import { mountApiPage } from "./apidoc.js";

const api = new Client();
const main = () => document.getElementById("main");
let current = null; // the mounted page: {destroy()}
let gamesList = null;

function setConn(text, kind = "") {
  const el = document.getElementById("conn");
  if (el) { el.textContent = text; el.className = `conn ${kind}`; }
}

/** The server's games (cached), with their web modules loaded. */
async function games() {
  if (!gamesList) {
    gamesList = api.games().then(async ({ games: list }) => {
      await loadGameModules(list.map((g) => g.id));
      return list;
    });
    gamesList.catch(() => { gamesList = null; });
  }
  return gamesList;
}

async function route() {
  if (current && current.destroy) current.destroy();
  current = null;
  setConn("");
  const { parts, params } = parseHash();
  const root = main();
  root.replaceChildren();
  document.body.dataset.page = parts[0] || "lobby";
  try {
    await games();
    if (parts[0] === "match" && parts[1]) current = await matchPage(root, parts[1], params.get("token"), params.get("debug") === "1");
    else if (parts[0] === "join" && parts[1]) current = await joinPage(root, parts[1]);
    else if (parts[0] === "replay-file") current = await mountReplay(root, { imported: true, games: await games() });
    else if (parts[0] === "replay" && parts[1]) current = await replayPage(root, parts[1], params.get("token"), params.get("debug") === "1");
    else if (parts[0] === "matches") current = await myMatchesPage(root);
    else if (parts[0] === "api") current = await mountApiPage(root);
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
  window.scrollTo(0, 0); // a new page opens at its top
  main().focus({ preventScroll: true }); // screen readers start at the new page
});
// The skip link must not change the hash (the hash is the route).
document.addEventListener("click", (e) => {
  if (e.target.closest && e.target.closest("a.skip")) { e.preventDefault(); main().focus(); }
});
window.addEventListener("unhandledrejection", (e) => { say(e.reason?.message || String(e.reason), "error"); });
if ("scrollRestoration" in history) history.scrollRestoration = "manual";
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", route);
else route();

// ---- lobby ---------------------------------------------------------------------------------

/** The bots a seat may be given: the game's choice, else every bot the server lists. */
function botsOf(info) {
  const g = gameOf(info.id);
  if (g.lobby.bots) return g.lobby.bots(info);
  return [...new Set(["random", ...(info.bots || [])])];
}

/** One click: the game's quick seats (one human, the strongest bot for the others). */
function quickSeats(info) {
  const g = gameOf(info.id);
  if (g.lobby.quickSeats) return g.lobby.quickSeats(info);
  const n = info.seats ? info.seats.min : 1;
  const bots = botsOf(info);
  const bot = bots.includes("strong") ? "strong" : bots[bots.length - 1];
  return Array.from({ length: n }, (_, i) => (i === 0 || !bot ? { kind: "human" } : { kind: "bot", bot }));
}

/**
 * The create body with this browser's player name on the creator's seat (the seat it opens:
 * `seat` if that is a person's, else the first person's), so the server keeps it and every seat
 * sees it (`seats[].name`). Other seats keep no name: an open seat's player names it on joining.
 */
function withCreatorName(body, seat) {
  const name = playerNameSaved().trim();
  const seats = (body.seats || []).map(({ name: _old, ...rest }) => rest);
  const mine = seats[seat] && seats[seat].kind === "human" ? seat : seats.findIndex((x) => x.kind === "human");
  if (name && mine >= 0) seats[mine] = { ...seats[mine], name };
  return { ...body, seats };
}

async function createAndGo(body, { seat = 0, invite = false } = {}) {
  body = withCreatorName(body, seat);
  const created = await api.createMatch(body);
  rememberCreate(created.matchId, body);
  for (const t of created.seats) if (t.token) saveToken({ matchId: created.matchId, game: created.game, token: t.token, role: "seat", seat: t.seat });
  saveToken({ matchId: created.matchId, game: created.game, token: created.spectatorToken, role: "spectator" });
  const mine = created.seats.find((t) => t.seat === seat && t.token) || created.seats.find((t) => t.token);
  if (!invite && mine) location.hash = new URL(matchLink(created.matchId, mine.token)).hash;
  return created;
}

async function lobbyPage(root) {
  const list = (await games()).filter((g) => g.revision);
  // games whose options come from their content bundle (decks, presets) read it once
  const contents = {};
  await Promise.all(list.filter((g) => gameOf(g.id).lobby.needsContent).map((g) =>
    api.content(g.id, g.revision).then((c) => { contents[g.id] = c; }).catch(() => {})));
  const order = (g) => gameOf(g.id).order;
  const known = list.slice().sort((a, b) => order(a) - order(b));

  root.append(h("h1", {}, "Play"),
    h("p", { class: "lede" }, "Pick a game: one click starts it against the computer. Play with a friend to get a link to send them."));
  const nameInput = h("input", { id: "player-name", type: "text", maxlength: 24, autocomplete: "nickname", placeholder: "Player", value: playerNameSaved() });
  nameInput.addEventListener("change", () => savePlayerName(nameInput.value));
  const nameBox = h("div", { class: "field player-name" }, h("label", { for: "player-name" }, "Your name"), nameInput);

  const invites = h("div", { class: "invites", "aria-live": "polite" });
  const cards = h("ul", { class: "games", "aria-label": "Games on this server" }, known.map((info) => {
    const g = gameOf(info.id);
    const multi = info.seats && info.seats.max > 1;
    const play = h("button", { type: "button", class: "primary play-now", "data-game": info.id, onclick: async () => {
      play.disabled = true;
      savePlayerName(nameInput.value);
      try {
        const body = { game: info.id, seats: quickSeats(info) };
        const config = g.lobby.quickConfig ? g.lobby.quickConfig(info, contents[info.id]) : undefined;
        if (config !== undefined) body.config = config;
        await createAndGo(body);
      } catch (e) { say(e.message, "error"); } finally { play.disabled = false; }
    } }, multi ? "Play vs computer" : "Play");
    const friend = multi ? h("button", { type: "button", class: "play-friend", "data-game": info.id, onclick: async () => {
      savePlayerName(nameInput.value);
      try {
        // the other seats are left open: anyone with the join link, or who finds the game in
        // the lobby's list of open games, takes one (POST /api/v1/matches/{id}/join)
        const n = info.seats.min;
        const body = { game: info.id, seats: Array.from({ length: n }, (_, i) => (i === 0 ? { kind: "human" } : { kind: "open" })) };
        const config = g.lobby.quickConfig ? g.lobby.quickConfig(info, contents[info.id]) : undefined;
        if (config !== undefined) body.config = config;
        const created = await createAndGo(body, { invite: true });
        invites.replaceChildren(createdLinks(created));
        invites.scrollIntoView({ block: "nearest" });
        invites.querySelector("a.play")?.focus();
      } catch (e) { say(e.message, "error"); }
    } }, "Play with a friend") : null;
    return h("li", { class: `card game-card game-${info.id}`, "data-game": info.id },
      h("div", { class: "game-art", "aria-hidden": "true" }, g.lobby.art ? g.lobby.art() : null),
      h("h2", {}, g.title),
      h("p", { class: "muted" }, g.blurb),
      h("div", { class: "row" }, play, friend));
  }));

  // the full form, folded away: game, its options, seed, each seat
  const gameSelect = h("select", { id: "game", name: "game" }, known.map((g) => h("option", { value: g.id }, gameOf(g.id).title)));
  const options = h("div", { class: "options" });
  const seedInput = h("input", { id: "seed", name: "seed", type: "text", placeholder: "random", autocomplete: "off" });
  const result = h("div", { class: "created", "aria-live": "polite" });
  const form = h("form", { class: "create", "aria-labelledby": "create-h" },
    h("div", { class: "field" }, h("label", { for: "game" }, "Game"), gameSelect),
    options,
    h("div", { class: "field" }, h("label", { for: "seed" }, "Seed"), seedInput),
    h("button", { type: "submit", class: "primary" }, "Create match"),
    result);
  const more = h("details", { class: "more-options" }, h("summary", { id: "create-h" }, "More options: choose the level, deck, rules, timer and seats"), form);

  let getConfig = () => undefined;
  let getSeats = () => [];
  const renderOptions = () => {
    const info = known.find((x) => x.id === gameSelect.value);
    options.replaceChildren();
    if (!info) return;
    const g = gameOf(info.id);
    const built = g.lobby.options ? g.lobby.options(info, contents[info.id]) : null;
    if (built) { options.append(built.el); getConfig = built.value; } else getConfig = () => undefined;
    const n = info.seats ? info.seats.max : 1;
    const bots = botsOf(info);
    const seatSelects = [];
    const fs = h("fieldset", { class: "seats" }, h("legend", {}, "Players"));
    for (let i = 0; i < n; i++) {
      const sel = h("select", { id: `seat-${i}`, name: `seat-${i}` },
        h("option", { value: "human" }, "A person (a link for them)"),
        h("option", { value: "open" }, "Open: whoever joins from the lobby"),
        bots.map((b) => h("option", { value: `bot:${b}` }, b === "random" ? "Computer (plays at random)" : `Computer (${b})`)),
        i >= (info.seats ? info.seats.min : 1) ? h("option", { value: "none" }, "Nobody (fewer players)") : null);
      // seats beyond the game's minimum start as "nobody": a Duel is two players unless asked
      if (i >= (info.seats ? info.seats.min : 1)) sel.value = "none";
      seatSelects.push(sel);
      fs.append(h("div", { class: "field" }, h("label", { for: `seat-${i}` }, n === 1 ? "Player" : g.seatName(i)), sel));
    }
    if (bots.length || n > 1) options.append(fs);
    getSeats = () => seatSelects.filter((sel) => sel.value !== "none").map((sel) => (sel.value === "human" || sel.value === "open") ? { kind: sel.value } : { kind: "bot", bot: sel.value.slice(4) });
  };
  gameSelect.addEventListener("change", renderOptions);
  renderOptions();

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    savePlayerName(nameInput.value);
    try {
      const body = { game: gameSelect.value, seats: getSeats() };
      const config = getConfig(body.seats);
      if (config !== undefined) body.config = config;
      if (seedInput.value.trim()) body.seed = seedInput.value.trim();
      const created = await createAndGo(body, { invite: true });
      result.replaceChildren(createdLinks(created));
      result.querySelector("a.play")?.focus();
    } catch (e) {
      say(e instanceof SyntaxError ? `The options are not valid JSON: ${e.message}` : e.message, "error");
    } finally {
      button.disabled = false;
    }
  });

  const joinInput = h("input", { id: "join", type: "url", placeholder: "paste the link you were sent", autocomplete: "off" });
  const join = h("form", { class: "join", "aria-labelledby": "join-h" },
    h("h2", { id: "join-h" }, "Join a friend"),
    h("div", { class: "field" }, h("label", { for: "join" }, "Link"), joinInput),
    h("button", { type: "submit" }, "Join"));
  join.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const v = joinInput.value.trim();
    const i = v.indexOf("#/");
    if (i < 0) { say("That is not a game link: it should contain #/match/… or #/join/….", "error"); return; }
    location.hash = v.slice(i + 1);
  });

  const waiting = openMatchesList(nameInput, known);
  root.append(h("div", { class: "lobby" },
    h("section", { "aria-label": "Games" }, cards, invites),
    h("div", { class: "side" }, nameBox, waiting, join, more)));
  if (gameSelect.value) more.addEventListener("toggle", () => { if (more.open) gameSelect.focus(); });
  return {};
}

/**
 * The server's open games (`GET /api/v1/matches?open=true`): each with a seat still open, its
 * game, who is at the table and a one-click "Join" that takes the seat under the name typed
 * above. Games this browser started show "Copy invite link" instead; the list refreshes every
 * few seconds while the lobby is open.
 */
function openMatchesList(nameInput, known) {
  const list = h("ul", { class: "links open-list" });
  const empty = h("p", { class: "muted" }, "No open games right now. Start one with “Play with a friend”.");
  const box = h("section", { class: "open-matches card", "aria-labelledby": "open-h", "data-testid": "open-games" },
    h("h2", { id: "open-h" }, "Open games"), empty, list);
  const titled = new Set(known.map((g) => g.id));
  const render = ({ matches }) => {
    const shown = matches.filter((m) => titled.has(m.game)).slice(0, 8);
    empty.hidden = shown.length > 0;
    list.replaceChildren(...shown.map((m) => {
      const g = gameOf(m.game);
      const mine = savedTokens().find((t) => t.matchId === m.matchId && t.role === "seat");
      const people = m.seats.filter((x) => x.kind !== "open")
        .map((x) => x.kind === "bot" ? `${g.seatName(x.seat)} (computer)` : (x.name || (mine && mine.seat === x.seat && playerNameSaved()) || g.seatName(x.seat)));
      const open = m.openSeats.length;
      const line = `${people.length ? people.join(", ") : "Nobody yet"} · ${open} of ${m.seats.length} seats open`;
      const joinLink = `${location.origin}${location.pathname}#/join/${encodeURIComponent(m.matchId)}`;
      const action = mine
        ? h("span", { class: "row" }, h("a", { href: matchLink(m.matchId, mine.token) }, "Open"),
            h("button", { type: "button", onclick: () => copyText(joinLink, "The invite link was copied") }, "Copy invite link"))
        : h("button", { type: "button", class: "primary join-open", "data-match": m.matchId, onclick: async (ev) => {
            ev.target.disabled = true;
            savePlayerName(nameInput.value);
            try { await joinAndGo(m.matchId, nameInput.value); } catch (e) { say(e.message, "error"); ev.target.disabled = false; }
          } }, "Join");
      return h("li", { "data-match": m.matchId, "data-game": m.game }, h("strong", {}, g.title), " ", h("span", { class: "muted" }, line), " ", action);
    }));
  };
  const load = () => api.request("GET", "/api/v1/matches?open=true&limit=20").then(render).catch((e) => { empty.hidden = false; empty.textContent = e.message; });
  load();
  const timer = setInterval(() => { if (!box.isConnected) clearInterval(timer); else load(); }, 3000);
  return box;
}

/** Claims the match's open seat under `name` (if any) and opens its board. */
async function joinAndGo(matchId, name) {
  const trimmed = String(name || "").trim();
  const got = await api.request("POST", `/api/v1/matches/${encodeURIComponent(matchId)}/join`, trimmed ? { name: trimmed } : {});
  saveToken({ matchId, game: got.game || "", token: got.token, role: "seat", seat: got.seat });
  location.replace(`#/match/${encodeURIComponent(matchId)}?token=${encodeURIComponent(got.token)}`);
}

function createdLinks(created) {
  const g = gameOf(created.game);
  const rows = [];
  const humans = created.seats.filter((t) => t.token);
  for (const t of created.seats) {
    const who = created.seats.length === 1 ? "You" : g.seatName(t.seat);
    if (t.token) {
      const link = matchLink(created.matchId, t.token);
      const first = t === humans[0];
      if (!first) saveToken({ matchId: created.matchId, game: created.game, token: t.token, role: "seat", seat: t.seat, invite: true });
      rows.push(h("li", {},
        h("span", { class: "who" }, who),
        h("a", { class: "play", href: link, dataset: { seat: t.seat } }, first ? "Play" : "Open this seat"),
        first ? null : h("button", { type: "button", onclick: () => copyText(link, "The invite link was copied"), "aria-label": `Copy the invite link for ${who}` }, "Copy invite link"),
        first ? null : h("input", { class: "link", readonly: true, value: link, "aria-label": `Invite link for ${who}`, onfocus: (e) => e.target.select() })));
    } else if (t.kind === "open") {
      // an open seat has no link of its own: the join link gives it to whoever comes first
      const link = `${location.origin}${location.pathname}#/join/${encodeURIComponent(created.matchId)}`;
      rows.push(h("li", {},
        h("span", { class: "who" }, who),
        h("span", { class: "muted" }, "open: listed under “Open games” "),
        h("button", { type: "button", onclick: () => copyText(link, "The invite link was copied"), "aria-label": `Copy the invite link for ${who}` }, "Copy invite link"),
        h("input", { class: "link", readonly: true, value: link, "aria-label": `Invite link for ${who}`, onfocus: (e) => e.target.select() })));
    } else rows.push(h("li", {}, h("span", { class: "who" }, who), "the computer"));
  }
  const spec = matchLink(created.matchId, created.spectatorToken);
  rows.push(h("li", {}, h("span", { class: "who" }, "Watchers"), h("a", { class: "watch", href: spec }, "Watch"),
    h("button", { type: "button", onclick: () => copyText(spec, "The link for watchers was copied") }, "Copy link"),
    h("input", { class: "link", readonly: true, value: spec, "aria-label": "Link for watchers", onfocus: (e) => e.target.select() })));
  const opens = created.seats.filter((t) => t.kind === "open").length;
  return h("div", {}, h("h3", {}, `New ${g.title} game`),
    humans.length > 1 ? h("p", { class: "muted" }, "Send each friend their seat's link; whoever holds a link plays that seat.") : null,
    opens ? h("p", { class: "muted" }, "Send a friend the invite link, or let anyone join from the lobby's “Open games”.") : null,
    h("ul", { class: "links" }, rows));
}

// ---- join ----------------------------------------------------------------------------------

/** `#/join/<id>`: claims the match's first open seat under this browser's name and opens it. */
async function joinPage(root, matchId) {
  root.append(h("h1", {}, "Joining…"));
  await joinAndGo(matchId, playerNameSaved());
  return {};
}

// ---- my matches ----------------------------------------------------------------------------

async function myMatchesPage(root) {
  root.append(h("h1", {}, "My games"));
  const tokens = savedTokens();
  if (!tokens.length) {
    root.append(h("p", {}, "No games yet. ", h("a", { href: "#/" }, "Start one"), "."));
    return {};
  }
  const { matches } = await api.search(tokens.map((t) => t.token).slice(0, 100));
  const rows = matches.map((m) => {
    const mine = tokens.filter((t) => t.matchId === m.matchId);
    const seatTok = mine.find((t) => t.role === "seat" && !t.invite) || mine.find((t) => t.role === "seat");
    const specTok = mine.find((t) => t.role === "spectator");
    const best = seatTok || specTok;
    const g = gameOf(m.game);
    return h("tr", {},
      h("td", {}, g.title),
      h("td", {}, new Date(m.createdAtMs).toLocaleString()),
      h("td", {}, m.status === "active" ? "in progress" : outcomeText(m.game, m.outcome, { viewerSeat: seatTok ? seatTok.seat : null }) || "over"),
      h("td", {}, m.seats.length ? m.seats.map((s) => g.seatName(s)).join(", ") : "watching"),
      h("td", {}, best ? h("a", { href: matchLink(m.matchId, best.token) }, m.status === "active" ? (seatTok ? "Play" : "Watch") : "Open") : "",
        " ", best ? h("a", { href: replayLink(m.matchId, best.token) }, "Replay") : ""));
  });
  root.append(h("div", { class: "table-wrap" }, h("table", { class: "matches" },
    h("caption", { class: "sr-only" }, "Games whose links this browser holds, newest first"),
    h("thead", {}, h("tr", {}, ["Game", "Started", "Result", "You play", ""].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, rows))));
  return {};
}

// ---- a match -------------------------------------------------------------------------------

async function matchPage(root, matchId, tokenParam, debugOpen) {
  const token = tokenParam || tokensFor(matchId)[0]?.token;
  if (!token) throw new ApiError(401, "no_token", "This link has no seat in it. Ask for your seat's link, or the link for watchers.");
  const client = api.withToken(token);
  const header = h("div", { class: "match-head" });
  const body = h("div", { class: "match-body" });
  root.append(header, body);
  let view = null;
  let debug = null;
  let gone = false;
  let canResign = false;
  const session = new MatchSession(client, matchId, {
    onChange: (snap) => { renderHead(snap); if (view) view.update(snap); if (debug) debug.update(snap); },
    onReceipt: (r, fromStream) => { if (view && view.receipt) view.receipt(r, fromStream); if (debug) debug.receipt(r); },
    onMessage: (text, kind) => say(text, kind),
    onConnection: (state, d) => !gone && setConn(state === "open" ? "● live" : state === "reconnecting" ? `○ reconnecting${d && d.delay ? ` in ${Math.ceil(d.delay / 1000)} s` : "…"}` : state === "closed" ? "○ offline" : "○ connecting…", state),
  });
  const snap = await session.start();
  // Fair clocks: this seat has opened the board. A timed match's clock starts when every human
  // seat has (or after the server's wait), as a logged system command (docs/turns.md).
  if (snap.viewer.kind === "seat" && snap.status === "active" && snap.sequence === 0) {
    client.request("POST", `/api/v1/matches/${encodeURIComponent(matchId)}/ready`, {})
      .then((r) => { if (r && !r.clockRunning) session.refresh().catch(() => {}); })
      .catch((e) => say(e.message, "warning"));
  }
  canResign = !!((await games()).find((x) => x.id === snap.game) || {}).resign;
  const seat = snap.viewer.kind === "seat" ? snap.viewer.seat : null;
  saveToken({ matchId, game: snap.game, token, role: seat == null ? "spectator" : "seat", seat });
  const g = gameOf(snap.game);
  const names = matchNames(matchId, seat);
  const info = (await games()).find((x) => x.id === snap.game) || {};

  function again() {
    const remembered = createBodyOf(matchId);
    const bodyOf = remembered || { game: snap.game, seats: snap.seats.map((x) => (x.kind === "bot" ? { kind: "bot", bot: x.bot } : { kind: "human" })) };
    const { seed, ...rest } = bodyOf; // a rematch is a new deal
    return createAndGo(rest, { seat: seat ?? 0 }).catch((e) => say(e.message, "error"));
  }

  function renderHead(s) {
    const over = s.status !== "active";
    const g = gameOf(s.game);
    const names = matchNames(matchId, s.viewer.kind === "seat" ? s.viewer.seat : null);
    header.replaceChildren(
      h("div", { class: "head-row" },
        h("h1", {}, g.title),
        h("p", { class: "table-line", "data-testid": "table-line" }, tableLine(s.game, s, names)),
        h("span", { class: "spacer" }),
        h("nav", { class: "match-actions", "aria-label": "This game" },
          over && s.viewer.kind === "seat" ? h("button", { type: "button", class: "primary rematch", onclick: again }, s.seats.length > 1 ? "Rematch" : "Play again") : null,
          h("a", { href: replayLink(matchId, token), class: "button-link" }, "Replay"),
          s.seats.length > 1 ? h("button", { type: "button", onclick: () => copyText(location.href.replace(/&debug=1/, ""), "The link to this seat was copied") }, "Copy link") : null,
          s.viewer.kind === "seat" && !over && canResign
            ? h("button", { type: "button", class: "danger", onclick: async () => {
                if (!confirm("Resign this game?")) return;
                try { await client.resign(matchId); await session.refresh(); } catch (e) { say(e.message, "error"); }
              } }, "Resign")
            : null,
          h("button", { type: "button", class: "debug-toggle", "aria-keyshortcuts": "~", title: "Developer tools (~)", onclick: toggleDebug }, "Debug"))),
      ...(s.clockStart ? [clockWaitLine(s, g)] : []),
      // a game's own module shows its result on its table; the generic view needs the line here
      ...(over && !g.own ? [h("p", { class: "result-line", "data-testid": "result-line" }, `Game over: ${outcomeText(s.game, s.outcome, { viewerSeat: s.viewer.seat ?? null, seats: s.seats }) || "finished"}.`)] : []));
  }

  /** "Waiting for Yellow to open the board: the clock starts when everyone is here, or in 24 s." */
  function clockWaitLine(s, g) {
    const c = s.clockStart;
    const me = s.viewer.kind === "seat" ? s.viewer.seat : null;
    const others = c.waitingFor.filter((x) => x !== me).map((x) => (s.seats.find((y) => y.seat === x) || {}).name || g.seatName(x));
    const secondsLeft = () => Math.max(0, Math.ceil((c.startsByTick - session.serverTickNow()) / s.tickRate));
    const left = h("span", { class: "left" }, `, or in ${secondsLeft()} s`);
    const el = h("p", { class: "clock-wait", "data-testid": "clock-wait", role: "status" },
      others.length ? `Waiting for ${others.join(" and ")} to open the board: ` : "Opening the board: ",
      "the clock starts when everyone is here", left, ".");
    const t = setInterval(() => { if (!el.isConnected) clearInterval(t); else left.textContent = `, or in ${secondsLeft()} s`; }, 500);
    return el;
  }

  function toggleDebug() {
    if (debug) { debug.destroy(); debug = null; return; }
    debug = mountDebug(document.body, { session, client, matchId, token, seat, game: snap.game, info, onClose: () => { debug = null; } });
    debug.update(session.snapshot);
  }
  const onKey = (ev) => {
    const t = ev.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT")) return;
    if (ev.key === "~" || ev.key === "`") { toggleDebug(); ev.preventDefault(); }
  };
  document.addEventListener("keydown", onKey);

  // While a seat is open, nobody's move announces its taker: look again every few seconds, so
  // the table shows who joined (and the clock's wait names them).
  const openPoll = setInterval(() => {
    const s = session.snapshot;
    if (gone || !s || s.status !== "active" || !s.seats.some((x) => x.kind === "open")) { clearInterval(openPoll); return; }
    session.refresh().catch(() => {});
  }, 3000);

  renderHead(snap);
  view = g.mount(body, { session, client, matchId, token, seat, game: snap.game, snapshot: snap, names, info });
  view.update(snap);
  if (debugOpen) toggleDebug();
  return { destroy() { gone = true; clearInterval(openPoll); document.removeEventListener("keydown", onKey); session.close(); if (view && view.destroy) view.destroy(); if (debug) debug.destroy(); } };
}

// ---- replay --------------------------------------------------------------------------------

async function replayPage(root, matchId, tokenParam, debugOpen) {
  const token = tokenParam || tokensFor(matchId)[0]?.token;
  if (!token) throw new ApiError(401, "no_token", "This link has no seat in it; the replay needs your seat's link or the link for watchers.");
  return mountReplay(root, { client: api.withToken(token), matchId, token, debug: debugOpen });
}
