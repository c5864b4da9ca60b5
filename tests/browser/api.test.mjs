// Tests of web/api.js itself, in node (it is a plain ES module using fetch and streams): the
// fair-timer formula, the SSE parser, and — against the real server — the live stream's resume
// with Last-Event-ID after a drop, and a 409 turned into a refreshed snapshot and a message.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { startServer, REPO } from "./harness.mjs";
import { Client, MatchSession, fairRemainingTicks, ticksToMillis, readSse } from "../../web/api.js";
import { scoreOf, stepRole, stepWords, handName, HANDS } from "../../web/clover.js";
import { actionFrom, pickInRange } from "../../web/debug.js";
import { gameOf, registeredGames } from "../../web/registry.js";
import "../../web/connect4.js";
import "../../web/tictactoe.js";
import "../../web/duel.js";
import "../../web/sokoban.js";
import "../../web/generic.js";

let server;
before(async () => { server = await startServer(); });
after(async () => { if (server) await server.stop(); });

test("the fair timer follows docs/turns.md", () => {
  // 10 ticks/s, deadline 100, server tick 70, a 250 ms round trip, no offset: 28 ticks, 2.8 s
  const t = fairRemainingTicks({ deadlineTick: 100, serverTick: 70, tickRate: 10, rttMs: 250 });
  assert.equal(t, 28);
  assert.equal(ticksToMillis(t, 10), 2800);
  assert.equal(fairRemainingTicks({ deadlineTick: 100, serverTick: 70, tickRate: 10, rttMs: 250, inputOffsetTicks: 3 }), 25);
  assert.equal(fairRemainingTicks({ deadlineTick: 100, serverTick: 99, tickRate: 10, rttMs: 1000 }), 0);
  assert.equal(fairRemainingTicks({ deadlineTick: null, serverTick: 1, tickRate: 10 }), null);
  assert.equal(ticksToMillis(7, 3), 2333);
});

test("the SSE parser handles frames split anywhere, comments and CRLF", async () => {
  const text = ": keep-alive\r\nevent: receipt\r\nid: 1\r\ndata: {\"sequence\":1}\r\n\r\nevent: receipt\nid: 2\ndata: {\"sequence\":\ndata: 2}\n\n";
  const bytes = new TextEncoder().encode(text);
  const body = new ReadableStream({
    start(c) { for (let i = 0; i < bytes.length; i += 7) c.enqueue(bytes.slice(i, i + 7)); c.close(); },
  });
  const frames = [];
  await readSse(body, (f) => frames.push(f));
  assert.deepEqual(frames.map((f) => [f.event, f.id, JSON.parse(f.data).sequence]), [["receipt", "1", 1], ["receipt", "2", 2]]);
});

async function connect4(api) {
  const created = await api.createMatch({ game: "connect4", seats: [{ kind: "human" }, { kind: "human" }] });
  return { id: created.matchId, red: api.withToken(created.seats[0].token), yellow: api.withToken(created.seats[1].token), spectator: api.withToken(created.spectatorToken) };
}

function waitFor(cond, ms = 10000) {
  const until = Date.now() + ms;
  return new Promise((ok, fail) => {
    const poll = () => { if (cond()) ok(); else if (Date.now() > until) fail(new Error("timed out")); else setTimeout(poll, 25); };
    poll();
  });
}

test("the stream resumes after a drop with Last-Event-ID: nothing lost, nothing doubled", async () => {
  const api = new Client({ base: server.url });
  const m = await connect4(api);
  const seen = [];
  const states = [];
  const stream = m.spectator.stream(m.id, { after: 0, onReceipt: (r) => seen.push(r.sequence), onState: (s) => states.push(s), maxBackoffMs: 200 });
  await waitFor(() => states.includes("open"));
  await m.red.command(m.id, { action: { type: "drop", column: 3 }, expectedSequence: 0 });
  await waitFor(() => seen.length === 1);
  stream.reconnect(); // drop the connection: the client reconnects with Last-Event-ID: 1
  await m.yellow.command(m.id, { action: { type: "drop", column: 3 }, expectedSequence: 1 });
  await m.red.command(m.id, { action: { type: "drop", column: 4 }, expectedSequence: 2 });
  await waitFor(() => seen.length >= 3);
  await new Promise((r) => setTimeout(r, 300));
  stream.close();
  assert.deepEqual(seen, [1, 2, 3]);
  assert.ok(states.includes("reconnecting"), `states: ${states}`);
  assert.equal(stream.lastSequence(), 3);
});

