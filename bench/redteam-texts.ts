/**
 * Trust rows for `npm run redteam` beside bench/redteam-trust.ts: a repository's config widening the
 * user's MCP tool profile, and server texts that would quote what reads may not (the workspace of
 * test/helpers/hostile-texts.ts: hover and signature help on a `.env.ts` symbol, a private-key string
 * constant, a symbol a tsconfig `paths` entry reaches outside the root, a secret-named Python module;
 * diagnostics quoting the key) through the one-shot CLI, MCP stdio and the sidecar.
 */
import fs from 'node:fs';
import path from 'node:path';

import { profileTools } from '../src/operations/profiles.js';
import { operations } from '../src/operations/registry.js';
import { leaked, textsWorld } from '../test/helpers/hostile-texts.js';
import { TRUST_VECTORS, trustFrontend, type TrustWorld, trustWorld } from '../test/helpers/hostile-trust.js';
import { connectStdio } from '../test/helpers/mcp-client.js';
import { positionOf } from '../test/helpers/positions.js';
import { CLI, runCli } from '../test/helpers/spawn.js';
import type { Line } from './redteam-writes.js';

interface TextCase {
  what: string;
  op: 'get_hover' | 'signature_help' | 'get_diagnostics';
  file: string;
  needle?: string;
  after?: string;
  expect: 'withheld' | 'redacted';
}

const TEXT_CASES: TextCase[] = [
  { what: 'hover on a .env.ts constant', op: 'get_hover', file: 'src/main.ts', needle: 'API_TOKEN.length', expect: 'withheld' },
  { what: 'signature help of a .env.ts function', op: 'signature_help', file: 'src/main.ts', needle: "'note')", expect: 'withheld' },
  { what: 'hover on a private-key string constant', op: 'get_hover', file: 'src/main.ts', needle: 'SIGNING_KEY;', expect: 'withheld' },
  { what: 'hover on a copy of the private key', op: 'get_hover', file: 'src/main.ts', needle: 'keyCopy', expect: 'redacted' },
  { what: 'diagnostics quoting the private key', op: 'get_diagnostics', file: 'src/main.ts', expect: 'redacted' },
  { what: 'hover on an outside-root constant (tsconfig paths)', op: 'get_hover', file: 'src/main.ts', needle: 'OUTSIDE_TOKEN.length', expect: 'withheld' },
  { what: 'signature help of an outside-root function', op: 'signature_help', file: 'src/main.ts', needle: 'OUTSIDE_TOKEN, 1)', expect: 'withheld' },
  { what: 'hover on a constant of id_rsa.py (pyright)', op: 'get_hover', file: 'py/app.py', needle: 'TOKEN)', expect: 'withheld' },
  { what: 'hover on a private-key constant (pyright)', op: 'get_hover', file: 'py/app.py', needle: 'PEM)', expect: 'withheld' },
  { what: 'signature help of an id_rsa.py function (pyright)', op: 'signature_help', file: 'py/app.py', needle: 'TOKEN)', after: 'signed', expect: 'withheld' },
];

const TEXT_FRONTENDS = ['one-shot CLI', 'MCP stdio (--daemon off)', 'sidecar'];

function callOf(c: TextCase, root: string): { op: string; input: Record<string, unknown> } {
  if (!c.needle) return { op: c.op, input: { file: c.file } };
  const p = positionOf(root, c.file, c.needle, c.after ? { after: c.after } : {});
  return { op: c.op, input: { file: c.file, line: p.line, column: p.column } };
}

function said(answer: string, expected: TextCase['expect']): boolean {
  return expected === 'withheld' ? answer.includes('"withheld"') || answer.includes('withheld:') : answer.includes('[private key redacted]');
}

async function textRows(w: TrustWorld): Promise<Line[]> {
  const t = textsWorld();
  const lines: Line[] = [];
  try {
    for (const fe of TEXT_FRONTENDS) {
      const t0 = performance.now();
      const answers = await trustFrontend(w, fe, (_v, root) => TEXT_CASES.map((c) => callOf(c, root)))(TRUST_VECTORS[0]!, t.root).catch((e: unknown) =>
        TEXT_CASES.map(() => `failed: ${String(e)}`),
      );
      const ms = Math.round((performance.now() - t0) / TEXT_CASES.length);
      TEXT_CASES.forEach((c, i) => {
        const a = answers[i] ?? '';
        const leaks = leaked(a);
        const ok = said(a, c.expect);
        lines.push({
          what: `trust text: ${c.what}`,
          frontend: fe,
          expected: c.expect === 'withheld' ? 'withheld with the reason, nothing quoted' : 'key redacted, said',
          outcome: leaks.length ? `LEAKED ${leaks.join(', ')}` : ok ? c.expect : `not ${c.expect}: ${a.slice(0, 160)}`,
          pass: !leaks.length && ok,
          ms,
        });
      });
    }
  } finally {
    fs.rmSync(t.base, { recursive: true, force: true });
  }
  return lines;
}

