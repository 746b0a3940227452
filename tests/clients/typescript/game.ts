// A whole game through openapi-fetch, typed from the committed spec by
// openapi-typescript and checked by `tsc --strict`: a spec that does not
// describe what the server does fails to compile or fails here.
//
// Usage: node dist/game.js BASE_URL

import createClient from "openapi-fetch";
import type { components, paths } from "./generated/api.js";

type Game = components["schemas"]["Game"];

const base = process.argv[2];
if (!base) throw new Error("usage: node dist/game.js BASE_URL");

function check(ok: boolean, what: string): asserts ok {
  if (!ok) throw new Error(`failed: ${what}`);
}

const api = createClient<paths>({ baseUrl: base });

// Stateless: deal, list, apply, and a typed refusal.
const rules: components["schemas"]["Rules"] = { preset: "murray", rows: 5, cols: 5 };
const setup = await api.POST("/v1/setups", { body: { rules, players: 2, seed: "2" } });
check(setup.data !== undefined, "a setup");
check(setup.data.seed === "2", "seeds travel as decimal strings");
const position = { board: setup.data.position.board, ply: setup.data.position.ply, scores: setup.data.position.scores };
const page = await api.POST("/v1/legal-moves", { body: { rules, position, limit: 10 } });
check(page.data?.count === 25, "25 opening removals");
const bad = await api.POST("/v1/apply", { body: { rules, position, move: { path: ["a1", "a3"] } } });
check(bad.response.status === 422 && bad.error?.type === "urn:leapfrog:problem:illegal-move", "a typed refusal");

// A persisted game played to the end, each move with its seat's token.
const created = await api.POST("/v1/games", {
  body: { rules: { preset: "old", rows: 4, cols: 4 }, players: [{ name: "Ann" }, { name: "Bob" }], seed: 5 },
});
check(created.data !== undefined && created.data.seats !== undefined, "a created game with its seats");
const tokens = new Map(created.data.seats.map((seat) => [seat.player, seat.token]));
let game: Game = created.data;
while (game.status !== "over") {
  const id = game.id;
  const moves = await api.GET("/v1/games/{id}/legal-moves", { params: { path: { id }, query: { limit: 1 } } });
  const next = moves.data?.moves[0];
  check(next !== undefined, "a legal move while the game is not over");
  const played = await api.POST("/v1/games/{id}/moves", {
    params: { path: { id } },
    headers: { Authorization: `Bearer ${tokens.get(game.position.to_move)}` },
    body: { path: next.path },
  });
  check(played.data !== undefined, `move ${next.notation}: ${JSON.stringify(played.error)}`);
  game = played.data;
}
const history = await api.GET("/v1/games/{id}/moves", { params: { path: { id: game.id } } });
check(history.data?.moves.length === game.position.ply, "the history holds every ply");
check(game.result !== null && game.result.winners.length > 0, "a result with winners");
console.log(`typescript client: a whole game of ${game.position.ply} plies: ok`);
