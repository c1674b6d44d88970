// Worker thread for import files: every format's parser runs here (see parser.ts).
import { serveThread } from "../../../threads/serve.ts";
import { parseTask, type ParseTask, type Parsed } from "./parser.ts";

declare var self: Worker;

serveThread(
  self,
  (task: ParseTask) => parseTask(task),
  (result: Parsed) => [result.stored.buffer as ArrayBuffer],
);
