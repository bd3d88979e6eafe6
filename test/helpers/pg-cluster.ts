/**
 * A throwaway PostgreSQL cluster per test file: initdb into a temp folder, started with pg_ctl on a
 * free TCP port of 127.0.0.1 (password auth, scram) and a Unix socket in the same folder (trust,
 * for the admin), stopped and removed after. No system service is used. PostgreSQL refuses to run
 * as root: as root the cluster belongs to the `postgres` user (Debian's package creates it) and
 * every pg command runs through `runuser -u postgres`. Without initdb/pg_ctl the tests say loudly
 * why they are skipped (CI installs Debian's postgresql: .ci/run).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, cpSync, existsSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import pg from 'pg';

import { REPO, tempDir } from './spawn.js';

function findBin(): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter)];
  try {
    // Debian keeps the server binaries out of PATH: newest major first
    const majors = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
    for (const m of majors) dirs.push(`/usr/lib/postgresql/${m}/bin`);
  } catch {
    // no Debian layout
  }
  return dirs.find((d) => d && existsSync(path.join(d, 'initdb')) && existsSync(path.join(d, 'pg_ctl')));
}

function postgresUser(): { uid: number; gid: number } | undefined {
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    return { uid, gid };
  } catch {
    return undefined;
  }
}

const BIN = findBin();
const AS_ROOT = process.getuid?.() === 0;
const PG_USER = AS_ROOT ? postgresUser() : undefined;

/** Why the PostgreSQL tests cannot run here, or undefined when they can. */
export const pgSkipReason: string | undefined = !BIN
  ? 'initdb/pg_ctl not found (install Debian\'s "postgresql" package: .ci/run does)'
  : AS_ROOT && (!PG_USER || !existsSync('/usr/sbin/runuser'))
    ? 'running as root without a "postgres" user and runuser: PostgreSQL refuses to run as root'
    : undefined;

/** Skipped loudly where PostgreSQL is missing, except in CI (.ci/run installs it): there the tests fail with the reason. */
export const pgSkip = pgSkipReason !== undefined && !process.env.CI;

if (pgSkip) console.warn(`POSTGRESQL TESTS SKIPPED: ${pgSkipReason}`);

export const ADMIN = 'lspgate_admin';
export const ADMIN_PASSWORD = 'admin-Secret-9f3';

export interface PgCluster {
  dir: string;
  port: number;
  /** A URL for `role` over TCP with its password. */
  url(role: string, password: string, db?: string): string;
  /** Runs SQL as the cluster's superuser. */
  admin(sql: string, values?: unknown[]): Promise<pg.QueryResult>;
  /** Whether this server can create pgvector's extension, and why not. */
  pgvector(): Promise<string | undefined>;
  stop(): Promise<void>;
}

function run(args: string[]): string {
  const [cmd, ...rest] = args;
  const full = path.join(BIN!, cmd!);
  const argv = AS_ROOT ? ['runuser', '-u', 'postgres', '--', full, ...rest] : [full, ...rest];
  return execFileSync(argv[0]!, argv.slice(1), { stdio: 'pipe', timeout: 120_000 }).toString();
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

export async function startCluster(): Promise<PgCluster> {
  if (pgSkipReason) throw new Error(pgSkipReason);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lspgate-pg-'));
  chmodSync(dir, 0o700);
  if (PG_USER) chownSync(dir, PG_USER.uid, PG_USER.gid);
  const pw = path.join(dir, 'pw');
  writeFileSync(pw, ADMIN_PASSWORD + '\n', { mode: 0o600 });
  if (PG_USER) chownSync(pw, PG_USER.uid, PG_USER.gid);
  const data = path.join(dir, 'data');
  run(['initdb', '-D', data, '-U', ADMIN, '--auth-local=trust', '--auth-host=scram-sha-256', `--pwfile=${pw}`, '-E', 'UTF8', '--no-locale']);
  const port = await freePort();
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  run(['pg_ctl', '-D', data, '-l', path.join(dir, 'log'), '-w', '-t', '60', '-o', opts, 'start']);
  const url = (role: string, password: string, db = 'postgres') => `postgresql://${role}:${encodeURIComponent(password)}@127.0.0.1:${port}/${db}`;
  const admin = async (sql: string, values?: unknown[]) => {
    const c = new pg.Client({ connectionString: url(ADMIN, ADMIN_PASSWORD) });
    await c.connect();
    try {
      return await c.query(sql, values);
    } finally {
      await c.end();
    }
  };
  return {
    dir,
    port,
    url,
    admin,
    pgvector: async () => {
      const r = await admin(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`);
      return r.rowCount
        ? undefined
        : 'the pgvector extension is not installed on this PostgreSQL (Debian bookworm has no package for it; trixie has postgresql-17-pgvector)';
    },
    stop: async () => {
      try {
        run(['pg_ctl', '-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

const GIT_ID = ['-c', 'user.name=lspgate-test', '-c', 'user.email=test@lspgate.invalid', '-c', 'commit.gpgsign=false'];

/**
 * What a publish test starts from: fixtures/ts-app as a git repository of one commit in a new temp
 * folder (its real path is returned; the caller removes it), and on `cluster` the roles `lspgate_owner`
 * (may create the index's schema) and `lspgate_reader` with the given passwords.
 */
export async function publishableFixture(cluster: PgCluster, prefix: string, passwords: { owner: string; reader: string }): Promise<string> {
  const root = realpathSync(tempDir(prefix));
  cpSync(path.join(REPO, 'fixtures/ts-app'), root, { recursive: true });
  for (const args of [
    ['init', '-q', '-b', 'main'],
    ['add', '-A'],
    ['commit', '-q', '-m', 'fixture'],
  ])
    execFileSync('git', [...GIT_ID, ...args], { cwd: root, stdio: 'pipe' });
  await cluster.admin(`CREATE ROLE lspgate_owner LOGIN PASSWORD '${passwords.owner}'`);
  await cluster.admin(`GRANT CREATE ON DATABASE postgres TO lspgate_owner`);
  await cluster.admin(`CREATE ROLE lspgate_reader LOGIN PASSWORD '${passwords.reader}'`);
  return root;
}
