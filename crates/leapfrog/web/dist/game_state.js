// A game page's state: the game as the page knows it, its history, what is
// being chosen; and what the page works out from them.
import { account, seats } from "./storage.js";
/** Each player's captured kinds, from the history. */
export function recount(view) {
    view.captured = view.game.players.map(() => []);
    for (const m of view.history)
        view.captured[m.player]?.push(...m.kinds);
}
/** The seats this browser plays: those it keeps a token of, and those
 * of the account signed in (a challenge's game), played with its token. */
export function held(view) {
    const kept = seats.get(view.game.id);
    const me = account.get();
    if (!me)
        return kept;
    const mine = view.game.players
        .filter((p) => p.account && p.name.toLowerCase() === me.name.toLowerCase() && !kept.some((s) => s.player === p.player))
        .map((p) => ({ player: p.player, token: me.token }));
    return [...kept, ...mine];
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
