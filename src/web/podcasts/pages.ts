// Podcast pages: the list and an episode's page (status and progress, player, transcript, download).
import type { PodcastPublic } from "../../features/podcasts/schema.ts";
import { html, type Flash, type LayoutUser, type SafeHtml } from "../../http/html/html.ts";
import { libraryPage, pager, select, when } from "../library/common.ts";
import { liveAttrs } from "../live.ts";
import { formatLabel } from "./format-picker.ts";

const STATUS_WORDS: Record<PodcastPublic["status"], string> = {
  queued: "Queued",
  generating: "Generating",
  ready: "Ready",
  failed: "Failed",
};

const FAILURES: Record<string, string> = {
  no_content: "the sources had no text to talk about",
  script_invalid: "the script could not be written in a usable form",
  script_failed: "the AI model server could not write the script",
  speech_failed: "the speech could not be made",
  insufficient_credit: "there were not enough AI credits",
  storage_failed: "the audio could not be stored",
  generation_stopped: "generation stopped before it finished",
  internal_error: "something went wrong on the server",
};

export const failureWords = (code: string | null) =>
  code ? (FAILURES[code] ?? code.replace(/_/g, " ")) : "generation failed";

/** 754.3 → "12:34"; hours when needed. */
export function clock(seconds: number | null): string {
  if (seconds === null) return "—";
  const s = Math.round(seconds);
  const mmss = `${Math.floor((s % 3600) / 60)}:${String(s % 60).padStart(2, "0")}`;
  return s >= 3600 ? `${Math.floor(s / 3600)}:${mmss.padStart(5, "0")}` : mmss;
}

/** The status badge, in the words the page uses ("Ready"), never the raw status. */
export function podcastBadge(p: Pick<PodcastPublic, "status" | "error">): SafeHtml {
  return html`<span class="status ${p.status}"${p.error ? html` title="${p.error}"` : ""}>${STATUS_WORDS[p.status]}</span>`;
}

/** An episode's line in the list; the live script swaps in a fresh one when the episode changes. */
export function podcastRow(p: PodcastPublic): SafeHtml {
  return html`<li${liveAttrs({ kind: "podcast", id: p.id, fragment: `/podcasts/${p.id}/live?part=row` })}>
  <a class="title" href="/podcasts/${p.id}">${p.title}</a>
  <div class="meta">
    <span>${formatLabel(p.format)}</span>
    ${podcastBadge(p)}
    ${p.duration_seconds === null ? "" : html`<span>Length ${clock(p.duration_seconds)}</span>`}
    <span>Created ${when(p.created_at)}</span>
  </div>
</li>`;
}

export interface ListPageInput {
  user: LayoutUser;
  podcasts: PodcastPublic[];
  next: string | null;
  status?: string;
  flash?: Flash;
  /** The event cursor the list was read at. */
  since?: number;
}

export function podcastListPage(p: ListPageInput): Response {
  const statuses = [
    { value: "", label: "Any status" },
    ...Object.entries(STATUS_WORDS).map(([value, label]) => ({ value, label })),
  ];
  const empty = p.status
    ? html`<p class="muted">No episodes with this status.</p>`
    : html`<p class="muted">No episodes yet. Make one from a <a href="/library">source</a>, several sources or a <a href="/notebooks">notebook</a>.</p>`;
  const body = html`<h1>Podcasts</h1>
<p><a href="/podcasts/new">Make a podcast</a></p>
<form method="get" action="/podcasts" class="filters">
  <div><label for="f-status">Status</label>${select("status", "f-status", statuses, p.status)}</div>
  <button type="submit" class="secondary">Filter</button>
  ${p.status ? html`<a href="/podcasts">Clear</a>` : ""}
</form>
${p.podcasts.length ? html`<ul class="items"${p.since === undefined ? "" : html` data-live-since="${p.since}"`}>${p.podcasts.map(podcastRow)}</ul>` : empty}
${pager("/podcasts", { status: p.status }, p.next)}`;
  return libraryPage({ title: "Podcasts", user: p.user, body, flash: p.flash });
}

/** Where the episode came from, as links; sources deleted since are left out. */
export interface Origin {
  sources: { id: string; title: string }[];
  notebook?: { id: string; name: string };
}

/**
 * Status with, while the episode is being made, a bar and the step it is at: the live script moves
 * both with each progress note and swaps the whole region (status, player, transcript) when the
 * episode changes. Without script, a reload shows where it is.
 */
