// The portal's pages, rendered on the server: plain HTML forms that work without script (the
// one script copies a new key and tries a key on /icons), every field labelled and every button
// named for its action, so that they are usable with a keyboard and a screen reader.

/** Text for HTML content and attribute values. */
export function escapeHtml(text: string | number): string {
  return String(text).replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export interface Layout {
  base: string;
  title: string;
  /** The session's CSRF token, for the sign-out form of signed-in pages. */
  csrf?: string;
  signedInAs?: string;
  assets: { css: string; js: string };
}

export function page(layout: Layout, main: string): string {
  const nav = layout.signedInAs
    ? `<p>Signed in as <strong>${escapeHtml(layout.signedInAs)}</strong></p>
<form method="post" action="${layout.base}/sign-out">${csrfField(layout.csrf!)}<button type="submit">Sign out</button></form>`
    : `<p><a href="${layout.base}/sign-in">Sign in</a> · <a href="${layout.base}/sign-up">Create an account</a></p>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${escapeHtml(layout.title)} · Icon Catalogue</title>
<link rel="stylesheet" href="${layout.assets.css}">
</head>
<body>
<header><a href="/" class="brand">Icon Catalogue</a><nav aria-label="Account">${nav}</nav></header>
<main id="main">
${main}
</main>
<script src="${layout.assets.js}"></script>
</body>
</html>
`;
}

export function csrfField(token: string): string {
  return `<input type="hidden" name="csrf" value="${escapeHtml(token)}">`;
}

function messages({ error, notice }: { error?: string; notice?: string }): string {
  return `${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}${notice ? `<p class="notice" role="status">${escapeHtml(notice)}</p>` : ''}`;
}

/** The sign-in page; with `provider`, a button that signs in through the identity provider too. */
export function signInForm(base: string, csrf: string, shown: { error?: string; notice?: string }, provider?: string): string {
  const other = provider
    ? `\n<form method="post" action="${base}/sign-in/oidc">
${csrfField(csrf)}
<button type="submit">${escapeHtml(provider)}</button>
</form>`
    : '';
  return `<h1>Sign in</h1>
${messages(shown)}
<form method="post" action="${base}/sign-in" class="stack">
${csrfField(csrf)}
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required maxlength="254">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="256">
<button type="submit">Sign in</button>
</form>${other}
<p>No account yet? <a href="${base}/sign-up">Create one</a>.</p>`;
}

export function signUpForm(
  base: string,
  csrf: string,
  { invite, invitation, email, minLength }: { invite: boolean; invitation?: string; email?: string; minLength: number },
  shown: { error?: string },
): string {
  const code = invite
    ? `<label for="invitation">Invitation code</label>
<input id="invitation" name="invitation" required value="${escapeHtml(invitation ?? '')}" autocomplete="off">`
    : '';
  return `<h1>Create an account</h1>
${messages(shown)}
${invite ? '<p>Sign-ups are by invitation: use the code you were given, with the email it was made for.</p>' : ''}
<form method="post" action="${base}/sign-up" class="stack">
${csrfField(csrf)}
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${escapeHtml(email ?? '')}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="${minLength}" maxlength="256" aria-describedby="password-rule">
<p id="password-rule" class="hint">At least ${minLength} characters.</p>
${code}
<button type="submit">Sign up</button>
</form>
<p>Have an account? <a href="${base}/sign-in">Sign in</a>.</p>`;
}

export interface ProfileKey {
  publicId: string;
  name: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  hourlyLimit: number | null;
  thisHour: number;
}

export interface UsageSeries {
  /** Requests per UTC hour, oldest first. */
  hours: number[];
  /** Requests per UTC day, oldest first. */
  days: number[];
  /** The first hour's start and the first day's start. */
  firstHour: Date;
  firstDay: Date;
}

export interface OwnedIcon {
  id: number;
  name: string;
  slug: string;
  previewUrl: string;
  svgUrl: string;
  pngUrl: string;
}

const when = (date: Date | null) => (date ? `<time datetime="${date.toISOString()}">${date.toISOString().slice(0, 16).replace('T', ' ')} UTC</time>` : 'never');

export function profile(
  base: string,
  csrf: string,
  { email, keys, created, usage, icons, maxKeys, usageDays }: {
    email: string;
    keys: ProfileKey[];
    created?: { key: string; name: string };
    usage: UsageSeries;
    icons: OwnedIcon[];
    maxKeys: number;
    usageDays: number;
  },
  shown: { error?: string; notice?: string },
): string {
  const createdPanel = created
    ? `<section class="new-key" aria-labelledby="new-key-title">
<h2 id="new-key-title">Your new key “${escapeHtml(created.name)}”</h2>
<p role="status">Copy it now: it is shown once and cannot be shown again.</p>
<p><code id="new-key">${escapeHtml(created.key)}</code> <button type="button" class="copy" data-copy="new-key">Copy</button></p>
</section>`
    : '';
  const rows = keys
    .map(
      (key) => `<tr>
<td><code>${escapeHtml(key.publicId)}</code></td>
<td>${escapeHtml(key.name ?? '(no name)')}</td>
<td>${when(key.createdAt)}</td>
<td>${when(key.lastUsedAt)}</td>
<td>${key.hourlyLimit === null ? 'the default' : escapeHtml(key.hourlyLimit)}</td>
<td><span class="this-hour" data-key="${escapeHtml(key.publicId)}">${escapeHtml(key.thisHour)}</span>${key.hourlyLimit === null ? '' : ` of ${escapeHtml(key.hourlyLimit)}`}</td>
<td><form method="post" action="${base}/keys/${escapeHtml(key.publicId)}/revoke">${csrfField(csrf)}<button type="submit" aria-label="Revoke ${escapeHtml(key.name ?? key.publicId)} (${escapeHtml(key.publicId)})">Revoke</button></form></td>
</tr>`,
    )
    .join('\n');
  const table = keys.length
    ? `<table>
<caption>Keys in use (${keys.length} of at most ${maxKeys})</caption>
<thead><tr><th scope="col">Key id</th><th scope="col">Name</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Hourly limit</th><th scope="col">Requests this hour</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`
    : '<p>No keys yet.</p>';
  return `<h1>Your account</h1>
<p>${escapeHtml(email)}</p>
${messages(shown)}
${createdPanel}
<section aria-labelledby="create-title">
<h2 id="create-title">Create a key</h2>
<form method="post" action="${base}/keys" class="inline">
${csrfField(csrf)}
<label for="key-name">Key name</label>
<input id="key-name" name="name" required maxlength="100" placeholder="for example: my website">
<button type="submit">Create key</button>
</form>
</section>
<section aria-labelledby="keys-title">
<h2 id="keys-title">Your keys</h2>
${table}
<p class="hint">Send a key in the <code>X-API-Key</code> header. A revoked key stops working at once.</p>
</section>
<section aria-labelledby="try-title">
<h2 id="try-title">Try a key</h2>
<form id="try-key" class="inline" data-path="/icons?per_page=1">
<label for="try-key-value">API key to try</label>
<input id="try-key-value" name="key" autocomplete="off" spellcheck="false" required>
<button type="submit">Call /icons</button>
</form>
<p id="try-result" role="status" aria-live="polite"></p>
</section>
<section aria-labelledby="usage-title">
<h2 id="usage-title">Usage</h2>
${usageCharts(usage, usageDays)}
</section>
<section aria-labelledby="icons-title">
<h2 id="icons-title">Premium icons you own</h2>
${ownedIcons(icons)}
</section>
<section aria-labelledby="sessions-title">
<h2 id="sessions-title">Sessions</h2>
<p>Signs you out on every browser and device where you are signed in, this one included.</p>
<form method="post" action="${base}/sign-out-everywhere">${csrfField(csrf)}<button type="submit">End all sessions</button></form>
</section>`;
}

function ownedIcons(icons: OwnedIcon[]): string {
  if (!icons.length) return '<p>None yet.</p>';
  const items = icons
    .map(
      (icon) => `<li><img src="${escapeHtml(icon.previewUrl)}" alt="" width="48" height="48"><span>${escapeHtml(icon.name)}</span>
<a href="${escapeHtml(icon.svgUrl)}" download="${escapeHtml(icon.slug)}.svg">SVG<span class="visually-hidden"> of ${escapeHtml(icon.name)}</span></a>
<a href="${escapeHtml(icon.pngUrl)}" download="${escapeHtml(icon.slug)}.png">PNG<span class="visually-hidden"> of ${escapeHtml(icon.name)}</span></a></li>`,
    )
    .join('\n');
  return `<ul class="owned">\n${items}\n</ul>`;
}

/** A bar chart as inline SVG: one bar per value, the tallest filling the height. */
function barChart(values: number[], { id, title, width, height }: { id: string; title: string; width: number; height: number }): string {
  const max = Math.max(1, ...values);
  const total = values.reduce((sum, value) => sum + value, 0);
  const step = width / values.length;
  const bars = values
    .map((value, i) => {
      if (value === 0) return '';
      const barHeight = Math.max(1, (value / max) * (height - 4));
      return `<rect x="${(i * step).toFixed(2)}" y="${(height - barHeight).toFixed(2)}" width="${Math.max(1, step - 1).toFixed(2)}" height="${barHeight.toFixed(2)}"><title>${value}</title></rect>`;
    })
    .join('');
  const label = `${title}: ${total} in total, at most ${Math.max(0, ...values)} in one.`;
  return `<figure>
<svg id="${id}" class="chart" role="img" aria-label="${escapeHtml(label)}" data-total="${total}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" preserveAspectRatio="none">
<line x1="0" y1="${height - 0.5}" x2="${width}" y2="${height - 0.5}" class="axis"/>${bars}
</svg>
<figcaption>${escapeHtml(label)}</figcaption>
</figure>`;
}

function usageCharts(usage: UsageSeries, days: number): string {
  return `${barChart(usage.hours, { id: 'usage-hours', title: `Requests per hour, last ${days} days`, width: 720, height: 120 })}
${barChart(usage.days, { id: 'usage-days', title: `Requests per day, last ${days} days`, width: 720, height: 120 })}
<p class="hint">Counted by every gateway and written every few seconds; times are UTC.</p>`;
}

export function messagePage(heading: string, text: string): string {
  return `<h1>${escapeHtml(heading)}</h1>\n<p role="alert">${escapeHtml(text)}</p>`;
}
