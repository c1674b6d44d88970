// The browser tests' page audit: axe-core (serious and critical violations) and sideways overflow, in
// the light and the dark color scheme, at desktop and phone width (390 px). E2E_SCREENSHOT_DIR=<dir>
// also saves a full-page PNG of each state, scheme and width there, to look at.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";

export const AXE_SOURCE = await Bun.file(require.resolve("axe-core/axe.min.js")).text();
export const SHOTS = process.env.E2E_SCREENSHOT_DIR;
if (SHOTS) mkdirSync(SHOTS, { recursive: true });
export const SCHEMES = ["light", "dark"] as const;
export const WIDTHS = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

export interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/** The part of axe-core's API used here, on the page once injected. */
interface AxeWindow {
  axe: { run(context: Document, options: { resultTypes: string[] }): Promise<{ violations: Violation[] }> };
}

/** axe's violations on the page as it stands, injecting axe first (the context must bypass the CSP). */
export async function axeViolations(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ content: AXE_SOURCE });
  return page.evaluate(() =>
    (window as unknown as AxeWindow).axe.run(document, { resultTypes: ["violations"] }).then((r) => r.violations),
  );
}

/**
 * Audits the page as it stands in each scheme and width: every violation, labelled, and the widths at
 * which the page overflowed sideways.
 */
export async function audit(page: Page, state: string): Promise<{ violations: string[]; overflow: string[] }> {
  const violations: string[] = [];
  const overflow: string[] = [];
  for (const scheme of SCHEMES) {
    for (const size of WIDTHS) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width: size.width, height: size.height });
      const label = `${state} · ${scheme} · ${size.name}`;
      if (SHOTS) await page.screenshot({ path: join(SHOTS, `${state}-${scheme}-${size.name}.png`), fullPage: true });
      const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (wide > 0) overflow.push(`${label}: ${wide}px too wide`);
      for (const v of await axeViolations(page))
        violations.push(
          `${label}: [${v.impact}] ${v.id} (${v.help}) at ${v.nodes.map((n) => JSON.stringify(n.target)).join(", ")}`,
        );
    }
  }
  return { violations, overflow };
}

/** Only the serious and critical ones: what fails a test. */
export const blocking = (violations: string[]) => violations.filter((v) => /\[(serious|critical)\]/.test(v));
