/**
 * Which calls the `lspgate` entry sends down the thin path (src/cli/thin/plan.ts) and which it leaves
 * to the full CLI: everything the daemon cannot serve exactly as the client's own process would.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { thinPlan } from '../../src/cli/thin/plan.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'thin-plan-'));
const configured = path.join(dir, 'configured');
mkdirSync(path.join(configured, '.lspgate'), { recursive: true });
writeFileSync(path.join(configured, '.lspgate', 'servers.json'), '{"servers":[]}');
const auto = { LSPGATE_DAEMON: 'auto' };

describe('thinPlan', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('relays mcp on stdio and sidecar, with the root resolved against the directory', () => {
    expect(thinPlan(['mcp', '--root', 'ws', '--tools', 'core'], auto, dir)).toEqual({ kind: 'relay', relay: 'mcp', root: path.join(dir, 'ws'), tools: 'core' });
    expect(thinPlan(['sidecar', '--root=ws', '--daemon', 'require'], {}, dir)).toEqual({ kind: 'relay', relay: 'sidecar', root: path.join(dir, 'ws') });
  });

  it('sends a one-shot operation, its words untouched', () => {
    const argv = ['find_definition', '--symbol', 'x', '--json', '--help'];
    expect(thinPlan(argv, auto, dir)).toEqual({ kind: 'cli', root: dir, argv });
  });

  it.each([
    ['--daemon off', ['find_definition', '--symbol', 'x', '--daemon', 'off'], auto],
    ['LSPGATE_DAEMON=off', ['find_definition', '--symbol', 'x'], { LSPGATE_DAEMON: 'off' }],
    ['a bad --daemon value', ['mcp', '--daemon', 'sometimes'], auto],
    ['--servers', ['find_definition', '--servers', 'extra.json'], auto],
    ['--flow-corpus', ['find_definition', '--symbol', 'x', '--flow-corpus', 'flows.jsonl'], auto],
    ['--policy=', ['get_context', '--policy=policy.json', '--symbol', 'x'], auto],
    ['mcp --flow-corpus', ['mcp', '--flow-corpus', 'flows.jsonl'], auto],
    ['the root has .lspgate/servers.json', ['mcp', '--root', 'configured'], auto],
    ['mcp --http', ['mcp', '--http'], auto],
    ['mcp --help', ['mcp', '--help'], auto],
    ['sidecar --tools (a usage error)', ['sidecar', '--tools', 'core'], auto],
    ['a positional after mcp', ['mcp', 'extra'], auto],
    ['repl', ['repl'], auto],
    ['tour', ['tour'], auto],
    ['daemon status', ['daemon', 'status'], auto],
    ['servers', ['servers'], auto],
    ['--version', ['--version'], auto],
    ['no command', [], auto],
  ] as [string, string[], NodeJS.ProcessEnv][])('leaves %s to the full CLI', (_what, argv, env) => {
    expect(thinPlan(argv, env, dir)).toBeUndefined();
  });
});
