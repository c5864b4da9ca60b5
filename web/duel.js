// Duel (docs/duel.md): both seats' health, mana, statuses, boards and discard piles; one's own
// hand face up and the other hand as backs; the phase, the preset and who holds priority; the
// stack of a response window. What can be done now comes only from `legal-actions`: playable
// cards and the End turn / Pass buttons are enabled from it, the rest are shown but inert.
// Hovering or focusing an action asks the server for a preview and shows what would change.
//
// Units have no attack action: they strike at the end of their controller's activation and
// their rows act at turn boundaries, so the board shows each unit's card, its attack and the
// health it has left, and the log tells who struck whom.

import { h, s as svgEl, say, legalAction, legalAllows } from "./util.js";
import { registerGame, botName } from "./registry.js";

export const PRESETS = ["classic-style", "hearthstone-style", "priority-window"];
const PRESET_NOTES = {
  "classic-style": "plays resolve at once",
  "hearthstone-style": "refresh and draw as phases",
  "priority-window": "plays go on a stack; the other seat may respond",
};

const CLOCK_NOTES = { untimed: "no timer", standard: "a minute a turn", blitz: "15 seconds a turn" };

/** A clock id in words, with its turn length from the content when it has one. */
function clockLabel(id, def) {
  const name = String(id).replace(/[-_]/g, " ").replace(/^./, (c) => c.toUpperCase());
  const secs = def && def.usesTimer && def.turnDurationTicks ? Math.round(def.turnDurationTicks / 10) : null;
  const note = secs ? `${secs} seconds a turn${def.forfeitAfterTimeouts ? `, out after ${def.forfeitAfterTimeouts} timeouts` : ""}` : CLOCK_NOTES[id];
  return note ? `${name}: ${note}` : name;
}

/**
 * The lobby's Duel options, from the content bundle: the phase preset, the clock and each
 * seat's deck (2–4 seats). `value(seats)` is given the seats the form will create, so a seat
 * left open for someone to join becomes a late seat (`lateSeats`): the match starts without it
 * and its player is dealt in when they join.
 */
export function configPicker(content, defaultConfig) {
  const c = content && content.bundle && content.bundle.content;
  const fromContent = c && Array.isArray(c.phases) ? c.phases.map((p) => p.sequenceId).filter(Boolean) : [];
  // the server's `configOptions` lists no presets for Duel; its content does, else the three shipped ones
  const presets = fromContent.length ? fromContent : PRESETS;
  const decks = c && c.decks ? Object.keys(c.decks).sort() : [];
  const lifecycle = (c && c.rules && c.rules.lifecycle) || {};
  const clocks = lifecycle.clocks ? Object.keys(lifecycle.clocks) : ["untimed", "standard", "blitz"];
  const def = (defaultConfig && defaultConfig.phaseSequence) || presets[0];
  const deckName = (d) => String(d).replace(/[-_]/g, " ").replace(/^./, (c) => c.toUpperCase());
  const preset = h("select", { id: "preset", name: "preset" }, presets.map((id) =>
    h("option", { value: id, selected: id === def }, PRESET_NOTES[id] ? `${presetName(id)}: ${PRESET_NOTES[id]}` : presetName(id))));
  const clock = h("select", { id: "duel-clock", name: "clock" }, clocks.map((id) =>
    h("option", { value: id, selected: id === (lifecycle.defaultClock || "untimed") }, clockLabel(id, (lifecycle.clocks || {})[id]))));
  const deckSelects = [0, 1, 2, 3].map((i) => h("select", { id: `deck-${i}`, name: `deck-${i}` },
    h("option", { value: "" }, `Default (${deckName(decks[i % Math.max(1, decks.length)] || "first deck")})`),
    decks.map((d) => h("option", { value: d }, deckName(d)))));
  const el = h("div", {},
    h("div", { class: "field" }, h("label", { for: "preset" }, "Rules"), preset),
    h("div", { class: "field" }, h("label", { for: "duel-clock" }, "Clock"), clock),
    decks.length ? h("div", { class: "deck-picker" }, deckSelects.map((sel, i) =>
      h("div", { class: "field" }, h("label", { for: `deck-${i}` }, i === 0 ? "Your deck" : `Seat ${i + 1}'s deck`), sel))) : null);
  return {
    el,
    value(seats) {
      const n = seats && seats.length ? seats.length : 2;
      const config = { phaseSequence: preset.value };
      if (clock.value && clock.value !== (lifecycle.defaultClock || "untimed")) config.clock = clock.value;
      // `decks`: one per seat when any is chosen (the content's decks in id order otherwise)
      if (decks.length && deckSelects.slice(0, n).some((s) => s.value)) config.decks = deckSelects.slice(0, n).map((s, i) => s.value || decks[i % decks.length]);
      const late = (seats || []).map((x, i) => (x.kind === "open" && i > 0 ? i : -1)).filter((i) => i > 0);
      if (late.length) config.lateSeats = late;
      return config;
    },
  };
}

const SUBJECTS = { max_mana: "maximum mana", max_health: "maximum health", mana: "mana", health: "health", attack_bonus: "attack bonus" };
/** A phase id as words: "response_window" → "Response window". */
export function phaseName(id) {
  const t = String(id || "").replace(/[-_]/g, " ");
  return t ? t[0].toUpperCase() + t.slice(1) : "";
}

/** A preset id in words: "priority-window" → "Priority window rules". */
export function presetName(id) {
  const t = String(id || "").replace(/-style$/, "").replace(/[-_]/g, " ");
  return t ? `${t[0].toUpperCase()}${t.slice(1)} rules` : "";
}

/** A small 32-bit hash of a string (FNV-1a), for a card's art: the same card always looks the same. */
function hashOf(text) {
  let x = 0x811c9dc5;
  for (const ch of String(text)) { x ^= ch.codePointAt(0); x = Math.imul(x, 0x01000193) >>> 0; }
  return x;
}

/**
 * Our own card art, drawn as SVG from the card's id and kind: a sky of the card's own hue and an
 * emblem for what it is (a sword and shield for a unit, a burst for a spell, a turning arrow for
 * a response). No image files; crisp at any size.
 */
