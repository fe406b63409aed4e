import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import type { FormErrors } from '../pages.ts';

/** Largest form body the interaction pages accept; theirs are well under 1 KB. */
const FORM_BODY_LIMIT = 16 * 1024;

/** What reading a form body gave. */
export type FormBody =
  { kind: 'ok'; fields: URLSearchParams } | { kind: 'too_large' } | { kind: 'unsupported' };

/** Reads an `application/x-www-form-urlencoded` body, refusing one over `FORM_BODY_LIMIT`. */
export async function readFormBody(req: IncomingMessage): Promise<FormBody> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') return { kind: 'unsupported' };
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > FORM_BODY_LIMIT) return { kind: 'too_large' };
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    // A chunked body has no declared length; stop reading it at the limit.
    if (size > FORM_BODY_LIMIT) return { kind: 'too_large' };
    chunks.push(chunk);
  }
  return { kind: 'ok', fields: new URLSearchParams(Buffer.concat(chunks).toString('utf8')) };
}

const MESSAGES = {
  email: 'Enter a valid e-mail address.',
  password: 'Enter your password.',
  newPassword: 'Use at least 8 characters.',
  longPassword: 'Use at most 200 characters.',
  name: 'Enter your name.',
  longName: 'Use at most 100 characters.',
};

// Bounded before the format check, so a 10,000-character value costs no regular-expression work.
const emailSchema = z.string().trim().max(254, MESSAGES.email).pipe(z.email(MESSAGES.email));

const signInSchema = z.object({
  email: emailSchema,
  password: z.string().min(1, MESSAGES.password).max(200, MESSAGES.longPassword),
});

const signUpSchema = z.object({
  name: z.string().trim().min(1, MESSAGES.name).max(100, MESSAGES.longName),
  email: emailSchema,
  password: z.string().min(8, MESSAGES.newPassword).max(200, MESSAGES.longPassword),
});

/** A parsed form, or the messages to show beside its fields. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; errors: FormErrors };

/** The sign-in form's fields. */
export type SignInForm = z.infer<typeof signInSchema>;

/** The create-account form's fields. */
export type SignUpForm = z.infer<typeof signUpSchema>;

/** Validates the sign-in form. */
export function parseSignIn(fields: URLSearchParams): Parsed<SignInForm> {
  return parse(signInSchema, fields, ['email', 'password']);
}

/** Validates the create-account form. */
export function parseSignUp(fields: URLSearchParams): Parsed<SignUpForm> {
  return parse(signUpSchema, fields, ['name', 'email', 'password']);
}

function parse<T>(
  schema: z.ZodType<T>,
  fields: URLSearchParams,
  names: readonly ('email' | 'name' | 'password')[],
): Parsed<T> {
  const input = Object.fromEntries(names.map((name) => [name, fields.get(name) ?? '']));
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  const errors: FormErrors = {};
  for (const issue of result.error.issues) {
    const name = issue.path[0];
    if ((name === 'email' || name === 'name' || name === 'password') && !errors[name]) {
      errors[name] = issue.message;
    }
  }
  return { ok: false, errors };
}
