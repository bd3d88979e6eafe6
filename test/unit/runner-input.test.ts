// The runner's input contract, on a test-only operation table: unknown fields are refused with
// INVALID_INPUT naming them (zod would strip them silently), the common fields are accepted.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { LspgateError } from '../../src/errors/errors.js';
import { Gateway } from '../../src/gateway/gateway.js';
import { withMeta } from '../../src/schema/meta.js';
import { testOperations } from '../helpers/test-operations.mjs';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-runner-'));
const gateway = await Gateway.create({ root: dir, cacheDir: path.join(dir, '.cache'), operations: testOperations({ LspgateError, withMeta }) });
afterAll(async () => {
  await gateway.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('operation input', () => {
  it('refuses a field the operation does not know, naming it', async () => {
    const err = await gateway.run('echo', { text: 'hi', txet: 'typo' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(LspgateError);
    expect((err as LspgateError).code).toBe('INVALID_INPUT');
    expect((err as LspgateError).message).toContain('txet');
  });

  it("names a required field the input left out, instead of the schema library's dump", async () => {
    await expect(gateway.run('echo', { times: 2 })).rejects.toMatchObject({ code: 'INVALID_INPUT', message: 'invalid input for echo: `text` is required' });
    // a field given with the wrong type is not "required": the schema's own words say what is wrong
    const wrong = await gateway.run('echo', { text: 3 }).then(
      () => undefined,
      (e: unknown) => e as LspgateError,
    );
    expect(wrong?.message).not.toContain('required');
    expect(wrong?.message).toContain('expected string');
  });

  it('accepts the operation fields plus workspace and output_format', async () => {
    const r = await gateway.run('echo', { text: 'hi', workspace: dir, output_format: 'json' });
    expect(r.result.text).toBe('hi');
    expect(r.format).toBe('json');
    // the default root can be named by its id too, and another path is not a workspace until opened
    expect((await gateway.run('echo', { text: 'x', workspace: gateway.workspaces()[0]!.id })).result.text).toBe('x');
    await expect(gateway.run('echo', { text: 'x', workspace: os.tmpdir() })).rejects.toMatchObject({ code: 'WORKSPACE_NOT_FOUND' });
  });
});
