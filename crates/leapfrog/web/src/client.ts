// The API client: one call helper, every request the page makes (no other
// module fetches), and the server's refusals as errors with their problem
// documents.

import type { Game, Joined, PositionView, Problem, S } from "./types.js";
import { type Engine, localEngine, problemOf } from "./local.js";

/** A refusal of the server: its problem document. */
export class ApiError extends Error {
  constructor(readonly status: number, readonly problem: Partial<Problem>) {
    super(problem.detail ?? problem.title ?? `HTTP ${status}`);
  }
}

/** The one request helper: every call the page makes goes through it. */
export async function call<T>(method: string, path: string, body?: unknown, token?: string,
  extra: Record<string, string> = {}): Promise<T> {
  const headers: Record<string, string> = { ...extra };
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

/** A stateless operation: the one place that chooses where it runs — the
 * engine in this page once loaded (its refusals the server's problems),
 * else the server at `path`. */
function stateless<K extends Exclude<keyof Engine, "init">>(operation: K, method: string, path: string,
  body: Parameters<Engine[K]>[0]): Promise<ReturnType<Engine[K]>> {
  const engine = localEngine();
  if (engine === null) return call<ReturnType<Engine[K]>>(method, path, method === "GET" ? undefined : body);
  try {
    const run = engine[operation] as (b: typeof body) => ReturnType<Engine[K]>;
    return Promise.resolve(run(body));
  } catch (err: unknown) {
    const problem = problemOf(err);
    return Promise.reject(problem ? new ApiError(problem.status ?? 422, problem) : err);
  }
}

/** A game's position as the stateless operations take it. */
export function positionOf(g: Game): S["PositionInput"] {
  return { board: g.position.board, ply: g.position.ply, scores: g.position.scores };
}

export const api = {
  presets: () => stateless("presets", "GET", "/v1/presets", undefined),
  setup: (req: S["SetupRequest"]) => stateless("setup", "POST", "/v1/setups", req),
  apply: (req: S["ApplyRequest"]) => stateless("apply", "POST", "/v1/apply", req),
  legalMoves: (req: S["LegalMovesRequest"]) => stateless("legalMoves", "POST", "/v1/legal-moves", req),
  solve: (req: S["SolutionRequest"]) => stateless("solutions", "POST", "/v1/solutions", req),
  create: (req: S["CreateGameRequest"], token?: string) => call<Game>("POST", "/v1/games", req, token),
  game: (id: string) => call<Game>("GET", `/v1/games/${id}`),
  lobby: () => call<S["GameList"]>("GET", "/v1/games?status=waiting&limit=50"),
  history: (id: string) => call<S["History"]>("GET", `/v1/games/${id}/moves`),
  positionAt: (id: string, ply: number) => call<PositionView>("GET", `/v1/games/${id}/positions/${ply}`),
  /** The jumps from `cell` in a game: its rules and position's legal moves. */
  jumps: (g: Game, cell: string) =>
    stateless("legalMoves", "POST", "/v1/legal-moves", { rules: g.rules, position: positionOf(g), from: cell, limit: 1 }),
  /** A move, played only at the version the page shows (`If-Match`). */
  play: (id: string, token: string, version: number, path: string[]) =>
    call<Game>("POST", `/v1/games/${id}/moves`, { path } satisfies S["MoveInput"], token, { "If-Match": `"${version}"` }),
  join: (id: string, req: S["JoinRequest"], token?: string) => call<Joined>("POST", `/v1/games/${id}/join`, req, token),
  signUp: (req: S["AccountInput"]) => call<S["AccountView"]>("POST", "/v1/accounts", req),
  signIn: (req: S["TokenInput"]) => call<S["NewTokenView"]>("POST", "/v1/tokens", req),
  signOut: (id: string, token: string) => call<null>("DELETE", `/v1/tokens/${encodeURIComponent(id)}`, undefined, token),
  account: (name: string) => call<S["AccountView"]>("GET", `/v1/accounts/${encodeURIComponent(name)}`),
  accountGames: (name: string) => call<S["GameList"]>("GET", `/v1/accounts/${encodeURIComponent(name)}/games?limit=50`),
  leaderboard: (pool: string) => call<S["Leaderboard"]>("GET", `/v1/ratings/${pool}`),
  readRecord: (record: string) => stateless("readRecord", "POST", "/v1/records", { record }),
  leave: (id: string, token: string) => call<Game>("POST", `/v1/games/${id}/leave`, undefined, token),
  resign: (id: string, token: string) => call<Game>("POST", `/v1/games/${id}/resign`, undefined, token),
  rematch: (id: string, token: string) => call<Joined>("POST", `/v1/games/${id}/rematch`, undefined, token),
  analyse: (req: S["AnalysisRequest"]) => stateless("analysis", "POST", "/v1/analysis", req),
  updateAccount: (name: string, req: S["AccountUpdate"], token: string) =>
    call<S["AccountView"]>("PATCH", `/v1/accounts/${encodeURIComponent(name)}`, req, token),
  challenge: (req: S["ChallengeRequest"], token: string) => call<S["ChallengeView"]>("POST", "/v1/challenges", req, token),
  challenges: (token: string) => call<S["ChallengeList"]>("GET", "/v1/challenges?limit=50", undefined, token),
  acceptChallenge: (id: string, token: string) =>
    call<S["Accepted"]>("POST", `/v1/challenges/${encodeURIComponent(id)}/accept`, undefined, token),
  declineChallenge: (id: string, why: S["Reason"], token: string) =>
    call<S["ChallengeView"]>("POST", `/v1/challenges/${encodeURIComponent(id)}/decline`, { reason: why }, token),
  cancelChallenge: (id: string, token: string) =>
    call<S["ChallengeView"]>("POST", `/v1/challenges/${encodeURIComponent(id)}/cancel`, undefined, token),
  gameMoves: (g: Game) =>
    stateless("legalMoves", "POST", "/v1/legal-moves", { rules: g.rules, position: positionOf(g), limit: 200 }),
  conditional: (id: string, token: string) =>
    call<S["ConditionalMoves"]>("GET", `/v1/games/${id}/conditional-moves`, undefined, token),
  keepConditional: (id: string, lines: string[][], token: string) =>
    call<S["ConditionalMoves"]>("PUT", `/v1/games/${id}/conditional-moves`, { lines } satisfies S["ConditionalMovesInput"], token),
  vacation: (name: string, token: string) =>
    call<S["VacationView"]>("GET", `/v1/accounts/${encodeURIComponent(name)}/vacation`, undefined, token),
  startVacation: (name: string, days: number, token: string) =>
    call<S["VacationView"]>("POST", `/v1/accounts/${encodeURIComponent(name)}/vacation`, { days }, token),
  endVacation: (name: string, token: string) =>
    call<S["VacationView"]>("DELETE", `/v1/accounts/${encodeURIComponent(name)}/vacation`, undefined, token),
  webhooks: (name: string, token: string) =>
    call<S["WebhookList"]>("GET", `/v1/accounts/${encodeURIComponent(name)}/webhooks`, undefined, token),
  createWebhook: (name: string, req: S["WebhookRequest"], token: string) =>
    call<S["WebhookSecret"]>("POST", `/v1/accounts/${encodeURIComponent(name)}/webhooks`, req, token),
  deleteWebhook: (name: string, id: string, token: string) =>
    call<null>("DELETE", `/v1/accounts/${encodeURIComponent(name)}/webhooks/${encodeURIComponent(id)}`, undefined, token),
  testWebhook: (name: string, id: string, token: string) =>
    call<S["TestDelivery"]>("POST", `/v1/accounts/${encodeURIComponent(name)}/webhooks/${encodeURIComponent(id)}/test`, undefined, token),
  rotateWebhook: (name: string, id: string, token: string) =>
    call<S["WebhookSecret"]>("POST", `/v1/accounts/${encodeURIComponent(name)}/webhooks/${encodeURIComponent(id)}/rotate`, undefined, token),
  tournaments: () => call<S["TournamentList"]>("GET", "/v1/tournaments?limit=50"),
  tournament: (id: string) => call<S["TournamentView"]>("GET", `/v1/tournaments/${encodeURIComponent(id)}`),
  tournamentGames: (id: string, round: number, cursor?: string) =>
    call<S["TournamentGameList"]>("GET", `/v1/tournaments/${encodeURIComponent(id)}/games?limit=100&round=${round}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`),
  createTournament: (req: S["TournamentRequest"], token: string) =>
    call<S["TournamentView"]>("POST", "/v1/tournaments", req, token),
  tournamentAction: (id: string, action: "join" | "leave" | "start", token: string) =>
    call<S["TournamentView"]>("POST", `/v1/tournaments/${encodeURIComponent(id)}/${action}`, undefined, token),
  deliveries: (name: string, id: string, token: string) =>
    call<S["DeliveryList"]>("GET", `/v1/accounts/${encodeURIComponent(name)}/webhooks/${encodeURIComponent(id)}/deliveries?limit=10`, undefined, token),
};
