import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { docFiles } from '../support/doc-blocks.js';
import { brokenReason, pageLinks, reachableFromReadme } from '../support/doc-links.js';

// The README is a front door: short, and every page of docs/ is reachable from it; no relative link
// of README.md or docs/*.md points at a file or a heading that is not there.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('README and docs/ as a web of pages', () => {
  it('README.md has at most 300 lines', () => {
    const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').trimEnd().split('\n').length;
    expect(lines).toBeLessThanOrEqual(300);
  });

  it('every docs/*.md page is reachable from README.md by links', () => {
    const reachable = reachableFromReadme(ROOT);
    const orphans = docFiles(ROOT).filter((page) => !reachable.has(page));
    expect(orphans).toEqual([]);
  });

  it('every relative link points at a file and heading that exist', () => {
    const broken = docFiles(ROOT)
      .flatMap((page) => pageLinks(ROOT, page))
      .map((link) => ({ link, reason: brokenReason(ROOT, link) }))
      .filter(({ reason }) => reason !== undefined)
      .map(({ link, reason }) => `${link.from}:${link.line}: ${reason}`);
    expect(broken).toEqual([]);
  });

  it('finds a broken anchor, a missing page and an orphan page (the checks can fail)', () => {
    const root = mkdtempSync(join(tmpdir(), 'docs-links-'));
    mkdirSync(join(root, 'docs'));
    writeFileSync(join(root, 'README.md'), '# x\n\n[a](docs/a.md#nowhere) [b](docs/missing.md)\n');
    writeFileSync(join(root, 'docs/a.md'), '# A page\n\n## Somewhere `here`\n\n[back](../README.md#x)\n');
    writeFileSync(join(root, 'docs/orphan.md'), '# Nobody links here\n');
    const reasons = docFiles(root)
      .flatMap((page) => pageLinks(root, page))
      .map((link) => brokenReason(root, link));
    expect(reasons).toEqual([
      'docs/a.md has no heading #nowhere',
      'docs/missing.md does not exist',
      undefined,
    ]);
    expect([...reachableFromReadme(root)].sort()).toEqual(['README.md', 'docs/a.md']);
    writeFileSync(join(root, 'README.md'), '[a](docs/a.md#somewhere-here)\n');
    const [fixed] = pageLinks(root, 'README.md');
    expect(fixed).toBeDefined();
    expect(brokenReason(root, fixed as never)).toBeUndefined();
  });
});
