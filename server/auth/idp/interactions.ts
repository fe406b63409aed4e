import type { IncomingMessage, ServerResponse } from 'node:http';
import { errors, type Interaction, type Provider } from 'oidc-provider';
import type { Queryable } from '../../db/database.ts';
import type { Logger } from '../../logger.ts';
import { authenticate, createAccount } from './accounts.ts';
import { parseSignIn, parseSignUp, readFormBody } from './forms.ts';
import {
  PAGE_HEADERS,
  messagePage,
  signInPage,
  signUpPage,
  type FormErrors,
  type FormTargets,
  type FormValues,
} from '../pages.ts';
import { hit, retryAfter } from '../../db/rateLimits.ts';
import { loginByEmail, loginByIp, signupByIp } from './throttle.ts';

/** What the interaction pages need from the provider around them. */
export interface InteractionDeps {
  provider: Provider;
  db: Queryable;
  logger: Logger;
  /** Path the provider is mounted at, such as `/idp`. */
  mountPath: string;
  /** The app's home page, where dead-end pages link to. */
  homeUrl: string;
  /** The client's address, for throttling. */
  clientIp(req: IncomingMessage): string;
  /** Accounts one address may create per hour. */
  signupsPerHour: number;
}

const WRONG_CREDENTIALS = 'The e-mail or password is not correct.';
const TAKEN = 'An account with this e-mail already exists. Sign in instead.';
/** Echoed field values are cut here, so a hostile 16 KB value is not sent back whole. */
const ECHO_LIMIT = 320;

/**
 * Serves the sign-in and create-account pages under `<mountPath>/interaction/`: `rest` is the
 * path after that prefix (`<uid>`, `<uid>/login` or `<uid>/signup`).
 */
export async function handleInteraction(
  deps: InteractionDeps,
  req: IncomingMessage,
  res: ServerResponse,
  rest: string,
  query: URLSearchParams,
): Promise<void> {
  const match = /^([\w-]{1,64})(?:\/(login|signup))?\/?$/.exec(rest);
  if (!match) {
    sendPage(res, 404, messagePage('Page not found', 'There is nothing here.', homeLink(deps)));
    return;
  }
  const uid = match[1]!;
  const action = match[2] as 'login' | 'signup' | undefined;
  const targets: FormTargets = { interactionPath: `${deps.mountPath}/interaction/${uid}` };
  const method = req.method ?? 'GET';

  if (!action) {
    if (method !== 'GET' && method !== 'HEAD') return methodNotAllowed(deps, res, 'GET, HEAD');
    const interaction = await loadInteraction(deps, req, res, uid);
    if (!interaction) return expired(deps, res);
    const hint = interaction.params['login_hint'];
    const values: FormValues = { email: typeof hint === 'string' ? echo(hint) : '' };
    const page =
      query.get('mode') === 'signup' ? signUpPage(targets, values) : signInPage(targets, values);
    sendPage(res, 200, page);
    return;
  }

  if (method !== 'POST') return methodNotAllowed(deps, res, 'POST');
  const body = await readFormBody(req);
  if (body.kind === 'too_large') {
    const back = { href: targets.interactionPath, label: 'Back to sign-in' };
    // The rest of the body is not read, so the connection cannot carry another request.
    sendPage(res, 413, messagePage('Form too large', 'That form was larger than allowed.', back), {
      Connection: 'close',
    });
    return;
  }
  if (body.kind === 'unsupported') {
    const back = { href: targets.interactionPath, label: 'Back to sign-in' };
    sendPage(res, 415, messagePage('Form not understood', 'Send the form from the page.', back));
    return;
  }
  const interaction = await loadInteraction(deps, req, res, uid);
  if (!interaction) return expired(deps, res);
  const submission: Submission = {
    req,
    res,
    targets,
    fields: body.fields,
    values: {
      email: echo(body.fields.get('email') ?? ''),
      name: echo(body.fields.get('name') ?? ''),
    },
    ip: deps.clientIp(req),
  };
  await (action === 'login' ? signIn(deps, submission) : signUp(deps, submission));
}

/** A posted form and what answering it needs. */
interface Submission {
  req: IncomingMessage;
  res: ServerResponse;
  targets: FormTargets;
  fields: URLSearchParams;
  /** What the re-rendered form shows again. */
  values: FormValues;
  ip: string;
}

