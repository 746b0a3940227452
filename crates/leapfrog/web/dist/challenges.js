// Bots and challenges on the page (rule book §15): an account's profile
// with a "Challenge" form that offers only what the profile accepts, the
// signed-in account's challenges (accept, decline with a reason, cancel),
// and its setting for rated games against bots.
import { api } from "./client.js";
import { account } from "./storage.js";
import { h, main, reason, say } from "./dom.js";
import { gameName, offered, presetName } from "./pieces.js";
/** A bot badge, for a name shown anywhere. */
export function botBadge(bot) {
    return bot ? h("span", { class: "badge bot" }, "bot") : null;
}
/** An account's public profile, and a challenge to it when signed in. */
export async function showProfile(name) {
    const root = main();
    try {
        const profile = await api.account(name);
        if (location.hash !== `#/profile/${name}`)
            return; // the reader went on while it loaded
        const pools = Object.entries(profile.ratings);
        const rows = pools.map(([pool, r]) => h("tr", {}, h("td", {}, pool), h("td", {}, String(r.rating)), h("td", {}, String(r.games))));
        const me = account.get();
        root.replaceChildren(h("section", { class: "panel", "aria-labelledby": "profile" }, h("h1", { id: "profile" }, profile.name, " ", botBadge(profile.bot)), h("p", { id: "accepts" }, acceptsText(profile.accepts ?? null)), h("table", { class: "ratings" }, h("tbody", {}, ...(rows.length ? rows : [h("tr", {}, h("td", {}, "No rated game yet."))]))), me && me.name.toLowerCase() !== profile.name.toLowerCase() ? challengeForm(profile, me.token) : null));
    }
    catch (err) {
        say(`The profile did not load: ${reason(err)}`, true);
    }
}
/** What a profile accepts, in words. */
function acceptsText(a) {
    if (!a)
        return "Takes any challenge.";
    const parts = [
        a.presets?.length ? `plays ${a.presets.map((p) => presetName(p)).join(", ")}` : "plays any rules",
        a.min_size || a.max_size ? `boards ${a.min_size ?? 1} to ${a.max_size ?? 26} wide` : "",
        a.rated === false ? "casual only" : a.casual === false ? "rated only" : "",
        a.max_games ? `at most ${a.max_games} games at once` : "",
    ];
    return `Takes challenges: ${parts.filter(Boolean).join("; ")}.`;
}
/** The challenge form: only the presets, sizes and kinds the profile takes. */
function challengeForm(profile, token) {
    const a = profile.accepts ?? null;
    const presets = offered().filter((p) => !a?.presets?.length || a.presets.includes(p));
    const preset = h("select", { id: "challenge-preset", "aria-label": "game" }, ...presets.map((p) => h("option", { value: p }, presetName(p))));
    const min = a?.min_size ?? 4;
    const max = a?.max_size ?? 15;
    const size = h("input", { id: "challenge-size", type: "number", min, max, value: Math.min(Math.max(8, min), max) });
    const rated = h("input", { id: "challenge-rated", type: "checkbox" });
    const days = h("select", { id: "challenge-days", "aria-label": "days a move" }, h("option", { value: "" }, "no limit"), ...[1, 2, 3, 5, 7, 10, 14].map((d) => h("option", { value: String(d) }, d === 1 ? "1 day a move" : `${d} days a move`)));
    const canRate = a?.rated !== false;
    const send = async () => {
        const n = Number(size.value);
        const req = {
            to: profile.name,
            rules: { preset: preset.value, rows: n, cols: n },
            rated: canRate && rated.checked,
        };
        if (days.value)
            req.days_per_move = Number(days.value);
        const made = await api.challenge(req, token);
        say(`Challenge sent to ${profile.name}: ${gameName(made.rules)}. It stays open ten minutes.`);
    };
    return h("form", { class: "challenge", id: "challenge-form", onsubmit: (e) => {
            e.preventDefault();
            void send().catch((err) => say(`The challenge was refused: ${reason(err)}`, true));
        } }, h("h2", {}, "Challenge"), h("label", {}, "Game", preset), h("label", {}, "Board side", size), h("label", {}, "Time", days), canRate ? h("label", {}, rated, " rated") : null, h("div", { class: "actions" }, h("button", { type: "submit", id: "challenge" }, `Challenge ${profile.name}`)));
}
/** The signed-in account's challenges, with what it may do to each. */
export function myChallenges(token, me) {
    const list = h("ul", { class: "challenges", id: "my-challenges" });
    const load = async () => {
        const page = await api.challenges(token);
        const open = page.challenges.filter((c) => c.status === "open");
        list.replaceChildren(...open.map((c) => challengeItem(c, token, me, load)));
        if (open.length === 0)
            list.append(h("li", {}, "No open challenge."));
    };
    void load().catch((err) => say(`The challenges did not load: ${reason(err)}`, true));
    return h("div", {}, h("h2", {}, "Challenges"), list);
}
function challengeItem(c, token, me, reload) {
    const incoming = c.from.name.toLowerCase() !== me.toLowerCase();
    const act = (what) => () => {
        void what().then(reload).catch((err) => say(reason(err), true));
    };
    const accept = async () => {
        const done = await api.acceptChallenge(c.id, token);
        if (done.game)
            location.hash = `#/game/${done.game.id}`;
    };
    const reasons = ["generic", "later", "too_fast", "too_slow", "rules", "rated", "casual"];
    const why = h("select", { "aria-label": "reason" }, ...reasons.map((r) => h("option", { value: r }, r.replace("_", " "))));
    return h("li", { "data-challenge": c.id }, incoming ? `${c.from.name} ` : `To ${c.to ?? "anyone"}: `, botBadge(incoming && c.from.bot), `${gameName(c.rules)}, ${c.rated ? "rated" : "casual"} `, incoming
        ? h("span", {}, h("button", { type: "button", class: "accept", onclick: act(accept) }, "Accept"), " ", why, h("button", { type: "button", class: "decline secondary", onclick: act(() => api.declineChallenge(c.id, why.value, token)) }, "Decline"))
        : h("button", { type: "button", class: "cancel secondary", onclick: act(() => api.cancelChallenge(c.id, token)) }, "Cancel"));
}
/** A person's setting: rated games against bots, yes or no. */
export function botSetting(profile, token) {
    if (profile.bot)
        return h("p", {}, "This account is a bot: it plays the games of challenges.");
    const box = h("input", { id: "rated-against-bots", type: "checkbox", checked: profile.rated_against_bots });
    box.addEventListener("change", () => {
        void api.updateAccount(profile.name, { rated_against_bots: box.checked }, token)
            .then(() => say(box.checked ? "Rated games against bots: accepted." : "Rated games against bots: refused."))
            .catch((err) => say(reason(err), true));
    });
    return h("label", {}, box, " Accept rated games against bots");
}
