/**
 * How deeply a JSON text nests arrays and objects, counted without parsing and without recursion
 * (a text nested 100,000 deep costs one pass, no stack). Stops counting once `limit` is passed and
 * answers `limit + 1`, so a long body is not read further than needed. Strings are skipped with
 * `indexOf`, so brackets inside them never count and a long string costs almost nothing. The text
 * need not be valid JSON: a malformed one is the parser's to refuse afterwards.
 */
export function jsonDepth(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const unit = text.charCodeAt(i);
    if (unit === 0x22 /* " */) {
      i = stringEnd(text, i);
    } else if (unit === 0x5b /* [ */ || unit === 0x7b /* { */) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (unit === 0x5d /* ] */ || unit === 0x7d /* } */) {
      depth--;
    }
  }
  return deepest;
}

/** The index of the quote that closes the string opening at `open` (or the text's end). */
function stringEnd(text: string, open: number): number {
  let at = open;
  for (;;) {
    const quote = text.indexOf('"', at + 1);
    if (quote < 0) return text.length;
    // A quote preceded by an odd run of backslashes is escaped: keep looking.
    let slashes = 0;
    for (let j = quote - 1; j > open && text.charCodeAt(j) === 0x5c; j--) slashes++;
    if (slashes % 2 === 0) return quote;
    at = quote;
  }
}

/**
 * Bytes of a JSON text once written compactly (UTF-8, without the blanks between tokens): what
 * `JSON.stringify` of the parsed value takes, counted in one pass without parsing.
 */
export function compactJsonBytes(text: string): number {
  let blanks = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const unit = text.charCodeAt(i);
    if (unit === 0x22 /* " */) i = stringEnd(text, i);
    else if (unit === 0x20 || unit === 0x0a || unit === 0x0d || unit === 0x09) blanks++;
  }
  return Buffer.byteLength(text) - blanks;
}
