/**
 * The sign-in flow's HTML: the embedded provider's sign-in, create-account and sign-out pages, and
 * the message pages both sides show (an expired link, signed out). Server-rendered without any
 * script, so the strict Content-Security-Policy below holds for all of them.
 */

/** Headers every page of the provider sends. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

/** Field values the forms send back when re-rendered (never the password). */
export interface FormValues {
  email?: string;
  name?: string;
}

/** Messages per field, plus `form` for one that concerns the whole form. */
export type FormErrors = Partial<Record<'email' | 'name' | 'password' | 'form', string>>;

/** Where the forms post to and link to. */
export interface FormTargets {
  /** `/idp/interaction/<uid>`: GET shows sign-in, `?mode=signup` create-account. */
  interactionPath: string;
}

/** Escapes text for HTML element content and quoted attribute values. */
function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** The sign-in form. */
export function signInPage(
  targets: FormTargets,
  values: FormValues = {},
  errors: FormErrors = {},
): string {
  const path = escapeHtml(targets.interactionPath);
  return layout(
    'Sign in',
    `<form method="post" action="${path}/login">
      ${formError(errors)}
      ${field({ id: 'email', label: 'E-mail', type: 'email', autocomplete: 'email', value: values.email, error: errors.email, maxlength: 254 })}
      ${field({ id: 'password', label: 'Password', type: 'password', autocomplete: 'current-password', error: errors.password })}
      <button type="submit">Sign in</button>
    </form>
    <p class="switch">New to Inkwell? <a href="${path}?mode=signup">Create an account</a></p>`,
  );
}

/** The create-account form. */
export function signUpPage(
  targets: FormTargets,
  values: FormValues = {},
  errors: FormErrors = {},
): string {
  const path = escapeHtml(targets.interactionPath);
  return layout(
    'Create your account',
    `<form method="post" action="${path}/signup">
      ${formError(errors)}
      ${field({ id: 'name', label: 'Name', type: 'text', autocomplete: 'name', value: values.name, error: errors.name, maxlength: 100 })}
      ${field({ id: 'email', label: 'E-mail', type: 'email', autocomplete: 'email', value: values.email, error: errors.email, maxlength: 254 })}
      ${field({ id: 'password', label: 'Password', type: 'password', autocomplete: 'new-password', error: errors.password, hint: 'At least 8 characters.', minlength: 8, maxlength: 200 })}
      <button type="submit">Create account</button>
    </form>
    <p class="switch">Already have an account? <a href="${path}">Sign in</a></p>`,
  );
}

/** A page with a heading, a sentence and a link, for expired links and failures. */
export function messagePage(
  heading: string,
  text: string,
  link: { href: string; label: string },
): string {
  return layout(
    heading,
    `<p>${escapeHtml(text)}</p>
    <p><a class="button" href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>`,
  );
}

/**
 * The sign-out confirmation. `form` is oidc-provider's hidden form (id `op.logoutForm`, with its
 * CSRF token); the button submits it with `logout=yes`, which ends the whole provider session.
 */
export function signOutPage(form: string): string {
  return layout(
    'Sign out of Inkwell?',
    `<p>You will need your e-mail and password to sign in again.</p>
    ${form}
    <button type="submit" form="op.logoutForm" name="logout" value="yes">Sign out</button>`,
  );
}

interface FieldOptions {
  id: 'email' | 'name' | 'password';
  label: string;
  type: 'email' | 'text' | 'password';
  autocomplete: string;
  value?: string | undefined;
  error?: string | undefined;
  hint?: string;
  minlength?: number;
  maxlength?: number;
}

function field(options: FieldOptions): string {
  const { id, error, hint } = options;
  // An error replaces the hint, which would mostly say the same thing again.
  const described = error ? `${id}-error` : hint ? `${id}-hint` : '';
  const attributes = [
    `id="${id}"`,
    `name="${id}"`,
    `type="${options.type}"`,
    `autocomplete="${options.autocomplete}"`,
    'required',
    options.minlength ? `minlength="${options.minlength}"` : '',
    options.maxlength ? `maxlength="${options.maxlength}"` : '',
    options.value ? `value="${escapeHtml(options.value)}"` : '',
    error ? 'aria-invalid="true"' : '',
    described ? `aria-describedby="${described}"` : '',
  ].filter(Boolean);
  return `<div class="field">
        <label for="${id}">${options.label}</label>
        <input ${attributes.join(' ')}>
        ${hint && !error ? `<p class="hint" id="${id}-hint">${escapeHtml(hint)}</p>` : ''}
        ${error ? `<p class="error" id="${id}-error">${escapeHtml(error)}</p>` : ''}
      </div>`;
}

function formError(errors: FormErrors): string {
  return errors.form ? `<p class="alert" role="alert">${escapeHtml(errors.form)}</p>` : '';
}

function layout(heading: string, content: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="robots" content="noindex">
<title>${escapeHtml(heading)} · Inkwell</title>
<style>${STYLES}</style>
</head>
<body>
<main class="card">
  <p class="brand">Inkwell</p>
  <h1>${escapeHtml(heading)}</h1>
  ${content}
</main>
</body>
</html>`;
}

// The app's theme colours (client/styles/theme.css), repeated because these pages load no assets.
const STYLES = `
:root{color-scheme:light dark;--bg:#fbfaf7;--surface:#fff;--fg:#1d1f23;--muted:#6b6e75;--border:#e3e0d8;--accent:#2f62d0;--accent-fg:#fff;--danger:#c2362b;--shadow:0 1px 2px rgba(20,20,30,.06),0 8px 24px rgba(20,20,30,.12)}
@media (prefers-color-scheme:dark){:root{--bg:#141518;--surface:#1d1f23;--fg:#e7e6e2;--muted:#9a9da5;--border:#30333a;--accent:#7ea3ff;--accent-fg:#0e1320;--danger:#ff7b72;--shadow:0 1px 2px rgba(0,0,0,.4),0 10px 30px rgba(0,0,0,.5)}}
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:grid;place-items:center;padding:24px 16px;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif}
.card{width:100%;max-width:380px;padding:32px;border:1px solid var(--border);border-radius:12px;background:var(--surface);box-shadow:var(--shadow)}
.brand{margin:0 0 20px;font:600 20px/1 'Iowan Old Style',Charter,Georgia,serif;letter-spacing:.01em}
h1{margin:0 0 20px;font-size:20px;font-weight:600}
p{margin:0 0 16px}
.field{margin-bottom:16px}
label{display:block;margin-bottom:6px;font-size:14px;font-weight:550}
input{width:100%;height:38px;padding:0 10px;border:1px solid var(--border);border-radius:8px;background:var(--bg);color:var(--fg);font:inherit}
input:focus-visible,button:focus-visible,a:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
input[aria-invalid=true]{border-color:var(--danger)}
.hint{margin:6px 0 0;color:var(--muted);font-size:13px}
.error{margin:6px 0 0;color:var(--danger);font-size:13px}
.alert{padding:10px 12px;border:1px solid var(--danger);border-radius:8px;color:var(--danger);font-size:14px}
button,.button{display:block;width:100%;height:38px;padding:0 14px;border:1px solid var(--accent);border-radius:8px;background:var(--accent);color:var(--accent-fg);font:inherit;font-weight:600;line-height:36px;text-align:center;text-decoration:none;cursor:pointer}
button:hover,.button:hover{background:color-mix(in srgb,var(--accent) 88%,var(--fg))}
.switch{margin:20px 0 0;color:var(--muted);font-size:14px;text-align:center}
a{color:var(--accent)}
`;
