// What kind of file a path under src/ is, for the layering and cycle checks.

/** Test support (fixtures, fake peers, setup helpers): imported by tests only, may seed rows directly. */
export const isTestSupport = (path: string) => /\/fixtures\/|\.fixture\.ts$|\/(testing|test-[\w-]+)\.ts$/.test(path);