test("a stale command (409) refreshes the snapshot and says so; errors carry the server's code", async () => {
  const api = new Client({ base: server.url });
  const m = await connect4(api);
  const messages = [];
  const session = new MatchSession(m.red, m.id, { onMessage: (text, kind) => messages.push([kind, text]) });
  await session.start();
  // Yellow can't move first: a 422 with the rule's code, reported as a message
  await assert.rejects(m.yellow.command(m.id, { action: { type: "drop", column: 0 }, expectedSequence: 0 }), (e) => e.status === 422 && typeof e.code === "string" && e.message.length > 0);
  // Red moves through another client; the session still holds sequence 0
  await m.red.command(m.id, { action: { type: "drop", column: 0 }, expectedSequence: 0 });
  session.close(); // no stream: the session must find out from the 409
  session.sequence = 0;
  const r = await session.send({ type: "drop", column: 1 });
  assert.equal(r, null);
  assert.equal(messages.length, 1);
  assert.equal(messages[0][0], "warning");
  assert.match(messages[0][1], /moved on/);
  assert.equal(session.sequence, 1, "the snapshot was refreshed");
  await assert.rejects(new Client({ base: server.url, token: "tsk_nope" }).snapshot(m.id), (e) => e.status === 401);
  await assert.rejects(new Client({ base: "http://127.0.0.1:9" }).games(), (e) => e.code === "network_error");
});

// clover's page lists a score's steps and keeps running chips and mult from them. Matches'
// receipts may carry no step list yet, so check the reading on the calculator's receipt, which
// has the same step form as the game's scoring (`turnstile clover score --json`).
test("clover: the page's reading of score steps ends on the receipt's chips and mult", () => {
  const bin = process.env.TURNSTILE_BIN || join(REPO, "target", "debug", "turnstile");
  const receipt = JSON.parse(execFileSync(bin, ["clover", "score", "--json", join(REPO, "games/clover/examples/flush.json")], { encoding: "utf8" }));
  const sc = scoreOf({ type: "handScored", hand: receipt.hand, score: receipt, total: receipt.score });
  assert.equal(sc.score, receipt.score);
  assert.equal(sc.steps.length, receipt.steps.length);
  let chips = 0, mult = 0;
  for (const step of sc.steps) {
    const role = stepRole(step);
    if (role === "chips") { assert.equal(step.before.int, chips, `${step.owner} starts from the running chips`); chips = step.after.int; }
    if (role === "mult") { assert.equal(step.before.fixed, mult, `${step.owner} starts from the running mult`); mult = step.after.fixed; }
  }
  assert.equal(chips, receipt.chips);
  assert.equal(mult, receipt.mult);
  assert.equal(Math.floor((chips * mult) / 10000), receipt.score);
});

test("clover's hand names read as words: \"Three of a kind\", never \"of akind\"", () => {
  assert.equal(handName("threeOfAKind"), "Three of a kind");
  assert.equal(handName("fourOfAKind"), "Four of a kind");
  assert.equal(handName("fiveOfAKind"), "Five of a kind");
  for (const id of HANDS) assert.doesNotMatch(handName(id), /akind|[A-Z].*[A-Z]/, id);
});

