/**
 * A file's first interactive touch: during a cold catalog, 20-130 ms passed
 * between an operation's call and the didOpen of its file (docs/performance.md "Sessions and the daemon"). The file was read
 * through the thread pool (stat, then open/fstat/read/close), and the didOpen's write was waited
 * for (vscode-jsonrpc writes on setImmediate) before the documentSymbol request: each of those
 * steps waited for the event loop to come round again, behind whatever was queued — the catalog's
 * answers being parsed and indexed, its next files being opened. Now nothing between the call and
 * the request waits for the event loop: the didOpen and the documentSymbol request of a file the
 * server has not seen are both written before a callback queued (setImmediate) just before the
 * call runs. Against the real typescript-language-server; an order of events, not a timing.
 */
import { describe, expect, it } from 'vitest';

import type { TraceEvent } from '../../src/lsp/types.js';
import { openFixture } from '../helpers/gateway.js';

describe("a file's first interactive touch", () => {
  it('sends the didOpen and the request before the event loop takes another turn', async () => {
    const fx = await openFixture('ts-app');
    // the server started and ready, one file open: the call below needs nothing more from it
    const warm = await fx.run('find_definition', { file: 'src/util/strings.ts', line: 8, column: 14 });
    expect(JSON.stringify(warm)).toContain('capitalize');
    const session = fx.gateway.context.broker.existing()[0]!;
    expect(session.getDocument(`${fx.root}/src/models/user.ts`)).toBeUndefined();

    const sent: string[] = [];
    session.onTrace((e: TraceEvent) => {
      const uri = (e.payload as { textDocument?: { uri?: string } } | undefined)?.textDocument?.uri ?? '';
      if (e.direction === 'send' && uri.endsWith('/src/models/user.ts')) sent.push(e.method ?? '?');
    });
    let beforeNextTurn: string[] | undefined;
    setImmediate(() => (beforeNextTurn = [...sent]));
    try {
      const def = await fx.run('find_definition', { file: 'src/models/user.ts', line: 1, column: 10 });
      expect(JSON.stringify(def)).toContain('formatName');
    } finally {
      session.onTrace(undefined);
    }
    // before: [] (the file was still being read); with the read synchronous but the didOpen's
    // write waited for: ['textDocument/didOpen']
    expect(beforeNextTurn).toEqual(['textDocument/didOpen', 'textDocument/documentSymbol']);
    expect(sent.slice(0, 3)).toEqual(['textDocument/didOpen', 'textDocument/documentSymbol', 'textDocument/definition']);
  });
});
