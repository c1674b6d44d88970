// Tiny DOM helpers for the popup and options page (no framework; strict CSP, no inline script).
export function $<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} is missing`);
  return el as T;
}

export function show(el: HTMLElement, visible: boolean): void {
  el.hidden = !visible;
}

/** How a state line reads: an error or a success in a tinted box, quiet as a muted aside, else plain. */
export type Tone = "error" | "ok" | "quiet";

/** Writes a state line (a role=status element) in the given tone. */
export function announce(el: HTMLElement, text: string, tone?: Tone): void {
  el.textContent = text;
  for (const t of ["error", "ok", "quiet"] as const) el.classList.toggle(t, t === tone);
}
