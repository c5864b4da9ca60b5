// Starts what the browser tests need: the real `turnstile serve` binary on a free loopback port
// with a temporary SQLite file, and headless Chromium (Debian's, driven by playwright-core).
//
// Environment:
//   TURNSTILE_BIN      the binary (default: <repo>/target/debug/turnstile)
//   CHROMIUM           the browser (default: /usr/bin/chromium)
//   WEB_FROM_DISK=1    development only: serve web/ from disk through a small proxy in front of the
//                      binary, so web edits need no rebuild (CI never sets it: it tests the
//                      files embedded in the binary).
//   SCREENSHOTS        where screenshots go (default: <repo>/target/screenshots)

import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, existsSync, rmSync, readdirSync, statSync } from "node:fs";
import { createServer, request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join, dirname, resolve, extname } from "node:path";
import { fileURLToPath } from "node:url";
import net from "node:net";
import { chromium } from "playwright-core";

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const SCREENSHOTS = process.env.SCREENSHOTS || join(REPO, "target", "screenshots");

export function freePort() {
  return new Promise((ok, fail) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", fail);
    srv.listen(0, "127.0.0.1", () => { const { port } = srv.address(); srv.close(() => ok(port)); });
  });
}

async function waitHealthy(url, child, log, timeoutMs = 30000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode != null) throw new Error(`turnstile exited with ${child.exitCode}:\n${log()}`);
    try {
      const r = await fetch(`${url}/healthz`);
      if (r.ok) return;
    } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`turnstile did not become healthy at ${url}:\n${log()}`);
}

/** Starts the server; returns {url, stop()}. */
export async function startServer() {
  const bin = process.env.TURNSTILE_BIN || join(REPO, "target", "debug", "turnstile");
  if (!existsSync(bin)) throw new Error(`no binary at ${bin}: run \`cargo build --bin turnstile\` first`);
  const dir = mkdtempSync(join(tmpdir(), "turnstile-browser-"));
  const port = await freePort();
  let output = "";
  // a short fair-start wait, so the tests see a timed match's clock start by itself too (long
  // enough that a page opened on a busy machine still finds the clock waiting)
  const child = spawn(bin, ["serve", "--addr", `127.0.0.1:${port}`, "--database", join(dir, "test.db"), "--clock-start-wait", "8"], { stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.on("data", (d) => { output += d; });
  child.stderr.on("data", (d) => { output += d; });
  const backend = `http://127.0.0.1:${port}`;
  await waitHealthy(backend, child, () => output);
  let url = backend;
  let proxy = null;
  if (process.env.WEB_FROM_DISK === "1") {
    ({ url, proxy } = await diskProxy(port));
  }
  return {
    url,
    backend,
    log: () => output,
    async stop() {
      if (proxy) proxy.close();
      child.kill("SIGTERM");
      await new Promise((r) => { if (child.exitCode != null) r(); else child.once("exit", r); setTimeout(r, 5000); });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const TYPES = { ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml", ".json": "application/json" };

async function diskProxy(backendPort) {
  const web = join(REPO, "web");
  const port = await freePort();
  const proxy = createServer((req, res) => {
    const path = req.url.split("?")[0];
    const file = path === "/" ? "index.html" : path.slice(1);
    if (req.method === "GET" && file === "web-files.json") {
      // the binary's list of its embedded files, from disk (web.rs serves the same shape)
      const files = readdirSync(web).filter((f) => !f.startsWith(".") && statSync(join(web, f)).isFile()).sort();
      res.writeHead(200, { "content-type": "application/json", "cache-control": "no-cache" });
      res.end(JSON.stringify({ files }));
      return;
    }
    if (req.method === "GET" && !path.startsWith("/api/") && !file.includes("..") && existsSync(join(web, file))) {
      res.writeHead(200, { "content-type": TYPES[extname(file)] || "application/octet-stream", "cache-control": "no-cache" });
      res.end(readFileSync(join(web, file)));
      return;
    }
    const up = httpRequest({ host: "127.0.0.1", port: backendPort, path: req.url, method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode, r.headers);
      res.flushHeaders(); // streams (SSE) must not wait for their first event
      r.pipe(res);
    });
    up.on("error", () => { res.writeHead(502); res.end(); });
    req.pipe(up);
  });
  await new Promise((r) => proxy.listen(port, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${port}`, proxy };
}

/** Launches headless Chromium with the flags a root, offline machine needs. */
export async function launchBrowser() {
  // Playwright's launch() always starts Chromium with a fresh, temporary --user-data-dir of its
  // own (and refuses one in args; launchPersistentContext is for kept profiles), removed on close.
  const executablePath = process.env.CHROMIUM || "/usr/bin/chromium";
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: [
      "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
      "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic",
    ],
  });
  return browser;
}

export function screenshotPath(name) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return join(SCREENSHOTS, name);
}

/** A new context + page that reports the page's console errors and failed requests into `problems`. */
export async function newPage(browser, problems, options = {}) {
  const { allowStatus, ...contextOptions } = options;
  const context = await browser.newContext({ viewport: { width: 1100, height: 800 }, deviceScaleFactor: 1, ...contextOptions });
  const page = await context.newPage();
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("console", (m) => { if (m.type() === "error" && !/Failed to load resource/.test(m.text())) problems.push(`console: ${m.text()}`); });
  page.on("response", async (r) => {
    if (r.status() >= 400 && !(options.allowStatus || []).includes(r.status())) {
      problems.push(`HTTP ${r.status()} ${r.request().method()} ${r.url()} ${r.request().postData() || ""} → ${await r.text().catch(() => "")}`);
    }
  });
  return { context, page };
}

/**
 * A pass-through HTTP proxy in front of `upstream` whose live streams (`GET …/events`) can be
 * cut: `cut()` destroys every open stream connection and makes new ones fail at the socket until
 * `restore()`, so a page sees a dropped stream and reconnects on its own. `lastEventIds` records
 * the `Last-Event-ID` header of every stream request, to check where a reconnection resumed.
 */
export async function startCuttableProxy(upstream) {
  const target = new URL(upstream);
  const streams = new Set();
  const lastEventIds = [];
  let blocked = false;
  const server = createServer((req, res) => {
    const isStream = /\/events(\?|$)/.test(req.url);
    if (isStream) {
      lastEventIds.push(req.headers["last-event-id"] ?? null);
      if (blocked) { req.socket.destroy(); return; }
    }
    const up = httpRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host } }, (r) => {
      res.writeHead(r.statusCode, r.headers);
      res.flushHeaders();
      r.pipe(res);
    });
    up.on("error", () => { if (!res.headersSent) res.writeHead(502); res.end(); });
    if (isStream) {
      const conn = { req, res, up };
      streams.add(conn);
      res.on("close", () => { streams.delete(conn); up.destroy(); });
    }
    req.pipe(up);
  });
  const port = await freePort();
  await new Promise((r) => server.listen(port, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${port}`,
    lastEventIds,
    openStreams: () => streams.size,
    cut() {
      blocked = true;
      for (const { req, up } of streams) { up.destroy(); req.socket.destroy(); }
      streams.clear();
    },
    restore() { blocked = false; },
    close() { for (const { req } of streams) req.socket.destroy(); server.close(); },
  };
}
