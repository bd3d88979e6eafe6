// fixtures/py-shadowed-import: pkg/events.py defines getcwd in Python, then rebinds the name with
// `from os import getcwd` (as asyncio.events does with _asyncio): pyright's call hierarchy at the
// workspace's def answers the typeshed stub, outside the workspace.
import { describe, expect, it } from 'vitest';

import { openFixture } from '../helpers/gateway.js';
import type { JsonResult } from '../helpers/results.js';

const calls = (r: JsonResult) => r.root.calls.map((c: { name: string; file: string; line: number }) => `${c.name} ${c.file}:${c.line}`);

describe('a Python function whose name a later import rebinds', async () => {
  const fx = await openFixture('py-shadowed-import');

  it('find_callers lists the workspace callers of the def asked about, and says how they were found', async () => {
    const r = await fx.run('find_callers', { symbol_id: 'pkg/events.py::getcwd#function' });
    expect([r.root.name, r.root.file, r.root.line]).toEqual(['getcwd', 'pkg/events.py', 5]);
    expect(calls(r)).toEqual(['where pkg/events.py:10', 'report pkg/user.py:4']);
    expect(r._meta.warnings.join(' ')).toMatch(/call hierarchy at getcwd answered getcwd declared outside the workspace .*callers derived from references/);
  });
});
