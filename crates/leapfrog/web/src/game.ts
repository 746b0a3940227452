// A game's page: its state and event stream, the seats, the actions, the
// moves chosen jump by jump, the result.

import type { Game, MoveRecord, PositionView, S } from "./types.js";
import { api } from "./client.js";
import { account, seats } from "./storage.js";
import type { HeldSeat } from "./storage.js";
import { h, main, onLeave, reason, say } from "./dom.js";
import { gameName, kindName, legend } from "./pieces.js";
import { type Chosen, choose, drawBoard } from "./board.js";

export interface View {
  game: Game;
  history: MoveRecord[];
  /** Captured kinds' letters per player, from the history. */
  captured: string[][];
  /** A move being chosen jump by jump. */
  chosen: Chosen | null;
  hint: string[];
  /** The ply shown, when replaying the past; null: now. */
  replay: number | null;
  replayPosition: PositionView | null;
  busy: boolean;
  /** The name typed to join with: kept, because every event redraws the page. */
  joinName: string;
  /** Whether the end was told on the message line. */
  toldOver: boolean;
}



export async function showGame(id: string, invite: string | null): Promise<void> {
  const root = main();
  root.replaceChildren(h("p", {}, "Loading the game…"));
  let view: View;
  try {
    const [game, history] = await Promise.all([api.game(id), api.history(id)]);
    view = { game, history: history.moves, captured: [], chosen: null, hint: [], replay: null, replayPosition: null, busy: false,
      joinName: localStorage.getItem("leapfrog:name") ?? "", toldOver: false };
    recount(view);
  } catch (err) {
    root.replaceChildren(h("p", { class: "error" }, `This game did not load: ${reason(err)}`), h("a", { href: "#/" }, "Back"));
    return;
  }
  const render = (): void => renderGame(view, invite, render);

  // Live: the stream says every change, and the page draws from what each
  // event carries: a move event carries the game just after it. EventSource
  // reconnects by itself after a lost connection and sends Last-Event-ID,
  // so it gets exactly the events it missed; a refused one (a full server
  // answers 503) it gives up, so the page opens a new one a little later,
  // which starts with the game as it stands.
  //
  // The game is read only when the events cannot tell it: a history with a
  // gap, or a move of a game stored before the event log (its events do not
  // carry the game). One read at a time, never replacing a newer game.
  let reading = false;
  let readAgain = false;
  const readGame = async (): Promise<void> => {
    if (reading) {
      readAgain = true;
      return;
    }
    reading = true;
    try {
      do {
        readAgain = false;
        const game = await api.game(id);
        if (game.version >= view.game.version) view.game = game;
        // A history with a gap (a stream that fell behind) is read whole.
        if (view.history.length < game.position.ply) view.history = (await api.history(id)).moves;
      } while (readAgain);
      recount(view);
    } catch (err) {
      // The next event, or the snapshot after a reconnect, tries again.
      say(`The game did not refresh: ${reason(err)}`, true);
    } finally {
      reading = false;
    }
    if (view.chosen && !myTurn(view)) view.chosen = null;
    render();
  };
  /** Takes a newer game from an event; redraws. */
  const newer = (game: Game): void => {
    if (game.version >= view.game.version) view.game = game;
    if (view.history.length < game.position.ply) {
      void readGame();
      return;
    }
    if (view.chosen && !myTurn(view)) view.chosen = null;
    render();
  };
  const onMove = (e: MessageEvent<string>): void => {
    const { game: after, ...m } = JSON.parse(e.data) as S["MoveEvent"];
    if (m.ply === view.history.length) {
      view.history.push(m);
      recount(view);
    }
    if (!after || view.history.length < after.position.ply) {
      void readGame();
      return;
    }
    if (after.version >= view.game.version) view.game = { ...view.game, ...after };
    if (view.chosen && !myTurn(view)) view.chosen = null;
    render();
  };
  const onGame = (e: MessageEvent<string>): void => newer(JSON.parse(e.data) as Game);
  const onChange = (e: MessageEvent<string>): void => newer((JSON.parse(e.data) as S["GameChange"]).game);
  const onOver = (e: MessageEvent<string>): void => {
    const { status, result, position } = JSON.parse(e.data) as S["GameOverEvent"];
    view.game = { ...view.game, status, result, position };
    view.chosen = null;
    render();
  };
  let events: EventSource;
  let again = 0;
  let done = false;
  // Only the stream's own message is cleared when it is back: a refusal
  // shown meanwhile stays.
  let lost = false;
  const connect = (): void => {
    events = new EventSource(`/v1/games/${id}/events`);
    events.addEventListener("game", onGame as EventListener);
    events.addEventListener("move", onMove as EventListener);
    events.addEventListener("over", onOver as EventListener);
    for (const type of ["joined", "left", "started", "resigned", "timed_out"]) {
      events.addEventListener(type, onChange as EventListener);
    }
    events.addEventListener("rematch", ((e: MessageEvent<string>) => {
      const { id: next } = JSON.parse(e.data) as S["RematchEvent"];
      view.game.rematch = next;
      // Nothing follows a rematch: no reconnecting.
      done = true;
      events.close();
      render();
    }) as EventListener);
    events.addEventListener("error", () => {
      if (done) return;
      lost = true;
      if (events.readyState === EventSource.CLOSED) {
        say("Live updates were refused; trying again…");
        again = window.setTimeout(connect, 5000);
      } else say("Connection lost; reconnecting…");
    });
    events.addEventListener("open", () => {
      if (lost) say("Connected again.");
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
  const cancel = (e: KeyboardEvent): void => {
    if (e.key === "Escape" && view.chosen) {
      view.chosen = null;
      say("Move cancelled.");
      render();
    }
  };
  document.addEventListener("keydown", cancel);
  onLeave(() => {
    done = true;
    window.clearTimeout(again);
    events.close();
    window.clearInterval(clock);
    document.removeEventListener("keydown", cancel);
  });
  render();
}

/** Each player's captured kinds, from the history. */
export function recount(view: View): void {
  view.captured = view.game.players.map(() => []);
  for (const m of view.history) view.captured[m.player]?.push(...m.kinds);
}

export function held(view: View): HeldSeat[] {
  return seats.get(view.game.id);
}

/** My seat that is to move, if any. */
export function myTurn(view: View): HeldSeat | undefined {
  const g = view.game;
  if (g.status !== "opening" && g.status !== "playing") return undefined;
  return held(view).find((s) => s.player === g.position.to_move);
}

export function renderGame(view: View, invite: string | null, render: () => void): void {
  const g = view.game;
  const mine = held(view);
  const root = main();
  const turn = myTurn(view);
  const names = g.players.map((p) => p.name);

  // What is happening, in words.
  let headline: string;
  if (g.status === "waiting") headline = "Waiting for players to take the open seats.";
  else if (g.status === "over") headline = "The game is over.";
  else if (turn) headline = g.status === "opening" ? "Your turn: remove a piece (click it)." : "Your turn: click a piece, then where it jumps.";
  else headline = `${names[g.position.to_move] ?? "?"} to move.`;
  // The tab says when it is this browser's turn, also while it is in the background.
  document.title = `${turn ? "Your turn · " : ""}${gameName(g.rules)} · Leap Frog`;

  const play = async (path: string[]): Promise<void> => {
    if (!turn || view.busy) return;
    view.busy = true;
    try {
      view.game = await api.play(g.id, turn.token, g.version, path);
      view.chosen = null;
      view.hint = [];
      say(`Played ${path.join("x")}.`);
    } catch (err) {
      say(`Not played: ${reason(err)}`, true);
      view.chosen = null;
    } finally {
      view.busy = false;
    }
    // The move's own event adds it to the list.
    render();
  };

  const clickCell = async (cell: string, letter: string | null): Promise<void> => {
    if (view.replay !== null) return;
    if (!turn) {
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
      jumps: async (from) => (await api.jumps(g.id, from)).tree,
      render,
    }, cell, letter);
  };

  // The board.
  const position = view.replay !== null && view.replayPosition ? view.replayPosition : g.position;
  const last = view.replay === null ? view.history[view.history.length - 1] : undefined;
  const board = drawBoard(g.rules, position.grid, view, last, clickCell);

  // Players.
  const playerList = h("ul", { class: "players", "aria-label": "players" },
    ...g.players.map((p) => {
      const score = g.position.scores[p.player] ?? 0;
      const taken = view.captured[p.player] ?? [];
      const counts = new Map<string, number>();
      for (const l of taken) counts.set(l, (counts.get(l) ?? 0) + 1);
      return h("li", { class: p.player === g.position.to_move && g.status !== "over" && g.status !== "waiting" ? "to-move" : "" },
        h("span", {}, `${p.player + 1}. ${p.open ? "Open seat" : p.name}`),
        p.computer ? h("span", { class: "badge" }, `computer, ${p.computer}`) : null,
        p.open ? h("span", { class: "badge" }, p.open) : null,
        p.resigned ? h("span", { class: "badge" }, p.resigned === "timed_out" ? "out of time" : "resigned") : null,
        mine.some((s) => s.player === p.player) ? h("span", { class: "badge" }, "you") : null,
        h("span", { class: "score", "aria-label": `score ${score}` }, `${score} pts`),
        h("span", { class: "captured" }, taken.length === 0 ? "no captures" :
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
      // Signed in, the account takes the seat under its own name.
      const me = account.get();
      const join = async (): Promise<void> => {
        try {
          const req: S["JoinRequest"] = me ? {} : { name: view.joinName };
          if (invite) req.invitation = invite;
          const joined = await api.join(g.id, req, me?.token);
          seats.add(g.id, { player: joined.seat.player, token: joined.seat.token });
          localStorage.setItem("leapfrog:name", view.joinName.trim());
          view.game = joined.game;
          say(`You hold seat ${joined.seat.player + 1}.`);
          render();
        } catch (err) {
          say(`Not joined: ${reason(err)}`, true);
        }
      };
      if (me) actions.append(h("button", { id: "join", onclick: () => void join() }, `Join as ${me.name}`));
      else actions.append(h("label", {}, "Your name", nameIn), h("button", { id: "join", onclick: () => void join() }, "Join"));
    }
    if (firstHeld) {
      actions.append(h("button", { class: "secondary", id: "leave", onclick: () => void (async () => {
        try {
          view.game = await api.leave(g.id, firstHeld.token);
          seats.drop(g.id, firstHeld.player);
          render();
        } catch (err) { say(reason(err), true); }
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
      } catch (err) { say(`No hint: ${reason(err)}`, true); }
    })() }, "Hint"));
  }
  if (firstHeld && (g.status === "opening" || g.status === "playing")) {
    actions.append(h("button", { class: "danger", id: "resign", onclick: () => void (async () => {
      if (!window.confirm("Resign this game?")) return;
      try { view.game = await api.resign(g.id, firstHeld.token); render(); } catch (err) { say(reason(err), true); }
    })() }, "Resign"));
  }
  if (g.status === "over" && firstHeld) {
    actions.append(h("button", { id: "again", onclick: () => void (async () => {
      // Asking again would replace the token this browser holds already.
      if (g.rematch && seats.get(g.rematch).length > 0) { location.hash = `#/game/${g.rematch}`; return; }
      try {
        const next = await api.rematch(g.id, firstHeld.token);
        seats.add(next.game.id, { player: next.seat.player, token: next.seat.token });
        location.hash = `#/game/${next.game.id}`;
      } catch (err) { say(reason(err), true); }
    })() }, g.rematch ? "Go to the rematch" : "Play again"));
  } else if (g.status === "over" && g.rematch) {
    actions.append(h("a", { href: `#/game/${g.rematch}` }, "Watch the rematch"));
  }

  // Invitations this browser made.
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
  const share = h("div", {},
    publicOpen ? h("p", {}, "Anyone can join from the lobby, or by this link: ",
      h("span", { class: "invite" }, publicLink), " ", copy(publicLink, "copy-public")) : null,
    ...invitations.map((i) => {
      const link = `${location.origin}/#/game/${g.id}?invite=${i.invitation}`;
      return h("p", {}, `Invitation for seat ${i.player + 1}: `,
        h("span", { class: "invite", "data-invite": String(i.player) }, link), " ", copy(link, `copy-invite-${i.player}`));
    }));

  // The result.
  let result: HTMLElement | null = null;
  if (g.result) {
    const r = g.result;
    const winners = r.winners.map((w) => names[w] ?? "?").join(" and ");
    const verdict = r.winners.length === 0 ? "No winner." : `${winners} ${r.shared ? "share the win" : "wins"}${r.ended === "resignation" ? " by resignation" : ""}.`;
    // The end replaces whatever the message line said last ("Played …").
    if (!view.toldOver) {
      say(`The game is over. ${verdict}`);
      view.toldOver = true;
    }
    result = h("div", { class: "result", id: "result", role: "region", "aria-label": "the result" },
      h("h2", {}, "Game over"),
      h("p", { class: "verdict" }, verdict),
      h("ol", {}, ...r.standings.map((st) => {
        const change = r.ratings?.find((c) => c.player === st.player);
        const rating = change ? `, rating ${change.before} → ${change.after}` : "";
        return h("li", {}, `${names[st.player] ?? "?"}: ${st.score} pts, rank ${st.rank}${st.resigned ? " (resigned)" : ""}${rating}`);
      })));
  }

  // Moves and replay.
  const moves = h("ol", { class: "moves", start: 1, "aria-label": "moves" },
    ...view.history.map((m) => h("li", {}, `${names[m.player] ?? "?"}: ${m.notation}${m.gain ? ` (+${m.gain})` : ""}${m.computer ? " ·c" : ""}`)));
  const slider = h("input", { type: "range", class: "replay", id: "replay", min: 0, max: g.position.ply, value: view.replay ?? g.position.ply,
    "aria-label": "replay: the position after this many moves" });
  slider.addEventListener("change", () => void (async () => {
    const n = Number(slider.value);
    if (n >= g.position.ply) {
      view.replay = null;
      view.replayPosition = null;
    } else {
      try {
        view.replayPosition = await api.positionAt(g.id, n);
        view.replay = n;
      } catch (err) {
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
  root.replaceChildren(
    h("div", { class: "columns" },
      h("section", { class: "panel", "aria-labelledby": "game-title" },
        h("h1", { id: "game-title" }, gameName(g.rules)),
        h("p", { id: "headline" }, headline, " ", h("span", { id: "clock" })),
        result,
        view.replay !== null ? h("p", {}, `Showing the position after ${view.replay} moves (the game is at ${g.position.ply}).`) : null,
        h("div", { class: "board-wrap" }, board),
        legend(g.rules),
        actions, share),
      h("div", {},
        h("section", { class: "panel", "aria-labelledby": "players-title" }, h("h2", { id: "players-title" }, "Players"), playerList),
        h("section", { class: "panel", "aria-labelledby": "moves-title" }, h("h2", { id: "moves-title" }, `Moves (${view.history.length})`),
          h("label", {}, "Replay", slider), moves,
          h("a", { href: `/v1/games/${g.id}/record`, download: `leapfrog-${g.id}.txt`, id: "download-record" }, "Download the record")))));
  // The latest move in view, in the list's own scroll box.
  moves.scrollTop = moves.scrollHeight;
  const again = focusAgain ? root.querySelector<HTMLElement | SVGGElement>(focusAgain) : null;
  again?.focus();
  if (caret && again instanceof HTMLInputElement) again.setSelectionRange(caret.start, caret.end);
}
