// Test helpers for podcasts: ready sources inserted directly, and reading an episode's MP3.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { newId } from "../../ids.ts";
import type { Services } from "../../services.ts";

export interface ReadySourceOptions {
  title?: string;
  markdown: string;
  language?: string | null;
  url?: string;
}

/** A source that has been fetched and extracted, without going through the network. */
export function insertReadySource(services: Services, userId: string, o: ReadySourceOptions): string {
  const id = newId("source");
  const at = new Date(services.clock.now()).toISOString();
  const url = o.url ?? `https://example.com/${id.toLowerCase()}`;
  const words = o.markdown.split(/\s+/).filter(Boolean).length;
  services.db.sqlite
    .query(
      `INSERT INTO sources (id, user_id, url, normalized_url, title, status, language, word_count, content, fetched_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 'ready', ?, ?, ?, ?, ?, ?)`,
    )
    .run(id, userId, url, url, o.title ?? "Life in the tide pools", o.language ?? "en", words, o.markdown, at, at, at);
  return id;
}

export function episodeFile(services: Services, podcastId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(readFileSync(join(services.config.dataDir, "podcasts", `${podcastId}.mp3`)));
}
