// Sokoban in the product (issue 15, points 5, 6 and 8), in headless Chromium against the real
// binary: the Hint button, the "can't be solved any more" warning, the level browser (solved
// marks, best counts, previous/next, undo after solving, a pasted solution played step by
// step) and a Hexoban level played by taps and keys.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, newPage, screenshotPath } from "./harness.mjs";
import { Client } from "../../web/api.js";

let server;
let browser;
const problems = [];
const T = 15000;
const MICROBAN_1 = "dlUrrrdLullddrUluRuulDrddrruLdlUU";

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

async function open(config, pageOptions = {}) {
  const api = new Client({ base: server.url });
  const created = await api.createMatch({ game: "sokoban", config, seats: [{ kind: "human" }] });
  const { context, page } = await newPage(browser, problems, pageOptions);
  await page.goto(`${server.url}/#/match/${created.matchId}?token=${created.seats[0].token}`);
  await page.locator("svg.sokoban-board [data-cell]").first().waitFor({ state: "attached", timeout: T });
  return { context, page, created };
}

async function tap(page, x, y) {
  const box = await page.locator(`[data-cell="${x},${y}"]`).boundingBox();
  assert.ok(box, `cell ${x},${y} is drawn`);
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

test("the Hint button shows the next push, plays it, and says when the level can't be solved", async () => {
  const { context, page } = await open({ collection: "microban", level: 1 });
  await page.getByTestId("hint").click();
  const text = page.getByTestId("hint-text");
  await text.filter({ hasText: "Hint: push" }).waitFor({ timeout: T });
  assert.equal(await page.locator(".hint-mark").count(), 2, "the box and its target are marked");
  assert.equal(await page.getByTestId("moves").innerText(), "0", "a hint is no command");
  await text.getByTestId("hint-play").click();
  await page.getByTestId("pushes").filter({ hasText: "1" }).waitFor({ timeout: T });
  await page.screenshot({ path: screenshotPath("sokoban-hint.png"), fullPage: true });
  // Back to the start; push the lower box into the dead corner: the warning, and no hint.
  await page.locator("svg.sokoban-board").focus();
  await page.keyboard.press("Backspace");
  await page.getByTestId("moves").filter({ hasText: /^0$/ }).waitFor({ timeout: T });
  await tap(page, 3, 4); // pick the box up…
  await tap(page, 4, 4); // …and push it east, into a corner
  const warning = page.getByTestId("unsolvable");
  await warning.waitFor({ state: "visible", timeout: T });
  await page.getByTestId("hint").click();
  await text.filter({ hasText: "can't be solved" }).waitFor({ timeout: T });
  await page.keyboard.press("u");
  await warning.waitFor({ state: "hidden", timeout: T });
  await context.close();
});

test("the level browser: a pasted solution plays, undo after solving, best counts, next and previous", async () => {
  const { context, page } = await open({ collection: "microban", level: 1 });
  await page.locator("#play-lurd").fill(MICROBAN_1);
  await page.getByTestId("play-solution").click();
  const banner = page.locator(".solved-banner");
  await banner.getByRole("heading", { name: "Solved!" }).waitFor({ timeout: 60000 });
  assert.equal(await page.getByTestId("lurd").inputValue(), MICROBAN_1);
  // The solved level stays open: undo takes the last push back, redo solves it again.
  await banner.getByRole("button", { name: "Undo" }).click();
  await banner.waitFor({ state: "hidden", timeout: T });
  assert.equal(await page.getByTestId("moves").innerText(), "32");
  await page.locator("svg.sokoban-board").focus();
  await page.keyboard.press("y");
  await banner.getByRole("heading", { name: "Solved!" }).waitFor({ timeout: T });
  // Next level: the solved one is finished (a receipt) and level 2 opens, marked unsolved.
  await page.getByTestId("banner-next").click();
  await page.locator(".level-title", { hasText: "level 2" }).waitFor({ timeout: T });
  assert.match(await page.locator("#play-level option[value='1']").innerText(), /solved/);
  assert.equal(await page.getByTestId("best").innerText(), "");
  // Previous: level 1 again, with its best counts from this browser.
  await page.getByTestId("prev-level").click();
  await page.locator(".level-title", { hasText: "level 1" }).waitFor({ timeout: T });
  await page.getByTestId("best").filter({ hasText: "best 33 moves, 8 pushes" }).waitFor({ timeout: T });
  await context.close();
});

test("Hexoban: hex cells in SVG, a level solved by taps, undone, solved again by a key", async () => {
  const { context, page, created } = await open({ collection: "hexoban", level: 1 });
  assert.equal(await page.locator("svg.sokoban-board polygon.hit").count() > 0, true, "cells are hexagons");
  await page.screenshot({ path: screenshotPath("hexoban.png"), fullPage: true });
  await tap(page, 4, 1); // the box…
  await tap(page, 6, 1); // …pushed east onto the goal
  const banner = page.locator(".solved-banner");
  await banner.getByRole("heading", { name: "Solved!" }).waitFor({ timeout: T });
  assert.equal(await page.getByTestId("lurd").inputValue(), "R");
  await page.locator("svg.sokoban-board").focus();
  await page.keyboard.press("u");
  await banner.waitFor({ state: "hidden", timeout: T });
  await page.keyboard.press("d"); // east on a hex board
  await banner.getByRole("heading", { name: "Solved!" }).waitFor({ timeout: T });
  const snap = await new Client({ base: server.url }).withToken(created.seats[0].token).snapshot(created.matchId);
  assert.equal(snap.view.topology, "hex");
  assert.equal(snap.status, "active", "solved, still open until the player moves on");
  await context.close();
});

test("a pasted level is validated with line and column, then played", async () => {
  // the invalid paste is answered 4xx by the server, on purpose
  const { context, page } = await open({ collection: "microban", level: 1 }, { allowStatus: [400, 422] });
  await page.locator("details.paste-level summary").click();
  await page.locator("#paste-level").fill("#####\n#@$ #\n#####");
  await page.getByTestId("paste-play").click();
  await page.getByTestId("paste-error").filter({ hasText: "line 1, column 1: fewer goals" }).waitFor({ timeout: T });
  await page.locator("#paste-level").fill("; mine\n######\n#@$ .#\n######");
  await page.getByTestId("paste-play").click();
  await page.locator(".level-title", { hasText: "pasted" }).waitFor({ timeout: T });
  await page.locator("svg.sokoban-board").focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await page.locator(".solved-banner").getByRole("heading", { name: "Solved!" }).waitFor({ timeout: T });
  assert.equal(await page.getByTestId("lurd").inputValue(), "RR");
  await context.close();
});

test("no errors in the pages", () => {
  assert.deepEqual(problems, []);
});
