// The account portal's one script: copies a new key, and tries a key on /icons from this page.
// Everything else on the portal works without it.
for (const button of document.querySelectorAll('button[data-copy]')) {
  button.addEventListener('click', async () => {
    const text = document.getElementById(button.dataset.copy).textContent;
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = 'Copied';
    } catch {
      const range = document.createRange();
      range.selectNodeContents(document.getElementById(button.dataset.copy));
      getSelection().removeAllRanges();
      getSelection().addRange(range);
      button.textContent = 'Selected: press Ctrl+C';
    }
  });
}

const tryForm = document.getElementById('try-key');
if (tryForm) {
  const result = document.getElementById('try-result');
  const newKey = document.getElementById('new-key');
  if (newKey) tryForm.elements.key.value = newKey.textContent;
  tryForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    result.textContent = 'Calling…';
    try {
      const response = await fetch(tryForm.dataset.path, { headers: { 'X-API-Key': tryForm.elements.key.value.trim() }, credentials: 'omit' });
      const body = await response.json().catch(() => null);
      const detail = response.ok ? `${body?.meta?.total ?? '?'} icons in the catalogue` : (body?.error?.message ?? response.statusText);
      result.textContent = `${response.status}: ${detail}`;
      result.dataset.status = String(response.status);
    } catch (error) {
      result.textContent = `The call failed: ${error.message}`;
      result.dataset.status = 'failed';
    }
  });
}
