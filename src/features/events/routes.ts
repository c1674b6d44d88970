// GET /api/v1/events/stream: the caller's own events as Server-Sent Events (the web app opens the
// same stream with its session at /events/stream).
import { Elysia, t } from "elysia";
import { actorOf } from "../../http/auth.ts";
import { setIdleTimeout } from "../../http/context.ts";
import type { StreamDeps } from "./stream.ts";
import { RUN_EVENT_TYPES, EVENT_TYPES, PROGRESS_EVENT_TYPES } from "./service.ts";
import { openEventStream, RETRY_MS } from "./stream.ts";

const DESCRIPTION = `A stream of your own events, as Server-Sent Events (text/event-stream), until you close it.

Each event has an \`id:\` (a cursor), an \`event:\` (its type) and one \`data:\` line of JSON:
\`{"id": "evt_…" | null, "type": "…", "occurred_at": "…", "data": {…}}\`, where \`data\` is the object as the API shows it.

Types: ${[...EVENT_TYPES, ...RUN_EVENT_TYPES, ...PROGRESS_EVENT_TYPES].map((x) => `\`${x}\``).join(", ")}.
\`run.*\` carry the run without its trigger body and step inputs or outputs (read \`GET /runs/{id}\` for those);
\`run.step_finished\` carries \`step\` (status \`succeeded\`, \`failed\` or \`waiting\` for a retry).
\`podcast.progress\` (\`{id, status, phase: script|speech|encoding, percent, detail}\`) is live only: not stored,
never replayed, at most a few per second; its \`id:\` repeats the last stored event's cursor.
\`import.progress\` (\`{id, status, counts}\`, the import's counts as \`GET /imports/{id}\` shows them) is live only too:
one after each slice of entries applied and when the import's status changes.
\`search_quality.progress\` (\`{id, status, progress: {done, total}, percent}\`) is live only too: one after each
sampled source's searches and when the run's status changes (\`GET /search/quality\` has the report).

**Resume:** send the last \`id:\` you saw as the \`Last-Event-ID\` header (browsers do this when they reconnect)
or as \`?last_event_id=\`; the header wins. Events stored after it are replayed first, then the stream goes live.
Without either, the stream starts at the newest event. The first lines set \`retry: ${RETRY_MS}\` and the current cursor.

A comment line (\`: heartbeat\`) is sent every EVENTS_HEARTBEAT_MS (15 s by default). Each connection is one
stream; at most EVENTS_MAX_STREAMS_PER_USER are open per account (429 beyond).`;

const Query = t.Object({
  last_event_id: t.Optional(
    t.String({ maxLength: 20, description: "Resume after this event id (the Last-Event-ID header wins)" }),
  ),
});

export function eventRoutes(s: { live: StreamDeps }) {
  return (
    new Elysia({ tags: ["Events"] })
      // GET /api/v1/events/stream
      .get(
        "/events/stream",
        ({ request, query }) =>
          openEventStream(s.live, {
            userId: actorOf(request).userId,
            lastEventId: request.headers.get("last-event-id") ?? query.last_event_id,
            signal: request.signal,
            setIdleTimeout: (seconds) => setIdleTimeout(request, seconds),
          }),
        {
          query: Query,
          detail: {
            operationId: "streamEvents",
            summary: "Stream your events (Server-Sent Events) with Last-Event-ID resume",
            description: DESCRIPTION,
            responses: {
              200: {
                description: "An open event stream",
                content: {
                  "text/event-stream": {
                    schema: { type: "string" },
                    example:
                      'id: 42\nevent: source.updated\ndata: {"id":"evt_…","type":"source.updated","occurred_at":"…","data":{"id":"src_…","status":"ready"}}\n\n',
                  },
                },
              },
            },
          },
        },
      )
  );
}
