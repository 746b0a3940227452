// Long games on the page: the time left in words, the signed-in account's
// "your move" list with deadlines, its vacation days, and a game's
// conditional moves — played out on a scratch board, or picked from the
// position's own legal moves.

import { type Chosen, choose, drawBoard, gridOf } from "./board.js";
import { api } from "./client.js";
import { h, reason, say } from "./dom.js";
import { gameName } from "./pieces.js";
import { type View, held, myTurn } from "./game_state.js";
import type { Game } from "./types.js";

/** Milliseconds left, in words: "2 d 3 h", "5 h 10 min", "45 s". */
export function timeLeft(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const [d, hr, min] = [Math.floor(s / 86400), Math.floor((s % 86400) / 3600), Math.floor((s % 3600) / 60)];
  if (d > 0) return `${d} d ${hr} h`;
  if (hr > 0) return `${hr} h ${min} min`;
  return min > 0 ? `${min} min ${s % 60} s` : `${s} s`;
}

/** The games where `name` is to move, soonest deadline first. */
export function yourMoves(name: string, games: Game[]): HTMLElement {
  const mine = games.filter((g) => {
    const p = g.players[g.position.to_move];
    return (g.status === "opening" || g.status === "playing") && p?.account && p.name.toLowerCase() === name.toLowerCase();
  });
  const due = (g: Game): number => (g.turn_ends_at ? Date.parse(g.turn_ends_at) : Number.MAX_SAFE_INTEGER);
  mine.sort((a, b) => due(a) - due(b));
  const list = h("ul", { class: "games", id: "your-move" }, ...mine.map((g) => h("li", {},
    h("a", { href: `#/game/${g.id}` }, gameName(g.rules)), ` — ${g.players.map((p) => p.name).join(" vs ")}, `,
    g.turn_ends_at ? h("span", { class: "deadline" }, `${timeLeft(due(g) - Date.now())} left (until ${new Date(due(g)).toLocaleString()})`)
      : "no time limit")));
  if (mine.length === 0) list.append(h("li", {}, "None of your games waits for you."));
  return h("div", {}, h("h2", {}, "Your move"), list);
}

/** The account's vacation days, and a vacation started or ended early. */
export function vacationPanel(name: string, token: string): HTMLElement {
  const status = h("p", { id: "vacation-status" }, "Loading…");
  const days = h("input", { id: "vacation-days", type: "number", min: 1, max: 366, value: 7, "aria-label": "days of vacation" });
  const start = h("button", { type: "button", id: "start-vacation" }, "Start a vacation");
  const end = h("button", { type: "button", id: "end-vacation", class: "secondary" }, "End it now");
  const show = (v: { days_left: number; allowance: number; until?: string | null }): void => {
    status.textContent = `${v.days_left} of ${v.allowance} vacation days left this year` +
      (v.until ? `; on vacation until ${new Date(v.until).toLocaleString()}.` : ".");
    start.hidden = Boolean(v.until);
    days.hidden = Boolean(v.until);
    end.hidden = !v.until;
  };
  const act = (what: () => Promise<{ days_left: number; allowance: number; until?: string | null }>, done: string) => (): void => {
    void what().then((v) => { show(v); say(done); }, (err: unknown) => say(`The vacation was refused: ${reason(err)}`, true));
  };
  start.addEventListener("click", act(() => api.startVacation(name, Number(days.value), token), "Your clocks stand still until you are back."));
  end.addEventListener("click", act(() => api.endVacation(name, token), "Welcome back: the days not begun are yours again."));
  void api.vacation(name, token).then(show, (err: unknown) => { status.textContent = `Vacation days did not load: ${reason(err)}`; });
  return h("div", { id: "vacation" }, h("h2", {}, "Vacation"),
    h("p", {}, "In games of a day or more a move, a move you miss costs a vacation day instead of the game, while you have days."),
    status, h("div", { class: "actions" }, days, start, end));
}

/** Which games' conditional-moves panels are open (kept across redraws). */
const open = new Set<string>();

/** A line being played out on a game's scratch board: the game's ply it
 * starts from, its moves so far, the position after them, and the move
 * being chosen jump by jump. */
interface Scratch {
  from: number;
  line: string[];
  position: { board: string; ply: number; scores: number[] };
  status: string;
  chosen: Chosen | null;
}

/** Each game's scratch line (kept across redraws of the page). */
const scratches = new Map<string, Scratch>();

/** A scratch board on the game's position: the opponent's move and the
 * reply are clicked as moves are on the game's board (jump by jump), each
 * played on the scratch position only; `keep` takes a line of pairs. */
