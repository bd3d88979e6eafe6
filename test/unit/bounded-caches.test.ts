/**
 * Every process-wide memo is bounded in bytes (docs/architecture.md, Caches and derived state): filled far past its bound, each
 * still counts at most its bound, and still answers (a pure memo loses only time).
 */
import { describe, expect, it } from 'vitest';

import { pathRole, ROLE_MEMO } from '../../src/adapters/test-files.js';
import { GLOB_MEMO, globMatcher } from '../../src/catalog/glob.js';
import { shareStrings } from '../../src/catalog/shared-strings.js';
import { normalizeTerm, TERM_MEMO } from '../../src/chunks/tokenize.js';
import type { CatalogSymbol, FileEntry } from '../../src/core/catalog.js';
import { DISK_TEXTS } from '../../src/service/disk-texts.js';
import { HOVER_MEMO, MODEL_MEMO } from '../../src/service/file-context.js';
import { measure, TEXT_MEASURES } from '../../src/service/location-texts.js';
import { BoundedMemo } from '../../src/util/bounded-memo.js';
import { reduceMemory } from '../../src/util/idle-gc.js';

const word = (i: number, len = 12) => `w${i.toString(36)}`.padEnd(len, 'x');

describe('bounded memos', () => {
  it('a term cut from a file text does not keep that text alive in TERM_MEMO', () => {
    TERM_MEMO.clear();
    reduceMemory();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 40; i++) {
      // a 1 MB text of its own, and a term of 20 characters matched in it (a slice of it in V8)
      const text = `${'x '.repeat(250_000)} parseServiceRequest${i}a ${'y '.repeat(250_000)}`;
      const term = /parseServiceRequest\d+a/.exec(text)![0];
      expect(normalizeTerm(term)).toBe(term.toLowerCase());
    }
    reduceMemory();
    // kept whole, the 40 texts are 40 MB; the terms alone a few KB
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(8 * 1048576);
    expect(TERM_MEMO.get('parseServiceRequest7a')).toBe('parseservicerequest7a');
  });

  it('a package name cut from a file text does not keep that text alive among the shared strings', () => {
    reduceMemory();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 40; i++) {
      // a 1 MB text of its own, and the package its first line names (a slice of it in V8)
      const text = `package com.example.service${i};\n${'x '.repeat(500_000)}`;
      const pkg = /^package ([\w.]+);/.exec(text)![1]!;
      const symbol = { symbol_id: `A${i}.java::A#class`, file: `A${i}.java`, language: 'java', server: 'jdtls', kind: 'class', package: pkg };
      const entry: FileEntry = { hash: '', size: 0, mtimeMs: 0, language: 'java', server: 'jdtls', symbols: [symbol as unknown as CatalogSymbol] };
      shareStrings(`A${i}.java`, entry);
      expect(entry.symbols[0]!.package).toBe(`com.example.service${i}`);
    }
    reduceMemory();
    // kept whole, the 40 texts are 40 MB; the package names alone a few KB
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(8 * 1048576);
  });

  it('BoundedMemo keeps its count under the bound, starts again when full, and never keeps an entry larger than the bound', () => {
    const m = new BoundedMemo<string, string>(1000, (k, v) => 2 * (k.length + v.length));
    for (let i = 0; i < 500; i++) {
      m.set(`k${i}`, 'v'.repeat(20));
      expect(m.bytes).toBeLessThanOrEqual(1000);
    }
    expect(m.get('k499')).toBe('v'.repeat(20));
    m.set('huge', 'x'.repeat(1000));
    expect(m.has('huge')).toBe(false);
    m.set('k499', 'w');
    expect(m.get('k499')).toBe('w');
    expect(m.bytes).toBeLessThanOrEqual(1000);
  });

  it('the term, path-role and glob memos stay within their bounds', () => {
    for (let i = 0; i < 250_000; i++) normalizeTerm(word(i, 16));
    expect(TERM_MEMO.bytes).toBeLessThanOrEqual(TERM_MEMO.maxBytes);
    expect(normalizeTerm('Running')).toBe('run');
    for (let i = 0; i < 60_000; i++) pathRole(`src/${word(i, 60)}/file.ts`, 'typescript');
    expect(ROLE_MEMO.bytes).toBeLessThanOrEqual(ROLE_MEMO.maxBytes);
    expect(pathRole('test/a.test.ts', 'typescript')).toBe('test');
    for (let i = 0; i < 2000; i++) globMatcher(`src/**/${word(i)}*.ts`);
    expect(GLOB_MEMO.bytes).toBeLessThanOrEqual(GLOB_MEMO.maxBytes);
    expect(globMatcher('*.ts')('a/b.ts')).toBe(true);
  });

  it('the hover, file-model, measured-text and disk-text caches stay within their byte bounds', () => {
    for (let i = 0; i < 40_000; i++) HOVER_MEMO.set(`srv\0/root\0${i}\0/root/src/${word(i, 200)}.ts\0hash\0${i}:0`, Promise.resolve('x'));
    expect(HOVER_MEMO.calculatedSize).toBeLessThanOrEqual(HOVER_MEMO.maxSize);
    const text = 'x'.repeat(100_000);
    for (let i = 0; i < 200; i++)
      MODEL_MEMO.set({ answer: i }, { hash: `${i}`, adapter: 'a', encoding: 'utf-16', lines: [text], symbols: [], textLength: text.length });
    expect(MODEL_MEMO.calculatedSize).toBeLessThanOrEqual(MODEL_MEMO.maxSize);
    for (let i = 0; i < 200; i++) measure(`${i}\n${text}`);
    expect(TEXT_MEASURES.calculatedSize).toBeLessThanOrEqual(TEXT_MEASURES.maxSize);
    expect(measure('a\nb').lines).toEqual(['a', 'b']);
    for (let i = 0; i < 400; i++) DISK_TEXTS.set(`/lib/${i}.d.ts`, { mtimeMs: i, size: text.length, ino: i, text });
    expect(DISK_TEXTS.calculatedSize).toBeLessThanOrEqual(DISK_TEXTS.maxSize);
  });
});