interface ProfileCase {
  what: string;
  repo: Record<string, unknown>;
  trusted?: boolean;
  /** The tools MCP must list. */
  tools: string[];
  /** Texts the server instructions must hold. */
  warns: string[];
}

async function profileRows(w: TrustWorld): Promise<Line[]> {
  const core = profileTools('core', operations).sort();
  const all = profileTools('all', operations).sort();
  const cases: ProfileCase[] = [
    { what: '"tools": "all" over the user\'s core', repo: { tools: 'all' }, tools: core, warns: ['"tools" "all"', 'lspgate trust'] },
    {
      what: "a list naming write tools over the user's core",
      repo: { tools: ['find_definition', 'move_file', 'delete_symbol', 'rename_symbol'] },
      tools: ['find_definition'],
      warns: ['move_file', 'lspgate trust'],
    },
    {
      what: 'trustedFolders and allowedRoots set by the repository',
      repo: { trustedFolders: ['/'], allowedRoots: ['/'] },
      tools: core,
      warns: ['"trustedFolders": only the user', '"allowedRoots": only the user'],
    },
    { what: '"tools": "all" in a folder the user trusted', repo: { tools: 'all' }, trusted: true, tools: all, warns: [] },
  ];
  const cfg = path.join(w.env.XDG_CONFIG_HOME, 'lspgate', 'config.json');
  const before = fs.existsSync(cfg) ? fs.readFileSync(cfg, 'utf8') : undefined;
  fs.mkdirSync(path.dirname(cfg), { recursive: true });
  fs.writeFileSync(cfg, JSON.stringify({ ...(before ? (JSON.parse(before) as object) : {}), tools: 'core' }));
  const lines: Line[] = [];
  try {
    for (const [i, c] of cases.entries()) {
      const root = path.join(w.base, `profile-${i}`);
      fs.mkdirSync(path.join(root, '.lspgate'), { recursive: true });
      fs.writeFileSync(path.join(root, '.lspgate', 'config.json'), JSON.stringify(c.repo));
      if (c.trusted) await runCli(['trust', root], { cacheDir: w.cacheDir, env: w.env });
      const t0 = performance.now();
      let outcome: string;
      let pass = false;
      try {
        const conn = await connectStdio(CLI, ['mcp', '--daemon', 'off', '--root', root], { cacheDir: w.cacheDir, env: w.env, cwd: root });
        try {
          const listed = (await conn.client.listTools()).tools.map((t) => t.name).sort();
          const instructions = conn.client.getInstructions() ?? '';
          const missing = c.warns.filter((x) => !instructions.includes(x));
          const extra = listed.filter((n) => !c.tools.includes(n));
          pass = !extra.length && listed.length === c.tools.length && !missing.length;
          outcome = `${listed.length} tools${extra.length ? ` (beyond: ${extra.slice(0, 4).join(', ')})` : ''}; ${missing.length ? `warning lacks ${missing.join(', ')}` : c.warns.length ? 'warned' : 'no warning'}`;
        } finally {
          await conn.client.close();
        }
      } catch (e) {
        outcome = `failed: ${String(e)}`;
      }
      if (c.trusted) await runCli(['untrust', root], { cacheDir: w.cacheDir, env: w.env });
      lines.push({
        what: `trust profile: ${c.what}`,
        frontend: 'MCP stdio (--daemon off)',
        expected: c.trusted ? 'the folder chooses its tools' : "the user's profile, widening named",
        outcome,
        pass,
        ms: Math.round(performance.now() - t0),
      });
    }
  } finally {
    if (before === undefined) fs.rmSync(cfg, { force: true });
    else fs.writeFileSync(cfg, before);
  }
  return lines;
}

/** The profile and server-text rows; `only`: `trust profile` or `trust text` runs one part. */
export async function profileAndTextRows(only = ''): Promise<Line[]> {
  const w = trustWorld();
  try {
    return [...(only.startsWith('trust text') ? [] : await profileRows(w)), ...(only.startsWith('trust profile') ? [] : await textRows(w))];
  } finally {
    // the one-shot CLI and the sidecar (--daemon auto) started the world's daemon
    await runCli(['daemon', 'stop'], { cacheDir: w.cacheDir, env: w.env });
    fs.rmSync(w.base, { recursive: true, force: true });
  }
}
