export const HIGHLIGHT_SCRIPT = "";
