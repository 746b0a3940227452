// A game's page drawn from its state: the headline, the board, the
// players, the result, the moves with the replay slider; the actions come
// from game_actions.ts. Every event redraws it whole, keeping the focus.

import { api } from "./client.js";
import { h, main, reason, say } from "./dom.js";
import { gameName, kindName, legend } from "./pieces.js";
import { drawBoard } from "./board.js";
import { type View, held, myTurn } from "./game_state.js";
import { actions, cellClicks, player, shareLinks } from "./game_actions.js";
import { conditionalPanel } from "./long.js";
import { localEngine } from "./local.js";
import type { PositionView } from "./types.js";

/** What is happening, in words. */
function headline(view: View): string {
  const g = view.game;
  const turn = myTurn(view);
  if (g.status === "waiting") return "Waiting for players to take the open seats.";
  if (g.status === "over") return "The game is over.";
  if (turn) return g.status === "opening" ? "Your turn: remove a piece (click it)." : "Your turn: click a piece, then where it jumps.";
  return `${g.players[g.position.to_move]?.name ?? "?"} to move.`;
}

/** The players: seat, name, who plays it, score and captures. */
function playerList(view: View): HTMLElement {
  const g = view.game;
  const mine = held(view);
  return h("ul", { class: "players", "aria-label": "players" },
    ...g.players.map((p) => {
      const score = g.position.scores[p.player] ?? 0;
      const taken = view.captured[p.player] ?? [];
      const counts = new Map<string, number>();
      for (const l of taken) counts.set(l, (counts.get(l) ?? 0) + 1);
      return h("li", { class: p.player === g.position.to_move && g.status !== "over" && g.status !== "waiting" ? "to-move" : "" },
        p.account
          ? h("span", {}, `${p.player + 1}. `, h("a", { href: `#/profile/${p.name}` }, p.name))
          : h("span", {}, `${p.player + 1}. ${p.open ? "Open seat" : p.name}`),
        p.computer ? h("span", { class: "badge" }, `computer, ${p.computer}`) : null,
        p.bot ? h("span", { class: "badge bot" }, "bot") : null,
        p.open ? h("span", { class: "badge" }, p.open) : null,
        p.resigned ? h("span", { class: "badge" }, p.resigned === "timed_out" ? "out of time" : "resigned") : null,
        mine.some((s) => s.player === p.player) ? h("span", { class: "badge" }, "you") : null,
        h("span", { class: "score", "aria-label": `score ${score}` }, `${score} pts`),
        h("span", { class: "captured" }, taken.length === 0 ? "no captures" :
          `captured ${taken.length}: ` + [...counts].map(([l, n]) => `${n} ${kindName(g.rules, l)}`).join(", ")));
    }));
}

/** The result, once over; the end told once on the message line. */
function resultPanel(view: View): HTMLElement | null {
  const r = view.game.result;
  if (!r) return null;
  const names = view.game.players.map((p) => p.name);
  const winners = r.winners.map((w) => names[w] ?? "?").join(" and ");
  const verdict = r.ended === "aborted" ? "Aborted before every player had moved: unrated, no winner."
    : r.winners.length === 0 ? "No winner."
    : `${winners} ${r.shared ? "share the win" : "wins"}${r.ended === "resignation" ? " by resignation" : ""}.`;
  // The end replaces whatever the message line said last ("Played …").
  if (!view.toldOver) {
    say(`The game is over. ${verdict}`);
    view.toldOver = true;
  }
  return h("div", { class: "result", id: "result", role: "region", "aria-label": "the result" },
    h("h2", {}, "Game over"),
    h("p", { class: "verdict" }, verdict),
    h("ol", {}, ...r.standings.map((st) => {
      const change = r.ratings?.find((c) => c.player === st.player);
      const rating = change ? `, rating ${change.before} → ${change.after}` : "";
      return h("li", {}, `${names[st.player] ?? "?"}: ${st.score} pts, rank ${st.rank}${st.resigned ? " (resigned)" : ""}${rating}`);
    })));
}

/** The position after `n` moves: replayed in this page from the deal (its
 * rules and seed) when the engine is here and the replay reaches the
 * game's own position; else asked of the server (a game set up from a
 * position of its own). */
