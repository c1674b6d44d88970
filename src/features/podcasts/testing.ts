// Test helpers for podcasts: ready sources inserted directly, and reading an episode's MP3.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { sqlRows } from "../../db/inspect.ts";
import { newId } from "../../ids.ts";
import type { Services } from "../../services.ts";
import { TINY_ARTICLE } from "./testdata.ts";

export interface ReadySourceOptions {
  title?: string;
  markdown: string;
  language?: string | null;
  url?: string;
}

/** A source that has been fetched and extracted, without going through the network. */
export async function insertReadySource(services: Services, userId: string, o: ReadySourceOptions): Promise<string> {
  const id = newId("source");
  const at = new Date(services.clock.now()).toISOString();
  const url = o.url ?? `https://example.com/${id.toLowerCase()}`;
  const words = o.markdown.split(/\s+/).filter(Boolean).length;
  await sqlRows(
    services.db,
    `INSERT INTO sources (id, user_id, url, normalized_url, title, status, language, word_count, content, fetched_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, 'ready', ?, ?, ?, ?, ?, ?)`,
    id,
    userId,
    url,
    url,
    o.title ?? "Life in the tide pools",
    o.language ?? "en",
    words,
    o.markdown,
    at,
    at,
    at,
  );
  return id;
}

/** An API-key actor for a test user, and a ready source of the tiny article that user owns. */
export async function tinySourceOwner(services: Services, user: { userId: string; keyId: string }) {
  const actor = { userId: user.userId, auth: { type: "api_key" as const, key_id: user.keyId, key_name: "t" } };
  const sourceId = await insertReadySource(services, user.userId, { title: "Tide pools", markdown: TINY_ARTICLE });
  return { actor, sourceId };
}

export function episodeFile(services: Services, podcastId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(readFileSync(join(services.config.dataDir, "podcasts", `${podcastId}.mp3`)));
}

/** Reads an ID3v2.3 tag back independently of the writer: frame id → text (COMM: its text after the description). */
export function readId3v2(bytes: Uint8Array): { version: number; size: number; frames: Record<string, string> } | null {
  if (bytes.length < 10 || String.fromCharCode(bytes[0]!, bytes[1]!, bytes[2]!) !== "ID3") return null;
  const size = (bytes[6]! << 21) | (bytes[7]! << 14) | (bytes[8]! << 7) | bytes[9]!;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const frames: Record<string, string> = {};
  for (let at = 10; at + 10 <= 10 + size; ) {
    const id = String.fromCharCode(...bytes.subarray(at, at + 4));
    if (!/^[A-Z0-9]{4}$/.test(id)) break;
    const length = view.getUint32(at + 4);
    let body = bytes.subarray(at + 10, at + 10 + length);
    const utf16 = body[0] === 1;
    body = body.subarray(1);
    if (id === "COMM") {
      body = body.subarray(3); // language
      const end = utf16
        ? body.findIndex((_, i) => i % 2 === 0 && body[i] === 0 && body[i + 1] === 0) + 2
        : body.indexOf(0) + 1;
      body = body.subarray(end);
    }
    frames[id] = new TextDecoder(utf16 ? "utf-16" : "latin1").decode(body);
    at += 10 + length;
  }
  return { version: bytes[3]!, size: 10 + size, frames };
}
