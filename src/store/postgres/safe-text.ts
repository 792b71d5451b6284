/**
 * What PostgreSQL cannot hold in `text` or `jsonb`, made storable. It refuses NUL (`22P05`,
 * "\u0000 cannot be converted to text") and unpaired UTF-16 surrogates, which `JSON.stringify`
 * writes as `\u0000` and `\udXXX` escapes. The API refuses both in every request, but the request
 * inspector stores what it is given (a path, an answer quoting a refused value), and one
 * unstorable row must never fail a flush: NUL is stored as U+2400 (␀, "symbol for null") and a
 * lone surrogate as U+FFFD. Lossy, and only for text that no valid request can produce.
 */
// An escape preceded by an even run of backslashes (so the backslash is not itself escaped).
const UNSTORABLE = /(?<!\\)((?:\\\\)*)\\u(0000|d[89a-f][0-9a-f]{2})/gi;

/** A JSON text PostgreSQL's jsonb accepts. Texts without a `\u` escape are returned as they are. */
export function storableJson(json: string): string {
  if (!json.includes('\\u')) return json;
  return json.replace(UNSTORABLE, (_match, slashes: string, code: string) =>
    code === '0000' ? `${slashes}\u2400` : `${slashes}\ufffd`,
  );
}

/**
 * A string PostgreSQL's text accepts (for the few plain text parameters, such as ids). The driver
 * sends text as UTF-8, which already turns a lone surrogate into U+FFFD; only NUL is left.
 */
export function storableText(text: string): string {
  return text.includes('\u0000') ? text.replaceAll('\u0000', '\u2400') : text;
}
