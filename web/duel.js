// Duel (docs/duel.md): both seats' health, mana, statuses, boards and discard piles; one's own
// hand face up and the other hand as backs; the phase, the preset and who holds priority; the
// stack of a response window. What can be done now comes only from `legal-actions`: playable
// cards and the End turn / Pass buttons are enabled from it, the rest are shown but inert.
// Hovering or focusing an action asks the server for a preview and shows what would change.
//
// Units have no attack action: they strike at the end of their controller's activation and
// their rows act at turn boundaries, so the board shows each unit's card, its attack and the
// health it has left, and the log tells who struck whom.

import { h, say, legalAction, legalAllows } from "./util.js";

export const PRESETS = ["classic-style", "hearthstone-style", "priority-window"];
const PRESET_NOTES = {
  "classic-style": "plays resolve at once",
  "hearthstone-style": "refresh and draw as phases",
  "priority-window": "plays go on a stack; the other seat may respond",
};

/** The lobby's Duel options: the phase preset and each seat's deck, from the content bundle. */
export function configPicker(content, defaultConfig) {
  const c = content && content.bundle && content.bundle.content;
  const fromContent = c && Array.isArray(c.phases) ? c.phases.map((p) => p.sequenceId).filter(Boolean) : [];
  // the server's `configOptions` lists no presets for Duel; its content does, else the three shipped ones
  const presets = fromContent.length ? fromContent : PRESETS;
  const decks = c && c.decks ? Object.keys(c.decks).sort() : [];
  const def = (defaultConfig && defaultConfig.phaseSequence) || presets[0];
  const preset = h("select", { id: "preset", name: "preset" }, presets.map((id) =>
    h("option", { value: id, selected: id === def }, PRESET_NOTES[id] ? `${id} — ${PRESET_NOTES[id]}` : id)));
  const deckSelects = [0, 1].map((i) => h("select", { id: `deck-${i}`, name: `deck-${i}` },
    h("option", { value: "" }, `default (${decks[i] || decks[0] || "content order"})`),
    decks.map((d) => h("option", { value: d }, d))));
  const el = h("div", {},
    h("div", { class: "field" }, h("label", { for: "preset" }, "Phase preset"), preset),
    decks.length ? h("div", { class: "deck-picker" }, deckSelects.map((sel, i) =>
      h("div", { class: "field" }, h("label", { for: `deck-${i}` }, `Deck of seat ${i}`), sel))) : null);
  return {
    el,
    value() {
      const config = { phaseSequence: preset.value };
      // `decks` is all or nothing in DuelConfig: an empty list means the content's decks in id order
      if (decks.length && deckSelects.some((s) => s.value)) config.decks = deckSelects.map((s, i) => s.value || decks[i] || decks[0]);
      return config;
    },
  };
}

