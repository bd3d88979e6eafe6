/**
 * Workspace trust rows for `npm run redteam`: each vector a repository's own `.lspgate` config can
 * carry (test/helpers/hostile-trust.ts: a server's env, command, args, extraPath, a `${root}`
 * expansion, a TypeScript SDK path, a raised maxFileBytes) through the one-shot CLI, MCP stdio (in
 * its own process and with the daemon running) and the sidecar, untrusted: index, search, definition,
 * references, diagnostics, and no marker (or the user's limit kept), with a warning naming the setting
 * and `lspgate trust <root>`; then trusted (`lspgate trust`): the configured program runs, and it says so.
 */
import fs from 'node:fs';

import { daemonPaths } from '../src/frontends/daemon-client/socket-dir.js';
import { FRONTEND_NAMES, hostileFolder, markerExists, markerOf, tooLarge, TRUST_VECTORS, trustFrontend, trustWorld } from '../test/helpers/hostile-trust.js';
import { CLI, runCli, spawnNode, waitFor } from '../test/helpers/spawn.js';
import type { Line } from './redteam-writes.js';

export async function trustRows(): Promise<Line[]> {
  const w = trustWorld();
  const lines: Line[] = [];
  const daemon = spawnNode(CLI, ['daemon'], { cacheDir: w.cacheDir, env: w.env });
  try {
    await waitFor(() => fs.existsSync(daemonPaths(w.cacheDir, w.env).socket), 'the daemon socket', 60_000);
    for (const v of TRUST_VECTORS) {
      const root = hostileFolder(w, v);
      for (const fe of FRONTEND_NAMES) {
        const t0 = performance.now();
        const answers = await trustFrontend(w, fe)(v, root).catch((e: unknown) => [`failed: ${String(e)}`]);
        const ran = markerExists(w, v);
        const limit = v.kind === 'limit' ? tooLarge(answers[0] ?? '') : true;
        const warned = answers.filter((a) => a.includes(v.setting) && a.includes(`lspgate trust ${root}`)).length;
        const outcome = ran ? `RAN ${markerOf(w, v)}` : !limit ? 'limit raised' : `nothing ran; ${warned}/${answers.length} answers warn`;
        lines.push({
          what: `untrusted .lspgate ${v.name}`,
          frontend: fe,
          expected: 'nothing runs, warning names the setting',
          outcome,
          pass: !ran && limit && warned >= answers.length - 1,
          ms: Math.round(performance.now() - t0),
        });
      }
      const t0 = performance.now();
      await runCli(['trust', root], { cacheDir: w.cacheDir, env: w.env });
      const index = await runCli(['index_folder', '--root', root, '--json', '--path', root], { cacheDir: w.cacheDir, env: w.env, cwd: root });
      if (v.kind === 'marker')
        await runCli(['find_definition', '--root', root, '--json', '--file', v.file, '--line', '1', '--column', '1'], {
          cacheDir: w.cacheDir,
          env: w.env,
          cwd: root,
        });
      const applied = v.kind === 'marker' ? markerExists(w, v) : !tooLarge(index.stdout);
      const says = (index.stdout + index.stderr).includes('applied in full');
      lines.push({
        what: `trusted .lspgate ${v.name}`,
        frontend: 'one-shot CLI',
        expected: 'configured server runs, answer says so',
        outcome: `${applied ? 'applied' : 'NOT applied'}; ${says ? 'says so' : 'silent'}`,
        pass: applied && says,
        ms: Math.round(performance.now() - t0),
      });
      await runCli(['untrust', root], { cacheDir: w.cacheDir, env: w.env });
    }
  } finally {
    await runCli(['daemon', 'stop'], { cacheDir: w.cacheDir, env: w.env });
    const bound = setTimeout(() => daemon.child.kill('SIGKILL'), 20_000);
    await daemon.exited;
    clearTimeout(bound);
    fs.rmSync(w.base, { recursive: true, force: true });
  }
  return lines;
}
