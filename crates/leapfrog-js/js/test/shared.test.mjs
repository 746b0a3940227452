// The shared tests: every case of tests/fixtures/stateless answers as the
// server does (answers.json, all but `millis`), and perft reproduces the
// rules crate's vectors. A 400's detail ends with where in the request's
// text the fault is (`at line 1 column 38`): that depends on how the text
// was written, so it is compared without it.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as engine from '../index.js';

const root = new URL('../../../../', import.meta.url);
const read = (path) => readFileSync(new URL(path, root), 'utf8');

function timeless(value) {
  if (typeof value === 'string') return value.replace(/ at line \d+ column \d+$/, '');
  if (Array.isArray(value)) return value.map(timeless);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'millis').map(([k, v]) => [k, timeless(v)]));
  }
  return value;
}

before(() => engine.init());

test('every stateless case answers as the server does', () => {
  const cases = JSON.parse(read('tests/fixtures/stateless/cases.json'));
  const answers = JSON.parse(read('tests/fixtures/stateless/answers.json'));
  for (const c of cases) {
    const kept = answers[c.name];
    let status, body;
    try {
      body = engine.call(c.operation, c.body);
      status = 200;
    } catch (e) {
      assert.ok(e instanceof engine.ProblemError, `${c.name}: ${e}`);
      ({ status } = e.problem);
      body = e.problem;
    }
    assert.equal(status, kept.status, c.name);
    assert.deepEqual(timeless(body), timeless(kept.body), c.name);
  }
});

test('perft reproduces the rules crate vectors', () => {
  let counted = 0;
  for (const line of read('crates/jump-capture/tests/data/perft.txt').split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    const [preset, directions, depth, count, board, ply, scores] = line.split(' ');
    if (Number(count) > 2_000_000) continue;
    const body = {
      rules: { preset, directions },
      position: { board, ply: Number(ply), scores: scores.split(',').map(Number) },
      depth: Number(depth),
    };
    assert.equal(engine.perft(body).nodes, Number(count), line);
    counted += 1;
  }
  assert.ok(counted >= 40, `${counted} vectors`);
});

test('an unknown operation and a call before a body is JSON are refused clearly', () => {
  assert.throws(() => engine.call('legal_moves', {}), (e) => e instanceof engine.ProblemError && e.problem.status === 404 && e.problem.field === 'operation');
  assert.deepEqual(engine.operations(), ['presets', 'setup', 'legalMoves', 'apply', 'analysis', 'solutions', 'readRecord', 'perft']);
});
