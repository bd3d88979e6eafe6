/**
 * The secret-file table of docs/configuration.md, row by row, through open_at,
 * search_text, get_file_outline and the CLI; plus files that hold a private-key block under an
 * innocent name (content sniffing), and look-alike names that are not secrets.
 */
import fs from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { LspgateError } from '../../src/errors/errors.js';
import { Gateway } from '../../src/gateway/gateway.js';
import { assertBuilt, removeDir, runCli, tempDir } from '../helpers/spawn.js';

const CANARY = 'SECRET-CANARY-7f3e';
const KEY = `-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA${CANARY}\n-----END OPENSSH PRIVATE KEY-----\n`;

/** [file, content]: every one must be refused. */
const SECRETS: [string, string][] = [
  ['.env', `TOKEN=${CANARY}\n`],
  ['.env.production', `TOKEN=${CANARY}\n`],
  ['.envrc', `export TOKEN=${CANARY}\n`],
  ['config/prod.env', `TOKEN=${CANARY}\n`],
  ['keys/id_rsa', KEY],
  ['keys/id_rsa.bak', KEY],
  ['keys/id_ed25519_sk', KEY],
  ['keys/id_ecdsa.pub', `ecdsa-sha2-nistp256 ${CANARY}\n`],
  ['keys/id_deploy', `${CANARY}\n`],
  ['aws_credentials.txt', `aws_secret_access_key=${CANARY}\n`],
  ['.git-credentials', `https://u:${CANARY}@example.com\n`],
  ['config/credentials', `[default]\naws_secret_access_key=${CANARY}\n`],
  ['config/db_credentials.json', `{"password": "${CANARY}"}\n`],
  ['config/credentials.yaml.bak', `password: ${CANARY}\n`],
  // a source file named for credentials that does hold a key: refused by its content
  ['src/auth/credentials-key.ts', `export const key = \`\n${KEY}\`;\n`],
  ['certs/server.pem', KEY],
  ['certs/server.key', `${CANARY}\n`],
  ['certs/client.p12', `${CANARY}\n`],
  ['certs/client.pfx', `${CANARY}\n`],
  ['.netrc', `machine x login u password ${CANARY}\n`],
  ['.npmrc', `//registry.npmjs.org/:_authToken=${CANARY}\n`],
  ['.pypirc', `password = ${CANARY}\n`],
  ['config/secrets.yaml', `token: ${CANARY}\n`],
  // content sniffing: a key block under names that say nothing
  ['notes/backup.txt', `old key:\n${KEY}`],
  ['src/embedded.ts', `export const key = \`\n${KEY}\`;\n`],
];

/** Names that look close but are ordinary files: they must open. */
const ORDINARY: [string, string][] = [
  ['src/id_utils.ts', 'export function idOf(x: string): string {\n  return x;\n}\n'],
  ['src/environment.ts', 'export const mode = "dev";\n'],
  ['docs/keys.md', '# Keyboard shortcuts\n'],
  // a source file is judged by its content, not by a word in its name
  [
    'src/auth/credentials.ts',
    'export class Credentials {\n  constructor(readonly user: string) {}\n  login(): boolean {\n    return this.user.length > 0;\n  }\n}\n',
  ],
];

let tmp: string;
let root: string;
let gateway: Gateway;

async function codeOf(op: string, input: Record<string, unknown>): Promise<{ code: string; text: string }> {
  try {
    const r = await gateway.run(op, { ...input, output_format: 'json' });
    return { code: 'none', text: r.text };
  } catch (e) {
    if (!(e instanceof LspgateError)) throw e;
    return { code: e.code, text: JSON.stringify(e.toPayload()) };
  }
}

beforeAll(async () => {
  tmp = tempDir();
  root = path.join(tmp, 'ws');
  for (const [file, content] of [...SECRETS, ...ORDINARY]) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), content);
  }
  fs.writeFileSync(path.join(root, 'package.json'), '{"name":"ws"}\n');
  fs.writeFileSync(path.join(root, 'tsconfig.json'), '{"compilerOptions":{"strict":true},"include":["src"]}\n');
  gateway = await Gateway.create({ root, cacheDir: path.join(tmp, 'cache') });
});

afterAll(async () => {
  await gateway?.close();
  removeDir(tmp);
});

describe('secret files', () => {
  it.each(SECRETS)('open_at %s → SECRET_FILE', async (file) => {
    const r = await codeOf('open_at', { file, line: 1 });
    expect(r.code).toBe('SECRET_FILE');
    expect(r.text).not.toContain(CANARY);
  });

  it('search_text finds no canary, literally or by regex', async () => {
    for (const input of [{ query: CANARY }, { query: 'SECRET-CANARY-[0-9a-f]+', regex: true }, { query: 'PRIVATE KEY' }]) {
      const r = await codeOf('search_text', input);
      expect(r.code).toBe('none');
      expect(r.text).not.toContain(CANARY);
      expect((JSON.parse(r.text) as { matches: unknown[] }).matches).toEqual([]);
    }
  });

  it('get_file_outline of a key block in a source file → SECRET_FILE', async () => {
    expect((await codeOf('get_file_outline', { file: 'src/embedded.ts' })).code).toBe('SECRET_FILE');
  });

  it.each(ORDINARY)('ordinary %s opens', async (file) => {
    expect((await codeOf('open_at', { file, line: 1 })).code).toBe('none');
  });

  it('a source file named credentials is cataloged: its outline and search show its symbols', async () => {
    const outline = await codeOf('get_file_outline', { file: 'src/auth/credentials.ts' });
    expect(outline.code).toBe('none');
    expect(outline.text).toContain('login');
    const found = await codeOf('search_symbols', { query: 'Credentials' });
    expect(found.code).toBe('none');
    expect(found.text).toContain('src/auth/credentials.ts');
  });

  it('the CLI refuses them too', async () => {
    assertBuilt();
    for (const file of ['.envrc', 'keys/id_ed25519_sk', 'aws_credentials.txt', 'notes/backup.txt']) {
      const { code, stdout, stderr } = await runCli(['open_at', '--file', file, '--line', '1', '--root', root], { cacheDir: path.join(tmp, 'cli-cache') });
      expect(code).toBe(1);
      expect(stderr).toMatch(/^SECRET_FILE/m);
      expect(stdout + stderr).not.toContain(CANARY);
    }
    const { code, stdout } = await runCli(['search_text', '--query', CANARY, '--root', root], { cacheDir: path.join(tmp, 'cli-cache') });
    expect(code).toBe(0);
    expect(stdout).not.toContain(CANARY);
  });
});
