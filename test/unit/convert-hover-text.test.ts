import { describe, expect, it } from 'vitest';
import { SymbolKind } from 'vscode-languageserver-protocol';

import { fromHoverContents, splitHoverMarkdown } from '../../src/schema/convert/hover-text.js';
import { fromLspSymbolKind } from '../../src/schema/convert/lsp-kind.js';

describe('hover contents', () => {
  it('accepts MarkupContent, MarkedString and MarkedString[]', () => {
    expect(fromHoverContents({ contents: { kind: 'markdown', value: 'x' } })).toBe('x');
    expect(fromHoverContents({ contents: { language: 'go', value: 'func f()' } })).toBe('```go\nfunc f()\n```');
    expect(fromHoverContents({ contents: ['a', { language: 'python', value: 'def f(): ...' }] })).toBe('a\n```python\ndef f(): ...\n```');
    expect(fromHoverContents({ contents: { kind: 'plaintext', value: '  ' } })).toBeUndefined();
    expect(fromHoverContents(null)).toBeUndefined();
  });

  it('splits code blocks from prose', () => {
    expect(splitHoverMarkdown('\n```typescript\nclass User\n```\nA registered user.')).toEqual({ code: ['class User'], prose: 'A registered user.' });
  });

  it('maps every LSP symbol kind', () => {
    expect(fromLspSymbolKind(SymbolKind.Class)).toBe('class');
    expect(fromLspSymbolKind(SymbolKind.EnumMember)).toBe('enum_member');
    expect(fromLspSymbolKind(SymbolKind.Constructor)).toBe('constructor');
    expect(fromLspSymbolKind(SymbolKind.TypeParameter)).toBe('type');
    for (let k = 1; k <= 26; k++) expect(typeof fromLspSymbolKind(k)).toBe('string');
  });
});
