// What a game's page lets this browser do: play (a move chosen jump by
// jump), join or leave a seat while the game waits, ask for a hint,
// resign, play again; and share the invitations it made.

import type { S } from "./types.js";
import { api } from "./client.js";
import { account, seats } from "./storage.js";
import { h, reason, say } from "./dom.js";
import { choose } from "./board.js";
import { type View, held, myTurn, newer } from "./game_state.js";

/** Plays `path` for this browser's seat to move, then redraws. */
export function player(view: View, render: () => void): (path: string[]) => Promise<void> {
  return async (path) => {
    const turn = myTurn(view);
    if (!turn || view.busy) return;
    view.busy = true;
    try {
      newer(view, await api.play(view.game.id, turn.token, view.game.version, path));
      view.chosen = null;
      view.hint = [];
      say(`Played ${path.join("x")}.`);
      // The move's event may have told the end before this answer came:
      // told again, after "Played", so the mover reads it too.
      if (view.game.status === "over") view.toldOver = false;
    } catch (err) {
      say(`Not played: ${reason(err)}`, true);
      view.chosen = null;
    } finally {
      view.busy = false;
    }
    // The move's own event adds it to the list.
    render();
  };
}

/** What a click on a cell does: a removal in the opening, a jump after. */
export function cellClicks(view: View, render: () => void, play: (path: string[]) => Promise<void>) {
  return async (cell: string, letter: string | null): Promise<void> => {
    const g = view.game;
    if (view.replay !== null) return;
    if (!myTurn(view)) {
      say(g.status === "over" ? "The game is over." : "It is not your turn.", true);
      return;
    }
    if (g.status === "opening") {
      await play([cell]);
      return;
    }
    await choose({
      get chosen() { return view.chosen; },
      set chosen(c) { view.chosen = c; },
      piece: "piece",
      goOn: "play it as it is",
      play,
      jumps: async (from) => (await api.jumps(g, from)).tree,
      render,
    }, cell, letter);
  };
}

/** A button that runs `act`, telling its refusal on the message line. */
function button(id: string, label: string, act: () => Promise<void>, kind = ""): HTMLElement {
  const run = async (): Promise<void> => {
    try { await act(); } catch (err) { say(reason(err), true); }
  };
  return h("button", { id, class: kind, onclick: () => void run() }, label);
}

/** The seat actions while the game waits: join (by name, as the account
 * signed in, or by the invitation) and leave. */
function waitingActions(view: View, invite: string | null, render: () => void): HTMLElement[] {
  const g = view.game;
  const out: HTMLElement[] = [];
  const open = g.players.filter((p) => p.open);
  if (invite !== null) {
    // The invitation opens one of the private seats: say which.
    const seatsOpen = open.filter((p) => p.open === "private").map((p) => String(p.player + 1));
    out.push(h("p", { id: "invited" }, seatsOpen.length === 1
      ? `You are invited to seat ${seatsOpen[0]}: give your name and join.`
      : `You are invited to one of seats ${seatsOpen.join(", ")}: give your name and join.`));
  }
  if (open.some((p) => p.open === "public") || invite !== null) {
    const nameIn = h("input", { "aria-label": "your name", id: "join-name", value: view.joinName, placeholder: "your name", maxlength: 64,
      oninput: () => { view.joinName = nameIn.value; } });
    // Signed in, the account takes the seat under its own name.
    const me = account.get();
    const join = async (): Promise<void> => {
      const req: S["JoinRequest"] = me ? {} : { name: view.joinName };
      if (invite) req.invitation = invite;
      const joined = await api.join(g.id, req, me?.token);
      seats.add(g.id, { player: joined.seat.player, token: joined.seat.token });
      localStorage.setItem("leapfrog:name", view.joinName.trim());
      newer(view, joined.game);
      say(`You hold seat ${joined.seat.player + 1}.`);
      render();
    };
    const refused = async (): Promise<void> => join().catch((err: unknown) => say(`Not joined: ${reason(err)}`, true));
    if (me) out.push(button("join", `Join as ${me.name}`, refused));
    else out.push(h("label", {}, "Your name", nameIn), button("join", "Join", refused));
  }
  const firstHeld = held(view)[0];
  if (firstHeld) {
    out.push(button("leave", "Leave the seat", async () => {
      newer(view, await api.leave(g.id, firstHeld.token));
      seats.drop(g.id, firstHeld.player);
      render();
    }, "secondary"));
  }
  return out;
}

