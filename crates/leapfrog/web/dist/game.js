// A game's page: its state, loaded once and then kept by its live updates
// (live.ts), drawn by game_view.ts with the actions of game_actions.ts.
import { api } from "./client.js";
import { h, main, onLeave, reason, say } from "./dom.js";
import { recount } from "./game_state.js";
import { follow } from "./live.js";
import { renderGame } from "./game_view.js";
import { timeLeft } from "./long.js";
export async function showGame(id, invite) {
    const root = main();
    root.replaceChildren(h("p", {}, "Loading the game…"));
    let view;
    try {
        const [game, history] = await Promise.all([api.game(id), api.history(id)]);
        view = { game, history: history.moves, captured: [], chosen: null, hint: [], replay: null, replayPosition: null, busy: false,
            joinName: localStorage.getItem("leapfrog:name") ?? "", toldOver: false };
        recount(view);
    }
    catch (err) {
        root.replaceChildren(h("p", { class: "error" }, `This game did not load: ${reason(err)}`), h("a", { href: "#/" }, "Back"));
        return;
    }
    const render = () => renderGame(view, invite, render);
    const stop = follow(id, view, render);
    const clock = window.setInterval(() => {
        const el = document.getElementById("clock");
        if (el && view.game.turn_ends_at) {
            el.textContent = `${timeLeft(Date.parse(view.game.turn_ends_at) - Date.now())} left for this move`;
        }
    }, 1000);
    // Escape drops a move being chosen.
    const cancel = (e) => {
        if (e.key === "Escape" && view.chosen) {
            view.chosen = null;
            say("Move cancelled.");
            render();
        }
    };
    document.addEventListener("keydown", cancel);
    onLeave(() => {
        stop();
        window.clearInterval(clock);
        document.removeEventListener("keydown", cancel);
    });
    render();
}
