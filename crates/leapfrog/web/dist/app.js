// The page `leapfrog serve` serves at /: create a game, the lobby, and a
// game played on an SVG board, all through the public API. Every type of
// the API comes from `api.d.ts`, generated from openapi/openapi.json by
// openapi-typescript: a spec that does not describe the server fails the
// strict compile.
// ---------------------------------------------------------------- the API
/** A refusal of the server: its problem document. */
class ApiError extends Error {
    status;
    problem;
    constructor(status, problem) {
        super(problem.detail ?? problem.title ?? `HTTP ${status}`);
        this.status = status;
        this.problem = problem;
    }
}
async function call(method, path, body, token) {
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
const api = {
    create: (req) => call("POST", "/v1/games", req),
    game: (id) => call("GET", `/v1/games/${id}`),
    lobby: () => call("GET", "/v1/games?status=waiting&limit=50"),
    history: (id) => call("GET", `/v1/games/${id}/moves`),
    positionAt: (id, ply) => call("GET", `/v1/games/${id}/positions/${ply}`),
    jumps: (id, cell) => call("GET", `/v1/games/${id}/legal-moves?from=${cell}&limit=1`),
    play: (id, token, version, path) => callWithVersion(`/v1/games/${id}/moves`, token, version, { path }),
    join: (id, req) => call("POST", `/v1/games/${id}/join`, req),
    leave: (id, token) => call("POST", `/v1/games/${id}/leave`, undefined, token),
    resign: (id, token) => call("POST", `/v1/games/${id}/resign`, undefined, token),
    rematch: (id, token) => call("POST", `/v1/games/${id}/rematch`, undefined, token),
    analyse: (req) => call("POST", "/v1/analysis", req),
};
async function callWithVersion(path, token, version, body) {
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
/** The seats this browser holds in a game, kept across reloads. */
const seats = {
    key: (id) => `leapfrog:seats:${id}`,
    get(id) {
        try {
            const raw = localStorage.getItem(seats.key(id));
            return raw ? JSON.parse(raw) : [];
        }
        catch {
            return [];
        }
    },
    add(id, seat) {
        const all = seats.get(id).filter((s) => s.player !== seat.player);
        all.push(seat);
        localStorage.setItem(seats.key(id), JSON.stringify(all));
    },
    drop(id, player) {
        localStorage.setItem(seats.key(id), JSON.stringify(seats.get(id).filter((s) => s.player !== player)));
    },
    invitations(id) {
        const raw = localStorage.getItem(`leapfrog:invitations:${id}`);
        return raw ? JSON.parse(raw) : [];
    },
    keepInvitations(id, list) {
        localStorage.setItem(`leapfrog:invitations:${id}`, JSON.stringify(list));
    },
};
function h(tag, attrs = {}, ...children) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
        if (typeof v === "function")
            el.addEventListener(k.replace(/^on/, ""), v);
        else if (typeof v === "boolean") {
            if (v)
                el.setAttribute(k, "");
        }
        else
            el.setAttribute(k, String(v));
    }
    for (const c of children)
        if (c !== null && c !== undefined && c !== false)
            el.append(c);
    return el;
}
const SVG = "http://www.w3.org/2000/svg";
function s(tag, attrs = {}) {
    const el = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs))
        el.setAttribute(k, String(v));
    return el;
}
function say(text, error = false) {
    const el = document.getElementById("status");
    if (!el)
        return;
    el.textContent = text;
    el.classList.toggle("error", error);
}
function main() {
    const el = document.getElementById("main");
    if (!el)
        throw new Error("no <main>");
    return el;
}
function reason(e) {
    return e instanceof Error ? e.message : String(e);
}
// ------------------------------------------------------------------ colours
const COLOURS = {
    white: "#fbfbf6", yellow: "#f2cf2f", red: "#cf3324", green: "#3c9a45", blue: "#2c62c9",
    black: "#1f1f1f", piece: "#8a5a2b",
};
const SPARE = ["#8a5a2b", "#7b4fa8", "#2aa6a6", "#d9822b", "#6c757d"];
function colourOf(rules, letter) {
    const i = rules.kinds.findIndex((k) => k.letter === letter);
    const kind = rules.kinds[i];
    return (kind && COLOURS[kind.name.toLowerCase()]) ?? SPARE[Math.max(i, 0) % SPARE.length] ?? "#888";
}
/** What each kind of piece is worth, with its colour; none for a single kind. */
function legend(rules) {
    if (rules.kinds.length < 2)
        return null;
    return h("p", { class: "legend", id: "legend", "aria-label": "what each piece is worth" }, ...rules.kinds.map((k) => {
        const swatch = h("span", { class: "swatch" });
        // Through the style object: the page's policy refuses style attributes.
        swatch.style.backgroundColor = colourOf(rules, k.letter);
        return h("span", { class: "key" }, swatch, `${k.name} ${k.value}${k.value === 1 ? " point" : " points"}`);
    }));
}
/** The games' names, by preset id. */
const GAME_NAMES = {
    murray: "Leap Frog (Murray, coloured)",
    old: "Leap Frog (old)",
    froglet: "Froglet",
    konane: "Konane",
};
/** A game's name as people say it: its preset's, or its own rule set's. */
function gameName(rules) {
    const name = rules.preset ? GAME_NAMES[rules.preset] : rules.name;
    return `${name}, ${rules.rows}×${rules.cols}`;
}
function kindName(rules, letter) {
    return rules.kinds.find((k) => k.letter === letter)?.name ?? letter;
}
// -------------------------------------------------------------- the router
let leaveView = null;
function route() {
    leaveView?.();
    leaveView = null;
    say("");
    const [path, query] = location.hash.replace(/^#/, "").split("?");
    const params = new URLSearchParams(query ?? "");
    const game = /^\/game\/([0-9a-f-]{36})$/.exec(path ?? "");
    if (game?.[1])
        void showGame(game[1], params.get("invite"));
    else
        showHome();
}
// ------------------------------------------------------- home: create, lobby
const LEVELS = ["random", "greedy", "lookahead", "easy", "medium", "hard"];
function showHome() {
    const root = main();
    root.replaceChildren();
    const seatList = h("div", { id: "seats" });
    const addSeat = (kind, name = "") => {
        const n = seatList.children.length;
        const kindSel = h("select", { "aria-label": `seat ${n + 1}: who`, name: "kind" }, ...[["me", "me"], ["open", "open (lobby)"], ["private", "invitation"], ["computer", "computer"]].map(([v, t]) => h("option", { value: v ?? "", selected: v === kind }, t ?? "")));
        const nameIn = h("input", { "aria-label": `seat ${n + 1}: name`, name: "name", value: name, placeholder: "name", maxlength: 64 });
        const level = h("select", { "aria-label": `seat ${n + 1}: level`, name: "level" }, ...LEVELS.map((l) => h("option", { value: l, selected: l === "medium" }, l)));
        const sync = () => {
            nameIn.hidden = kindSel.value !== "me";
            level.hidden = kindSel.value !== "computer";
        };
        kindSel.addEventListener("change", sync);
        const remove = h("button", { type: "button", class: "secondary", "aria-label": `remove seat ${n + 1}`,
            onclick: () => row.remove() }, "✕");
        const row = h("div", { class: "seat-row" }, h("span", {}, `Seat ${n + 1}`), kindSel, nameIn, level, remove);
        seatList.append(row);
        sync();
    };
    addSeat("me", localStorage.getItem("leapfrog:name") ?? "");
    addSeat("computer");
    const preset = h("select", { id: "preset", name: "preset" }, ...Object.entries(GAME_NAMES).map(([id, name]) => h("option", { value: id }, name)));
    const size = h("input", { id: "size", type: "number", min: 3, max: 26, placeholder: "preset's", name: "size" });
    const dirs = h("select", { id: "directions", name: "directions" }, h("option", { value: "" }, "preset's"), h("option", { value: "orthogonal" }, "orthogonal"), h("option", { value: "diagonal" }, "diagonal"), h("option", { value: "all" }, "all"));
    const limit = h("input", { id: "limit", type: "number", min: 5, max: 604800, placeholder: "none", name: "limit" });
    const create = async (e) => {
        e.preventDefault();
        const players = [];
        for (const row of Array.from(seatList.children)) {
            const kind = row.querySelector("[name=kind]").value;
            const name = row.querySelector("[name=name]").value.trim();
            const level = row.querySelector("[name=level]").value;
            if (kind === "me")
                players.push({ name });
            else if (kind === "open")
                players.push({ open: "public" });
            else if (kind === "private")
                players.push({ open: "private" });
            else
                players.push({ computer: level });
        }
        const rules = { preset: preset.value };
        if (size.value) {
            rules.rows = Number(size.value);
            rules.cols = Number(size.value);
        }
        if (dirs.value)
            rules.directions = dirs.value;
        const req = { rules, players };
        if (limit.value)
            req.move_time_limit = Number(limit.value);
        try {
            const game = await api.create(req);
            for (const seat of game.seats ?? [])
                seats.add(game.id, { player: seat.player, token: seat.token });
            seats.keepInvitations(game.id, game.invitations ?? []);
            const mine = players.find((p) => p.name);
            if (mine?.name)
                localStorage.setItem("leapfrog:name", mine.name);
            location.hash = `#/game/${game.id}`;
        }
        catch (err) {
            say(`Not created: ${reason(err)}`, true);
        }
    };
    const form = h("form", { onsubmit: (e) => void create(e) }, h("div", {}, h("label", {}, "Game", preset), h("label", {}, "Board size", size), h("label", {}, "Jumps", dirs), h("label", {}, "Seconds a move", limit)), h("h2", {}, "Players, in turn order"), seatList, h("div", { class: "actions" }, h("button", { type: "button", class: "secondary", onclick: () => addSeat("open") }, "Add a seat"), h("button", { type: "submit", id: "create" }, "Create the game")));
    const lobbyBody = h("tbody", {});
    const lobby = h("table", { class: "lobby" }, h("thead", {}, h("tr", {}, h("th", {}, "Game"), h("th", {}, "Players"), h("th", {}, ""))), lobbyBody);
    const refresh = async () => {
        try {
            const page = await api.lobby();
            lobbyBody.replaceChildren(...page.games.map((g) => h("tr", {}, h("td", {}, `${g.rules.name} ${g.rules.rows}×${g.rules.cols}`), h("td", {}, g.players.map((p) => (p.open ? "(open)" : p.name)).join(", ")), h("td", {}, h("a", { href: `#/game/${g.id}` }, "Join")))));
            if (page.games.length === 0)
                lobbyBody.append(h("tr", {}, h("td", { colspan: 3 }, "No game is waiting for players.")));
        }
        catch (err) {
            say(`The lobby did not load: ${reason(err)}`, true);
        }
    };
    void refresh();
    const timer = window.setInterval(() => void refresh(), 5000);
    leaveView = () => window.clearInterval(timer);
    root.append(h("div", { class: "columns" }, h("section", { class: "panel", "aria-labelledby": "new-game" }, h("h1", { id: "new-game" }, "New game"), form), h("section", { class: "panel", "aria-labelledby": "lobby" }, h("h1", { id: "lobby" }, "Lobby"), lobby)));
}
function cellName(file, rank) {
    return `${String.fromCharCode(97 + file)}${rank}`;
}
function cellAt(grid, cell) {
    const col = cell.charCodeAt(0) - 97;
    const rank = Number(cell.slice(1));
    const row = grid.length - rank;
    return row >= 0 && row < grid.length && col >= 0 ? { row, col } : null;
}
/** Plays a move record on a grid copy and returns the letters it took. */
function replayOn(grid, m) {
    const taken = [];
    for (const c of m.captures) {
        const at = cellAt(grid, c);
        const line = at && grid[at.row];
        if (at && line) {
            const letter = line[at.col];
            if (letter)
                taken.push(letter);
            line[at.col] = null;
        }
    }
    if (m.path.length > 1) {
        const from = cellAt(grid, m.path[0] ?? "");
        const to = cellAt(grid, m.path[m.path.length - 1] ?? "");
        const fromLine = from && grid[from.row];
        const toLine = to && grid[to.row];
        if (from && to && fromLine && toLine) {
            toLine[to.col] = fromLine[from.col] ?? null;
            fromLine[from.col] = null;
        }
    }
    return taken;
}
async function showGame(id, invite) {
    const root = main();
    root.replaceChildren(h("p", {}, "Loading the game…"));
    let view;
    let deal;
    try {
        const [game, history, dealt] = await Promise.all([api.game(id), api.history(id), api.positionAt(id, 0)]);
        view = { game, history: history.moves, captured: [], chosen: null, hint: [], replay: null, replayPosition: null, busy: false,
            joinName: localStorage.getItem("leapfrog:name") ?? "", toldOver: false };
        deal = dealt;
        recount(view, deal);
    }
    catch (err) {
        root.replaceChildren(h("p", { class: "error" }, `This game did not load: ${reason(err)}`), h("a", { href: "#/" }, "Back"));
        return;
    }
    const render = () => renderGame(view, invite, render, () => recount(view, deal));
    // Live: the stream says every change. EventSource reconnects by itself
    // after a lost connection and sends Last-Event-ID, so nothing is missed;
    // a refused one (a full server answers 503) it gives up, so the page
    // opens a new one a little later, which starts with the game as it
    // stands.
    const refresh = async () => {
        try {
            const [game, history] = await Promise.all([api.game(id), api.history(id)]);
            view.game = game;
            view.history = history.moves;
            recount(view, deal);
        }
        catch (err) {
            // The next event, or the snapshot after a reconnect, tries again.
            say(`The game did not refresh: ${reason(err)}`, true);
        }
        if (view.chosen && !myTurn(view))
            view.chosen = null;
        render();
    };
    const onChange = (e) => {
        const data = JSON.parse(e.data);
        if (e.type === "game")
            view.game = JSON.parse(e.data);
        else if (data.game)
            view.game = data.game;
        void refresh();
    };
    let events;
    let again = 0;
    let done = false;
    // Only the stream's own message is cleared when it is back: a refusal
    // shown meanwhile stays.
    let lost = false;
    const connect = () => {
        events = new EventSource(`/v1/games/${id}/events`);
        for (const type of ["game", "move", "joined", "left", "started", "resigned", "timed_out", "over"]) {
            events.addEventListener(type, onChange);
        }
        events.addEventListener("rematch", ((e) => {
            const { id: next } = JSON.parse(e.data);
            view.game.rematch = next;
            // Nothing follows a rematch: no reconnecting.
            done = true;
            events.close();
            render();
        }));
        events.addEventListener("error", () => {
            if (done)
                return;
            lost = true;
            if (events.readyState === EventSource.CLOSED) {
                say("Live updates were refused; trying again…");
                again = window.setTimeout(connect, 5000);
            }
            else
                say("Connection lost; reconnecting…");
        });
        events.addEventListener("open", () => {
            if (lost)
                say("Connected again.");
            lost = false;
        });
    };
    connect();
    const clock = window.setInterval(() => {
        const el = document.getElementById("clock");
        if (el && view.game.turn_ends_at) {
            const left = Math.max(0, Math.round((Date.parse(view.game.turn_ends_at) - Date.now()) / 1000));
            el.textContent = `${left} s left for this move`;
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
    leaveView = () => {
        done = true;
        window.clearTimeout(again);
        events.close();
        window.clearInterval(clock);
        document.removeEventListener("keydown", cancel);
    };
    render();
}
function recount(view, deal) {
    const grid = deal.grid.map((r) => r.slice());
    view.captured = view.game.players.map(() => []);
    for (const m of view.history)
        view.captured[m.player]?.push(...replayOn(grid, m));
}
function held(view) {
    return seats.get(view.game.id);
}
/** My seat that is to move, if any. */
function myTurn(view) {
    const g = view.game;
    if (g.status !== "opening" && g.status !== "playing")
        return undefined;
    return held(view).find((s) => s.player === g.position.to_move);
}
function renderGame(view, invite, render, recount) {
    const g = view.game;
    const mine = held(view);
    const root = main();
    const turn = myTurn(view);
    const names = g.players.map((p) => p.name);
    // What is happening, in words.
    let headline;
    if (g.status === "waiting")
        headline = "Waiting for players to take the open seats.";
    else if (g.status === "over")
        headline = "The game is over.";
    else if (turn)
        headline = g.status === "opening" ? "Your turn: remove a piece (click it)." : "Your turn: click a piece, then where it jumps.";
    else
        headline = `${names[g.position.to_move] ?? "?"} to move.`;
    // The tab says when it is this browser's turn, also while it is in the background.
    document.title = `${turn ? "Your turn · " : ""}${gameName(g.rules)} · Leap Frog`;
    const play = async (path) => {
        if (!turn || view.busy)
            return;
        view.busy = true;
        try {
            view.game = await api.play(g.id, turn.token, g.version, path);
            view.chosen = null;
            view.hint = [];
            say(`Played ${path.join("x")}.`);
        }
        catch (err) {
            say(`Not played: ${reason(err)}`, true);
            view.chosen = null;
        }
        finally {
            view.busy = false;
        }
        const history = await api.history(g.id);
        view.history = history.moves;
        recount();
        render();
    };
    const clickCell = async (cell, letter) => {
        if (view.replay !== null)
            return;
        if (!turn) {
            say(g.status === "over" ? "The game is over." : "It is not your turn.", true);
            return;
        }
        if (g.status === "opening") {
            await play([cell]);
            return;
        }
        const chosen = view.chosen;
        if (chosen) {
            if (cell === chosen.path[0] && chosen.path.length === 1) {
                view.chosen = null;
                render();
                return;
            }
            const next = chosen.node.next.find((n) => n.cell === cell);
            if (next) {
                const path = [...chosen.path, cell];
                if (next.next.length === 0) {
                    await play(path);
                }
                else {
                    view.chosen = { path, node: next };
                    say(`${path.join("x")}: jump on, or play it as it is.`);
                    render();
                }
                return;
            }
            if (chosen.path.length > 1) {
                say(`${cell} is not a landing cell of ${chosen.path.join("x")}.`, true);
                return;
            }
        }
        if (!letter) {
            say(`${cell} is empty: click a piece to jump with.`, true);
            return;
        }
        try {
            const jumps = await api.jumps(g.id, cell);
            if (!jumps.tree || jumps.tree.next.length === 0) {
                say(`The piece on ${cell} has no jump.`, true);
                view.chosen = null;
            }
            else {
                view.chosen = { path: [cell], node: jumps.tree };
                say(`From ${cell}: choose where to land.`);
            }
        }
        catch (err) {
            say(reason(err), true);
        }
        render();
    };
    // The board.
    const position = view.replay !== null && view.replayPosition ? view.replayPosition : g.position;
    const last = view.replay === null ? view.history[view.history.length - 1] : undefined;
    const board = drawBoard(g.rules, position, view, last, clickCell);
    // Players.
    const playerList = h("ul", { class: "players", "aria-label": "players" }, ...g.players.map((p) => {
        const score = g.position.scores[p.player] ?? 0;
        const taken = view.captured[p.player] ?? [];
        const counts = new Map();
        for (const l of taken)
            counts.set(l, (counts.get(l) ?? 0) + 1);
        return h("li", { class: p.player === g.position.to_move && g.status !== "over" && g.status !== "waiting" ? "to-move" : "" }, h("span", {}, `${p.player + 1}. ${p.open ? "Open seat" : p.name}`), p.computer ? h("span", { class: "badge" }, `computer, ${p.computer}`) : null, p.open ? h("span", { class: "badge" }, p.open) : null, p.resigned ? h("span", { class: "badge" }, p.resigned === "timed_out" ? "out of time" : "resigned") : null, mine.some((s) => s.player === p.player) ? h("span", { class: "badge" }, "you") : null, h("span", { class: "score", "aria-label": `score ${score}` }, `${score} pts`), h("span", { class: "captured" }, taken.length === 0 ? "no captures" :
            `captured ${taken.length}: ` + [...counts].map(([l, n]) => `${n} ${kindName(g.rules, l)}`).join(", ")));
    }));
    // Actions.
    const actions = h("div", { class: "actions" });
    const firstHeld = mine[0];
    if (g.status === "waiting") {
        const open = g.players.filter((p) => p.open);
        const canJoin = open.some((p) => p.open === "public") || invite !== null;
        if (invite !== null) {
            // The invitation opens one of the private seats: say which.
            const seatsOpen = open.filter((p) => p.open === "private").map((p) => String(p.player + 1));
            actions.append(h("p", { id: "invited" }, seatsOpen.length === 1
                ? `You are invited to seat ${seatsOpen[0]}: give your name and join.`
                : `You are invited to one of seats ${seatsOpen.join(", ")}: give your name and join.`));
        }
        if (canJoin) {
            const nameIn = h("input", { "aria-label": "your name", id: "join-name", value: view.joinName, placeholder: "your name", maxlength: 64,
                oninput: () => { view.joinName = nameIn.value; } });
            const join = async () => {
                try {
                    const req = { name: view.joinName };
                    if (invite)
                        req.invitation = invite;
                    const joined = await api.join(g.id, req);
                    seats.add(g.id, { player: joined.seat.player, token: joined.seat.token });
                    localStorage.setItem("leapfrog:name", view.joinName.trim());
                    view.game = joined.game;
                    say(`You hold seat ${joined.seat.player + 1}.`);
                    render();
                }
                catch (err) {
                    say(`Not joined: ${reason(err)}`, true);
                }
            };
            actions.append(h("label", {}, "Your name", nameIn), h("button", { id: "join", onclick: () => void join() }, "Join"));
        }
        if (firstHeld) {
            actions.append(h("button", { class: "secondary", id: "leave", onclick: () => void (async () => {
                    try {
                        view.game = await api.leave(g.id, firstHeld.token);
                        seats.drop(g.id, firstHeld.player);
                        render();
                    }
                    catch (err) {
                        say(reason(err), true);
                    }
                })() }, "Leave the seat"));
        }
    }
    if (turn && view.chosen && view.chosen.path.length > 1) {
        const path = view.chosen.path;
        actions.append(h("button", { id: "stop", onclick: () => void play(path) }, `Play ${path.join("x")} (stop here)`));
    }
    if (turn) {
        actions.append(h("button", { class: "secondary", id: "hint", onclick: () => void (async () => {
                try {
                    say("Thinking…");
                    const a = await api.analyse({ rules: g.rules, position: { board: g.position.board, ply: g.position.ply, scores: g.position.scores }, millis: 1000 });
                    view.hint = a.candidates[0]?.path ?? [];
                    say(`Hint: ${a.best}${a.exact ? " (solved exactly)" : ""}.`);
                    render();
                }
                catch (err) {
                    say(`No hint: ${reason(err)}`, true);
                }
            })() }, "Hint"));
    }
    if (firstHeld && (g.status === "opening" || g.status === "playing")) {
        actions.append(h("button", { class: "danger", id: "resign", onclick: () => void (async () => {
                if (!window.confirm("Resign this game?"))
                    return;
                try {
                    view.game = await api.resign(g.id, firstHeld.token);
                    render();
                }
                catch (err) {
                    say(reason(err), true);
                }
            })() }, "Resign"));
    }
    if (g.status === "over" && firstHeld) {
        actions.append(h("button", { id: "again", onclick: () => void (async () => {
                // Asking again would replace the token this browser holds already.
                if (g.rematch && seats.get(g.rematch).length > 0) {
                    location.hash = `#/game/${g.rematch}`;
                    return;
                }
                try {
                    const next = await api.rematch(g.id, firstHeld.token);
                    seats.add(next.game.id, { player: next.seat.player, token: next.seat.token });
                    location.hash = `#/game/${next.game.id}`;
                }
                catch (err) {
                    say(reason(err), true);
                }
            })() }, g.rematch ? "Go to the rematch" : "Play again"));
    }
    else if (g.status === "over" && g.rematch) {
        actions.append(h("a", { href: `#/game/${g.rematch}` }, "Watch the rematch"));
    }
    // Invitations this browser made.
    const invitations = seats.invitations(g.id).filter((i) => g.players[i.player]?.open);
    const publicOpen = g.status === "waiting" && g.players.some((p) => p.open === "public");
    const copy = (link, id) => h("button", { type: "button", class: "copy", id, onclick: () => void (async () => {
            try {
                await navigator.clipboard.writeText(link);
                say("Link copied: send it to the person you invite.");
            }
            catch {
                say("The link could not be copied: select it and copy it by hand.", true);
            }
        })() }, "Copy link");
    const publicLink = `${location.origin}/#/game/${g.id}`;
    const share = h("div", {}, publicOpen ? h("p", {}, "Anyone can join from the lobby, or by this link: ", h("span", { class: "invite" }, publicLink), " ", copy(publicLink, "copy-public")) : null, ...invitations.map((i) => {
        const link = `${location.origin}/#/game/${g.id}?invite=${i.invitation}`;
        return h("p", {}, `Invitation for seat ${i.player + 1}: `, h("span", { class: "invite", "data-invite": String(i.player) }, link), " ", copy(link, `copy-invite-${i.player}`));
    }));
    // The result.
    let result = null;
    if (g.result) {
        const r = g.result;
        const winners = r.winners.map((w) => names[w] ?? "?").join(" and ");
        const verdict = r.winners.length === 0 ? "No winner." : `${winners} ${r.shared ? "share the win" : "wins"}${r.ended === "resignation" ? " by resignation" : ""}.`;
        // The end replaces whatever the message line said last ("Played …").
        if (!view.toldOver) {
            say(`The game is over. ${verdict}`);
            view.toldOver = true;
        }
        result = h("div", { class: "result", id: "result", role: "region", "aria-label": "the result" }, h("h2", {}, "Game over"), h("p", { class: "verdict" }, verdict), h("ol", {}, ...r.standings.map((st) => h("li", {}, `${names[st.player] ?? "?"}: ${st.score} pts, rank ${st.rank}${st.resigned ? " (resigned)" : ""}`))));
    }
    // Moves and replay.
    const moves = h("ol", { class: "moves", start: 1, "aria-label": "moves" }, ...view.history.map((m) => h("li", {}, `${names[m.player] ?? "?"}: ${m.notation}${m.gain ? ` (+${m.gain})` : ""}${m.computer ? " ·c" : ""}`)));
    const slider = h("input", { type: "range", class: "replay", id: "replay", min: 0, max: g.position.ply, value: view.replay ?? g.position.ply,
        "aria-label": "replay: the position after this many moves" });
    slider.addEventListener("change", () => void (async () => {
        const n = Number(slider.value);
        if (n >= g.position.ply) {
            view.replay = null;
            view.replayPosition = null;
        }
        else {
            try {
                view.replayPosition = await api.positionAt(g.id, n);
                view.replay = n;
            }
            catch (err) {
                say(`That position did not load: ${reason(err)}`, true);
            }
        }
        render();
    })());
    // A redraw must not move the keyboard focus: find the same cell or control again.
    const active = document.activeElement;
    const cell = active?.getAttribute("data-cell");
    const focusAgain = cell ? `[data-cell="${cell}"]` : active?.id ? `#${CSS.escape(active.id)}` : null;
    const caret = active instanceof HTMLInputElement && active.type === "text" ? { start: active.selectionStart, end: active.selectionEnd } : null;
    root.replaceChildren(h("div", { class: "columns" }, h("section", { class: "panel", "aria-labelledby": "game-title" }, h("h1", { id: "game-title" }, gameName(g.rules)), h("p", { id: "headline" }, headline, " ", h("span", { id: "clock" })), result, view.replay !== null ? h("p", {}, `Showing the position after ${view.replay} moves (the game is at ${g.position.ply}).`) : null, h("div", { class: "board-wrap" }, board), legend(g.rules), actions, share), h("div", {}, h("section", { class: "panel", "aria-labelledby": "players-title" }, h("h2", { id: "players-title" }, "Players"), playerList), h("section", { class: "panel", "aria-labelledby": "moves-title" }, h("h2", { id: "moves-title" }, `Moves (${view.history.length})`), h("label", {}, "Replay", slider), moves))));
    // The latest move in view, in the list's own scroll box.
    moves.scrollTop = moves.scrollHeight;
    const again = focusAgain ? root.querySelector(focusAgain) : null;
    again?.focus();
    if (caret && again instanceof HTMLInputElement)
        again.setSelectionRange(caret.start, caret.end);
}
function drawBoard(rules, position, view, last, click) {
    const rows = position.grid.length;
    const cols = position.grid[0]?.length ?? 0;
    const size = 40;
    // Coordinates in proportion to the board, so that a large board shrunk to
    // a phone's width still shows them at a readable size.
    const coord = Math.max(10, Math.round((cols * size) / 30));
    const margin = coord + 8;
    const svg = s("svg", { class: "board", viewBox: `0 0 ${cols * size + margin * 2} ${rows * size + margin * 2}`, role: "grid", "aria-label": "the board" });
    const targets = new Set((view.chosen?.node.next ?? []).map((n) => n.cell));
    const chosen = new Set(view.chosen?.path ?? []);
    const hint = new Set(view.hint);
    const lastCells = new Set(last ? [...last.path, ...last.captures] : []);
    position.grid.forEach((line, r) => {
        const rank = rows - r;
        const row = s("g", { role: "row" });
        line.forEach((letter, c) => {
            const cell = cellName(c, rank);
            const masked = letter === "-";
            const classes = ["cell", masked ? "masked" : "", targets.has(cell) ? "target" : "", chosen.has(cell) ? "chosen" : "",
                hint.has(cell) ? "hint" : "", lastCells.has(cell) ? "last" : ""].filter(Boolean).join(" ");
            const label = masked ? `${cell}, no cell` : letter ? `${cell}, ${kindName(rules, letter)}` : `${cell}, empty${targets.has(cell) ? ", a landing cell" : ""}`;
            const g = s("g", { class: classes, role: "gridcell", "aria-label": label, "data-cell": cell });
            if (!masked)
                g.setAttribute("tabindex", "0");
            const x = margin + c * size;
            const y = margin + r * size;
            g.append(s("rect", { x, y, width: size, height: size }));
            if (letter && !masked) {
                g.append(s("circle", { class: "piece", cx: x + size / 2, cy: y + size / 2, r: size * 0.36, fill: colourOf(rules, letter) }));
            }
            if (targets.has(cell))
                g.append(s("circle", { class: "dot", cx: x + size / 2, cy: y + size / 2, r: size * 0.12 }));
            if (!masked) {
                const go = () => void click(cell, letter ?? null);
                g.addEventListener("click", go);
                g.addEventListener("keydown", (e) => {
                    if (e.key === "Enter" || e.key === " ") {
                        e.preventDefault();
                        go();
                    }
                });
            }
            row.append(g);
        });
        svg.append(row);
        const t = s("text", { class: "coord", x: margin - 4, y: margin + r * size + size / 2, "font-size": coord,
            "text-anchor": "end", "dominant-baseline": "central" });
        t.textContent = String(rank);
        svg.append(t);
    });
    for (let c = 0; c < cols; c++) {
        const t = s("text", { class: "coord", x: margin + c * size + size / 2, y: margin + rows * size + coord, "font-size": coord,
            "text-anchor": "middle" });
        t.textContent = String.fromCharCode(97 + c);
        svg.append(t);
    }
    // The keyboard's focus ring, drawn last so that no neighbour covers it.
    const ring = s("rect", { class: "focus-ring", width: size, height: size, visibility: "hidden" });
    svg.append(ring);
    svg.addEventListener("focusin", (e) => {
        const cell = e.target instanceof Element ? e.target.closest("[data-cell]") : null;
        const rect = cell?.querySelector("rect");
        if (!rect || !cell?.matches(":focus-visible"))
            return;
        ring.setAttribute("x", rect.getAttribute("x") ?? "0");
        ring.setAttribute("y", rect.getAttribute("y") ?? "0");
        ring.setAttribute("visibility", "visible");
    });
    svg.addEventListener("focusout", () => ring.setAttribute("visibility", "hidden"));
    return svg;
}
window.addEventListener("hashchange", route);
route();
export {};
