// docs/conformance.md lists every check of the kit, as the code declares it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALL_CHECKS } from '../../src/conformance/checks/index.js';
import { checksTable } from '../support/conformance-catalogue.js';

const doc = readFileSync(new URL('../../docs/conformance.md', import.meta.url), 'utf8');

describe('docs/conformance.md', () => {
  it('lists the checks exactly as src/conformance/checks/ declares them', () => {
    const listed = /<!-- checks:begin -->\n([\s\S]*?)\n<!-- checks:end -->/.exec(doc)?.[1];
    expect(listed, 'paste this table between the checks markers of docs/conformance.md').toBe(
      checksTable(ALL_CHECKS),
    );
  });

  it('has unique, stable-looking check ids, each naming its spec section', () => {
    const ids = ALL_CHECKS.map((check) => check.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const check of ALL_CHECKS) {
      expect(check.id).toMatch(/^[a-z][a-z0-9-]*(\.[a-z0-9_-]+)+$/);
      expect(check.spec.length, check.id).toBeGreaterThan(3);
      expect(check.title.length, check.id).toBeGreaterThan(10);
    }
  });
});
