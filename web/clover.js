// clover (docs/clover.md): the run's counters, the boss and its effect, the jokers row, the
// consumables, the hand to select from, the shop, and the score of each played hand rebuilt
// step by step from the command's resolution (`GET .../resolutions/{commandId}`), lighting up
// each joker as its step comes. Every button is enabled from `legal-actions` and the server
// judges the rest (money, slots, how many cards): its refusal is shown as it words it. Names,
// costs and texts come from the content's catalog; offers or view fields this page does not know
// (booster packs, stickers, whatever the game grows next) are shown by name with the same Buy
// button, or listed as they are.

import { h, s as svgEl, say, legalAction, legalAllows } from "./util.js";
import { registerGame } from "./registry.js";

const RANKS = { 11: "J", 12: "Q", 13: "K", 14: "A" };
const SUITS = { spades: ["♠", "dark"], hearts: ["♥", "red"], clubs: ["♣", "dark"], diamonds: ["♦", "red"] };
// HandType order (games/clover/src/hands.rs): the index of `levels` and of `hand.type`
export const HANDS = ["high_card", "pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house", "four_of_a_kind", "straight_flush", "five_of_a_kind", "flush_house", "flush_five"];
const KNOWN_VIEW = new Set(["phase", "ante", "blind", "target", "scored", "money", "handsLeft", "discardsLeft", "hand", "deckCount", "deckSize", "jokers", "consumables", "shop", "packs", "pack", "levels", "boss", "won", "tags", "vouchers", "stake", "deckId", "rerollCost", "blinds", "bossRerollCost", "roundTargets", "shopPrices", "packPrices", "tagCopies"]);
// Jokers that read one of the round's targets (`roundTargets`, docs/clover.md "Round targets"):
// each shows what it looks for this round.
const ROUND_TARGET = {
  effigy: (t) => `${rankText(t.cardRank)}${SUITS[t.cardSuit][0]}`,
  relic: (t) => `${t.suit} ${SUITS[t.suit][0]}`,
  keep: (t) => `${t.discardSuit} ${SUITS[t.discardSuit][0]}`,
  rebate: (t) => `rank ${rankText(t.discardRank)}`,
  errand_list: (t) => handName(t.hand),
};
const JOKER_FIELDS = new Set(["id", "edition", "counter", "rarity", "copies", "eternal", "perishable", "rental", "sellValue", "disabled"]);
// thing ids of a score's steps (games/clover/src/state.rs): played cards, held cards, joker slots
const PLAYED = 1000, HELD = 2000, SLOT = 3000;

