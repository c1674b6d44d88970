// RFC 4180 CSV reading (quoted fields, doubled quotes, newlines inside quotes), with the line each row
// starts on. Rows are yielded as they end, so a reader can stop a file at its entry limit.
/** Cells kept of one row (a Pocket export has five). */
const MAX_CELLS = 256;

export function* parseCsv(text: string): Generator<{ line: number; cells: string[] }> {
  let cells: string[] = [];
  let cell = "";
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === "\n") line++;
        cell += c;
      }
    } else if (c === '"' && cell === "") quoted = true;
    else if (c === ",") {
      // A row of a million commas must not become a million cells: past the bound they are dropped.
      if (cells.length < MAX_CELLS) cells.push(cell);
      cell = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      cells.push(cell);
      if (cells.length > 1 || cells[0] !== "") yield { line: rowLine, cells };
      cells = [];
      cell = "";
      line++;
      rowLine = line;
    } else cell += c;
  }
  cells.push(cell);
  if (cells.length > 1 || cells[0] !== "") yield { line: rowLine, cells };
}
