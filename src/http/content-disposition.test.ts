// Download names: an ASCII fallback any client reads, and the exact name as UTF-8 for those that can.
import { expect, test } from "bun:test";
import { contentDisposition } from "./content-disposition.ts";

test("a plain name is kept in both forms", () => {
  expect(contentDisposition("notes.md")).toBe(`attachment; filename="notes.md"; filename*=UTF-8''notes.md`);
});

test("quotes, backslashes and non-ASCII fall back to _ in filename, exact in filename*", () => {
  expect(contentDisposition('Crème "x"\\.zip')).toBe(
    `attachment; filename="Cre_me _x__.zip"; filename*=UTF-8''Cr%C3%A8me%20%22x%22%5C.zip`,
  );
});
