// The TypeScript delta asks tsserver only what it compares and nothing twice: no suggestion
// diagnostics (hints, never errors); callers opened for it are closed again; a preview repeated on an unchanged workspace reuses the answers
// computed for the same server state (no diagnostics request at all); and once another file of the
// project changes on disk, the kept "before" is not reused: an error the old disk state had and the
// edit brings back is introduced, not hidden.
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { describe, expect, it } from 'vitest';

import type { TraceEvent } from '../../src/lsp/types.js';
import { openScratch, type ScratchFixture } from '../helpers/scratch.js';

type Entry = { file: string; line: number; severity: string; message: string };

/** tsserver commands (typescript.tsserverRequest's first argument) sent while `work` runs. */
async function tsserverCommands(fx: ScratchFixture, work: () => Promise<unknown>): Promise<string[]> {
  const session = fx.gateway.context.broker.existing().find((s) => s.serverId === 'typescript-language-server')!;
  const sent: string[] = [];
  session.onTrace((e: TraceEvent) => {
    const args = (e.payload as { arguments?: unknown[] } | undefined)?.arguments;
    if (e.direction === 'send' && e.kind === 'request' && typeof args?.[0] === 'string') sent.push(args[0]);
  });
  try {
    await work();
  } finally {
    session.onTrace(undefined);
  }
  return sent;
}

/** Kept answers need the project's files older than the settle window (delta-answers.ts STAMP_SETTLE_MS). */
async function settle(since: number): Promise<void> {
  await sleep(Math.max(0, since + 5500 - Date.now()));
}

describe('delta reuse: a repeated TypeScript preview', async () => {
  const written = Date.now();
  const fx = await openScratch('delta-ts');

  it('asks no suggestion diagnostics, and a repeat on the unchanged workspace asks no diagnostics at all, with the same verdict', async () => {
    await fx.run('get_diagnostics', { file: 'src/geom.ts', wait_ms: 120_000 });
    await settle(written);
    // an optional parameter: a changed signature, so both callers are in the delta
    const args = { symbol: 'area', body: 'export function area(w: number, h: number, d = 1): number {\n  return w * h * d;\n}' };
    let first: Record<string, unknown> = {};
    const sent1 = await tsserverCommands(fx, async () => (first = await fx.run('replace_symbol_body', args)));
    expect(first.referencing).toMatchObject({ files: ['src/plan.ts', 'src/use.ts'] });
    expect([first.diagnostics, first.introduced, first.unchecked]).toEqual(['checked', [], []]);
    expect(sent1).toContain('semanticDiagnosticsSync');
    expect(sent1).not.toContain('suggestionDiagnosticsSync');
    // the callers were opened for the delta alone: closed again, so that typescript-language-server
    // does not re-check them after every later change
    const session = fx.gateway.context.broker.existing().find((s) => s.serverId === 'typescript-language-server')!;
    expect(['src/plan.ts', 'src/use.ts'].filter((f) => session.getDocument(path.join(fx.root, f)))).toEqual([]);
    let again: Record<string, unknown> = {};
    const sent2 = await tsserverCommands(fx, async () => (again = await fx.run('replace_symbol_body', args)));
    expect(sent2.filter((c) => c.endsWith('DiagnosticsSync'))).toEqual([]);
    expect([again.diagnostics, again.introduced, again.unchecked, again.referencing]).toEqual(['checked', [], [], first.referencing]);
  }, 180_000);
});

describe('delta reuse: another file of the project changed on disk', async () => {
  const written = Date.now();
  const fx = await openScratch('delta-ts', {
    'src/kind.ts': 'export type P = string;\n',
    'src/take.ts': "import type { P } from './kind.js';\n\nexport function take(a: P): void {\n  void a;\n}\n",
    'src/call.ts': "import { take } from './take.js';\n\ntake(1);\n",
  });
  const broken = "Argument of type 'number' is not assignable to parameter of type 'string'.";

  it('the kept "before" of a caller is not reused: the error the edit brings back is introduced', async () => {
    const pre = await fx.run('get_diagnostics', { file: 'src/call.ts', wait_ms: 120_000 });
    expect(pre.files[0].diagnostics.map((d: Entry) => d.message)).toContain(broken);
    await settle(written);
    // a preview whose "before" of src/call.ts holds the error (P is string on disk)
    const keep = await fx.run('replace_symbol_body', {
      symbol: 'take',
      body: 'export function take(a: P, b?: number): void {\n  void a;\n  void b;\n}',
    });
    expect([keep.referencing.files, keep.diagnostics, keep.introduced]).toEqual([['src/call.ts'], 'checked', []]);
    // the disk fixes the caller through a third file: P is number now
    fx.write('src/kind.ts', 'export type P = number;\n');
    for (let i = 0; i < 60; i++) {
      const d = await fx.run('get_diagnostics', { file: 'src/call.ts' });
      if (!d.files[0].diagnostics.some((x: Entry) => x.message === broken)) break;
      await sleep(500);
    }
    // the edit breaks the caller again, with the message the kept "before" has
    const body = 'export function take(a: string, p?: P): void {\n  void a;\n  void p;\n}';
    const r = await fx.run('replace_symbol_body', { symbol: 'take', body });
    expect(r.introduced).toEqual([expect.objectContaining({ file: 'src/call.ts', line: 3, severity: 'error', message: broken })]);
    expect(r.diagnostics).toBe('checked');
    expect((await fx.runError('replace_symbol_body', { symbol: 'take', body, apply: true, expected_hash: r.edit_hash })).code).toBe('INVALID_INPUT');
  }, 180_000);
});
