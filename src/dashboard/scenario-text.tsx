/** @jsxImportSource hono/jsx */

/** What a `${random.*}` default means, in words (scenario files use these as param defaults). */
const RANDOM_DEFAULTS: Record<string, string> = {
  cpf: 'a random valid CPF',
  email: 'a random e-mail address',
  phone: 'a random phone number',
  uuid: 'a random UUID',
  hex: 'random hex digits',
};

/** A param's default for people: `${random.cpf}` → "a random valid CPF"; anything else as written. */
export function defaultForPeople(value: string | number | boolean): string {
  const text = String(value);
  const random = /^\$\{random\.([a-z_]+)\}$/.exec(text);
  if (random) return RANDOM_DEFAULTS[random[1] as string] ?? `a random ${random[1]}`;
  return text;
}

/**
 * A scenario description as people read it: `code spans` (Markdown backticks) become <code>, the
 * rest stays text (escaped by JSX). Only backticks: the descriptions use nothing else.
 */
export const Described = ({ text }: { text: string }) => (
  <>
    {text
      .split(/(`[^`]+`)/)
      .map((part) => (/^`[^`]+`$/.test(part) ? <code>{part.slice(1, -1)}</code> : part))}
  </>
);
