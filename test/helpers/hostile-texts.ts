/**
 * A workspace whose server texts would quote what reads may not (test/languages/hover-trust.test.ts,
 * bench/redteam-texts.ts): a TypeScript root whose tsconfig `paths` and `include` reach a sibling
 * `../outside`, a `.env.ts` exporting a token, a `.ts` and a `.py` file holding a private-key string
 * constant, a secret-named Python module (`id_rsa.py`), and the files that use them. The key text is
 * built by concatenation here, so no key-looking file is ever committed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** What no answer may contain. */
export const SECRET_TOKEN = 'sk-live-' + 'a1b2c3d4e5f6';
export const SECRET_DOC = 'Signs with the production ' + 'token';
export const OUTSIDE_VALUE = 'outside-' + 'value-98765';
export const OUTSIDE_DOC = 'Outside docs: never ' + 'quoted';
export const PY_TOKEN = 'py-secret-' + '424242';
export const KEY_BODY = 'MIIEowIBAAKCAQEA' + 'xQ7Zk9QbT2vH8p3s';
const BEGIN = '-----BEGIN RSA ' + 'PRIVATE KEY-----';
const END = '-----END RSA ' + 'PRIVATE KEY-----';
export const KEY_LITERAL = `${BEGIN}\\n${KEY_BODY}\\n${END}`;

export interface TextsWorld {
  base: string;
  root: string;
  outside: string;
}

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

export function textsWorld(): TextsWorld {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-texts-')));
  const root = path.join(base, 'ws');
  const outside = path.join(base, 'outside');
  write(
    path.join(root, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'esnext',
        moduleResolution: 'bundler',
        strict: true,
        noEmit: true,
        baseUrl: '.',
        paths: { '@outside/*': ['../outside/*'] },
      },
      include: ['src/**/*.ts', '../outside/**/*.ts'],
    }),
  );
  write(
    path.join(root, 'src', '.env.ts'),
    `export const API_TOKEN = '${SECRET_TOKEN}';\n\n/** ${SECRET_DOC} ${SECRET_TOKEN}. */\nexport function sendSecret(token: string, note: string): string {\n  return token + note;\n}\n`,
  );
  write(path.join(root, 'src', 'keys.ts'), `export const SIGNING_KEY = "${KEY_LITERAL}";\n`);
  write(
    path.join(outside, 'lib.ts'),
    `/** ${OUTSIDE_DOC} */\nexport const OUTSIDE_TOKEN = '${OUTSIDE_VALUE}';\n\n/** ${OUTSIDE_DOC} (${OUTSIDE_VALUE}) */\nexport function outsideCall(token: string, n: number): string {\n  return token + n;\n}\n`,
  );
  write(
    path.join(root, 'src', 'main.ts'),
    [
      "import { API_TOKEN, sendSecret } from './.env';",
      "import { SIGNING_KEY } from './keys';",
      "import { OUTSIDE_TOKEN, outsideCall } from '@outside/lib';",
      '',
      'export const fromEnv = API_TOKEN.length;',
      'export const keyCopy = SIGNING_KEY;',
      'export const fromOutside = OUTSIDE_TOKEN.length;',
      "export const sent = sendSecret(API_TOKEN, 'note');",
      'export const called = outsideCall(OUTSIDE_TOKEN, 1);',
      'export const biggest = Math.max(1, 2);',
      'export const wrong: 1 = SIGNING_KEY;',
      '',
    ].join('\n'),
  );
  write(path.join(root, 'py', 'pkeys.py'), `PEM = "${KEY_LITERAL}"\n`);
  write(
    path.join(root, 'py', 'id_rsa.py'),
    `TOKEN = "${PY_TOKEN}"\n\n\ndef sign(data: str, token: str) -> str:\n    """Signs with ${PY_TOKEN}."""\n    return data + token\n`,
  );
  write(
    path.join(root, 'py', 'app.py'),
    'from pkeys import PEM\nfrom id_rsa import TOKEN, sign\n\nkey_length = len(PEM)\ntoken_length = len(TOKEN)\nsigned = sign("data", TOKEN)\n',
  );
  return { base, root, outside };
}

/** Every text a forbidden answer would carry; an answer holding none of them quoted nothing it may not. */
export const FORBIDDEN = [SECRET_TOKEN, SECRET_DOC, OUTSIDE_VALUE, OUTSIDE_DOC, PY_TOKEN, KEY_BODY, 'PRIVATE KEY-----'];

export function leaked(answer: unknown): string[] {
  const text = JSON.stringify(answer);
  return FORBIDDEN.filter((f) => text.includes(f) || text.includes(JSON.stringify(f).slice(1, -1)));
}
