import { SECRET_DEFAULTS, SECRET_TTLS, VIEWS_RANGE, type SecretTtl } from '../../lambdas/definitions/limits';
import type { FileContent, Shared } from '../../client/src/index';
import { copy, element, say, show } from './dom';
import { describeFailure, withSessionKey } from './service';

/** `{site_url}/`: encrypts text or a file in the browser, creates the secret, shows its link. */

const TTL_LABELS: Record<SecretTtl, string> = { '1h': '1 hour', '6h': '6 hours', '12h': '12 hours', '1d': '1 day', '7d': '7 days' };

const form = element('share-form', HTMLFormElement);
const text = element('text', HTMLTextAreaElement);
const file = element('file', HTMLInputElement);
const fileChosen = element('file-chosen', HTMLElement);
const removeFile = element('remove-file', HTMLButtonElement);
const ttl = element('ttl', HTMLSelectElement);
const views = element('views', HTMLSelectElement);
const passphrase = element('share-passphrase', HTMLInputElement);
const showPassphrase = element('show-passphrase', HTMLInputElement);
const submit = element('submit', HTMLButtonElement);
const status = element('status', HTMLElement);
const error = element('error', HTMLElement);
const result = element('result', HTMLElement);
const resultTitle = element('result-title', HTMLElement);
const link = element('link', HTMLInputElement);
const copyLink = element('copy-link', HTMLButtonElement);
const copyStatus = element('copy-status', HTMLElement);
const resultNote = element('result-note', HTMLElement);
const another = element('another', HTMLButtonElement);

function fillChoices(): void {
  for (const value of Object.keys(SECRET_TTLS) as SecretTtl[]) {
    ttl.add(new Option(TTL_LABELS[value], value, value === SECRET_DEFAULTS.ttl, value === SECRET_DEFAULTS.ttl));
  }
  for (let count = VIEWS_RANGE.min; count <= VIEWS_RANGE.max; count++) {
    const isDefault = count === SECRET_DEFAULTS.views;
    views.add(new Option(count === 1 ? '1 view' : `${count} views`, String(count), isDefault, isDefault));
  }
}

/** A chosen file is shared instead of the text, which is set aside (not lost) until the file is removed. */
function onFileChange(): void {
  const chosen = file.files?.[0];
  text.disabled = chosen !== undefined;
  show(fileChosen, chosen !== undefined);
}

async function content(): Promise<string | FileContent | undefined> {
  const chosen = file.files?.[0];
  if (chosen) return { name: chosen.name, bytes: new Uint8Array(await chosen.arrayBuffer()), ...(chosen.type ? { mimetype: chosen.type } : {}) };
  return text.value === '' ? undefined : text.value;
}

const isSecretTtl = (value: string): value is SecretTtl => Object.hasOwn(SECRET_TTLS, value);

function describeShared(shared: Shared, viewCount: number, gated: boolean): string {
  const until = new Date(shared.expires).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' });
  const times = viewCount === 1 ? 'once' : `${viewCount} times`;
  const opened = `It can be opened ${times}, until ${until}. Opening the link does not use a view: the person clicks “Reveal” when ready.`;
  return gated ? `${opened} They will also need the passphrase: tell it to them another way than the link.` : opened;
}

async function onSubmit(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  say(error, undefined);
  const secret = await content();
  if (secret === undefined) {
    say(error, 'Type a secret or choose a file to share.');
    text.focus();
    return;
  }
  const viewCount = Number(views.value);
  // Empty: no passphrase. Otherwise taken as typed, spaces included.
  const gated = passphrase.value !== '';
  const options = {
    ttl: isSecretTtl(ttl.value) ? ttl.value : SECRET_DEFAULTS.ttl,
    views: viewCount,
    ...(gated ? { passphrase: passphrase.value } : {}),
  };
  submit.disabled = true;
  say(status, 'Encrypting and uploading…');
  try {
    const shared = await withSessionKey((client) => client.share(secret, options));
    link.value = shared.link;
    resultNote.textContent = describeShared(shared, viewCount, gated);
    say(copyStatus, undefined);
    form.reset();
    onFileChange();
    onShowPassphrase();
    show(form, false);
    show(result);
    say(status, undefined);
    resultTitle.focus();
  } catch (failure) {
    say(status, undefined);
    say(error, describeFailure(failure));
  } finally {
    submit.disabled = false;
  }
}

function onShowPassphrase(): void {
  passphrase.type = showPassphrase.checked ? 'text' : 'password';
}

fillChoices();
showPassphrase.addEventListener('change', onShowPassphrase);
file.addEventListener('change', onFileChange);
removeFile.addEventListener('click', () => {
  file.value = '';
  onFileChange();
  text.focus();
});
form.addEventListener('submit', (event) => void onSubmit(event));
copyLink.addEventListener('click', () => void copy(link.value, copyStatus, link));
another.addEventListener('click', () => {
  link.value = '';
  show(result, false);
  show(form);
  text.focus();
});
