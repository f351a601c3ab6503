/**
 * The emulator's HTML: the OAuth sign-in and consent screens, error pages and a small index. Plain
 * server-rendered forms with inline styles and no scripts or external assets, so they work offline,
 * under a strict Content-Security-Policy and with a keyboard or screen reader.
 */

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const STYLE = `
  :root { color-scheme: light dark; --accent: #1cc29f; --ink: #1f2933; --muted: #52606d;
    --card: #ffffff; --page: #f0f4f3; --line: #d9e2ec; --danger: #b42318; }
  @media (prefers-color-scheme: dark) { :root { --ink: #f5f7fa; --muted: #cbd2d9;
    --card: #1f2933; --page: #111827; --line: #3e4c59; } }
  * { box-sizing: border-box; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; padding: 1.5rem;
    background: var(--page); color: var(--ink);
    font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  main { width: 100%; max-width: 26rem; background: var(--card); border: 1px solid var(--line);
    border-radius: 12px; padding: 2rem; box-shadow: 0 8px 24px rgb(0 0 0 / 8%); }
  .brand { display: flex; align-items: center; gap: .5rem; font-weight: 700; color: var(--accent);
    margin-bottom: 1.25rem; }
  .brand span { display: inline-grid; place-items: center; width: 2rem; height: 2rem;
    border-radius: 8px; background: var(--accent); color: #fff; }
  h1 { font-size: 1.35rem; margin: 0 0 .5rem; }
  p { margin: .5rem 0; color: var(--muted); }
  label { display: block; font-weight: 600; margin: 1rem 0 .25rem; }
  .hint { font-weight: 400; color: var(--muted); font-size: .875rem; }
  input[type=email], input[type=text] { width: 100%; padding: .65rem .75rem; font: inherit;
    color: inherit; background: transparent; border: 1px solid var(--line); border-radius: 8px; }
  input:focus-visible, button:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
  .actions { display: flex; gap: .75rem; margin-top: 1.5rem; }
  button { flex: 1; padding: .7rem 1rem; font: inherit; font-weight: 600; border-radius: 8px;
    cursor: pointer; border: 1px solid var(--line); background: transparent; color: inherit; }
  button.link { flex: none; padding: 0; border: 0; color: var(--accent); text-decoration: underline;
    font-weight: 400; }
  .switch { margin-top: 1rem; font-size: .9rem; }
  button.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
  ul { padding-left: 1.25rem; color: var(--muted); }
  .error { color: var(--danger); background: rgb(180 35 24 / 8%); border-radius: 8px;
    padding: .5rem .75rem; }
  .notice { background: rgb(28 194 159 / 12%); border-radius: 8px; padding: .5rem .75rem;
    color: inherit; }
  code { font-size: .9em; overflow-wrap: anywhere; }
  .who { font-size: .9rem; }
`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Expense service emulator</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<div class="brand" aria-hidden="true"><span>¢</span> Expense service emulator</div>
${body}
</main>
</body>
</html>`;
}

function hidden(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(
      ([name, value]) =>
        `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`,
    )
    .join('\n');
}

export interface SignInPage {
  appName: string;
  action: string;
  fields: Record<string, string>;
  email?: string;
  /** Shown when the e-mail has no account yet: the form then asks for a first name too. */
  askName?: boolean;
  error?: string;
  /** A neutral message (not an error), e.g. that a new account is about to be created. */
  notice?: string;
}

export function signInPage(page: SignInPage): string {
  const error = page.error
    ? `<p class="error" role="alert" id="form-error">${escapeHtml(page.error)}</p>`
    : page.notice
      ? `<p class="notice" role="status">${escapeHtml(page.notice)}</p>`
      : '';
  const nameField = page.askName
    ? `<label for="first_name">First name <span class="hint">(creates your account)</span></label>
<input id="first_name" name="first_name" type="text" autocomplete="given-name" required autofocus>
<label for="last_name">Last name <span class="hint">(optional)</span></label>
<input id="last_name" name="last_name" type="text" autocomplete="family-name">`
    : '';
  return layout(
    'Sign in',
    `<h1>Sign in to continue to ${escapeHtml(page.appName)}</h1>
<p>This is a local demo service: signing in needs only your e-mail address. A new address creates an account.</p>
${error}
<form method="post" action="${escapeHtml(page.action)}">
${hidden({ ...page.fields, step: 'sign_in' })}
<label for="email">E-mail address</label>
<input id="email" name="email" type="email" autocomplete="email" required value="${escapeHtml(page.email ?? '')}"${page.askName ? '' : ' autofocus'}${page.error ? ' aria-describedby="form-error"' : ''}>
${nameField}
<div class="actions"><button class="primary" type="submit">Continue</button></div>
</form>`,
  );
}

export interface ConsentPage {
  appName: string;
  action: string;
  fields: Record<string, string>;
  userName: string;
  userEmail: string;
  /** Offer "Not you?" when the person was recognised by their session rather than just signed in. */
  canSwitch?: boolean;
}

export function consentPage(page: ConsentPage): string {
  const app = escapeHtml(page.appName);
  return layout(
    `Allow ${page.appName}?`,
    `<h1>Allow ${app} to use your account?</h1>
<p class="who">Signed in as <strong>${escapeHtml(page.userName)}</strong> (${escapeHtml(page.userEmail)})</p>
<p>${app} will be able to:</p>
<ul>
<li>see your friends, groups, expenses and balances;</li>
<li>add, change and delete expenses and comments for you.</li>
</ul>
<form method="post" action="${escapeHtml(page.action)}">
${hidden({ ...page.fields, step: 'decide' })}
<div class="actions">
<button type="submit" name="decision" value="deny">Deny</button>
<button class="primary" type="submit" name="decision" value="allow">Allow</button>
</div>
${page.canSwitch ? '<p class="switch">Not you? <button class="link" type="submit" name="decision" value="switch">Use another account</button></p>' : ''}
</form>`,
  );
}

export function verifierPage(appName: string, verifier: string): string {
  return layout(
    'Authorized',
    `<h1>${escapeHtml(appName)} is authorized</h1>
<p>Enter this code in ${escapeHtml(appName)} to finish connecting:</p>
<p><code>${escapeHtml(verifier)}</code></p>`,
  );
}

export function errorPage(title: string, message: string): string {
  return layout(
    title,
    `<h1>${escapeHtml(title)}</h1>
<p class="error" role="alert">${escapeHtml(message)}</p>
<p>Nothing was shared. You can close this page.</p>`,
  );
}

export function indexPage(): string {
  return layout(
    'Running',
    `<h1>The expense service emulator is running</h1>
<p>The API lives under <code>/api/v3.0/</code>, for example <code>/api/v3.0/get_currencies</code>.</p>
<p>OAuth 2.0: <code>/oauth/authorize</code> and <code>/oauth/token</code>. OAuth 1.0a:
<code>/oauth/request_token</code>, <code>/oauth/authorize</code>, <code>/oauth/access_token</code>.</p>
<p>Tests and demos drive it through <code>/__emulator/</code> (see docs/emulator.md).</p>`,
  );
}
