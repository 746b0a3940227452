// Type-checked by `npm test` (tsc): requests and answers typed from the spec.
import { init, setup, legalMoves, apply, ProblemError } from '../index.js';

await init();
const dealt = setup({ rules: { preset: 'murray', rows: 9, cols: 9 }, seed: '42' });
const position = { board: dealt.position.board, ply: dealt.position.ply, scores: dealt.position.scores };
const page = legalMoves({ rules: dealt.rules, position });
const first = page.moves[0];
if (first) {
  const after = apply({ rules: dealt.rules, position, move: { path: first.path } });
  const ply: number = after.position.ply;
  console.log(ply);
}
try {
  apply({ rules: dealt.rules, position, move: { path: ['a1', 'a9'] } });
} catch (e) {
  if (e instanceof ProblemError) console.log(e.problem.field);
}
