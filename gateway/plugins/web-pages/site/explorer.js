// The explorer: the catalogue's first client, using only the public REST API with the key a
// person pastes (kept in this tab's sessionStorage, sent in X-API-Key, never put in an address).
// Search runs as they type (debounced; a newer request aborts the one before it).

const KEY_STORAGE = 'icon-catalogue.api-key';
const PER_PAGE = 48;
const TYPING_PAUSE_MS = 250;
const PREVIEW_SIZES = [16, 24, 48, 96];
const ICON_PAGE = /^\/[^/]+\/icons\/([^/]+)$/;

const byId = (id) => document.getElementById(id);
const filterNames = ['q', 'category', 'style', 'color', 'license', 'sort'];
let key = sessionStorage.getItem(KEY_STORAGE) ?? '';
let page = 1;
let pending;
let typingTimer;
/** The icon the dialog shows: its list item and, once fetched, its full record. */
let shown;

class ApiError extends Error {
  constructor(status, message, retryAfter) {
    super(message);
    this.status = status;
    this.retryAfter = retryAfter;
  }
}

async function api(path, signal) {
  const response = await fetch(path, { headers: { 'X-API-Key': key, Accept: 'application/json' }, signal });
  const remaining = response.headers.get('X-RateLimit-Remaining');
  if (remaining !== null) byId('limit').textContent = `${remaining} of ${response.headers.get('X-RateLimit-Limit')} requests left this hour`;
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, body?.error?.message ?? response.statusText, response.headers.get('Retry-After'));
  return body;
}

function say(text) {
  byId('status').textContent = text;
}

function explain(error) {
  if (error.status === 401) return 'The key was refused: check it and paste it again.';
  if (error.status === 429) return `Too many requests: try again in ${error.retryAfter ?? 'a few'} seconds.`;
  if (error.status === 400) return error.message;
  return `Something went wrong (${error.status ?? 'network'}): ${error.message}`;
}

function query() {
  const params = new URLSearchParams();
  for (const name of filterNames) {
    const value = byId(name).value.trim();
    if (value) params.set(name, value);
  }
  params.set('page', String(page));
  params.set('per_page', String(PER_PAGE));
  return `${params.has('q') ? '/search' : '/icons'}?${params}`;
}

/** The icon's page on this site: the path of its `url` (its host may be another deployment's). */
function pagePath(item) {
  try {
    return new URL(item.url, location.href).pathname;
  } catch {
    return `/en/icons/${encodeURIComponent(item.slug)}`;
  }
}

function tile(item) {
  const li = document.createElement('li');
  const link = document.createElement('a');
  link.className = 'tile';
  link.href = pagePath(item);
  link.dataset.slug = item.slug;
  const img = document.createElement('img');
  img.alt = '';
  img.width = 48;
  img.height = 48;
  link.dataset.fallback = 'No image';
  img.addEventListener('error', () => link.classList.add('no-image'), { once: true });
  img.loading = 'lazy';
  img.decoding = 'async';
  // A list gives no premium file to anyone (only an owner's single-icon response signs one):
  // a premium tile shows the icon's public preview, a small PNG that needs no key.
  img.src = item.premium ? item.preview_url : item.svg_url;
  const name = document.createElement('span');
  name.className = 'name';
  name.textContent = item.name;
  link.append(img, name);
  if (item.premium) {
    const badge = document.createElement('span');
    badge.className = 'badge';
    badge.textContent = 'Premium';
    link.append(badge);
  }
  link.addEventListener('click', (event) => {
    event.preventDefault();
    history.pushState({ slug: item.slug }, '', link.href);
    openIcon(item.slug);
  });
  li.append(link);
  return li;
}

async function search() {
  if (!key) return say('Paste your API key to start.');
  pending?.abort();
  const controller = new AbortController();
  pending = controller;
  say('Searching…');
  try {
    const { data, meta } = await api(query(), controller.signal);
    byId('grid').replaceChildren(...data.map(tile));
    const pages = meta.total_pages;
    say(meta.total === 0 ? 'No icons match.' : `${meta.total.toLocaleString('en')} icons, page ${meta.page} of ${pages}.`);
    byId('page-info').textContent = pages > 0 ? `Page ${meta.page} of ${pages}` : '';
    byId('prev').disabled = meta.page <= 1;
    byId('next').disabled = meta.page >= pages;
  } catch (error) {
    if (error.name === 'AbortError') return;
    byId('grid').replaceChildren();
    say(explain(error));
  } finally {
    if (pending === controller) pending = undefined;
  }
}

async function loadCategories() {
  const select = byId('category');
  try {
    const { data } = await api('/categories');
    const chosen = select.value;
    select.replaceChildren(select.options[0], ...data.map((category) => new Option(`${category.name} (${category.icon_count})`, category.slug)));
    select.value = chosen;
  } catch (error) {
    say(explain(error));
  }
}

