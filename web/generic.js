// The view of a game that has no web module of its own yet (registered as the fallback, id
// "*"): the view as JSON, the legal actions from `legal-actions`, a preview, and a box to send
// any action as JSON. A team's own game is playable with it from day one.

import { h, say } from "./util.js";
import { registerGame, playerName } from "./registry.js";

export function mount(root, ctx) {
  const { session, client, matchId, seat } = ctx;
  const viewPre = h("pre", { class: "json", tabindex: 0, "aria-label": "The view, as JSON" });
  const legalList = h("ul", { class: "legal" });
  const input = h("textarea", { id: "action", rows: 3, placeholder: '{"type": "..."}' });
  const out = h("pre", { class: "json", "aria-live": "polite" });
  const form = h("form", { class: "action-form" },
    h("label", { for: "action" }, "Action (JSON)"), input,
    h("div", { class: "row" },
      h("button", { type: "button", onclick: async () => {
        try { const p = await client.preview(matchId, JSON.parse(input.value)); out.textContent = JSON.stringify(p.view, null, 2); }
        catch (e) { say(e.message, "error"); }
      } }, "Preview"),
      h("button", { type: "submit", class: "primary" }, "Send")));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    let action;
    try { action = JSON.parse(input.value); } catch (e) { say(`Not JSON: ${e.message}`, "error"); return; }
    const r = await session.send(action);
    if (r) out.textContent = JSON.stringify(r.events, null, 2);
  });
  root.append(h("div", { class: "generic" },
    h("section", {}, h("h2", {}, "View"), viewPre),
    seat != null ? h("section", {}, h("h2", {}, "Legal actions"), legalList, form, out) : null));
  return {
    async update(snap) {
      viewPre.textContent = JSON.stringify(snap.view, null, 2);
      if (seat == null) return;
      try {
        const legal = await client.legalActions(matchId);
        legalList.replaceChildren(...legal.actions.map((a) => h("li", {}, h("button", { type: "button", class: "link-button", onclick: () => { input.value = JSON.stringify({ type: a.kind }); input.focus(); } }, a.kind),
          a.params.length ? ` ${a.params.map((p) => `${p.name}: ${JSON.stringify(p.range)}`).join("; ")}` : "")));
      } catch (e) { say(e.message, "warning"); }
    },
  };
}

/** A log line from the action alone: "Player 1: move", with its fields in words. */
function describe(r, info = {}) {
  const a = r.action || {};
  const who = r.seat == null ? "The server" : playerName(info.game || "", r.seat, info);
  const fields = Object.entries(a).filter(([k]) => k !== "type").map(([k, v]) => `${k} ${typeof v === "object" ? JSON.stringify(v) : v}`);
  return `${who}: ${String(a.type || "move").replace(/_/g, " ").toLowerCase()}${fields.length ? ` (${fields.join(", ")})` : ""}`;
}

registerGame({ id: "*", mount, describe });
