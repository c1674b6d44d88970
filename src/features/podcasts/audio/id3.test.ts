// The ID3v2.3 tag: frames read back by an independent reader, and MP3 parsing and duration unaffected.
import { describe, expect, test } from "bun:test";
import { readId3v2 } from "../testing.ts";
import { id3v2Tag } from "./id3.ts";
import { encodeMp3 } from "./mp3-encode.ts";
import { parseMp3Frames } from "./mp3-parse.ts";

const tone = (seconds: number, rate: number) =>
  Float32Array.from({ length: seconds * rate }, (_, i) => 0.3 * Math.sin((2 * Math.PI * 220 * i) / rate));

describe("id3v2Tag", () => {
  test("Latin-1 fields: TIT2, TPE1, TALB, TYER and COMM read back", () => {
    const tag = id3v2Tag({
      title: "Tide pools: a deep dive",
      artist: "Commonplace",
      album: "Commonplace podcasts",
      year: "2025",
      comment: "Deep dive",
    });
    expect(readId3v2(tag)).toEqual({
      version: 3,
      size: tag.length,
      frames: {
        TIT2: "Tide pools: a deep dive",
        TPE1: "Commonplace",
        TALB: "Commonplace podcasts",
        TYER: "2025",
        COMM: "Deep dive",
      },
    });
  });

  test("other scripts are written as UTF-16; control characters become spaces", () => {
    const tag = id3v2Tag({
      title: "Café — 東京 🌊\nnotes",
      artist: "Commonplace",
      album: "Commonplace podcasts",
      comment: "Ünïcode ✓",
    });
    expect(readId3v2(tag)!.frames).toEqual({
      TIT2: "Café — 東京 🌊 notes",
      TPE1: "Commonplace",
      TALB: "Commonplace podcasts",
      COMM: "Ünïcode ✓",
    });
  });

  test("the size bytes are syncsafe (no high bit) even for a long title", () => {
    const tag = id3v2Tag({ title: "x".repeat(900), artist: "a", album: "b" });
    expect([...tag.subarray(6, 10)].every((b) => b < 0x80)).toBe(true);
    expect(readId3v2(tag)!.frames.TIT2).toBe("x".repeat(900));
  });

  test("an MP3 with the tag in front parses to the same frames and duration", () => {
    const mp3 = encodeMp3(tone(3, 24000), 24000);
    const tag = id3v2Tag({ title: "T", artist: "Commonplace", album: "Commonplace podcasts" });
    const tagged = new Uint8Array(tag.length + mp3.length);
    tagged.set(tag);
    tagged.set(mp3, tag.length);
    expect(parseMp3Frames(tagged)).toEqual(parseMp3Frames(mp3));
  });
});
