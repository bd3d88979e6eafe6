// Go through gopls on fixtures/go-work: a go.work with two modules (app imports shapes). The go
// command refuses GOFLAGS=-mod=mod in workspace mode, which once made every file "no package metadata".
import { describe, expect, it } from 'vitest';

import { openFixture } from '../helpers/gateway.js';
import { goAvailable } from '../helpers/go.js';

type Definition = { found: boolean; definitions: { file: string; line: number; name?: string }[] };

describe.runIf(goAvailable)('Go through gopls on a go.work workspace', async () => {
  const fx = await openFixture('go-work');

  it('find_definition from one module lands in the other', async () => {
    // app/main.go line 11: fmt.Println(shapes.Area(shapes.Square{Side: 2})) — `Area` at column 21
    const r = (await fx.run('find_definition', { file: 'app/main.go', line: 11, column: 21 })) as unknown as Definition;
    expect(r.found).toBe(true);
    expect(r.definitions.map((d) => [d.file, d.line])).toEqual([['shapes/area.go', 10]]);
  });

  it('one gopls session at the go.work root serves both modules', async () => {
    await fx.run('get_file_outline', { file: 'shapes/area.go' });
    const sessions = fx.gateway.context.broker.info().filter((i) => i.serverId === 'gopls');
    expect(sessions.map((s) => [s.root, s.state])).toEqual([[fx.root, 'ready']]);
  });
});
