/** Escapes text for HTML element content and quoted attributes. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/**
 * A small server-rendered page for the moments of the sign-in flow that happen outside the app
 * (an expired link, a provider error, signed out): no script, the app's colours, one way onward.
 */
export function authPage(page: {
  title: string;
  message: string;
  action: { label: string; href: string };
}): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(page.title)} · Inkwell</title>
<style>
  :root { color-scheme: light dark; --bg: #faf9f7; --card: #fff; --text: #1f1d1a; --muted: #6b665f; --accent: #3b5bdb; }
  @media (prefers-color-scheme: dark) { :root { --bg: #161514; --card: #201f1d; --text: #ece9e4; --muted: #a39e96; --accent: #8ea2ff; } }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: var(--bg); color: var(--text);
    font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  main { background: var(--card); padding: 2.5rem; border-radius: 12px; max-width: 26rem; width: calc(100% - 3rem);
    box-shadow: 0 1px 3px rgb(0 0 0 / 0.08), 0 8px 24px rgb(0 0 0 / 0.06); }
  .brand { font-weight: 700; letter-spacing: -0.01em; color: var(--muted); margin: 0 0 1.5rem; }
  h1 { font-size: 1.35rem; margin: 0 0 0.5rem; }
  p { color: var(--muted); margin: 0 0 1.5rem; }
  a.button { display: inline-block; background: var(--accent); color: #fff; text-decoration: none; padding: 0.6rem 1.1rem;
    border-radius: 8px; font-weight: 600; }
  a.button:focus-visible { outline: 3px solid color-mix(in srgb, var(--accent) 40%, transparent); outline-offset: 2px; }
</style>
</head>
<body>
<main>
<p class="brand">Inkwell</p>
<h1>${escapeHtml(page.title)}</h1>
<p>${escapeHtml(page.message)}</p>
<a class="button" href="${escapeHtml(page.action.href)}">${escapeHtml(page.action.label)}</a>
</main>
</body>
</html>
`;
}
