import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import GithubSlugger from 'github-slugger';

/**
 * The relative links of README.md and docs/*.md, for the test that keeps the docs a web of pages
 * reachable from the README (test/e2e/docs-links.test.ts).
 */
export interface DocLink {
  /** The page the link is on, relative to the repository root. */
  from: string;
  line: number;
  /** The target file relative to the root (the page itself for `#anchor`). */
  file: string;
  anchor?: string;
}

const LINK = /\]\(([^)\s]+)\)/g;

/** Every relative link on one page (links inside fenced code blocks are not links). */
export function pageLinks(root: string, page: string): DocLink[] {
  const out: DocLink[] = [];
  let fenced = false;
  readFileSync(join(root, page), 'utf8')
    .split('\n')
    .forEach((text, index) => {
      if (text.startsWith('```')) fenced = !fenced;
      if (fenced) return;
      for (const match of text.matchAll(LINK)) {
        const target = match[1] as string;
        // Other sites, and paths on the running server (`/v3/openapi.json`, as /guides/ serves it).
        if (/^[a-z]+:/i.test(target) || target.startsWith('/')) continue;
        const [path, anchor] = target.split('#') as [string, string | undefined];
        const file = path === '' ? page : normalize(relative(root, join(root, dirname(page), path)));
        out.push({ from: page, line: index + 1, file, ...(anchor ? { anchor } : {}) });
      }
    });
  return out;
}

/** The anchors GitHub gives a page's headings. */
export function headingAnchors(root: string, page: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  let fenced = false;
  for (const text of readFileSync(join(root, page), 'utf8').split('\n')) {
    if (text.startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*)$/.exec(text);
    if (heading) anchors.add(slugger.slug((heading[1] as string).replace(/[`*]/g, '')));
  }
  return anchors;
}

/** What is wrong with a link: a missing file or a heading the page does not have. */
export function brokenReason(root: string, link: DocLink): string | undefined {
  if (!existsSync(join(root, link.file))) return `${link.file} does not exist`;
  if (link.anchor && link.file.endsWith('.md') && !headingAnchors(root, link.file).has(link.anchor))
    return `${link.file} has no heading #${link.anchor}`;
  return undefined;
}

/** The markdown pages reachable from README.md by following relative links. */
export function reachableFromReadme(root: string): Set<string> {
  const seen = new Set<string>(['README.md']);
  const queue = ['README.md'];
  for (let page = queue.shift(); page !== undefined; page = queue.shift()) {
    for (const link of pageLinks(root, page)) {
      if (!link.file.endsWith('.md') || seen.has(link.file) || !existsSync(join(root, link.file))) continue;
      seen.add(link.file);
      queue.push(link.file);
    }
  }
  return seen;
}
