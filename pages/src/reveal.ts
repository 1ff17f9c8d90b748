import { LinkError, SecretGoneError, parseLink, safeName, type Revealed } from '../../client/src/index';
import { copy, element, say, show } from './dom';
import type { Phrase } from './i18n/format';
import { setText, startLanguage } from './i18n/page-language';
import { describeFailure, withKeyForOneAction } from './service';

/**
 * `{site_url}/<id>#<k>`. Loading this page sends nothing to the service: link previews and mail
 * scanners fetch it, and must not use up a view. Only a click on "Reveal" claims the secret.
 */

const ready = element('ready', HTMLElement);
const revealButton = element('reveal', HTMLButtonElement);
const status = element('status', HTMLElement);
const textResult = element('text-result', HTMLElement);
const secretText = element('secret-text', HTMLElement);
const copyText = element('copy-text', HTMLButtonElement);
const copyStatus = element('copy-status', HTMLElement);
const fileResult = element('file-result', HTMLElement);
const secretFile = element('secret-file', HTMLAnchorElement);
const remaining = element('remaining', HTMLElement);
const gone = element('gone', HTMLElement);
const error = element('error', HTMLElement);

/** The link as it was opened; its key never leaves this page. */
const link = location.href;

function checkLink(): Phrase | undefined {
  if (location.hash.length <= 1) return { key: 'reveal.missingKey' };
  try {
    parseLink(link);
    return undefined;
  } catch {
    return { key: 'reveal.damagedLink' };
  }
}

function showRevealed(revealed: Revealed): void {
  if (revealed.type === 'text') {
    secretText.textContent = revealed.text;
    show(textResult);
    copyText.addEventListener('click', () => void copy(revealed.text, copyStatus));
    say(status, { key: 'reveal.revealedText' });
    secretText.focus();
  } else {
    const name = safeName(revealed.name, revealed.mimetype);
    // Always octet-stream: a blob of the sender's media type (text/html, say) would open on this
    // origin. The library's bytes are never in a SharedArrayBuffer, which Blob would refuse.
    const bytes = revealed.bytes as Uint8Array<ArrayBuffer>;
    secretFile.href = URL.createObjectURL(new Blob([bytes], { type: 'application/octet-stream' }));
    secretFile.download = name;
    setText(secretFile, { key: 'reveal.download', params: { name, size: { bytes: revealed.bytes.length } } });
    show(fileResult);
    say(status, { key: 'reveal.revealedFile' });
    secretFile.focus();
  }
  setText(remaining, revealed.remaining === 0 ? { key: 'reveal.lastView' } : { key: 'reveal.remaining', params: { count: revealed.remaining } });
}

async function onReveal(): Promise<void> {
  revealButton.disabled = true;
  say(error, undefined);
  say(status, { key: 'reveal.working' });
  try {
    const revealed = await withKeyForOneAction((client) => client.reveal(link));
    show(ready, false);
    // The key has done its work: keep it out of the history and of a bookmark from now on.
    history.replaceState(null, '', location.pathname);
    showRevealed(revealed);
  } catch (failure) {
    say(status, undefined);
    if (failure instanceof SecretGoneError) {
      show(ready, false);
      show(gone);
    } else if (failure instanceof LinkError) {
      show(ready, false);
      say(error, { key: 'reveal.undecryptable' });
    } else {
      // Rate limited, unreachable, refused: the person may try again.
      say(error, describeFailure(failure));
      revealButton.disabled = false;
    }
  }
}

void startLanguage();
const problem = checkLink();
if (problem === undefined) {
  show(ready);
  revealButton.addEventListener('click', () => void onReveal());
} else {
  say(error, problem);
}
