// The board: a pure function from a position and what is being chosen to
// an SVG element, with the cells' names and colours and the focus ring.

import type { JumpTree, MoveRecord, PositionView, S } from "./types.js";
import { reason, s, say } from "./dom.js";
import { colourOf, kindName } from "./pieces.js";
import type { View } from "./game_state.js";

export function cellName(file: number, rank: number): string {
  return `${String.fromCharCode(97 + file)}${rank}`;
}

/** The grid of a position string's board (§8): letters for pieces, digits
 * for runs of empty cells, `-` for a cell the board does not have. */
export function gridOf(position: string): (string | null)[][] {
  const board = position.split(" ")[0] ?? "";
  return board.split("/").map((rank) => {
    const cells: (string | null)[] = [];
    for (const run of rank.match(/\d+|./g) ?? []) {
      if (/^\d+$/.test(run)) cells.push(...Array<null>(Number(run)).fill(null));
      else cells.push(run);
    }
    return cells;
  });
}

/** A move being chosen jump by jump: its path so far and the jumps on. */
export interface Chosen { path: string[]; node: JumpTree }

/** What a page that lets a move be chosen by clicks gives the chooser. */
export interface Choosing {
  /** The move being chosen, if any. */
  chosen: Chosen | null;
  /** What the moving things are called: "piece", "peg". */
  piece: string;
  /** Words for a path that may stop or jump on. */
  goOn: string;
  play(path: string[]): Promise<void>;
  /** The jumps from `cell`, if it has any. */
  jumps(cell: string): Promise<JumpTree | undefined>;
  render(): void;
}

/** A click on `cell` (holding `letter`) while a move is chosen jump by
 * jump: picks a piece, lands it, plays a path that cannot go on, or says
 * why not. */
export async function choose(c: Choosing, cell: string, letter: string | null): Promise<void> {
  const chosen = c.chosen;
  if (chosen) {
    if (cell === chosen.path[0] && chosen.path.length === 1) {
      c.chosen = null;
      c.render();
      return;
    }
    const next = chosen.node.next.find((n) => n.cell === cell);
    if (next && next.next.length === 0) {
      await c.play([...chosen.path, cell]);
      return;
    }
    if (next) {
      c.chosen = { path: [...chosen.path, cell], node: next };
      say(`${c.chosen.path.join("x")}: jump on, or ${c.goOn}.`);
      c.render();
      return;
    }
    if (chosen.path.length > 1) {
      say(`${cell} is not a landing cell of ${chosen.path.join("x")}.`, true);
      return;
    }
  }
  if (!letter) {
    say(`${cell} is empty: click a ${c.piece} to jump with.`, true);
    return;
  }
  try {
    const tree = await c.jumps(cell);
    if (!tree || tree.next.length === 0) {
      say(`The ${c.piece} on ${cell} has no jump.`, true);
      c.chosen = null;
    } else {
      c.chosen = { path: [cell], node: tree };
      say(`From ${cell}: choose where to land.`);
    }
  } catch (err) {
    say(`No jumps: ${reason(err)}`, true);
  }
  c.render();
}

