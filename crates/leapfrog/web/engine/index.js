// The rules engine's stateless API in WebAssembly: each operation takes the
// request body its HTTP operation takes and answers the same JSON, or throws
// a ProblemError carrying the same problem object (type, title, status,
// detail, field). Call `await init()` once first.
import initWasm, { initSync, call as callWasm, operations as wasmOperations } from './wasm/leapfrog_js.js';

let ready = null;

/** A refusal: `problem` is the RFC 9457 object the server would answer. */
export class ProblemError extends Error {
  constructor(problem) {
    super(`${problem.title}: ${problem.detail}`);
    this.name = 'ProblemError';
    this.problem = problem;
  }
}

/**
 * Loads the engine. In a browser it fetches `wasm/leapfrog_js_bg.wasm` beside
 * this file (or `source`: a URL, a Response, bytes or a compiled module); in
 * Node it reads that file. Later calls return the first one's promise.
 */
export function init(source) {
  if (ready) return ready;
  const node = typeof process !== 'undefined' && process.versions != null && process.versions.node != null;
  if (source === undefined && node) {
    ready = import('node:fs').then((fs) => {
      const bytes = fs.readFileSync(new URL('./wasm/leapfrog_js_bg.wasm', import.meta.url));
      initSync({ module: bytes });
    });
  } else {
    ready = initWasm(source === undefined ? undefined : { module_or_path: source }).then(() => undefined);
  }
  return ready;
}

/** Runs `operation` on `body`: its answer, or a thrown ProblemError. */
export function call(operation, body = {}) {
  let answer;
  try {
    answer = callWasm(operation, JSON.stringify(body));
  } catch (e) {
    if (typeof e === 'string') {
      let problem;
      try {
        problem = JSON.parse(e);
      } catch {
        throw new Error(e);
      }
      throw new ProblemError(problem);
    }
    if (e instanceof TypeError && ready === null) {
      throw new Error('leapfrog-engine: await init() before the first call');
    }
    throw e;
  }
  return JSON.parse(answer);
}

/** The operations' names. */
export const operations = () => wasmOperations();

export const presets = () => call('presets', {});
export const setup = (body) => call('setup', body);
export const legalMoves = (body) => call('legalMoves', body);
export const apply = (body) => call('apply', body);
export const analysis = (body) => call('analysis', body);
export const solutions = (body) => call('solutions', body);
export const readRecord = (body) => call('readRecord', body);
export const perft = (body) => call('perft', body);