async function positionAfter(view: View, n: number): Promise<PositionView> {
  const g = view.game;
  if (localEngine() !== null && g.seed) {
    try {
      let p = (await api.setup({ rules: g.rules, players: g.players.length, seed: g.seed })).position;
      let at: PositionView | null = n === 0 ? p : null;
      for (const [i, m] of view.history.entries()) {
        p = (await api.apply({ rules: g.rules, position: { board: p.board, ply: p.ply, scores: p.scores }, move: { path: m.path } })).position;
        if (i + 1 === n) at = p;
      }
      if (at && p.board === g.position.board && p.ply === g.position.ply) return at;
    } catch { /* the server knows */ }
  }
  return api.positionAt(g.id, n);
}

/** The moves, the replay slider and the record's download. */
function movesPanel(view: View, render: () => void): [HTMLElement, HTMLElement] {
  const g = view.game;
  const names = g.players.map((p) => p.name);
  const moves = h("ol", { class: "moves", start: 1, "aria-label": "moves" },
    ...view.history.map((m) => h("li", {}, `${names[m.player] ?? "?"}: ${m.notation}${m.gain ? ` (+${m.gain})` : ""}${m.computer ? " ·c" : ""}`)));
  const slider = h("input", { type: "range", class: "replay", id: "replay", min: 0, max: g.position.ply, value: view.replay ?? g.position.ply,
    "aria-label": "replay: the position after this many moves" });
  slider.addEventListener("change", () => void (async () => {
    const n = Number(slider.value);
    if (n >= g.position.ply) {
      view.replay = null;
      view.replayPosition = null;
    } else {
      try {
        view.replayPosition = await positionAfter(view, n);
        view.replay = n;
      } catch (err) {
        say(`That position did not load: ${reason(err)}`, true);
      }
    }
    render();
  })());
  const panel = h("section", { class: "panel", "aria-labelledby": "moves-title" }, h("h2", { id: "moves-title" }, `Moves (${view.history.length})`),
    h("label", {}, "Replay", slider), moves,
    h("a", { href: `/v1/games/${g.id}/record`, download: `leapfrog-${g.id}.txt`, id: "download-record" }, "Download the record"));
  return [panel, moves];
}

/** Runs `draw`, then puts the keyboard's focus (and a text field's caret)
 * back on the same cell or control: a redraw must not move it. */
function keepingFocus(root: HTMLElement, draw: () => void): void {
  const active = document.activeElement;
  const cell = active?.getAttribute("data-cell");
  const focusAgain = cell ? `[data-cell="${cell}"]` : active?.id ? `#${CSS.escape(active.id)}` : null;
  const caret = active instanceof HTMLInputElement && active.type === "text" ? { start: active.selectionStart, end: active.selectionEnd } : null;
  draw();
  const again = focusAgain ? root.querySelector<HTMLElement | SVGGElement>(focusAgain) : null;
  again?.focus();
  if (caret && again instanceof HTMLInputElement) again.setSelectionRange(caret.start, caret.end);
}

export function renderGame(view: View, invite: string | null, render: () => void): void {
  const g = view.game;
  const root = main();
  // The tab says when it is this browser's turn, also while it is in the background.
  document.title = `${myTurn(view) ? "Your turn · " : ""}${gameName(g.rules)} · Leap Frog`;
  const play = player(view, render);
  const position = view.replay !== null && view.replayPosition ? view.replayPosition : g.position;
  const last = view.replay === null ? view.history[view.history.length - 1] : undefined;
  const board = drawBoard(g.rules, position.grid, view, last, cellClicks(view, render, play));
  const [movesSection, moves] = movesPanel(view, render);
  keepingFocus(root, () => root.replaceChildren(
    h("div", { class: "columns" },
      h("section", { class: "panel", "aria-labelledby": "game-title" },
        h("h1", { id: "game-title" }, gameName(g.rules)),
        h("p", { id: "headline" }, headline(view), " ", h("span", { id: "clock" })),
        resultPanel(view),
        view.replay !== null ? h("p", {}, `Showing the position after ${view.replay} moves (the game is at ${g.position.ply}).`) : null,
        h("div", { class: "board-wrap" }, board),
        legend(g.rules),
        actions(view, invite, render, play), shareLinks(view), conditionalPanel(view)),
      h("div", {},
        h("section", { class: "panel", "aria-labelledby": "players-title" }, h("h2", { id: "players-title" }, "Players"), playerList(view)),
        movesSection))));
  // The latest move in view, in the list's own scroll box.
  moves.scrollTop = moves.scrollHeight;
}
