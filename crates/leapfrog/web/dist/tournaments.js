// Tournaments on the page (rule book §17): the events (open, running,
// over) and a form to create one; an event's page with its players, join /
// leave / start, the standings, a round-robin's cross table, the games of
// the round being played with their links, and the signed-in player's
// game under way.
// Both pages read the event again every 5 s while shown.
import { api } from "./client.js";
import { account } from "./storage.js";
import { h, main, onLeave, reason, say } from "./dom.js";
import { offered, presetName } from "./pieces.js";
import { botBadge } from "./challenges.js";
const FORMATS = {
    swiss: "Swiss",
    round_robin: "Round-robin",
    double_round_robin: "Double round-robin",
    arena: "Arena",
};
/** Reads `load` now and every 5 s until the page is left. */
function keepFresh(load) {
    void load();
    const timer = window.setInterval(() => void load(), 5000);
    onLeave(() => window.clearInterval(timer));
}
/** The events, newest first, and the form that creates one. */
export function showTournaments() {
    const root = main();
    const body = h("tbody", {});
    const me = account.get();
    root.replaceChildren(h("div", { class: "columns" }, h("section", { class: "panel", "aria-labelledby": "tournaments" }, h("h1", { id: "tournaments" }, "Tournaments"), h("table", { class: "lobby", id: "tournament-list" }, h("thead", {}, h("tr", {}, h("th", {}, "Event"), h("th", {}, "Format"), h("th", {}, "Game"), h("th", {}, "Status"))), body)), me ? h("section", { class: "panel", "aria-labelledby": "new-tournament" }, h("h1", { id: "new-tournament" }, "New tournament"), createForm(me.token)) : h("p", {}, "Sign in to create or join one.")));
    keepFresh(async () => {
        try {
            const list = await api.tournaments();
            body.replaceChildren(...(list.tournaments.length ? list.tournaments.map((t) => h("tr", {}, h("td", {}, h("a", { href: `#/tournaments/${t.id}` }, t.name)), h("td", {}, FORMATS[t.format]), h("td", {}, `${t.rules.name} ${t.rules.rows}×${t.rules.cols}`), h("td", {}, t.status))) : [h("tr", {}, h("td", { colspan: 4 }, "No tournament yet."))]));
        }
        catch (err) {
            say(`The tournaments did not load: ${reason(err)}`, true);
        }
    });
}
/** The creation form: name, format (rounds, minutes), game, time a move, bots. */
function createForm(token) {
    const name = h("input", { id: "tournament-name", required: true, maxlength: 64, value: "Friday Swiss" });
    const format = h("select", { id: "tournament-format", "aria-label": "format" }, ...Object.entries(FORMATS).map(([k, v]) => h("option", { value: k }, v)));
    const rounds = h("input", { id: "tournament-rounds", type: "number", min: 1, max: 64, value: 3 });
    const minutes = h("input", { id: "tournament-minutes", type: "number", min: 1, max: 1440, value: 10 });
    const preset = h("select", { id: "tournament-preset", "aria-label": "game" }, ...offered().map((p) => h("option", { value: p }, presetName(p))));
    const size = h("input", { id: "tournament-size", type: "number", min: 6, max: 15, value: 8 });
    const seconds = h("input", { id: "tournament-seconds", type: "number", min: 5, value: 60 });
    const bots = h("input", { id: "tournament-bots", type: "checkbox" });
    const form = h("form", { class: "stack" }, h("label", {}, "Name ", name), h("label", {}, "Format ", format), h("label", {}, "Rounds (Swiss) ", rounds), h("label", {}, "Minutes (arena) ", minutes), h("label", {}, "Game ", preset), h("label", {}, "Board size ", size), h("label", {}, "Seconds a move ", seconds), h("label", {}, bots, " Bots may join"), h("div", { class: "actions" }, h("button", { type: "submit", id: "create-tournament" }, "Create")));
    form.addEventListener("submit", (e) => {
        e.preventDefault();
        const f = format.value;
        const req = {
            name: name.value, format: f,
            rules: { preset: preset.value, rows: Number(size.value), cols: Number(size.value) },
            move_time_limit: Number(seconds.value), bots: bots.checked,
            ...(f === "swiss" ? { rounds: Number(rounds.value) } : {}),
            ...(f === "arena" ? { duration_minutes: Number(minutes.value) } : {}),
        };
        api.createTournament(req, token).then((t) => { location.hash = `#/tournaments/${t.id}`; }, (err) => say(`Not created: ${reason(err)}`, true));
    });
    return form;
}
/** An event's page. */
export function showTournament(id) {
    const root = main();
    const head = h("div", {});
    const players = h("div", {});
    const standings = h("div", {});
    const cross = h("div", {});
    const games = h("div", {});
    root.replaceChildren(h("section", { class: "panel", "aria-labelledby": "tournament" }, head, players, standings, cross, games));
    const load = async () => {
        try {
            const t = await api.tournament(id);
            const all = await recentGames(t);
            if (location.hash !== `#/tournaments/${id}`)
                return;
            head.replaceChildren(...header(t, all, load));
            players.replaceChildren(h("h2", {}, `Players (${t.players.length} of ${t.max_players})`), h("ul", { id: "tournament-players" }, ...t.players.map((p) => h("li", {}, h("a", { href: `#/profile/${p.name}` }, p.name), " ", botBadge(p.bot), p.withdrawn ? " (withdrawn)" : ""))));
            standings.replaceChildren(...standingsTable(t));
            cross.replaceChildren(...crossTable(t));
            games.replaceChildren(...gameList(all));
        }
        catch (err) {
            say(`The tournament did not load: ${reason(err)}`, true);
        }
    };
    keepFresh(load);
}
/** The games of the round being played (an arena's: of its last ten
 * pairings), newest round first: what the page lists, and where the
 * signed-in player's game under way is. */