export function cardArt(cardId, info = {}) {
  const hsh = hashOf(cardId);
  const hue = hsh % 360;
  const tags = String(info.tags || "");
  const kind = String(info.kind || "").toLowerCase();
  const id = `g${hsh.toString(36)}`;
  const emblem = /response/.test(tags)
    ? svgEl("path", { d: "M30 12a12 12 0 1 1-11 7 M19 10v9h9", fill: "none", stroke: "#fff", "stroke-width": 3.2, "stroke-linecap": "round", "stroke-linejoin": "round" })
    : kind === "unit"
      ? svgEl("g", { fill: "#fff" }, svgEl("path", { d: "M22 6 40 12v10c0 9-8 15-18 18C12 37 4 31 4 22V12Z", opacity: 0.9 }),
          svgEl("path", { d: "M21 12h2v14h4v3h-4v5h-2v-5h-4v-3h4Z", fill: `hsl(${hue} 45% 32%)` }))
      : svgEl("path", { d: "M22 4 26 17 39 14 29 23 36 35 23 28 14 38 16 25 4 20 17 17Z", fill: "#fff", opacity: 0.92 });
  return svgEl("svg", { class: "art", viewBox: "0 0 44 44", "aria-hidden": "true", preserveAspectRatio: "xMidYMid slice" },
    svgEl("defs", {}, svgEl("linearGradient", { id, x1: 0, y1: 0, x2: 1, y2: 1 },
      svgEl("stop", { offset: "0", "stop-color": `hsl(${hue} 60% 46%)` }), svgEl("stop", { offset: "1", "stop-color": `hsl(${(hue + 40) % 360} 55% 28%)` }))),
    svgEl("rect", { width: 44, height: 44, fill: `url(#${id})` }),
    svgEl("circle", { cx: 34 + (hsh % 7), cy: 9, r: 5 + (hsh % 4), fill: "#ffffff22" }),
    svgEl("g", { transform: "translate(0 1)" }, emblem));
}

function numberOf(v) {
  if (v == null) return "?";
  if (typeof v !== "object") return String(v);
  if ("int" in v) return String(v.int);
  if ("fixed" in v) return String(v.fixed / 10000);
  if ("bool" in v) return v.bool ? "yes" : "no";
  return JSON.stringify(v);
}

/**
 * The words of Duel's log and previews for one viewer: `cards` and `statuses` from the content,
 * `seat` the viewer's (null for a spectator), `view()` the current view (for units on the board
 * and the seats' standing), `seats` the snapshot's seats (bots, names given when joining) and
 * `names` this browser's own names. With two seats the other one is "Opponent"; with three or
 * four each is called by its name, or "Seat N".
 */
