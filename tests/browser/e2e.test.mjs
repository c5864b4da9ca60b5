// End-to-end tests of the web client in headless Chromium against the real server binary.
// Run: tests/browser/run.sh (installs, builds, runs), or `node --test` here with the binary built.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, launchBrowser, newPage, screenshotPath, startCuttableProxy, REPO } from "./harness.mjs";
import { Client } from "../../web/api.js";

let server;
let browser;
const problems = [];

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

const T = 15000; // per-wait timeout

async function cellCenter(page, x, y) {
  const box = await page.locator(`[data-cell="${x},${y}"]`).boundingBox();
  assert.ok(box, `cell ${x},${y} is drawn`);
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

async function dragBox(page, from, to) {
  const a = await cellCenter(page, ...from);
  const b = await cellCenter(page, ...to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 3 });
  await page.mouse.move(b.x, b.y, { steps: 3 });
  await page.mouse.up();
  await page.locator(`[data-cell="${to[0]},${to[1]}"][data-kind^="box"]`).waitFor({ state: "attached", timeout: T });
}

/** Opens the lobby's folded "More options" form (game, options, seed, seats). */
async function openOptions(page) {
  const more = page.locator("details.more-options");
  await more.waitFor({ timeout: T });
  if (!(await more.evaluate((d) => d.open))) await more.locator("summary").click();
  await page.locator("#game").waitFor({ timeout: T });
}