async function recentGames(t) {
    const out = [];
    const oldest = t.format === "arena" ? Math.max(1, t.round - 9) : t.round;
    for (let round = t.round; round >= oldest && round >= 1; round--) {
        let cursor;
        do {
            const page = await api.tournamentGames(t.id, round, cursor);
            out.push(...page.games);
            cursor = page.next_cursor ?? undefined;
        } while (cursor);
    }
    return out;
}
/** The name, terms, status, the signed-in player's buttons and game under way. */
function header(t, games, reload) {
    const me = account.get();
    const mine = me ? t.players.find((p) => p.name.toLowerCase() === me.name.toLowerCase()) : undefined;
    const act = (action, label) => h("button", { type: "button", id: `tournament-${action}`, onclick: () => {
            if (!me)
                return;
            api.tournamentAction(t.id, action, me.token).then(() => { say(`${label}: done.`); void reload(); }, (err) => say(`${label}: ${reason(err)}`, true));
        } }, label);
    const buttons = [];
    if (me && t.status === "open")
        buttons.push(mine ? act("leave", "Leave") : act("join", "Join"));
    if (me && t.status === "running" && mine && !mine.withdrawn)
        buttons.push(act("leave", "Withdraw"));
    if (me && t.status === "open" && t.creator.toLowerCase() === me.name.toLowerCase())
        buttons.push(act("start", "Start"));
    const current = mine && games.find((g) => g.game && g.result === null && (g.first === mine.name || g.second === mine.name));
    const terms = [FORMATS[t.format], t.format === "swiss" ? `${t.rounds} rounds` : "",
        t.format === "arena" ? `${t.duration_minutes ?? 0} minutes` : "", `${t.rules.name} ${t.rules.rows}×${t.rules.cols}`,
        t.correspondence ? `${Math.round((t.move_time_limit ?? 0) / 86400)} days a move` : `${t.move_time_limit ?? 0} s a move`,
        t.rated ? "rated" : "casual", t.bots ? "bots welcome" : ""].filter(Boolean).join(" · ");
    return [
        h("h1", { id: "tournament" }, t.name),
        h("p", {}, terms),
        h("p", { id: "tournament-status" }, `${t.status}${t.round ? `, round ${t.round}` : ""} — made by ${t.creator}`),
        current?.game ? h("p", {}, h("a", { href: `#/game/${current.game}`, id: "my-tournament-game" }, "Your game under way")) : h("span", {}),
        h("div", { class: "actions" }, ...buttons),
    ];
}
function standingsTable(t) {
    if (!t.standings.length)
        return [];
    const breaks = t.standings[0]?.tiebreaks.map((b) => b.name.replace(/_/g, " ")) ?? [];
    return [h("h2", {}, "Standings"), h("table", { class: "ratings", id: "standings" }, h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, "Player"), h("th", {}, "Points"), ...breaks.map((b) => h("th", {}, b)))), h("tbody", {}, ...t.standings.map((s) => h("tr", {}, h("td", {}, String(s.place)), h("td", {}, s.name), h("td", {}, String(s.points)), ...s.tiebreaks.map((b) => h("td", {}, String(b.value)))))))];
}
function crossTable(t) {
    const rows = t.cross_table;
    if (!rows?.length)
        return [];
    return [h("h2", {}, "Cross table"), h("table", { class: "ratings", id: "cross-table" }, h("thead", {}, h("tr", {}, h("th", {}, ""), ...rows.map((_, i) => h("th", {}, String(i + 1))))), h("tbody", {}, ...rows.map((r, i) => h("tr", {}, h("th", {}, `${i + 1} ${r.name}`), ...r.results.map((c, j) => h("td", { class: i === j ? "self" : "" }, c))))))];
}
function gameList(games) {
    if (!games.length)
        return [];
    return [h("h2", {}, "Games of the round"), h("ol", { id: "tournament-games" }, ...games.map((g) => h("li", {}, `Round ${g.round}: `, g.second === null ? `${g.first} has a bye` : g.game
            ? h("a", { href: `#/game/${g.game}` }, `${g.first} – ${g.second}`) : `${g.first} – ${g.second}`, g.result ? ` (${g.forfeit ? "forfeit, " : ""}${g.result})` : " (under way)")))];
}
