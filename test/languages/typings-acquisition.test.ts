/**
 * Tsserver's automatic type acquisition ran `npm install @types/...` against
 * the package registry (and wrote under ~/.cache/typescript) when a JavaScript file of a workspace
 * with dependencies was opened. With it disabled, tsserver starts no typings installer, and a
 * stand-in registry (fixtures/fake-registry) that npm is pointed at gets no request.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { descendants } from '../../fixtures/fault-server/proc-utils.js';
import { Gateway } from '../../src/gateway/gateway.js';
import { removeDir, REPO, tempDir } from '../helpers/spawn.js';

let tmp: string;
let gateway: Gateway;
let registry: ChildProcess;
const requests: string[] = [];
const saved = { registry: process.env.npm_config_registry, xdg: process.env.XDG_CACHE_HOME };

function cmdline(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

beforeAll(async () => {
  tmp = tempDir();
  registry = spawn(process.execPath, [path.join(REPO, 'fixtures/fake-registry/server.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve) => {
    let buf = '';
    registry.stdout!.on('data', (d: Buffer) => {
      buf += d.toString('utf8');
      for (;;) {
        const nl = buf.indexOf('\n');
        if (nl < 0) break;
        const msg = JSON.parse(buf.slice(0, nl)) as { port?: number; request?: string };
        buf = buf.slice(nl + 1);
        if (msg.port) resolve(msg.port);
        if (msg.request) requests.push(msg.request);
      }
    });
  });
  // the servers inherit this environment: npm (if tsserver ever ran it) would ask our registry,
  // and the typings cache would land in the temp folder, not in the user's ~/.cache
  process.env.npm_config_registry = `http://127.0.0.1:${port}/`;
  process.env.XDG_CACHE_HOME = path.join(tmp, 'xdg-cache');
  const root = path.join(tmp, 'js-app');
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'js-app', dependencies: { lodash: '^4.17.21', express: '^4.19.0' } }));
  fs.writeFileSync(
    path.join(root, 'src/app.js'),
    "const _ = require('lodash');\nconst express = require('express');\n\nfunction double(xs) {\n  return _.map(xs, (x) => x * 2);\n}\n\nmodule.exports = { double, app: express() };\n",
  );
  gateway = await Gateway.create({ root: fs.realpathSync(root), cacheDir: path.join(tmp, 'cache') });
});

afterAll(async () => {
  await gateway?.close();
  registry?.kill('SIGKILL');
  process.env.npm_config_registry = saved.registry;
  if (saved.xdg === undefined) delete process.env.XDG_CACHE_HOME;
  else process.env.XDG_CACHE_HOME = saved.xdg;
  if (saved.registry === undefined) delete process.env.npm_config_registry;
  removeDir(tmp);
});

describe('automatic type acquisition', () => {
  it('a JavaScript file with dependencies opens without a typings installer or a registry request', async () => {
    const outline = await gateway.run('get_file_outline', { file: 'src/app.js', output_format: 'json' });
    expect(JSON.stringify(outline.result)).toContain('double');
    // the outline came from the parse tree; a semantic question starts the server
    await gateway.run('find_references', { file: 'src/app.js', line: 4, column: 10 });
    const session = gateway.context.broker.existing().find((s) => s.serverId === 'typescript-language-server')!;
    expect(await session.waitReady()).toBe('ready');
    // a find_references after readiness: the project (and its typings request) is loaded by now
    await gateway.run('find_references', { file: 'src/app.js', line: 4, column: 10 });
    const tree = descendants(session.pid!).map(cmdline);
    expect(tree.some((c) => /tsserver\.js/.test(c))).toBe(true);
    expect(tree.filter((c) => /typingsInstaller\.js/.test(c))).toEqual([]);
    expect(requests).toEqual([]);
    expect(fs.existsSync(path.join(tmp, 'xdg-cache', 'typescript'))).toBe(false);
  });
});