export function duelWords({ cards = {}, seat = null, view = () => null, seats = [], names = {}, count = null } = {}) {
  // `seats` may be a getter, so a live page's words follow the snapshot (a name given on joining)
  const seatList = () => (typeof seats === "function" ? seats() : seats) || [];
  const seatCount = () => count || ((view() && view().seats) || []).length || seatList().length || 2;
  const nameOf = (s) => {
    const info = seatList().find((x) => x.seat === s);
    const base = `Seat ${s + 1}`;
    if (info && info.kind === "bot") return `${base} (${botName(info.bot)})`;
    const n = (info && info.name) || names[s];
    return n || base;
  };
  const who = (s) => seat == null ? nameOf(s) : s === seat ? "You" : seatCount() <= 2 ? "Opponent" : nameOf(s);
  const whose = (s) => seat == null ? `${nameOf(s)}'s` : s === seat ? "Your" : seatCount() <= 2 ? "Opponent's" : `${nameOf(s)}'s`;
  // inside a sentence: "your" and "opponent's" in lower case, a name as it is
  const whoseIn = (s) => { const w = whose(s); return w === "Your" || w === "Opponent's" ? w.toLowerCase() : w; };
  const whoIn = (s) => { const w = who(s); return w === "You" || w === "Opponent" ? w.toLowerCase() : w; };
  const cardName = (id) => (cards[id] && cards[id].name) || String(id).replace(/[-_]/g, " ");
  function unitName(thing) {
    const v = view();
    for (const [i, s] of ((v && v.seats) || []).entries()) {
      const u = s.board.find((x) => x.thing === thing);
      if (u) return `${whoseIn(i)} ${cardName(u.cardId)}`;
    }
    return "a unit";
  }
  /** The seat a unit of `s` strikes when no unit stands in the way: the next seat still playing. */
  function nextFoe(s) {
    const v = view();
    const n = seatCount();
    for (let k = 1; k < n; k++) {
      const t = (s + k) % n;
      const st = v && v.seats && v.seats[t];
      if (!st || st.standing === "playing" || st.standing == null) return t;
    }
    return (s + 1) % n;
  }
  const OUT = { health_zero: "health reached 0", resign: "resigned", timeout: "ran out of time too often", did_not_join: "never joined" };

  function bearerName(t) { return t && "seat" in t ? who(t.seat) : t && "thing" in t ? unitName(t.thing) : "the table"; }
  function statusText(e) {
    return `${e.status}${e.stacks > 1 ? ` ×${e.stacks}` : ""}${e.remainingTurns != null ? ` (${e.remainingTurns} turn${e.remainingTurns === 1 ? "" : "s"})` : ""}`;
  }
  function resultText(r) {
    if (!r) return "";
    const how = { health_zero: "health reached 0", resign: "resignation", turn_limit: "turn limit", timeout: "time", did_not_join: "nobody else joined", last_standing: "last one standing" }[r.kind] || String(r.kind || "").replace(/[-_]/g, " ");
    if (!r.winners.length) return `Draw (${how}).`;
    if (seat == null || !r.winners.includes(seat) && seatCount() > 2) {
      const w = r.winners.map(nameOf).join(" and ");
      return seat == null ? `${w} wins (${how}).` : `You lose: ${w} wins (${how}).`;
    }
    return r.winners.includes(seat) ? `You win (${how})!` : `You lose (${how}).`;
  }
  function describeEvent(e) {
    switch (e.kind) {
      case "cardPlayed": return `${who(e.seat)} played ${cardName(e.card)} for ${e.cost} mana${e.stacked ? ", onto the stack" : ""}`;
      case "cardResolved": return `${cardName(e.card)} resolved`;
      case "cardDrawn": return `${who(e.seat)} drew ${e.card ? cardName(e.card) : "a card"}`;
      case "cardBurned": return `${who(e.seat)} drew ${cardName(e.card)} into a full hand: burned`;
      case "cardFizzled": return `${cardName(e.card)} fizzled`;
      // a channelled card waits a turn: its controller's next turn is a countdown, at whose end it resolves
      case "cardChanneled": return `${who(e.seat)} ${e.seat === seat ? "begin" : "begins"} channelling ${cardName(e.card)}: it resolves at the end of ${whoseIn(e.seat)} next turn`;
      case "fatigue": return `${who(e.seat)} took ${e.damage} fatigue damage`;
      case "priorityPassed": return `${who(e.seat)} passed; ${whoseIn(e.holder)} move`;
      case "statusExpired": return `${whose(e.seat)} ${e.status} ran out`;
      case "activationStarted": return `Turn ${e.turn}: ${whoseIn(e.seat)} turn`;
      case "activationEnded": return `${whose(e.seat)} turn ended`;
      case "resigned": return `${who(e.seat)} resigned`;
      case "unitAttacked": return `${whose(e.seat)} ${cardName(e.card)} struck ${e.defender != null ? unitName(e.defender) : whoIn(nextFoe(e.seat))} for ${e.damage}`;
      case "seatJoined": return `${who(e.seat)} joined the match`;
      case "seatEliminated": return `${who(e.seat)} ${e.seat === seat ? "are" : "is"} out (${OUT[e.reason] || String(e.reason || "").replace(/[-_]/g, " ")})`;
      case "turn": return turnWords(e.event);
      case "unitDied": return `${whose(e.seat)} ${cardName(e.card)} died`;
      case "matchEnded": return resultText(e.result);
      case "effects": return (e.steps || []).map((st) => {
        // in words from the content: the card's name when a card caused it; rules (refresh, draw) speak for themselves
        const [kind, id] = String(st.owner).split(":");
        const by = kind === "card" ? `${cardName(id)}: ` : "";
        const target = bearerName(st.target);
        const what = SUBJECTS[st.subject] || (st.operation === "Draw" ? "cards in hand" : String(st.subject || "").replace(/_/g, " ")) || "it";
        const before = numberOf(st.before), after = numberOf(st.after);
        if (st.operation === "Draw") return `${by}${target} drew ${Number(after) - Number(before) === 1 || before === "?" ? "a card" : `${Number(after) - Number(before)} cards`}`;
        if (st.subject === "health" && Number(after) < Number(before)) return `${by}${target} took ${Number(before) - Number(after)} damage (health ${before} → ${after})`;
        if (st.subject === "health" && Number(after) > Number(before)) return `${by}${target} healed ${Number(after) - Number(before)} (health ${before} → ${after})`;
        // the rules rebuilt from their layers may restate a bonus unchanged: nothing to say
        if (st.subject === "attack_bonus" && before === after) return "";
        if (st.subject === "attack_bonus") return `${by}${target === "You" ? "your" : `${target}'s`} striking units deal ${Number(after) - Number(before) >= 0 ? "+" : ""}${Number(after) - Number(before)} (attack bonus ${before} → ${after})`;
        return `${by}${target}: ${what} ${before} → ${after}`;
      }).filter(Boolean).join("; ") || "";
      case "phase": return (e.records || []).filter((r) => r.kind === "Transition").map((r) =>
        r.to === "response_window" ? "A response window opens" : r.from === "response_window" ? "The response window closes" : `${phaseName(r.to)} phase`).join("; ") || "";
      // an event this page does not know yet: its kind in words, never its raw fields
      default: return String(e.kind || "").replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
    }
  }
  /** The turn framework's events that a player cares about: rounds, joins, skipped turns. */
  function turnWords(t) {
    if (!t) return "";
    const kind = t.kind || t.type || Object.keys(t)[0];
    const body = t.kind || t.type ? t : t[kind] || {};
    const c = body.commander ?? body.seat ?? body.owner;
    const s = typeof c === "object" && c != null ? (c.seat ?? c[0]) : c;
    switch (kind) {
      case "roundStarted": case "RoundStarted": return `Round ${body.round ?? body.number ?? ""} begins`.replace(/ +begins/, " begins");
      case "commanderSkipped": case "CommanderSkipped": return s != null ? `${whose(s)} turn is skipped` : "A turn is skipped";
      case "commanderJoined": case "CommanderJoined": return s != null ? `${who(s)} ${s === seat ? "take" : "takes"} a seat at the table from round ${body.fromRound ?? body.round ?? "next"}` : "";
      case "commanderRemoved": case "CommanderRemoved": return s != null ? `${who(s)} ${s === seat ? "leave" : "leaves"} the turn order` : "";
      default: return "";
    }
  }
  function describeReceipt(r) {
    const a = r.action || {};
    const head = a.type === "END_TURN" ? `${who(r.seat)} ended the turn` : a.type === "SKIP" ? `${who(r.seat)} skipped the turn`
      : a.type === "JOIN" ? null : /^timeout$/i.test(a.type || "") ? "Time ran out" : /^clock_?resumed$/i.test(a.type || "") ? "The clock starts" : null;
    const evs = (r.events || []).filter((e) => e.kind !== "phase" || e.records.some((x) => x.kind === "Transition" && (x.to === "response_window" || x.from === "response_window")));
    return [head, ...evs.map(describeEvent)].filter(Boolean).join(". ") || (r.seat == null ? "The table moved on" : `${who(r.seat)} moved`);
  }
  return { who, whose, nameOf, cardName, unitName, bearerName, statusText, resultText, describeEvent, describeReceipt };
}

