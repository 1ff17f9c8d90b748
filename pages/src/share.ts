import { GATE, MAX_BODY_BYTES, SECRET_DEFAULTS, VIEWS_RANGE } from '../../contract/limits';
import type { FileContent, Shared } from '../../client/src/index';
import { copy, element, say, show } from './dom';
import { chosenTtl, fillTtlChoices } from './duration';
import { setAttribute, setText, startLanguage } from './i18n/page-language';
import { drawQrCode } from './qr';
import type { Phrase } from './i18n/format';
import { addSentLink, startSentLinks } from './sent-links';
import { describeFailure, hasSessionKey, keepSignedInKey, pagesConfig, requireSignedInKey, SignInRequired, withSessionKey } from './service';
import { finishSignIn, isSignInReturn, signInOf, startSignIn, type SignIn } from './sign-in';

/** `{site_url}/`: encrypts text or a file in the browser, creates the secret, shows its link. */

const form = element('share-form', HTMLFormElement);
const text = element('text', HTMLTextAreaElement);
const file = element('file', HTMLInputElement);
const fileHint = element('file-hint', HTMLElement);
const fileChosen = element('file-chosen', HTMLElement);
const removeFile = element('remove-file', HTMLButtonElement);
const ttl = element('ttl', HTMLSelectElement);
const views = element('views', HTMLSelectElement);
const passphrase = element('share-passphrase', HTMLInputElement);
const passphraseHint = element('passphrase-hint', HTMLElement);
const showPassphrase = element('show-passphrase', HTMLInputElement);
const submit = element('submit', HTMLButtonElement);
const status = element('status', HTMLElement);
const error = element('error', HTMLElement);
const result = element('result', HTMLElement);
const resultTitle = element('result-title', HTMLElement);
const link = element('link', HTMLInputElement);
const copyLink = element('copy-link', HTMLButtonElement);
const copyStatus = element('copy-status', HTMLElement);
const resultViews = element('result-views', HTMLElement);
const resultReveal = element('result-reveal', HTMLElement);
const resultPassphrase = element('result-passphrase', HTMLElement);
const qr = element('qr', HTMLElement);
const another = element('another', HTMLButtonElement);
const signInSection = element('sign-in', HTMLElement);
const signInTitle = element('sign-in-title', HTMLElement);
const signInButton = element('sign-in-button', HTMLButtonElement);
const signInError = element('sign-in-error', HTMLElement);

/** Base64 makes the content a third larger in the request body; "about", since the envelope takes a little more. */
const ABOUT_MAX_CONTENT_BYTES = Math.floor((MAX_BODY_BYTES * 3) / 4);

function fillChoices(): void {
  fillTtlChoices(ttl);
  for (let count = VIEWS_RANGE.min; count <= VIEWS_RANGE.max; count++) {
    const isDefault = count === SECRET_DEFAULTS.views;
    const option = new Option('', String(count), isDefault, isDefault);
    views.add(option);
    setText(option, { key: 'share.viewsOption', params: { count } });
  }
  setText(fileHint, { key: 'share.fileHint', params: { size: { bytes: ABOUT_MAX_CONTENT_BYTES } } });
  // The contract's default at once, so that nothing moves when the deployment's (the same, mostly) arrives.
  const hintAttempts = (attempts: number = GATE.attempts): void => setText(passphraseHint, { key: 'share.passphraseHint', params: { attempts } });
  hintAttempts();
  void pagesConfig().then((config) => hintAttempts(config.passphraseAttempts));
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

function showShared(shared: Shared, viewCount: number, gated: boolean): void {
  link.value = shared.link;
  show(resultPassphrase, gated);
  setText(resultViews, { key: 'share.views', params: { count: viewCount, until: { dateTime: shared.expires } } });
  setText(resultReveal, { key: 'share.noViewOnOpen', params: { button: { message: 'reveal.button' } } });
  setAttribute(drawQrCode(qr, shared.link), 'aria-label', { key: 'share.qrLabel' });
  say(copyStatus, undefined);
  form.reset();
  onFileChange();
  onShowPassphrase();
  show(form, false);
  show(result);
  say(status, { key: 'share.created' });
  addSentLink(shared.id, viewCount);
  resultTitle.focus();
}

async function onSubmit(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  say(error, undefined);
  const secret = await content();
  if (secret === undefined) {
    say(error, { key: 'share.empty' });
    text.focus();
    return;
  }
  const viewCount = Number(views.value);
  // Empty: no passphrase. Otherwise taken as typed, spaces included.
  const gated = passphrase.value !== '';
  const options = {
    ttl: chosenTtl(ttl),
    views: viewCount,
    ...(gated ? { passphrase: passphrase.value } : {}),
  };
  submit.disabled = true;
  say(status, { key: 'share.working' });
  try {
    showShared(await withSessionKey((client) => client.share(secret, options)), viewCount, gated);
  } catch (failure) {
    say(status, undefined);
    if (failure instanceof SignInRequired) showSignIn({ key: 'signin.ended' });
    else say(error, describeFailure(failure));
  } finally {
    submit.disabled = false;
  }
}

function onShowPassphrase(): void {
  passphrase.type = showPassphrase.checked ? 'text' : 'password';
}

/** Instead of the form: the sign-in step, with what went wrong, if anything. */
function showSignIn(problem?: Phrase): void {
  show(form, false);
  show(result, false);
  show(signInSection);
  say(signInError, problem);
  signInTitle.focus();
}

async function onSignIn(signIn: SignIn): Promise<void> {
  signInButton.disabled = true;
  say(signInError, undefined);
  say(status, { key: 'signin.working' });
  try {
    await startSignIn(signIn);
  } catch {
    say(status, undefined);
    say(signInError, { key: 'signin.failed' });
    signInButton.disabled = false;
  }
}

/** A `signed-in` deployment creates only with a key from signing in; the form waits, so no reveal-only key is minted. */
async function prepareCreating(): Promise<void> {
  submit.disabled = true;
  try {
    const signIn = await signInOf();
    if (!signIn) return;
    requireSignedInKey();
    signInButton.addEventListener('click', () => void onSignIn(signIn));
    if (isSignInReturn()) {
      say(status, { key: 'signin.working' });
      try {
        await keepSignedInKey(await finishSignIn(signIn));
        say(status, undefined);
      } catch {
        say(status, undefined);
        showSignIn({ key: 'signin.failed' });
        return;
      }
    }
    if (!hasSessionKey()) showSignIn();
    else text.focus();
  } finally {
    submit.disabled = false;
  }
}

void startLanguage();
void prepareCreating();
fillChoices();
startSentLinks();
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
  qr.replaceChildren();
  say(status, undefined);
  show(result, false);
  show(form);
  text.focus();
});
