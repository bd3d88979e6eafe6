import { describe, expect, it } from 'vitest';

import { repoOutline, repoOutlineAt } from '../../src/catalog/outline.js';
import type { FileEntry } from '../../src/core/catalog.js';

const entry = (language: string, kinds: string[]): FileEntry => ({ language, symbols: kinds.map((kind) => ({ kind })) }) as unknown as FileEntry;

describe('repoOutlineAt: one outline per catalog version and depth', () => {
  it('answers as repoOutline, follows a new version, and hands out copies', () => {
    const files = new Map<string, FileEntry>([
      ['src/a/x.ts', entry('typescript', ['function', 'constructor', 'class'])],
      ['src/b.py', entry('python', ['function'])],
    ]);
    const first = repoOutlineAt(files, 1, 2);
    expect(first).toEqual(repoOutline(files, 2));
    expect(first.symbol_kinds).toEqual({ function: 2, class: 1, constructor: 1 });
    first.directories.length = 0; // a caller changing its copy changes nothing kept
    expect(repoOutlineAt(files, 1, 2)).toEqual(repoOutline(files, 2));
    expect(repoOutlineAt(files, 1, 1)).toEqual(repoOutline(files, 1));
    files.set('lib/c.go', entry('go', ['method', 'method']));
    const next = repoOutlineAt(files, 2, 2);
    expect(next).toEqual(repoOutline(files, 2));
    expect(next.files).toBe(3);
    expect(next.symbol_kinds.method).toBe(2);
  });
});
