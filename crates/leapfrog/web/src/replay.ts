// Replaying a game record (rule book §14): paste one, the server reads it
// (or says the first thing wrong with it), then step through its positions
// on the board.

import { api } from "./client.js";
import { h, main, reason, say } from "./dom.js";
import { drawBoard, gridOf } from "./board.js";
import { gameName } from "./pieces.js";

export function showReplay(): void {
  const root = main();
  const text = h("textarea", { id: "record", rows: 12, "aria-label": "a game record", placeholder: "[Rules \"…\"]\n[Start \"…\"]\n\n1. b3 2. c2 …" });
  const shown = h("div", { id: "replayed" });
  const read = async (e: Event): Promise<void> => {
    e.preventDefault();
    try {
      const record = await api.readRecord(text.value);
      let ply = record.positions.length - 1;
      const draw = (): void => {
        const position = record.positions[ply] ?? "";
        const nothing = { chosen: null, hint: [] };
        const board = drawBoard(record.rules, gridOf(position), nothing, undefined, () => Promise.resolve());
        const step = (by: number) => () => {
          ply = Math.max(0, Math.min(record.positions.length - 1, ply + by));
          draw();
        };
        const result = record.result && ply === record.positions.length - 1
          ? h("p", { id: "record-result" }, `Result: ${record.result.winners.map((w) => `seat ${w + 1}`).join(" and ")} won` +
            `${record.result.ended === "resignation" ? " by resignation" : ""}.`)
          : null;
        shown.replaceChildren(
          h("h2", {}, gameName(record.rules)),
          h("p", { id: "record-ply" }, `Ply ${ply} of ${record.plies.length}${ply > 0 ? `: ${record.plies[ply - 1] ?? ""}` : ""}`),
          h("div", { class: "actions" },
            h("button", { type: "button", class: "secondary", id: "record-start", onclick: step(-Infinity) }, "⏮"),
            h("button", { type: "button", class: "secondary", id: "record-back", onclick: step(-1) }, "◀"),
            h("button", { type: "button", class: "secondary", id: "record-next", onclick: step(1) }, "▶"),
            h("button", { type: "button", class: "secondary", id: "record-end", onclick: step(Infinity) }, "⏭")),
          board, ...(result ? [result] : []));
      };
      draw();
      say(`The record replays: ${record.plies.length} plies.`);
    } catch (err) {
      shown.replaceChildren();
      say(`The record does not replay: ${reason(err)}`, true);
    }
  };
  root.replaceChildren(h("section", { class: "panel", "aria-labelledby": "replay-title" },
    h("h1", { id: "replay-title" }, "Replay a game record"),
    h("form", { onsubmit: (e) => void read(e) }, text, h("div", { class: "actions" }, h("button", { type: "submit", id: "read-record" }, "Replay"))),
    shown));
}