function scratchBoard(g: Game, keep: (line: string[]) => Promise<void>): HTMLElement {
  const fresh = (): Scratch => ({ from: g.position.ply, line: [], position: { board: g.position.board, ply: g.position.ply, scores: g.position.scores },
    status: g.status, chosen: null });
  let sc = scratches.get(g.id);
  if (!sc || sc.from !== g.position.ply) scratches.set(g.id, (sc = fresh()));
  const now: Scratch = sc;
  const wrap = h("div", { id: "scratch" });
  const play = async (path: string[]): Promise<void> => {
    try {
      const after = await api.apply({ rules: g.rules, position: now.position, move: { path } });
      now.line.push(after.move.notation);
      now.position = { board: after.position.board, ply: after.position.ply, scores: after.position.scores };
      now.status = after.status;
      say(now.line.length % 2 === 1 ? `If they play ${after.move.notation}: now click your reply.` : "Keep this line, or click their next move.");
    } catch (err) {
      say(`Not a move here: ${reason(err)}`, true);
    }
    now.chosen = null;
    render();
  };
  const click = async (cell: string, letter: string | null): Promise<void> => {
    if (now.status === "over") return say("That line ends the game.", true);
    // In the opening a move is a removal: one click.
    if (now.status === "opening") return play([cell]);
    return choose({
      get chosen() { return now.chosen; },
      set chosen(c) { now.chosen = c; },
      piece: "piece",
      goOn: "stop here",
      play,
      jumps: async (from) => (await api.legalMoves({ rules: g.rules, position: now.position, from, limit: 1 })).tree,
      render,
    }, cell, letter);
  };
  const again = (): void => {
    Object.assign(now, fresh());
    render();
  };
  function render(): void {
    const path = now.chosen && now.chosen.path.length > 1 ? now.chosen.path : null;
    wrap.replaceChildren(
      h("p", { id: "scratch-line" }, now.line.length ? `This line: ${now.line.join(", ")}` : "Click their move on this board, then your reply."),
      h("div", { class: "board-wrap" }, drawBoard(g.rules, gridOf(now.position.board), { chosen: now.chosen, hint: [] }, undefined, click)),
      h("div", { class: "actions" },
        path ? h("button", { type: "button", id: "scratch-stop", onclick: () => void play(path) }, "Stop here") : null,
        h("button", { type: "button", id: "keep-scratch", disabled: now.line.length < 2 || now.line.length % 2 === 1,
          onclick: () => {
            // Kept, the page draws the panel again: its scratch board starts afresh.
            scratches.delete(g.id);
            void keep([...now.line]).catch((err: unknown) => { scratches.set(g.id, now); say(reason(err), true); });
          } }, "Keep this line"),
        h("button", { type: "button", id: "scratch-again", class: "secondary", disabled: now.line.length === 0 && !now.chosen, onclick: again }, "Start again")));
  }
  render();
  return wrap;
}

/** A game's conditional moves: shown to a seat of a long game of two
 * whose opponent is to move; each line is the opponent's move, then the
 * reply (and perhaps more such pairs), played out on a scratch board or
 * picked from the legal moves of the position. */
export function conditionalPanel(view: View): HTMLElement | null {
  const g = view.game;
  const seat = held(view)[0];
  const long = (g.move_time_limit ?? 0) >= 86400 && g.players.length === 2;
  if (!seat || !long || myTurn(view) || (g.status !== "opening" && g.status !== "playing")) return null;
  const body = h("div", {}, "Loading…");
  const details = h("details", { id: "conditional", open: open.has(g.id) },
    h("summary", {}, "Conditional moves: if they play…, you reply…"), body);
  const load = async (): Promise<void> => {
    const [kept, theirs] = await Promise.all([api.conditional(g.id, seat.token), api.gameMoves(g)]);
    const lines = kept.lines;
    const them = h("select", { id: "if-they-play", "aria-label": "if they play" },
      ...theirs.moves.map((m) => h("option", { value: JSON.stringify(m.path) }, m.notation)));
    const reply = h("select", { id: "you-reply", "aria-label": "you reply" });
    const fillReplies = async (): Promise<void> => {
      const path = JSON.parse(them.value || "[]") as string[];
      if (path.length === 0) return;
      const after = await api.apply({ rules: g.rules, position: { board: g.position.board, ply: g.position.ply, scores: g.position.scores }, move: { path } });
      const replies = await api.legalMoves({ rules: g.rules, position: { board: after.position.board, ply: after.position.ply, scores: after.position.scores }, limit: 200 });
      reply.replaceChildren(...replies.moves.map((m) => h("option", { value: m.notation }, m.notation)));
    };
    them.addEventListener("change", () => void fillReplies().catch((err: unknown) => say(reason(err), true)));
    const save = async (next: string[][]): Promise<void> => {
      const done = await api.keepConditional(g.id, next, seat.token);
      say(done.lines.length ? `Kept ${done.lines.length} conditional line(s).` : "No conditional moves kept.");
      await load();
    };
    const add = h("button", { type: "button", id: "add-line" }, "Keep this line");
    add.addEventListener("click", () => {
      const theirMove = theirs.moves.find((m) => JSON.stringify(m.path) === them.value)?.notation;
      if (theirMove && reply.value) void save([...lines, [theirMove, reply.value]]).catch((err: unknown) => say(reason(err), true));
    });
    const clear = h("button", { type: "button", id: "clear-lines", class: "secondary" }, "Drop them all");
    clear.addEventListener("click", () => void save([]).catch((err: unknown) => say(reason(err), true)));
    body.replaceChildren(
      h("ul", { id: "conditional-lines" }, ...(lines.length ? lines.map((l) => h("li", {}, l.join(", "))) : [h("li", {}, "None kept.")])),
      scratchBoard(g, (line) => save([...lines, line])),
      h("p", {}, "Or pick a pair:"),
      h("label", {}, "If they play", them), h("label", {}, "you reply", reply),
      h("div", { class: "actions" }, add, clear));
    await fillReplies();
  };
  details.addEventListener("toggle", () => {
    if (details.open) {
      open.add(g.id);
      void load().catch((err: unknown) => { body.textContent = `Conditional moves did not load: ${reason(err)}`; });
    } else open.delete(g.id);
  });
  if (details.open) void load().catch((err: unknown) => { body.textContent = `Conditional moves did not load: ${reason(err)}`; });
  return details;
}
