// The page `leapfrog serve` serves at /: the router between the home page
// (create a game, the lobby) and a game's page. Each module in src/ is
// compiled by `tsc --strict` to dist/ and served by the binary as it is.
import { leave, say } from "./dom.js";
import { showHome } from "./home.js";
import { showGame } from "./game.js";
function route() {
    leave();
    say("");
    const [path, query] = location.hash.replace(/^#/, "").split("?");
    const params = new URLSearchParams(query ?? "");
    const game = /^\/game\/([0-9a-f-]{36})$/.exec(path ?? "");
    if (game?.[1])
        void showGame(game[1], params.get("invite"));
    else
        showHome();
}
window.addEventListener("hashchange", route);
route();
