// Worker thread for extraction: HTML and PDF parsing run here, so a hostile page never blocks HTTP.
import { serveThread } from "../../../../threads/serve.ts";
import { extract } from "./index.ts";
import type { ExtractTask } from "./pool-protocol.ts";

declare var self: Worker;

serveThread(self, (task: ExtractTask) => extract(task.input, task.limits));