// The score steps in words: content names and numbers, no row numbers or operation names; and
// the words follow the numbers (a chips step says by how much, a mult step × or +).
test("clover: every score step of the calculator's receipt reads in words", () => {
  const bin = process.env.TURNSTILE_BIN || join(REPO, "target", "debug", "turnstile");
  const receipt = JSON.parse(execFileSync(bin, ["clover", "score", "--json", join(REPO, "games/clover/examples/flush.json")], { encoding: "utf8" }));
  const names = { "joker:rose_pin": "Rose Pin", "boss:millstone": "The Millstone" };
  const lines = receipt.steps.map((st) => stepWords(st, { nameOf: (ref) => names[ref] || null }));
  for (const [i, { who, what }] of lines.entries()) {
    const text = `${who}: ${what}`;
    assert.doesNotMatch(text, /\brow\b|AddChips|AddMult|MulMult|BaseMult|HalveChips|HalveMult|Retrigger|ScaleSelf|Destroy|OnCard|undefined|null/, `step ${i}: ${text}`);
  }
  const base = receipt.steps.findIndex((st) => st.operation === "Base");
  assert.deepEqual(lines[base], { who: "Flush", what: "base chips 0 → 50" });
  const rose = receipt.steps.findIndex((st) => st.owner === "joker:rose_pin");
  assert.equal(lines[rose].who, "Rose Pin");
  assert.equal(lines[rose].what, "+3 mult (3 → 6)");
  const glass = receipt.steps.findIndex((st) => st.owner === "enhancement:glass" && st.operation === "MulMult");
  assert.match(lines[glass].what, /^×2 mult \(6 → 12\)$/);
  const halved = receipt.steps.findIndex((st) => st.operation === "HalveChips");
  assert.deepEqual(lines[halved], { who: "The Millstone", what: "chips halved (50 → 25)" });
});

test("the debug panel's bot step picks actions inside the legal ranges", () => {
  let seed = 7;
  const rand = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  for (let i = 0; i < 200; i++) {
    const v = pickInRange({ kind: "integer", min: 2, max: 5 }, rand);
    assert.ok(Number.isInteger(v) && v >= 2 && v <= 5, `integer ${v}`);
    const c = pickInRange({ kind: "cells", cells: [[0, 1], [2, 2]] }, rand);
    assert.ok([[0, 1], [2, 2]].some((x) => x[0] === c[0] && x[1] === c[1]));
  }
  // values come typed as the field takes them (integers for a hand index), and go back verbatim
  assert.deepEqual(actionFrom({ kind: "PLAY_CARD", params: [{ name: "hand", range: { kind: "oneOf", values: [3] } }] }), { type: "PLAY_CARD", hand: 3 });
  assert.deepEqual(actionFrom({ kind: "move", params: [{ name: "direction", range: { kind: "oneOf", values: ["up"] } }] }), { type: "move", direction: "up" });
  const cards = actionFrom({ kind: "play", params: [{ name: "cards", range: { kind: "subsetOf", items: [0, 1, 2], min: 1, max: 5 } }] }, rand).cards;
  assert.ok(Array.isArray(cards) && cards.length >= 1 && cards.every((x) => [0, 1, 2].includes(x)), `subset ${cards}`);
  assert.deepEqual(actionFrom({ kind: "drop", params: [{ name: "column", range: { kind: "integer", min: 4, max: 4 } }] }), { type: "drop", column: 4 });
  assert.equal(actionFrom({ kind: "x", params: [{ name: "p", range: { kind: "oneOf", values: [] } }] }), null, "no value: no action");
});

test("each game's web module registers itself; the fallback names an unknown game", () => {
  const ids = registeredGames().map((g) => g.id);
  for (const id of ["sokoban", "connect4", "tictactoe", "duel", "clover"]) assert.ok(ids.includes(id), `${id} registered`);
  assert.equal(gameOf("connect4").seatName(1), "Yellow");
  assert.equal(gameOf("tictactoe").seatName(0), "X");
  const nim = gameOf("nim");
  assert.equal(nim.own, false);
  assert.equal(nim.title, "Nim");
  assert.equal(nim.seatName(0), "Player 1");
  assert.match(nim.describe({ seat: 1, action: { type: "take", pile: 2, count: 3 } }, { game: "nim" }), /Player 2: take \(pile 2, count 3\)/);
  assert.equal(typeof nim.mount, "function", "the generic view mounts it");
});
