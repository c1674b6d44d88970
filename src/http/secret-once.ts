// The "shows a secret once" route trait: a route whose response holds a secret (a new key, a
// webhook URL) declares `secretOnce` where it is defined, and the idempotency layer never stores it.
import { Elysia } from "elysia";
import { metaOf, type SecretOnce } from "./context.ts";

export type { SecretOnce } from "./context.ts";

/**
 * Use it on a routes instance, then declare `{ secretOnce: true }` (or a predicate) on a route.
 * The mark is taken before the handler runs, so it holds whatever the handler does.
 */
export const secretOnce = new Elysia({ name: "secret-once" }).macro({
  secretOnce: (value: SecretOnce) => {
    if (!value) return;
    return {
      beforeHandle({ request }) {
        metaOf(request).secretResponse = value;
      },
    };
  },
});

/** Whether this response shows a secret once, by the trait its route declared. */
export function showsSecret(request: Request, response: unknown): boolean {
  const mark = metaOf(request).secretResponse;
  if (typeof mark === "function")
    return typeof response === "object" && response !== null && mark(response as Record<string, unknown>);
  return mark === true;
}