function statusSection(p: PodcastPublic): SafeHtml {
  const working = p.status === "queued" || p.status === "generating";
  return html`<section class="card podcast-status" aria-label="Status">
  <span>Status:</span> ${podcastBadge(p)}
  ${
    working
      ? html`<progress data-live-progress max="100" aria-label="Generation progress">${STATUS_WORDS[p.status]}</progress>
  <span class="muted"><span data-live-field="detail">${p.status === "queued" ? "Waiting for its turn." : "Writing the script and recording the voices."}</span>
  <noscript><a href="/podcasts/${p.id}">Reload</a> to see where it is.</noscript></span>`
      : ""
  }
</section>`;
}

function failure(p: PodcastPublic, origin: Origin): SafeHtml {
  const again = origin.notebook
    ? `notebook=${origin.notebook.id}`
    : origin.sources.map((s) => `source=${s.id}`).join("&");
  return html`<div class="flash error" role="alert"><p><strong>This episode could not be made:</strong> ${failureWords(p.error)}.</p>
  ${p.error_detail ? html`<p>${p.error_detail}</p>` : ""}
  <p>No credits were charged for it. ${again ? html`<a href="/podcasts/new?${again}&amp;format=${p.format}">Try again</a>` : ""}</p></div>`;
}

function player(p: PodcastPublic): SafeHtml {
  const kb = p.audio_bytes === null ? "" : ` (${Math.max(1, Math.round(p.audio_bytes / 1024))} KB)`;
  return html`<audio controls preload="metadata" src="/podcasts/${p.id}/audio">Your browser cannot play audio here; <a href="/podcasts/${p.id}/audio?download=1">download the MP3</a>.</audio>
<p class="row-actions"><span>Length ${clock(p.duration_seconds)}</span>
  <a href="/podcasts/${p.id}/audio?download=1" download>Download MP3${kb}</a>
  ${p.credits_used === null ? "" : html`<span class="muted">Cost ${p.credits_used} credits</span>`}</p>`;
}

function transcript(p: PodcastPublic): SafeHtml {
  if (!p.transcript?.length) return html``;
  const roles = new Map(p.speakers.map((s) => [s.name, s.role]));
  return html`<h2>Transcript</h2>
<p class="muted">Speakers: ${p.speakers.map((s, i) => html`${i ? ", " : ""}${s.name} (${s.role})`)}</p>
<ol class="transcript">${p.transcript.map(
    (t) =>
      html`<li><span class="speaker">${t.speaker}${roles.has(t.speaker) ? html` <span class="muted">· ${roles.get(t.speaker)}</span>` : ""}</span><p>${t.text}</p></li>`,
  )}</ol>`;
}

/** Everything on an episode's page that changes as it is made: the region the live script refreshes. */
export function podcastLive(pod: PodcastPublic, origin: Origin, since?: number): SafeHtml {
  const announce = `Status: ${STATUS_WORDS[pod.status]}${pod.status === "ready" ? ". The player and transcript are shown." : ""}`;
  return html`<div class="podcast-live"${liveAttrs({ kind: "podcast", id: pod.id, fragment: `/podcasts/${pod.id}/live`, since, announce })}>
${statusSection(pod)}
${pod.status === "failed" ? failure(pod, origin) : ""}
${pod.status === "ready" ? player(pod) : ""}
${transcript(pod)}
</div>`;
}

export function podcastPage(p: {
  user: LayoutUser;
  podcast: PodcastPublic;
  origin: Origin;
  flash?: Flash;
  since?: number;
}): Response {
  const pod = p.podcast;
  const from = [
    ...(p.origin.notebook
      ? [html`notebook <a href="/notebooks/${p.origin.notebook.id}">${p.origin.notebook.name}</a>`]
      : []),
    ...p.origin.sources.map((s) => html`<a href="/library/sources/${s.id}">${s.title}</a>`),
  ];
  const body = html`<p><a href="/podcasts">← Podcasts</a></p>
<h1>${pod.title}</h1>
<p class="meta muted">${formatLabel(pod.format)} · <span lang="${pod.language}">${pod.language}</span> · Created ${when(pod.created_at)}${from.length ? html` · From ${from.map((f, i) => html`${i ? ", " : ""}${f}`)}` : ""}</p>
${podcastLive(pod, p.origin, p.since)}
<h2>Delete</h2>
<p><a href="/podcasts/${pod.id}/delete">Delete this episode…</a> <span class="muted">Its audio file goes too; its sources are kept.</span></p>`;
  // media-src even before it is ready: a live update may show the player without a reload.
  return libraryPage({ title: pod.title, user: p.user, body, flash: p.flash, media: true });
}
