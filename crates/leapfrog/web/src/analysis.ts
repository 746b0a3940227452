// The analysis board (#/analysis): any rule set dealt, or any position
// typed, both sides played by clicks, moves taken back, and the computer's
// view of the position — every bit computed by the engine in this page, so
// that it works with the server gone once the page has loaded.

import type { S } from "./types.js";
import { api } from "./client.js";
import { h, main, reason, say } from "./dom.js";
import { type Chosen, choose, drawBoard, gridOf } from "./board.js";
import { legend, offered, presetName } from "./pieces.js";

interface Board {
  /** The rules as requests give them (the shape from the position). */
  rules: S["Rules"];
  /** The complete rule set, for drawing. */
  ruleSet: S["RuleSet"];
  /** Every position so far, the start first, with the move to it. */
  line: { position: S["PositionInput"]; move: string | null; over: string | null }[];
  chosen: Chosen | null;
  hint: string[];
  view: S["AnalysisResponse"] | null;
}

let board: Board | null = null;
/** What the form last set up, shown again when it is drawn anew. */
let asked: Record<string, string> = {};

export function showAnalysis(): void {
  document.title = "Analysis board · Leap Frog";
  render();
}

function current(b: Board): Board["line"][number] {
  return b.line[b.line.length - 1] as Board["line"][number];
}

/** Deals the form's rule set, or sets up the position typed. */
async function setUp(form: HTMLFormElement): Promise<void> {
  const data = new FormData(form);
  asked = Object.fromEntries([...data.entries()].map(([k, v]) => [k, String(v)]));
  const preset = String(data.get("preset") ?? "old") as S["PresetId"];
  const directions = String(data.get("directions") ?? "") as NonNullable<S["Rules"]["directions"]> | "";
  const size = Number(data.get("size") ?? 0);
  const typed = String(data.get("position") ?? "").trim();
  const rules: S["Rules"] = { preset, ...(directions ? { directions } : {}) };
  try {
    if (typed) {
      const [boardText = "", ply = "0", scores = ""] = typed.split(/\s+/);
      const position = { board: boardText, ply: Number(ply), scores: scores.split(",").filter(Boolean).map(Number) };
      // Read by the engine: a position that does not fit is refused, with where.
      await api.legalMoves({ rules, position, limit: 1 });
      const ruleSet = (await api.setup({ rules, players: position.scores.length, seed: "0" })).rules;
      board = { rules, ruleSet, line: [{ position, move: null, over: null }], chosen: null, hint: [], view: null };
    } else {
      const sized: S["Rules"] = size > 0 ? { ...rules, rows: size, cols: size } : rules;
      const dealt = await api.setup({ rules: sized, seed: String(data.get("seed") || "1") });
      const p = dealt.position;
      board = { rules: sized, ruleSet: dealt.rules, line: [{ position: { board: p.board, ply: p.ply, scores: p.scores }, move: null, over: null }],
        chosen: null, hint: [], view: null };
    }
    say("Set up: play both sides, or ask for the computer's view.");
  } catch (err) {
    say(`Not set up: ${reason(err)}`, true);
  }
  render();
}

async function play(b: Board, path: string[]): Promise<void> {
  try {
    const after = await api.apply({ rules: b.rules, position: current(b).position, move: { path } });
    const p = after.position;
    const over = after.status === "over" && after.result
      ? `The game is over: ${after.result.winners.map((w) => `player ${w + 1}`).join(" and ")} ${after.result.winners.length > 1 ? "share the win" : "wins"}.`
      : null;
    b.line.push({ position: { board: p.board, ply: p.ply, scores: p.scores }, move: after.move.notation, over });
    say(over ?? `Played ${after.move.notation}.`);
  } catch (err) {
    say(`Not played: ${reason(err)}`, true);
  }
  Object.assign(b, { chosen: null, hint: [], view: null });
  render();
}

async function think(b: Board): Promise<void> {
  try {
    b.view = await api.analyse({ rules: b.rules, position: current(b).position, iterations: 5000, seed: "1" });
    b.hint = b.view.candidates[0]?.path ?? [];
    say(`The computer would play ${b.view.best}${b.view.exact ? " (solved exactly)" : ""}.`);
  } catch (err) {
    say(`No view: ${reason(err)}`, true);
  }
  render();
}

/** What the search proved of a move, if anything, for its line in the view. */
function proof(proven: boolean | null | undefined): string {
  if (proven === true) return " (wins against any defence)";
  if (proven === false) return " (loses against any defence)";
  return "";
}

