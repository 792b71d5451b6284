// What the kit records or prints never carries a credential: tokens, client secrets and webhook
// secrets are replaced wherever they appear (by field name and by their prefixes).

const SECRET_FIELDS = new Set(['client_secret', 'secret', 'access_token', 'password', 'token']);
const SECRET_VALUE = /(svc_at_|svc_cs_(live|test)_|whsec_)[A-Za-z0-9+/=._-]+/g;
const REDACTED = '[redacted]';

/** A copy of `value` with secrets replaced (iterative: deep input cannot overflow the stack). */
export function redact(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(SECRET_VALUE, REDACTED);
  if (typeof value !== 'object' || value === null) return value;
  const root: { value: unknown } = { value: undefined };
  const pending: Array<[unknown, Record<string, unknown> | unknown[], string | number]> = [
    [value, root as Record<string, unknown>, 'value'],
  ];
  while (pending.length > 0) {
    const [node, parent, key] = pending.pop()!;
    let copy: unknown;
    if (typeof node === 'string') copy = node.replace(SECRET_VALUE, REDACTED);
    else if (Array.isArray(node)) {
      const list: unknown[] = [];
      node.forEach((item, i) => {
        pending.push([item, list, i]);
      });
      copy = list;
    } else if (typeof node === 'object' && node !== null) {
      const object: Record<string, unknown> = {};
      for (const [name, item] of Object.entries(node)) {
        // Each key is placed now, so the copy keeps the original key order.
        object[name] = undefined;
        if (SECRET_FIELDS.has(name) && typeof item === 'string') object[name] = REDACTED;
        else pending.push([item, object, name]);
      }
      copy = object;
    } else copy = node;
    (parent as Record<string | number, unknown>)[key] = copy;
  }
  return root.value;
}

/** Request headers as the report shows them: `authorization` replaced. */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = name.toLowerCase() === 'authorization' ? `${value.split(' ', 1)[0]} ${REDACTED}` : value;
  }
  return out;
}
