// One Server-Sent Events stream of one user's events: resume from the outbox after Last-Event-ID,
// then live events from the hub, heartbeats, and a clean end when the client goes away.
import { AppError, invalid } from "../../errors.ts";
import type { LiveEvent, LiveHub } from "./live.ts";
import type { AppEvent, EventsService, PublishedEvent } from "./service.ts";

export interface StreamDeps {
  events: EventsService;
  hub: LiveHub;
  heartbeatMs: number;
}

export interface StreamRequest {
  userId: string;
  /** The Last-Event-ID header, or the last_event_id query parameter. */
  lastEventId: string | null | undefined;
  /** Aborted when the client disconnects. */
  signal?: AbortSignal;
  /** Sets the connection's idle timeout (seconds); called once the stream is accepted. */
  setIdleTimeout?: (seconds: number) => void;
}

/** What a client waits before reconnecting, sent once in the stream's first lines. */
export const RETRY_MS = 3000;
/** Events read from the outbox per pull while catching up. */
const REPLAY_PAGE = 200;
/**
 * A stream's connection idle timeout: two heartbeats, so one late beat is not fatal, and a finite
 * one, so a connection whose peer vanished without a FIN is still closed. Bun's limit is 255 s.
 */
export const streamIdleSeconds = (heartbeatMs: number) =>
  Math.min(255, Math.max(1, Math.ceil((2 * heartbeatMs) / 1000)));
/** Frames queued for a client that does not read before it is served from the outbox instead. */
const MAX_QUEUED = 256;
const CURSOR_RE = /^\d{1,15}$/;

const encoder = new TextEncoder();

/** The envelope every event's data line carries; `id` is null for live-only events. */
export function envelope(e: AppEvent | PublishedEvent) {
  return { id: "seq" in e ? e.id : null, type: e.type, occurred_at: e.occurred_at, data: e.data };
}

/** JSON never contains a raw line break, so one data line carries the whole event. */
const frame = (cursor: number, e: AppEvent | PublishedEvent) =>
  `id: ${cursor}\nevent: ${e.type}\ndata: ${JSON.stringify(envelope(e))}\n\n`;

/** Parses a resume cursor; a malformed one is refused rather than silently skipping events. */
export function parseCursor(raw: string | null | undefined): number | null {
  if (raw === null || raw === undefined || raw.trim() === "") return null;
  const v = raw.trim();
  if (!CURSOR_RE.test(v))
    throw invalid("last_event_id", "must be the id of an event from this stream (a whole number)");
  return Number(v);
}

export const EVENT_STREAM_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-store",
  // Proxies such as nginx would otherwise hold events back in a buffer.
  "x-accel-buffering": "no",
};

export async function openEventStream(deps: StreamDeps, req: StreamRequest): Promise<Response> {
  const { events, hub } = deps;
  const requested = parseCursor(req.lastEventId);
  const latest = await events.latestSeq();
  // A cursor beyond the outbox (a restored backup, another server) resumes from the newest event.
  let lastSent = requested === null ? latest : Math.min(requested, latest);
  let replaying = requested !== null;
  let closed = false;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let heartbeat: ReturnType<typeof setInterval> | undefined;

  const send = (text: string) => controller.enqueue(encoder.encode(text));
  const backedUp = () => (controller.desiredSize ?? 0) < -MAX_QUEUED;

  function sendProgressSnapshots(): void {
    for (const p of hub.progressOf(req.userId)) send(frame(lastSent, p));
  }

  function deliver(e: LiveEvent): void {
    if (closed || replaying) return; // while catching up, the outbox read covers stored events
    if ("stored" in e) {
      if (e.stored.seq <= lastSent) return;
      if (backedUp()) {
        // A client that stopped reading is served from the outbox when it reads again.
        replaying = true;
        return;
      }
      send(frame(e.stored.seq, e.stored));
      lastSent = e.stored.seq;
    } else if (!backedUp()) {
      send(frame(lastSent, e.published));
    }
  }

  if (hub.isClosed()) throw new AppError("service_unavailable", "The server is shutting down; reconnect in a moment");
  const unsubscribe = await hub.subscribe(req.userId, { deliver, end: () => onAbort() });
  if (!unsubscribe) {
    throw new AppError("rate_limited", "Too many event streams are open for this account; close one and try again", {
      headers: { "retry-after": String(Math.ceil(RETRY_MS / 1000)) },
    });
  }

  // Only now, with the caller accepted and the stream admitted, may the connection stay quiet longer
  // than the server's idle timeout (heartbeats keep it busy well within this).
  req.setIdleTimeout?.(streamIdleSeconds(deps.heartbeatMs));

  function cleanup(): void {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    unsubscribe!();
    req.signal?.removeEventListener("abort", onAbort);
  }
  function onAbort(): void {
    cleanup();
    try {
      controller.close();
    } catch {
      // already closed or cancelled
    }
  }

  const body = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        // The id line without data sets the client's cursor, so a reconnect before any event still resumes.
        send(`retry: ${RETRY_MS}\nid: ${lastSent}\n: connected\n\n`);
        if (!replaying) sendProgressSnapshots();
        heartbeat = setInterval(() => {
          if (closed) return;
          // A client that has read nothing for this long is gone or stuck: end; it can resume.
          if (backedUp()) return onAbort();
          send(": heartbeat\n\n");
        }, deps.heartbeatMs);
        if (req.signal?.aborted) onAbort();
        else req.signal?.addEventListener("abort", onAbort);
      },
      async pull() {
        if (closed || !replaying) return;
        const page = await events.afterForUser(req.userId, lastSent, REPLAY_PAGE);
        for (const e of page) {
          send(frame(e.seq, e));
          lastSent = e.seq;
        }
        if (page.length < REPLAY_PAGE) {
          // Caught up: the page read everything committed so far, so live events continue from here.
          replaying = false;
          sendProgressSnapshots();
        }
      },
      cancel() {
        cleanup();
      },
    },
    { highWaterMark: 1 },
  );
  return new Response(body, { headers: EVENT_STREAM_HEADERS });
}
