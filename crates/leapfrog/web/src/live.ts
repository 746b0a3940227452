// A game's live updates: its event stream, drawn from what each event
// carries. A move event carries the game just after it; the game is read
// only when the events cannot tell it (a history with a gap, or a move of
// a game stored before the event log, whose events do not carry the game).
// EventSource reconnects by itself after a lost connection and sends
// Last-Event-ID, so it gets exactly the events it missed; a refused one (a
// full server answers 503) it gives up, so a new one is opened a little
// later, which starts with the game as it stands.

import type { Game, PositionView, S } from "./types.js";
import { api } from "./client.js";
import { reason, say } from "./dom.js";
import { type View, myTurn, newer, recount } from "./game_state.js";

/** What the stream's events do to `view`: a newer game, a move, the end. */
function handlers(id: string, view: View, render: () => void) {
  const redraw = (): void => {
    if (view.chosen && !myTurn(view)) view.chosen = null;
    render();
  };
  const readGame = reader(id, view, redraw);
  /** Takes a game from an event, if newer; redraws. */
  const taken = (game: Game): void => {
    newer(view, game);
    if (view.history.length < game.position.ply) void readGame();
    else redraw();
  };
  const onMove = (e: MessageEvent<string>): void => {
    const { game: after, ...m } = JSON.parse(e.data) as S["MoveEvent"];
    if (m.ply === view.history.length) {
      view.history.push(m);
      recount(view);
    }
    if (!after || view.history.length < after.position.ply) {
      void readGame();
      return;
    }
    if (after.version >= view.game.version) view.game = { ...view.game, ...after, position: positionOf(after.position) };
    redraw();
  };
  const onOver = (e: MessageEvent<string>): void => {
    const { status, result, position } = JSON.parse(e.data) as S["GameOverEvent"];
    view.game = { ...view.game, status, result, position };
    view.chosen = null;
    render();
  };
  return { taken, onMove, onOver };
}

/** Follows game `id` into `view`, calling `render` after each change;
 * answers the function that stops following. */
export function follow(id: string, view: View, render: () => void): () => void {
  const { taken, onMove, onOver } = handlers(id, view, render);
  let events: EventSource;
  let again = 0;
  let done = false;
  // Only the stream's own message is cleared when it is back: a refusal
  // shown meanwhile stays.
  let lost = false;
  const connect = (): void => {
    events = new EventSource(`/v1/games/${id}/events`);
    events.addEventListener("game", ((e: MessageEvent<string>) => {
      const game = JSON.parse(e.data) as Game;
      // A game with its rematch has nothing more to tell: the server
      // ends the stream, and the page does not reconnect.
      if (game.rematch) {
        done = true;
        events.close();
      }
      taken(game);
    }) as EventListener);
    events.addEventListener("move", onMove as EventListener);
    events.addEventListener("over", onOver as EventListener);
    for (const type of ["joined", "left", "started", "resigned", "timed_out", "deadline_moved", "abandoned"]) {
      events.addEventListener(type, ((e: MessageEvent<string>) =>
        taken((JSON.parse(e.data) as S["GameChange"]).game)) as EventListener);
    }
    events.addEventListener("rematch", ((e: MessageEvent<string>) => {
      view.game.rematch = (JSON.parse(e.data) as S["RematchEvent"]).id;
      // Nothing follows a rematch: no reconnecting.
      done = true;
      events.close();
      render();
    }) as EventListener);
    events.addEventListener("error", () => {
      if (done) return;
      lost = true;
      if (events.readyState === EventSource.CLOSED) {
        say("Live updates were refused; trying again…");
        again = window.setTimeout(connect, 5000);
      } else say("Connection lost; reconnecting…");
    });
    events.addEventListener("open", () => {
      if (lost) say("Connected again.");
      lost = false;
    });
  };
  connect();
  return () => {
    done = true;
    window.clearTimeout(again);
    events.close();
  };
}

/** Reads the game (and its history, when it has a gap) one read at a
 * time, never replacing a newer game; then `redraw`. */
function reader(id: string, view: View, redraw: () => void): () => Promise<void> {
  let reading = false;
  let readAgain = false;
  return async (): Promise<void> => {
    if (reading) {
      readAgain = true;
      return;
    }
    reading = true;
    try {
      do {
        readAgain = false;
        const game = await api.game(id);
        newer(view, game);
        if (view.history.length < game.position.ply) view.history = (await api.history(id)).moves;
      } while (readAgain);
      recount(view);
    } catch (err) {
      // The next event, or the snapshot after a reconnect, tries again.
      say(`The game did not refresh: ${reason(err)}`, true);
    } finally {
      reading = false;
    }
    redraw();
  };
}

/** The whole view of a position given in brief: its grid read off its
 * board string (ranks from the top; a digit run counts empty cells). */
export function positionOf(p: S["PositionState"]): PositionView {
  const grid = p.board.split("/").map((rank) => {
    const cells: (string | null)[] = [];
    for (const run of rank.match(/\d+|\D/g) ?? []) {
      if (/^\d+$/.test(run)) cells.push(...Array<null>(Number(run)).fill(null));
      else cells.push(run);
    }
    return cells;
  });
  const notation = `${p.board} ${p.ply} ${p.scores.join(",")}`;
  return { ...p, players: p.scores.length, notation, grid };
}
