/**
 * A committed git copy of a fixture and a gateway on it, removed after the test file: for the
 * operations that compare the working tree with git (changed_symbols) and tests that edit files.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll } from 'vitest';

import { Gateway } from '../../src/gateway/gateway.js';
import { FIXTURES } from './gateway.js';
import type { JsonResult } from './results.js';

const GIT_ID = ['-c', 'user.name=lspgate-test', '-c', 'user.email=test@lspgate.invalid', '-c', 'commit.gpgsign=false'];

export async function gitCopy(fixture: string) {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `lspgate-${fixture}-`)));
  fs.cpSync(path.join(FIXTURES, fixture), root, { recursive: true });
  const git = (...args: string[]) => execFileSync('git', [...GIT_ID, ...args], { cwd: root, stdio: 'pipe' }).toString();
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'fixture');
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-'));
  const gateway = await Gateway.create({ root, cacheDir });
  afterAll(async () => {
    await gateway.close();
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(cacheDir, { recursive: true, force: true });
  });
  const edit = (rel: string, from: string, to: string) => {
    const file = path.join(root, rel);
    const text = fs.readFileSync(file, 'utf8');
    if (!text.includes(from)) throw new Error(`${rel} has no ${from}`);
    fs.writeFileSync(file, text.replace(from, to));
  };
  const run = async (input: Record<string, unknown> = {}): Promise<JsonResult> =>
    (await gateway.run('changed_symbols', { ...input, output_format: 'json' })).result;
  const runOp = async (op: string, input: Record<string, unknown> = {}): Promise<JsonResult> =>
    (await gateway.run(op, { ...input, output_format: 'json' })).result;
  return { root, git, edit, run, runOp, gateway };
}