export function mount(root, ctx) {
  const { session, seat, client, matchId } = ctx;
  let snap = ctx.snapshot;
  let legal = null;
  let cards = {};     // cardId → {name, cost, kind, tags, text}
  let statuses = {};  // statusId → {description, ...}
  let busy = false;
  const previews = new Map(); // `${sequence}:${action}` → Promise of a preview
  let previewKey = null;

  const me = seat == null ? 0 : seat;
  const wordsOf = () => duelWords({ cards, seat, view: () => snap.view, seats: () => snap.seats, names: ctx.names || {} });
  let words = wordsOf();
  const who = (s) => words.who(s);
  const whose = (s) => words.whose(s);
  const cardName = (id) => words.cardName(id);
  const describeEvent = (e) => words.describeEvent(e);
  const describeReceipt = (r) => words.describeReceipt(r);
  const resultText = (r) => words.resultText(r);
  const statusText = (e) => words.statusText(e);
  const bearerName = (t) => words.bearerName(t);
  const lastHealth = new Map(); // "seat:i" / "thing:n" → health last drawn, to show damage landing

  const status = h("p", { class: "turn-status", "data-testid": "turn-status", "aria-live": "polite" });
  const meta = h("p", { class: "meta duel-meta", "data-testid": "duel-meta" });
  const windowBox = h("div", { class: "window-box", "data-testid": "response-window", hidden: true, role: "status" });
  // one panel per other seat (2–4 seats: a free-for-all)
  const oppPanel = h("div", { class: "duel-opponents" });
  const oppPanels = new Map(); // seat → its panel
  function opponentPanel(i) {
    if (!oppPanels.has(i)) {
      const el = h("section", { class: "duel-seat them", "data-seat": i, "aria-label": who(i) });
      oppPanels.set(i, el);
      oppPanel.append(el);
    }
    return oppPanels.get(i);
  }
  const myPanel = h("section", { class: "duel-seat me", "aria-label": seat == null ? "Seat 1" : "You" });
  const handEl = h("div", { class: "duel-hand", role: "group", "aria-label": seat == null ? "Seat 1's hand" : "Your hand" });
  const endB = h("button", { type: "button", class: "primary", "data-action": "END_TURN" }, "End turn");
  const passB = h("button", { type: "button", "data-action": "PASS_PRIORITY" }, "Pass priority");
  const skipB = h("button", { type: "button", "data-action": "SKIP" }, "Skip turn");
  const joinB = h("button", { type: "button", class: "primary", "data-action": "JOIN" }, "Join the match");
  const controls = h("div", { class: "row duel-controls" }, joinB, endB, passB, skipB);
  const controlsHome = h("div", { class: "controls-home" }, controls);
  const previewBox = h("section", { class: "duel-preview", "aria-label": "Preview", "aria-live": "polite", "data-testid": "preview" },
    h("h2", {}, "Preview"), h("p", { class: "muted" }, "Hover over or focus a card you can play, or a button, to see what it would do."));
  const log = h("ol", { class: "log", "aria-label": "What happened", reversed: true });

  const touch = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
  const frame = h("div", { class: "duel table" },
    h("div", { class: "duel-main" }, status, meta, oppPanel,
      h("div", { class: "play-area", "aria-label": "The play area" }, windowBox),
      myPanel,
      seat != null ? [h("h2", { class: "sr-only" }, "Your hand"), handEl, controlsHome] : null,
      h("p", { class: "help muted" }, seat == null ? "You are watching: both hands are hidden."
        : touch ? "Cards you can play now glow; tap one to play it. Tap End turn when you are done."
        : "Cards you can play now glow; hover one to see what it would do, click to play it (or Tab to it and press Enter).")),
    h("div", { class: "duel-side" }, previewBox, h("section", { "aria-label": "Log" }, h("h2", {}, "Log"), log)));
  root.append(frame);

  for (const b of [endB, passB, skipB, joinB]) bindAction(b, () => ({ type: b.dataset.action }), () => b.textContent);

  client.content("duel", snap.revision).then((c) => {
    const content = c && c.bundle && c.bundle.content;
    cards = (content && content.cards) || {};
    statuses = (content && content.statuses) || {};
    words = wordsOf();
    render();
    for (const li of log.children) li.textContent = describeReceipt(li._receipt);
  }).catch((e) => say(`Could not load the cards: ${e.message}`, "warning"));
  client.timelineAll(matchId, 0).then((receipts) => {
    for (const r of receipts) {
      noteSkips(r);
      if (!log.querySelector(`[data-seq="${r.sequence}"]`)) addLog(r);
    }
    render();
  }).catch((e) => say(`Could not load the log: ${e.message}`, "warning"));

  // ---- actions and previews ----

  // A preview waits a moment for the pointer or focus to settle, and a click cancels it: a
  // preview sent after the command would be judged against the next state and refused.
  let previewTimer = null;
  function bindAction(el, actionOf, labelOf) {
    el.addEventListener("click", () => { clearTimeout(previewTimer); commit(el, actionOf()); });
    const show = () => {
      clearTimeout(previewTimer);
      previewTimer = setTimeout(() => { if (el.isConnected && el.getAttribute("aria-disabled") !== "true") showPreview(actionOf(), labelOf()); }, 150);
    };
    el.addEventListener("mouseenter", show);
    el.addEventListener("focus", show);
    el.addEventListener("mouseleave", () => clearTimeout(previewTimer));
  }

  async function commit(el, action) {
    if (el.getAttribute("aria-disabled") === "true") {
      say(snap.status !== "active" ? "The match is over." : "That is not possible now.", "warning");
      return;
    }
    if (busy) return;
    busy = true;
    render();
    previewKey = null;
    previewBox.replaceChildren(h("h2", {}, "Preview"), h("p", { class: "muted" }, "Hover over or focus a card you can play, or a button, to see what it would do."));
    try { await session.send(action); } finally { busy = false; render(); }
  }

  function showPreview(action, label) {
    const key = `${snap.sequence}:${JSON.stringify(action)}`;
    previewKey = key;
    if (!previews.has(key)) previews.set(key, client.preview(matchId, action));
    const before = snap.view;
    previewBox.replaceChildren(h("h2", {}, "Preview"), h("p", { class: "muted" }, `${label}: asking the server…`));
    previews.get(key).then((p) => {
      if (previewKey !== key) return;
      const changes = diffViews(before, p.view);
      previewBox.replaceChildren(h("h2", {}, "Preview"),
        h("p", { class: "preview-title" }, h("strong", {}, label), " would:"),
        changes.length ? h("ul", { class: "changes", "data-testid": "preview-changes" }, changes.map((c) => h("li", {}, c))) : h("p", {}, "change nothing visible."),
        p.events && p.events.length ? h("details", {}, h("summary", {}, `${p.events.length} event${p.events.length === 1 ? "" : "s"}`),
          h("ul", { class: "events" }, p.events.map((e) => h("li", {}, describeEvent(e))))) : null);
    }).catch((e) => {
      previews.delete(key);
      if (previewKey === key) previewBox.replaceChildren(h("h2", {}, "Preview"), h("p", { class: "error" }, `${label}: ${e.message}`));
    });
  }

  function diffViews(a, b) {
    const out = [];
    b.seats.forEach((sb, i) => {
      const sa = a.seats[i];
      if (!sa) return;
      const w = who(i);
      const num = (field, name) => { if (sa[field] !== sb[field]) out.push(`${w}: ${name} ${sa[field]} → ${sb[field]}`); };
      num("health", "health"); num("maxHealth", "maximum health"); num("mana", "mana"); num("maxMana", "maximum mana");
      num("handCount", "cards in hand"); num("deckCount", "cards in deck"); num("fatigue", "fatigue");
      const added = (x, y) => y.filter((c) => !x.some((d) => d.thing === c.thing)).map((c) => cardName(c.cardId));
      for (const n of added(sa.board, sb.board)) out.push(`${w}: ${n} enters the board`);
      for (const u of sb.board) {
        const was = sa.board.find((x) => x.thing === u.thing);
        if (was && was.health != null && was.health !== u.health) out.push(`${w}: ${cardName(u.cardId)} health ${was.health} → ${u.health}`);
      }
      for (const n of added(sb.board, sa.board)) out.push(`${w}: ${n} leaves the board`);
      for (const n of added(sa.discard, sb.discard)) out.push(`${w}: ${n} to the discard pile`);
    });
    const st = (e) => `${e.status}@${JSON.stringify(e.bearer)}`;
    const sa = new Map(a.statuses.map((e) => [st(e), e]));
    const sb = new Map(b.statuses.map((e) => [st(e), e]));
    for (const [k, e] of sb) {
      const old = sa.get(k);
      if (!old) out.push(`${bearerName(e.bearer)}: gains ${statusText(e)}`);
      else if (old.stacks !== e.stacks || old.remainingTurns !== e.remainingTurns) out.push(`${bearerName(e.bearer)}: ${statusText(old)} → ${statusText(e)}`);
    }
    for (const [k, e] of sa) if (!sb.has(k)) out.push(`${bearerName(e.bearer)}: loses ${e.status}`);
    const stackA = a.stack.map((x) => x.item.thing).join(), stackB = b.stack.map((x) => x.item.thing).join();
    if (stackA !== stackB) out.push(b.stack.length ? `Stack: ${b.stack.map((x) => `${cardName(x.item.cardId)} (${who(x.seat)})`).join(", ")} (top last)` : "Stack: empty, everything on it resolved");
    if (a.phase !== b.phase) out.push(b.phase === "response_window" ? "A response window opens" : a.phase === "response_window" ? "The response window closes" : `${phaseName(b.phase)} phase`);
    if (a.priority !== b.priority && b.windowOpen) out.push(`${b.priority === seat ? "Your" : whose(b.priority)} move to answer`);
    if (a.active !== b.active) out.push(`${whose(b.active)} turn`);
    if (!a.result && b.result) out.push(resultText(b.result));
    return out;
  }

  /** One line per receipt: the timeline and the stream may both bring the same one. */
  function addLog(r) {
    if (log.querySelector(`[data-seq="${r.sequence}"]`)) return;
    const li = h("li", { "data-seq": r.sequence, value: r.sequence }, describeReceipt(r));
    li._receipt = r;
    const after = [...log.children].find((x) => Number(x.dataset.seq) < r.sequence);
    log.insertBefore(li, after || null);
  }

  // ---- drawing ----

  /**
   * A unit's attack and health: the card's, and on the board the health it has left and the
   * attack its seat's bonus adds (only to a unit that strikes at all, as the rules say).
   */
  function statsOf(c, bonus = 0) {
    const info = cards[c.cardId] || {};
    if (info.attack == null && info.health == null && c.health == null) return null;
    const max = info.health ?? null;
    const left = c.health ?? max;
    const base = info.attack ?? 0;
    const extra = base > 0 && bonus > 0 ? bonus : 0;
    return { attack: base + extra, extra, health: left, max, text: `attack ${base + extra}${extra ? ` (${base} + ${extra} bonus)` : ""}, health ${left ?? "?"}${max != null && left !== max ? ` of ${max}` : ""}` };
  }
  function cardFace(c, bonus = 0) {
    const info = cards[c.cardId] || {};
    const tags = String(info.tags || "").split(/\s+/).filter(Boolean);
    const st = statsOf(c, bonus);
    return [
      h("span", { class: "cost", "aria-hidden": "true" }, info.cost ?? "?"),
      cardArt(c.cardId, info),
      h("span", { class: "name" }, info.name || c.cardId),
      h("span", { class: "kind muted" }, [info.kind, ...tags.filter((t) => t !== String(info.kind || "").toLowerCase())].filter(Boolean).join(" · ")),
      h("span", { class: "text" }, info.text || ""),
      st ? h("span", { class: "unit-stats", "aria-hidden": "true" },
        h("span", { class: `atk${st.extra ? " boosted" : ""}`, title: st.extra ? `attack ${st.attack - st.extra} + ${st.extra} bonus` : "attack" }, `⚔ ${st.attack}`),
        h("span", { class: `hp${st.max != null && st.health < st.max ? " hurt" : ""}`, title: "health" }, `♥ ${st.health ?? "?"}${st.max != null && st.health !== st.max ? `/${st.max}` : ""}`)) : null,
    ];
  }
  function cardLabel(c, bonus = 0) {
    const info = cards[c.cardId] || {};
    const st = statsOf(c, bonus);
    return `${info.name || c.cardId}, ${info.kind || "card"}, cost ${info.cost ?? "?"}${info.tags ? `, ${info.tags}` : ""}${st ? `, ${st.text}` : ""}: ${info.text || ""}`;
  }
  /** Whether `key`'s health dropped since it was last drawn (damage landing: a shake and a flash). */
  function landed(key, health) {
    const was = lastHealth.get(key);
    lastHealth.set(key, health);
    return was != null && health != null && health < was;
  }
  const seenUnits = new Set();
  // seats whose turn the table skipped in the current round (stunned, or a SKIP), from the log
  const skipped = new Set();
  function noteSkips(r) {
    for (const e of r.events || []) {
      const t = e.kind === "turn" ? e.event || {} : null;
      const kind = t && (t.kind || t.type || Object.keys(t)[0]);
      if (kind === "roundStarted" || kind === "RoundStarted") skipped.clear();
      if (kind === "commanderSkipped" || kind === "CommanderSkipped") {
        const body = t.kind || t.type ? t : t[kind] || {};
        const c = body.commander ?? body.seat;
        const who = typeof c === "object" && c != null ? (c.seat ?? c[0]) : c;
        if (who != null) skipped.add(Number(who));
      }
      if (e.kind === "activationStarted") skipped.delete(e.seat);
    }
    if ((r.action || {}).type === "SKIP" && r.seat != null) skipped.add(r.seat);
  }

  function seatPanel(el, i) {
    const v = snap.view;
    const s = v.seats[i];
    const info = snap.seats.find((x) => x.seat === i);
    const mine = seat === i;
    const st = v.statuses.filter((e) => e.bearer && e.bearer.seat === i);
    const hp = Math.max(0, Math.min(100, Math.round((100 * s.health) / Math.max(1, s.maxHealth))));
    const standing = s.standing || "playing";
    const stunned = st.some((e) => e.status === "stun");
    el.classList.toggle("active", v.active === i && standing === "playing");
    el.classList.toggle("out", standing === "out");
    el.classList.toggle("waiting", standing === "waiting");
    const heading = mine ? (info && info.name) || (ctx.names && ctx.names[i]) || "You"
      : info && info.kind === "bot" ? `Seat ${i + 1}` : who(i);
    el.replaceChildren(...[
      h("h2", {}, heading,
        info && info.kind === "bot" ? h("span", { class: "muted" }, ` — ${botName(info.bot)}`) : null,
        standing === "playing" && v.active === i ? h("span", { class: "badge turn" }, mine ? "your turn" : "their turn") : null,
        standing === "playing" && v.windowOpen && v.priority === i ? h("span", { class: "badge priority" }, mine ? "your answer" : "answering") : null,
        standing === "waiting" ? h("span", { class: "badge waiting", "data-testid": `waiting-${i}` }, info && info.kind === "open" ? "seat open: waiting for a player" : mine ? "join when you are ready" : "has not joined yet") : null,
        standing === "out" ? h("span", { class: "badge out", "data-testid": `out-${i}` }, "out") : null,
        standing === "playing" && stunned ? h("span", { class: "badge stunned" }, "stunned: skips a turn") : null,
        skipped.has(i) && standing === "playing" ? h("span", { class: "badge skipped" }, "turn skipped") : null),
      h("div", { class: "duel-stats" },
        h("div", { class: `stat health${landed(`seat:${i}`, s.health) ? " damaged" : ""}`, "data-testid": `health-${i}` },
          h("span", { class: "label" }, "Health"), h("strong", {}, `${s.health}`), h("span", { class: "muted" }, ` / ${s.maxHealth}`),
          h("span", { class: "bar", role: "img", "aria-label": `${hp}% health` }, h("span", { style: `width:${hp}%` }))),
        h("div", { class: "stat mana", "data-testid": `mana-${i}` },
          h("span", { class: "label" }, "Mana"), h("strong", {}, `${s.mana}`), h("span", { class: "muted" }, ` / ${s.maxMana}`),
          h("span", { class: "pips", "aria-hidden": "true" }, Array.from({ length: s.maxMana }, (_, k) => h("span", { class: k < s.mana ? "pip full" : "pip" })))),
        h("div", { class: "stat" }, h("span", { class: "label" }, "Deck"), h("strong", {}, `${s.deckCount}`)),
        h("div", { class: "stat" }, h("span", { class: "label" }, "Discard"), h("strong", { title: s.discard.map((c) => cardName(c.cardId)).join(", ") }, `${s.discard.length}`)),
        s.fatigue ? h("div", { class: "stat" }, h("span", { class: "label" }, "Fatigue"), h("strong", {}, `${s.fatigue}`)) : null,
        // a rule on the table (Banner Bearer's): every striking unit of this seat hits harder
        s.attackBonus ? h("div", { class: "stat attack-bonus", "data-testid": `attack-bonus-${i}`, title: `${mine ? "Your" : `${whose(i)}`} striking units deal ${s.attackBonus} more` },
          h("span", { class: "label" }, "Attack"), h("strong", {}, `${s.attackBonus > 0 ? "+" : ""}${s.attackBonus}`), h("span", { class: "muted" }, " per unit")) : null),
      // a channelled spell, face up: it resolves when this seat's countdown turn ends
      s.channel ? h("p", { class: "channel", "data-testid": `channel-${i}` },
        h("span", { class: "channel-art", "aria-hidden": "true" }, cardArt(s.channel, cards[s.channel] || {})),
        h("span", {}, `${mine ? "You are" : `${who(i)} is`} channelling `, h("strong", {}, cardName(s.channel)),
          `: it resolves at the end of ${mine ? "your" : "their"} next turn${cards[s.channel] && cards[s.channel].text ? ` — ${cards[s.channel].text.replace(/^Channel:[^;]*;\s*/i, "").replace(/\.$/, "")}` : ""}.`)) : null,
      h("ul", { class: "statuses", "aria-label": `${whose(i)} statuses` }, st.length ? st.map((e) =>
        h("li", { class: `status-chip ${e.status}`, title: (statuses[e.status] && statuses[e.status].description) || "" }, statusText(e))) : h("li", { class: "muted" }, "no statuses")),
      h("div", { class: "board", role: "list", "aria-label": `${whose(i)} board` }, s.board.length
        ? s.board.map((c) => h("div", { class: `duel-card unit${landed(`thing:${c.thing}`, c.health) ? " damaged" : ""}${seenUnits.has(c.thing) ? "" : " entering"}`, role: "listitem", "aria-label": cardLabel(c, s.attackBonus || 0), "data-thing": c.thing }, cardFace(c, s.attackBonus || 0)))
        : h("p", { class: "muted empty" }, "No units.")),
      mine ? null : h("div", { class: "backs", role: "img", "aria-label": `${who(i)} holds ${s.handCount} card${s.handCount === 1 ? "" : "s"}`, "data-testid": `hand-count-${i}` },
        Array.from({ length: Math.min(s.handCount, 10) }, () => h("span", { class: "back" })), h("span", { class: "muted" }, ` ${s.handCount} in hand`)),
    ].filter(Boolean));
  }

  function render() {
    const v = snap.view;
    const over = snap.status !== "active" || v.result;
    // which sequence is drawn, and which one the enabled actions belong to (tests wait on them)
    frame.dataset.sequence = snap.sequence;
    frame.dataset.legal = legal ? legal.sequence : "";
    const canAct = seat != null && !over && !busy;
    meta.replaceChildren(`Turn ${v.turn} · `, h("strong", { "data-testid": "phase" }, phaseName(v.phase)), " phase · ",
      h("span", { "data-testid": "preset", title: PRESET_NOTES[v.sequenceId] || "" }, presetName(v.sequenceId)), PRESET_NOTES[v.sequenceId] ? `: ${PRESET_NOTES[v.sequenceId]}` : "");
    const waitingMe = seat != null && v.seats[seat] && v.seats[seat].standing === "waiting";
    if (over) status.textContent = v.result ? resultText(v.result) : `The match is ${snap.status}.`;
    else if (seat == null) status.textContent = v.windowOpen ? `${whose(v.active)} turn; ${who(v.priority)} may respond.` : `${whose(v.active)} turn.`;
    else if (waitingMe) status.textContent = "You have a seat: join the match to be dealt in.";
    else if (seat != null && v.seats[seat] && v.seats[seat].standing === "out") status.textContent = `You are out. ${whose(v.active)} turn.`;
    else if (v.windowOpen) status.textContent = v.priority === seat ? "Response window: you hold priority." : `Response window: ${who(v.priority)} ${v.seats.length > 2 ? "holds" : "holds"} priority.`;
    else status.textContent = v.active === seat ? "Your turn." : v.seats.length > 2 ? `${whose(v.active)} turn.` : "The opponent's turn.";
    status.className = `turn-status${!over && v.priority === seat ? " mine" : ""}${over ? " over" : ""}`;

    windowBox.hidden = !v.windowOpen && !v.stack.length;
    if (!windowBox.hidden) {
      const mine = v.priority === seat;
      windowBox.className = `window-box${mine ? " mine" : ""}`;
      windowBox.replaceChildren(
        h("h2", {}, mine ? "Your response" : "Response window"),
        h("p", {}, mine
          ? "You hold priority: respond with a card marked “response”, or pass. When both seats pass in a row, the top of the stack resolves."
          : `${who(v.priority)} holds priority and may respond.`),
        h("ol", { class: "stack", "aria-label": "The stack, bottom first" }, v.stack.map((x, k) =>
          h("li", { class: "stack-card" }, cardArt(x.item.cardId, cards[x.item.cardId] || {}), h("strong", {}, cardName(x.item.cardId)), ` (${who(x.seat)})`, k === v.stack.length - 1 ? h("span", { class: "badge" }, "top") : null))));
    }
    // Pass and End turn sit where the eye is: inside the response box while this seat must answer
    const home = v.windowOpen && v.priority === seat && !windowBox.hidden ? windowBox : controlsHome;
    if (seat != null && controls.parentElement !== home) home.append(controls);

    oppPanel.dataset.count = String(v.seats.length - 1);
    v.seats.forEach((_, i) => { if (i !== me) seatPanel(opponentPanel(i), i); });
    seatPanel(myPanel, me);
    for (const st of v.seats) for (const u of st.board) seenUnits.add(u.thing);

    if (seat != null) {
      const hand = v.seats[seat].hand || [];
      const focused = document.activeElement && handEl.contains(document.activeElement) ? document.activeElement.dataset.thing : null;
      handEl.replaceChildren(...(hand.length ? hand.map((c, i) => {
        const ok = canAct && legalAllows(legal, "PLAY_CARD", "hand", i);
        const tags = String((cards[c.cardId] || {}).tags || "");
        const b = h("button", {
          type: "button", class: `duel-card${ok ? " playable" : ""}${/\bresponse\b/.test(tags) ? " response" : ""}`,
          "data-hand": i, "data-thing": c.thing, "aria-disabled": ok ? "false" : "true",
          "aria-label": `${ok ? "Play" : "Cannot play now"}: ${cardLabel(c)}`,
        }, cardFace(c));
        bindAction(b, () => ({ type: "PLAY_CARD", hand: i }), () => `Play ${cardName(c.cardId)}`);
        return b;
      }) : [h("p", { class: "muted" }, "Your hand is empty.")]));
      // keep keyboard focus in the hand; a played card is gone, so its neighbour takes it
      if (focused) (handEl.querySelector(`[data-thing="${focused}"]`) || handEl.querySelector(".duel-card.playable") || handEl.querySelector(".duel-card") || endB).focus();
      for (const b of [endB, passB, skipB, joinB]) {
        const ok = canAct && !!legalAction(legal, b.dataset.action);
        b.setAttribute("aria-disabled", ok ? "false" : "true");
        b.classList.toggle("inert", !ok);
      }
      joinB.hidden = v.seats[seat].standing !== "waiting";
      skipB.hidden = !legalAction(legal, "SKIP");
      passB.classList.toggle("primary", !!(v.windowOpen && v.priority === seat));
      endB.classList.toggle("primary", !v.windowOpen);
    }
  }

  async function refreshLegal() {
    if (seat == null || snap.status !== "active") { legal = null; render(); return; }
    const at = snap.sequence;
    try {
      const l = await client.legalActions(matchId);
      if (snap.sequence === at) legal = l;
    } catch (e) { legal = null; say(e.message, "warning"); }
    render();
  }

  return {
    update(next) {
      if (next.sequence !== snap.sequence) previews.clear();
      const renamed = JSON.stringify(next.seats) !== JSON.stringify(snap.seats);
      snap = next;
      // a seat claimed or named since: the log's lines say who, so write them again
      if (renamed) for (const li of log.children) li.textContent = describeReceipt(li._receipt);
      legal = legal && legal.sequence === next.sequence ? legal : null;
      render();
      refreshLegal();
    },
    receipt(r) {
      noteSkips(r);
      addLog(r);
      const end = (r.events || []).find((e) => e.kind === "matchEnded");
      if (end) say(resultText(end.result));
    },
    destroy() { clearTimeout(previewTimer); },
  };
}

