/**
 * `node dist/src/cli/floor-run.js SCRIPT [ARGS…]` runs SCRIPT on a Node at lspgate's floor: this Node
 * when it is new enough, else the packaged one (src/link/node-floor.ts). `npm test`, `npm run bench` and
 * the other scripts start through it, so vitest, its workers and every lspgate they spawn (on
 * process.execPath) run on that Node. `--version` prints the version SCRIPT would run on.
 */
import { runOnFloor, runScriptOnFloor } from '../link/node-floor.js';

const [script, ...args] = process.argv.slice(2);
if (!script) {
  process.stderr.write('usage: node floor-run.js SCRIPT [ARGS...] | --version\n');
  process.exitCode = 2;
} else if (script === '--version') {
  // on an old Node, runOnFloor runs `<packaged node> --version`
  if (runOnFloor('--version', [])) process.stdout.write(`${process.version}\n`);
} else {
  await runScriptOnFloor(script, args);
}
