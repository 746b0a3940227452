// The home page: create a game, and the lobby of games waiting for players.

import type { S } from "./types.js";
import { api } from "./client.js";
import { account, seats } from "./storage.js";
import { h, main, onLeave, reason, say } from "./dom.js";
import { offered, presetName, puzzles } from "./pieces.js";

export const LEVELS: S["ComputerLevel"][] = ["random", "greedy", "lookahead", "easy", "medium", "hard"];

export function showHome(): void {
  const root = main();
  // Signed in, "me" is the account.
  const me = account.get();
  root.replaceChildren();
  const [seatList, addSeat] = seatEditor(me !== null);
  addSeat("me", localStorage.getItem("leapfrog:name") ?? "");
  addSeat("computer");

  const preset = h("select", { id: "preset", name: "preset" },
    ...offered().map((id) => h("option", { value: id }, presetName(id))));
  const size = h("input", { id: "size", type: "number", min: 3, max: 26, placeholder: "preset's", name: "size" });
  const dirs = h("select", { id: "directions", name: "directions" }, h("option", { value: "" }, "preset's"),
    h("option", { value: "orthogonal" }, "orthogonal"), h("option", { value: "diagonal" }, "diagonal"), h("option", { value: "all" }, "all"),
    h("option", { value: "hex" }, "hex"));
  const limit = h("input", { id: "limit", type: "number", min: 5, max: 1209600, placeholder: "none", name: "limit" });
  // A long game: days per move instead of seconds.
  const days = h("select", { id: "days", name: "days" }, h("option", { value: "" }, "—"),
    ...[1, 2, 3, 5, 7, 10, 14].map((d) => h("option", { value: String(d) }, d === 1 ? "1 day" : `${d} days`)));
  // Signed in, the game may be rated.
  const rated = h("input", { id: "rated", type: "checkbox", name: "rated", disabled: !me });

  const create = async (e: Event): Promise<void> => {
    e.preventDefault();
    const players: S["PlayerInput"][] = [];
    for (const row of Array.from(seatList.children)) {
      const kind = (row.querySelector("[name=kind]") as HTMLSelectElement).value;
      const name = (row.querySelector("[name=name]") as HTMLInputElement).value.trim();
      const level = (row.querySelector("[name=level]") as HTMLSelectElement).value as S["ComputerLevel"];
      if (kind === "me") players.push(me ? { account: me.name } : { name });
      else if (kind === "open") players.push({ open: "public" });
      else if (kind === "private") players.push({ open: "private" });
      else players.push({ computer: level });
    }
    const rules: S["Rules"] = { preset: preset.value as S["PresetId"] };
    // A hexagon is sized by its side, a square board by its rows and files.
    if (size.value && preset.value === "capture") rules.side = Number(size.value);
    else if (size.value) { rules.rows = Number(size.value); rules.cols = Number(size.value); }
    if (dirs.value) rules.directions = dirs.value as S["Directions"];
    const req: S["CreateGameRequest"] = { rules, players };
    if (days.value) req.days_per_move = Number(days.value);
    else if (limit.value) req.move_time_limit = Number(limit.value);
    if (rated.checked) req.rated = true;
    try {
      const game = await api.create(req, me?.token);
      for (const seat of game.seats ?? []) seats.add(game.id, { player: seat.player, token: seat.token });
      seats.keepInvitations(game.id, game.invitations ?? []);
      const mine = players.find((p) => p.name);
      if (mine?.name) localStorage.setItem("leapfrog:name", mine.name);
      location.hash = `#/game/${game.id}`;
    } catch (err) {
      say(`Not created: ${reason(err)}`, true);
    }
  };

  const form = h("form", { onsubmit: (e) => void create(e) },
    h("div", {}, h("label", {}, "Game", preset), h("label", {}, "Board size", size),
      h("label", {}, "Jumps", dirs), h("label", {}, "Seconds a move", limit), h("label", {}, "or days a move", days),
      h("label", { title: me ? "every seat an account's, no computer" : "sign in to play rated games" }, rated, " Rated")),
    h("h2", {}, "Players, in turn order"), seatList,
    h("div", { class: "actions" },
      h("button", { type: "button", class: "secondary", onclick: () => addSeat("open") }, "Add a seat"),
      h("button", { type: "submit", id: "create" }, "Create the game")));

  const lobby = lobbyTable();
  const puzzleList = h("ul", { class: "puzzles" },
    ...puzzles().map((p) => h("li", {}, h("a", { href: `#/puzzle/${p}`, id: `puzzle-${p}` }, presetName(p)))));
  root.append(
    h("div", { class: "columns" },
      h("section", { class: "panel", "aria-labelledby": "new-game" }, h("h1", { id: "new-game" }, "New game"), form),
      h("div", {},
        h("section", { class: "panel", "aria-labelledby": "lobby" }, h("h1", { id: "lobby" }, "Lobby"), lobby),
        h("section", { class: "panel", "aria-labelledby": "puzzles" }, h("h1", { id: "puzzles" }, "Puzzles for one"), puzzleList,
          h("p", {}, h("a", { href: "#/analysis", id: "analysis-link" }, "The analysis board")),
          h("p", {}, h("a", { href: "#/tournaments", id: "tournaments-link" }, "Tournaments"))))));
}