// ---- the web module contract (web/registry.js) --------------------------------------------

/** Replay frames: what the receipts establish (hands and decks are hidden; the setup is no receipt). */
function duelFrames(entries, info) {
  const content = info.content || {};
  const rules = content.rules || {};
  // as many seats as the match has (2–4): the snapshot's seats, else the highest seat the log names
  let n = (info.seats && info.seats.length) || 0;
  for (const { receipt } of entries) {
    if (receipt.seat != null) n = Math.max(n, receipt.seat + 1);
    for (const e of receipt.events || []) if (e.seat != null) n = Math.max(n, e.seat + 1);
  }
  n = Math.max(2, n);
  const late = new Set(((info.file && info.file.config) || (info.snapshot && info.snapshot.config) || {}).lateSeats || []);
  let st = { bonus: Array(n).fill(0), channel: Array(n).fill(null), health: Array.from({ length: n }, () => rules.startingHealth ?? null), standing: Array.from({ length: n }, (_, i) => (late.has(i) ? "waiting" : "playing")), turn: 1, active: 0, stack: [], result: null, phase: null };
  const out = [st];
  const stepsIn = (e) => e.kind === "effects" ? e.steps || [] : e.kind === "phase" ? (e.records || []).flatMap((r) => r.steps || r.effects || []) : [];
  for (const { receipt } of entries) {
    st = { ...st, bonus: st.bonus.slice(), channel: st.channel.slice(), health: st.health.slice(), standing: st.standing.slice(), stack: st.stack.slice() };
    for (const e of receipt.events || []) {
      for (const step of stepsIn(e)) {
        if (step.subject === "health" && step.target && "seat" in step.target && step.after && "int" in step.after) st.health[step.target.seat] = step.after.int;
        if (step.subject === "attack_bonus" && step.target && "seat" in step.target && step.after && "int" in step.after) st.bonus[step.target.seat] = step.after.int;
      }
      if (e.kind === "cardChanneled") st.channel[e.seat] = e.card;
      if (e.kind === "cardResolved" && st.channel[e.seat] === e.card) st.channel[e.seat] = null;
      if (e.kind === "activationStarted") { st.turn = e.turn; st.active = e.seat; }
      if (e.kind === "cardPlayed" && e.stacked) st.stack.push({ card: e.card, seat: e.seat });
      if ((e.kind === "cardResolved" || e.kind === "cardFizzled") && st.stack.length) st.stack.pop();
      if (e.kind === "activationEnded") st.stack = [];
      if (e.kind === "phase") for (const r of e.records || []) if (r.kind === "Transition" || r.kind === "Entered") st.phase = r.to;
      if (e.kind === "matchEnded") st.result = e.result;
      if (e.kind === "seatJoined") st.standing[e.seat] = "playing";
      if (e.kind === "seatEliminated") st.standing[e.seat] = "out";
    }
    out.push(st);
  }
  return out;
}

