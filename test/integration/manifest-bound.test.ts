/**
 * Root manifests (package.json, composer.json, go.mod, pyproject.toml) are parsed on the event loop
 * for project_context and find_dead_code: one over maxFileBytes is not read, and the answer says so
 * in `_meta.limits_hit` instead of describing the project as if it had none.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Gateway } from '../../src/gateway/gateway.js';
import { type FixtureGateway, fixtureGateway } from '../helpers/gateway.js';

describe('root manifests are bounded', () => {
  let tmp: string;
  let fx: FixtureGateway;

  beforeAll(async () => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-manifest-')));
    const root = path.join(tmp, 'ws');
    fs.mkdirSync(root);
    fs.writeFileSync(path.join(root, 'README.md'), '# a project\n');
    fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'huge-manifest', description: 'x'.repeat(200_000) }));
    fx = fixtureGateway(await Gateway.create({ root, cacheDir: path.join(tmp, 'cache'), limits: { maxFileBytes: 100_000 } }), root, path.join(tmp, 'cache'));
  });

  afterAll(async () => {
    await fx.gateway.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('project_context: a package.json over maxFileBytes is not read, and limits_hit names it', async () => {
    const r = await fx.run('project_context');
    expect(JSON.stringify(r)).not.toContain('huge-manifest');
    expect(r._meta.limits_hit).toContainEqual(
      expect.objectContaining({ limit: 'maxFileBytes', value: 100_000, detail: expect.stringContaining('package.json is 200') }),
    );
  });
});
