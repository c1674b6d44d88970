// The six podcast format names: a vocabulary shared by sources (quick podcasts), podcasts and workflows,
// outside every feature so that none of them depends on another just for these names.
export const PODCAST_FORMATS = ["solo_expert", "deep_dive", "brief", "critique", "debate", "unabridged"] as const;
export type PodcastFormat = (typeof PODCAST_FORMATS)[number];
export const DEFAULT_PODCAST_FORMAT: PodcastFormat = "deep_dive";
