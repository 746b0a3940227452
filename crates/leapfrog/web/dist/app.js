// The page `leapfrog serve` serves at /: the router between the home page
// (create a game, the lobby), a game's page, the account page, the
// replay of a game record, the peg-solitaire puzzles, the analysis board
// and the tournaments.
// The rules engine loads first (local.ts): the stateless operations run here. Each module in src/ is
// compiled by `tsc --strict` to dist/ and served by the binary as it is.
import { leave, reason, say } from "./dom.js";
import { showHome } from "./home.js";
import { showGame } from "./game.js";
import { showAccount, showAccountLink } from "./account.js";
import { showProfile } from "./challenges.js";
import { showReplay } from "./replay.js";
import { showPuzzle } from "./puzzle.js";
import { showAnalysis } from "./analysis.js";
import { showTournament, showTournaments } from "./tournaments.js";
import { loadPresets, puzzles } from "./pieces.js";
import { loadEngine } from "./local.js";
function route() {
    leave();
    say("");
    const [path, query] = location.hash.replace(/^#/, "").split("?");
    const params = new URLSearchParams(query ?? "");
    const game = /^\/game\/([0-9a-f-]{36})$/.exec(path ?? "");
    showAccountLink();
    if (game?.[1])
        void showGame(game[1], params.get("invite"));
    else if (path === "/account")
        showAccount();
    else if (/^\/profile\/[A-Za-z][A-Za-z0-9_-]{1,23}$/.test(path ?? ""))
        void showProfile(path?.slice("/profile/".length) ?? "");
    else if (path === "/replay")
        showReplay();
    else if (path === "/analysis")
        showAnalysis();
    else if (path === "/tournaments")
        showTournaments();
    else if (/^\/tournaments\/[0-9a-f-]{36}$/.test(path ?? ""))
        showTournament(path?.slice("/tournaments/".length) ?? "");
    else if (puzzles().some((p) => path === `/puzzle/${p}`))
        void showPuzzle(path?.slice("/puzzle/".length));
    else
        showHome();
}
// The engine, then the presets (from it, once loaded): every page names
// games by them.
loadEngine().then(loadPresets).then(() => {
    window.addEventListener("hashchange", route);
    route();
}, (err) => say(`The page did not load: ${reason(err)}`, true));
