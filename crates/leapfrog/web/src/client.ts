// The API client: one call helper, every request the page makes, and the
// server's refusals as errors with their problem documents.

import type { Game, Joined, PositionView, Problem, S } from "./types.js";

/** A refusal of the server: its problem document. */
export class ApiError extends Error {
  constructor(readonly status: number, readonly problem: Partial<Problem>) {
    super(problem.detail ?? problem.title ?? `HTTP ${status}`);
  }
}

export async function call<T>(method: string, path: string, body?: unknown, token?: string): Promise<T> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token !== undefined) headers["Authorization"] = `Bearer ${token}`;
  const init: RequestInit = { method, headers };
  if (body !== undefined) init.body = JSON.stringify(body);
  const r = await fetch(path, init);
  const text = await r.text();
  const data: unknown = text ? (JSON.parse(text) as unknown) : null;
  if (!r.ok) throw new ApiError(r.status, (data ?? {}) as Partial<Problem>);
  return data as T;
}

export const api = {
  create: (req: S["CreateGameRequest"], token?: string) => call<Game>("POST", "/v1/games", req, token),
  game: (id: string) => call<Game>("GET", `/v1/games/${id}`),
  lobby: () => call<S["GameList"]>("GET", "/v1/games?status=waiting&limit=50"),
  history: (id: string) => call<S["History"]>("GET", `/v1/games/${id}/moves`),
  positionAt: (id: string, ply: number) => call<PositionView>("GET", `/v1/games/${id}/positions/${ply}`),
  jumps: (id: string, cell: string) =>
    call<S["LegalMovesResponse"]>("GET", `/v1/games/${id}/legal-moves?from=${cell}&limit=1`),
  play: (id: string, token: string, version: number, path: string[]) =>
    callWithVersion(`/v1/games/${id}/moves`, token, version, { path }),
  join: (id: string, req: S["JoinRequest"], token?: string) => call<Joined>("POST", `/v1/games/${id}/join`, req, token),
  signUp: (req: S["AccountInput"]) => call<S["AccountView"]>("POST", "/v1/accounts", req),
  signIn: (req: S["TokenInput"]) => call<S["NewTokenView"]>("POST", "/v1/tokens", req),
  signOut: (id: string, token: string) => call<null>("DELETE", `/v1/tokens/${encodeURIComponent(id)}`, undefined, token),
  account: (name: string) => call<S["AccountView"]>("GET", `/v1/accounts/${encodeURIComponent(name)}`),
  accountGames: (name: string) => call<S["GameList"]>("GET", `/v1/accounts/${encodeURIComponent(name)}/games?limit=50`),
  leaderboard: (pool: string) => call<S["Leaderboard"]>("GET", `/v1/ratings/${pool}`),
  readRecord: (record: string) => call<S["ReadRecord"]>("POST", "/v1/records", { record }),
  leave: (id: string, token: string) => call<Game>("POST", `/v1/games/${id}/leave`, undefined, token),
  resign: (id: string, token: string) => call<Game>("POST", `/v1/games/${id}/resign`, undefined, token),
  rematch: (id: string, token: string) => call<Joined>("POST", `/v1/games/${id}/rematch`, undefined, token),
  analyse: (req: S["AnalysisRequest"]) => call<S["AnalysisResponse"]>("POST", "/v1/analysis", req),
};

export async function callWithVersion(path: string, token: string, version: number, body: S["MoveInput"]): Promise<Game> {
  const r = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}`, "If-Match": `"${version}"` },
    body: JSON.stringify(body),
  });
  const data: unknown = await r.json();
  if (!r.ok) throw new ApiError(r.status, data as Partial<Problem>);
  return data as Game;
}
