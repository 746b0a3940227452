// Browser tests of the page, in Debian's Chromium driven by playwright-core,
// against a real `leapfrog serve` (its URL is the first argument; the
// second is where screenshots go). Run by `cargo test` (tests/it/browser.rs).
//
// - Two people in two browser contexts create and join a game and play it
//   to the end by clicking, each seeing the other's moves live.
// - A person plays the computer to the end, reloading in the middle (the
//   seat is kept), choosing a multi-jump jump by jump and stopping early.
// - A page redrawn by the stream keeps the name being typed and the focus.
// - A page whose server dies and comes back reconnects by itself and shows
//   what was played meanwhile (the server is `LEAPFROG_BIN`, run here).
// - Accounts: sign up, a rated game, the profile with its ratings, the
//   account's games, the leaderboards, a record downloaded and replayed,
//   signing out and in.
// - No page makes a request outside the server, and none asks the server
//   for legal moves, a move applied, a hint or a replayed position while
//   games are played (those endpoints are blocked for the pages): the
//   page's own engine (WebAssembly) computes them.
// - The analysis board: any rule set dealt, both sides played by clicks,
//   the computer's view asked, with the server stopped after the page loaded.

import { chromium } from "playwright-core";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const base = process.argv[2];
const shots = process.argv[3] ?? "screenshots";
fs.mkdirSync(shots, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const outside = [];
/** Requests for what the page's engine computes (none expected). */
const stateless = [];
const computedHere = /\/v1\/(legal-moves|apply|analysis|setups|solutions|records)$|\/legal-moves\?|\/positions\/\d+$/;

async function newPage(viewport = { width: 1200, height: 900 }, server = base) {
  const context = await browser.newContext({ viewport, permissions: ["clipboard-read", "clipboard-write"] });
  context.on("request", (r) => {
    if (!r.url().startsWith(server) && !r.url().startsWith("data:")) outside.push(r.url());
    if (computedHere.test(r.url())) stateless.push(`${r.method()} ${r.url()}`);
  });
  // And the server's stateless endpoints are blocked for pages: the page works without them.
  await context.route(computedHere, (route) => route.abort());
  const page = await context.newPage();
  page.on("pageerror", (e) => { throw new Error(`page error: ${e.message}`); });
  page.on("dialog", (d) => d.accept());
  return page;
}

async function api(p, init, server = base) {
  const r = await fetch(server + p, init);
  return r.json();
}

/** The game shown on a page, read from the API by the id in its URL. */
async function gameOf(page) {
  const id = /#\/game\/([0-9a-f-]+)/.exec(page.url())[1];
  return api(`/v1/games/${id}`);
}

async function click(page, cell) {
  await page.locator(`[data-cell="${cell}"]`).click();
}

/** Plays one move of the game on `page` by clicking: a removal, or a jump
 * path cell by cell; with `stopAfter`, stops the path after that many jumps
 * with the "play it as it is" button. */
async function playByClicks(page, movePath, stopAfter) {
  const before = (await gameOf(page)).version;
  if (movePath.length === 1) {
    await click(page, movePath[0]);
  } else {
    const jumps = stopAfter ?? movePath.length - 1;
    await click(page, movePath[0]);
    for (let i = 1; i <= jumps; i++) {
      await page.locator(`[data-cell="${movePath[i]}"].target`).waitFor();
      await click(page, movePath[i]);
    }
    // Stopped early, or a path the piece could go on from: play it as it is.
    const stop = page.locator("#stop");
    if (jumps < movePath.length - 1 || (await stop.count()) > 0) await stop.click();
  }
  // The move is stored (the API says so) before the next one.
  const deadline = Date.now() + 30_000;
  while ((await gameOf(page)).version <= before) {
    assert.ok(Date.now() < deadline, `the move ${movePath.join("x")} was not stored`);
    await page.waitForTimeout(25);
  }
}

/** Whether the element `selector` is wholly inside the window as it is
 * scrolled now. */
async function inView(page, selector) {
  return page.locator(selector).evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0;
  });
}

async function movesShown(page) {
  return page.locator("ol.moves li").count();
}

async function firstLegal(id) {
  const page = await api(`/v1/games/${id}/legal-moves?limit=200`);
  return page.moves;
}

