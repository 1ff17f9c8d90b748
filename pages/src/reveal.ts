import { LinkError, PassphraseError, SecretGoneError, parseLink, safeName, type Revealed } from '../../client/src/index';
import { copy, element, say, show } from './dom';
import { describeFailure, formatBytes, withKeyForOneAction } from './service';

/**
 * `{site_url}/<id>#<k>`. Loading this page sends nothing to the service: link previews and mail
 * scanners fetch it, and must not use up a view. Only a click on "Reveal" claims the secret.
 * A gated link (`#p.<k>`) asks for the passphrase first: "Reveal" without one sends nothing, so
 * a scanner that presses every button uses neither a view nor a passphrase attempt.
 */

const ready = element('ready', HTMLFormElement);
const revealButton = element('reveal', HTMLButtonElement);
const passphraseField = element('passphrase-field', HTMLElement);
const passphrase = element('passphrase', HTMLInputElement);
const attempts = element('attempts', HTMLElement);
const burned = element('burned', HTMLElement);
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
const PASSPHRASE_MISSING = 'Type the passphrase the sender gave you.';
const attemptsLeft = (left: number): string =>
  `Wrong passphrase. ${left === 1 ? 'One attempt is' : `${left} attempts are`} left before the secret is destroyed.`;
const LINK_NOT_MARKED =
  'This secret needs a passphrase, but its link is not the one it was shared with (it lacks the passphrase marker). Ask the sender for the whole link.';
const UNDECRYPTABLE =
  'This secret could not be decrypted: the link is not the one it was shared with, or the secret is damaged. Nothing of it is shown.';

/** The link as it was opened; its key never leaves this page. */
const link = location.href;

/** The link's problem, if it has one, or whether it needs a passphrase. */
function checkLink(): { problem: string } | { gated: boolean } {
  if (location.hash.length <= 1 || location.hash === '#p.') return { problem: MISSING_KEY };
  try {
    return { gated: parseLink(link).gated };
  } catch {
    return { problem: DAMAGED_LINK };
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

/** A claim in flight: another submit (Enter, a second click) must not send a second one. */
let revealing = false;

async function onReveal(gated: boolean): Promise<void> {
  if (revealing) return;
  say(error, undefined);
  // Not trimmed: spaces may be part of it.
  const typed = passphrase.value;
  if (gated && typed === '') {
    say(error, PASSPHRASE_MISSING);
    passphrase.focus();
    return;
  }
  revealing = true;
  revealButton.disabled = true;
  passphrase.readOnly = true;
  say(status, gated ? 'Checking the passphrase and revealing…' : 'Revealing…');
  try {
    const revealed = await withKeyForOneAction((client) => client.reveal(link, gated ? { passphrase: typed } : {}));
    show(ready, false);
    say(status, undefined);
    // The key has done its work: keep it out of the history and of a bookmark from now on.
    history.replaceState(null, '', location.pathname);
    showRevealed(revealed);
  } catch (failure) {
    say(status, undefined);
    revealing = false;
    passphrase.readOnly = false;
    if (failure instanceof SecretGoneError) {
      show(ready, false);
      show(failure.burned ? burned : gone);
    } else if (failure instanceof PassphraseError && failure.reason === 'wrong') {
      say(attempts, attemptsLeft(failure.attemptsLeft));
      passphrase.value = '';
      passphrase.focus();
      revealButton.disabled = false;
    } else if (failure instanceof PassphraseError) {
      show(ready, false);
      say(error, LINK_NOT_MARKED);
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

const checked = checkLink();
if ('gated' in checked) {
  show(ready);
  show(passphraseField, checked.gated);
  ready.addEventListener('submit', (event) => {
    event.preventDefault();
    void onReveal(checked.gated);
  });
  if (checked.gated) passphrase.focus();
} else {
  say(error, checked.problem);
}
