// The API client: one call helper, every request the page makes, and the
// server's refusals as errors with their problem documents.
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
export async function call(method, path, body, token) {
    const headers = {};
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
export const api = {
    create: (req, token) => call("POST", "/v1/games", req, token),
    game: (id) => call("GET", `/v1/games/${id}`),
    lobby: () => call("GET", "/v1/games?status=waiting&limit=50"),
    history: (id) => call("GET", `/v1/games/${id}/moves`),
    positionAt: (id, ply) => call("GET", `/v1/games/${id}/positions/${ply}`),
    jumps: (id, cell) => call("GET", `/v1/games/${id}/legal-moves?from=${cell}&limit=1`),
    play: (id, token, version, path) => callWithVersion(`/v1/games/${id}/moves`, token, version, { path }),
    join: (id, req, token) => call("POST", `/v1/games/${id}/join`, req, token),
    signUp: (req) => call("POST", "/v1/accounts", req),
    signIn: (req) => call("POST", "/v1/tokens", req),
    signOut: (id, token) => call("DELETE", `/v1/tokens/${encodeURIComponent(id)}`, undefined, token),
    account: (name) => call("GET", `/v1/accounts/${encodeURIComponent(name)}`),
    accountGames: (name) => call("GET", `/v1/accounts/${encodeURIComponent(name)}/games?limit=50`),
    leaderboard: (pool) => call("GET", `/v1/ratings/${pool}`),
    readRecord: (record) => call("POST", "/v1/records", { record }),
    leave: (id, token) => call("POST", `/v1/games/${id}/leave`, undefined, token),
    resign: (id, token) => call("POST", `/v1/games/${id}/resign`, undefined, token),
    rematch: (id, token) => call("POST", `/v1/games/${id}/rematch`, undefined, token),
    analyse: (req) => call("POST", "/v1/analysis", req),
};
export async function callWithVersion(path, token, version, body) {
    const r = await fetch(path, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}`, "If-Match": `"${version}"` },
        body: JSON.stringify(body),
    });
    const data = await r.json();
    if (!r.ok)
        throw new ApiError(r.status, data);
    return data;
}