async function twoPeople() {
  // 1. Two people, two browsers, one game played to the end by clicking.
  const ann = await newPage();
  await ann.goto(base + "/");
  await ann.locator("#preset").selectOption("old");
  await ann.locator("#size").fill("4");
  const rows = ann.locator(".seat-row");
  await rows.nth(0).locator("[name=name]").fill("Ann");
  await rows.nth(1).locator("[name=kind]").selectOption("private");
  await ann.locator("#create").click();
  await ann.waitForURL(/#\/game\//);
  await ann.locator("#headline", { hasText: "Waiting for players" }).waitFor();
  const link = await ann.locator("[data-invite]").textContent();
  // The title says the game, by its name; a button copies the invitation.
  assert.equal(await ann.locator("#game-title").textContent(), "Leap Frog (old), 4×4");
  await ann.locator("#copy-invite-1").click();
  await ann.locator("#status", { hasText: "Link copied" }).waitFor();
  assert.equal(await ann.evaluate(() => navigator.clipboard.readText()), link);

  // The lobby lists games with public seats (one made through the API).
  const listed = await api("/v1/games", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ rules: { preset: "old", rows: 4, cols: 4 }, players: [{ name: "Dan" }, { open: "public" }] }) });
  const bob = await newPage({ width: 390, height: 844 }); // a phone
  await bob.goto(base + "/");
  await bob.locator(`table.lobby a[href="#/game/${listed.id}"]`).waitFor();
  // On a phone: the header keeps to one line, and a 15×15 board's
  // coordinates are readable.
  assert.ok((await bob.locator("header.top").boundingBox()).height < 56, "the header does not wrap");
  const big = await api("/v1/games", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ rules: { preset: "murray" }, players: [{ name: "Eve" }, { open: "public" }] }) });
  await bob.goto(`${base}/#/game/${big.id}`);
  // (Read once the board is laid out: a live update may be redrawing it.)
  // The size drawn is the label's font size scaled as the board is.
  const labelPx = () => bob.waitForFunction(() => {
    const svg = document.querySelector("svg.board");
    const label = svg?.querySelector("text.coord");
    const shown = svg?.getBoundingClientRect().width ?? 0;
    if (!svg || !label || shown === 0) return null;
    return (Number(label.getAttribute("font-size")) * shown) / svg.viewBox.baseVal.width;
  });
  const bigLabels = await (await labelPx()).jsonValue();
  assert.ok(bigLabels >= 11, `a 15×15 board's coordinates are ${bigLabels}px`);
  // The hardest size: a middling board, whose labels scale down the most.
  const middling = await api("/v1/games", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ rules: { preset: "old", rows: 8, cols: 8 }, players: [{ name: "Eve" }, { open: "public" }] }) });
  await bob.goto(`${base}/#/game/${middling.id}`);
  await bob.locator("#game-title", { hasText: "8×8" }).waitFor();
  const middlingLabels = await (await labelPx()).jsonValue();
  assert.ok(middlingLabels >= 11, `an 8×8 board's coordinates are ${middlingLabels}px`);
  // Ann's seat is private: Bob joins through her invitation link, told
  // which seat it opens, with a button as tall as the name field.
  await bob.goto(link);
  await bob.locator("#invited", { hasText: "invited to seat 2" }).waitFor();
  // (Measured in one go: a live update may redraw the page in between.)
  const [field, button] = await bob.evaluate(() => ["#join-name", "#join"].map((s) => {
    const r = document.querySelector(s).getBoundingClientRect();
    return { y: r.y, height: r.height };
  }));
  assert.ok(Math.abs(field.height - button.height) <= 6, `join ${button.height}px, name ${field.height}px`);
  assert.ok(Math.abs(field.y + field.height - (button.y + button.height)) <= 3,
    `they line up: name ${JSON.stringify(field)}, join ${JSON.stringify(button)}`);
  await bob.locator("#join-name").fill("Bob");
  await bob.locator("#join").click();
  await bob.locator(".badge", { hasText: "you" }).waitFor();
  await ann.locator("#headline", { hasText: "Your turn" }).waitFor(); // live: the join started the game

  // Live updates are drawn from the events alone: while the game is played
  // neither page reads the game or its history again.
  const reads = [];
  for (const p of [ann, bob]) {
    p.on("request", (r) => {
      if (r.method() === "GET" && /^\/v1\/games\/[0-9a-f-]+(\/moves)?$/.test(new URL(r.url()).pathname)) reads.push(r.url());
    });
  }
  let plies = 0;
  for (;;) {
    const g = await gameOf(ann);
    if (g.status === "over") break;
    const mover = g.position.to_move === 0 ? ann : bob;
    const watcher = mover === ann ? bob : ann;
    const [move] = await firstLegal(g.id);
    // The tab says whose turn it is.
    await mover.waitForFunction(() => document.title.startsWith("Your turn"));
    assert.ok(!(await watcher.title()).startsWith("Your turn"), "only the mover's tab says so");
    if (move.path.length > 1) {
      // The message after a first click is in view, on the laptop and the phone.
      await click(mover, move.path[0]);
      await mover.locator("#status", { hasText: "choose where to land" }).waitFor();
      assert.ok(await inView(mover, "#status"), "the message line is in view");
      await mover.keyboard.press("Escape");
    }
    await playByClicks(mover, move.path);
    plies++;
    // The other browser sees it live, without reloading.
    await watcher.waitForFunction((n) => document.querySelectorAll("ol.moves li").length >= n, plies);
    if (plies === 3) await bob.screenshot({ path: path.join(shots, "phone-game-in-progress.png") });
  }
  for (const p of [ann, bob]) await p.locator("#result").waitFor();
  assert.deepEqual(reads, [], "no page read the game after a move event");
  // Both are told the result, the last mover too (not "Played …").
  for (const p of [ann, bob]) await p.locator("#status", { hasText: "The game is over." }).waitFor();
  // The end is a banner above the board, in view on the laptop.
  const [banner, boardBox] = await ann.evaluate(() =>
    ["#result", "svg.board"].map((s) => document.querySelector(s).getBoundingClientRect().y));
  assert.ok(banner < boardBox, "the result comes before the board");
  assert.equal(await ann.locator("#result h2").textContent(), "Game over");
  assert.equal(await movesShown(ann), plies);
  await ann.screenshot({ path: path.join(shots, "two-people-over.png") });
  // Play again: both land in the same new game, each in a seat.
  for (const p of [ann, bob]) {
    const old = p.url();
    await p.locator("#again").click();
    await p.waitForURL((u) => u.href !== old);
  }
  assert.equal(bob.url().split("#")[1], ann.url().split("#")[1], "one rematch for both");
  for (const p of [ann, bob]) await p.locator(".badge", { hasText: "you" }).waitFor();
  // Bob moves first now; Ann resigns on his turn, and both pages say so.
  await ann.locator("#resign").click();
  for (const p of [ann, bob]) await p.locator("#result", { hasText: "by resignation" }).waitFor();
  // The message line tells the end, not the last move played.
  for (const p of [ann, bob]) await p.locator("#status", { hasText: "The game is over. Bob wins by resignation." }).waitFor();
  assert.deepEqual(stateless, [], "the pages computed legal moves themselves");
  console.log(`two browsers played a game of ${plies} plies to the end, and a rematch resigned`);
}

