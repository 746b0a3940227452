// The account page (rule book §13): sign up, sign in, sign out; once
// signed in, the profile with its ratings by pool, the account's games,
// and the leaderboards.

import { api } from "./client.js";
import { account } from "./storage.js";
import { h, main, reason, say } from "./dom.js";
import { gameName, offered } from "./pieces.js";
import { botBadge, botSetting, myChallenges } from "./challenges.js";
import { vacationPanel, yourMoves } from "./long.js";
import { webhooksPanel } from "./webhooks.js";

/** The rating pools: each offered game by direction set. */
const pools = (): string[] => offered().flatMap((p) => ["orthogonal", "diagonal", "all"].map((d) => `${p}/${d}`));

/** The header's link to the account page: the account's name, or "Sign in". */
export function showAccountLink(): void {
  const link = document.getElementById("account-link");
  if (link) link.textContent = account.get()?.name ?? "Sign in";
}

export function showAccount(): void {
  const root = main();
  const me = account.get();
  showAccountLink();
  root.replaceChildren(me ? signedIn(me.name) : signInForms(), leaderboards());
}

/** Sign up and sign in, each a form of a name and a password. */
function signInForms(): HTMLElement {
  const form = (id: string, title: string, submit: (name: string, password: string) => Promise<void>): HTMLElement => {
    const name = h("input", { id: `${id}-name`, name: "name", autocomplete: "username", required: true, minlength: 2, maxlength: 24 });
    const password = h("input", { id: `${id}-password`, name: "password", type: "password", required: true, minlength: 8, maxlength: 256,
      autocomplete: id === "sign-up" ? "new-password" : "current-password" });
    return h("form", { class: "panel", "aria-labelledby": `${id}-title`, onsubmit: (e) => {
      e.preventDefault();
      void submit(name.value.trim(), password.value).catch((err: unknown) => say(`${title}: ${reason(err)}`, true));
    } },
    h("h1", { id: `${id}-title` }, title), h("label", {}, "Name", name), h("label", {}, "Password", password),
    h("div", { class: "actions" }, h("button", { type: "submit", id }, title)));
  };
  const signIn = async (name: string, password: string): Promise<void> => {
    const made = await api.signIn({ name, password, label: "this browser", scopes: ["play", "account"] });
    const profile = await api.account(name);
    account.set({ name: profile.name, token: made.token, id: made.id });
    say(`Signed in as ${profile.name}.`);
    showAccount();
  };
  const signUp = async (name: string, password: string): Promise<void> => {
    await api.signUp({ name, password });
    await signIn(name, password);
  };
  return h("div", { class: "columns" }, form("sign-up", "Sign up", signUp), form("sign-in", "Sign in", signIn));
}

/** The profile, the account's games, and signing out. */
function signedIn(name: string): HTMLElement {
  const ratings = h("tbody", {});
  const games = h("ul", { class: "games", id: "my-games" });
  const setting = h("div", { id: "bot-setting" });
  const waiting = h("div", {});
  const signOut = async (): Promise<void> => {
    const me = account.get();
    account.clear();
    if (me) await api.signOut(me.id, me.token).catch(() => undefined);
    say("Signed out.");
    showAccount();
  };
  void (async () => {
    try {
      const [profile, list] = await Promise.all([api.account(name), api.accountGames(name)]);
      const pools = Object.entries(profile.ratings);
      const me = account.get();
      if (me) setting.replaceChildren(botBadge(profile.bot) ?? "", botSetting(profile, me.token) ?? "");
      ratings.replaceChildren(...pools.map(([pool, r]) => h("tr", {}, h("td", {}, pool), h("td", {}, String(r.rating)),
        h("td", {}, `±${r.deviation}`), h("td", {}, String(r.games)), h("td", {}, r.provisional ? "provisional" : ""))));
      if (pools.length === 0) ratings.append(h("tr", {}, h("td", { colspan: 5 }, "No rated game yet.")));
      games.replaceChildren(...list.games.map((g) => h("li", {}, h("a", { href: `#/game/${g.id}` }, gameName(g.rules)),
        ` — ${g.rated ? "rated" : "casual"}, ${g.status}, ${g.players.map((p) => p.name).join(" vs ")}`)));
      if (list.games.length === 0) games.append(h("li", {}, "No game yet."));
      waiting.replaceChildren(yourMoves(name, list.games));
    } catch (err) {
      say(`The profile did not load: ${reason(err)}`, true);
    }
  })();
  return h("section", { class: "panel", "aria-labelledby": "profile" },
    h("h1", { id: "profile" }, name),
    h("div", { class: "actions" }, h("button", { type: "button", id: "sign-out", class: "secondary", onclick: () => void signOut() }, "Sign out")),
    h("h2", {}, "Ratings"),
    h("table", { class: "ratings" }, h("thead", {}, h("tr", {}, h("th", {}, "Pool"), h("th", {}, "Rating"), h("th", {}, "Deviation"),
      h("th", {}, "Games"), h("th", {}, ""))), ratings),
    setting,
    waiting,
    myChallenges(account.get()?.token ?? "", name),
    h("h2", {}, "Your games"), games,
    vacationPanel(name, account.get()?.token ?? ""),
    webhooksPanel(name, account.get()?.token ?? ""));
}

/** A pool's leaderboard, chosen from a list. */
function leaderboards(): HTMLElement {
  const pool = h("select", { id: "pool", "aria-label": "rating pool" }, ...pools().map((p) => h("option", { value: p }, p)));
  const body = h("tbody", {});
  const load = async (): Promise<void> => {
    try {
      const board = await api.leaderboard(pool.value);
      body.replaceChildren(...board.players.map((p, i) => h("tr", {}, h("td", {}, String(i + 1)),
        h("td", {}, h("a", { href: `#/profile/${p.name}` }, p.name), " ", botBadge(p.bot)),
        h("td", {}, String(p.rating)), h("td", {}, String(p.games)))));
      if (board.players.length === 0) body.append(h("tr", {}, h("td", { colspan: 4 }, "Nobody is ranked here yet (players are ranked once no longer provisional).")));
    } catch (err) {
      say(`The leaderboard did not load: ${reason(err)}`, true);
    }
  };
  pool.addEventListener("change", () => void load());
  void load();
  return h("section", { class: "panel", "aria-labelledby": "leaderboards" }, h("h1", { id: "leaderboards" }, "Leaderboards"),
    h("label", {}, "Pool", pool),
    h("table", { class: "leaderboard" }, h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, "Player"), h("th", {}, "Rating"),
      h("th", {}, "Games"))), body));
}
