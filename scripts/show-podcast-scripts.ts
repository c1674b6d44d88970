// Prints the builtin writer's six transcripts for the script-quality fixtures (or a Markdown file given as argument), to read them.
import { FORMATS, PODCAST_FORMATS } from "../src/features/podcasts/formats.ts";
import { ARTICLES } from "../src/features/podcasts/fixtures/articles.ts";
import { createBuiltinScriptWriter } from "../src/features/podcasts/script/builtin.ts";

const writer = createBuiltinScriptWriter();
const file = process.argv[2];
const only = process.argv[3];
const articles = file
  ? [{ title: (await Bun.file(file).text()).match(/^# (.*)$/m)?.[1] ?? file, markdown: await Bun.file(file).text() }]
  : ARTICLES;
for (const a of articles) {
  for (const format of PODCAST_FORMATS) {
    if (only && format !== only) continue;
    const turns = await writer.write({
      spec: FORMATS[format],
      title: a.title,
      language: "en",
      documents: [{ id: "s", title: a.title, markdown: a.markdown }],
    });
    const words = turns.reduce((n, t) => n + t.text.split(/\s+/).length, 0);
    console.log(`\n=== ${a.title} · ${format} · ${words} words ===`);
    for (const t of turns) console.log(`${t.speaker}: ${t.text}`);
  }
}
