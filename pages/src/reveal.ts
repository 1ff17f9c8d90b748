import { LinkError, SecretGoneError, parseLink, safeName, type Revealed } from '../../client/src/index';
import { copy, element, say, show } from './dom';
import { describeFailure, formatBytes, withKeyForOneAction } from './service';

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

const MISSING_KEY =
  'This link is incomplete: the part after “#”, which holds the key, is missing. Ask the sender for the whole link.';
const DAMAGED_LINK = 'This link is damaged: its key is not valid. Ask the sender for the whole link.';
const UNDECRYPTABLE =
  'This secret could not be decrypted: the link is not the one it was shared with, or the secret is damaged. Nothing of it is shown.';

/** The link as it was opened; its key never leaves this page. */
const link = location.href;

function checkLink(): string | undefined {
  if (location.hash.length <= 1) return MISSING_KEY;
  try {
    parseLink(link);
    return undefined;
  } catch {
    return DAMAGED_LINK;
  }
}

function showRevealed(revealed: Revealed): void {
  if (revealed.type === 'text') {
    secretText.textContent = revealed.text;
    show(textResult);
    copyText.addEventListener('click', () => void copy(revealed.text, copyStatus));
    secretText.focus();
  } else {
    const name = safeName(revealed.name, revealed.mimetype);
    // Always octet-stream: a blob of the sender's media type (text/html, say) would open on this
    // origin. The library's bytes are never in a SharedArrayBuffer, which Blob would refuse.
    const bytes = revealed.bytes as Uint8Array<ArrayBuffer>;
    secretFile.href = URL.createObjectURL(new Blob([bytes], { type: 'application/octet-stream' }));
    secretFile.download = name;
    secretFile.textContent = `Download ${name} (${formatBytes(revealed.bytes.length)})`;
    show(fileResult);
    secretFile.focus();
  }
  remaining.textContent =
    revealed.remaining === 0
      ? 'That was its last view: the secret is now deleted from the service.'
      : `It can be viewed ${revealed.remaining === 1 ? 'once more' : `${revealed.remaining} more times`}.`;
}

async function onReveal(): Promise<void> {
  revealButton.disabled = true;
  say(error, undefined);
  say(status, 'Revealing…');
  try {
    const revealed = await withKeyForOneAction((client) => client.reveal(link));
    show(ready, false);
    say(status, undefined);
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
      say(error, UNDECRYPTABLE);
    } else {
      // Rate limited, unreachable, refused: the person may try again.
      say(error, describeFailure(failure));
      revealButton.disabled = false;
    }
  }
}

const problem = checkLink();
if (problem === undefined) {
  show(ready);
  revealButton.addEventListener('click', () => void onReveal());
} else {
  say(error, problem);
}
