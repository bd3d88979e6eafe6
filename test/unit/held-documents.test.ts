// A document a bulk job opens only to ask about it is closed after, unless a question pinned it
// meanwhile (a callers walk opening the files outside the server's project while the import graph
// resolves them) or it was open before; several jobs holding one document close it once, last.
// A document store stands in for the session: only open/close bookkeeping is under test.
import { describe, expect, it } from 'vitest';

import type { LspSession } from '../../src/lsp/types.js';
import { pinDocument, transientlyHeld, withTransientDocument } from '../../src/service/held-documents.js';

let n = 0;
function fakeSession() {
  const open = new Set<string>();
  const closed: string[] = [];
  const session = {
    serverId: 'fake',
    root: `/root-${++n}`,
    getDocument: (p: string) => (open.has(p) ? { path: p } : undefined),
    syncDocument: (p: string) => {
      open.add(p);
      return Promise.resolve({ path: p });
    },
    closeDocument: (p: string) => {
      open.delete(p);
      closed.push(p);
      return Promise.resolve();
    },
  } as unknown as LspSession;
  return { session, open, closed };
}

describe('documents held by bulk jobs', () => {
  it('closes what the job opened, not what was open before', async () => {
    const { session, open, closed } = fakeSession();
    await withTransientDocument(session, '/a.ts', () => session.syncDocument('/a.ts'));
    expect(open.has('/a.ts')).toBe(false);
    await session.syncDocument('/b.ts');
    await withTransientDocument(session, '/b.ts', () => session.syncDocument('/b.ts'));
    expect(open.has('/b.ts')).toBe(true);
    expect(closed).toEqual(['/a.ts']);
    expect(transientlyHeld(session)).toBe(0);
  });

  it('leaves open a document a question pinned while the job held it', async () => {
    const { session, open } = fakeSession();
    await withTransientDocument(session, '/a.ts', async () => {
      await session.syncDocument('/a.ts');
      pinDocument(session, '/a.ts');
    });
    expect(open.has('/a.ts')).toBe(true);
  });

  it('two jobs on one document: closed once, by the last', async () => {
    const { session, open, closed } = fakeSession();
    let release!: () => void;
    const first = withTransientDocument(session, '/a.ts', async () => {
      await session.syncDocument('/a.ts');
      await new Promise<void>((r) => (release = r));
    });
    await Promise.resolve();
    await withTransientDocument(session, '/a.ts', () => session.syncDocument('/a.ts'));
    expect(open.has('/a.ts')).toBe(true);
    release();
    await first;
    expect(open.has('/a.ts')).toBe(false);
    expect(closed).toEqual(['/a.ts']);
  });

  it('a pin on a document closed since is stale: the next job closes what it opens', async () => {
    const { session, open } = fakeSession();
    await session.syncDocument('/a.ts');
    pinDocument(session, '/a.ts');
    await session.closeDocument('/a.ts');
    await withTransientDocument(session, '/a.ts', () => session.syncDocument('/a.ts'));
    expect(open.has('/a.ts')).toBe(false);
  });
});
