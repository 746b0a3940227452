// The rules engine in this browser: the WebAssembly build of the server's
// own stateless operations (served at /engine/, the npm package
// leapfrog-engine), so that legal moves, moves, hints and analyses are
// computed here, not asked of the server, and the analysis board works with
// the server gone. Where it cannot load, the server answers instead.

import type { S } from "./types.js";

/** The engine's operations, as its package types them. */
export interface Engine {
  init(): Promise<void>;
  presets(): S["PresetInfo"][];
  setup(body: S["SetupRequest"]): S["SetupResponse"];
  legalMoves(body: S["LegalMovesRequest"]): S["LegalMovesResponse"];
  apply(body: S["ApplyRequest"]): S["ApplyResponse"];
  analysis(body: S["AnalysisRequest"]): S["AnalysisResponse"];
  solutions(body: S["SolutionRequest"]): S["SolutionResponse"];
  readRecord(body: S["RecordInput"]): S["ReadRecord"];
}

let engine: Engine | null = null;

/** Loads the engine once; whether it runs in this browser. */
export async function loadEngine(): Promise<boolean> {
  if (engine) return true;
  try {
    // A path, not a module the compiler resolves: the binary serves it.
    const url: string = "/engine/index.js";
    const loaded = (await import(url)) as Engine;
    await loaded.init();
    engine = loaded;
    return true;
  } catch (err: unknown) {
    console.warn("The rules engine did not load here; the server answers instead.", err);
    return false;
  }
}

/** The engine, once loaded. */
export function localEngine(): Engine | null {
  return engine;
}

/** A refusal of the engine: the problem object the server would answer. */
export function problemOf(err: unknown): Partial<S["Problem"]> | null {
  if (typeof err === "object" && err !== null && "problem" in err) {
    return (err as { problem: Partial<S["Problem"]> }).problem;
  }
  return null;
}
