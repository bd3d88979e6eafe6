// A constructor of a generic class: tsserver's hover carries the class's type parameters
// (captured from typescript-language-server 5.3 + TypeScript 6.0 on zod's `class ZodError<T = any>`),
// which are not the constructor's own.
import { describe, expect, it } from 'vitest';
import type { DocumentSymbol } from 'vscode-languageserver-protocol';

import { tsFunctionDescriptor } from '../../src/adapters/servers/typescript/members.js';
import type { FileContext } from '../../src/adapters/types.js';

const TEXT = ['export class Box<T = any> extends Error {', '  constructor(items: T[]) {', '    super();', '  }', '}', ''].join('\n');
const HOVER = '\n```typescript\nconstructor Box<T = any>(items: T[]): Box<T>\n```\n';

const ctor: DocumentSymbol = {
  name: 'constructor',
  kind: 9,
  range: { start: { line: 1, character: 2 }, end: { line: 3, character: 3 } },
  selectionRange: { start: { line: 1, character: 2 }, end: { line: 3, character: 3 } },
};
const cls: DocumentSymbol = {
  name: 'Box',
  kind: 5,
  range: { start: { line: 0, character: 0 }, end: { line: 4, character: 1 } },
  selectionRange: { start: { line: 0, character: 13 }, end: { line: 0, character: 16 } },
  children: [ctor],
};

function fileOf(): FileContext {
  return {
    absPath: '/w/src/box.ts',
    relPath: 'src/box.ts',
    uri: 'file:///w/src/box.ts',
    languageId: 'typescript',
    language: 'typescript',
    text: TEXT,
    lines: TEXT.split('\n'),
    symbols: [cls],
    session: { positionEncoding: 'utf-16' } as FileContext['session'],
    root: '/w',
    hover: async () => HOVER,
    loadFile: () => Promise.reject(new Error('not needed')),
    locate: () => {
      throw new Error('not needed');
    },
    structure: () => undefined,
  };
}

describe('tsFunctionDescriptor of a constructor', () => {
  it('takes parameters from the hover but not the class type parameters', async () => {
    const file = fileOf();
    const d = await tsFunctionDescriptor({ file, symbol: ctor, parents: [cls] }, 'typescript', true);
    expect(d.signature).toBe('constructor(items: T[])');
    expect(d.parameters).toEqual([{ name: 'items', type: 'T[]' }]);
    expect(d.metadata).toBeUndefined();
  });
});
