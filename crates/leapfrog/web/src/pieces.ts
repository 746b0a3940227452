// The pieces as people see them: colours, names, worth, and the games' names.

import type { S } from "./types.js";
import { h } from "./dom.js";
import { api } from "./client.js";

export const COLOURS: Record<string, string> = {
  white: "#fbfbf6", yellow: "#f2cf2f", red: "#cf3324", green: "#3c9a45", blue: "#2c62c9",
  black: "#1f1f1f", piece: "#8a5a2b",
};
export const SPARE = ["#8a5a2b", "#7b4fa8", "#2aa6a6", "#d9822b", "#6c757d"];

export function colourOf(rules: S["RuleSet"], letter: string): string {
  const i = rules.kinds.findIndex((k) => k.letter === letter);
  const kind = rules.kinds[i];
  return (kind && COLOURS[kind.name.toLowerCase()]) ?? SPARE[Math.max(i, 0) % SPARE.length] ?? "#888";
}

/** What each kind of piece is worth, with its colour; none for a single kind. */
export function legend(rules: S["RuleSet"]): HTMLElement | null {
  if (rules.kinds.length < 2) return null;
  return h("p", { class: "legend", id: "legend", "aria-label": "what each piece is worth" },
    ...rules.kinds.map((k) => {
      const swatch = h("span", { class: "swatch" });
      // Through the style object: the page's policy refuses style attributes.
      swatch.style.backgroundColor = colourOf(rules, k.letter);
      return h("span", { class: "key" }, swatch, `${k.name} ${k.value}${k.value === 1 ? " point" : " points"}`);
    }));
}

/** The server's presets (`GET /v1/presets`), read once when the page
 * starts: their names, boards and rules are the server's, defined once in
 * the rules crate. */
let known: S["PresetInfo"][] = [];

export async function loadPresets(): Promise<void> {
  known = await api.presets();
}

/** A preset's name as people say it. */
export function presetName(id: S["PresetId"]): string {
  return known.find((p) => p.id === id)?.name ?? id;
}

/** The puzzles: presets played alone until no jump is left (peg
 * solitaire, see puzzle.ts). */
export function puzzles(): S["PresetId"][] {
  return known.filter((p) => p.rules.end === "pieces_left").map((p) => p.id);
}

/** The games the page offers to create: every other preset. */
export function offered(): S["PresetId"][] {
  return known.filter((p) => p.rules.end !== "pieces_left").map((p) => p.id);
}

/** A game's name as people say it: its preset's, or its own rule set's. */
export function gameName(rules: S["RuleSet"]): string {
  const name = rules.preset ? presetName(rules.preset) : rules.name;
  // A hexagon is sized by its side.
  if (rules.preset === "capture") return `${name}, side ${(rules.rows + 1) / 2}`;
  return `${name}, ${rules.rows}×${rules.cols}`;
}

export function kindName(rules: S["RuleSet"], letter: string): string {
  return rules.kinds.find((k) => k.letter === letter)?.name ?? letter;
}
