// The API client: one call helper, every request the page makes (no other
// module fetches), and the server's refusals as errors with their problem
// documents.
import { localEngine, problemOf } from "./local.js";
/** A refusal of the server: its problem document. */
export class ApiError extends Error {
    status;
    problem;
    constructor(status, problem) {
        super(problem.detail ?? problem.title ?? `HTTP ${status}`);
        this.status = status;
        this.problem = problem;
    }
}
/** The one request helper: every call the page makes goes through it. */
export async function call(method, path, body, token, extra = {}) {
    const headers = { ...extra };
    if (body !== undefined)
        headers["Content-Type"] = "application/json";
    if (token !== undefined)
        headers["Authorization"] = `Bearer ${token}`;
    const init = { method, headers };
    if (body !== undefined)
        init.body = JSON.stringify(body);
    const r = await fetch(path, init);
    const text = await r.text();
    const data = text ? JSON.parse(text) : null;
    if (!r.ok)
        throw new ApiError(r.status, (data ?? {}));
    return data;
}
/** A stateless operation: the one place that chooses where it runs — the
 * engine in this page once loaded (its refusals the server's problems),
 * else the server at `path`. */
function stateless(operation, method, path, body) {
    const engine = localEngine();
    if (engine === null)
        return call(method, path, method === "GET" ? undefined : body);
    try {
        const run = engine[operation];
        return Promise.resolve(run(body));
    }
    catch (err) {
        const problem = problemOf(err);
        return Promise.reject(problem ? new ApiError(problem.status ?? 422, problem) : err);
    }
}
/** A game's position as the stateless operations take it. */
export function positionOf(g) {
    return { board: g.position.board, ply: g.position.ply, scores: g.position.scores };
}
export const api = {
    presets: () => stateless("presets", "GET", "/v1/presets", undefined),
    setup: (req) => stateless("setup", "POST", "/v1/setups", req),
    apply: (req) => stateless("apply", "POST", "/v1/apply", req),
    legalMoves: (req) => stateless("legalMoves", "POST", "/v1/legal-moves", req),
    solve: (req) => stateless("solutions", "POST", "/v1/solutions", req),
    create: (req, token) => call("POST", "/v1/games", req, token),
    game: (id) => call("GET", `/v1/games/${id}`),
    lobby: () => call("GET", "/v1/games?status=waiting&limit=50"),
    history: (id) => call("GET", `/v1/games/${id}/moves`),
    positionAt: (id, ply) => call("GET", `/v1/games/${id}/positions/${ply}`),
    /** The jumps from `cell` in a game: its rules and position's legal moves. */
    jumps: (g, cell) => stateless("legalMoves", "POST", "/v1/legal-moves", { rules: g.rules, position: positionOf(g), from: cell, limit: 1 }),
    /** A move, played only at the version the page shows (`If-Match`). */
    play: (id, token, version, path) => call("POST", `/v1/games/${id}/moves`, { path }, token, { "If-Match": `"${version}"` }),
    join: (id, req, token) => call("POST", `/v1/games/${id}/join`, req, token),
    signUp: (req) => call("POST", "/v1/accounts", req),
    signIn: (req) => call("POST", "/v1/tokens", req),
    signOut: (id, token) => call("DELETE", `/v1/tokens/${encodeURIComponent(id)}`, undefined, token),
    account: (name) => call("GET", `/v1/accounts/${encodeURIComponent(name)}`),
    accountGames: (name) => call("GET", `/v1/accounts/${encodeURIComponent(name)}/games?limit=50`),
    leaderboard: (pool) => call("GET", `/v1/ratings/${pool}`),
    readRecord: (record) => stateless("readRecord", "POST", "/v1/records", { record }),
    leave: (id, token) => call("POST", `/v1/games/${id}/leave`, undefined, token),
    resign: (id, token) => call("POST", `/v1/games/${id}/resign`, undefined, token),
    rematch: (id, token) => call("POST", `/v1/games/${id}/rematch`, undefined, token),
    analyse: (req) => stateless("analysis", "POST", "/v1/analysis", req),
    updateAccount: (name, req, token) => call("PATCH", `/v1/accounts/${encodeURIComponent(name)}`, req, token),
    challenge: (req, token) => call("POST", "/v1/challenges", req, token),
    challenges: (token) => call("GET", "/v1/challenges?limit=50", undefined, token),
    acceptChallenge: (id, token) => call("POST", `/v1/challenges/${encodeURIComponent(id)}/accept`, undefined, token),
    declineChallenge: (id, why, token) => call("POST", `/v1/challenges/${encodeURIComponent(id)}/decline`, { reason: why }, token),
    cancelChallenge: (id, token) => call("POST", `/v1/challenges/${encodeURIComponent(id)}/cancel`, undefined, token),
    gameMoves: (g) => stateless("legalMoves", "POST", "/v1/legal-moves", { rules: g.rules, position: positionOf(g), limit: 200 }),
    conditional: (id, token) => call("GET", `/v1/games/${id}/conditional-moves`, undefined, token),
    keepConditional: (id, lines, token) => call("PUT", `/v1/games/${id}/conditional-moves`, { lines }, token),
    vacation: (name, token) => call("GET", `/v1/accounts/${encodeURIComponent(name)}/vacation`, undefined, token),
    startVacation: (name, days, token) => call("POST", `/v1/accounts/${encodeURIComponent(name)}/vacation`, { days }, token),
    endVacation: (name, token) => call("DELETE", `/v1/accounts/${encodeURIComponent(name)}/vacation`, undefined, token),
    webhooks: (name, token) => call("GET", `/v1/accounts/${encodeURIComponent(name)}/webhooks`, undefined, token),
    createWebhook: (name, req, token) => call("POST", `/v1/accounts/${encodeURIComponent(name)}/webhooks`, req, token),
    deleteWebhook: (name, id, token) => call("DELETE", `/v1/accounts/${encodeURIComponent(name)}/webhooks/${encodeURIComponent(id)}`, undefined, token),
    testWebhook: (name, id, token) => call("POST", `/v1/accounts/${encodeURIComponent(name)}/webhooks/${encodeURIComponent(id)}/test`, undefined, token),
    rotateWebhook: (name, id, token) => call("POST", `/v1/accounts/${encodeURIComponent(name)}/webhooks/${encodeURIComponent(id)}/rotate`, undefined, token),
    tournaments: () => call("GET", "/v1/tournaments?limit=50"),
    tournament: (id) => call("GET", `/v1/tournaments/${encodeURIComponent(id)}`),
    tournamentGames: (id, round, cursor) => call("GET", `/v1/tournaments/${encodeURIComponent(id)}/games?limit=100&round=${round}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`),
    createTournament: (req, token) => call("POST", "/v1/tournaments", req, token),
    tournamentAction: (id, action, token) => call("POST", `/v1/tournaments/${encodeURIComponent(id)}/${action}`, undefined, token),
    deliveries: (name, id, token) => call("GET", `/v1/accounts/${encodeURIComponent(name)}/webhooks/${encodeURIComponent(id)}/deliveries?limit=10`, undefined, token),
};
