// The types of every request and answer are the server's OpenAPI schemas
// (api.d.ts, generated from openapi/openapi.json by build.sh).
import type { components } from './api';

type S = components['schemas'];

/** An RFC 9457 problem: what the server answers for the same request. */
export type Problem = S['Problem'];

/** A refusal of the engine, carrying its problem. */
export class ProblemError extends Error {
  readonly problem: Problem;
}

/** The request and answer of each operation, by name. */
export interface Operations {
  presets: [Record<string, never>, S['PresetInfo'][]];
  setup: [S['SetupRequest'], S['SetupResponse']];
  legalMoves: [S['LegalMovesRequest'], S['LegalMovesResponse']];
  apply: [S['ApplyRequest'], S['ApplyResponse']];
  analysis: [S['AnalysisRequest'], S['AnalysisResponse']];
  solutions: [S['SolutionRequest'], S['SolutionResponse']];
  readRecord: [S['RecordInput'], S['ReadRecord']];
  perft: [S['PerftRequest'], S['PerftResponse']];
}

export type Operation = keyof Operations;

/** Loads the engine (once): in Node from the package, in a browser by fetch. */
export function init(source?: string | URL | Request | Response | BufferSource | WebAssembly.Module): Promise<void>;

/** Runs `operation` on `body`: its answer; throws a ProblemError when refused. */
export function call<O extends Operation>(operation: O, body: Operations[O][0]): Operations[O][1];

/** The operations' names. */
export function operations(): string[];

export function presets(): S['PresetInfo'][];
export function setup(body: S['SetupRequest']): S['SetupResponse'];
export function legalMoves(body: S['LegalMovesRequest']): S['LegalMovesResponse'];
export function apply(body: S['ApplyRequest']): S['ApplyResponse'];
export function analysis(body: S['AnalysisRequest']): S['AnalysisResponse'];
export function solutions(body: S['SolutionRequest']): S['SolutionResponse'];
export function readRecord(body: S['RecordInput']): S['ReadRecord'];
export function perft(body: S['PerftRequest']): S['PerftResponse'];
