import { join } from "node:path";
import { systemActor } from "../src/actor.ts";
import { rankSentences, selectSentences, usableSentences } from "../src/ai/chat/builtin.ts";
import { displayText } from "../src/ai/chat/sentence-filter.ts";
import { asSqlite } from "../src/db/client.ts";
import { buildLibrary, loadSet } from "./lib/eval-library.ts";
const set = loadSet("default", join(import.meta.dir, "..", "test", "fixtures", "search"));
const lib = await buildLibrary(set);
const user = asSqlite(lib.db).sqlite.query<{ id: string }, []>("SELECT id FROM users LIMIT 1").get()!;
const actor = systemActor(user.id, "x");
for (const question of process.argv.slice(2)) {
  const passages = await lib.services.ask.passages(actor, { question });
  const ranked = await rankSentences(question, passages, lib.services.ai.embedder);
  console.log(`\nQ: ${question}`);
  for (const c of ranked.slice(0, 8))
    console.log(
      `  ${c.learned.toFixed(2)} s${c.score.toFixed(2)} sem${c.semantic.toFixed(2)} t${+c.typed}${+c.typedNear} [${c.n}] ${displayText(c.text).slice(0, 110)}`,
    );
  const picked = selectSentences(ranked, usableSentences(question, passages, ranked), question);
  console.log("  picked:", picked.map((c) => displayText(c.text).slice(0, 50)).join(" | "));
}
process.exit(0);