export function handName(id) {
  if (!id) return "nothing";
  // camelCase ids split at every capital: "threeOfAKind" → "Three of a kind" (not "akind")
  return id.replace(/_/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2").replace(/([A-Z])([A-Z])/g, "$1 $2").toLowerCase().replace(/^./, (c) => c.toUpperCase());
}
const rankText = (r) => RANKS[r] || String(r);
export function cardText(c) {
  if (c == null) return "Face-down card";
  const suit = SUITS[c.suit] ? SUITS[c.suit][0] : c.suit;
  const marks = [c.enhancement, c.edition, c.seal && c.seal !== "none" ? `${c.seal} seal` : null].filter((m) => m && m !== "none");
  return `${c.enhancement === "stone" ? "Stone card" : `${rankText(c.rank)}${suit}`}${marks.length ? ` (${marks.join(", ")})` : ""}${c.permaBonus ? ` +${c.permaBonus} chips` : ""}`;
}

/** The catalog of a clover content bundle (`catalog.tsv`): `kind:id` → {kind, id, name, cost, rarity, text}. */
export function catalogOf(content) {
  const files = content && content.bundle && content.bundle.content;
  const entry = Array.isArray(files) && files.find((f) => Array.isArray(f) && /(^|\/)catalog\.tsv$/.test(f[0]));
  const out = {};
  if (!entry) return out;
  const [head, ...rows] = entry[1].split(/\r?\n/).filter((l) => l.trim());
  const cols = head.split("\t");
  for (const line of rows) {
    const cells = line.split("\t");
    const row = Object.fromEntries(cols.map((c, i) => [c, cells[i] ?? ""]));
    out[`${row.kind}:${row.id}`] = { ...row, cost: row.cost === "" ? null : Number(row.cost), rarity: Number(row.rarity) || 0 };
  }
  return out;
}

/** The lobby's clover options: the deck and the stake, named from the catalog. */
export function configPicker(content, defaultConfig) {
  const cat = catalogOf(content);
  const def = defaultConfig || { deck: "plain", stake: 1 };
  const decks = Object.values(cat).filter((e) => e.kind === "deck");
  const deck = h("select", { id: "clover-deck", name: "deck" }, (decks.length ? decks : [{ id: def.deck, name: def.deck, text: "" }]).map((d) =>
    h("option", { value: d.id, selected: d.id === def.deck }, `${d.name}${d.text ? ` — ${d.text}` : ""}`)));
  // stakes are numbered 1..8 in CloverConfig; the catalog names those that have rules (s1, s2, …)
  const stake = h("select", { id: "clover-stake", name: "stake" }, Array.from({ length: 8 }, (_, i) => {
    const e = cat[`stake:s${i + 1}`];
    return h("option", { value: i + 1, selected: i + 1 === Number(def.stake) }, `${i + 1}${e ? ` — ${e.name}: ${e.text}` : ""}`);
  }));
  return {
    el: h("div", {},
      h("div", { class: "field" }, h("label", { for: "clover-deck" }, "Deck"), deck),
      h("div", { class: "field" }, h("label", { for: "clover-stake" }, "Stake"), stake)),
    value: () => ({ deck: deck.value, stake: Number(stake.value) }),
  };
}

/** A shop offer is `kind:id`, or `{item: "kind:id", stickers}` once offers carry stickers. */
const offerRef = (o) => (o && typeof o === "object" ? o.item : o);

/** A joker's or an offer's stickers (eternal, perishable with its rounds left, rental) as words. */
export function stickerText(x) {
  const s = (x && (x.stickers || x)) || {};
  // an offer's edition rides with its stickers (an owned joker shows its edition on its own)
  const edition = x && x.stickers && x.stickers.edition && x.stickers.edition !== "none" ? x.stickers.edition : null;
  return [edition, s.eternal ? "eternal" : null,
    s.perishable === true ? "perishable" : typeof s.perishable === "number" ? `perishable (${s.perishable} round${s.perishable === 1 ? "" : "s"} left)` : null,
    s.rental ? "rental" : null].filter(Boolean);
}

/** A number of a step (`{int}` or `{fixed}` in ten-thousandths) as shown. */
function num(v) {
  if (v == null) return "";
  if (typeof v !== "object") return String(v);
  if ("int" in v) return String(v.int);
  if ("fixed" in v) return String(v.fixed / 10000);
  if ("bool" in v) return v.bool ? "yes" : "no";
  return JSON.stringify(v);
}

/**
 * What a scored hand's event carries: the hand, the score, and — when the game records them —
 * chips, mult (ten-thousandths) and the steps. Accepts the score flat on the event or nested
 * as `score: {score, chips, mult, steps}` (the shape of the calculator's receipt).
 */
export function scoreOf(event) {
  const s = event.score && typeof event.score === "object" ? event.score : event;
  return {
    hand: event.hand ?? s.hand ?? null,
    score: typeof s.score === "number" ? s.score : Number(s.score),
    chips: s.chips ?? null,
    mult: s.mult ?? null,
    steps: Array.isArray(s.steps) ? s.steps : Array.isArray(event.steps) ? event.steps : null,
    total: event.total ?? null,
    notAllowed: !!s.notAllowed,
  };
}

/**
 * Which running value a step changes: "chips" (integers), "mult" (fixed point), or "other"
 * (retriggers, money, counters, destroyed cards). A step names its subject when it is not the
 * hand's chips or mult.
 */
export function stepRole(step) {
  if (step.subject) return "other";
  if (step.after && typeof step.after === "object" && "fixed" in step.after) return /Mult/.test(step.operation || "") || step.operation === "Custom" ? "mult" : "other";
  if (step.after && typeof step.after === "object" && "int" in step.after) return /Chips/.test(step.operation || "") || step.operation === "Base" || step.operation === "Custom" ? "chips" : "other";
  return "other";
}

function hashOf(text) {
  let x = 0x811c9dc5;
  for (const ch of String(text)) { x ^= ch.codePointAt(0); x = Math.imul(x, 0x01000193) >>> 0; }
  return x;
}

/** Our own joker art as SVG: a jester's face under a three-pointed cap, in the joker's own colours. */
export function jokerArt(id) {
  const x = hashOf(id);
  const hue = x % 360, hue2 = (hue + 150 + (x >> 9) % 60) % 360;
  const grin = 18 + (x >> 4) % 6;
  return svgEl("svg", { class: "joker-art", viewBox: "0 0 40 40", "aria-hidden": "true" },
    svgEl("rect", { width: 40, height: 40, rx: 5, fill: `hsl(${hue} 55% 22%)` }),
    svgEl("path", { d: "M6 17 11 4 17 14 20 3 23 14 29 4 34 17Z", fill: `hsl(${hue} 70% 52%)` }),
    svgEl("path", { d: "M17 14 20 3 23 14Z", fill: `hsl(${hue2} 70% 55%)` }),
    svgEl("circle", { cx: 11, cy: 4, r: 2, fill: "#f4d35e" }), svgEl("circle", { cx: 20, cy: 3, r: 2, fill: "#f4d35e" }), svgEl("circle", { cx: 29, cy: 4, r: 2, fill: "#f4d35e" }),
    svgEl("ellipse", { cx: 20, cy: 25, rx: 12, ry: 11, fill: "#f6eedf" }),
    svgEl("circle", { cx: 15.5, cy: 23, r: 1.7, fill: "#222" }), svgEl("circle", { cx: 24.5, cy: 23, r: 1.7, fill: "#222" }),
    svgEl("path", { d: `M13 28q7 ${grin - 22 + 6} 14 0`, fill: "none", stroke: `hsl(${hue2} 60% 40%)`, "stroke-width": 2, "stroke-linecap": "round" }));
}

const OWNER_KINDS = { enhancement: "", edition: "", seal: " seal", boss: "", hand: "", tag: "", voucher: "", stake: "", deck: "" };

/**
 * A score step in words, from content names: who acted ("Flush", "7♥", "Rose Pin", "Glass 8♦")
 * and what changed ("base chips 0 → 50", "+3 mult (3 → 6)", "×2 mult (6 → 12)", "plays again").
 * No row numbers, no operation names.
 */
export function stepWords(step, { played = [], held = [], nameOf = () => null } = {}) {
  const [kind, id = ""] = String(step.owner).split(":");
  const t = step.anchor && step.anchor.thing;
  const card = t >= PLAYED && t < HELD ? played[t - PLAYED] : t >= HELD && t < SLOT ? held[t - HELD] : null;
  const cardWords = card ? cardText(card).replace(/ \(.*\)$/, "") : null;
  const plain = (x) => x.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
  let who;
  if (kind === "card") who = cardWords ? `${cardWords}${t >= HELD && t < SLOT ? " (held)" : ""}` : "A card";
  else if (kind === "hand") who = handName(id);
  else if (kind in OWNER_KINDS) who = `${nameOf(step.owner) || plain(id)}${OWNER_KINDS[kind]}${cardWords ? ` on ${cardWords}` : ""}`;
  else who = nameOf(step.owner) || plain(id || kind);
  const role = stepRole(step);
  const b = num(step.before), a = num(step.after);
  const op = String(step.operation || "");
  const diff = (x, y) => { const d = Number(y) - Number(x); return Number.isFinite(d) ? (Math.round(d * 10000) / 10000) : null; };
  const ratio = (x, y) => (Number(x) ? Math.round((Number(y) / Number(x)) * 100) / 100 : null);
  let what;
  if (role === "chips") {
    if (op === "Base") what = `base chips ${b} → ${a}`;
    else if (/Halve/.test(op)) what = `chips halved (${b} → ${a})`;
    else { const d = diff(b, a); what = `${d >= 0 ? "+" : ""}${d} chips (${b} → ${a})`; }
  } else if (role === "mult") {
    if (op === "BaseMult") what = `base mult ${a}`;
    else if (/Halve/.test(op)) what = `mult halved (${b} → ${a})`;
    else if (/^Mul/.test(op)) what = `×${ratio(b, a)} mult (${b} → ${a})`;
    else { const d = diff(b, a); what = `${d >= 0 ? "+" : ""}${d} mult (${b} → ${a})`; }
  } else if (op === "Retrigger") what = "plays again";
  else if (op === "Destroy") what = "breaks";
  else if (step.subject === "money" || /Money/.test(op)) { const d = diff(b, a); what = `${d >= 0 ? "+" : "−"}$${Math.abs(d)}`; }
  else if (step.subject === "counter" || op === "ScaleSelf") what = `grows (${b} → ${a})`;
  else what = `${String(step.subject || "value").replace(/_/g, " ")} ${b} → ${a}`;
  return { who, what };
}

export function mount(root, ctx) {
  const { session, seat, client, matchId } = ctx;
  let snap = ctx.snapshot;
  let legal = null;
  let cat = {};
  let busy = false;
  let selected = new Set(); // indices into the hand
  let handKey = "";         // the hand the selection belongs to
  const history = [];       // this run's scored hands, from the timeline: {hand, score}
  const tagsTaken = [];     // tags taken by skipping blinds, from the timeline: {sequence, tag}
  let animation = null;
  let scoredHold = null;    // while a score animates, the blind's total before it (the bar counts up at the end)
  let counting = 0;         // scores played and not yet counted up: the cash-out waits for them
  let cashOut = null;       // a beaten blind's payout, shown before the shop: {blind, score, target, before, after}
  let sortBy = "rank";      // the hand's order on screen (the rules' order is the view's)

  const bar = h("dl", { class: "clover-bar", "data-testid": "run-bar" });
  const bossBox = h("p", { class: "boss-box", "data-testid": "boss", hidden: true });
  const jokersEl = h("div", { class: "jokers", role: "list", "aria-label": "Jokers" });
  const consumablesEl = h("div", { class: "consumables", role: "list", "aria-label": "Consumables" });
  const stage = h("section", { class: "clover-stage", "aria-label": "Now" });
  const scoreBox = h("section", { class: "score-box", "aria-label": "Last hand's score", "data-testid": "score-box" },
    h("h2", {}, "Score"), h("p", { class: "muted" }, "Play a hand to see it scored, step by step."));
  const previewBox = h("p", { class: "clover-preview muted", "aria-live": "polite", "data-testid": "preview" });
  const extras = h("div", { class: "clover-extras" });
  const levels = h("details", { class: "levels" });

  root.append(h("div", { class: "clover table" },
    h("div", { class: "clover-main" }, bar, bossBox,
      h("h2", {}, "Jokers"), jokersEl,
      h("h2", {}, "Consumables"), consumablesEl,
      stage, extras),
    h("div", { class: "clover-side" }, scoreBox, levels)));

  client.content("clover", snap.revision).then((c) => { cat = catalogOf(c); render(); })
    .catch((e) => say(`Could not load the catalog: ${e.message}`, "warning"));
  client.timelineAll(matchId, 0).then((receipts) => {
    for (const r of receipts) noteHistory(r);
    render();
  }).catch((e) => say(`Could not load the run so far: ${e.message}`, "warning"));

  const entry = (ref) => cat[ref] || null;
  const nameOf = (ref) => (entry(ref) && entry(ref).name) || (String(ref).split(":")[1] || String(ref)).replace(/_/g, " ");
  // A kind is open when listed; a slot or index of it only when its parameter's range (the
  // slots the rules accept now: affordable, with room, not eternal) holds the value.
  const can = (kind, param, value) => seat != null && !busy && snap.status === "active" && !!legalAction(legal, kind)
    && (param == null || legalAllows(legal, kind, param, value));

  const noted = new Set(); // receipts already counted (the timeline and the stream overlap)
  function noteHistory(r) {
    if (noted.has(r.sequence)) return;
    noted.add(r.sequence);
    for (const e of r.events || []) {
      if (e.type === "handScored") history.push({ sequence: r.sequence, hand: e.hand, score: scoreOf(e).score });
      if (e.type === "blindSkipped") tagsTaken.push({ sequence: r.sequence, tag: e.tag });
    }
  }

  async function send(action) {
    if (busy) return null;
    busy = true;
    render();
    try { return await session.send(action); } finally { busy = false; render(); }
  }

  /**
   * A button for one legal action kind; `ready` is `true`, or — while the action lacks its
   * input (no cards selected) — `false` or the sentence that says what is missing.
   */
  function actionButton(label, kind, action, attrs = {}, ready = true) {
    const param = action && typeof action === "object" ? ["slot", "index"].find((k) => k in action) : undefined;
    const missing = ready === true ? null : typeof ready === "string" ? ready : "Select the cards first.";
    ready = ready === true;
    const ok = can(kind, param, param ? action[param] : undefined) && ready;
    return h("button", {
      type: "button", ...attrs, "data-action": kind, "aria-disabled": ok ? "false" : "true", class: `${attrs.class || ""}${ok ? "" : " inert"}`,
      onclick: () => {
        if (!ok && ready) { say(snap.status !== "active" ? "The run is over." : whyNot(label, kind, action), "warning"); return; }
        if (!ready) { say(missing, "warning"); return; }
        send(typeof action === "function" ? action() : action);
      },
    }, label);
  }

  /** Why an action is unavailable, in the player's terms (the server's legal actions said no). */
  function whyNot(label, kind, action) {
    const v = snap.view;
    if (busy) return "One moment: the last move is still on its way.";
    const slot = action && typeof action === "object" ? action.slot ?? action.index : null;
    if (kind === "buy" || kind === "openPack") {
      const ref = kind === "buy" ? offerRef(v.shop[slot]) : v.packs && v.packs[slot];
      const price = ref ? priceOf(kind === "buy" ? "shop" : "packs", slot) : null;
      if (price != null && price > v.money) return `${nameOf(ref)} costs $${price}; you have $${v.money}.`;
      if (kind === "buy" && ref && String(ref).startsWith("joker:")) return "Your joker row is full: sell a joker first.";
      if (ref) return "There is no room for it: use or sell something first.";
    }
    if (kind === "sell") { const j = v.jokers[slot]; if (j && j.eternal) return `${nameOf(`joker:${j.id}`)} is eternal: it can't be sold.`; }
    if (kind === "reroll" && v.rerollCost != null && v.rerollCost > v.money) return `A reroll costs $${v.rerollCost}; you have $${v.money}.`;
    if (kind === "discard" && v.discardsLeft === 0) return "No discards left in this blind.";
    if (kind === "use") return "That card can't be used right now.";
    return `${label} is not possible right now.`;
  }

  // ---- the hand ----

  function playingCard(c, i, { pressed = null, onclick = null, cls = "", pos = null } = {}) {
    if (c == null) {
      // a boss drew it face down: the view says nothing of it, so neither does the card
      const attrs = { class: `pcard facedown${cls}`, "data-index": i, "aria-label": cardText(c), ...(pos != null ? { "data-pos": pos + 1 } : {}) };
      const body = [h("span", { class: "back", "aria-hidden": "true" }, "✤")];
      if (!onclick) return h("span", { ...attrs, role: "img" }, body);
      return h("button", { ...attrs, type: "button", "aria-pressed": pressed ? "true" : "false", onclick }, body);
    }
    const [glyph, colour] = SUITS[c.suit] || [c.suit, "dark"];
    const attrs = {
      class: `pcard ${colour} enh-${c.enhancement} ed-${c.edition} seal-${c.seal}${cls}`,
      "data-index": i,
      "aria-label": cardText(c),
      ...(pos != null ? { "data-pos": pos + 1 } : {}),
    };
    const body = [
      h("span", { class: "rank", "aria-hidden": "true" }, c.enhancement === "stone" ? "▧" : rankText(c.rank)),
      h("span", { class: "suit", "aria-hidden": "true" }, c.enhancement === "stone" ? "" : glyph),
      c.enhancement !== "none" ? h("span", { class: "mark enh", "aria-hidden": "true", title: c.enhancement }, c.enhancement) : null,
      c.edition !== "none" ? h("span", { class: "mark ed", "aria-hidden": "true", title: c.edition }, c.edition) : null,
      c.seal !== "none" ? h("span", { class: `mark seal ${c.seal}`, "aria-hidden": "true", title: `${c.seal} seal` }, "●") : null,
    ];
    if (!onclick) return h("span", { ...attrs, role: "img" }, body);
    return h("button", { ...attrs, type: "button", "aria-pressed": pressed ? "true" : "false", onclick }, body);
  }

  /** The hand's indices in the order shown: by rank (high first) or by suit, then rank;
   * face-down cards last, in the order drawn. */
  function shownOrder(hand) {
    const idx = hand.map((_, i) => i);
    const suitOrder = ["spades", "hearts", "clubs", "diamonds"];
    const down = (c) => (c == null ? 1 : 0);
    const rank = (c) => (c.enhancement === "stone" ? -1 : Number(c.rank) || 0);
    const suit = (c) => { const k = suitOrder.indexOf(c.suit); return k < 0 ? 9 : k; };
    return idx.sort((a, b) => {
      const x = hand[a], y = hand[b];
      if (down(x) || down(y)) return down(x) - down(y) || a - b;
      const d = sortBy === "suit" ? suit(x) - suit(y) || rank(y) - rank(x) : rank(y) - rank(x) || suit(x) - suit(y);
      return d || a - b;
    });
  }

  /** A beaten blind's cash-out: the score against the target, the payout, then on to the shop. */
  function cashOutScreen(v) {
    const c = cashOut;
    const paid = c.after - c.before;
    // on a narrow screen the score box, below, was brought into view as it counted: bring the
    // cash-out up now, once, so the payout is seen
    if (!c.shown && window.innerWidth < 720) {
      c.shown = true;
      const reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
      requestAnimationFrame(() => stage.querySelector(".cash-out")?.scrollIntoView({ block: "nearest", behavior: reduced ? "auto" : "smooth" }));
    }
    return h("div", { class: "cash-out", "data-testid": "cash-out", role: "dialog", "aria-labelledby": "cash-h" },
      h("h2", { id: "cash-h" }, `${c.blindName} beaten!`),
      h("dl", {},
        h("dt", {}, "Scored"), h("dd", {}, `${c.score} of ${c.target}`),
        h("dt", {}, "Hands left"), h("dd", {}, String(c.handsLeft)),
        h("dt", {}, "Payout"), h("dd", { class: "payout", "data-testid": "payout" }, `+$${paid}`),
        h("dt", {}, "Money"), h("dd", {}, `$${c.before} → $${c.after}`)),
      h("button", { type: "button", class: "primary", "data-action": "cashOut", onclick: () => { cashOut = null; render(); stage.querySelector("[data-action=leaveShop], [data-action=selectBlind]")?.focus(); } },
        v.phase === "shop" ? "Cash out and go to the shop" : "Cash out"));
  }

  function toggle(i) {
    if (selected.has(i)) selected.delete(i); else selected.add(i);
    render();
    stage.querySelector(`.hand [data-index="${i}"]`)?.focus();
  }

  function selection() { return [...selected].sort((a, b) => a - b); }

  async function previewPlay(kind) {
    const cards = selection();
    if (!cards.length || !can(kind)) { previewBox.textContent = ""; return; }
    const at = snap.sequence;
    previewBox.textContent = "Asking the server…";
    try {
      // only the events are shown; the server leaves out the cards a preview would draw, and a
      // score that rides on a chance roll (lucky cards, chance jokers) comes without its number
      const p = await client.preview(matchId, { type: kind, cards });
      if (snap.sequence !== at) return;
      const e = (p.events || []).find((x) => x.type === "handScored");
      previewBox.textContent = e && e.faceDown === "played" ? "A face-down card is in this hand: what it makes shows once played."
        : e && e.faceDown === "held" && e.score == null ? `${handName(e.hand)}: its score depends on face-down cards, so it is shown once played.`
        : e && e.score == null ? `${handName(e.hand)}: its score depends on chance, so it is shown once played.`
        : e ? `${handName(e.hand)}: would score ${scoreOf(e).score} (blind total ${e.total} of ${snap.view.target}).`
        : kind === "discard" ? `Discard ${cards.length} card${cards.length === 1 ? "" : "s"} and draw as many.` : "No score.";
    } catch (err) {
      if (snap.sequence === at) previewBox.textContent = err.message;
    }
  }

  // ---- the score, step by step ----

  function showScore(played, held, event, commandId) {
    if (animation) animation.stop();
    let counted = false;
    // this score is counted: one fewer to wait for (once, however the counting ends)
    const done = () => {
      if (counted) return;
      counted = true;
      counting = Math.max(0, counting - 1);
      render();
    };
    const sc = scoreOf(event);
    const list = h("ol", { class: "score-steps", "aria-label": "Steps of the score" });
    const chipsOut = h("output", { class: "chips", "data-testid": "chips" }, "0");
    const multOut = h("output", { class: "mult", "data-testid": "mult" }, "0");
    const total = h("p", { class: "score-total", hidden: true }, "Score: ", h("strong", { "data-testid": "hand-score" }, String(sc.score)),
      sc.total != null ? h("span", { class: "muted" }, ` · blind ${sc.total} / ${snap.view.target}`) : null);
    const playedEl = h("div", { class: "played", "aria-label": "Cards played" }, played.map((c, i) => c ? playingCard(c, i) : null));
    const skip = h("button", { type: "button", class: "link-button" }, "Show all steps");
    scoreBox.replaceChildren(h("h2", {}, "Score"),
      h("p", { class: "hand-name", "data-testid": "hand-name" }, handName(sc.hand), sc.notAllowed ? " — not allowed by the boss" : ""),
      playedEl,
      h("p", { class: "tally" }, h("span", { class: "chips-box" }, "Chips ", chipsOut), " × ", h("span", { class: "mult-box" }, "Mult ", multOut)),
      ...(sc.steps ? [list, skip] : [h("p", { class: "muted", "data-testid": "no-steps" },
        "This server's receipt carries the hand and its score but no step list, so there are no steps to show.")]),
      total);
    scoreBox.dataset.commandId = commandId || "";
    if (sc.chips != null) chipsOut.textContent = String(sc.chips);
    if (sc.mult != null) multOut.textContent = String(sc.mult / 10000);
    if (!sc.steps) {
      if (sc.chips == null) chipsOut.parentElement.parentElement.hidden = true;
      total.hidden = false;
      done();
      return;
    }
    chipsOut.textContent = "0"; multOut.textContent = "0";
    const steps = sc.steps;
    let k = 0;
    const slotOf = (step) => {
      const t = step.anchor && step.anchor.thing;
      if (t >= SLOT && t < SLOT + 1000) return t - SLOT;
      if (String(step.owner).startsWith("joker:")) return snap.view.jokers.findIndex((j) => `joker:${j.id}` === step.owner);
      return -1;
    };
    const next = () => {
      for (const el of document.querySelectorAll(".jokers .joker.firing, .score-box .pcard.firing")) el.classList.remove("firing");
      // the steps are done: the total, the bar's running total, and then (if the blind fell) the cash-out
      if (k >= steps.length) { total.hidden = false; skip.hidden = true; animation = null; scoredHold = null; done(); return false; }
      const step = steps[k++];
      const role = stepRole(step);
      if (role === "chips") chipsOut.textContent = num(step.after);
      if (role === "mult") multOut.textContent = num(step.after);
      const slot = slotOf(step);
      if (slot >= 0) jokersEl.querySelector(`[data-slot="${slot}"]`)?.classList.add("firing");
      const t = step.anchor && step.anchor.thing;
      if (t >= PLAYED && t < HELD) playedEl.querySelector(`[data-index="${t - PLAYED}"]`)?.classList.add("firing");
      const { who, what } = stepWords(step, { played, held, nameOf: (ref) => (entry(ref) ? entry(ref).name : null) });
      list.append(h("li", { class: `step ${role}`, "data-owner": step.owner },
        h("span", { class: "owner" }, who), ": ", h("span", { class: "change" }, what)));
      if (role === "chips" || role === "mult") {
        const out = role === "chips" ? chipsOut : multOut;
        out.classList.remove("bump");
        void out.offsetWidth; // restart the pop
        out.classList.add("bump");
      }
      list.scrollTop = list.scrollHeight; // follow the newest step inside the list, never the page
      return true;
    };
    const reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    // on a narrow screen the score box sits under the hand: bring it into view as it counts
    if (window.innerWidth < 720) scoreBox.scrollIntoView({ block: "nearest", behavior: reduced ? "auto" : "smooth" });
    if (reduced) { while (next()); return; }
    if (sc.total != null && sc.score != null) { scoredHold = sc.total - sc.score; render(); }
    const timer = setInterval(() => { if (!next()) clearInterval(timer); }, 350);
    animation = { stop() { clearInterval(timer); while (next()); } };
    skip.addEventListener("click", () => animation && animation.stop());
  }

  // ---- drawing ----

  function render() {
    const v = snap.view;
    const over = snap.status !== "active";
    // the view names the boss by its owner ref (`boss:<id>`)
    const bossRef = v.boss ? (String(v.boss).includes(":") ? v.boss : `boss:${v.boss}`) : null;
    const blindName = v.blind === "boss" && bossRef ? `Boss: ${nameOf(bossRef)}` : `${handName(v.blind)} blind`;
    const item = (k, val, id) => [h("div", { class: "item" }, h("dt", {}, k), h("dd", { "data-testid": id }, val))];
    // outside a blind, `blind` is the next one while target and scored are the last one's; before
    // the first blind there is no last one, and the deck is not dealt yet (its size is shown)
    const playing = v.phase === "playing";
    const started = playing || history.length > 0 || v.ante > 1 || v.blind !== "small";
    const last = !playing && v.target > 0 ? " (last blind)" : "";
    const scored = scoredHold ?? v.scored;
    const shownPct = v.target > 0 ? Math.min(100, Math.round((100 * scored) / v.target)) : 0;
    bar.replaceChildren(
      ...item("Ante", String(v.ante), "ante"),
      ...item(playing || v.phase === "lost" ? "Blind" : "Next blind", blindName, "blind"),
      ...(started && (playing || v.target > 0) ? [
        ...item(`Target${last}`, v.target ? String(v.target) : "—", "target"),
        ...item(`Scored${last}`, h("span", {}, String(scored), h("span", { class: "bar", role: "img", "aria-label": `${shownPct}% of the target` }, h("span", { style: `width:${shownPct}%` }))), "scored")] : []),
      ...item("Money", `$${v.money}`, "money"),
      ...item("Hands", String(v.handsLeft), "hands-left"),
      ...item("Discards", String(v.discardsLeft), "discards-left"),
      ...item("Deck", playing && v.deckSize != null ? `${v.deckCount} / ${v.deckSize}` : String(v.deckSize ?? v.deckCount), "deck-count"),
      ...(v.stake != null && v.stake > 1 ? item("Stake", entry(`stake:s${v.stake}`) ? nameOf(`stake:s${v.stake}`) : String(v.stake), "stake") : []),
      ...(v.deckId ? item("Deck kind", nameOf(`deck:${v.deckId}`), "deck-id") : []),
      ...(v.won ? item("Run", "won — endless", "won") : []));

    bossBox.hidden = !bossRef;
    if (bossRef) {
      const e = entry(bossRef);
      bossBox.replaceChildren(h("strong", {}, `Boss of ante ${v.ante}: ${nameOf(bossRef)}`), e && e.text ? ` — ${e.text}` : "",
        v.blind === "boss" && v.phase === "playing" ? h("span", { class: "badge" }, "in effect") : h("span", { class: "muted" }, " (in effect during the boss blind)"));
    }

    jokersEl.replaceChildren(...(v.jokers.length ? v.jokers.map((j, i) => {
      const e = entry(`joker:${j.id}`);
      return h("div", { class: `joker rarity-${j.rarity}${j.edition && j.edition !== "none" ? ` ed-${j.edition}` : ""}`, role: "listitem", "data-slot": i, "data-id": j.id },
        jokerArt(j.id),
        h("strong", {}, nameOf(`joker:${j.id}`)),
        j.edition && j.edition !== "none" ? h("span", { class: "mark ed" }, j.edition) : null,
        h("span", { class: "text" }, e ? e.text : ""),
        j.counter ? h("span", { class: "muted" }, `counter ${j.counter}`) : null,
        ROUND_TARGET[j.id] && v.roundTargets ? h("span", { class: "badge", "data-testid": "round-target" }, `this round: ${ROUND_TARGET[j.id](v.roundTargets)}`) : null,
        j.copies && j.copies !== "none" ? h("span", { class: "muted" }, `copies ${j.copies === "right" ? "the joker to its right" : "the leftmost joker"}`) : null,
        stickerText(j).map((t) => h("span", { class: "sticker" }, t)),
        j.perishable === 0 ? h("span", { class: "sticker spent" }, "debuffed") : null,
        j.disabled ? h("span", { class: "sticker spent" }, "disabled by the boss this hand") : null,
        // whatever else a joker grows, shown as it is
        Object.entries(j).filter(([k]) => !JOKER_FIELDS.has(k)).map(([k, val]) => h("span", { class: "muted" }, `${k}: ${typeof val === "object" ? JSON.stringify(val) : val}`)),
        // jokers sell at any moment of a run (a sale may turn a boss off mid-blind)
        ["shop", "selectBlind", "playing", "pack"].includes(v.phase) ? actionButton(j.sellValue != null ? `Sell ($${j.sellValue})` : "Sell", "sell", { type: "sell", slot: i }, { "aria-label": `Sell ${nameOf(`joker:${j.id}`)}` }) : null);
    }) : [h("p", { class: "muted" }, "No jokers yet.")]));

    // The hand cards selected now (none once the hand has changed: the selection belonged to it).
    const onHand = v.phase === "playing" && JSON.stringify(v.hand) === handKey ? selection() : [];
    consumablesEl.replaceChildren(...(v.consumables.length ? v.consumables.map((ref, i) => {
      const e = entry(ref);
      // A consumable that changes hand cards (its catalog `picks` > 0) is used on 1 to `picks`
      // selected cards of the hand, in the `playing` phase; the rules refuse any other use.
      const picks = Number(e && e.picks) || 0;
      const use = picks === 0
        ? actionButton("Use", "use", { type: "use", index: i }, { "aria-label": `Use ${nameOf(ref)}` })
        : actionButton(onHand.length ? `Use on ${onHand.length} selected` : "Use", "use",
          () => ({ type: "use", index: i, cards: selection() }),
          { "aria-label": `Use ${nameOf(ref)} on the selected cards`, "data-picks": String(picks) },
          v.phase !== "playing" ? `${nameOf(ref)} is used on cards of your hand: use it during a blind.`
            : onHand.length === 0 || onHand.length > picks ? `Select 1 to ${picks} cards of your hand for ${nameOf(ref)}.` : true);
      return h("div", { class: "consumable", role: "listitem" },
        h("strong", {}, nameOf(ref)), h("span", { class: "muted" }, ` ${String(ref).split(":")[0]}`), h("span", { class: "text" }, e ? e.text : ""),
        picks ? h("span", { class: "muted" }, ` (on 1 to ${picks} hand ${picks === 1 ? "card" : "cards"})`) : null,
        use);
    }) : [h("p", { class: "muted" }, "None.")]));

    renderStage(v, over);
    renderExtras(v);
    levels.replaceChildren(h("summary", {}, "Hand levels"), h("table", { class: "levels-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Hand"), h("th", { scope: "col" }, "Level"))),
      h("tbody", {}, (v.levels || []).map((lv, i) => h("tr", {}, h("td", {}, handName(HANDS[i] || `hand ${i}`)), h("td", {}, String(lv)))))));
  }

  function renderStage(v, over) {
    const focusedIdx = document.activeElement && stage.contains(document.activeElement) ? document.activeElement.dataset.index ?? document.activeElement.dataset.action : null;
    const parts = [];
    if (over || v.phase === "lost") parts.push(summary(v));
    else if (cashOut && !counting && (v.phase === "shop" || v.phase === "selectBlind")) parts.push(cashOutScreen(v));
    else if (cashOut && (v.phase === "shop" || v.phase === "selectBlind")) parts.push(h("p", { class: "counting", "data-testid": "counting" }, "Counting the score…"));
    else if (v.phase === "selectBlind") {
      parts.push(h("h2", {}, `Next: ${v.blind === "boss" ? "the boss blind" : `the ${v.blind} blind`} of ante ${v.ante}`),
        h("div", { class: "row" },
          actionButton("Play this blind", "selectBlind", { type: "selectBlind" }, { class: "primary" }),
          actionButton("Skip it for a tag", "skipBlind", { type: "skipBlind" }),
          // the boss is chosen when the ante starts; a reroll voucher lets the player draw another
          ...(v.bossRerollCost != null ? [actionButton(`Reroll the boss ($${v.bossRerollCost})`, "rerollBoss", { type: "rerollBoss" })] : [])));
      // the ante's three blinds, shown in advance: targets, and the boss by name
      if (Array.isArray(v.blinds) && v.blinds.length) parts.push(h("ul", { class: "blinds", "data-testid": "ante-blinds" },
        ...v.blinds.map((b) => h("li", { class: b.done ? "muted" : "" },
          b.blind === "boss" ? `Boss: ${b.name || nameOf(b.boss)}` : `${handName(b.blind)} blind`,
          ` — ${b.target} chips`, b.disabled ? " (its rules are off)" : "", b.done ? " (done)" : ""))));
    } else if (v.phase === "playing") {
      const key = JSON.stringify(v.hand);
      if (key !== handKey) { handKey = key; selected = new Set(); previewBox.textContent = ""; }
      const sel = selection();
      const touch = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
      parts.push(h("div", { class: "hand-head" }, h("h2", {}, "Your hand"),
          h("div", { class: "sort", role: "group", "aria-label": "Sort the hand" }, "Sort: ",
            ["rank", "suit"].map((k) => h("button", { type: "button", class: "chip-button", "aria-pressed": sortBy === k ? "true" : "false", "data-sort": k, onclick: () => { sortBy = k; render(); } }, k === "rank" ? "Rank" : "Suit")))),
        h("div", { class: "hand", role: "group", "aria-label": "Your hand: press a card to select it" }, shownOrder(v.hand).map((i, pos) =>
          playingCard(v.hand[i], i, { pressed: selected.has(i), onclick: () => toggle(i), cls: selected.has(i) ? " selected" : "", pos }))),
        h("p", { class: "muted", "data-testid": "selection" }, sel.length ? `Selected: ${sel.map((i) => cardText(v.hand[i])).join(", ")}`
          : touch ? "Tap cards to pick up to five, then play or discard them." : "Pick up to five cards (click, or Tab and Enter; keys 1–8 by position), then play (P) or discard (D)."),
        h("div", { class: "row" },
          withPreview(actionButton("Play hand", "play", () => ({ type: "play", cards: selection() }), { class: "primary", "aria-keyshortcuts": "p" }, sel.length > 0), "play"),
          withPreview(actionButton("Discard", "discard", () => ({ type: "discard", cards: selection() }), { "aria-keyshortcuts": "d" }, sel.length > 0), "discard"),
          h("button", { type: "button", onclick: () => { selected = new Set(); render(); }, disabled: !sel.length }, "Clear selection")),
        previewBox);
    } else if (v.phase === "shop") {
      parts.push(h("h2", {}, "Shop"),
        h("div", { class: "shop", role: "list", "aria-label": "Offers" }, v.shop.length ? v.shop.map((offer, i) => offer.card
          // a playing card for sale (a voucher lets the shop stock them): it joins the deck
          ? h("div", { class: "offer kind-card", role: "listitem", "data-slot": i }, h("span", { class: "kind muted" }, "playing card"), playingCard(offer.card, i), h("span", {}, cardText(offer.card)),
              h("span", { class: `cost${priceOf("shop", i) > v.money ? " short" : ""}` }, `$${priceOf("shop", i)}`),
              actionButton("Buy", "buy", { type: "buy", slot: i }, { "aria-label": `Buy the ${cardText(offer.card)}${costText(priceOf("shop", i))}` }))
          : offerCard(offerRef(offer), stickerText(offer), v.money, actionButton("Buy", "buy", { type: "buy", slot: i }, { "aria-label": `Buy ${nameOf(offerRef(offer))}${costText(priceOf("shop", i))}` }), i, priceOf("shop", i)))
          : h("p", { class: "muted" }, "Sold out.")),
        v.packs && v.packs.length ? [h("h3", {}, "Booster packs"), h("div", { class: "shop packs", role: "list", "aria-label": "Booster packs" }, v.packs.map((ref, i) =>
          offerCard(ref, [], v.money, actionButton("Open", "openPack", { type: "openPack", slot: i }, { "aria-label": `Buy and open ${nameOf(ref)}${costText(priceOf("packs", i))}` }), i, priceOf("packs", i))))] : null,
        h("div", { class: "row" },
          actionButton(v.rerollCost != null ? `Reroll ($${v.rerollCost})` : "Reroll", "reroll", { type: "reroll" }),
          actionButton("Leave the shop", "leaveShop", { type: "leaveShop" }, { class: "primary" })));
    } else if (v.phase === "pack" && v.pack) {
      const p = v.pack;
      parts.push(h("h2", {}, `${nameOf(p.pack)}: pick ${p.picksLeft} more`),
        h("div", { class: "shop pack-items", role: "list", "aria-label": "The pack's cards" }, p.items.map((it, i) => {
          const pick = actionButton("Take", "pickPack", { type: "pickPack", index: i });
          if (it.card) return h("div", { class: "offer kind-card", role: "listitem", "data-slot": i }, h("span", { class: "kind muted" }, "playing card"), playingCard(it.card, i), h("span", {}, cardText(it.card)), pick);
          return offerCard(it.item, stickerText(it), null, pick, i, null);
        })),
        h("div", { class: "row" }, actionButton("Skip the rest", "skipPack", { type: "skipPack" })));
    } else parts.push(h("p", {}, `Phase: ${v.phase}`));
    stage.replaceChildren(...parts.flat().filter(Boolean));
    if (focusedIdx != null) stage.querySelector(`[data-index="${focusedIdx}"], [data-action="${focusedIdx}"]`)?.focus();
  }

  /**
   * What shop offer or pack `i` costs now: the server's price (`shopPrices`/`packPrices`, with
   * discounts, rental stickers and free planets applied), else the catalog cost of an older
   * server that sends none.
   */
  function priceOf(list, i) {
    const v = snap.view;
    const given = v[list === "shop" ? "shopPrices" : "packPrices"];
    if (Array.isArray(given) && given[i] != null) return given[i];
    const ref = list === "shop" ? offerRef(v.shop[i]) : v.packs[i];
    const e = ref && entry(ref);
    return e && e.cost != null ? e.cost : null;
  }

  function costText(price) {
    return price != null ? ` for $${price}` : "";
  }

  /** An offer by its catalog entry; a kind this page does not know shows its name and id alike. `price` is null for a pack's cards: they are free. */
  function offerCard(ref, stickers, money, button, i, price) {
    const e = entry(ref);
    const [kind] = String(ref).split(":");
    return h("div", { class: `offer kind-${kind}`, role: "listitem", "data-slot": i },
      kind === "joker" ? jokerArt(String(ref).split(":")[1]) : null,
      h("span", { class: "kind muted" }, kind),
      h("strong", {}, nameOf(ref)),
      h("span", { class: "text" }, e ? e.text : ""),
      stickers.map((t) => h("span", { class: "sticker" }, t)),
      price != null ? h("span", { class: `cost${money != null && price > money ? " short" : ""}${price === 0 ? " free" : ""}` }, price === 0 ? "free" : `$${price}`) : null,
      button);
  }

  // As in Duel: the preview waits for the pointer or focus to settle and a click cancels it, so
  // it is never sent after its own command (it would be judged against the next state).
  let previewTimer = null;
  function withPreview(button, kind) {
    const show = () => { clearTimeout(previewTimer); previewTimer = setTimeout(() => previewPlay(kind), 150); };
    button.addEventListener("mouseenter", show);
    button.addEventListener("focus", show);
    button.addEventListener("mouseleave", () => clearTimeout(previewTimer));
    button.addEventListener("click", () => clearTimeout(previewTimer));
    return button;
  }

  function summary(v) {
    const best = history.reduce((b, x) => (!b || x.score > b.score ? x : b), null);
    const beaten = (snap.outcome && snap.outcome.kind) || (v.won ? "won" : "lost");
    return h("div", { class: "run-summary", "data-testid": "run-summary" },
      h("h2", {}, v.won ? "The run is won" : beaten === "resigned" ? "You gave the run up" : "The run is over"),
      h("dl", {},
        h("dt", {}, "Result"), h("dd", { "data-testid": "run-result" }, RESULTS[beaten] || beaten),
        h("dt", {}, "Ante reached"), h("dd", {}, String(v.ante)),
        h("dt", {}, "Hands played"), h("dd", {}, String(history.length)),
        h("dt", {}, "Best hand"), h("dd", {}, best ? `${handName(best.hand)}: ${best.score}` : "—"),
        h("dt", {}, "Money"), h("dd", {}, `$${v.money}`),
        h("dt", {}, "Jokers"), h("dd", {}, v.jokers.map((j) => nameOf(`joker:${j.id}`)).join(", ") || "none")));
  }

  function renderExtras(v) {
    const parts = [];
    // owner refs (`kind:id`), or bare ids of `kind`
    const refs = (title, list, kind) => list && list.length ? [h("h2", {}, title), h("ul", { class: "refs" }, list.map((item) => {
      const ref = String(item).includes(":") ? item : `${kind}:${item}`;
      const e = entry(ref);
      return h("li", {}, h("strong", {}, nameOf(ref)), e && e.text ? ` — ${e.text}` : "");
    }))] : [];
    // the view does not say which tags are still held (a tag waiting for its moment), so
    // without `tags` the page lists the ones taken, as the timeline tells
    // tags held wait for their moment; the ones taken (from the timeline) may be spent already
    parts.push(...refs("Tags held", v.tags, "tag"));
    if (v.tagCopies) parts.push(h("p", { class: "muted", "data-testid": "tag-copies" }, `The next tag you take comes ${v.tagCopies + 1} times.`));
    parts.push(...refs("Tags taken", tagsTaken.map((t) => t.tag), "tag"));
    parts.push(...refs("Vouchers", v.vouchers, "voucher"));
    const unknown = Object.entries(v).filter(([k]) => !KNOWN_VIEW.has(k));
    if (unknown.length) parts.push(h("details", { class: "more" }, h("summary", {}, "More of the run"),
      h("dl", {}, unknown.flatMap(([k, val]) => [h("dt", {}, k), h("dd", {}, h("code", {}, JSON.stringify(val)))]))));
    extras.replaceChildren(...parts);
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

  function onKey(ev) {
    if (seat == null || ev.ctrlKey || ev.metaKey || ev.altKey || snap.view.phase !== "playing") return;
    const t = ev.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
    if (/^[1-9]$/.test(ev.key) && Number(ev.key) <= snap.view.hand.length) { toggle(shownOrder(snap.view.hand)[Number(ev.key) - 1]); ev.preventDefault(); }
    else if (ev.key === "p" || ev.key === "d") { stage.querySelector(`[data-action="${ev.key === "p" ? "play" : "discard"}"]`)?.click(); ev.preventDefault(); }
  }
  document.addEventListener("keydown", onKey);

  return {
    update(next) {
      snap = next;
      legal = legal && legal.sequence === next.sequence ? legal : null;
      render();
      refreshLegal();
    },
    receipt(r) {
      const before = snap.view;
      noteHistory(r);
      const e = (r.events || []).find((x) => x.type === "handScored");
      if (e && r.action && Array.isArray(r.action.cards)) {
        counting += 1; // the cash-out (if the blind falls) waits for the score to count up
        const idx = [...r.action.cards].sort((a, b) => a - b);
        // cards played face down turn over as they score: the event names them
        const played = Array.isArray(e.revealed) && e.revealed.length ? e.revealed : idx.map((i) => before.hand[i]);
        const held = before.hand.filter((_, i) => !idx.includes(i));
        // the resolution is the command's step-by-step record; the receipt's event is its fallback
        client.resolution(matchId, r.commandId)
          .then((res) => {
            const ev = (res.steps || []).map((s) => s.event).find((x) => x && x.type === "handScored");
            showScore(played, held, ev || e, r.commandId);
          })
          .catch(() => showScore(played, held, e, r.commandId));
      }
      for (const ev of r.events || []) {
        if (ev.type === "blindSkipped") {
          const tag = String(ev.tag).includes(":") ? ev.tag : `tag:${ev.tag}`;
          say(`Blind skipped: you take the ${nameOf(tag)} — ${entry(tag)?.text || ""}`);
        }
        if (ev.type === "blindBeaten") {
          const scoredEv = (r.events || []).find((x) => x.type === "handScored");
          const bossRef = before.boss ? (String(before.boss).includes(":") ? before.boss : `boss:${before.boss}`) : null;
          cashOut = { blindName: before.blind === "boss" && bossRef ? nameOf(bossRef) : `${handName(before.blind)} blind`, score: scoredEv ? scoredEv.total : before.scored,
            target: before.target, before: before.money, after: ev.money, handsLeft: Math.max(0, before.handsLeft - 1) };
        }
        if (ev.type === "runWon") say("Ante 8's boss is beaten: the run is won. Endless play goes on.");
        if (ev.type === "runLost") say("The blind was not beaten: the run is over.", "warning");
        if (ev.type === "runSaved") say(`The last hand fell short, but the ${nameOf(ev.by)} saved the run (no blind reward) and is spent.`, "warning");
        if (ev.type === "runResigned") say("You gave the run up: it is over.");
      }
    },
    destroy() { clearTimeout(previewTimer); if (animation) animation.stop(); document.removeEventListener("keydown", onKey); },
  };
}

