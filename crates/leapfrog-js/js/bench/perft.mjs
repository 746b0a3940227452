// Perft through the package in Node against the native build of the same
// call (leapfrog-wire's call_timed example, in-process): the best of five
// runs of each position, and the ratio.
// Usage: cargo build --release -p leapfrog-wire --example call_timed && node bench/perft.mjs
import { execFileSync } from 'node:child_process';
import { init, perft } from '../index.js';

const positions = [
  ['murray', 'orthogonal', 5, 'RWWWWY/YWYRYW/YWYRYW/RWWYYR/WWGRYW/YGGRWG 0 0,0,0'],
  ['old', 'orthogonal', 4, 'OOOOOOO/OOO1OOO/OO1O1OO/O1O1O1O/OO1O1OO/OOO1OOO/OOOOOOO 4 2,2'],
  ['capture', 'hex', 6, '----OOOOO/---OOOOOO/--OOOOOOO/-OOOOOOOO/OOOO1OOOO/OOOOOOOO-/OOOOOOO--/OOOOOO---/OOOOO---- 0 0,0'],
  ['english', 'orthogonal', 8, '--OOO--/--OOO--/OOOOOOO/OOO1OOO/OOOOOOO/--OOO--/--OOO-- 0 0'],
];
const bin = new URL('../../../../target/release/examples/call_timed', import.meta.url).pathname;
await init();
const best = (f) => Math.min(...Array.from({ length: 5 }, f));
let product = 1;
for (const [preset, directions, depth, text] of positions) {
  const [board, ply, scores] = text.split(' ');
  const body = { rules: { preset, directions }, position: { board, ply: Number(ply), scores: scores.split(',').map(Number) }, depth };
  const wasm = best(() => {
    const t = performance.now();
    perft(body);
    return performance.now() - t;
  });
  const out = execFileSync(bin, ['perft', JSON.stringify(body)], { encoding: 'utf8' });
  const native = Number(/([\d.]+) ms/.exec(out)?.[1] ?? NaN);
  product *= wasm / native;
  console.log(`${preset} ${directions} depth ${depth}: wasm ${wasm.toFixed(1)} ms, native ${native.toFixed(1)} ms, ratio ${(wasm / native).toFixed(2)}`);
}
console.log(`geometric mean of the ratios: ${Math.pow(product, 1 / positions.length).toFixed(2)}`);
