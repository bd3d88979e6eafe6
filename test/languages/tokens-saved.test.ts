/**
 * `_meta.total_tokens_saved` is one client session's running total (a process of its own, or one
 * client's view in the shared daemon), not a figure that grows without bound across every client
 * and run; the persisted total of every client of the cache directory is daemon_status's. Two
 * client views of one gateway on fixtures/ts-app, as two clients of the daemon.
 */
import { describe, expect, it } from 'vitest';

import { openFixture } from '../helpers/gateway.js';

type Meta = { tokens_saved: number; total_tokens_saved: number };

describe('total_tokens_saved', async () => {
  const fx = await openFixture('ts-app');
  const a = fx.gateway.forClient(fx.root);
  const b = fx.gateway.forClient(fx.root);
  const run = async (g: typeof a, op: string, input: Record<string, unknown>) =>
    (await g.run(op, { ...input, output_format: 'json' })).result as { _meta: Meta; total_tokens_saved?: number };

  it("counts this session's answers only; daemon_status has every client's", async () => {
    const first = (await run(a, 'get_repo_outline', {}))._meta;
    const second = (await run(a, 'get_file_outline', { file: 'src/util/strings.ts', detail: 'full' }))._meta;
    expect(first.tokens_saved).toBeGreaterThan(0);
    expect(first.total_tokens_saved).toBe(first.tokens_saved);
    expect(second.total_tokens_saved).toBe(first.tokens_saved + second.tokens_saved);
    // another client: its own total starts from its own first answer
    const other = (await run(b, 'get_repo_outline', {}))._meta;
    expect(other.total_tokens_saved).toBe(other.tokens_saved);
    const status = await run(b, 'daemon_status', {});
    expect(status.total_tokens_saved).toBeGreaterThanOrEqual(first.tokens_saved + second.tokens_saved + other.tokens_saved);
  });
});