// ---- the web module contract (web/registry.js) --------------------------------------------

/** A finished run's outcome kinds in words: the summary's "Result" and the outcome line. */
const RESULTS = { lost: "lost", won: "won", wonThenLost: "won, then lost in endless play", resigned: "given up", wonThenResigned: "won, then given up in endless play" };
const OUTCOMES = { lost: "the run is over", won: "the run is won", wonThenLost: "the run was won, then lost in endless play", resigned: "the run was given up", wonThenResigned: "the run was won, then given up in endless play" };

/** A step of the run in words (the replay viewer's list and the debug panel's log). */
function describe(r, info = {}) {
  const cat = info.catalog || (info.content ? catalogOf({ bundle: { content: info.content } }) : {});
  const name = (ref) => (cat[ref] && cat[ref].name) || String(ref).split(":").pop().replace(/_/g, " ");
  const a = r.action || {};
  const ev = r.events || [];
  const scored = ev.find((e) => e.type === "handScored");
  const parts = [];
  if (scored) parts.push(`Played ${handName(scored.hand)} for ${scoreOf(scored).score ?? "a score"}`);
  else if (a.type === "discard") parts.push(`Discarded ${a.cards ? a.cards.length : ""} card${a.cards && a.cards.length === 1 ? "" : "s"}`.replace("  ", " "));
  else if (a.type === "selectBlind") parts.push("Took on the blind");
  else if (a.type === "skipBlind") { const t = ev.find((e) => e.type === "blindSkipped"); parts.push(`Skipped the blind${t ? ` for the ${name(String(t.tag).includes(":") ? t.tag : `tag:${t.tag}`)}` : ""}`); }
  else if (a.type === "buy") parts.push("Bought from the shop");
  else if (a.type === "sell") parts.push("Sold a joker");
  else if (a.type === "reroll") parts.push("Rerolled the shop");
  else if (a.type === "leaveShop") parts.push("Left the shop");
  else if (a.type === "openPack") parts.push("Opened a booster pack");
  else if (a.type === "pickPack") parts.push("Took a card from the pack");
  else if (a.type === "skipPack") parts.push("Skipped the rest of the pack");
  else if (a.type === "use") parts.push(a.cards && a.cards.length ? `Used a consumable on ${a.cards.length} hand ${a.cards.length === 1 ? "card" : "cards"}` : "Used a consumable");
  else if (a.type === "resign") parts.push("Gave the run up");
  else parts.push("Played on");
  const beaten = ev.find((e) => e.type === "blindBeaten");
  if (beaten) parts.push(`blind beaten, money $${beaten.money}`);
  const saved = ev.find((e) => e.type === "runSaved");
  if (saved) parts.push(`saved by the ${name(saved.by)}`);
  if (ev.some((e) => e.type === "runLost")) parts.push("the run is over");
  if (ev.some((e) => e.type === "runWon")) parts.push("the run is won");
  return parts.join(" — ");
}

