/**
 * What a user installs: `npm pack` of this checkout, installed into an empty directory with npm run
 * from another directory, must ship only the runtime (dist/src, servers.json and its schema, the
 * README: no dist/bench, no dist/fixtures), install without any install-script warning (protobufjs
 * came with intelephense, now an optional peer), and run through the absolute path of its bin from
 * yet another cwd: `lspgate --version` and an MCP `tools/list` over stdio, as an MCP client
 * configured with that path would. Slow (a real npm install from the registry or npm's cache).
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { assertBuilt, childEnv, removeDir, REPO, tempDir, TS_APP } from '../helpers/spawn.js';

const run = promisify(execFile);
const INSTALL_TIMEOUT_MS = 400_000;
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

let work: string;
let tarball: string;
let installDir: string;
let installLog: string;
let bin: string;

beforeAll(async () => {
  assertBuilt();
  work = tempDir('lspgate-pack-');
  const packed = await run(NPM, ['pack', '--json', '--pack-destination', work], { cwd: REPO, maxBuffer: 16 << 20 });
  const info = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
  tarball = path.join(work, info[0]!.filename);
  writeFileSync(path.join(work, 'files.json'), JSON.stringify(info[0]!.files.map((f) => f.path)));
  installDir = path.join(work, 'app');
  await run('mkdir', [installDir]);
  // npm runs from `work`, not from the install directory, and not from the checkout.
  const installed = await run(NPM, ['install', '--prefix', installDir, '--prefer-offline', '--no-audit', '--no-fund', tarball], {
    cwd: work,
    env: childEnv({ npm_config_loglevel: 'warn' }),
    maxBuffer: 16 << 20,
  });
  installLog = installed.stdout + installed.stderr;
  bin = path.join(installDir, 'node_modules', '.bin', 'lspgate');
}, INSTALL_TIMEOUT_MS);

afterAll(() => {
  if (work) removeDir(work);
});

describe('the packed tarball, installed into an empty directory', () => {
  it('ships the runtime only', () => {
    const files = JSON.parse(readFileSync(path.join(work, 'files.json'), 'utf8')) as string[];
    expect(files).toContain('dist/src/cli/main.js');
    expect(files).toContain('dist/bundle/full-main.js'); // the full CLI in one folder (scripts/bundle.mjs)
    expect(files).toContain('servers.json');
    expect(files).toContain('servers.schema.json');
    expect(files).toContain('config.schema.json'); // the JSON Schema of .lspgate/config.json, for editors
    expect(files.filter((f) => /^dist\/(bench|fixtures)\//.test(f))).toEqual([]);
    expect(
      files.filter(
        (f) => !/^(dist\/src\/|dist\/bundle\/|servers\.json$|servers\.schema\.json$|config\.schema\.json$|README\.md$|package\.json$|LICENSE)/.test(f),
      ),
    ).toEqual([]);
  });

  it('installs without install-script warnings and without the optional PHP server', () => {
    expect(installLog).not.toMatch(/install-scripts|allowScripts|protobufjs/);
    const modules = readdirSync(path.join(installDir, 'node_modules'));
    expect(modules).toContain('lspgate');
    expect(modules).not.toContain('intelephense');
    expect(modules).not.toContain('protobufjs');
  });

  it('runs `lspgate --version` through the absolute bin path from another cwd', async () => {
    const { stdout } = await run(bin, ['--version'], { cwd: TS_APP, env: childEnv() });
    const version = (JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
    expect(stdout.trim()).toContain(version);
  });

  it('serves MCP tools/list through the absolute bin path from another cwd', async () => {
    const transport = new StdioClientTransport({
      command: bin,
      args: ['mcp', '--tools', 'all', '--root', TS_APP],
      cwd: work,
      env: childEnv({ LSPGATE_CACHE_DIR: path.join(work, 'cache') }),
      stderr: 'pipe',
    });
    const client = new Client({ name: 'package-test', version: '0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['find_definition', 'get_file_outline', 'list_workspaces']));
      const r = await client.callTool({ name: 'list_workspaces', arguments: {} });
      expect(r.isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });
});