function drawDuelFrame(x, info) {
  const cards = (info.content && info.content.cards) || {};
  const words = duelWords({ cards, seat: info.viewerSeat, seats: info.seats || [], count: x.health.length });
  const seatBox = (i) => {
    const max = ((info.content || {}).rules || {}).startingHealth || 30;
    const hp = x.health[i];
    const standing = (x.standing && x.standing[i]) || "playing";
    return h("div", { class: `duel-seat mini${x.active === i ? " active" : ""}${standing === "out" ? " out" : ""}`, "data-seat": i },
      h("strong", {}, words.who(i)), x.active === i && standing === "playing" ? h("span", { class: "badge turn" }, "to act") : null,
      standing === "waiting" ? h("span", { class: "badge waiting" }, "not joined yet") : standing === "out" ? h("span", { class: "badge out" }, "out") : null,
      h("div", { class: "stat health" }, h("span", { class: "label" }, "Health"), h("strong", {}, `${hp ?? "?"}`),
        h("span", { class: "bar" }, h("span", { style: `width:${hp == null ? 0 : Math.max(0, Math.min(100, Math.round((100 * hp) / max)))}%` }))),
      x.bonus && x.bonus[i] ? h("div", { class: "stat attack-bonus" }, h("span", { class: "label" }, "Attack"), h("strong", {}, `+${x.bonus[i]}`), h("span", { class: "muted" }, " per unit")) : null,
      x.channel && x.channel[i] ? h("p", { class: "channel" }, "Channelling ", h("strong", {}, words.cardName(x.channel[i]))) : null);
  };
  // the viewer's seat at the bottom edge, everyone else around the top, as at the live table
  const me = info.viewerSeat != null && info.viewerSeat < x.health.length ? info.viewerSeat : 0;
  const others = x.health.map((_, i) => i).filter((i) => i !== me);
  return h("div", { class: "duel-replay", "data-testid": "replay-summary", "aria-label": "The table at this step" },
    h("div", { class: "duel-opponents", "data-count": String(others.length) }, others.map(seatBox)),
    h("div", { class: "play-area" }, h("p", {}, `Turn ${x.turn}${x.phase ? ` · ${phaseName(x.phase)} phase` : ""}`),
      x.stack.length ? h("ol", { class: "stack" }, x.stack.map((it) => h("li", { class: "stack-card" }, cardArt(it.card, cards[it.card] || {}), h("strong", {}, words.cardName(it.card)), ` (${words.who(it.seat)})`)))
        : h("p", { class: "muted" }, "Nothing on the stack."),
      x.result ? h("p", { class: "result-line" }, words.resultText(x.result)) : null),
    seatBox(me));
}

