// The vector index's words, shared by the index (vectors.ts) and its stores (vectors-repo.ts, pgvector-repo.ts).

/** An embedding model's slot: its vectors and codes are stored under the slot number. */
export interface ModelSlot {
  slot: number;
  model: string;
  dimensions: number;
  state: "building" | "active" | "retired";
}

export type Distance = { rowid: number; distance: number };

/** PGVECTOR: `auto` uses the extension when it can be created; `off` never touches it. */
export type PgvectorMode = "auto" | "off";
