// Peg solitaire as a puzzle for one (rule book §12): played in the browser
// through the stateless API — each jump applied by the server, undo and
// restart from the positions kept here, a hint from the solver — and the
// result when no jump is left.

import type { PositionView, S } from "./types.js";
import { api } from "./client.js";
import { h, main, reason, say } from "./dom.js";
import { type Chosen, choose, drawBoard } from "./board.js";
import { presetName } from "./pieces.js";

interface Puzzle {
  rules: S["RuleSet"];
  /** Every position so far, the start first. */
  positions: PositionView[];
  chosen: Chosen | null;
  hint: string[];
  result: S["Outcome"] | null;
  busy: boolean;
}

function input(p: PositionView): S["PositionInput"] {
  return { board: p.notation.split(" ")[0] ?? "", ply: p.ply, scores: p.scores };
}

export async function showPuzzle(preset: S["PresetId"]): Promise<void> {
  let setup: S["SetupResponse"];
  try {
    setup = await api.setup({ rules: { preset }, players: 1, seed: "0" });
  } catch (err) {
    say(`The puzzle did not load: ${reason(err)}`, true);
    return;
  }
  const puzzle: Puzzle = { rules: setup.rules, positions: [setup.position], chosen: null, hint: [], result: null, busy: false };
  document.title = `${presetName(preset)} · Leap Frog`;
  const render = (): void => renderPuzzle(puzzle, preset, render);
  render();
}

function renderPuzzle(puzzle: Puzzle, preset: S["PresetId"], render: () => void): void {
  const root = main();
  const now = puzzle.positions[puzzle.positions.length - 1] as PositionView;
  const rules = { preset: puzzle.rules.preset ?? preset } as S["Rules"];
  const pegs = now.grid.flat().filter((l) => l !== null && l !== "-").length;

  const play = async (path: string[]): Promise<void> => {
    if (puzzle.busy) return;
    puzzle.busy = true;
    try {
      const after = await api.apply({ rules, position: input(now), move: { path } });
      puzzle.positions.push(after.position);
      puzzle.result = after.status === "over" ? (after.result ?? null) : null;
      say(`Played ${path.join("x")}.`);
    } catch (err) {
      say(`Not played: ${reason(err)}`, true);
    } finally {
      puzzle.busy = false;
      puzzle.chosen = null;
      puzzle.hint = [];
    }
    render();
  };

  const clickCell = async (cell: string, letter: string | null): Promise<void> => {
    if (puzzle.result) {
      say("No jump is left: undo or restart.", true);
      return;
    }
    await choose({
      get chosen() { return puzzle.chosen; },
      set chosen(c) { puzzle.chosen = c; },
      piece: "peg",
      goOn: "stop here",
      play,
      jumps: async (from) => (await api.legalMoves({ rules, position: input(now), from, limit: 1 })).tree,
      render,
    }, cell, letter);
  };

  const undo = (): void => {
    if (puzzle.positions.length > 1) puzzle.positions.pop();
    Object.assign(puzzle, { chosen: null, hint: [], result: null });
    say("Took back the last move.");
    render();
  };
  const restart = (): void => {
    puzzle.positions.splice(1);
    Object.assign(puzzle, { chosen: null, hint: [], result: null });
    say("Back to the start.");
    render();
  };
  const hint = hinter(puzzle, rules, now, render);

  const outcome = outcomeOf(puzzle);
  const moves = puzzle.positions.length - 1;
  root.replaceChildren(h("div", { class: "columns" },
    h("section", { class: "panel", "aria-labelledby": "puzzle-title" },
      h("h1", { id: "puzzle-title" }, presetName(preset)),
      h("p", { id: "headline" }, puzzle.result ? "The puzzle is over." : "Jump a peg over a neighbour into the hole behind; leave one peg."),
      outcome ? h("p", { id: "puzzle-result", class: "result verdict", role: "status" }, outcome) : null,
      h("div", { class: "board-wrap" }, drawBoard(puzzle.rules, now.grid, { chosen: puzzle.chosen, hint: puzzle.hint }, undefined, clickCell))),
    h("section", { class: "panel", "aria-labelledby": "puzzle-side" },
      h("h2", { id: "puzzle-side" }, "Your puzzle"),
      h("p", { id: "pegs" }, `${pegs} ${pegs === 1 ? "peg" : "pegs"} on the board, ${moves} ${moves === 1 ? "move" : "moves"} made.`),
      h("div", { class: "actions" },
        puzzle.chosen && puzzle.chosen.path.length > 1
          ? h("button", { type: "button", id: "stop", onclick: () => void play(puzzle.chosen?.path ?? []) }, "Stop here")
          : null,
        h("button", { type: "button", id: "hint", disabled: puzzle.result !== null, onclick: () => void hint() }, "Hint"),
        h("button", { type: "button", id: "undo", class: "secondary", disabled: moves === 0, onclick: undo }, "Undo"),
        h("button", { type: "button", id: "restart", class: "secondary", disabled: moves === 0, onclick: restart }, "Restart")),
      h("p", {}, h("a", { href: "#/" }, "Back to the games")))));
}

/** The end in words, once no jump is left. */
function outcomeOf(puzzle: Puzzle): string {
  const left = puzzle.result?.solitaire;
  if (!left) return "";
  return left.solved
    ? `Solved: one peg left, on ${left.last ?? "?"}${left.perfect ? " — the centre: a perfect solution" : ""}.`
    : `No jump is left: ${left.pieces_left} pegs remain.`;
}

/** The hint: the solver's first move of a solution from `now`, if any. */
function hinter(puzzle: Puzzle, rules: S["Rules"], now: PositionView, render: () => void): () => Promise<void> {
  return async (): Promise<void> => {
    try {
      say("Looking for a solution…");
      const answer = await api.solve({ rules, position: input(now), goal: "any" });
      const first = answer.moves[0];
      if (answer.status === "solved" && first) {
        puzzle.hint = first.split("x");
        say(`A move that still leads to a solution: ${first}.`);
      } else if (answer.status === "no_solution") {
        puzzle.hint = [];
        say("No solution from here: undo a move or restart.", true);
      } else {
        say("The solver found nothing in its time: try again after a move.", true);
      }
    } catch (err) {
      say(`No hint: ${reason(err)}`, true);
    }
    render();
  };
}