registerGame({
  id: "duel",
  title: "Duel",
  blurb: "A card duel: mana, units, spells, and answers on the stack.",
  order: 40,
  seatName: (seat) => `Seat ${seat + 1}`,
  mount,
  describe: (r, info) => duelWords({ cards: (info.content && info.content.cards) || {}, seat: info.viewerSeat, seats: info.seats || [] }).describeReceipt(r),
  outcomeText: (o, info) => {
    const w = (o && o.winners) || [];
    if (!w.length) return o && o.kind ? "a draw" : "";
    if (info && info.viewerSeat != null) return w.includes(info.viewerSeat) ? "you won" : "you lost";
    return `${w.map((x) => `seat ${x + 1}`).join(" and ")} won`;
  },
  lobby: {
    needsContent: true,
    quickSeats: () => [{ kind: "human" }, { kind: "bot", bot: "strong" }],
    options: (gameInfo, content) => configPicker(content, gameInfo.defaultConfig),
    art: () => h("div", { class: "art-fan" }, ["spark", "guard", "mend"].map((id, i) => h("span", { class: "fan-card", style: `--i:${i}` }, cardArt(id, { kind: i === 1 ? "unit" : "spell" })))),
  },
  replay: { needsContent: true, frames: duelFrames, draw: drawDuelFrame },
});
