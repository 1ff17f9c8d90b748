import { API_BASE_PATH } from '../../contract/limits';
import { REQUEST_RECEIVE_SUFFIX } from '../../contract/requests';
import { InputError, LinkError, OnetimeClient, SecretGoneError, type AnswerContent, type Received } from '../../client/src/index';
import { copy, element, say, show, showSecret } from './dom';
import { chosenTtl, fillTtlChoices } from './duration';
import { setText, startLanguage } from './i18n/page-language';
import { describeFailure, withKeyForOneAction } from './service';

/** A secret request's three pages (docs/pages.md); fragments never leave the browser, loading one claims nothing. */

const status = element('status', HTMLElement);
const error = element('error', HTMLElement);
const link = location.href;
const baseUrl = `${location.origin}${API_BASE_PATH}`;

function fail(failure: unknown): void {
  say(status, undefined);
  say(error, describeFailure(failure));
}

/** /request: a key pair made here, a key minted for this request alone (the receive link carries it). */
function ask(): void {
  const section = element('ask', HTMLElement);
  const form = element('ask-form', HTMLFormElement);
  const note = element('note', HTMLTextAreaElement);
  const ttl = element('ttl', HTMLSelectElement);
  const submit = element('ask-submit', HTMLButtonElement);
  const asked = element('asked', HTMLElement);
  const requestLink = element('request-link', HTMLInputElement);
  const receiveLink = element('receive-link', HTMLInputElement);
  const copyStatus = element('asked-copy-status', HTMLElement);
  fillTtlChoices(ttl);
  // The status line above the form: the links that replace the form then move nothing below them.
  form.before(status);
  element('copy-request-link', HTMLButtonElement).addEventListener('click', () => void copy(requestLink.value, copyStatus, requestLink));
  element('copy-receive-link', HTMLButtonElement).addEventListener('click', () => void copy(receiveLink.value, copyStatus, receiveLink));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void (async () => {
      submit.disabled = true;
      say(error, undefined);
      say(status, { key: 'request.working' });
      try {
        const requested = await new OnetimeClient({ baseUrl }).request({ ttl: chosenTtl(ttl), ...(note.value !== '' ? { note: note.value } : {}) });
        requestLink.value = requested.requestLink;
        receiveLink.value = requested.receiveLink;
        show(form, false);
        show(asked);
        say(status, { key: 'request.created' });
        element('asked-title', HTMLElement).focus();
      } catch (failure) {
        fail(failure);
        submit.disabled = false;
      }
    })();
  });
  show(section);
}

/** /r/<id>: the note first; the form only once the public key matched the link's fingerprint. */
async function answer(): Promise<void> {
  const section = element('answer', HTMLElement);
  const form = element('answer-form', HTMLFormElement);
  const text = element('answer-text', HTMLTextAreaElement);
  const file = element('answer-file', HTMLInputElement);
  const submit = element('answer-submit', HTMLButtonElement);
  show(section);
  const refuse = (failure: unknown): void => {
    show(form, false);
    say(status, undefined);
    if (failure instanceof LinkError) say(error, { key: failure.reason === 'mismatch' ? 'fulfil.mismatch' : 'fulfil.damagedLink' });
    else if (failure instanceof SecretGoneError) say(error, { key: 'fulfil.gone' });
    else fail(failure);
  };
  say(status, { key: 'fulfil.checking' });
  try {
    const opened = await withKeyForOneAction((client) => client.openRequest(link));
    if (opened.note !== undefined) {
      element('request-note', HTMLElement).textContent = opened.note;
      show(element('note-box', HTMLElement));
    }
    say(status, undefined);
    show(form);
  } catch (failure) {
    refuse(failure);
    return;
  }
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void (async () => {
      say(error, undefined);
      const chosen = file.files?.[0];
      const content: AnswerContent | undefined = chosen
        ? { name: chosen.name, bytes: new Uint8Array(await chosen.arrayBuffer()), mimetype: chosen.type }
        : text.value !== ''
          ? text.value
          : undefined;
      if (content === undefined) {
        say(error, { key: 'fulfil.empty' });
        text.focus();
        return;
      }
      submit.disabled = true;
      say(status, { key: 'fulfil.working' });
      try {
        await withKeyForOneAction((client) => client.fulfil(link, content));
        show(form, false);
        say(status, undefined);
        const sent = element('sent', HTMLElement);
        show(sent);
        // The form (and the button that had focus) is gone: the outcome takes focus, and is read out.
        sent.focus();
        history.replaceState(null, '', location.pathname);
      } catch (failure) {
        refuse(failure);
        submit.disabled = false;
      }
    })();
  });
}

/** /r/<id>/receive: the state on load (nothing claimed); the answer's one view only on a click. */
function receive(): void {
  const section = element('receive', HTMLElement);
  const state = element('receive-state', HTMLElement);
  const check = element('receive-check', HTMLButtonElement);
  const reveal = element('receive-reveal', HTMLButtonElement);
  const client = new OnetimeClient({ baseUrl });
  show(section);

  const explain = (failure: unknown): void => {
    show(check, false);
    show(reveal, false);
    say(status, undefined);
    if (failure instanceof SecretGoneError) setText(state, { key: 'receive.gone' });
    else if (failure instanceof InputError) say(error, { key: 'receive.noKey' });
    else if (failure instanceof LinkError) say(error, { key: failure.reason === 'malformed' ? 'fulfil.damagedLink' : 'reveal.undecryptable' });
    else fail(failure);
  };

  const refresh = async (): Promise<void> => {
    say(error, undefined);
    try {
      const current = await client.requestStatus(link);
      show(check, current.state === 'open');
      show(reveal, current.state === 'fulfilled');
      if (current.state === 'open') setText(state, { key: 'receive.open', params: { until: { dateTime: current.expires } } });
      else if (current.state === 'fulfilled') setText(state, { key: 'receive.fulfilled' });
      else setText(state, { key: 'receive.expired' });
    } catch (failure) {
      explain(failure);
    }
  };

  const showAnswer = (received: Received): void => {
    if (received.state !== 'fulfilled') return;
    // The reveal button that had focus is gone: the answer takes it, as on the reveal page.
    showSecret(received.content);
    setText(state, { key: received.content.type === 'text' ? 'receive.revealedText' : 'receive.revealedFile' });
  };

  check.addEventListener('click', () => void refresh());
  reveal.addEventListener('click', () => {
    void (async () => {
      reveal.disabled = true;
      say(status, { key: 'reveal.working' });
      try {
        const received = await client.receive(link);
        show(reveal, false);
        say(status, undefined);
        // The answer is read: keep the private key out of the history from now on.
        history.replaceState(null, '', location.pathname);
        showAnswer(received);
      } catch (failure) {
        explain(failure);
      }
    })();
  });
  void refresh();
}

void startLanguage();
if (location.pathname === '/request') ask();
else if (location.pathname.endsWith(REQUEST_RECEIVE_SUFFIX)) receive();
else void answer();
