// The pieces as people see them: colours, names, worth, and the games' names.
import { h } from "./dom.js";
export const COLOURS = {
    white: "#fbfbf6", yellow: "#f2cf2f", red: "#cf3324", green: "#3c9a45", blue: "#2c62c9",
    black: "#1f1f1f", piece: "#8a5a2b",
};
export const SPARE = ["#8a5a2b", "#7b4fa8", "#2aa6a6", "#d9822b", "#6c757d"];
export function colourOf(rules, letter) {
    const i = rules.kinds.findIndex((k) => k.letter === letter);
    const kind = rules.kinds[i];
    return (kind && COLOURS[kind.name.toLowerCase()]) ?? SPARE[Math.max(i, 0) % SPARE.length] ?? "#888";
}
/** What each kind of piece is worth, with its colour; none for a single kind. */
export function legend(rules) {
    if (rules.kinds.length < 2)
        return null;
    return h("p", { class: "legend", id: "legend", "aria-label": "what each piece is worth" }, ...rules.kinds.map((k) => {
        const swatch = h("span", { class: "swatch" });
        // Through the style object: the page's policy refuses style attributes.
        swatch.style.backgroundColor = colourOf(rules, k.letter);
        return h("span", { class: "key" }, swatch, `${k.name} ${k.value}${k.value === 1 ? " point" : " points"}`);
    }));
}
/** The games' names, by preset id. */
export const GAME_NAMES = {
    murray: "Leap Frog (Murray, coloured)",
    old: "Leap Frog (old)",
    froglet: "Froglet",
    konane: "Konane",
    capture: "Capture (Chinese checkers)",
    english: "Peg solitaire (English)",
    triangle: "Peg solitaire (triangle)",
};
/** The games the page offers to create (peg solitaire is a puzzle of its
 * own, see puzzle.ts). */
export const OFFERED = ["murray", "old", "froglet", "konane", "capture"];
/** A game's name as people say it: its preset's, or its own rule set's. */
export function gameName(rules) {
    const name = rules.preset ? GAME_NAMES[rules.preset] : rules.name;
    // A hexagon is sized by its side.
    if (rules.preset === "capture")
        return `${name}, side ${(rules.rows + 1) / 2}`;
    return `${name}, ${rules.rows}×${rules.cols}`;
}
export function kindName(rules, letter) {
    return rules.kinds.find((k) => k.letter === letter)?.name ?? letter;
}
