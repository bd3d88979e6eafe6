// MCP stdio lines that are not JSON: answered with JSON-RPC's parse error (id null) instead of being
// dropped without a word by the SDK's transport; JSON lines pass on whole, in order.
import { expect, it } from 'vitest';

import { StdioSizeGuard } from '../../src/frontends/mcp/stdio-size-guard.js';

it('answers a line that is not JSON with -32700 and passes the JSON lines around it', async () => {
  const replies: string[] = [];
  const logs: string[] = [];
  const guard = new StdioSizeGuard(
    1024,
    (line) => replies.push(line),
    (m) => logs.push(m),
  );
  const passed: string[] = [];
  guard.on('data', (b: Buffer) => passed.push(b.toString('utf8')));
  guard.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\nthis is not json\n\n{"jsonrpc":"2.0",');
  guard.end('"id":2,"method":"ping"}\n');
  await new Promise((resolve) => guard.on('end', resolve));
  expect(passed.join('').split('\n').filter(Boolean)).toEqual(['{"jsonrpc":"2.0","id":1,"method":"ping"}', '{"jsonrpc":"2.0","id":2,"method":"ping"}']);
  expect(replies.map((r) => JSON.parse(r) as { id: unknown; error: { code: number } })).toEqual([
    { jsonrpc: '2.0', id: null, error: expect.objectContaining({ code: -32700 }) },
  ]);
  expect(logs).toEqual(['answered a line of 17 bytes that is not JSON with a parse error']);
});
