/**
 * The two TypeScript SDK clients over Streamable HTTP behind one face, for tests that must hold for
 * both: the 1.x client (`@modelcontextprotocol/sdk`, most MCP hosts) and the 2.x client
 * (`@modelcontextprotocol/client`). Each client's fetch is watched: the GET streams it opened are
 * counted, and the open one can be cut as a network drop would cut it (the client sees its stream
 * fail and opens it again by itself).
 */
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

export type Sdk = '1.x' | '2.x';
export const SDKS: readonly Sdk[] = ['1.x', '2.x'];

export interface HttpSdkClient {
  sdk: Sdk;
  ping(): Promise<unknown>;
  setLoggingLevel(level: 'debug' | 'info'): Promise<unknown>;
  /** The data of every `notifications/message` from now on. */
  onLog(listener: (data: unknown) => void): void;
  close(): Promise<void>;
  /** GET streams the server answered 200 so far. */
  getsOpened(): number;
  /** Cuts the open GET stream. */
  dropGet(): void;
}

function watchedFetch(): { fetch: typeof fetch; opened: () => number; drop: () => void } {
  let opened = 0;
  let current: AbortController | undefined;
  const watched = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    if ((init?.method ?? 'GET') !== 'GET') return fetch(input, init);
    const cut = new AbortController();
    const response = await fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, cut.signal]) : cut.signal });
    if (response.ok) {
      opened++;
      current = cut;
    }
    return response;
  };
  return { fetch: watched as typeof fetch, opened: () => opened, drop: () => current?.abort(new Error('dropped by the test')) };
}

export async function connectSdk(sdk: Sdk, url: string, token: string): Promise<HttpSdkClient> {
  const watch = watchedFetch();
  const options = { requestInit: { headers: { Authorization: `Bearer ${token}` } }, fetch: watch.fetch };
  const common = { sdk, getsOpened: watch.opened, dropGet: watch.drop };
  if (sdk === '1.x') {
    const client = new ClientV1({ name: 'lspgate-tests-v1', version: '0.0.0' });
    await client.connect(new TransportV1(new URL(url), options));
    return {
      ...common,
      ping: () => client.ping(),
      setLoggingLevel: (level) => client.setLoggingLevel(level),
      onLog: (listener) => client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => listener(n.params.data)),
      close: () => client.close(),
    };
  }
  const client = new ClientV2({ name: 'lspgate-tests', version: '0.0.0' });
  await client.connect(new TransportV2(new URL(url), options));
  return {
    ...common,
    ping: () => client.ping(),
    setLoggingLevel: (level) => client.setLoggingLevel(level),
    onLog: (listener) => client.setNotificationHandler('notifications/message', (n) => listener(n.params.data)),
    close: () => client.close(),
  };
}
