/**
 * Every relative link in README.md and docs/*.md resolves: the file exists, and a `#fragment` names a
 * heading of that file under GitHub's anchor rules (lower-cased; punctuation but `-` and `_` dropped;
 * each space a `-`; a repeated heading gets `-1`, `-2`, …). Links inside code are not links.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PAGES = [
  'README.md',
  ...readdirSync(path.join(REPO, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** The text outside fenced code blocks, one entry per line (fenced lines blanked, so numbers stay). */
function proseLines(markdown: string): string[] {
  let fenced = false;
  return markdown.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line;
  });
}

/** GitHub's anchor for a heading's text (github-slugger), before de-duplication. */
export function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/`/g, '');
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of proseLines(markdown)) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = githubSlug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Relative link targets of a page: `[text](target)` outside code, not a URL with a scheme. */
function linksOf(markdown: string): { line: number; target: string }[] {
  const out: { line: number; target: string }[] = [];
  proseLines(markdown).forEach((raw, i) => {
    const line = raw.replace(/`[^`]*`/g, '');
    for (const m of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1]!;
      if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) out.push({ line: i + 1, target });
    }
  });
  return out;
}

function broken(page: string): string[] {
  const text = readFileSync(path.join(REPO, page), 'utf8');
  const bad: string[] = [];
  for (const { line, target } of linksOf(text)) {
    const [file, fragment] = target.split('#', 2) as [string, string | undefined];
    const resolved = file ? path.resolve(path.dirname(path.join(REPO, page)), decodeURIComponent(file)) : path.join(REPO, page);
    if (!existsSync(resolved)) {
      bad.push(`${page}:${line}: ${target} (no such file)`);
      continue;
    }
    if (fragment === undefined || statSync(resolved).isDirectory() || !resolved.endsWith('.md')) continue;
    if (!anchorsOf(readFileSync(resolved, 'utf8')).has(decodeURIComponent(fragment))) bad.push(`${page}:${line}: ${target} (no such heading)`);
  }
  return bad;
}

describe('links in README.md and docs/', () => {
  it("the anchor rule is GitHub's", () => {
    expect(githubSlug('Tool profiles: `--tools core|default|all|name,name,…`')).toBe('tool-profiles---tools-coredefaultallnamename');
    expect(githubSlug('`get_context`: one call for one symbol')).toBe('get_context-one-call-for-one-symbol');
    expect(githubSlug('Daemon: `lspgate daemon`')).toBe('daemon-lspgate-daemon');
    expect([...anchorsOf('# A\n## A\n```\n# B\n```\n')]).toEqual(['a', 'a-1']);
  });

  it.each(PAGES)('%s: every relative link resolves, file and #anchor', (page) => {
    expect(broken(page)).toEqual([]);
  });

  it('finds a broken link when there is one', () => {
    expect(linksOf('[a](docs/none.md) `[b](x.md)` [c](https://example.com)\n```\n[d](y.md)\n```\n').map((l) => l.target)).toEqual(['docs/none.md']);
  });
});
