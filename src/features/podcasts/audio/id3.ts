// An ID3v2.3 tag for the front of an episode's MP3, so players and podcast apps show its title,
// artist and album instead of a file name. v2.3 is the version every player reads.

export interface Id3Fields {
  title: string;
  artist: string;
  album: string;
  /** Four digits (TYER in v2.3). */
  year?: string;
  /** Shown as the comment (COMM, language "eng", no description). */
  comment?: string;
}

const MAX_TEXT = 1000;

/** Latin-1 when every character fits, else UTF-16 with a byte-order mark (v2.3 has no UTF-8). */
function encodeText(text: string): Uint8Array {
  if (/^[\u0000-\u00ff]*$/.test(text)) return Uint8Array.from([0, ...[...text].map((c) => c.charCodeAt(0))]);
  const out = new Uint8Array(3 + text.length * 2);
  out.set([1, 0xff, 0xfe]);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i); // UTF-16 code units: surrogate pairs stay pairs
    out[3 + i * 2] = code & 0xff;
    out[4 + i * 2] = code >> 8;
  }
  return out;
}

function frame(id: string, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(10 + body.length);
  out.set([...id].map((c) => c.charCodeAt(0)));
  new DataView(out.buffer).setUint32(4, body.length); // v2.3 frame sizes are plain big-endian
  out.set(body, 10);
  return out;
}

const clean = (s: string) =>
  s
    .replace(/[\u0000-\u001f\u007f]+/g, " ")
    .trim()
    .slice(0, MAX_TEXT);

/** Text frames without terminators (optional in v2.3); a comment's description is empty. */
export function id3v2Tag(fields: Id3Fields): Uint8Array {
  const frames: Uint8Array[] = [
    frame("TIT2", encodeText(clean(fields.title))),
    frame("TPE1", encodeText(clean(fields.artist))),
    frame("TALB", encodeText(clean(fields.album))),
  ];
  if (fields.year && /^\d{4}$/.test(fields.year)) frames.push(frame("TYER", encodeText(fields.year)));
  if (fields.comment) {
    const text = encodeText(clean(fields.comment));
    // encoding byte, language, empty description (terminated; with its own BOM in UTF-16), then the text
    const description = text[0] === 1 ? [0xff, 0xfe, 0, 0] : [0];
    frames.push(frame("COMM", Uint8Array.from([text[0]!, 0x65, 0x6e, 0x67, ...description, ...text.subarray(1)])));
  }
  const size = frames.reduce((n, f) => n + f.length, 0);
  const tag = new Uint8Array(10 + size);
  // "ID3", version 3.0, no flags, then the size after the header in four 7-bit bytes ("syncsafe").
  tag.set([0x49, 0x44, 0x33, 3, 0, 0, (size >> 21) & 0x7f, (size >> 14) & 0x7f, (size >> 7) & 0x7f, size & 0x7f]);
  let at = 10;
  for (const f of frames) {
    tag.set(f, at);
    at += f.length;
  }
  return tag;
}
