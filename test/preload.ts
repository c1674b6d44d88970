// Loaded before every test file (bunfig.toml [test] preload). Bun ignores `[test] timeout` in
// bunfig.toml, so its 5 s default would apply to every test that does not name its own limit; on a
// busy 2-core machine argon2 hashing, workers and child processes make ordinary tests take longer
// than that. A generous default keeps the suite honest there while a hung test still fails.
import { setDefaultTimeout } from "bun:test";

setDefaultTimeout(60_000);