function numberOf(v) {
  if (v == null) return "?";
  if (typeof v !== "object") return String(v);
  if ("int" in v) return String(v.int);
  if ("fixed" in v) return String(v.fixed / 10000);
  if ("bool" in v) return v.bool ? "yes" : "no";
  return JSON.stringify(v);
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
  const them = 1 - me;
  const who = (s) => seat == null ? `Seat ${s}` : s === seat ? "You" : "Opponent";
  const whose = (s) => seat == null ? `Seat ${s}'s` : s === seat ? "Your" : "Opponent's";
  const cardName = (id) => (cards[id] && cards[id].name) || id;

  const status = h("p", { class: "turn-status", "data-testid": "turn-status", "aria-live": "polite" });
  const meta = h("p", { class: "meta duel-meta", "data-testid": "duel-meta" });
  const windowBox = h("div", { class: "window-box", "data-testid": "response-window", hidden: true, role: "status" });
  const oppPanel = h("section", { class: "duel-seat them", "aria-label": seat == null ? "Seat 1" : "Opponent" });
  const myPanel = h("section", { class: "duel-seat me", "aria-label": seat == null ? "Seat 0" : "You" });
  const handEl = h("div", { class: "duel-hand", role: "group", "aria-label": seat == null ? "Seat 0's hand" : "Your hand" });
  const endB = h("button", { type: "button", class: "primary", "data-action": "END_TURN" }, "End turn");
  const passB = h("button", { type: "button", "data-action": "PASS_PRIORITY" }, "Pass priority");
  const controls = h("div", { class: "row duel-controls" }, endB, passB);
  const previewBox = h("section", { class: "duel-preview", "aria-label": "Preview", "aria-live": "polite", "data-testid": "preview" },
    h("h2", {}, "Preview"), h("p", { class: "muted" }, "Hover over or focus a card you can play, or a button, to see what it would do."));
  const log = h("ol", { class: "log", "aria-label": "What happened", reversed: true });

  const frame = h("div", { class: "duel" },
    h("div", { class: "duel-main" }, status, meta, windowBox, oppPanel, myPanel,
      seat != null ? [h("h2", {}, "Your hand"), handEl, controls] : null,
      h("p", { class: "help muted" }, seat == null ? "You are watching: both hands are hidden." : "Cards you can play now are highlighted; the others are dimmed. Tab to a card and press Enter to play it.")),
    h("div", { class: "duel-side" }, previewBox, h("section", { "aria-label": "Log" }, h("h2", {}, "Log"), log)));
  root.append(frame);

  for (const b of [endB, passB]) bindAction(b, () => ({ type: b.dataset.action }), () => b.textContent);

  client.content("duel", snap.revision).then((c) => {
    const content = c && c.bundle && c.bundle.content;
    cards = (content && content.cards) || {};
    statuses = (content && content.statuses) || {};
    render();
    for (const li of log.children) li.textContent = describeReceipt(li._receipt);
  }).catch((e) => say(`Could not load the cards: ${e.message}`, "warning"));
  client.timelineAll(matchId, 0).then((receipts) => {
    for (const r of receipts) if (!log.querySelector(`[data-seq="${r.sequence}"]`)) addLog(r);
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
    if (stackA !== stackB) out.push(b.stack.length ? `Stack: ${b.stack.map((x) => `${cardName(x.item.cardId)} (${who(x.seat)})`).join(", ")} (top last)` : "Stack: empty");
    if (a.phase !== b.phase) out.push(`Phase: ${a.phase} → ${b.phase}`);
    if (a.priority !== b.priority) out.push(`Priority: ${who(a.priority)} → ${who(b.priority)}`);
    if (a.active !== b.active) out.push(`Turn: ${who(a.active)} → ${who(b.active)}`);
    if (!a.result && b.result) out.push(resultText(b.result));
    return out;
  }

  // ---- text ----

  function bearerName(t) { return t && "seat" in t ? who(t.seat) : t && "thing" in t ? `card #${t.thing}` : "?"; }
  function statusText(e) {
    return `${e.status}${e.stacks > 1 ? ` ×${e.stacks}` : ""}${e.remainingTurns != null ? ` (${e.remainingTurns} turn${e.remainingTurns === 1 ? "" : "s"})` : ""}`;
  }
  function resultText(r) {
    if (!r) return "";
    const how = { health_zero: "health reached 0", resign: "resignation", turn_limit: "turn limit" }[r.kind] || r.kind;
    if (!r.winners.length) return `Draw (${how}).`;
    if (seat == null) return `Seat ${r.winners[0]} wins (${how}).`;
    return r.winners.includes(seat) ? `You win (${how})!` : `You lose (${how}).`;
  }
  function describeEvent(e) {
    switch (e.kind) {
      case "cardPlayed": return `${who(e.seat)} played ${cardName(e.card)} for ${e.cost} mana${e.stacked ? ", onto the stack" : ""}`;
      case "cardResolved": return `${cardName(e.card)} resolved`;
      case "cardDrawn": return `${who(e.seat)} drew ${e.card ? cardName(e.card) : "a card"}`;
      case "cardBurned": return `${who(e.seat)} drew ${cardName(e.card)} into a full hand: burned`;
      case "cardFizzled": return `${cardName(e.card)} fizzled`;
      case "fatigue": return `${who(e.seat)} took ${e.damage} fatigue damage`;
      case "priorityPassed": return `${who(e.seat)} passed; ${e.holder === seat ? "you hold" : `${who(e.holder)} holds`} priority`;
      case "statusExpired": return `${whose(e.seat)} ${e.status} ran out`;
      case "activationStarted": return `Turn ${e.turn} (round ${e.round}): ${whose(e.seat).toLowerCase()} turn`;
      case "activationEnded": return `${whose(e.seat)} turn ended`;
      case "resigned": return `${who(e.seat)} resigned`;
      case "unitAttacked": return `${whose(e.seat)} ${cardName(e.card)} struck ${e.defender != null ? unitName(e.defender) : who(1 - e.seat).toLowerCase()} for ${e.damage}`;
      case "unitDied": return `${whose(e.seat)} ${cardName(e.card)} died`;
      case "matchEnded": return resultText(e.result);
      case "effects": return (e.steps || []).map((s) => {
        const [kind, id] = String(s.owner).split(":");
        const owner = kind === "card" ? cardName(id) : id || s.owner;
        const what = { max_mana: "maximum mana", max_health: "maximum health" }[s.subject] || s.subject || (s.operation === "Draw" ? "cards in hand" : s.operation);
        return `${owner}: ${bearerName(s.target)} ${what} ${numberOf(s.before)} → ${numberOf(s.after)}`;
      }).join("; ") || "no effect";
      case "phase": return (e.records || []).filter((r) => r.kind === "Transition").map((r) => `phase ${r.from} → ${r.to}`).join("; ") || "phase effects";
      default: return JSON.stringify(e);
    }
  }
  function describeReceipt(r) {
    const a = r.action || {};
    const head = a.type === "PLAY_CARD" ? null : a.type === "END_TURN" ? `${who(r.seat)} ended the turn` : a.type === "PASS_PRIORITY" ? null : a.type === "RESIGN" ? null : `${who(r.seat)}: ${a.type}`;
    const evs = (r.events || []).filter((e) => e.kind !== "phase" || e.records.some((x) => x.kind === "Transition" && (x.to === "response_window" || x.from === "response_window")));
    return [head, ...evs.map(describeEvent)].filter(Boolean).join(". ");
  }
  function addLog(r) {
    const li = h("li", { "data-seq": r.sequence, value: r.sequence }, describeReceipt(r));
    li._receipt = r;
    const after = [...log.children].find((x) => Number(x.dataset.seq) < r.sequence);
    log.insertBefore(li, after || null);
  }

  // ---- drawing ----

  /** A unit's attack and health: the card's, and on the board the health it has left. */
  function statsOf(c) {
    const info = cards[c.cardId] || {};
    if (info.attack == null && info.health == null && c.health == null) return null;
    const max = info.health ?? null;
    const left = c.health ?? max;
    return { attack: info.attack ?? 0, health: left, max, text: `attack ${info.attack ?? 0}, health ${left ?? "?"}${max != null && left !== max ? ` of ${max}` : ""}` };
  }
  function cardFace(c) {
    const info = cards[c.cardId] || {};
    const tags = String(info.tags || "").split(/\s+/).filter(Boolean);
    const st = statsOf(c);
    return [
      h("span", { class: "cost", "aria-hidden": "true" }, info.cost ?? "?"),
      h("span", { class: "name" }, info.name || c.cardId),
      h("span", { class: "kind muted" }, [info.kind, ...tags.filter((t) => t !== String(info.kind || "").toLowerCase())].filter(Boolean).join(" · ")),
      h("span", { class: "text" }, info.text || ""),
      st ? h("span", { class: "unit-stats", "aria-hidden": "true" },
        h("span", { class: "atk", title: "attack" }, `⚔ ${st.attack}`),
        h("span", { class: `hp${st.max != null && st.health < st.max ? " hurt" : ""}`, title: "health" }, `♥ ${st.health ?? "?"}${st.max != null && st.health !== st.max ? `/${st.max}` : ""}`)) : null,
    ];
  }
  function cardLabel(c) {
    const info = cards[c.cardId] || {};
    const st = statsOf(c);
    return `${info.name || c.cardId}, ${info.kind || "card"}, cost ${info.cost ?? "?"}${info.tags ? `, ${info.tags}` : ""}${st ? `, ${st.text}` : ""}: ${info.text || ""}`;
  }
  /** A unit on either board by its thing id, for the log. */
  function unitName(thing) {
    for (const [i, s] of snap.view.seats.entries()) {
      const u = s.board.find((x) => x.thing === thing);
      if (u) return `${whose(i).toLowerCase()} ${cardName(u.cardId)}`;
    }
    return `unit #${thing}`;
  }

  function seatPanel(el, i) {
    const v = snap.view;
    const s = v.seats[i];
    const info = snap.seats.find((x) => x.seat === i);
    const mine = seat === i;
    const st = v.statuses.filter((e) => e.bearer && e.bearer.seat === i);
    const hp = Math.max(0, Math.min(100, Math.round((100 * s.health) / Math.max(1, s.maxHealth))));
    el.replaceChildren(...[
      h("h2", {}, seat == null ? `Seat ${i}` : mine ? `You (seat ${i})` : `Opponent (seat ${i})`,
        info && info.kind === "bot" ? h("span", { class: "muted" }, ` — bot ${info.bot}`) : null,
        v.active === i ? h("span", { class: "badge turn" }, "turn") : null,
        v.priority === i ? h("span", { class: "badge priority" }, "priority") : null),
      h("div", { class: "duel-stats" },
        h("div", { class: "stat health", "data-testid": `health-${i}` },
          h("span", { class: "label" }, "Health"), h("strong", {}, `${s.health}`), h("span", { class: "muted" }, ` / ${s.maxHealth}`),
          h("span", { class: "bar", role: "img", "aria-label": `${hp}% health` }, h("span", { style: `width:${hp}%` }))),
        h("div", { class: "stat mana", "data-testid": `mana-${i}` },
          h("span", { class: "label" }, "Mana"), h("strong", {}, `${s.mana}`), h("span", { class: "muted" }, ` / ${s.maxMana}`),
          h("span", { class: "pips", "aria-hidden": "true" }, Array.from({ length: s.maxMana }, (_, k) => h("span", { class: k < s.mana ? "pip full" : "pip" })))),
        h("div", { class: "stat" }, h("span", { class: "label" }, "Deck"), h("strong", {}, `${s.deckCount}`)),
        h("div", { class: "stat" }, h("span", { class: "label" }, "Discard"), h("strong", { title: s.discard.map((c) => cardName(c.cardId)).join(", ") }, `${s.discard.length}`)),
        s.fatigue ? h("div", { class: "stat" }, h("span", { class: "label" }, "Fatigue"), h("strong", {}, `${s.fatigue}`)) : null),
      h("ul", { class: "statuses", "aria-label": `${whose(i)} statuses` }, st.length ? st.map((e) =>
        h("li", { class: `status-chip ${e.status}`, title: (statuses[e.status] && statuses[e.status].description) || "" }, statusText(e))) : h("li", { class: "muted" }, "no statuses")),
      h("div", { class: "board", role: "list", "aria-label": `${whose(i)} board` }, s.board.length
        ? s.board.map((c) => h("div", { class: "duel-card unit", role: "listitem", "aria-label": cardLabel(c) }, cardFace(c)))
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
    const preset = v.sequenceId;
    meta.replaceChildren(`Preset `, h("strong", { "data-testid": "preset" }, preset), ` · phase `, h("strong", { "data-testid": "phase" }, v.phase),
      ` · turn ${v.turn}, round ${v.round} · step ${v.step}`);
    if (over) status.textContent = v.result ? resultText(v.result) : `The match is ${snap.status}.`;
    else if (seat == null) status.textContent = `Seat ${v.active}'s turn; seat ${v.priority} holds priority.`;
    else if (v.windowOpen) status.textContent = v.priority === seat ? "Response window: you hold priority." : "Response window: the opponent holds priority.";
    else status.textContent = v.active === seat ? "Your turn." : "The opponent's turn.";
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
          h("li", {}, h("strong", {}, cardName(x.item.cardId)), ` (${who(x.seat)})`, k === v.stack.length - 1 ? h("span", { class: "badge" }, "top") : null))));
    }

    seatPanel(oppPanel, them);
    seatPanel(myPanel, me);

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
      for (const b of [endB, passB]) {
        const ok = canAct && !!legalAction(legal, b.dataset.action);
        b.setAttribute("aria-disabled", ok ? "false" : "true");
        b.classList.toggle("inert", !ok);
      }
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
      snap = next;
      legal = legal && legal.sequence === next.sequence ? legal : null;
      render();
      refreshLegal();
    },
    receipt(r) {
      addLog(r);
      const end = (r.events || []).find((e) => e.kind === "matchEnded");
      if (end) say(resultText(end.result));
    },
    destroy() { clearTimeout(previewTimer); },
  };
}
