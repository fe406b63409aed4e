import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';

/** An answer whose status and headers have arrived; its body is read as it comes. */
export interface UpstreamResponse {
  status: number;
  /** A header's value (the first, if repeated), or null. */
  header(name: string): string | null;
  /** The body's bytes as they arrive; leaving a loop over it early hangs up. */
  body: AsyncIterable<Uint8Array>;
}

/** Connections kept open between requests, as `fetch` keeps them. */
const agents = {
  'http:': new http.Agent({ keepAlive: true }),
  'https:': new https.Agent({ keepAlive: true }),
};

/**
 * POSTs `body` (JSON) to `target` and resolves once the status and headers are in. Aborting
 * `signal` closes the connection at any point, and the body's loop then throws.
 *
 * Node's own HTTP client rather than `fetch`: the AI request waits on this before the writer
 * sees a word, and `fetch` (its Request, Headers and web streams) took ~0.5 ms more per request
 * on these machines to the first byte of an answer.
 */
export function postJson(
  target: URL,
  headers: Readonly<Record<string, string>>,
  body: string,
  signal: AbortSignal,
): Promise<UpstreamResponse> {
  const agent = target.protocol === 'https:' ? agents['https:'] : agents['http:'];
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      target,
      {
        method: 'POST',
        agent,
        signal,
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
      },
      (response) => resolve(upstreamResponse(response)),
    );
    // `on`, not `once`: a request aborted mid-answer reports an error too, after the promise settled.
    request.on('error', reject);
    request.end(body);
  });
}

function upstreamResponse(response: IncomingMessage): UpstreamResponse {
  return {
    status: response.statusCode ?? 0,
    header: (name) => {
      const value = response.headers[name.toLowerCase()];
      return (Array.isArray(value) ? value[0] : value) ?? null;
    },
    body: response,
  };
}

/** Up to `maxChars` of a body as text (for logs and error messages), then hangs up. */
export async function readSome(response: UpstreamResponse, maxChars: number): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of response.body) {
    text += decoder.decode(chunk, { stream: true });
    if (text.length >= maxChars) break;
  }
  return text.slice(0, maxChars);
}
