// A game page's state: the game as the page knows it, its history, what is
// being chosen; and what the page works out from them.

import type { Game, MoveRecord, PositionView } from "./types.js";
import { account, seats } from "./storage.js";
import type { HeldSeat } from "./storage.js";
import type { Chosen } from "./board.js";

export interface View {
  game: Game;
  history: MoveRecord[];
  /** Captured kinds' letters per player, from the history. */
  captured: string[][];
  /** A move being chosen jump by jump. */
  chosen: Chosen | null;
  hint: string[];
  /** The ply shown, when replaying the past; null: now. */
  replay: number | null;
  replayPosition: PositionView | null;
  busy: boolean;
  /** The name typed to join with: kept, because every event redraws the page. */
  joinName: string;
  /** Whether the end was told on the message line. */
  toldOver: boolean;
}

/** Each player's captured kinds, from the history. */
export function recount(view: View): void {
  view.captured = view.game.players.map(() => []);
  for (const m of view.history) view.captured[m.player]?.push(...m.kinds);
}

/** The seats this browser plays: those it keeps a token of, and those
 * of the account signed in (a challenge's game), played with its token. */
export function held(view: View): HeldSeat[] {
  const kept = seats.get(view.game.id);
  const me = account.get();
  if (!me) return kept;
  const mine = view.game.players
    .filter((p) => p.account && p.name.toLowerCase() === me.name.toLowerCase() && !kept.some((s) => s.player === p.player))
    .map((p) => ({ player: p.player, token: me.token }));
  return [...kept, ...mine];
}

/** My seat that is to move, if any. */
export function myTurn(view: View): HeldSeat | undefined {
  const g = view.game;
  if (g.status !== "opening" && g.status !== "playing") return undefined;
  return held(view).find((s) => s.player === g.position.to_move);
}

/** Takes `game` (an answer, or an event's) unless the page already has a
 * newer one: the stream may tell the next move before the answer to this
 * one arrives. */
export function newer(view: View, game: Game): void {
  if (game.version >= view.game.version) view.game = game;
}
