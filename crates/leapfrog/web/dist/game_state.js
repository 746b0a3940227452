// A game page's state: the game as the page knows it, its history, what is
// being chosen; and what the page works out from them.
import { seats } from "./storage.js";
/** Each player's captured kinds, from the history. */
export function recount(view) {
    view.captured = view.game.players.map(() => []);
    for (const m of view.history)
        view.captured[m.player]?.push(...m.kinds);
}
export function held(view) {
    return seats.get(view.game.id);
}
/** My seat that is to move, if any. */
export function myTurn(view) {
    const g = view.game;
    if (g.status !== "opening" && g.status !== "playing")
        return undefined;
    return held(view).find((s) => s.player === g.position.to_move);
}
/** Takes `game` (an answer, or an event's) unless the page already has a
 * newer one: the stream may tell the next move before the answer to this
 * one arrives. */
export function newer(view, game) {
    if (game.version >= view.game.version)
        view.game = game;
}