/** The actions of a game being played or over: stop a chain, a hint,
 * resign, play again. */
function playingActions(view: View, render: () => void, play: (path: string[]) => Promise<void>): HTMLElement[] {
  const g = view.game;
  const out: HTMLElement[] = [];
  const turn = myTurn(view);
  const firstHeld = held(view)[0];
  if (turn && view.chosen && view.chosen.path.length > 1) {
    const path = view.chosen.path;
    out.push(button("stop", `Play ${path.join("x")} (stop here)`, () => play(path)));
  }
  if (turn) {
    out.push(button("hint", "Hint", async () => {
      say("Thinking…");
      const position = { board: g.position.board, ply: g.position.ply, scores: g.position.scores };
      // Thought here, in this page: a small budget, the same for any machine.
      const a = await api.analyse({ rules: g.rules, position, iterations: 3000 })
        .catch((err: unknown) => { throw new Error(`No hint: ${reason(err)}`); });
      view.hint = a.candidates[0]?.path ?? [];
      say(`Hint: ${a.best}${a.exact ? " (solved exactly)" : ""}.`);
      render();
    }, "secondary"));
  }
  if (firstHeld && (g.status === "opening" || g.status === "playing")) {
    out.push(button("resign", "Resign", async () => {
      if (!window.confirm("Resign this game?")) return;
      newer(view, await api.resign(g.id, firstHeld.token));
      render();
    }, "danger"));
  }
  if (g.status === "over" && firstHeld) {
    out.push(button("again", g.rematch ? "Go to the rematch" : "Play again", async () => {
      // Asking again would replace the token this browser holds already.
      if (g.rematch && seats.get(g.rematch).length > 0) { location.hash = `#/game/${g.rematch}`; return; }
      const next = await api.rematch(g.id, firstHeld.token);
      seats.add(next.game.id, { player: next.seat.player, token: next.seat.token });
      location.hash = `#/game/${next.game.id}`;
    }));
  } else if (g.status === "over" && g.rematch) {
    out.push(h("a", { href: `#/game/${g.rematch}` }, "Watch the rematch"));
  }
  return out;
}

/** Every action this browser may take now. */
export function actions(view: View, invite: string | null, render: () => void,
  play: (path: string[]) => Promise<void>): HTMLElement {
  return h("div", { class: "actions" },
    ...(view.game.status === "waiting" ? waitingActions(view, invite, render) : []),
    ...playingActions(view, render, play));
}

/** The links to share: the game's, while it has public open seats, and
 * each invitation this browser made. */
export function shareLinks(view: View): HTMLElement {
  const g = view.game;
  const invitations = seats.invitations(g.id).filter((i) => g.players[i.player]?.open);
  const publicOpen = g.status === "waiting" && g.players.some((p) => p.open === "public");
  const copy = (link: string, id: string) => h("button", { type: "button", class: "copy", id, onclick: () => void (async () => {
    try {
      await navigator.clipboard.writeText(link);
      say("Link copied: send it to the person you invite.");
    } catch {
      say("The link could not be copied: select it and copy it by hand.", true);
    }
  })() }, "Copy link");
  const publicLink = `${location.origin}/#/game/${g.id}`;
  return h("div", {},
    publicOpen ? h("p", {}, "Anyone can join from the lobby, or by this link: ",
      h("span", { class: "invite" }, publicLink), " ", copy(publicLink, "copy-public")) : null,
    ...invitations.map((i) => {
      const link = `${location.origin}/#/game/${g.id}?invite=${i.invitation}`;
      return h("p", {}, `Invitation for seat ${i.player + 1}: `,
        h("span", { class: "invite", "data-invite": String(i.player) }, link), " ", copy(link, `copy-invite-${i.player}`));
    }));
}