test("the lobby: one click to play each game, options folded away", async () => {
  const { context, page } = await newPage(browser, problems);
  await page.goto(server.url + "/");
  await page.getByRole("heading", { name: "Play" }).waitFor({ timeout: T });
  const cards = page.locator("ul.games > li");
  await cards.nth(4).waitFor({ timeout: T });
  const text = await cards.allInnerTexts();
  for (const game of ["Sokoban", "Connect Four", "Tic-Tac-Toe", "Duel", "Clover"]) assert.ok(text.some((t) => t.includes(game)), `${game} listed`);
  assert.ok(text.every((t) => !/[0-9a-f]{12}/.test(t)), "no revision hashes on the game cards");
  // the options are folded away: the form is not shown until asked for
  assert.equal(await page.locator("#game").isVisible(), false);
  await page.screenshot({ path: screenshotPath("lobby.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 800 });
  await openOptions(page);
  for (const id of ["duel", "clover"]) {
    await page.locator("#game").selectOption(id); // their options have long texts
    assert.ok(await fitsWidth(page), `the lobby with ${id}'s options fits 390 px`);
  }
  await page.screenshot({ path: screenshotPath("lobby-phone.png"), fullPage: true });
  // one click: Connect Four against the strong bot, straight onto the board
  await page.setViewportSize({ width: 1100, height: 800 });
  await page.locator('.play-now[data-game="connect4"]').click();
  await page.getByTestId("turn-status").filter({ hasText: "Your turn" }).waitFor({ timeout: T });
  assert.match(await page.getByTestId("table-line").innerText(), /You play Red against Yellow \(strong bot\)/);
  // the API link opens a readable page, not raw JSON
  await page.getByRole("link", { name: "API" }).click();
  await page.locator(".api-route", { hasText: "/commands" }).first().waitFor({ timeout: T });
  await context.close();
});

test("Sokoban: undo/redo keys, then solve Microban 1 by clicking a cell and dragging boxes", async () => {
  const { context, page } = await newPage(browser, problems);
  await page.goto(server.url + "/");
  await openOptions(page);
  await page.locator("#game").selectOption("sokoban");
  await page.locator("#collection").selectOption("microban");
  await page.locator("#level").selectOption("1");
  await page.getByRole("button", { name: "Create match" }).click();
  await page.locator('a.play[data-seat="0"]').click();
  await page.locator('[data-cell="2,3"]').waitFor({ state: "attached", timeout: T });
  assert.equal(await page.getByTestId("moves").innerText(), "0");

  // click a floor cell: the player walks there (walkTo)
  const c = await cellCenter(page, 3, 3);
  await page.mouse.click(c.x, c.y);
  await page.getByTestId("moves").filter({ hasText: "1" }).waitFor({ timeout: T });

  // keyboard: undo (u) and redo (y) the walk
  await page.locator("svg.sokoban-board").focus();
  await page.keyboard.press("u");
  await page.getByTestId("moves").filter({ hasText: "0" }).waitFor({ timeout: T });
  await page.keyboard.press("y");
  await page.getByTestId("moves").filter({ hasText: "1" }).waitFor({ timeout: T });

  // a box pushed onto a dead square is warned about; undo takes it back
  await dragBox(page, [3, 4], [4, 4]);
  await page.locator(".dead-warning", { hasText: "dead square" }).waitFor({ timeout: T });
  await page.keyboard.press("z");
  await page.locator(".dead-warning").waitFor({ state: "hidden", timeout: T });
  await page.locator('[data-cell="3,4"][data-kind="box"]').waitFor({ state: "attached", timeout: T });

  // drag each box to its next cell (pushTo); the engine plans the walk between pushes
  const pushes = [[[1, 3], [1, 2]], [[3, 4], [2, 4]], [[2, 4], [2, 3]], [[2, 3], [3, 3]], [[1, 2], [1, 3]], [[3, 3], [2, 3]], [[2, 3], [2, 1]]];
  for (const [from, to] of pushes) await dragBox(page, from, to);

  const banner = page.locator(".solved-banner");
  await banner.getByRole("heading", { name: "Solved!" }).waitFor({ timeout: T });
  const lurd = await page.getByTestId("lurd").inputValue();
  assert.match(lurd, /^[lurdLURD]+$/);
  assert.equal((lurd.match(/[LURD]/g) || []).length, Number(await page.getByTestId("pushes").innerText()));
  await page.screenshot({ path: screenshotPath("sokoban-solved.png"), fullPage: true });

  // the level picker marks the level solved (localStorage)
  const option = await page.locator("#play-level option[value='1']").innerText();
  assert.match(option, /solved/);

  // a phone-sized window
  await page.setViewportSize({ width: 390, height: 800 });
  await page.screenshot({ path: screenshotPath("sokoban-phone.png"), fullPage: true });
  await page.setViewportSize({ width: 1100, height: 800 });
  const solvedUrl = page.url();

  // "Next level" starts a new match on level 2
  await banner.getByRole("button", { name: "Next level" }).click();
  await page.locator(".level-title", { hasText: "level 2" }).waitFor({ timeout: T });
  assert.notEqual(page.url(), solvedUrl);
  await page.goto(solvedUrl);
  await banner.getByRole("heading", { name: "Solved!" }).waitFor({ timeout: T });

  // the replay: 13 commands (walk, undo, redo, dead push, undo, 7 pushes, and finish — "Next
  // level" moved on from the solved level); the board is rebuilt at each step
  await page.getByRole("link", { name: "Replay" }).click();
  const label = page.getByTestId("step-label");
  await label.filter({ hasText: "Step 0 of 13" }).waitFor({ timeout: T }); // a replay starts at the beginning
  await page.getByRole("button", { name: "Last step" }).click();
  await label.filter({ hasText: "Step 13 of 13" }).waitFor({ timeout: T });
  assert.equal(await page.locator(".replay-board .box.on-goal").count(), 2);
  await page.locator("#scrub").fill("2"); // after the undo: the player is back on its start cell
  await label.filter({ hasText: "Step 2 of 13" }).waitFor({ timeout: T });
  const player = page.locator(".replay-board .player");
  assert.deepEqual([await player.getAttribute("cx"), await player.getAttribute("cy")], ["2.5", "3.5"]);
  await page.locator("#scrub").fill("3");
  await label.filter({ hasText: "Step 3 of 13" }).waitFor({ timeout: T });
  assert.deepEqual([await player.getAttribute("cx"), await player.getAttribute("cy")], ["3.5", "3.5"]);
  await page.screenshot({ path: screenshotPath("replay-sokoban.png"), fullPage: true });
  await context.close();
});

test("Connect Four: two browsers play live to a win, then the replay viewer", async () => {
  const a = await newPage(browser, problems);
  const b = await newPage(browser, problems);
  await a.page.goto(server.url + "/");
  await openOptions(a.page);
  await a.page.locator("#game").selectOption("connect4");
  await a.page.locator("#seat-0").selectOption("human");
  await a.page.locator("#seat-1").selectOption("human");
  await a.page.getByRole("button", { name: "Create match" }).click();
  const seat1Link = await a.page.locator('.created input.link').nth(0).inputValue();
  const spectatorLink = await a.page.locator('.created input.link').nth(1).inputValue();
  assert.match(seat1Link, /#\/match\/.+\?token=/);
  await a.page.locator('a.play[data-seat="0"]').click();
  // the second browser joins through the lobby's "join by link" form
  await b.page.goto(server.url + "/");
  await b.page.locator("#join").fill(seat1Link);
  await b.page.getByRole("button", { name: "Join" }).click();

  // a third browser watches with the spectator link
  const c = await newPage(browser, problems);
  await c.page.goto(spectatorLink);
  await c.page.getByText("You are watching").first().waitFor({ timeout: T });

  const status = (p) => p.getByTestId("turn-status");
  await status(a.page).filter({ hasText: "Your turn" }).waitFor({ timeout: T });
  await status(b.page).filter({ hasText: "Red to move" }).waitFor({ timeout: T });

  // Red drops in column 1 four times, Yellow in column 2 three times: Red wins vertically.
  const moves = [[a, 0], [b, 1], [a, 0], [b, 1], [a, 0], [b, 1], [a, 0]];
  for (let i = 0; i < moves.length; i++) {
    const [who, col] = moves[i];
    await status(who.page).filter({ hasText: "Your turn" }).waitFor({ timeout: T });
    if (who === b && i === 3) await b.page.keyboard.press(String(col + 1)); // keys 1–7 drop too
    else await who.page.locator(`.mnk-board button[data-col="${col}"]`).click();
    // the other browser sees the move through the live stream
    const other = who === a ? b : a;
    await other.page.locator(`ol.log li[data-seq="${i + 1}"]`).waitFor({ timeout: T });
  }
  await status(a.page).filter({ hasText: "You win" }).waitFor({ timeout: T });
  for (const p of [b.page, c.page]) await status(p).filter({ hasText: "Red wins" }).waitFor({ timeout: T });
  // the winning line stands out: a line drawn through it, its discs ringed
  assert.equal(await a.page.locator(".mnk-board .win-line line").count(), 1);
  assert.equal(await c.page.locator(".mnk-board .piece.p1").count(), 3);
  await c.context.close();
  assert.equal(await b.page.locator(".mnk-board .piece.p0").count(), 4);
  assert.equal(await b.page.locator(".mnk-board .piece.win").count(), 4);
  await a.page.screenshot({ path: screenshotPath("connect4-red.png"), fullPage: true });
  await b.page.setViewportSize({ width: 390, height: 800 });
  await b.page.screenshot({ path: screenshotPath("connect4-yellow-phone.png"), fullPage: true });

  // the end offers a rematch
  await a.page.getByRole("button", { name: "Rematch" }).waitFor({ timeout: T });

  // the replay viewer of the finished match (the developer details shown with ~)
  await a.page.getByRole("link", { name: "Replay" }).click();
  const label = a.page.getByTestId("step-label");
  await label.filter({ hasText: "Step 0 of 7" }).waitFor({ timeout: T });
  await a.page.getByRole("button", { name: "Last step" }).click();
  await label.filter({ hasText: "Step 7 of 7" }).waitFor({ timeout: T });
  await a.page.keyboard.press("~");
  const last = await a.page.getByTestId("fingerprint").innerText();
  assert.match(last, /^sha256:[0-9a-f]{64}$/);
  await a.page.getByRole("button", { name: "Step back" }).click();
  await label.filter({ hasText: "Step 6 of 7" }).waitFor({ timeout: T });
  const previous = await a.page.getByTestId("fingerprint").innerText();
  assert.notEqual(previous, last);
  assert.equal(await a.page.locator(".replay-board .piece.p0").count(), 3);
  await a.page.locator("#scrub").fill("2");
  await label.filter({ hasText: "Step 2 of 7" }).waitFor({ timeout: T });
  await a.page.screenshot({ path: screenshotPath("replay-connect4.png"), fullPage: true });

  // my matches lists it
  await a.page.goto(server.url + "/#/matches");
  await a.page.locator("table.matches tbody tr").first().waitFor({ timeout: T });
  assert.match(await a.page.locator("table.matches").innerText(), /Connect Four/);
  await a.context.close();
  await b.context.close();
});

test("Tic-Tac-Toe against the strong bot, with the turn timer shown", async () => {
  const { context, page } = await newPage(browser, problems);
  await page.goto(server.url + "/");
  await openOptions(page);
  await page.locator("#game").selectOption("tictactoe");
  await page.locator("#turnConfig").selectOption("timed");
  await page.locator("#seat-1").selectOption("bot:strong");
  await page.getByRole("button", { name: "Create match" }).click();
  await page.locator('a.play[data-seat="0"]').click();
  await page.getByTestId("turn-status").filter({ hasText: "Your turn" }).waitFor({ timeout: T });
  await page.getByTestId("timer").filter({ hasText: /You have \d+\.\d s/ }).waitFor({ timeout: T });
  await page.locator('.mnk-board button[data-col="1"][data-row="1"]').click();
  // the bot answers: its move appears in the log, named as a bot
  await page.locator("ol.log li", { hasText: "O (strong bot) took" }).first().waitFor({ timeout: T });
  await page.getByTestId("turn-status").filter({ hasText: "Your turn" }).waitFor({ timeout: T });
  await page.screenshot({ path: screenshotPath("tictactoe-vs-bot.png"), fullPage: true });
  // the replay of one's own running match: one's view of the timeline so far
  await page.getByRole("link", { name: "Replay" }).click();
  // three steps: the clock's start (logged when X opened the board), X's move, the bot's
  await page.getByTestId("step-label").filter({ hasText: "Step 0 of 3" }).waitFor({ timeout: T });
  assert.match(await page.locator("ol.steps").innerText(), /Everyone is here: the clock starts/);
  assert.match(await page.locator("main .lede").first().innerText(), /so far, as you saw them/);
  await context.close();
});

test("Tic-Tac-Toe blitz: timeouts are shown, then the forfeit", async () => {
  const { context, page } = await newPage(browser, problems);
  await page.goto(server.url + "/");
  await openOptions(page);
  await page.locator("#game").selectOption("tictactoe");
  await page.locator("#turnConfig").selectOption("blitz");
  await page.getByRole("button", { name: "Create match" }).click();
  await page.locator('a.play[data-seat="0"]').click();
  await page.getByTestId("timer").filter({ hasText: /You have \d+\.\d s/ }).waitFor({ timeout: T });
  // nobody moves: each 3-second turn times out (the server submits Timeout), two in a row forfeit
  await page.locator("ol.log li", { hasText: "Your time ran out" }).first().waitFor({ timeout: T });
  await page.getByTestId("turn-status").filter({ hasText: "forfeit" }).waitFor({ timeout: 20000 });
  await page.screenshot({ path: screenshotPath("tictactoe-timeouts.png"), fullPage: true });
  await context.close();
});

/** Whether the page fits its viewport's width (no sideways scrolling on a phone). */
async function fitsWidth(page) {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

/** The token in a match page's URL (`#/match/<id>?token=…`). */
function pageToken(page) {
  const hash = new URL(page.url()).hash;
  return { matchId: decodeURIComponent(hash.split("/")[2].split("?")[0]), token: new URLSearchParams(hash.split("?")[1]).get("token") };
}

test("clover: play a hand; the score shown is the resolution's", async () => {
  const { context, page } = await newPage(browser, problems);
  await page.goto(server.url + "/");
  await openOptions(page);
  await page.locator("#game").selectOption("clover");
  await page.locator("#clover-deck").selectOption("plain");
  await page.locator("#seed").fill("browser-clover");
  await page.getByRole("button", { name: "Create match" }).click();
  await page.locator('a.play[data-seat="0"]').click();
  const playBlind = page.locator('[data-action="selectBlind"][aria-disabled="false"]');
  await playBlind.waitFor({ timeout: T });
  await playBlind.click();
  await page.getByTestId("target").filter({ hasText: /^\d+$/ }).waitFor({ timeout: T });
  const cards = page.locator(".hand button.pcard");
  await cards.nth(7).waitFor({ timeout: T });
  // select two cards: one by click, one by keyboard (Tab to it, Enter); the selection is shown
  await cards.nth(0).click();
  await cards.nth(1).focus();
  await page.keyboard.press("Enter");
  await page.locator('.hand button.pcard[aria-pressed="true"]').nth(1).waitFor({ timeout: T });
  // the preview (on hover) names the hand and its score before anything is committed
  const play = page.locator('[data-action="play"][aria-disabled="false"]');
  await play.hover();
  await page.getByTestId("preview").filter({ hasText: "would score" }).waitFor({ timeout: T });
  const previewed = Number((await page.getByTestId("preview").innerText()).match(/would score (\d+)/)[1]);
  await play.click();
  const shown = page.getByTestId("hand-score");
  await shown.waitFor({ timeout: T });
  const commandId = await page.getByTestId("score-box").getAttribute("data-command-id");
  assert.ok(commandId, "the score box names its command");

  // the same resolution through the API, with the page's own token
  const { matchId, token } = pageToken(page);
  const me = new Client({ base: server.url, token });
  const resolution = await me.resolution(matchId, commandId);
  const scored = resolution.steps.map((s) => s.event).find((e) => e.type === "handScored");
  assert.ok(scored, "the resolution has a scored hand");
  const score = typeof scored.score === "object" ? scored.score.score : scored.score;
  assert.equal(Number(await shown.innerText()), score, "the page shows the resolution's score");
  assert.equal(previewed, score, "the preview foretold the same score");
  const handName = await page.getByTestId("hand-name").innerText();
  assert.equal(handName.toLowerCase().replace(/[ _]/g, ""), String(scored.hand).toLowerCase().replace(/[ _]/g, ""));
  // steps, when the receipt carries them, are listed in order and end on the score's chips and mult
  const steps = scored.steps || (typeof scored.score === "object" ? scored.score.steps : null);
  assert.ok(Array.isArray(steps) && steps.length > 0, "the receipt carries the score's steps");
  await page.locator("ol.score-steps li").nth(steps.length - 1).waitFor({ timeout: T });
  assert.equal(await page.locator("ol.score-steps li").count(), steps.length);
  assert.deepEqual(await page.locator("ol.score-steps li").evaluateAll((li) => li.map((x) => x.dataset.owner)), steps.map((x) => x.owner));
  // the blind's running total follows
  await page.getByTestId("scored").filter({ hasText: String(scored.total) }).waitFor({ timeout: T });
  assert.equal(await page.getByTestId("hands-left").innerText(), "3");
  await page.screenshot({ path: screenshotPath("clover.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 800 });
  await page.screenshot({ path: screenshotPath("clover-phone.png"), fullPage: true });
  assert.ok(await fitsWidth(page), "clover fits 390 px");

  // the replay viewer summarizes each step: after the play, one hand with the receipt's score
  await page.setViewportSize({ width: 1100, height: 800 });
  await page.getByRole("link", { name: "Replay" }).click();
  await page.getByTestId("step-label").filter({ hasText: "Step 0 of 2" }).waitFor({ timeout: T });
  await page.getByRole("button", { name: "Last step" }).click();
  await page.getByTestId("step-label").filter({ hasText: "Step 2 of 2" }).waitFor({ timeout: T });
  const summary = await page.getByTestId("replay-summary").innerText();
  assert.match(summary, /Hands played\s+1/);
  assert.match(summary, new RegExp(`Scored\\s+${scored.total} of \\d+`));
  await page.getByRole("button", { name: "Step back" }).click();
  await page.getByTestId("replay-summary").filter({ hasText: /Hands played\s*0/ }).waitFor({ timeout: T });
  await context.close();
});

// Reaching a shop takes a beaten blind: the test plays, through the API, the best-scoring
// selection of each hand (found with previews) on a few seeds until one beats the small blind.
async function cloverInShop(seedPrefix = "browser-shop") {
  const api = new Client({ base: server.url });
  for (let n = 0; n < 6; n++) {
    const created = await api.createMatch({ game: "clover", seats: [{ kind: "human" }], seed: `${seedPrefix}-${n}` });
    const me = api.withToken(created.seats[0].token);
    const id = created.matchId;
    let seq = (await me.command(id, { action: { type: "selectBlind" }, expectedSequence: 0 })).sequence;
    const plays = [];
    for (;;) {
      const { view } = await me.snapshot(id);
      if (view.phase !== "playing") break;
      let best = null;
      for (let mask = 1; mask < 1 << view.hand.length; mask++) {
        const cards = view.hand.map((_, i) => i).filter((i) => mask & (1 << i));
        if (cards.length > 5) continue;
        const e = (await me.preview(id, { type: "play", cards })).events.find((x) => x.type === "handScored");
        if (!best || e.score > best.score) best = { score: e.score, cards };
      }
      plays.push(best.cards);
      seq = (await me.command(id, { action: { type: "play", cards: best.cards }, expectedSequence: seq })).sequence;
    }
    const { view } = await me.snapshot(id);
    if (view.phase === "shop") return { matchId: id, token: created.seats[0].token, me, view, seed: `${seedPrefix}-${n}`, plays };
  }
  throw new Error("no seed beat the small blind");
}

// The tarots that change hand cards, from the shipped catalog (`picks` > 0).
function cardTarots() {
  const text = readFileSync(join(REPO, "games/clover/content/catalog.tsv"), "utf8");
  const [head, ...rows] = text.split(/\r?\n/).filter((l) => l.trim());
  const cols = head.split("\t");
  const out = new Map();
  for (const line of rows) {
    const row = Object.fromEntries(cols.map((c, i) => [c, line.split("\t")[i] ?? ""]));
    if (row.kind === "tarot" && Number(row.picks) > 0) out.set(`tarot:${row.id}`, { name: row.name, picks: Number(row.picks) });
  }
  return out;
}

test("clover: a tarot that changes hand cards is used on the selected cards", async () => {
  const tarots = cardTarots();
  const offerRef = (o) => (o && typeof o === "object" ? o.item : o);
  let run = null;
  // a seed whose first shop offers such a tarot the money covers: bought and kept for a blind
  for (let n = 0; n < 6 && !run; n++) {
    const shop = await cloverInShop(`browser-use-${n}`);
    const slot = shop.view.shop.findIndex((o) => tarots.has(offerRef(o)));
    if (slot < 0) continue;
    let seq = (await shop.me.snapshot(shop.matchId)).sequence;
    try {
      seq = (await shop.me.command(shop.matchId, { action: { type: "buy", slot }, expectedSequence: seq })).sequence;
    } catch { continue; }
    seq = (await shop.me.command(shop.matchId, { action: { type: "leaveShop" }, expectedSequence: seq })).sequence;
    await shop.me.command(shop.matchId, { action: { type: "selectBlind" }, expectedSequence: seq });
    run = { ...shop, tarot: tarots.get(offerRef(shop.view.shop[slot])) };
  }
  assert.ok(run, "a seed's first shop offered a card-changing tarot");
  const { context, page } = await newPage(browser, problems);
  await page.goto(`${server.url}/#/match/${run.matchId}?token=${run.token}`);
  const use = page.getByRole("button", { name: `Use ${run.tarot.name} on the selected cards` });
  await use.waitFor({ timeout: T });
  // with nothing selected the button says what is missing and sends nothing
  await use.click({ force: true });
  await page.getByText(`Select 1 to ${run.tarot.picks} cards of your hand for ${run.tarot.name}.`).first().waitFor({ timeout: T });
  const before = (await run.me.snapshot(run.matchId)).sequence;
  await page.locator('.hand [data-index="0"]').click();
  await page.getByRole("button", { name: `Use ${run.tarot.name} on the selected cards` }).filter({ hasText: "Use on 1 selected" }).click();
  await page.locator(".consumables", { hasText: "None." }).waitFor({ timeout: T });
  const after = await run.me.snapshot(run.matchId);
  assert.equal(after.sequence, before + 1, "one command: the use");
  const receipt = (await run.me.timelineAll(run.matchId, before)).find((r) => r.sequence === before + 1);
  assert.deepEqual(receipt.action, { type: "use", index: 0, cards: [0] });
  await context.close();
});

test("clover: the shop — buy, sell, leave — from the page's buttons", async () => {
  const shop = await cloverInShop();
  const { context, page } = await newPage(browser, problems);
  await page.goto(`${server.url}/#/match/${shop.matchId}?token=${shop.token}`);
  const offers = page.locator('[aria-label="Offers"] .offer');
  await offers.first().waitFor({ timeout: T });
  assert.equal(await offers.count(), shop.view.shop.length);
  await page.locator('[data-action="leaveShop"][aria-disabled="false"]').waitFor({ timeout: T });
  const money = () => page.getByTestId("money").innerText();
  assert.equal(await money(), `$${shop.view.money}`);
  // buy the first joker the money covers (its price is not marked short), then sell it
  const joker = page.locator('[aria-label="Offers"] .offer.kind-joker', { has: page.locator(".cost:not(.short)") }).first();
  assert.ok(await joker.count(), "the shop of the seed found offers a joker the money covers");
  const name = await joker.locator("strong").innerText();
  await joker.getByRole("button", { name: /^Buy/ }).click();
  await page.locator(".jokers .joker", { hasText: name }).waitFor({ timeout: T });
  const afterBuy = await money();
  assert.notEqual(afterBuy, `$${shop.view.money}`);
  assert.equal(await offers.count(), shop.view.shop.length - 1, "the bought offer leaves the shop");
  await page.getByRole("button", { name: `Sell ${name}` }).click();
  await page.locator(".jokers .joker", { hasText: name }).waitFor({ state: "detached", timeout: T });
  assert.notEqual(await money(), afterBuy, "selling pays");
  await page.screenshot({ path: screenshotPath("clover-shop.png"), fullPage: true });
  await page.locator('[data-action="leaveShop"][aria-disabled="false"]').click();
  await page.locator('[data-action="selectBlind"][aria-disabled="false"]').waitFor({ timeout: T });
  assert.match(await page.getByTestId("blind").innerText(), /Big blind/);
  // skip the big blind for a tag: the tag taken is listed, and the boss comes next
  await page.locator('[data-action="skipBlind"][aria-disabled="false"]').click();
  await page.locator(".clover-extras", { hasText: "Tags taken" }).locator("li").first().waitFor({ timeout: T });
  // the boss was chosen when the ante started: it is named before its blind is played, in the
  // status bar and in the ante's list of blinds
  await page.getByTestId("blind").filter({ hasText: "Boss:" }).waitFor({ timeout: T });
  await page.getByTestId("ante-blinds").locator("li", { hasText: "Boss:" }).waitFor({ timeout: T });
  // playing it puts its effect text in effect
  await page.locator('[data-action="selectBlind"][aria-disabled="false"]').click();
  const boss = page.getByTestId("boss").filter({ hasText: "Boss of ante 1" });
  await boss.filter({ hasText: "in effect" }).waitFor({ timeout: T });
  assert.match(await boss.innerText(), /— \S/, "the boss effect text from the catalog");
  await context.close();
});
// game's minimum start as "nobody"), so the bot is the only other seat to answer the window.
test("Duel: priority-window against a bot — legal cards highlighted, preview on hover, respond or pass", async () => {
  const { context, page } = await newPage(browser, problems);
  await page.goto(server.url + "/");
  await openOptions(page);
  await page.locator("#game").selectOption("duel");
  await page.locator("#preset").selectOption("priority-window");
  await page.locator("#seat-1").selectOption("bot:strong");
  await page.locator("#seed").fill("browser-duel");
  await page.getByRole("button", { name: "Create match" }).click();
  await page.locator('a.play[data-seat="0"]').click();
  await page.getByTestId("preset").filter({ hasText: "Priority window rules" }).waitFor({ timeout: T });
  await page.getByTestId("turn-status").filter({ hasText: "Your turn" }).waitFor({ timeout: T });
  // the opponent's hand is only a count of backs
  assert.match(await page.getByTestId("hand-count-1").getAttribute("aria-label"), /holds \d+ cards/);

  // exactly the cards legal-actions allows are playable
  const playable = page.locator(".duel-hand .duel-card.playable");
  await playable.first().waitFor({ timeout: T });
  const { matchId, token } = pageToken(page);
  const me = new Client({ base: server.url, token });
  const legal = await me.legalActions(matchId);
  const allowed = legal.actions.find((a) => a.kind === "PLAY_CARD").params[0].range.values.map(Number);
  const shown = await playable.evaluateAll((els) => els.map((e) => Number(e.dataset.hand)));
  assert.deepEqual(shown, allowed);
  assert.equal(await page.locator(".duel-hand .duel-card:not(.playable)[aria-disabled=true]").count(),
    await page.locator(".duel-hand .duel-card").count() - allowed.length);

  // hovering a card previews it: its mana is spent and it goes onto the stack
  const manaBefore = (await page.getByTestId("mana-0").innerText()).match(/Mana\s*(\d+)/)[1];
  await playable.first().hover();
  const changes = page.getByTestId("preview-changes");
  await changes.filter({ hasText: `You: mana ${manaBefore} →` }).waitFor({ timeout: T });
  assert.match(await changes.innerText(), /Stack:/);
  await playable.first().click();

  // the bot answers in the window, then priority comes back: pass (both passed: it resolves)
  const mine = page.locator('[data-testid="response-window"].mine');
  await mine.waitFor({ timeout: T });
  assert.match(await mine.innerText(), /You hold priority/);
  const pass = page.locator('[data-action="PASS_PRIORITY"][aria-disabled="false"]');
  await pass.hover(); // passing after the bot passed resolves the top of the stack
  await page.getByTestId("preview").filter({ hasText: "Pass priority would" }).waitFor({ timeout: T });
  assert.match(await changes.innerText(), /Stack: empty|The response window closes/);
  await page.screenshot({ path: screenshotPath("duel.png"), fullPage: true });
  await pass.click();
  await page.locator("ol.log li", { hasText: "resolved" }).first().waitFor({ timeout: T });

  // the bot's turn: each of its plays opens a window in which this seat holds priority.
  // `settled` waits until the page shows the match as the server has it, with its legal actions.
  const settled = async (after) => {
    for (let target = after + 1; ;) {
      await page.waitForFunction((t) => {
        const d = document.querySelector(".duel");
        return d && d.dataset.legal === d.dataset.sequence && Number(d.dataset.sequence) >= t;
      }, target, { timeout: T });
      const shown = Number(await page.locator(".duel").getAttribute("data-sequence"));
      const now = (await me.snapshot(matchId)).sequence;
      if (now === shown) return shown;
      target = now; // the server is ahead: wait for the page to catch up
    }
  };
  // Ends this seat's turn and answers each window of the bot's turn: with an enabled response
  // card the first time when `respond` (it goes on top of the stack), else by passing.
  const botTurn = async (respond) => {
    let responded = null;
    let seq = Number(await page.locator(".duel").getAttribute("data-sequence"));
    await page.locator('[data-action="END_TURN"][aria-disabled="false"]').click();
    for (let i = 0; i < 30; i++) {
      seq = await settled(seq); // when the bot holds priority, the next round waits for its command
      if (await mine.isVisible()) {
        assert.match(await mine.innerText(), /You hold priority/);
        const response = page.locator(".duel-hand .duel-card.playable.response");
        if (respond && !responded && await response.count()) {
          responded = (await response.first().locator(".name").innerText());
          await response.first().click();
          await page.locator('[data-testid="response-window"] ol.stack li:last-child', { hasText: responded }).waitFor({ timeout: T });
        } else await pass.click();
      } else if (await page.getByTestId("turn-status").filter({ hasText: "Your turn" }).isVisible()) break;
    }
    await page.getByTestId("turn-status").filter({ hasText: "Your turn" }).waitFor({ timeout: T });
    return responded;
  };
  await botTurn(false);
  // keep this turn's mana for the bot's turn, then answer its play with a response card
  const responded = await botTurn(true);
  assert.ok(responded, "a response card was played in the bot's window");
  await page.locator("ol.log li", { hasText: `You played ${responded}` }).waitFor({ timeout: T });
  await page.setViewportSize({ width: 390, height: 800 });
  await page.screenshot({ path: screenshotPath("duel-phone.png"), fullPage: true });
  assert.ok(await fitsWidth(page), "Duel fits 390 px");

  // the replay viewer: health per step from the receipts, the stack while a window was open
  await page.setViewportSize({ width: 1100, height: 800 });
  const health = (await page.getByTestId("health-1").innerText()).match(/Health\s*(\d+)/)[1];
  await page.getByRole("link", { name: "Replay" }).click();
  await page.getByTestId("step-label").filter({ hasText: /Step 0 of \d+/ }).waitFor({ timeout: T });
  await page.getByRole("button", { name: "Last step" }).click();
  await page.getByTestId("step-label").filter({ hasText: /Step (\d+) of \1/ }).waitFor({ timeout: T });
  assert.match(await page.getByTestId("replay-summary").innerText(), new RegExp(`Opponent[\\s\\S]*?Health\\s*${health}\\b`));
  await page.locator("#scrub").fill("1");
  await page.getByTestId("replay-summary").locator(".stack-card", { hasText: "(You)" }).waitFor({ timeout: T });
  await page.screenshot({ path: screenshotPath("replay-duel.png"), fullPage: true });
  await context.close();
});

test("a dropped stream reconnects in the browser and resumes after the last sequence", async () => {
  const proxy = await startCuttableProxy(server.url);
  const api = new Client({ base: server.url });
  const created = await api.createMatch({ game: "connect4", seats: [{ kind: "human" }, { kind: "human" }] });
  const yellow = api.withToken(created.seats[1].token);
  const { context, page } = await newPage(browser, problems);
  try {
    await page.goto(`${proxy.url}/#/match/${created.matchId}?token=${created.seats[0].token}`);
    const conn = page.locator("#conn");
    await conn.filter({ hasText: "live" }).waitFor({ timeout: T });
    await page.locator('.mnk-board button[data-col="0"]').click();
    await page.locator('ol.log li[data-seq="1"]').waitFor({ timeout: T });

    // cut the stream: the page says so, and meanwhile Yellow moves from another client
    proxy.cut();
    await conn.filter({ hasText: "reconnecting" }).waitFor({ timeout: T });
    await yellow.command(created.matchId, { action: { type: "drop", column: 5 }, expectedSequence: 1 });
    assert.equal(await page.locator('ol.log li[data-seq="2"]').count(), 0, "nothing arrives while cut");

    // back: the page reconnects with Last-Event-ID 1 and catches up with the move it missed
    proxy.restore();
    await page.locator('ol.log li[data-seq="2"]', { hasText: "column 6" }).waitFor({ timeout: T });
    await conn.filter({ hasText: "live" }).waitFor({ timeout: T });
    await page.getByTestId("turn-status").filter({ hasText: "Your turn" }).waitFor({ timeout: T });
    assert.equal(await page.locator(".mnk-board .piece.p1").count(), 1);
    assert.equal(await page.locator("ol.log li").count(), 2, "nothing doubled");
    assert.ok(proxy.lastEventIds.includes("1"), `a reconnection resumed after sequence 1 (saw ${JSON.stringify(proxy.lastEventIds)})`);
    await page.screenshot({ path: screenshotPath("reconnected.png"), fullPage: true });
  } finally {
    await context.close();
    proxy.close();
  }
});


// ---- what players see: no developer metadata, every game at both sizes ------------------------

/**
 * Developer metadata that must not appear on a player-facing page (outside the debug panel):
 * match ids, tokens, revisions and fingerprints (hex runs), receipt sequences, score-step row
 * numbers and the engine's operation / action / phase names.
 */
const TECH = [
  [/\bm_[0-9a-z]{6,}/i, "a match id"], [/\btsk_[0-9a-f]{8,}/i, "a token"], [/sha256:/i, "a fingerprint"],
  [/\b[0-9a-f]{12,}\b/i, "a revision or fingerprint"], [/\brev\b/i, "a revision"], [/\bsequence\b/i, "a sequence"],
  [/·\s*row \d+|\brow \d+ ·/i, "a score-step row number"],
  [/\b(AddChips|AddMult|MulMult|BaseMult|BaseChips|HalveChips|HalveMult|ScaleSelf|Retrigger|OnCardScored|OnHandPlayed)\b/, "an operation name"],
  [/\b(PLAY_CARD|END_TURN|PASS_PRIORITY|selectBlind|skipBlind|leaveShop|response_window|walkTo|pushTo)\b/, "an action or phase id"],
  [/\b(refresh-resources|draw-card)\b/, "a rule id"], [/akind\b/i, "“of akind”"], [/\bnull\b|\bundefined\b/, "null/undefined"],
];

/** The page's visible text without the debug panel (and without hidden parts). */
async function playerText(page) {
  return page.evaluate(() => {
    const clone = document.body.cloneNode(true);
    for (const el of clone.querySelectorAll(".debug-panel, [hidden], script, noscript, .sr-only")) el.remove();
    const box = document.createElement("div");
    box.style.position = "absolute"; box.style.left = "-99999px"; box.style.width = "1200px";
    box.append(clone);
    document.documentElement.append(box);
    const text = box.innerText;
    box.remove();
    return text;
  });
}

async function assertPlayerFacing(page, where) {
  const text = await playerText(page);
  for (const [re, what] of TECH) {
    const m = text.match(re);
    assert.ok(!m, `${where}: ${what} on a player page: “${m && text.slice(Math.max(0, m.index - 40), m.index + 40)}”`);
  }
}

/** Whether two of the page's main boxes overlap (a layout broken on a phone). */
async function overlapping(page, selectors) {
  return page.evaluate((sels) => {
    const boxes = sels.flatMap((sel) => [...document.querySelectorAll(sel)].filter((e) => e.offsetParent).map((e) => ({ sel, r: e.getBoundingClientRect() })));
    const out = [];
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i].r, b = boxes[j].r;
      if (a.width && b.width && a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) out.push(`${boxes[i].sel} × ${boxes[j].sel}`);
    }
    return out;
  }, selectors);
}

/** Whether an element is entirely within the viewport. */
async function onScreen(page, selector) {
  return page.locator(selector).first().evaluate((e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight + 1 && r.right <= window.innerWidth + 1;
  });
}

const SIZES = [["desktop", { width: 1280, height: 900 }], ["phone", { width: 390, height: 844 }]];
const BOARDS = { sokoban: "svg.sokoban-board", connect4: ".mnk-board", tictactoe: ".mnk-board", duel: ".duel-main", clover: ".clover-bar" };

for (const [size, viewport] of SIZES) {
  test(`every game at ${viewport.width}×${viewport.height}: one click from the lobby, no developer metadata, screenshots`, async () => {
    const { context, page } = await newPage(browser, problems, { viewport, ...(size === "phone" ? { hasTouch: true, isMobile: true } : {}) });
    await page.goto(server.url + "/");
    await page.locator(".play-now").nth(4).waitFor({ timeout: T });
    assert.equal(await page.evaluate(() => window.scrollY), 0, "the lobby opens at its top");
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= viewport.width, "the lobby fits the width");
    await assertPlayerFacing(page, `lobby (${size})`);
    await page.screenshot({ path: screenshotPath(`lobby-${size}.png`), fullPage: true });
    for (const game of ["sokoban", "connect4", "tictactoe", "duel", "clover"]) {
      await page.goto(server.url + "/");
      await page.locator(`.play-now[data-game="${game}"]`).click();
      await page.locator(BOARDS[game]).first().waitFor({ timeout: T });
      await page.locator("#conn").filter({ hasText: "live" }).waitFor({ timeout: T });
      if (game === "clover") {
        // into the first blind: the hand, then one card played; the score box must be in view after "Play hand"
        await page.locator('[data-action="selectBlind"][aria-disabled="false"]').click();
        await page.locator(".hand button.pcard").nth(4).waitFor({ timeout: T });
        await page.locator(".hand button.pcard").first().click();
        await page.locator('[data-action="play"][aria-disabled="false"]').click();
        await page.getByTestId("hand-score").waitFor({ state: "attached", timeout: T });
        await page.getByTestId("hand-score").waitFor({ timeout: T });
        assert.ok(await onScreen(page, '[data-testid="score-box"] .tally'), `${size}: chips × mult on screen after Play hand`);
      }
      if (game === "duel") await page.locator(".duel-hand .duel-card").first().waitFor({ timeout: T });
      if (game === "sokoban" && size === "phone") {
        // no arrow keys on a phone: the on-screen pad moves the player (the default level's first move is down)
        await page.locator('.dpad [data-move="down"]').click();
        await page.getByTestId("moves").filter({ hasText: "1" }).waitFor({ timeout: T });
        assert.match(await page.locator(".sokoban .help").innerText(), /Tap/, "the help speaks of taps on a touch screen");
      }
      if (game === "connect4" || game === "tictactoe") await page.getByTestId("turn-status").filter({ hasText: "Your turn" }).waitFor({ timeout: T });
      await page.waitForTimeout(400); // let motion settle before the screenshot
      // against the test's width, not innerWidth: a phone's layout viewport widens to fit overflow
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(wide <= viewport.width, `${game} fits ${viewport.width} px (the page is ${wide} px wide)`);
      if (game !== "clover") assert.ok(await onScreen(page, BOARDS[game] === ".duel-main" ? ".duel-seat.them" : BOARDS[game]), `${size}: the ${game} board is on screen`);
      const clash = await overlapping(page, [".match-head", ".turn-banner", ".mnk-board", ".mnk-log", "svg.sokoban-board", ".toolbar", ".duel-seat", ".play-area", ".duel-hand", ".clover-bar", ".score-box", ".hand"]);
      assert.deepEqual(clash, [], `${size}: no boxes overlap on ${game}`);
      await assertPlayerFacing(page, `${game} (${size})`);
      await page.screenshot({ path: screenshotPath(`${game}-${size}.png`), fullPage: size === "desktop" });
      // its replay, through the same module
      await page.getByRole("link", { name: "Replay" }).click();
      await page.getByTestId("step-label").waitFor({ timeout: T });
      await assertPlayerFacing(page, `${game} replay (${size})`);
      if (size === "desktop") await page.screenshot({ path: screenshotPath(`replay-${game}.png`), fullPage: true });
    }
    await page.goto(server.url + "/#/matches");
    await page.locator("table.matches tbody tr").first().waitFor({ timeout: T });
    await assertPlayerFacing(page, `my games (${size})`);
    await context.close();
  });
}

// ---- open games: the server's list in the lobby, joined with one click ----------------------

test("open games: a match left open in one browser is listed in another's lobby, joined with one click and a name, and both play", async () => {
  const a = await newPage(browser, problems, { viewport: { width: 1280, height: 900 } });
  const b = await newPage(browser, problems, { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  await a.page.goto(server.url + "/");
  // the host's name goes with the create body: the server keeps it, so every seat sees it
  await a.page.locator("#player-name").fill("Ann");
  await a.page.locator('.play-friend[data-game="connect4"]').click();
  // the other seat is open: an invite link to the join route, no seat token
  const invite = await a.page.locator(".invites input.link").first().inputValue();
  assert.match(invite, /#\/join\/m_/);
  await a.page.locator('.invites a.play[data-seat="0"]').click();
  await a.page.getByTestId("table-line").filter({ hasText: "a seat still open" }).waitFor({ timeout: T });
  const { matchId } = pageToken(a.page);

  // the second browser (a phone) finds it in the lobby's open games and joins under a name
  await b.page.goto(server.url + "/");
  await b.page.locator("#player-name").fill("Bob");
  const row = b.page.locator(`[data-testid="open-games"] li[data-match="${matchId}"]`);
  await row.waitFor({ timeout: T });
  assert.match(await row.innerText(), /Connect Four[\s\S]*Ann[\s\S]*1 of 2 seats open/, "the host is listed by the name given at creation");
  await assertPlayerFacing(b.page, "lobby with open games (phone)");
  await b.page.screenshot({ path: screenshotPath("lobby-open-games-phone.png"), fullPage: true });
  await row.getByRole("button", { name: "Join" }).click();
  await b.page.locator(".mnk .mnk-board").waitFor({ timeout: T }); // the board, not the lobby's art
  assert.equal(pageToken(b.page).matchId, matchId);
  await b.page.getByTestId("table-line").filter({ hasText: "You play Yellow against Ann (Red)" }).waitFor({ timeout: T });
  // the name is the server's, not this browser's: the snapshot carries it
  const guestSnap = await new Client({ base: server.url, token: pageToken(b.page).token }).snapshot(matchId);
  assert.deepEqual(guestSnap.seats.map((x) => x.name), ["Ann", "Bob"]);
  // the host's page learns who joined, by the name given
  await a.page.getByTestId("table-line").filter({ hasText: "Bob (Yellow)" }).waitFor({ timeout: T });

  // both play, live
  const status = (p) => p.getByTestId("turn-status");
  await status(a.page).filter({ hasText: "Your turn" }).waitFor({ timeout: T });
  await a.page.locator('.mnk-board button[data-col="3"]').click();
  await b.page.locator('ol.log li[data-seq="1"]').waitFor({ timeout: T });
  await status(b.page).filter({ hasText: "Your turn" }).waitFor({ timeout: T });
  await b.page.locator('.mnk-board button[data-col="4"]').tap();
  await a.page.locator('ol.log li[data-seq="2"]').waitFor({ timeout: T });
  // the log line comes with the receipt, the board with the snapshot it then fetches
  await a.page.locator(".mnk .mnk-board .piece.p1").first().waitFor({ timeout: T });
  assert.equal(await a.page.locator(".mnk .mnk-board .piece.p1").count(), 1, "Yellow's disc, dropped on the phone");
  for (const [p, size] of [[a.page, "desktop"], [b.page, "phone"]]) {
    await assertPlayerFacing(p, `an open game, joined (${size})`);
    const clash = await overlapping(p, [".match-head", ".turn-banner", ".mnk-board", ".mnk-log"]);
    assert.deepEqual(clash, [], `${size}: no boxes overlap`);
  }
  await b.page.screenshot({ path: screenshotPath("joined-phone.png"), fullPage: true });
  const list = await new Client({ base: server.url }).request("GET", "/api/v1/matches?open=true");
  assert.ok(list.matches.every((m) => m.matchId !== matchId), "a full match is no longer listed");
  await a.context.close();
  await b.context.close();
});

// ---- Duel with three seats: every opponent around the table, a late seat joining -------------

for (const [size, viewport] of SIZES) {
  test(`Duel with three seats at ${viewport.width}×${viewport.height}: opponents around the table, a late seat joins, the replay`, async () => {
    const api = new Client({ base: server.url });
    const created = await api.createMatch({
      game: "duel", seed: `three-${size}`, config: { clock: "standard", lateSeats: [2] },
      seats: [{ kind: "human" }, { kind: "bot", bot: "strong" }, { kind: "open" }],
    });
    const host = created.seats[0].token;
    const a = await newPage(browser, problems, { viewport, ...(size === "phone" ? { hasTouch: true, isMobile: true } : {}) });
    await a.page.goto(`${server.url}/#/match/${created.matchId}?token=${host}`);
    await a.page.locator(".duel-hand .duel-card").first().waitFor({ timeout: T });
    // two opponents drawn, each with its hand as backs, its health and whether it is in
    assert.equal(await a.page.locator(".duel-seat.them").count(), 2);
    await a.page.getByTestId("waiting-2").filter({ hasText: "seat open" }).waitFor({ timeout: T });
    assert.match(await a.page.getByTestId("hand-count-1").getAttribute("aria-label"), /Seat 2 \(strong bot\) holds \d+ cards?/);
    assert.match(await a.page.getByTestId("health-1").innerText(), /Health\s*\d+/);
    assert.match(await a.page.getByTestId("health-2").innerText(), /Health\s*\d+/);
    await a.page.getByTestId("turn-status").filter({ hasText: /Your turn|Seat 2 \(strong bot\)'s turn/ }).waitFor({ timeout: T });

    // the late seat is claimed from the lobby's open games, then joins the table
    // 409 is allowed on this page: see the JOIN below
    const b = await newPage(browser, problems, { viewport, allowStatus: [409], ...(size === "phone" ? { hasTouch: true, isMobile: true } : {}) });
    await b.page.goto(server.url + "/");
    await b.page.locator("#player-name").fill("Cleo");
    const row = b.page.locator(`[data-testid="open-games"] li[data-match="${created.matchId}"]`);
    await row.waitFor({ timeout: T });
    await row.getByRole("button", { name: "Join" }).click();
    await b.page.getByTestId("turn-status").filter({ hasText: "join the match" }).waitFor({ timeout: T });
    const joinB = b.page.locator('[data-action="JOIN"][aria-disabled="false"]');
    await joinB.waitFor({ timeout: T });
    await joinB.click();
    // Opening the board may start the timed clock (a logged system command) just as the seat
    // sends JOIN at the old sequence: the server refuses it as stale, the page refreshes and asks
    // to try again, and the second JOIN is taken.
    const joined = b.page.locator("ol.log li", { hasText: "You joined the match" });
    await joined.or(b.page.getByText(/had moved on/)).first().waitFor({ timeout: T });
    if (!(await joined.isVisible())) {
      await joinB.click();
      await joined.waitFor({ timeout: T });
    }
    // the host's table names the newcomer and shows the seat in
    await a.page.locator("ol.log li", { hasText: "Cleo joined the match" }).waitFor({ timeout: T });
    await a.page.getByTestId("waiting-2").waitFor({ state: "detached", timeout: T });

    for (const [p, who] of [[a.page, "host"], [b.page, "late seat"]]) {
      await p.waitForTimeout(300);
      const wide = await p.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(wide <= viewport.width, `${who}: Duel with three seats fits ${viewport.width} px (${wide})`);
      assert.ok(await onScreen(p, ".duel-seat.them"), `${size} ${who}: the opponents are on screen`);
      const clash = await overlapping(p, [".match-head", ".duel-seat", ".play-area", ".duel-hand"]);
      assert.deepEqual(clash, [], `${size} ${who}: no boxes overlap`);
      await assertPlayerFacing(p, `Duel, three seats (${size}, ${who})`);
    }
    await a.page.screenshot({ path: screenshotPath(`duel3-${size}.png`), fullPage: true });
    await b.page.screenshot({ path: screenshotPath(`duel3-late-${size}.png`), fullPage: true });

    // the replay viewer draws all three seats through the same module
    await a.page.getByRole("link", { name: "Replay" }).click();
    await a.page.getByTestId("step-label").waitFor({ timeout: T });
    assert.equal(await a.page.getByTestId("replay-summary").locator(".duel-seat.mini").count(), 3);
    await a.page.getByRole("button", { name: "Last step" }).click();
    assert.match(await a.page.getByTestId("replay-summary").innerText(), /Cleo|Seat 3/);
    await assertPlayerFacing(a.page, `Duel replay, three seats (${size})`);
    await a.page.screenshot({ path: screenshotPath(`replay-duel3-${size}.png`), fullPage: true });
    await a.context.close();
    await b.context.close();
  });
}

// ---- fair clocks, the replay viewer, the debug panel, clover's count-up and cash-out: at both sizes

/** A page at one of the test sizes: a phone has touch and a mobile viewport. */
function sized(size, viewport, options = {}) {
  return newPage(browser, problems, { viewport, ...(size === "phone" ? { hasTouch: true, isMobile: true } : {}), ...options });
}

/** Whether the page is at its top (a page must not open scrolled). */
async function atTop(page) {
  return page.evaluate(() => window.scrollY === 0);
}

/** The page fits the test's width (not innerWidth: a phone's layout viewport widens to fit overflow). */
async function fitsViewport(page, viewport) {
  return (await page.evaluate(() => document.documentElement.scrollWidth)) <= viewport.width;
}

for (const [size, viewport] of SIZES) {
  test(`fair clocks at ${viewport.width}×${viewport.height}: a timed clock waits for both players to open the board, shown to both`, async () => {
    const api = new Client({ base: server.url });
    // the client is loaded before the match exists: the server's wait (8 s) runs from creation,
    // and a slow first page load on a busy machine must not eat it
    const x = await sized(size, viewport);
    await x.page.goto(server.url + "/");
    await x.page.locator(".play-now").first().waitFor({ timeout: T });
    const created = await api.createMatch({ game: "tictactoe", config: { turnConfig: "timed" }, seats: [{ kind: "human" }, { kind: "human" }] });
    await x.page.goto(`${server.url}/#/match/${created.matchId}?token=${created.seats[0].token}`);
    await x.page.getByTestId("clock-wait").filter({ hasText: "Waiting for O to open the board" }).waitFor({ timeout: T });
    await x.page.locator(".mnk-board button").nth(8).waitFor({ timeout: T });
    await x.page.waitForTimeout(200); // layout settles
    assert.ok(await atTop(x.page), `${size}: the board opens at its top`);
    assert.ok(await onScreen(x.page, '[data-testid="clock-wait"]'), `${size}: the wait is on screen`);
    assert.ok(await onScreen(x.page, ".mnk-board"), `${size}: the board is on screen while the clock waits`);
    assert.equal(await x.page.getByTestId("timer").innerText(), "", "no time counts while O is away");
    await x.page.waitForTimeout(4000); // O takes a while to come (the server waits up to 8 s)
    assert.equal((await api.withToken(created.seats[0].token).snapshot(created.matchId)).sequence, 0, "nothing happened meanwhile");
    const o = await sized(size, viewport);
    await o.page.goto(`${server.url}/#/match/${created.matchId}?token=${created.seats[1].token}`);
    // both are here: the clock starts, logged, and both pages show the timer with the whole turn
    for (const p of [x.page, o.page]) {
      await p.locator("ol.log li", { hasText: "Everyone is here: the clock starts" }).waitFor({ timeout: T });
      await p.getByTestId("clock-wait").waitFor({ state: "detached", timeout: T });
    }
    await x.page.getByTestId("timer").filter({ hasText: /You have \d+\.\d s/ }).waitFor({ timeout: T });
    const secs = Number((await x.page.getByTestId("timer").innerText()).match(/(\d+\.\d) s/)[1]);
    // "timed" turns last 15 s: had the clock run from creation, over 4 s would be gone (the margin
    // is for reading the timer on a busy machine)
    assert.ok(secs > 11.5, `the first turn's time starts when both are here (${secs} s of 15)`);
    await o.page.getByTestId("timer").filter({ hasText: /X has \d+\.\d s/ }).waitFor({ timeout: T });
    for (const [p, who] of [[x.page, "X"], [o.page, "O"]]) {
      assert.ok(await onScreen(p, '[data-testid="timer"]'), `${size} ${who}: the timer is on screen`);
      assert.ok(await fitsViewport(p, viewport), `${size} ${who}: the page fits the width`);
      assert.deepEqual(await overlapping(p, [".match-head", ".turn-banner", ".mnk-board", ".mnk-log"]), [], `${size} ${who}: no boxes overlap`);
      await assertPlayerFacing(p, `fair clock (${size}, ${who})`);
    }
    const { receipts } = await api.withToken(created.seats[0].token).timeline(created.matchId, 0);
    assert.equal(receipts[0].commandId, "clock-resumed:0");
    assert.equal(receipts[0].seat, null);
    await x.page.screenshot({ path: screenshotPath(`tictactoe-clock-started-${size}.png`), fullPage: true });
    await x.context.close();
    await o.context.close();
  });

  test(`the replay viewer at ${viewport.width}×${viewport.height} starts at the beginning and autoplays at the chosen speed`, async () => {
    const api = new Client({ base: server.url });
    const created = await api.createMatch({ game: "connect4", seats: [{ kind: "human" }, { kind: "human" }] });
    const red = api.withToken(created.seats[0].token), yellow = api.withToken(created.seats[1].token);
    let seq = 0;
    // enough moves for the move list to scroll on its own while it follows the autoplay, and no
    // win: columns 0–1 and 3–4 filled in turn (each column alternating), column 2 left empty
    const cols = [0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 3, 4, 4, 3, 3, 4, 4, 3];
    for (let i = 0; i < cols.length; i++) seq = (await (i % 2 ? yellow : red).command(created.matchId, { action: { type: "drop", column: cols[i] }, expectedSequence: seq })).sequence;
    const n = cols.length;
    const { context, page } = await sized(size, viewport);
    await page.goto(`${server.url}/#/replay/${created.matchId}?token=${created.seats[0].token}`);
    const label = page.getByTestId("step-label");
    await label.filter({ hasText: `Step 0 of ${n}` }).waitFor({ timeout: T });
    assert.ok(await atTop(page), `${size}: the viewer opens at its top`);
    assert.equal(await page.locator(".replay-board .piece.p0, .replay-board .piece.p1").count(), 0, "the start: an empty board");
    assert.ok(await onScreen(page, ".replay-board"), `${size}: the board is on screen`);
    assert.ok(await onScreen(page, '[data-testid="autoplay"]'), `${size}: Play is on screen`);
    await page.locator("#replay-speed").selectOption({ label: "Very fast" });
    await page.getByTestId("autoplay").click();
    await label.filter({ hasText: `Step ${n} of ${n}` }).waitFor({ timeout: 30000 });
    assert.equal(await page.locator(".replay-board .piece.p0").count(), n / 2);
    assert.match(await page.getByTestId("step-line").innerText(), /Yellow dropped a disc in column 4/);
    await page.getByTestId("autoplay").filter({ hasText: "Play" }).waitFor({ timeout: T }); // stopped at the end
    // following the current step scrolls the move list, never the page: the board stays in view
    assert.ok(await atTop(page), `${size}: autoplay did not scroll the page`);
    assert.ok(await onScreen(page, ".replay-board"), `${size}: the board is still on screen at the end`);
    assert.ok(await page.locator("ol.steps li.current").evaluate((li) => {
      const l = li.parentElement.getBoundingClientRect(), r = li.getBoundingClientRect();
      return r.top >= l.top - 1 && r.bottom <= l.bottom + 1;
    }), `${size}: the current step is shown inside the move list`);
    assert.ok(await fitsViewport(page, viewport), `${size}: the viewer fits the width`);
    assert.deepEqual(await overlapping(page, [".scrubber", ".replay-board", ".replay-list", ".step-line"]), [], `${size}: no boxes overlap`);
    await assertPlayerFacing(page, `replay viewer (${size})`);
    await page.screenshot({ path: screenshotPath(`replay-autoplay-${size}.png`), fullPage: true });
    await context.close();
  });

  test(`the debug panel at ${viewport.width}×${viewport.height}: opened by ${size === "phone" ? "its button" : "~"}; legal actions, send JSON, a bot step, time travel, export and import`, async () => {
    const api = new Client({ base: server.url });
    const created = await api.createMatch({ game: "connect4", seats: [{ kind: "human" }, { kind: "bot", bot: "random" }] });
    const { context, page } = await sized(size, viewport, { acceptDownloads: true, allowStatus: [422] });
    await page.goto(`${server.url}/#/match/${created.matchId}?token=${created.seats[0].token}`);
    await page.getByTestId("turn-status").filter({ hasText: "Your turn" }).waitFor({ timeout: T });
    await assertPlayerFacing(page, `connect4 before the panel (${size})`);
    // a key on a keyboard; on a phone, which has no ~ key, the header's Debug button
    if (size === "phone") await page.locator(".debug-toggle").tap();
    else await page.keyboard.press("~");
    const panel = page.getByTestId("debug-panel");
    await panel.waitFor({ timeout: T });
    assert.ok(await onScreen(page, '[data-testid="debug-panel"]'), `${size}: the panel is on screen`);
    assert.ok(await fitsViewport(page, viewport), `${size}: the panel fits the width`);
    assert.equal(await page.getByTestId("debug-match-id").innerText(), created.matchId, "the panel names the match");
    assert.match(await page.getByTestId("debug-view-fingerprint").innerText(), /^sha256:[0-9a-f]{64}$/);
    // its help names what closes it on this device
    assert.match(await page.getByTestId("debug-help").innerText(), size === "phone" ? /× to close/ : /~ to close/);
    // legal actions, and any action sent as JSON
    await panel.getByRole("tab", { name: "Actions" }).click();
    await page.getByTestId("debug-legal").locator("li", { hasText: "drop" }).waitFor({ timeout: T });
    await page.locator("#debug-action").fill('{"type":"drop","column":0}');
    await page.getByTestId("debug-send").click();
    await page.getByTestId("debug-out").filter({ hasText: "Accepted: sequence 1" }).waitFor({ timeout: T });
    await page.getByTestId("turn-status").filter({ hasText: "Your turn" }).waitFor({ timeout: T }); // the bot answered
    // a refused action shows the server's code, and changes nothing
    await page.locator("#debug-action").fill('{"type":"drop","column":99}');
    await panel.getByRole("button", { name: "Preview" }).click();
    await page.getByTestId("debug-out").locator(".error").waitFor({ timeout: T });
    // a bot step plays a legal move for this seat
    await page.getByTestId("debug-bot-step").click();
    await page.getByTestId("debug-out").filter({ hasText: "Accepted: sequence 3" }).waitFor({ timeout: T });
    // The bot's answer is the fourth disc. "Your turn" alone can still be the text from before
    // the bot step (a CI run read two discs there), so the board itself is awaited.
    await page.waitForFunction(
      () => document.querySelectorAll("main .mnk-board .piece.p0, main .mnk-board .piece.p1").length >= 4,
      null,
      { timeout: T },
    );
    await page.getByTestId("turn-status").filter({ hasText: "Your turn" }).waitFor({ timeout: T });
    const discs = await page.locator("main .mnk-board .piece.p0, main .mnk-board .piece.p1").count();
    assert.equal(discs, 4);
    // time travel: back to step 1 redraws one disc in the panel; the match keeps its four
    await panel.getByRole("tab", { name: "Log" }).click();
    await page.getByTestId("debug-travel-label").filter({ hasText: "live · step 4 of 4" }).waitFor({ timeout: T });
    for (let i = 0; i < 3; i++) await page.getByTestId("debug-back").click();
    await page.getByTestId("debug-travel-label").filter({ hasText: "step 1 of 4" }).waitFor({ timeout: T });
    assert.equal(await page.getByTestId("debug-board").locator(".piece.p0, .piece.p1").count(), 1);
    assert.equal(await page.locator("main .mnk-board .piece.p0, main .mnk-board .piece.p1").count(), 4, "the match did not change");
    assert.match(await page.getByTestId("debug-fingerprint").innerText(), /^sha256:/);
    assert.ok(await page.getByTestId("debug-board").evaluate((b) => { const r = b.getBoundingClientRect(); return r.width > 0 && r.right <= window.innerWidth + 1; }), `${size}: the travelled board fits the panel`);
    await page.getByTestId("debug-forward").click();
    assert.equal(await page.getByTestId("debug-board").locator(".piece.p0, .piece.p1").count(), 2);
    await page.screenshot({ path: screenshotPath(size === "desktop" ? "debug-panel.png" : "debug-panel-phone.png"), fullPage: false });
    // export the replay, then import it: the viewer opens it
    await panel.getByRole("tab", { name: "Replay" }).click();
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("debug-export").click()]);
    const file = JSON.parse(readFileSync(await download.path(), "utf8"));
    assert.equal(file.game, "connect4");
    assert.equal(file.entries.length, 4);
    await page.getByTestId("debug-import").setInputFiles({ name: "m.replay.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(file)) });
    await page.getByTestId("step-label").filter({ hasText: "Step 0 of 4" }).waitFor({ timeout: T });
    assert.match(await page.locator("main .lede").innerText(), /imported file/);
    assert.ok(await onScreen(page, ".replay-board"), `${size}: the imported replay's board is on screen`);
    await context.close();
  });

  test(`?debug=1 at ${viewport.width}×${viewport.height} opens the panel on a match page`, async () => {
    const api = new Client({ base: server.url });
    const created = await api.createMatch({ game: "sokoban", seats: [{ kind: "human" }] });
    const { context, page } = await sized(size, viewport);
    await page.goto(`${server.url}/#/match/${created.matchId}?token=${created.seats[0].token}&debug=1`);
    await page.getByTestId("debug-panel").waitFor({ timeout: T });
    await page.getByTestId("debug-sequence").filter({ hasText: "0" }).waitFor({ timeout: T });
    assert.ok(await onScreen(page, '[data-testid="debug-panel"]'), `${size}: the panel is on screen`);
    assert.ok(await fitsViewport(page, viewport), `${size}: the page fits the width with the panel open`);
    await page.getByTestId("debug-panel").getByRole("tab", { name: "View" }).click();
    assert.match(await page.getByTestId("debug-view").innerText(), /"collection": "microban"/);
    await page.screenshot({ path: screenshotPath(size === "desktop" ? "debug-panel-sokoban.png" : "debug-panel-sokoban-phone.png"), fullPage: false });
    // closing it gives the board back, on screen
    await page.getByTestId("debug-panel").getByRole("button", { name: /close/i }).click();
    await page.getByTestId("debug-panel").waitFor({ state: "detached", timeout: T });
    assert.ok(await onScreen(page, "svg.sokoban-board"), `${size}: the board is on screen after the panel closed`);
    await context.close();
  });
}

test("the debug panel shows the full state once the match has ended", async () => {
  const api = new Client({ base: server.url });
  const created = await api.createMatch({ game: "connect4", seats: [{ kind: "human" }, { kind: "human" }] });
  await api.withToken(created.seats[0].token).resign(created.matchId);
  const { context, page } = await newPage(browser, problems);
  await page.goto(`${server.url}/#/match/${created.matchId}?token=${created.seats[1].token}&debug=1`);
  await page.getByTestId("debug-panel").getByRole("tab", { name: "View" }).click();
  await page.getByTestId("debug-load-state").click();
  await page.getByTestId("debug-full-state").waitFor({ timeout: T });
  assert.match(await page.getByTestId("debug-full-state").innerText(), /\{/);
  await page.getByRole("button", { name: "Rematch" }).waitFor({ timeout: T });
  await context.close();
});

/** A seed whose small blind the API beats, and its plays: found once, shared by both sizes. */
let shopSeed = null;
function cloverShopSeed() {
  if (!shopSeed) shopSeed = cloverInShop().then(({ seed, plays }) => ({ seed, plays }));
  return shopSeed;
}

for (const [size, viewport] of SIZES) {
  test(`clover at ${viewport.width}×${viewport.height}: the hand sorts by rank or suit; a beaten blind shows its cash-out, on screen`, async () => {
    const shop = await cloverShopSeed();
    // the same seed again, played by the API while the page watches: the page sees the blind beaten
    const api = new Client({ base: server.url });
    const created = await api.createMatch({ game: "clover", seats: [{ kind: "human" }], seed: shop.seed });
    const { context, page } = await sized(size, viewport);
    await page.goto(`${server.url}/#/match/${created.matchId}?token=${created.seats[0].token}`);
    await page.locator('[data-action="selectBlind"][aria-disabled="false"]').click();
    await page.locator(".hand button.pcard").nth(7).waitFor({ timeout: 30000 });
    const ranks = async () => page.locator(".hand button.pcard").evaluateAll((els) => els.map((e) => e.getAttribute("aria-label")));
    const byRank = await ranks();
    const value = (label) => ({ A: 14, K: 13, Q: 12, J: 11 }[label.match(/^(\w+)/)[1]] || Number(label.match(/^(\d+)/)?.[1] || 0));
    assert.deepEqual(byRank.map(value), byRank.map(value).slice().sort((a, b) => b - a), "sorted by rank, high first");
    await page.locator('[data-sort="suit"]').click();
    const bySuit = await ranks();
    const suits = bySuit.map((l) => l.match(/[♠♥♣♦]/)?.[0]);
    const runs = suits.filter((x, i) => i === 0 || x !== suits[i - 1]);
    assert.equal(new Set(runs).size, runs.length, "each suit together");
    assert.ok(await onScreen(page, ".hand"), `${size}: the hand is on screen`);
    const me = api.withToken(created.seats[0].token);
    let seq = 1;
    for (const cards of shop.plays) seq = (await me.command(created.matchId, { action: { type: "play", cards }, expectedSequence: seq })).sequence;
    const cash = page.getByTestId("cash-out");
    await cash.waitFor({ timeout: 30000 });
    assert.match(await page.getByTestId("payout").innerText(), /^\+\$\d+$/);
    await page.waitForTimeout(600); // a smooth scroll to it settles
    assert.ok(await onScreen(page, '[data-testid="cash-out"]'), `${size}: the cash-out is on screen`);
    assert.ok(await fitsViewport(page, viewport), `${size}: the cash-out fits the width`);
    assert.deepEqual(await overlapping(page, [".match-head", ".clover-bar", ".cash-out", ".score-box", ".hand"]), [], `${size}: no boxes overlap`);
    await assertPlayerFacing(page, `clover cash-out (${size})`);
    await page.screenshot({ path: screenshotPath(size === "desktop" ? "clover-cash-out.png" : "clover-cash-out-phone.png"), fullPage: size === "desktop" });
    await page.locator('[data-action="cashOut"]').click();
    await page.locator('[aria-label="Offers"] .offer').first().waitFor({ timeout: T });
    await context.close();
  });

  // Cross-checks the display with the calculator: this test hands the page a resolution whose
  // scored hand carries the calculator's receipt for games/clover/examples/flush.json — the same
  // step form as a match's receipts — and checks that chips and mult count up in step with the
  // steps (each step shown with the running numbers it leaves), then end on the receipt's chips,
  // mult, score and every step's owner.
  test(`clover at ${viewport.width}×${viewport.height}: chips × mult count up in step with the scoring steps and end on the receipt's numbers`, async () => {
    const bin = process.env.TURNSTILE_BIN || join(REPO, "target", "debug", "turnstile");
    const calc = JSON.parse(execFileSync(bin, ["clover", "score", "--json", join(REPO, "games/clover/examples/flush.json")], { encoding: "utf8" }));
    const { context, page } = await sized(size, viewport);
    await page.route("**/resolutions/**", async (route) => {
      const res = await route.fetch();
      const body = await res.json();
      for (const step of body.steps) if (step.event.type === "handScored") Object.assign(step.event, { hand: calc.hand, score: calc });
      await route.fulfill({ response: res, json: body });
    });
    const api = new Client({ base: server.url });
    const created = await api.createMatch({ game: "clover", seats: [{ kind: "human" }], seed: `browser-clover-steps-${size}` });
    await page.goto(`${server.url}/#/match/${created.matchId}?token=${created.seats[0].token}`);
    await page.locator('[data-action="selectBlind"][aria-disabled="false"]').click();
    await page.locator(".hand button.pcard").nth(4).waitFor({ timeout: T });
    // record chips and mult each time a step is listed: what the player sees beside that step
    await page.evaluate(() => {
      window.__counted = [];
      new MutationObserver(() => {
        const list = document.querySelector("ol.score-steps");
        if (!list) return;
        const n = list.children.length;
        const last = window.__counted[window.__counted.length - 1];
        if (n && (!last || last.n !== n)) window.__counted.push({ n, chips: document.querySelector('[data-testid="chips"]').textContent, mult: document.querySelector('[data-testid="mult"]').textContent });
      }).observe(document.body, { childList: true, subtree: true });
    });
    await page.locator(".hand button.pcard").first().click();
    await page.locator('[data-action="play"][aria-disabled="false"]').click();
    const steps = page.locator("ol.score-steps li");
    await steps.nth(1).waitFor({ timeout: T }); // the steps come one by one…
    assert.ok(await steps.count() < calc.steps.length, "…not all at once");
    assert.ok(await onScreen(page, '[data-testid="score-box"] .tally'), `${size}: chips × mult on screen while counting`);
    await page.getByTestId("hand-score").waitFor({ timeout: 30000 });
    assert.equal(await steps.count(), calc.steps.length);
    // in step: after the k-th step, chips show the last chips step's value so far, mult likewise
    const role = (st) => st.subject ? "other" : st.after && "fixed" in st.after ? (/Mult/.test(st.operation || "") || st.operation === "Custom" ? "mult" : "other")
      : st.after && "int" in st.after ? (/Chips/.test(st.operation || "") || st.operation === "Base" || st.operation === "Custom" ? "chips" : "other") : "other";
    const counted = await page.evaluate(() => window.__counted);
    assert.equal(counted.length, calc.steps.length, `one reading per step: ${JSON.stringify(counted)}`);
    let chips = "0", mult = "0";
    for (let k = 0; k < calc.steps.length; k++) {
      const st = calc.steps[k];
      if (role(st) === "chips") chips = String(st.after.int);
      if (role(st) === "mult") mult = String(st.after.fixed / 10000);
      assert.deepEqual([counted[k].n, counted[k].chips, counted[k].mult], [k + 1, chips, mult], `after step ${k + 1} (${st.owner})`);
    }
    assert.ok(new Set(counted.map((c) => c.chips)).size > 1, "chips counted up through more than one value");
    await page.getByTestId("hand-score").filter({ hasText: String(calc.score) }).waitFor({ timeout: T });
    assert.equal(await page.getByTestId("chips").innerText(), String(calc.chips));
    assert.equal(await page.getByTestId("mult").innerText(), String(calc.mult / 10000));
    assert.equal(await page.getByTestId("hand-name").innerText(), "Flush");
    assert.deepEqual(await steps.evaluateAll((li) => li.map((x) => x.dataset.owner)), calc.steps.map((x) => x.owner));
    assert.ok(await onScreen(page, '[data-testid="score-box"] .tally'), `${size}: chips × mult on screen at the end`);
    assert.ok(await fitsViewport(page, viewport), `${size}: the score fits the width`);
    assert.deepEqual(await overlapping(page, [".match-head", ".clover-bar", ".score-box", ".hand"]), [], `${size}: no boxes overlap`);
    await assertPlayerFacing(page, `clover count-up (${size})`);
    await page.screenshot({ path: screenshotPath(size === "desktop" ? "clover-steps.png" : "clover-steps-phone.png"), fullPage: size === "desktop" });
    // "Show all steps" ends the count at once on a second hand
    await context.close();
  });
}

// ---- Duel's attack bonus and channelled spells, in words, at both sizes ------------------------

/**
 * A two-seat Duel with the tide deck (Banner Bearer and Doom), played through the API until
 * seat 0 has played Banner Bearer (its units strike for 1 more) and then Doom (channelled: it
 * resolves when seat 0's next turn ends). Seat 1 only ends its turns; seat 0 plays other cards
 * only to keep its hand from overflowing (a full hand burns draws). Tries a few seeds.
 */
async function duelWithBannerAndDoom() {
  const api = new Client({ base: server.url });
  for (let n = 0; n < 8; n++) {
    const created = await api.createMatch({ game: "duel", seed: `banner-doom-${n}`, config: { phaseSequence: "classic-style", decks: ["tide", "tide"] }, seats: [{ kind: "human" }, { kind: "human" }] });
    const id = created.matchId;
    const seats = created.seats.map((s) => api.withToken(s.token));
    for (let turn = 0; turn < 60; turn++) {
      const snap = await seats[0].snapshot(id);
      const v = snap.view;
      if (v.result || snap.status !== "active") break;
      if (v.seats[0].channel === "doom" && v.seats[0].attackBonus > 0) return { created, snap };
      const who = v.active;
      const me = seats[who];
      const legal = await me.legalActions(id);
      const play = legal.actions.find((a) => a.kind === "PLAY_CARD");
      const playable = play ? play.params[0].range.values.map(Number) : [];
      let action = null;
      if (who === 0) {
        const hand = v.seats[0].hand.map((c) => c.cardId);
        const banner = playable.find((i) => hand[i] === "banner_bearer");
        const doom = playable.find((i) => hand[i] === "doom");
        const other = playable.find((i) => hand[i] !== "banner_bearer" && hand[i] !== "doom");
        if (v.seats[0].attackBonus === 0 && banner != null) action = { type: "PLAY_CARD", hand: banner };
        else if (v.seats[0].attackBonus > 0 && doom != null) action = { type: "PLAY_CARD", hand: doom };
        else if (hand.length >= 8 && other != null) action = { type: "PLAY_CARD", hand: other };
      }
      if (!action) {
        const kinds = legal.actions.map((a) => a.kind);
        action = { type: kinds.includes("END_TURN") ? "END_TURN" : kinds.includes("PASS_PRIORITY") ? "PASS_PRIORITY" : "SKIP" };
      }
      await me.command(id, { action, expectedSequence: snap.sequence });
    }
  }
  throw new Error("no seed let seat 0 play Banner Bearer and then Doom");
}

test("Duel at both sizes: the attack bonus and a channelled spell are shown in words, on the table, in the log and in the replay", async () => {
  const { created } = await duelWithBannerAndDoom();
  for (const [size, viewport] of SIZES) {
    const { context, page } = await sized(size, viewport);
    await page.goto(`${server.url}/#/match/${created.matchId}?token=${created.seats[0].token}`);
    await page.locator(".duel-hand .duel-card").first().waitFor({ timeout: T });
    // the bonus: a stat on one's own side, and the units' attack raised by it
    const bonus = page.getByTestId("attack-bonus-0");
    await bonus.waitFor({ timeout: T });
    assert.match(await bonus.innerText(), /Attack\s*\+1\s*per unit/);
    const banner = page.locator('.duel-seat.me .board .duel-card[aria-label^="Banner Bearer"]').first();
    await banner.waitFor({ timeout: T });
    assert.match(await banner.getAttribute("aria-label"), /attack 2 \(1 \+ 1 bonus\)/);
    assert.match(await banner.locator(".atk.boosted").innerText(), /⚔ 2/);
    // the channel: what is waiting and when it lands, from the card's own text
    // (the card names come with the content, a moment after the board)
    await page.getByTestId("channel-0").filter({ hasText: "You are channelling Doom: it resolves at the end of your next turn — when it ends, deal 10 damage to the opponent." }).waitFor({ timeout: T });
    // the log says both in words
    await page.locator("ol.log li", { hasText: "Banner Bearer: your striking units deal +1 (attack bonus 0 → 1)" }).first().waitFor({ timeout: T });
    await page.locator("ol.log li", { hasText: "You begin channelling Doom: it resolves at the end of your next turn" }).first().waitFor({ timeout: T });
    assert.doesNotMatch(await page.locator("ol.log").innerText(), /deal \+0/, "a bonus restated unchanged is not a line");
    assert.ok(await fitsViewport(page, viewport), `${size}: Duel fits the width`);
    assert.deepEqual(await overlapping(page, [".match-head", ".duel-seat", ".play-area", ".duel-hand"]), [], `${size}: no boxes overlap`);
    await assertPlayerFacing(page, `Duel with a bonus and a channel (${size})`);
    await page.screenshot({ path: screenshotPath(`duel-channel-${size}.png`), fullPage: true });
    // the opponent's view names them as the opponent's
    // the replay: the last step shows the bonus and the channel on seat 0's box
    await page.getByRole("link", { name: "Replay" }).click();
    await page.getByRole("button", { name: "Last step" }).click();
    const summary = page.getByTestId("replay-summary");
    await summary.locator(".channel", { hasText: "Channelling Doom" }).waitFor({ timeout: T });
    assert.match(await summary.innerText(), /Attack\s*\+1/);
    assert.match(await page.locator("ol.steps").innerText(), /begin channelling Doom/);
    await assertPlayerFacing(page, `Duel replay with a channel (${size})`);
    await context.close();
  }
  // the other seat reads them as the opponent's
  const { context, page } = await newPage(browser, problems, { viewport: { width: 1280, height: 900 } });
  await page.goto(`${server.url}/#/match/${created.matchId}?token=${created.seats[1].token}`);
  await page.getByTestId("channel-0").filter({ hasText: "Opponent is channelling Doom: it resolves at the end of their next turn" }).waitFor({ timeout: T });
  await page.locator("ol.log li", { hasText: "Opponent's striking units deal +1" }).first().waitFor({ timeout: T });
  await context.close();
});

// ---- resigning Sokoban and clover: the outcome in words, at both sizes ---------------------------

for (const [size, viewport] of SIZES) {
  test(`resigning at ${viewport.width}×${viewport.height}: Sokoban and clover say the level or run was given up, on the page and in the replay`, async () => {
    const { context, page } = await sized(size, viewport);
    page.on("dialog", (d) => d.accept()); // "Resign this game?"
    // Sokoban: one move, then give the level up
    await page.goto(server.url + "/");
    await page.locator('.play-now[data-game="sokoban"]').click();
    await page.locator("svg.sokoban-board").waitFor({ timeout: T });
    await page.locator("#conn").filter({ hasText: "live" }).waitFor({ timeout: T });
    if (size === "phone") await page.locator('.dpad [data-move="down"]').tap();
    else { await page.locator("svg.sokoban-board").focus(); await page.keyboard.press("ArrowDown"); }
    await page.getByTestId("moves").filter({ hasText: "1" }).waitFor({ timeout: T });
    await page.getByRole("button", { name: "Resign" }).click();
    await page.getByTestId("gave-up").filter({ hasText: "You gave this level up after 1 move and 0 pushes." }).waitFor({ timeout: T });
    assert.ok(await onScreen(page, ".solved-banner"), `${size}: the banner is on screen`);
    await page.locator(".solved-banner").getByRole("button", { name: "Try again" }).waitFor({ timeout: T });
    await assertPlayerFacing(page, `Sokoban given up (${size})`);
    await page.getByRole("link", { name: "Replay" }).click();
    await page.getByRole("button", { name: "Last step" }).click();
    assert.match(await page.getByTestId("step-line").innerText(), /^Gave the level up after 1 move and 0 pushes$/);
    assert.match(await page.locator("main .lede").first().innerText(), /given up/);
    await assertPlayerFacing(page, `Sokoban replay, given up (${size})`);

    // clover: into the first blind, then give the run up
    await page.goto(server.url + "/");
    await page.locator('.play-now[data-game="clover"]').click();
    await page.locator('[data-action="selectBlind"][aria-disabled="false"]').click();
    await page.locator(".hand button.pcard").nth(4).waitFor({ timeout: T });
    await page.getByRole("button", { name: "Resign" }).click();
    const summary = page.getByTestId("run-summary");
    await summary.getByRole("heading", { name: "You gave the run up" }).waitFor({ timeout: T });
    assert.equal(await page.getByTestId("run-result").innerText(), "given up");
    await page.waitForTimeout(300);
    assert.ok(await fitsViewport(page, viewport), `${size}: the summary fits the width`);
    await assertPlayerFacing(page, `clover given up (${size})`);
    await page.screenshot({ path: screenshotPath(`clover-given-up-${size}.png`), fullPage: true });
    await page.getByRole("link", { name: "Replay" }).click();
    await page.getByRole("button", { name: "Last step" }).click();
    assert.match(await page.getByTestId("step-line").innerText(), /Gave the run up/);
    assert.match(await page.getByTestId("replay-summary").innerText(), /the run was given up/);
    assert.match(await page.locator("main .lede").first().innerText(), /the run was given up/);
    await context.close();
  });
}

test("no errors in the pages", () => {
  assert.deepEqual(problems, []);
});
