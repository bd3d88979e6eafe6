// Pure parts of the edit and hover pipelines: text edits applied from the end in the server's
// position encoding, overlapping edits refused, a WorkspaceEdit's resource operations refused,
// and hover markdown cleaned of server quirks.
import { describe, expect, it } from 'vitest';

import { LspgateError } from '../../src/errors/errors.js';
import { applyTextEdits, textEditsByFile } from '../../src/service/editing/workspace-edit.js';
import { cleanMarkdown } from '../../src/service/navigation/hover.js';

const range = (l1: number, c1: number, l2: number, c2: number) => ({ start: { line: l1, character: c1 }, end: { line: l2, character: c2 } });

describe('applyTextEdits', () => {
  it('applies edits given in any order against the original text', () => {
    const text = 'import { a } from "x";\nconst b = a(a);\n';
    const out = applyTextEdits(
      text,
      [
        { range: range(1, 10, 1, 11), newText: 'z' },
        { range: range(0, 9, 0, 10), newText: 'z' },
        { range: range(1, 12, 1, 13), newText: 'z' },
      ],
      'utf-16',
    );
    expect(out).toBe('import { z } from "x";\nconst b = z(z);\n');
  });

  it('counts positions in the negotiated encoding (utf-8 bytes after a non-ASCII character)', () => {
    const text = 'é = 1; foo()\n';
    // "foo" starts at UTF-16 column 7 and UTF-8 byte 8 (é is 2 bytes)
    expect(applyTextEdits(text, [{ range: range(0, 8, 0, 11), newText: 'bar' }], 'utf-8')).toBe('é = 1; bar()\n');
    expect(applyTextEdits(text, [{ range: range(0, 7, 0, 10), newText: 'bar' }], 'utf-16')).toBe('é = 1; bar()\n');
  });

  it('refuses overlapping edits', () => {
    expect(() =>
      applyTextEdits(
        'abcdef',
        [
          { range: range(0, 0, 0, 4), newText: 'x' },
          { range: range(0, 2, 0, 5), newText: 'y' },
        ],
        'utf-16',
      ),
    ).toThrow(LspgateError);
  });
});

describe('textEditsByFile', () => {
  it('merges changes and documentChanges per file, and refuses resource operations', () => {
    const edits = textEditsByFile({
      changes: { 'file:///a.ts': [{ range: range(0, 0, 0, 1), newText: 'x' }] },
      documentChanges: [{ textDocument: { uri: 'file:///a.ts', version: 1 }, edits: [{ range: range(1, 0, 1, 1), newText: 'y' }] }],
    });
    expect([...edits].map(([uri, e]) => [uri, e.length])).toEqual([['file:///a.ts', 2]]);
    let code: string | undefined;
    try {
      textEditsByFile({ documentChanges: [{ kind: 'rename', oldUri: 'file:///a.ts', newUri: 'file:///b.ts' }] });
    } catch (e) {
      code = (e as LspgateError).code;
    }
    expect(code).toBe('NOT_SUPPORTED');
  });
});

describe('cleanMarkdown', () => {
  it("drops intelephense's <?php opener and { } body, pyright's rule, and blank-line runs", () => {
    expect(cleanMarkdown('```php\n<?php\nfunction f(): int { }\n```\n\n\n\ndoc')).toBe('```php\nfunction f(): int\n```\n\ndoc');
    expect(cleanMarkdown('```python\ndef f() -> int\n```\n---\nDoc.')).toBe('```python\ndef f() -> int\n```\nDoc.');
  });

  it("drops gopls 0.22's rules between blank lines, not a heading's underline", () => {
    // captured from gopls 0.22.0 (scripts/capture-hover.ts, fixtures/go-app)
    const hover =
      '```go\nfunc (Handler) Serve(req *Request) error\n```\n\n---\n\nServe answers the request.\n\n\n---\n\n[`(router.Handler).Serve` on pkg.go.dev](https://pkg.go.dev/example.com/goapp/router#Handler.Serve)';
    expect(cleanMarkdown(hover)).toBe(
      '```go\nfunc (Handler) Serve(req *Request) error\n```\n\nServe answers the request.\n\n[`(router.Handler).Serve` on pkg.go.dev](https://pkg.go.dev/example.com/goapp/router#Handler.Serve)',
    );
    expect(cleanMarkdown('Doc.\n\nTitle\n---\ntext')).toBe('Doc.\n\nTitle\n---\ntext');
  });
});
