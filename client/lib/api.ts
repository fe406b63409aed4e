import type { DocumentRecord } from '../../common/api/documents.ts';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../../common/api/csrf.ts';
import type { ErrorCode } from '../../common/api/errors.ts';
import type * as ApiSchemaModule from './apiSchemas.ts';
import { largeBodyFetch } from './largeBodyFetch.ts';

/** The schemas of common/api, as {@link ApiClient} hands them to a request's `pick`. */
export type ApiSchemas = typeof ApiSchemaModule;

/** Anything that checks an answer and returns it typed: in practice a zod schema. */
export interface ResponseSchema<T> {
  parse(data: unknown): T;
}

/**
 * How a request's answer is checked: a function that chooses a zod schema once the schemas have
 * loaded, or a check of its own that needs no zod (startChecks.ts, for the answers read at start).
 */
export type PickSchema<T> = ((schemas: ApiSchemas) => ResponseSchema<T>) | ResponseSchema<T>;

/** An error answer of the API: `{ error: { code, message, ...details } }`. */
export class ApiError extends Error {
  override name = 'ApiError';

  constructor(
    /** The stable code to branch on. */
    readonly code: ErrorCode,
    /** The server's sentence, fit to show to people. */
    message: string,
    /** The HTTP status. */
    readonly status: number,
    /** The other fields of the error object. */
    readonly details: Readonly<Record<string, unknown>> = {},
    /** For `version_conflict`: the server's copy of the document. */
    readonly current?: DocumentRecord,
    /** Seconds the server asked to wait (`Retry-After`), when it did. */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

/** The request never reached the server or its answer never came back: offline, most often. */
export class NetworkError extends Error {
  override name = 'NetworkError';
}

/** A request body that is already JSON text (a large document serialised block by block). */
export class JsonText {
  constructor(readonly text: string) {}
}

/** Options of one request. */
export interface RequestOptions {
  /** Cancels the request; the promise then rejects with the fetch's AbortError. */
  signal?: AbortSignal;
  /** Lets the request outlive the page (pagehide); only for bodies that {@link fitsKeepalive}. */
  keepalive?: boolean;
}

/** What {@link createApiClient} needs; tests pass a fake fetch. */
export interface ApiClientOptions {
  /** The fetch to call. */
  fetch: typeof globalThis.fetch;
  /** Loads the schemas of common/api (a dynamic import in the app). */
  loadSchemas: () => Promise<ApiSchemas>;
  /** Called once when the API answers 401: the session has ended. */
  onUnauthenticated: () => void;
}

/** A typed client of Inkwell's JSON API. */
export interface ApiClient {
  /** GET `path`, its answer checked by the schema `pick` chooses. */
  get<T>(path: string, pick: PickSchema<T>, options?: RequestOptions): Promise<T>;
  /** POST `body` as JSON. */
  post<T>(path: string, body: unknown, pick: PickSchema<T>, options?: RequestOptions): Promise<T>;
  /** PATCH `body` as JSON. */
  patch<T>(path: string, body: unknown, pick: PickSchema<T>, options?: RequestOptions): Promise<T>;
  /** PUT `body` as JSON. */
  put<T>(path: string, body: unknown, pick: PickSchema<T>, options?: RequestOptions): Promise<T>;
  /** DELETE `path`, expecting 204 No Content. */
  delete(path: string, options?: RequestOptions): Promise<void>;
  /** DELETE `path` whose answer is JSON (the sharing API answers with the new state). */
  deleteWith<T>(path: string, pick: PickSchema<T>, options?: RequestOptions): Promise<T>;
  /**
   * POST `body` as JSON and resolve with the successful Response unread, for a streamed answer
   * (Server-Sent Events); error answers reject with {@link ApiError} as for the other methods.
   */
  stream(path: string, body: unknown, options?: RequestOptions): Promise<Response>;
  /**
   * GET `path` (a file, not JSON) and resolve with the successful Response unread; error answers
   * reject with {@link ApiError} as for the other methods.
   */
  getRaw(path: string, options?: RequestOptions): Promise<Response>;
}

/**
 * Browsers refuse keepalive requests whose bodies in flight add up to more than 64 KiB; a little
 * is left for another keepalive request that may still be under way.
 */
export const KEEPALIVE_MAX_BYTES = 60 * 1024;

/** Whether `text` is small enough to send with `keepalive` on pagehide. */
export function fitsKeepalive(text: string): boolean {
  // UTF-8 takes at most three bytes per UTF-16 unit: most bodies are decided without encoding.
  if (text.length > KEEPALIVE_MAX_BYTES) return false;
  if (text.length * 3 <= KEEPALIVE_MAX_BYTES) return true;
  return new TextEncoder().encode(text).byteLength <= KEEPALIVE_MAX_BYTES;
}

/** The sign-in page that brings the browser back to `returnTo` (a path on this site). */
export function signInUrl(returnTo: string): string {
  return `/auth/login?returnTo=${encodeURIComponent(returnTo)}`;
}

function statusCode(status: number, schemas: ApiSchemas): ErrorCode {
  const entry = Object.entries(schemas.ERROR_STATUS).find(([, value]) => value === status);
  return entry ? (entry[0] as ErrorCode) : 'internal';
}

function retryAfterSeconds(response: Response): number | undefined {
  const value = Number(response.headers.get('Retry-After'));
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

/** The error of an answer whose body is not what the API says it is. */
export function notUnderstood(status: number, cause: unknown): ApiError {
  return new ApiError(
    'internal',
    "The server's answer was not understood. Please reload the page.",
    status,
    { cause },
  );
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}

/** Turns an error answer into an {@link ApiError}, even when a proxy answered with HTML. */
async function errorFrom(response: Response, schemas: ApiSchemas): Promise<ApiError> {
  const data = await readJson(response);
  const retryAfter = retryAfterSeconds(response);
  const parsed = schemas.errorBodySchema.safeParse(data);
  if (!parsed.success) {
    const code = statusCode(response.status, schemas);
    const message = `The server couldn't answer (${response.status}). Please try again.`;
    return new ApiError(code, message, response.status, {}, undefined, retryAfter);
  }
  const { code, message, ...details } = parsed.data.error;
  let current: DocumentRecord | undefined;
  if (code === 'version_conflict') {
    current = schemas.versionConflictSchema.safeParse(data).data?.error.current;
  }
  return new ApiError(code, message, response.status, details, current, retryAfter);
}

/** Creates an API client around `options.fetch`. */
export function createApiClient(options: ApiClientOptions): ApiClient {
  let schemas: ApiSchemas | undefined;
  let loading: Promise<ApiSchemas> | undefined;
  let signedOut = false;

  const load = (): Promise<ApiSchemas> => {
    loading ??= options.loadSchemas().then(
      (loaded) => (schemas = loaded),
      (error: unknown) => {
        // A failed chunk load (offline, new deploy) must not poison every later request.
        loading = undefined;
        throw new NetworkError('Could not load the app. Check your connection.', { cause: error });
      },
    );
    return loading;
  };

  // The fetch is called before the first await, so that a keepalive request on pagehide leaves
  // while the page is still there. The schemas load beside the request, and only when its answer
  // needs them: an error, or a `pick` that chooses a zod schema.
  async function request<T>(
    method: string,
    path: string,
    body: unknown,
    pick: PickSchema<T> | null | 'stream' | 'raw',
    requestOptions: RequestOptions = {},
  ): Promise<T> {
    const headers: Record<string, string> = {
      Accept: pick === 'stream' ? 'text/event-stream' : pick === 'raw' ? '*/*' : 'application/json',
    };
    if (method !== 'GET') headers[CSRF_HEADER] = CSRF_HEADER_VALUE;
    let text: string | undefined;
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      text = body instanceof JsonText ? body.text : JSON.stringify(body);
    }
    let response: Promise<Response>;
    try {
      response = options.fetch(path, {
        method,
        headers,
        body: text,
        credentials: 'same-origin',
        signal: requestOptions.signal,
        keepalive: requestOptions.keepalive,
      });
    } catch (error) {
      response = Promise.reject(error as Error);
    }
    if (typeof pick === 'function' && !schemas) load().catch(() => undefined);
    let answer: Response;
    try {
      answer = await response;
    } catch (error) {
      if (requestOptions.signal?.aborted) throw error;
      throw new NetworkError('The server could not be reached.', { cause: error });
    }
    if (!answer.ok) {
      if (answer.status === 401 && !signedOut) {
        signedOut = true;
        options.onUnauthenticated();
      }
      throw await errorFrom(answer, schemas ?? (await load()));
    }
    if (pick === null) return undefined as T;
    if (pick === 'stream' || pick === 'raw') return answer as T;
    const schema = typeof pick === 'function' ? pick(schemas ?? (await load())) : pick;
    const data = await readJson(answer);
    try {
      return schema.parse(data);
    } catch (error) {
      throw notUnderstood(answer.status, error);
    }
  }

  return {
    get: (path, pick, requestOptions) => request('GET', path, undefined, pick, requestOptions),
    post: (path, body, pick, requestOptions) => request('POST', path, body, pick, requestOptions),
    patch: (path, body, pick, requestOptions) => request('PATCH', path, body, pick, requestOptions),
    put: (path, body, pick, requestOptions) => request('PUT', path, body, pick, requestOptions),
    delete: (path, requestOptions) =>
      request<undefined>('DELETE', path, undefined, null, requestOptions),
    deleteWith: (path, pick, requestOptions) =>
      request('DELETE', path, undefined, pick, requestOptions),
    stream: (path, body, requestOptions) =>
      request<Response>('POST', path, body, 'stream', requestOptions),
    getRaw: (path, requestOptions) =>
      request<Response>('GET', path, undefined, 'raw', requestOptions),
  };
}

let leavingForSignIn = false;

/** True once a 401 has sent the browser to sign in: leaving then needs no warning. */
export function isLeavingForSignIn(): boolean {
  return leavingForSignIn;
}

/** Sends the browser to sign in, to come back to the current page. */
export function redirectToSignIn(): void {
  leavingForSignIn = true;
  window.location.assign(signInUrl(window.location.pathname + window.location.search));
}

/** The app's API client. */
export const api: ApiClient = createApiClient({
  // Large bodies (an import's create) are sent by a worker; see offThreadFetch.ts.
  fetch: largeBodyFetch((input, init) => fetch(input, init)),
  loadSchemas: () => import('./apiSchemas.ts'),
  onUnauthenticated: redirectToSignIn,
});
