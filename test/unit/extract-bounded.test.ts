// One hostile file must not take the syntax tier down: signature and doc extraction cost the
// declaration's own text (one line of 20,000 declarations, a real minified library), and files
// nested 100,000 levels deep in every language with a grammar answer an outline or a coded
// LIMIT_EXCEEDED — never a stack overflow, never minutes. Through the real tree-sitter grammars
// (syntaxEntry is the whole per-file work of a syntax worker). Each case carries its own timeout:
// a parse of 100,000 levels takes tree-sitter itself seconds on a loaded machine; the code before
// ran out of memory, overflowed the stack or ran for minutes on these inputs.
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import type { FileEntry } from '../../src/core/catalog.js';
import { syntaxEntry } from '../../src/service/cataloging/syntax-entry.js';
import { deepInputs, type HostileInput, LONG_LINE_DECLARATIONS, longLineInputs, minifiedInputs } from '../helpers/hostile-sources.js';

const CASE_TIMEOUT = 180_000;

function entryOf(input: HostileInput): Promise<FileEntry | undefined> {
  const bytes = Buffer.from(input.text);
  return syntaxEntry({ rel: input.rel, abs: path.join('/nonexistent', input.rel), root: '/nonexistent', bytes, size: bytes.length, mtimeMs: 0 });
}

/** The entry, or the code of the error it failed with. */
async function outcome(input: HostileInput): Promise<FileEntry | string> {
  try {
    return (await entryOf(input))!;
  } catch (e) {
    return String((e as { code?: string }).code ?? (e as Error).message);
  }
}

describe('one line of 20,000 declarations', () => {
  const cases: { language: string; name: (i: number) => string; signature: (i: number) => string }[] = [
    { language: 'javascript', name: (i) => `a${i}`, signature: (i) => `var a${i}` },
    // PHP's signatures are built from the declaration's parse tree (modifiers, parameters, no body)
    { language: 'php', name: (i) => `a${i}`, signature: (i) => `function a${i}($x)` },
    { language: 'python', name: (i) => `a${i}`, signature: (i) => `a${i}` },
    { language: 'go', name: (i) => `A${i}`, signature: (i) => `func A${i}(x int) int { return x }` },
  ];
  for (const c of cases) {
    it(
      `${c.language}: every declaration is listed, each signature its own text`,
      async () => {
        const input = longLineInputs().find((i) => i.name === `long-line ${c.language}`)!;
        const entry = (await entryOf(input))!;
        const byName = new Map(entry.symbols.map((s) => [s.name, s]));
        for (const i of [1, 7_777, LONG_LINE_DECLARATIONS - 1]) {
          const s = byName.get(c.name(i));
          expect(s, c.name(i)).toBeDefined();
          expect(s!.signature).toBe(c.signature(i));
          expect(s!.signature.length).toBeLessThanOrEqual(200);
        }
        expect(entry.symbols.filter((s) => s.line === 1).length).toBeGreaterThanOrEqual(LONG_LINE_DECLARATIONS);
      },
      CASE_TIMEOUT,
    );
  }

  it(
    'byte offsets on a long line that is not ASCII are the bytes before each name',
    async () => {
      const text = Array.from({ length: LONG_LINE_DECLARATIONS }, (_, i) => `var é${i}="ü";`).join('');
      const entry = (await entryOf({ name: 'wide', rel: 'wide.js', text }))!;
      const bytes = Buffer.from(text);
      for (const s of [entry.symbols[0]!, entry.symbols[12_345]!, entry.symbols.at(-1)!]) {
        const at = text.indexOf(`${s.name}=`);
        expect(s.byte_offset).toBe(Buffer.byteLength(text.slice(0, at)));
        expect(bytes.subarray(s.byte_offset, s.byte_offset + s.byte_length).toString()).toBe(`${s.name}="ü"`);
      }
    },
    CASE_TIMEOUT,
  );
});

describe('a real minified library saved as .js', () => {
  const d3 = minifiedInputs().find((i) => i.name === 'minified d3');
  it.skipIf(!d3)(
    'd3.min.js (280 KB, one statement per line) is cataloged with bounded signatures',
    async () => {
      const entry = (await entryOf(d3!))!;
      expect(entry.symbols.length).toBeGreaterThan(1_000);
      for (const s of entry.symbols) expect(s.signature.length).toBeLessThanOrEqual(200);
    },
    CASE_TIMEOUT,
  );
});

describe('100,000 levels of nesting', () => {
  const byLanguage = new Map<string, HostileInput[]>();
  for (const input of deepInputs()) {
    const language = input.name.split(' ')[1]!;
    byLanguage.set(language, [...(byLanguage.get(language) ?? []), input]);
  }
  for (const [language, inputs] of byLanguage) {
    it(
      `${language}: an outline or LIMIT_EXCEEDED for each shape (${inputs.map((i) => i.name.split(' ')[0]).join(', ')})`,
      async () => {
        for (const input of inputs) {
          const got = await outcome(input);
          if (typeof got === 'string') expect(got, input.name).toBe('LIMIT_EXCEEDED');
          else expect(got.symbols.length, input.name).toBeLessThan(1_000);
        }
      },
      CASE_TIMEOUT,
    );
  }
});