function setupForm(): HTMLFormElement {
  const form = h("form", { id: "analysis-setup", class: "stack" },
    h("label", {}, "Rules ", h("select", { name: "preset", id: "analysis-preset" },
      ...offered().map((p) => h("option", { value: p }, presetName(p))))),
    h("label", {}, "Directions ", h("select", { name: "directions", id: "analysis-directions" },
      h("option", { value: "" }, "the preset's"), h("option", { value: "orthogonal" }, "orthogonal"),
      h("option", { value: "diagonal" }, "diagonal"), h("option", { value: "all" }, "all eight"))),
    h("label", {}, "Size ", h("input", { name: "size", id: "analysis-size", type: "number", min: "3", max: "26", placeholder: "the preset's" })),
    h("label", {}, "Seed ", h("input", { name: "seed", id: "analysis-seed", value: "1" })),
    h("label", {}, "Or a position ", h("input", { name: "position", id: "analysis-position", placeholder: "board ply scores, as in a record" })),
    h("button", { type: "submit", id: "analysis-deal" }, "Set up"));
  for (const [name, value] of Object.entries(asked)) {
    const field = form.elements.namedItem(name);
    if (field instanceof HTMLInputElement || field instanceof HTMLSelectElement) field.value = value;
  }
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    void setUp(form);
  });
  return form;
}

function render(): void {
  const root = main();
  const b = board;
  const side: HTMLElement[] = [h("h2", { id: "analysis-side" }, "Set up"), setupForm()];
  if (b === null) {
    root.replaceChildren(h("div", { class: "columns" },
      h("section", { class: "panel" }, h("h1", {}, "Analysis board"),
        h("p", {}, "Deal any rule set or type any position, play both sides, and ask the computer — all in this page.")),
      h("section", { class: "panel", "aria-labelledby": "analysis-side" }, ...side)));
    return;
  }
  const now = current(b);
  const clickCell = async (cell: string, letter: string | null): Promise<void> => {
    if (now.over) {
      say("The game is over: take a move back or set up again.", true);
      return;
    }
    // In an opening a click removes; the engine refuses what it may not.
    const opening = (await api.legalMoves({ rules: b.rules, position: now.position, limit: 1 })).moves[0]?.path.length === 1;
    if (opening) {
      await play(b, [cell]);
      return;
    }
    await choose({
      get chosen() { return b.chosen; },
      set chosen(c) { b.chosen = c; },
      piece: "piece",
      goOn: "stop here",
      play: (path) => play(b, path),
      jumps: async (from) => (await api.legalMoves({ rules: b.rules, position: now.position, from, limit: 1 })).tree,
      render,
    }, cell, letter);
  };
  const grid = gridOf(now.position.board);
  const moves = b.line.slice(1).map((l) => l.move ?? "");
  const view = b.view;
  root.replaceChildren(h("div", { class: "columns" },
    h("section", { class: "panel", "aria-labelledby": "analysis-title" },
      h("h1", { id: "analysis-title" }, "Analysis board"),
      h("p", { id: "analysis-scores" }, `Ply ${now.position.ply}; scores ${now.position.scores.join(", ")}.`),
      now.over ? h("p", { id: "analysis-over", class: "result verdict" }, now.over) : null,
      h("div", { class: "board-wrap" }, drawBoard(b.ruleSet, grid, { chosen: b.chosen, hint: b.hint }, undefined, clickCell)),
      legend(b.ruleSet)),
    h("section", { class: "panel", "aria-labelledby": "analysis-side" },
      h("div", { class: "actions" },
        b.chosen && b.chosen.path.length > 1
          ? h("button", { type: "button", id: "stop", onclick: () => void play(b, b.chosen?.path ?? []) }, "Stop here") : null,
        h("button", { type: "button", id: "analysis-think", disabled: now.over !== null, onclick: () => void think(b) }, "Computer's view"),
        h("button", { type: "button", id: "analysis-back", class: "secondary", disabled: b.line.length < 2,
          onclick: () => { b.line.pop(); Object.assign(b, { chosen: null, hint: [], view: null }); say("Took back the last move."); render(); } }, "Take back")),
      view ? h("div", { id: "analysis-view", role: "region", "aria-label": "the computer's view" },
        h("p", {}, `Best: ${view.best}; line ${view.line.join(" ")} (${view.iterations} iterations${view.exact ? ", exact" : ""}).`),
        h("ol", {}, ...view.candidates.slice(0, 5).map((c) =>
          h("li", {}, `${c.notation}: ${c.visits} visits, expected ${c.expected.map((e) => e.toFixed(2)).join(" / ")}${proof(c.proven)}`)))) : null,
      h("ol", { class: "moves", id: "analysis-moves" }, ...moves.map((m) => h("li", {}, m))),
      ...side)));
}
