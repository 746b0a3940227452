// The board: a pure function from a position and what is being chosen to
// an SVG element, with the cells' names and colours and the focus ring.
import { s } from "./dom.js";
import { colourOf, kindName } from "./pieces.js";
export function cellName(file, rank) {
    return `${String.fromCharCode(97 + file)}${rank}`;
}
/** The grid of a position string's board (§8): letters for pieces, digits
 * for runs of empty cells, `-` for a cell the board does not have. */
export function gridOf(position) {
    const board = position.split(" ")[0] ?? "";
    return board.split("/").map((rank) => {
        const cells = [];
        for (const run of rank.match(/\d+|./g) ?? []) {
            if (/^\d+$/.test(run))
                cells.push(...Array(Number(run)).fill(null));
            else
                cells.push(run);
        }
        return cells;
    });
}
export function drawBoard(rules, grid, view, last, click) {
    const rows = grid.length;
    const cols = grid[0]?.length ?? 0;
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
    grid.forEach((line, r) => {
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
