// Worker thread for import files: every format's parser runs here (see parser.ts).
import { serveThread } from "../../../threads/serve.ts";
import { parseImport } from "./index.ts";
import type { ParseTask } from "./parser.ts";

declare var self: Worker;

serveThread(self, (task: ParseTask) => parseImport(task.format, task.bytes, task.limits));