/** The lobby: games waiting for players, read again every 5 s while shown. */
function lobbyTable(): HTMLElement {
  const lobbyBody = h("tbody", {});
  const lobby = h("table", { class: "lobby" },
    h("thead", {}, h("tr", {}, h("th", {}, "Game"), h("th", {}, "Players"), h("th", {}, ""))), lobbyBody);
  const refresh = async (): Promise<void> => {
    try {
      const page = await api.lobby();
      lobbyBody.replaceChildren(...page.games.map((g) => h("tr", {},
        h("td", {}, `${g.rules.name} ${g.rules.rows}×${g.rules.cols}`),
        h("td", {}, g.players.map((p) => (p.open ? "(open)" : p.name)).join(", ")),
        h("td", {}, h("a", { href: `#/game/${g.id}` }, "Join")))));
      if (page.games.length === 0) lobbyBody.append(h("tr", {}, h("td", { colspan: 3 }, "No game is waiting for players.")));
    } catch (err) {
      say(`The lobby did not load: ${reason(err)}`, true);
    }
  };
  void refresh();
  const timer = window.setInterval(() => void refresh(), 5000);
  onLeave(() => window.clearInterval(timer));
  return lobby;
}

/** The seats of a new game, in turn order, each a row that says who holds
 * it; and the function that adds one. `signedIn`: "me" is the account. */
function seatEditor(signedIn: boolean): [HTMLElement, (kind: string, name?: string) => void] {
  const seatList = h("div", { id: "seats" });
  const addSeat = (kind: string, name = ""): void => {
    const n = seatList.children.length;
    const kindSel = h("select", { "aria-label": `seat ${n + 1}: who`, name: "kind" },
      ...[["me", "me"], ["open", "open (lobby)"], ["private", "invitation"], ["computer", "computer"]].map(
        ([v, t]) => h("option", { value: v ?? "", selected: v === kind }, t ?? "")));
    const nameIn = h("input", { "aria-label": `seat ${n + 1}: name`, name: "name", value: name, placeholder: "name", maxlength: 64 });
    const level = h("select", { "aria-label": `seat ${n + 1}: level`, name: "level" },
      ...LEVELS.map((l) => h("option", { value: l, selected: l === "medium" }, l)));
    const sync = (): void => {
      nameIn.hidden = kindSel.value !== "me" || signedIn;
      level.hidden = kindSel.value !== "computer";
    };
    kindSel.addEventListener("change", sync);
    const remove = h("button", { type: "button", class: "secondary", "aria-label": `remove seat ${n + 1}`,
      onclick: () => row.remove() }, "✕");
    const row = h("div", { class: "seat-row" }, h("span", {}, `Seat ${n + 1}`), kindSel, nameIn, level, remove);
    seatList.append(row);
    sync();
  };
  return [seatList, addSeat];
}
