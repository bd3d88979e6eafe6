/**
 * A gateway on a fixture project with a temp cache dir, closed (every server stopped) after the
 * test file. `run` returns the structured result; `runError` the LspgateError a call fails with.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll } from 'vitest';

import { LspgateError } from '../../src/errors/errors.js';
import { Gateway } from '../../src/gateway/gateway.js';
import type { JsonResult } from './results.js';

export const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures');

export interface FixtureGateway {
  gateway: Gateway;
  root: string;
  cacheDir: string;
  run(op: string, input?: Record<string, unknown>): Promise<JsonResult>;
  runText(op: string, input?: Record<string, unknown>): Promise<string>;
  runError(op: string, input?: Record<string, unknown>): Promise<LspgateError>;
}

export async function openFixture(name: string): Promise<FixtureGateway> {
  const root = fs.realpathSync(path.join(FIXTURES, name));
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-'));
  const gateway = await Gateway.create({ root, cacheDir });
  afterAll(async () => {
    await gateway.close();
    fs.rmSync(cacheDir, { recursive: true, force: true });
  });
  return fixtureGateway(gateway, root, cacheDir);
}

/** run / runText / runError over a gateway (openFixture's and openScratch's). */
export function fixtureGateway(gateway: Gateway, root: string, cacheDir: string): FixtureGateway {
  return {
    gateway,
    root,
    cacheDir,
    async run(op, input = {}) {
      const r = await gateway.run(op, { ...input, output_format: 'json' });
      return r.result;
    },
    async runText(op, input = {}) {
      return (await gateway.run(op, { ...input, output_format: 'markdown' })).text;
    },
    async runError(op, input = {}) {
      try {
        await gateway.run(op, input);
      } catch (e) {
        if (e instanceof LspgateError) return e;
        throw e;
      }
      throw new Error(`${op} succeeded but an error was expected`);
    },
  };
}

/** A result without the parts that change between runs (timing, totals). */
export function withoutTiming<T extends Record<string, unknown>>(result: T): Omit<T, '_meta'> {
  const { _meta, ...rest } = result;
  void _meta;
  return rest;
}
