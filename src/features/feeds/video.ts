// Video-channel feeds: a YouTube channel or playlist page URL maps to its Atom feed; entries carry a video id.

export interface VideoSite {
  /** Host names whose channel URLs are recognised (lower case, with port if not the default). */
  hosts: readonly string[];
  /** Where feeds/videos.xml and watch?v= live, e.g. "https://www.youtube.com". Injectable for tests. */
  origin: string;
}

export const YOUTUBE: VideoSite = {
  hosts: ["www.youtube.com", "youtube.com", "m.youtube.com"],
  origin: "https://www.youtube.com",
};

const CHANNEL_PATH = /^\/channel\/(UC[A-Za-z0-9_-]{22})\/?(?:videos\/?|featured\/?|streams\/?)?$/;
const PLAYLIST_ID = /^[A-Za-z0-9_-]{10,64}$/;

/** The feed URL for a channel (/channel/UC…) or playlist (/playlist?list=…) page, or null for anything else. */
export function videoFeedUrl(raw: string, site: VideoSite = YOUTUBE): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (!site.hosts.includes(url.host.toLowerCase())) return null;
  const channel = CHANNEL_PATH.exec(url.pathname)?.[1];
  if (channel) return `${site.origin}/feeds/videos.xml?channel_id=${channel}`;
  const list = url.searchParams.get("list");
  if (url.pathname.replace(/\/$/, "") === "/playlist" && list && PLAYLIST_ID.test(list)) {
    return `${site.origin}/feeds/videos.xml?playlist_id=${encodeURIComponent(list)}`;
  }
  return null;
}

/** The canonical page of a video, used when an entry has no usable link. */
export function videoWatchUrl(videoId: string, site: VideoSite = YOUTUBE): string {
  return `${site.origin}/watch?v=${encodeURIComponent(videoId)}`;
}