async function againstTheComputer() {
  // 2. A person against the computer, with a reload and a multi-jump
  // chosen jump by jump and stopped early.
  const me = await newPage();
  await me.goto(base + "/");
  await me.locator("#preset").selectOption("froglet");
  await me.locator("#size").fill("6");
  // (Froglet's kinds are worth 1 to 4: the legend under the board says so.)
  const rows = me.locator(".seat-row");
  await rows.nth(0).locator("[name=name]").fill("Cleo");
  await rows.nth(1).locator("[name=level]").selectOption("greedy");
  await me.locator("#create").click();
  await me.waitForURL(/#\/game\//);
  const key = await me.locator("#legend").textContent();
  assert.match(key, /green 1 point.*blue 4 points/);
  const swatch = await me.locator("#legend .swatch").first().evaluate((el) => getComputedStyle(el).backgroundColor);
  assert.notEqual(swatch, "rgba(0, 0, 0, 0)", "the swatch has its colour");
  // The opening by keyboard: a cell focused, Enter. Froglet's first removal
  // must be a green piece: anything else is refused with the server's reason.
  await me.locator("#headline", { hasText: "Your turn" }).waitFor();
  const start = await gameOf(me);
  const removals = new Set((await firstLegal(start.id)).map((m) => m.path[0]));
  const wrong = start.position.grid.flatMap((line, r) => line.map((l, c) => (l ? `${String.fromCharCode(97 + c)}${line.length - r}` : null)))
    .find((c) => c && !removals.has(c));
  await click(me, wrong);
  await me.locator("#status", { hasText: "Not played" }).waitFor();
  const removal = [...removals][0];
  await me.locator(`[data-cell="${removal}"]`).focus();
  // By keyboard, the focus ring is drawn over the board, on that cell.
  await me.keyboard.press("Tab");
  await me.keyboard.press("Shift+Tab");
  const ring = await me.locator("svg.board").evaluate((svg, cell) => {
    const r = svg.querySelector(".focus-ring");
    const rect = svg.querySelector(`[data-cell="${cell}"] rect`);
    const drawn = r.querySelector("rect");
    return { last: svg.lastElementChild === r, visible: drawn !== null,
      here: drawn?.getAttribute("x") === rect.getAttribute("x") && drawn?.getAttribute("y") === rect.getAttribute("y") };
  }, removal);
  assert.deepEqual(ring, { last: true, visible: true, here: true }, "the focus ring is on top, on the cell");
  await me.keyboard.press("Enter");
  while ((await gameOf(me)).position.ply === 0) await me.waitForTimeout(25);
  let reloaded = false;
  let stoppedEarly = false;
  let mine = 0;
  for (;;) {
    const g = await gameOf(me);
    if (g.status === "over") break;
    if (g.position.to_move !== 0) {
      await me.waitForTimeout(50);
      continue;
    }
    await me.locator("#headline", { hasText: "Your turn" }).waitFor();
    const moves = await firstLegal(g.id);
    const long = moves.find((m) => m.path.length >= 3);
    if (long && !stoppedEarly) {
      // c1 → landing 1, then stop: the prefix is the move played.
      await playByClicks(me, long.path, 1);
      const history = await api(`/v1/games/${g.id}/moves`);
      const played = history.moves[g.position.ply];
      assert.deepEqual(played.path, long.path.slice(0, 2), "stopped after the first jump");
      stoppedEarly = true;
      await me.screenshot({ path: path.join(shots, "computer-game-in-progress.png") });
      // The last move stands out from the other cells (its fill is far lighter or darker).
      const [lastFill, plainFill] = await me.locator("svg.board").evaluate((svg) =>
        [svg.querySelector(".cell.last rect"), svg.querySelector(".cell:not(.last):not(.masked):not(.target):not(.chosen):not(.hint) rect")]
          .map((r) => getComputedStyle(r).fill.match(/\d+/g).map(Number)));
      const luma = ([r, g, b]) => 0.2126 * r + 0.7152 * g + 0.0722 * b;
      const apart = Math.abs(luma(lastFill) - luma(plainFill)) + Math.abs(lastFill[2] - plainFill[2]);
      assert.ok(apart >= 40, `last move ${lastFill}, other cells ${plainFill}`);
    } else {
      await playByClicks(me, moves[0].path);
    }
    mine++;
    if (mine === 2) {
      // A hint from the analysis, then a look back at the deal.
      await me.locator("#hint").click();
      await me.locator("#status", { hasText: "Hint:" }).waitFor();
      await me.locator("#replay").fill("0");
      await me.locator("text=Showing the position after 0 moves").waitFor();
      await me.locator("#replay").fill(String((await gameOf(me)).position.ply));
      await me.locator("text=Showing the position").waitFor({ state: "detached" });
    }
    if (mine === 3 && !reloaded) {
      await me.reload();
      await me.locator(".badge", { hasText: "you" }).waitFor();
      reloaded = true;
    }
  }
  await me.locator("#result").waitFor();
  // The latest move is in view in the move list.
  const latest = await me.locator("ol.moves").evaluate((ol) => {
    const last = ol.lastElementChild.getBoundingClientRect();
    const box = ol.getBoundingClientRect();
    return last.bottom <= box.bottom + 1 && last.top >= box.top - 1;
  });
  assert.ok(latest, "the move list shows its latest move");
  assert.ok(reloaded, "reloaded in the middle");
  assert.ok(stoppedEarly, "a multi-jump was chosen jump by jump and stopped early");
  const history = await api(`/v1/games/${(await gameOf(me)).id}/moves`);
  assert.ok(history.moves.some((m) => m.computer), "the computer played");
  assert.deepEqual(stateless, [], "legal moves and the hint were computed in the page");
  console.log(`a person beat or lost to the computer in ${history.moves.length} plies`);
}

async function typingSurvivesLiveUpdates() {
  // 3. Someone else joins while a name is being typed: the page redraws
  // from the stream, and what was typed and the focus stay.
  const post = (p, body) => api(p, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const g = await post("/v1/games", { rules: { preset: "old", rows: 4, cols: 4 },
    players: [{ name: "Dan" }, { open: "public" }, { open: "public" }] });
  const eve = await newPage();
  await eve.goto(`${base}/#/game/${g.id}`);
  await eve.locator("#join-name").fill("Eve");
  await post(`/v1/games/${g.id}/join`, { name: "Fay" });
  await eve.locator("ul.players li", { hasText: "Fay" }).waitFor();
  assert.equal(await eve.locator("#join-name").inputValue(), "Eve");
  assert.ok(await eve.locator("#join-name").evaluate((el) => el === document.activeElement), "the focus stays in the field");
  await eve.locator("#join").click();
  await eve.locator(".badge", { hasText: "you" }).waitFor();
  assert.ok((await gameOf(eve)).players.some((p) => p.name === "Eve"), "joined under the typed name");
}

async function analysisBoardWithTheServerGone() {
  // 5. The analysis board: loaded, then the server stopped; a deal, both
  // sides played by clicks, the computer's view, a move taken back.
  const own = await ownServer("analysis");
  try {
    const page = await newPage(undefined, own.url);
    const failed = [];
    page.on("requestfailed", (r) => failed.push(r.url()));
    await page.goto(`${own.url}/#/`);
    // The home page links it; its lobby is read before the server goes.
    await page.locator("#analysis-link").waitFor();
    await page.waitForLoadState("networkidle");
    await page.locator("#analysis-link").click();
    await page.locator("#analysis-deal").waitFor();
    await own.stop();
    // Konane 6×6: both players remove a piece, then jump.
    await page.locator("#analysis-preset").selectOption("konane");
    await page.locator("#analysis-size").fill("6");
    await page.locator("#analysis-deal").click();
    await page.locator("#analysis-scores", { hasText: "Ply 0" }).waitFor();
    for (let ply = 0; ply < 4; ply++) {
      // The computer's view, then its best move played by clicks.
      await page.locator("#analysis-scores", { hasText: `Ply ${ply};` }).waitFor();
      await page.locator("#analysis-think").click();
      await page.locator("#analysis-view").waitFor();
      const best = (await page.locator("#analysis-view p").textContent()).match(/Best: (\S+);/)[1];
      const cells = best.split("x");
      await click(page, cells[0]);
      for (const cell of cells.slice(1)) {
        await page.locator(`[data-cell="${cell}"].target`).waitFor();
        await click(page, cell);
      }
      if (cells.length > 1 && (await page.locator("#stop").count()) > 0) await page.locator("#stop").click();
      await page.locator("#analysis-moves li", { hasText: best }).waitFor();
    }
    await page.locator("#analysis-back").click();
    await page.locator("#analysis-scores", { hasText: "Ply 3" }).waitFor();
    assert.deepEqual(failed, [], "nothing was asked of the stopped server");
    await page.screenshot({ path: path.join(shots, "analysis-board.png") });
    await page.context().close();
  } finally {
    await own.stop();
    own.remove();
  }
  console.log("the analysis board: dealt, played and analysed with the server stopped");
}

/** A `leapfrog serve` of this test's own (`LEAPFROG_BIN`) on a free port and
 * a database in the temporary folder: `start` it (again), `stop` it
 * (killed), `remove` its database. */
async function ownServer(name, extra = []) {
  const bin = process.env.LEAPFROG_BIN;
  assert.ok(bin, "LEAPFROG_BIN names the leapfrog binary");
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const db = path.join(os.tmpdir(), `leapfrog-${name}-${process.pid}.db`);
  let child = null;
  const server = {
    url,
    async start() {
      child = spawn(bin, ["serve", "--bind", `127.0.0.1:${port}`, "--database-url", `sqlite://${db}`, ...extra],
        { stdio: "ignore" });
      const deadline = Date.now() + 30_000;
      for (;;) {
        try {
          if ((await fetch(`${url}/healthz`)).ok) return;
        } catch { /* not listening yet */ }
        assert.ok(Date.now() < deadline, "the server listens");
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    stop: () => new Promise((resolve) => {
      if (child === null || child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", resolve);
      child.kill("SIGKILL");
    }),
    remove() {
      for (const f of [db, `${db}-wal`, `${db}-shm`]) fs.rmSync(f, { force: true });
    },
  };
  await server.start();
  return server;
}

async function freePort() {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function resumesAfterALostConnection() {
  // 4. The server is killed under an open page and started again on the
  // same port and database: the page says so, reconnects by itself, and
  // shows the move made while it was away. Then a stream refused.
  const server = await ownServer("browser", ["--max-streams-per-game", "1"]);
  const own = server.url;
  try {
    const g = await api("/v1/games", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ rules: { preset: "old", rows: 4, cols: 4 }, players: [{ name: "Gus" }, { name: "Hal" }] }) }, own);
    const page = await newPage(undefined, own);
    await page.goto(`${own}/#/game/${g.id}`);
    await page.locator("#headline", { hasText: "Gus" }).waitFor();
    await server.stop();
    await page.locator("#status", { hasText: "Connection lost" }).waitFor();
    await server.start();
    // A move through the API, by the seat to move, returning its notation.
    const playFirstLegal = async (seat) => {
      const [move] = (await api(`/v1/games/${g.id}/legal-moves`, undefined, own)).moves;
      const played = await fetch(`${own}/v1/games/${g.id}/moves`, { method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${g.seats[seat].token}` },
        body: JSON.stringify({ path: move.path }) });
      assert.equal(played.status, 201);
      return move.path.join("x");
    };
    const first = await playFirstLegal(0);
    await page.locator("ol.moves li", { hasText: first }).waitFor();
    await page.locator("#status", { hasText: "Connected again" }).waitFor();
    // A second page finds the game's one stream taken (503): it says so,
    // and tries again until the first page has gone.
    const second = await newPage(undefined, own);
    await second.goto(`${own}/#/game/${g.id}`);
    await second.locator("#status", { hasText: "Live updates were refused" }).waitFor();
    await page.context().close();
    await second.locator("#status", { hasText: "Connected again" }).waitFor();
    const next = await playFirstLegal(1);
    await second.locator("ol.moves li", { hasText: next }).waitFor();
    console.log("pages reconnected by themselves: after the server was killed, and after a refusal");
  } finally {
    await server.stop();
    server.remove();
  }
}

/** Accounts, a rated game, the profile, the leaderboards, and a game's
 * record downloaded and replayed on the board. */
async function accountsAndRecords() {
  const signUp = async (page, name) => {
    await page.goto(`${base}/#/account`);
    await page.locator("#sign-up-name").fill(name);
    await page.locator("#sign-up-password").fill("frog-spawn-42");
    await page.locator("#sign-up").click();
    await page.locator("#profile", { hasText: name }).waitFor();
    assert.equal(await page.locator("#account-link").textContent(), name, "the header names the account");
  };
  const ann = await newPage();
  await signUp(ann, "Ann");
  await ann.locator(".ratings", { hasText: "No rated game yet." }).waitFor();
  // A rated game: Ann's seat is her account's, the other open.
  await ann.goto(`${base}/#/`);
  await ann.locator("#preset").selectOption("old");
  await ann.locator("#size").fill("6");
  const rows = ann.locator(".seat-row");
  assert.ok(await rows.nth(0).locator("[name=name]").isHidden(), "signed in, the seat is the account's");
  await rows.nth(1).locator("[name=kind]").selectOption("open");
  await ann.locator("#rated").check();
  await ann.locator("#create").click();
  await ann.waitForURL(/#\/game\//);
  const id = /#\/game\/([0-9a-f-]+)/.exec(ann.url())[1];
  assert.equal((await api(`/v1/games/${id}`)).rated, true);
  // Bob signs up and joins as his account.
  const bob = await newPage();
  await signUp(bob, "Bob");
  await bob.goto(`${base}/#/game/${id}`);
  await bob.locator("#join", { hasText: "Join as Bob" }).click();
  await bob.locator(".badge", { hasText: "you" }).waitFor();
  // Each moves once (resigned before that, a rated game is aborted), then
  // Ann resigns: both see the rating changes in the result.
  await playByClicks(ann, (await firstLegal(id))[0].path);
  await playByClicks(bob, (await firstLegal(id))[0].path);
  await ann.locator("#resign").click();
  for (const p of [ann, bob]) await p.locator("#result", { hasText: "rating 1500 →" }).waitFor();
  // Her profile: the pool, provisional; her games; the leaderboard.
  await ann.goto(`${base}/#/account`);
  await ann.locator(".ratings", { hasText: "old/orthogonal" }).waitFor();
  assert.ok((await ann.locator(".ratings").textContent()).includes("provisional"));
  await ann.locator("#my-games", { hasText: "rated, over" }).waitFor();
  await ann.locator("#pool").selectOption("old/orthogonal");
  await ann.locator(".leaderboard", { hasText: "Nobody is ranked here yet" }).waitFor();
  // Bots and challenges: Ann agrees to rated games against bots; a bot's
  // profile says it is one; Ann challenges Bob from his profile, and Bob
  // accepts from his account page, which opens the game.
  await ann.goto(`${base}/#/account`);
  await ann.locator("#rated-against-bots").check();
  await ann.locator("#status", { hasText: "Rated games against bots: accepted." }).waitFor();
  assert.equal((await api("/v1/accounts/Ann")).rated_against_bots, true);
  await api("/v1/accounts", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name: "Robo", password: "frog-spawn-42", bot: true }) });
  await ann.goto(`${base}/#/profile/Robo`);
  await ann.locator("#profile .badge.bot", { hasText: "bot" }).waitFor();
  await ann.goto(`${base}/#/profile/Bob`);
  // Robo's page has a challenge form too: fill in Bob's, not the one leaving.
  await ann.locator("#challenge", { hasText: "Challenge Bob" }).waitFor();
  await ann.locator("#challenge-preset").selectOption("old");
  await ann.locator("#challenge-size").fill("6");
  await ann.locator("#challenge-days").selectOption("1");
  await ann.locator("#challenge").click();
  await ann.locator("#status", { hasText: "Challenge sent to Bob" }).waitFor();
  await bob.goto(`${base}/#/account`);
  await bob.locator("#my-challenges li", { hasText: "Ann" }).locator("button.accept").click();
  await bob.waitForURL(/#\/game\//);
  const challenged = /#\/game\/([0-9a-f-]+)/.exec(bob.url())[1];
  const long = await api(`/v1/games/${challenged}`);
  assert.deepEqual(long.players.map((p) => p.name), ["Ann", "Bob"]);
  assert.equal(long.move_time_limit, 86400, "a day a move");
  console.log("bots and challenges: the setting, a bot's badge, a challenge sent from a profile and accepted");
  // Long games: Ann's account lists the game as her move, with its
  // deadline; she moves, then keeps a conditional line from Bob's legal
  // moves, which the server plays when Bob makes that move.
  await ann.goto(`${base}/#/account`);
  await ann.locator("#your-move li", { hasText: "left (until" }).waitFor();
  await ann.goto(`${base}/#/game/${challenged}`);
  await ann.locator("#clock", { hasText: "23 h" }).waitFor();
  await playByClicks(ann, (await firstLegal(challenged))[0].path);
  await ann.locator("#conditional summary").click();
  await ann.locator("#you-reply option").first().waitFor({ state: "attached" });
  const theirs = (await firstLegal(challenged))[0];
  assert.equal(await ann.locator("#if-they-play option").first().textContent(), theirs.notation);
  // The line is played out on the scratch board: Bob's first legal move, then Ann's first reply to it.
  const now = await api(`/v1/games/${challenged}`);
  const post = (p, body) => api(p, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const at = (pos) => ({ board: pos.board, ply: pos.ply, scores: pos.scores });
  const after = await post("/v1/apply", { rules: now.rules, position: at(now.position), move: { path: theirs.path } });
  const reply = (await post("/v1/legal-moves", { rules: now.rules, position: at(after.position), limit: 1 })).moves[0];
  const onScratch = async (path) => {
    for (const [i, cell] of path.entries()) {
      if (i > 0) await ann.locator(`#scratch [data-cell="${cell}"].target`).waitFor();
      await ann.locator(`#scratch [data-cell="${cell}"]`).click();
    }
    const stop = ann.locator("#scratch-stop");
    if (path.length > 1 && (await stop.count()) > 0) await stop.click();
  };
  await onScratch(theirs.path);
  await ann.locator("#scratch-line", { hasText: theirs.notation }).waitFor();
  await onScratch(reply.path);
  await ann.locator("#scratch-line", { hasText: `${theirs.notation}, ${reply.notation}` }).waitFor();
  await ann.locator("#scratch").screenshot({ path: path.join(shots, "conditional-scratch-board.png") });
  await ann.locator("#keep-scratch").click();
  await ann.locator("#conditional-lines li", { hasText: `${theirs.notation}, ${reply.notation}` }).waitFor();
  await bob.goto(`${base}/#/game/${challenged}`);
  await playByClicks(bob, theirs.path);
  // The reply is stored just after Bob's move, before his answer: wait for it a moment.
  const replied = Date.now() + 5_000;
  while ((await api(`/v1/games/${challenged}`)).position.ply < 3 && Date.now() < replied) await bob.waitForTimeout(25);
  assert.equal((await api(`/v1/games/${challenged}`)).position.ply, 3, "Ann's reply was played at once");
  const played = await api(`/v1/games/${challenged}/moves`);
  assert.equal(played.moves.at(-1).notation, reply.notation, "the reply kept on the scratch board");
  // Vacation days: started, then ended at once — the days not begun come back.
  await ann.goto(`${base}/#/account`);
  await ann.locator("#vacation-status", { hasText: "20 of 20 vacation days left" }).waitFor();
  await ann.locator("#vacation-days").fill("3");
  await ann.locator("#start-vacation").click();
  await ann.locator("#vacation-status", { hasText: "on vacation until" }).waitFor();
  await ann.locator("#end-vacation").click();
  await ann.locator("#vacation-status", { hasText: "19 of 20 vacation days left" }).waitFor();
  // Webhooks: one registered shows its secret once; a test event is listed among its deliveries.
  await ann.locator("#webhook-url").fill("http://127.0.0.1:9/hook");
  await ann.locator("#add-webhook").click();
  assert.match(await ann.locator("#webhook-secret code").textContent(), /^whsec_/);
  await ann.locator("#webhooks li button.test").click();
  await ann.locator("#webhooks .deliveries", { hasText: "webhook_test" }).waitFor();
  console.log("long games: your move with its deadline, a conditional line played, vacation days, a webhook");
  // The record: the game page links it; pasted on the replay page, it
  // replays to its result and back to the start.
  await ann.goto(`${base}/#/game/${id}`);
  assert.equal(await ann.locator("#download-record").getAttribute("href"), `/v1/games/${id}/record`);
  const record = await (await fetch(`${base}/v1/games/${id}/record`)).text();
  await ann.goto(`${base}/#/replay`);
  await ann.locator("#record").fill(record);
  await ann.locator("#read-record").click();
  await ann.locator("#record-result", { hasText: "by resignation" }).waitFor();
  await ann.locator("#record-start").click();
  await ann.locator("#record-ply", { hasText: "Ply 0 of" }).waitFor();
  assert.ok(await ann.locator("svg.board").isVisible());
  // A record that does not replay is refused with the reason.
  await ann.locator("#record").fill(record.replace("[Rules", "[Nope"));
  await ann.locator("#read-record").click();
  await ann.locator("#status", { hasText: "no Rules tag" }).waitFor();
  // Signing out forgets the account; signing in brings it back.
  await ann.goto(`${base}/#/account`);
  await ann.locator("#sign-out").click();
  await ann.locator("#sign-in-name").waitFor();
  assert.equal(await ann.locator("#account-link").textContent(), "Sign in");
  await ann.locator("#sign-in-name").fill("ann");
  await ann.locator("#sign-in-password").fill("frog-spawn-42");
  await ann.locator("#sign-in").click();
  await ann.locator("#profile", { hasText: "Ann" }).waitFor();
  console.log("accounts: signed up, played a rated game, saw the ratings, replayed its record, signed out and in");
}

/** Capture on the hexagon: created from the home page for three, drawn as
 * hexagons with the cell names, and played by clicks like any game. */
async function hexagonalGame() {
  const me = await newPage();
  await me.goto(base);
  await me.locator("#preset").selectOption("capture");
  await me.locator("[name=name]").first().fill("Hex");
  await me.locator("#create").click();
  await me.locator("#headline", { hasText: "Your turn" }).waitFor();
  const board = await me.locator("svg.board").evaluate((svg) => ({
    hex: svg.classList.contains("hex"),
    hexagons: svg.querySelectorAll(".cell polygon").length,
    squares: svg.querySelectorAll(".cell rect").length,
    names: [...svg.querySelectorAll(".cell .name")].map((t) => t.textContent).includes("e5"),
  }));
  assert.deepEqual(board, { hex: true, hexagons: 61, squares: 0, names: true }, "61 hexagons, named");
  // e5's six neighbours sit around it at one cell's distance.
  const centres = await me.locator("svg.board").evaluate((svg) => Object.fromEntries(["e5", "f5", "e6", "f6", "d5", "d4", "e4"]
    .map((c) => { const b = svg.querySelector(`[data-cell="${c}"] polygon`).getBBox(); return [c, [b.x + b.width / 2, b.y + b.height / 2]]; })));
  const [x, y] = centres.e5;
  const gaps = ["f5", "e6", "f6", "d5", "d4", "e4"].map((c) => Math.round(Math.hypot(centres[c][0] - x, centres[c][1] - y)));
  assert.ok(gaps.every((g) => g === gaps[0]), `six neighbours at one distance: ${gaps}`);
  const moves = await firstLegal((await gameOf(me)).id);
  assert.deepEqual(moves.map((m) => m.notation), ["c3xe5", "c5xe5", "e3xe5", "e7xe5", "g5xe5", "g7xe5"]);
  await playByClicks(me, moves[0].path);
  await me.screenshot({ path: path.join(shots, "capture-hexagon.png") });
  console.log("hexagonal game: created, drawn as 61 hexagons, played by clicks");
}

/** Peg solitaire as a puzzle: a hint, undo, restart, and solved to the end
 * by following the solver's hints. */
async function solvedPuzzle() {
  const me = await newPage();
  await me.goto(base);
  await me.locator("#puzzle-triangle").click();
  await me.locator("#pegs", { hasText: "14 pegs" }).waitFor();
  assert.equal(await me.locator("svg.board .cell polygon").count(), 15, "a triangle of 15 hexagons");
  await click(me, "a3");
  await me.locator('[data-cell="a1"].target').waitFor();
  await click(me, "a1");
  await me.locator("#pegs", { hasText: "13 pegs on the board, 1 move made" }).waitFor();
  await me.locator("#undo").click();
  await me.locator("#pegs", { hasText: "14 pegs on the board, 0 moves" }).waitFor();
  // Hint after hint to the end.
  for (let moves = 0; ; moves++) {
    if (await me.locator("#puzzle-result").count()) break;
    assert.ok(moves < 14, "solved within 13 moves");
    await me.locator("#hint").click();
    await me.locator("#status", { hasText: "still leads to a solution" }).waitFor();
    const text = await me.locator("#status").textContent();
    const path = /solution: ([a-z0-9x]+)\./.exec(text)[1].split("x");
    const before = await me.locator("#pegs").textContent();
    await click(me, path[0]);
    for (const cell of path.slice(1)) {
      await me.locator(`[data-cell="${cell}"].target`).waitFor();
      await click(me, cell);
    }
    if (await me.locator("#stop").count()) await me.locator("#stop").click();
    await me.waitForFunction((b) => document.querySelector("#pegs")?.textContent !== b, before);
  }
  await me.locator("#puzzle-result", { hasText: "Solved: one peg left" }).waitFor();
  await me.screenshot({ path: path.join(shots, "puzzle-solved.png") });
  await me.locator("#restart").click();
  await me.locator("#pegs", { hasText: "14 pegs on the board, 0 moves" }).waitFor();
  // The English cross loads as a puzzle too.
  await me.goto(`${base}/#/puzzle/english`);
  await me.locator("#pegs", { hasText: "32 pegs" }).waitFor();
  console.log("puzzle: hints, undo and restart; the triangle solved to one peg");
}

/** Tournaments: Cy signs up on the page and creates a round-robin with
 * its form; Dee joins through the API; Cy starts it from its page, which
 * then shows the standings, the cross table and the link to Cy's game. */
async function tournaments() {
  const cy = await newPage();
  await cy.goto(`${base}/#/account`);
  await cy.locator("#sign-up-name").fill("Cy");
  await cy.locator("#sign-up-password").fill("frog-spawn-42");
  await cy.locator("#sign-up").click();
  await cy.locator("#profile", { hasText: "Cy" }).waitFor();
  await cy.goto(`${base}/#/`);
  await cy.locator("#tournaments-link").click();
  await cy.locator("#tournament-list").waitFor();
  await cy.locator("#tournament-name").fill("Page Cup");
  await cy.locator("#tournament-format").selectOption("round_robin");
  await cy.locator("#tournament-preset").selectOption("old");
  await cy.locator("#tournament-size").fill("6");
  await cy.locator("#create-tournament").click();
  await cy.waitForURL(/#\/tournaments\/[0-9a-f-]{36}$/);
  const id = /#\/tournaments\/([0-9a-f-]+)/.exec(cy.url())[1];
  await cy.locator("#tournament", { hasText: "Page Cup" }).waitFor();
  await cy.locator("#tournament-join").click();
  await cy.locator("#tournament-players", { hasText: "Cy" }).waitFor();
  const json = { "Content-Type": "application/json" };
  await api("/v1/accounts", { method: "POST", headers: json, body: JSON.stringify({ name: "Dee", password: "frog-spawn-42" }) });
  const token = (await api("/v1/tokens", { method: "POST", headers: json,
    body: JSON.stringify({ name: "Dee", password: "frog-spawn-42", label: "test", scopes: ["play"] }) })).token;
  const joined = await api(`/v1/tournaments/${id}/join`, { method: "POST", headers: { Authorization: `Bearer ${token}` } });
  assert.equal(joined.players?.length, 2, JSON.stringify(joined));
  await cy.locator("#tournament-players", { hasText: "Dee" }).waitFor();
  await cy.locator("#tournament-start").click();
  await cy.locator("#tournament-status", { hasText: "running, round 1" }).waitFor();
  await cy.locator("#standings", { hasText: "Dee" }).waitFor();
  await cy.locator("#cross-table", { hasText: "Cy" }).waitFor();
  await cy.locator("#my-tournament-game").click();
  await cy.waitForURL(/#\/game\//);
  const game = /#\/game\/([0-9a-f-]+)/.exec(cy.url())[1];
  const listed = await api(`/v1/tournaments/${id}/games`);
  assert.equal(listed.games[0].game, game, "the link is Cy's game of the event");
  console.log("tournaments: created, joined and started on the page; standings, cross table, the game linked");
}

try {
  await hexagonalGame();
  await solvedPuzzle();
  await twoPeople();
  await typingSurvivesLiveUpdates();
  await resumesAfterALostConnection();
  await analysisBoardWithTheServerGone();
  await againstTheComputer();
  await accountsAndRecords();
  await tournaments();
  assert.deepEqual(outside, [], "no request outside the server");
  console.log("browser tests passed");
} catch (e) {
  for (const [i, c] of browser.contexts().entries()) {
    for (const [j, p] of c.pages().entries()) {
      await p.screenshot({ path: path.join(shots, `failure-${i}-${j}.png`) }).catch(() => {});
    }
  }
  console.error(e);
  process.exitCode = 1;
} finally {
  await browser.close();
}