/** Replay frames: the ante, the blind and its target, chips scored, hands played and the best. */
function cloverFrames(entries) {
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
      if (e.type === "runResigned") st.phase = "resigned";
      if (e.type === "runWon") st.won = true;
    }
    out.push(st);
  }
  return out;
}

function drawCloverFrame(x, info) {
  const cat = info.content ? catalogOf({ bundle: { content: info.content } }) : {};
  const tagName = (t) => { const ref = String(t).includes(":") ? t : `tag:${t}`; return (cat[ref] && cat[ref].name) || String(t).replace(/_/g, " "); };
  const rows = [
    ["Ante", String(x.ante)],
    ["Now", x.phase === "playing" ? `playing the ${x.blind} blind` : x.phase === "shop" ? "in the shop" : x.phase === "lost" ? "the run is over" : x.phase === "resigned" ? "the run was given up" : `choosing the ${x.blind} blind`],
    ["Scored", x.target != null && x.phase === "playing" ? `${x.scored} of ${x.target}` : "—"],
    ["Hands played", String(x.hands)],
    ["Best hand", x.best ? `${handName(x.best.hand)}: ${x.best.score}` : "—"],
    ["Money", x.money != null ? `$${x.money} (after the last payout)` : "—"],
    x.tags.length ? ["Tags taken", x.tags.map(tagName).join(", ")] : null,
    x.won ? ["Run", "won"] : null,
  ].filter(Boolean);
  return h("dl", { class: "step-details replay-summary clover-replay", "data-testid": "replay-summary", "aria-label": "The run at this step" },
    rows.flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]));
}

registerGame({
  id: "clover",
  title: "Clover",
  blurb: "Poker hands, jokers and a shop: beat each blind, ante by ante.",
  order: 50,
  seatName: () => "Player",
  mount,
  describe,
  outcomeText: (o) => (!o ? "" : OUTCOMES[o.kind] || ""),
  lobby: {
    needsContent: true,
    quickSeats: () => [{ kind: "human" }],
    options: (gameInfo, content) => configPicker(content, gameInfo.defaultConfig),
    art: () => h("div", { class: "art-fan" }, jokerArt("harlequin"), jokerArt("rose_pin"), jokerArt("sprout")),
  },
  replay: { needsContent: true, frames: cloverFrames, draw: drawCloverFrame },
});
