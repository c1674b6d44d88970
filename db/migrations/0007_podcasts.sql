-- Podcasts: episodes made from sources, their generation state, transcript and audio file.
CREATE TABLE podcasts (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  format TEXT NOT NULL,
  language TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'queued',
  error TEXT,
  error_detail TEXT,
  -- JSON array of source ids, in the order given; kept when a source is later deleted.
  source_ids TEXT NOT NULL,
  notebook_id TEXT,
  origin TEXT NOT NULL,
  -- The generation job, so a job the queue gave up on is reported as a failed episode.
  job_id TEXT,
  -- JSON array of {speaker, text}; written once the script exists, so a retry reuses it.
  transcript TEXT,
  script_engine TEXT,
  speech_engine TEXT,
  credits_quoted INTEGER NOT NULL,
  credits_used INTEGER,
  duration_seconds REAL,
  -- Relative to the data directory; set only together with status 'ready'.
  audio_path TEXT,
  audio_bytes INTEGER,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  finished_at TEXT
);
CREATE INDEX podcasts_user_id ON podcasts(user_id, id);
CREATE INDEX podcasts_user_status ON podcasts(user_id, status);

-- One quick podcast per source, ever: the marker stays when the episode is deleted.
CREATE TABLE podcast_quick_sources (
  source_id TEXT PRIMARY KEY REFERENCES sources(id) ON DELETE CASCADE,
  podcast_id TEXT NOT NULL,
  created_at TEXT NOT NULL
);
