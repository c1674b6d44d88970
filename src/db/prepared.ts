// Drizzle statements prepared once per connection, inside a repository's query/exec callback:
// building drizzle SQL per call costs far more than running it.
import type { Conn, Orm } from "./port.ts";

/** Returns a getter that prepares `build(orm)` the first time a connection asks, then reuses it. */
export function preparedOn<T>(build: (orm: Orm) => T): (c: Conn) => T {
  const cache = new WeakMap<Orm, T>();
  return (c) => {
    let stmt = cache.get(c.orm);
    if (!stmt) cache.set(c.orm, (stmt = build(c.orm)));
    return stmt;
  };
}
