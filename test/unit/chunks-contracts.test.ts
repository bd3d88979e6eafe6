/**
 * Seed 004's pure contracts: ChunkID / ContentSHA256 against hashes computed here with node:crypto
 * from the seed's formula, isTestPath per language, Filter matching with `**`, the code tokenizer.
 */
import { createHash } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { isTestPath } from '../../src/adapters/test-files.js';
import { chunkMatcher, isZeroFilter } from '../../src/chunks/filter.js';
import { chunkId, contentSha256 } from '../../src/chunks/ids.js';
import { normalizeTerm, tokenizeCode } from '../../src/chunks/tokenize.js';
import type { Chunk } from '../../src/chunks/types.js';

const hex = (s: string) => createHash('sha256').update(Buffer.from(s, 'utf8')).digest('hex');

describe('ChunkID and ContentSHA256', () => {
  it('hash the raw text with no normalisation', () => {
    const text = 'func Add(a, b int) int {\r\n\treturn a + b  \n}';
    expect(contentSha256(text)).toBe(hex(text));
    expect(contentSha256(text)).not.toBe(contentSha256(text.replace('\r\n', '\n')));
    expect(contentSha256('é')).toBe(hex('é'));
  });

  it('is sha256(file + "\\n" + start + ":" + end + "\\n" + content_sha256)', () => {
    const sha = hex('x');
    expect(chunkId('pkg/a.go', 3, 17, sha)).toBe(hex(`pkg/a.go\n3:17\n${sha}`));
    // A well-known value: sha256 of the empty string.
    expect(contentSha256('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(chunkId('a.ts', 1, 2, sha)).not.toBe(chunkId('b.ts', 1, 2, sha));
    expect(chunkId('a.ts', 1, 2, sha)).not.toBe(chunkId('a.ts', 1, 3, sha));
  });
});

describe('isTestPath', () => {
  const cases: [string, string, boolean][] = [
    ['pkg/router_test.go', 'go', true],
    ['pkg/router.go', 'go', false],
    // testdata/ holds a Go test's inputs: part of the tests (the go tool never builds it into the package)
    ['pkg/testdata/x.go', 'go', true],
    ['src/a.test.ts', 'typescript', true],
    ['src/a.spec.tsx', 'typescript', true],
    ['src/__tests__/a.ts', 'typescript', true],
    ['src/testing.ts', 'typescript', false],
    ['lib/a.spec.js', 'javascript', true],
    ['lib/contest.js', 'javascript', false],
    ['tests/test_app.py', 'python', true],
    ['app/test_views.py', 'python', true],
    ['app/views_test.py', 'python', true],
    ['app/tests/helpers.py', 'python', true],
    ['app/testing.py', 'python', false],
    ['app/Models/UserTest.php', 'php', true],
    ['tests/Feature/Helpers.php', 'php', true],
    ['app/Models/Contest.php', 'php', false],
  ];
  it.each(cases)('%s (%s) → %s', (p, lang, want) => expect(isTestPath(p, lang)).toBe(want));
});

function chunk(over: Partial<Chunk>): Chunk {
  return {
    id: 'x',
    file: 'src/a.ts',
    start_line: 1,
    end_line: 2,
    language: 'typescript',
    is_test: false,
    chunk_kind: 'symbol',
    commit_hash: 'abc123',
    content_sha256: 'h',
    text: '',
    ...over,
  };
}

describe('Filter', () => {
  it('empty fields match anything', () => {
    expect(isZeroFilter({})).toBe(true);
    expect(chunkMatcher({})(chunk({}))).toBe(true);
  });
  it('globs with ** cross directories; fields combine with AND', () => {
    const m = chunkMatcher({ path: 'src/**/*.ts', language: 'typescript', symbol_kinds: ['function', 'method'] });
    expect(m(chunk({ file: 'src/deep/er/x.ts', symbol_kind: 'method' }))).toBe(true);
    expect(m(chunk({ file: 'src/x.ts', symbol_kind: 'function' }))).toBe(true);
    expect(m(chunk({ file: 'lib/x.ts', symbol_kind: 'function' }))).toBe(false);
    expect(m(chunk({ file: 'src/x.ts', symbol_kind: 'class' }))).toBe(false);
    expect(m(chunk({ file: 'src/x.ts', symbol_kind: 'function', language: 'go' }))).toBe(false);
    expect(chunkMatcher({ path: 'src/*.ts' })(chunk({ file: 'src/deep/x.ts' }))).toBe(false);
    expect(chunkMatcher({ commit_hash: 'abc' })(chunk({}))).toBe(true);
    expect(chunkMatcher({ commit_hash: 'abd' })(chunk({}))).toBe(false);
  });
});

describe('code tokenizer', () => {
  it('splits camelCase, snake_case, paths and dotted names, keeping the compound', () => {
    expect(tokenizeCode('parseAsync')).toEqual(['parseAsync', 'parse', 'Async']);
    expect(tokenizeCode('snake_case_name')).toEqual(['snake_case_name', 'snake', 'case', 'name']);
    expect(tokenizeCode('src/util/strings.ts')).toEqual(['src', 'util', 'strings', 'ts']);
    expect(tokenizeCode('json.loads')).toEqual(['json', 'loads']);
    expect(tokenizeCode('HTTPServer')).toEqual(['HTTPServer', 'HTTP', 'Server']);
  });
  it('normalises: lower case, filler words dropped, Porter stemming', () => {
    expect(normalizeTerm('The')).toBeNull();
    const stem = normalizeTerm('parse');
    for (const w of ['Parses', 'parsing', 'parsed']) expect(normalizeTerm(w)).toBe(stem);
    expect(normalizeTerm('ts')).toBe('ts');
  });
});
