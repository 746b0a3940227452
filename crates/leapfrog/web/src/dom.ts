// Small DOM helpers: elements, SVG elements, the message line, the main
// area, and what the page shown now does when it is left.

export type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | boolean | number | ((e: Event) => void)> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (typeof v === "function") el.addEventListener(k.replace(/^on/, ""), v);
    else if (typeof v === "boolean") {
      if (v) el.setAttribute(k, "");
    } else el.setAttribute(k, String(v));
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

export const SVG = "http://www.w3.org/2000/svg";
export function s<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number> = {}): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

export function say(text: string, error = false): void {
  const el = document.getElementById("status");
  if (!el) return;
  el.textContent = text;
  el.classList.toggle("error", error);
}

export function main(): HTMLElement {
  const el = document.getElementById("main");
  if (!el) throw new Error("no <main>");
  return el;
}

export function reason(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** What the page shown now does when it is left (stops its timers, closes its stream). */
let leaving: (() => void) | null = null;

/** Sets what the page shown now does when it is left. */
export function onLeave(then: () => void): void {
  leaving = then;
}

/** Leaves the page shown now. */
export function leave(): void {
  leaving?.();
  leaving = null;
}