export function drawBoard(
  rules: S["RuleSet"],
  grid: PositionView["grid"],
  view: Pick<View, "chosen" | "hint">,
  last: MoveRecord | undefined,
  click: (cell: string, letter: string | null) => Promise<void>,
): SVGSVGElement {
  const rows = grid.length;
  const cols = grid[0]?.length ?? 0;
  const size = 40;
  // On `hex` directions the grid is hexagonal in axial coordinates (rule
  // book §12): the cell on file f and rank r (from 0) stands at x = f − r/2
  // and one row of √3/2 up per rank, so its six neighbours surround it.
  const hex = rules.directions === "hex";
  const rowHeight = hex ? (size * Math.sqrt(3)) / 2 : size;
  const shift = hex ? (rows - 1) / 2 : 0;
  const centre = (c: number, r: number): [number, number] => {
    const rank = rows - 1 - r;
    return [(c - (hex ? rank / 2 : 0) + shift) * size + size / 2, r * rowHeight + size / 2];
  };
  // Coordinates in proportion to the board, so that a board shrunk to a
  // phone's width (some 326 px of a 390 px screen) still shows them at 11
  // px or more: 1/24 of the board's width keeps them above 11.5 px at any
  // size (and 10 units, on small boards, more than that).
  const width = (cols + shift) * size;
  const coord = Math.max(10, Math.ceil((cols * size) / 24));
  const margin = coord + 8;
  const height = (rows - 1) * rowHeight + size;
  const svg = s("svg", { class: `board${hex ? " hex" : ""}`, viewBox: `0 0 ${width + margin * 2} ${height + margin * 2}`, role: "grid", "aria-label": "the board" });
  const targets = new Set((view.chosen?.node.next ?? []).map((n) => n.cell));
  const chosen = new Set(view.chosen?.path ?? []);
  const hint = new Set(view.hint);
  const lastCells = new Set(last ? [...last.path, ...last.captures] : []);
  // A hexagon with its points up, touching its neighbours' sides.
  const hexagon = (x: number, y: number): string => {
    const radius = size / Math.sqrt(3);
    return [30, 90, 150, 210, 270, 330].map((a) => {
      const t = (a * Math.PI) / 180;
      return `${(x + radius * Math.cos(t)).toFixed(1)},${(y + radius * Math.sin(t)).toFixed(1)}`;
    }).join(" ");
  };
  grid.forEach((line, r) => {
    const rank = rows - r;
    const row = s("g", { role: "row" });
    line.forEach((letter, c) => {
      const cell = cellName(c, rank);
      const masked = letter === "-";
      // A hexagonal board is drawn by its cells alone.
      if (masked && hex) return;
      const classes = ["cell", masked ? "masked" : "", targets.has(cell) ? "target" : "", chosen.has(cell) ? "chosen" : "",
        hint.has(cell) ? "hint" : "", lastCells.has(cell) ? "last" : ""].filter(Boolean).join(" ");
      const label = masked ? `${cell}, no cell` : letter ? `${cell}, ${kindName(rules, letter)}` : `${cell}, empty${targets.has(cell) ? ", a landing cell" : ""}`;
      const g = s("g", { class: classes, role: "gridcell", "aria-label": label, "data-cell": cell });
      if (!masked) g.setAttribute("tabindex", "0");
      const [cx, cy] = centre(c, r).map((v) => v + margin) as [number, number];
      g.append(hex ? s("polygon", { class: "shape", points: hexagon(cx, cy) })
        : s("rect", { class: "shape", x: cx - size / 2, y: cy - size / 2, width: size, height: size }));
      if (hex) {
        // The cell's name, under its piece: files run along the rows, ranks
        // up and to the left.
        const name = s("text", { class: "name", x: cx, y: cy + size * 0.32, "font-size": size * 0.22, "text-anchor": "middle" });
        name.textContent = cell;
        g.append(name);
      }
      if (letter && !masked) {
        g.append(s("circle", { class: "piece", cx, cy, r: size * (hex ? 0.3 : 0.36), fill: colourOf(rules, letter) }));
      }
      if (targets.has(cell)) g.append(s("circle", { class: "dot", cx, cy, r: size * 0.12 }));
      if (!masked) {
        const go = (): void => void click(cell, letter ?? null);
        g.addEventListener("click", go);
        g.addEventListener("keydown", (e) => {
          if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); }
        });
      }
      row.append(g);
    });
    svg.append(row);
    if (hex) return;
    const t = s("text", { class: "coord", x: margin - 4, y: margin + r * size + size / 2, "font-size": coord,
      "text-anchor": "end", "dominant-baseline": "central" });
    t.textContent = String(rank);
    svg.append(t);
  });
  for (let c = 0; c < cols && !hex; c++) {
    const t = s("text", { class: "coord", x: margin + c * size + size / 2, y: margin + rows * size + coord, "font-size": coord,
      "text-anchor": "middle" });
    t.textContent = String.fromCharCode(97 + c);
    svg.append(t);
  }
  // The keyboard's focus ring, drawn last so that no neighbour covers it:
  // a copy of the focused cell's outline.
  const ring = s("g", { class: "focus-ring" });
  svg.append(ring);
  svg.addEventListener("focusin", (e) => {
    const cell = e.target instanceof Element ? e.target.closest("[data-cell]") : null;
    const shape = cell?.querySelector(".shape");
    if (!shape || !cell?.matches(":focus-visible")) return;
    ring.replaceChildren(shape.cloneNode(false));
  });
  svg.addEventListener("focusout", () => ring.replaceChildren());
  return svg;
}