function useKey(value) {
  key = value.trim();
  if (key) sessionStorage.setItem(KEY_STORAGE, key);
  else sessionStorage.removeItem(KEY_STORAGE);
  byId('key').value = key;
  if (!key) {
    byId('grid').replaceChildren();
    return say('Paste your API key to start.');
  }
  loadCategories();
  search();
  const slug = ICON_PAGE.exec(location.pathname)?.[1];
  if (slug) openIcon(decodeURIComponent(slug));
}

// The dialog of one icon.

/** The markup in a colour: currentColor (monochrome sets) replaced; multicolour icons keep theirs. */
function coloured(svg, colour) {
  return colour ? svg.replaceAll('currentColor', colour) : svg;
}

function renderPreviews() {
  const container = byId('previews');
  if (!shown?.record?.svg) return container.replaceChildren();
  const colour = document.querySelector('input[name="preview-colour"]:checked')?.value ?? '';
  const source = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(coloured(shown.record.svg, colour))}`;
  container.replaceChildren(
    ...PREVIEW_SIZES.map((size) => {
      const figure = document.createElement('figure');
      const img = document.createElement('img');
      img.src = source;
      img.width = size;
      img.height = size;
      img.alt = `${shown.record.name} at ${size} pixels`;
      const caption = document.createElement('figcaption');
      caption.textContent = `${size}px`;
      figure.append(img, caption);
      return figure;
    }),
  );
}

function showRecord(record) {
  byId('icon-name').textContent = record.name;
  byId('icon-category').textContent = record.category;
  byId('icon-style').textContent = record.style;
  byId('icon-downloads').textContent = record.downloads.toLocaleString('en');
  const license = byId('icon-license');
  license.replaceChildren(record.license);
  if (record.license_url) {
    const link = document.createElement('a');
    link.href = record.license_url;
    link.rel = 'noopener noreferrer';
    link.target = '_blank';
    link.textContent = record.license;
    license.replaceChildren(link);
  }
  if (record.premium) license.append(' (premium)');
  byId('icon-tags').replaceChildren(
    ...(record.tags ?? []).map((tag) => {
      const li = document.createElement('li');
      li.textContent = tag.name;
      return li;
    }),
  );
  byId('icon-markup').value = record.svg ?? '';
  renderPreviews();
}

async function openIcon(slug) {
  const dialog = byId('icon-dialog');
  shown = { slug };
  byId('icon-name').textContent = slug;
  byId('icon-locked').hidden = true;
  byId('icon-body').hidden = true;
  byId('copy-status').textContent = '';
  if (!dialog.open) dialog.showModal();
  try {
    const { data } = await api(`/icons/${encodeURIComponent(slug)}`);
    if (shown?.slug !== slug) return;
    shown.record = data;
    showRecord(data);
    byId('icon-body').hidden = false;
  } catch (error) {
    if (shown?.slug !== slug) return;
    if (error.status === 403) {
      byId('icon-locked').hidden = false;
    } else {
      byId('icon-name').textContent = error.status === 404 ? `No icon “${slug}”` : explain(error);
    }
  }
}

function closedIcon() {
  shown = undefined;
  if (ICON_PAGE.test(location.pathname)) history.pushState(null, '', '/');
}

async function copy(text, what) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Without the clipboard API (an insecure origin): select the text for the person to copy.
    const area = byId('icon-markup');
    area.value = text;
    area.select();
    document.execCommand('copy');
  }
  byId('copy-status').textContent = `Copied the ${what}.`;
}

function imgTag(record) {
  const escapeAttribute = (text) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<img src="${escapeAttribute(record.svg_url)}" alt="${escapeAttribute(record.name)}" width="24" height="24">`;
}

// Wiring.

byId('key-form').addEventListener('submit', (event) => {
  event.preventDefault();
  useKey(byId('key').value);
});
byId('forget-key').addEventListener('click', () => useKey(''));
byId('filters').addEventListener('submit', (event) => event.preventDefault());
byId('q').addEventListener('input', () => {
  clearTimeout(typingTimer);
  page = 1;
  typingTimer = setTimeout(search, TYPING_PAUSE_MS);
});
for (const name of filterNames.slice(1)) {
  byId(name).addEventListener('change', () => {
    page = 1;
    search();
  });
}
byId('prev').addEventListener('click', () => {
  page = Math.max(1, page - 1);
  search();
});
byId('next').addEventListener('click', () => {
  page += 1;
  search();
});
byId('close-dialog').addEventListener('click', () => byId('icon-dialog').close());
byId('icon-dialog').addEventListener('close', closedIcon);
for (const radio of document.querySelectorAll('input[name="preview-colour"]')) radio.addEventListener('change', renderPreviews);
byId('copy-svg').addEventListener('click', () => shown?.record?.svg && copy(shown.record.svg, 'SVG markup'));
byId('copy-img').addEventListener('click', () => shown?.record && copy(imgTag(shown.record), '<img> tag'));
addEventListener('popstate', () => {
  const slug = ICON_PAGE.exec(location.pathname)?.[1];
  if (slug) openIcon(decodeURIComponent(slug));
  else if (byId('icon-dialog').open) byId('icon-dialog').close();
});

if (key) useKey(key);
else if (ICON_PAGE.test(location.pathname)) say('Paste your API key to see this icon.');