async function signIn(deps: InteractionDeps, form: Submission): Promise<void> {
  const { res, targets, values } = form;
  const parsed = parseSignIn(form.fields);
  if (!parsed.ok) return sendPage(res, 400, signInPage(targets, values, parsed.errors));
  const rules = [loginByEmail(parsed.value.email), loginByIp(form.ip)];
  // Checked before the password, so a blocked guess learns nothing and costs no scrypt.
  const wait = await retryAfter(deps.db, rules);
  if (wait > 0) {
    const errors: FormErrors = {
      form: `Too many sign-in attempts. Try again in ${minutes(wait)}.`,
    };
    return sendPage(res, 429, signInPage(targets, values, errors), { 'Retry-After': String(wait) });
  }
  const account = await authenticate(deps.db, parsed.value.email, parsed.value.password);
  if (!account) {
    await hit(deps.db, rules);
    deps.logger.info('idp: sign-in failed (wrong e-mail or password)');
    return sendPage(res, 400, signInPage(targets, values, { form: WRONG_CREDENTIALS }));
  }
  deps.logger.info('idp: signed in', { accountId: account.id });
  await finish(deps, form, account.id);
}

async function signUp(deps: InteractionDeps, form: Submission): Promise<void> {
  const { res, targets, values } = form;
  const parsed = parseSignUp(form.fields);
  if (!parsed.ok) return sendPage(res, 400, signUpPage(targets, values, parsed.errors));
  const wait = await hit(deps.db, [signupByIp(form.ip, deps.signupsPerHour)]);
  if (wait > 0) {
    const errors: FormErrors = {
      form: `Too many accounts were created from this network. Try again in ${minutes(wait)}.`,
    };
    return sendPage(res, 429, signUpPage(targets, values, errors), { 'Retry-After': String(wait) });
  }
  const account = await createAccount(deps.db, parsed.value);
  if (!account) return sendPage(res, 409, signUpPage(targets, values, { email: TAKEN }));
  deps.logger.info('idp: account created', { accountId: account.id });
  await finish(deps, form, account.id);
}

/** Ends the interaction as signed in and sends the browser back to the provider (303). */
function finish(deps: InteractionDeps, form: Submission, accountId: string): Promise<void> {
  return deps.provider.interactionFinished(
    form.req,
    form.res,
    { login: { accountId } },
    { mergeWithLastSubmission: false },
  );
}

/** Writes a whole HTML page with the pages' security headers. */
export function sendPage(
  res: ServerResponse,
  status: number,
  html: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    ...PAGE_HEADERS,
    'Content-Length': String(Buffer.byteLength(html)),
    ...headers,
  });
  res.end(html);
}

/**
 * The login interaction the browser's cookie points at, if it is the one in the URL and still
 * alive. Another prompt cannot reach these pages: the client's consent is granted up front.
 */
async function loadInteraction(
  deps: InteractionDeps,
  req: IncomingMessage,
  res: ServerResponse,
  uid: string,
): Promise<Interaction | undefined> {
  try {
    const interaction = await deps.provider.interactionDetails(req, res);
    if (interaction.uid !== uid) return undefined;
    if (interaction.prompt.name !== 'login') {
      deps.logger.warn('idp: unexpected interaction prompt', { prompt: interaction.prompt.name });
      return undefined;
    }
    return interaction;
  } catch (error) {
    if (error instanceof errors.SessionNotFound) return undefined;
    throw error;
  }
}

function expired(deps: InteractionDeps, res: ServerResponse): void {
  const text =
    'This sign-in page has expired or was opened in another browser. Start again from Inkwell.';
  sendPage(res, 400, messagePage('Sign-in expired', text, homeLink(deps)));
}

function methodNotAllowed(deps: InteractionDeps, res: ServerResponse, allow: string): void {
  const page = messagePage('Not allowed', 'This page does not take that request.', homeLink(deps));
  sendPage(res, 405, page, { Allow: allow });
}

function homeLink(deps: InteractionDeps): { href: string; label: string } {
  return { href: deps.homeUrl, label: 'Go to Inkwell' };
}

function echo(value: string): string {
  return value.slice(0, ECHO_LIMIT);
}

function minutes(seconds: number): string {
  const count = Math.max(1, Math.ceil(seconds / 60));
  return count === 1 ? '1 minute' : `${count} minutes`;
}
