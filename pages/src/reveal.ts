import { GATE } from '../../contract/limits';
import { LinkError, PassphraseError, SecretGoneError, parseLink, type Revealed } from '../../client/src/index';
import { element, say, show, showSecret } from './dom';
import type { Phrase } from './i18n/format';
import { setText, startLanguage } from './i18n/page-language';
import { describeFailure, pagesConfig, withKeyForOneAction } from './service';

/** `{site_url}/<id>#<k>`: loading it sends nothing (link previews must not use a view); only "Reveal" claims. */

const ready = element('ready', HTMLFormElement);
const revealButton = element('reveal', HTMLButtonElement);
const passphraseField = element('passphrase-field', HTMLElement);
const passphraseNote = element('passphrase-note', HTMLElement);
const passphrase = element('passphrase', HTMLInputElement);
const attempts = element('attempts', HTMLElement);
const burned = element('burned', HTMLElement);
const status = element('status', HTMLElement);
const remaining = element('remaining', HTMLElement);
const gone = element('gone', HTMLElement);
const error = element('error', HTMLElement);

/** The link as it was opened; its key never leaves this page. */
const link = location.href;

/** The link's problem, if it has one, or whether it needs a passphrase. */
function checkLink(): { problem: Phrase } | { gated: boolean } {
  if (location.hash.length <= 1 || location.hash === '#p.') return { problem: { key: 'reveal.missingKey' } };
  try {
    return { gated: parseLink(link).gated };
  } catch {
    return { problem: { key: 'reveal.damagedLink' } };
  }
}

function showRevealed(revealed: Revealed): void {
  say(status, { key: revealed.type === 'text' ? 'reveal.revealedText' : 'reveal.revealedFile' });
  showSecret(revealed);
  setText(remaining, revealed.remaining === 0 ? { key: 'reveal.lastView' } : { key: 'reveal.remaining', params: { count: revealed.remaining } });
}

/** A claim in flight: another submit (Enter, a second click) must not send a second one. */
let revealing = false;

async function onReveal(gated: boolean): Promise<void> {
  if (revealing) return;
  say(error, undefined);
  // Not trimmed: spaces may be part of it.
  const typed = passphrase.value;
  if (gated && typed === '') {
    say(error, { key: 'reveal.passphraseMissing' });
    passphrase.focus();
    return;
  }
  revealing = true;
  revealButton.disabled = true;
  passphrase.readOnly = true;
  say(status, { key: gated ? 'reveal.workingPassphrase' : 'reveal.working' });
  try {
    const revealed = await withKeyForOneAction((client) => client.reveal(link, gated ? { passphrase: typed } : {}));
    show(ready, false);
    // The key has done its work: keep it out of the history and of a bookmark from now on.
    history.replaceState(null, '', location.pathname);
    showRevealed(revealed);
  } catch (failure) {
    say(status, undefined);
    revealing = false;
    passphrase.readOnly = false;
    if (failure instanceof SecretGoneError && failure.burned) {
      show(ready, false);
      say(burned, { key: 'reveal.burned', params: { count: (await pagesConfig()).passphraseAttempts ?? GATE.attempts } });
    } else if (failure instanceof SecretGoneError) {
      show(ready, false);
      show(gone);
    } else if (failure instanceof PassphraseError && failure.reason === 'wrong') {
      say(attempts, { key: 'reveal.attemptsLeft', params: { count: failure.attemptsLeft } });
      passphrase.value = '';
      passphrase.focus();
      revealButton.disabled = false;
    } else if (failure instanceof PassphraseError) {
      show(ready, false);
      say(error, { key: 'reveal.linkNotMarked' });
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
const checked = checkLink();
if ('gated' in checked) {
  show(ready);
  show(passphraseField, checked.gated);
  // The contract's default at once, so that nothing moves when the deployment's (the same, mostly) arrives.
  const noteAttempts = (attempts: number = GATE.attempts): void => setText(passphraseNote, { key: 'reveal.passphraseNote', params: { attempts } });
  noteAttempts();
  void pagesConfig().then((config) => noteAttempts(config.passphraseAttempts));
  ready.addEventListener('submit', (event) => {
    event.preventDefault();
    void onReveal(checked.gated);
  });
  if (checked.gated) passphrase.focus();
} else {
  say(error, checked.problem);
}
