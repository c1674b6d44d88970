-- The daily blob sweep asks, 500 listed keys at a time, which of them a row still names: a podcast's
-- audio, a kept image of a source, a source's thumbnail. Without these indexes each question scanned the
-- three tables (on SQLite reading every source's text on the way to image_key).
CREATE INDEX podcasts_audio_path ON podcasts (audio_path) WHERE audio_path IS NOT NULL;
CREATE INDEX source_images_blob_key ON source_images (blob_key);
CREATE INDEX sources_image_key ON sources (image_key) WHERE image_key IS NOT NULL;
