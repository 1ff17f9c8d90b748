import { SecretGoneError, type SecretStatus } from '../../client/src/index';
import { element, say, show } from './dom';
import type { Phrase } from './i18n/format';
import { setAttribute, setText } from './i18n/page-language';
import { describeFailure, withStoredSessionKey } from './service';

/** The share page's list of this session's links with their states; only ids and states are kept, never a key. */

/** What the list keeps of a link; `state` undefined until the service has been asked. */
interface SentLink {
  id: string;
  created: number;
  state?: ShownState;
  remaining?: number;
}

/** A receipt's state, or `gone`: the service no longer answers for the id (past its 7 days). */
type ShownState = SecretStatus['state'] | 'gone';

/** States that never change again: a check that was asked before one was reached cannot undo it. */
const isFinal = (state: ShownState | undefined): boolean => state === 'used' || state === 'revoked' || state === 'expired' || state === 'burned';

const STORED_LINKS = 'onetime.sentLinks';
/** The newest links kept: each state check is a request against the session key's rate limit. */
const MAX_LINKS = 20;
/** Characters of an id shown: enough to tell links apart, too few to claim one over a shoulder. */
const SHOWN_ID_LENGTH = 8;

const section = element('sent', HTMLElement);
const list = element('sent-list', HTMLUListElement);
const refresh = element('sent-refresh', HTMLButtonElement);
const announcement = element('sent-status', HTMLElement);
const problem = element('sent-error', HTMLElement);

function loadLinks(): SentLink[] {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(STORED_LINKS) ?? '[]');
    return Array.isArray(parsed) ? (parsed as SentLink[]) : [];
  } catch {
    return []; // storage blocked or damaged: the list starts empty
  }
}

let links: SentLink[] = loadLinks();

function storeLinks(): void {
  try {
    sessionStorage.setItem(STORED_LINKS, JSON.stringify(links));
  } catch {
    // Storage blocked: the list lives as long as this page.
  }
}

const shownId = (id: string): string => `${id.slice(0, SHOWN_ID_LENGTH)}…`;

/** How each state reads in the list, and in the announcement of a change (`active` without its count there). */
const STATE_PHRASES: Readonly<Record<Exclude<ShownState, 'active'>, Phrase>> = {
  used: { key: 'sent.state.used' },
  revoked: { key: 'sent.state.revoked' },
  expired: { key: 'sent.state.expired' },
  burned: { key: 'sent.state.burned' },
  gone: { key: 'sent.state.gone' },
};
const ACTIVE_NAME: Phrase = { key: 'sent.stateName.active' };

function statePhrase(link: SentLink): Phrase {
  if (link.state === undefined) return { key: 'sent.checking' };
  if (link.state === 'active') return { key: 'sent.state.active', params: { count: link.remaining ?? 0 } };
  return STATE_PHRASES[link.state];
}

function render(): void {
  show(section, links.length > 0);
  // The list is drawn anew: a keyboard user on a link's Revoke button stays on it.
  const focused =
    document.activeElement instanceof HTMLElement && list.contains(document.activeElement) ? document.activeElement.dataset.linkId : undefined;
  list.replaceChildren(
    ...links.map((link) => {
      const item = document.createElement('li');
      item.dataset.testid = 'sent-item';
      item.dataset.state = link.state ?? '';
      const id = document.createElement('code');
      id.textContent = shownId(link.id);
      const state = document.createElement('span');
      state.className = 'sent-state';
      state.dataset.testid = 'sent-state';
      setText(state, statePhrase(link));
      item.append(id, ' ', state);
      if (link.state === 'active') {
        const revoke = document.createElement('button');
        revoke.type = 'button';
        revoke.className = 'secondary';
        revoke.dataset.testid = 'sent-revoke';
        revoke.dataset.linkId = link.id;
        setText(revoke, { key: 'sent.revoke' });
        setAttribute(revoke, 'aria-label', { key: 'sent.revokeLabel', params: { id: shownId(link.id) } });
        revoke.addEventListener('click', () => void onRevoke(link, revoke));
        item.append(' ', revoke);
      }
      return item;
    }),
  );
  if (focused !== undefined) list.querySelector<HTMLElement>(`[data-link-id="${CSS.escape(focused)}"]`)?.focus();
}

/** Sets a link's state; a change from a known state is announced (the first answer is not news). */
function update(link: SentLink, state: ShownState, remaining?: number): void {
  const changed = link.state !== undefined && link.state !== state;
  link.state = state;
  link.remaining = remaining;
  if (changed) {
    const name = (state === 'active' ? ACTIVE_NAME : STATE_PHRASES[state]).key;
    say(announcement, { key: 'sent.changed', params: { id: shownId(link.id), state: { message: name } } });
  }
}

let refreshing: Promise<void> | undefined;

/** One check at a time: a page shown twice in a row (pageshow, then visibilitychange) asks once. */
function refreshStates(): Promise<void> {
  refreshing ??= askStates().finally(() => (refreshing = undefined));
  return refreshing;
}

/** Asks the service for the state of every link whose state can still change. */
async function askStates(): Promise<void> {
  // `gone` too: a secret just used or revoked answers 404 for the moment before its receipt is written.
  const open = links.filter((link) => link.state === undefined || link.state === 'active' || link.state === 'gone');
  if (open.length === 0) return;
  say(problem, undefined);
  try {
    const done = await withStoredSessionKey(async (client) => {
      for (const link of open) {
        try {
          const receipt = await client.status(link.id);
          // Revoked from this page while the answer was on its way.
          if (!isFinal(link.state)) update(link, receipt.state, receipt.remaining);
        } catch (failure) {
          if (!(failure instanceof SecretGoneError)) throw failure;
          if (!isFinal(link.state)) update(link, 'gone');
        }
      }
    });
    // No key kept for this session any more: nobody can tell these links' states now.
    if (done === undefined) for (const link of open) update(link, 'gone');
  } catch (failure) {
    say(problem, describeFailure(failure));
  }
  storeLinks();
  render();
}

async function onRevoke(link: SentLink, button: HTMLButtonElement): Promise<void> {
  button.disabled = true;
  say(problem, undefined);
  try {
    const revoked = await withStoredSessionKey((client) => client.revoke(link.id));
    // No key kept for this session any more: the link cannot be revoked from here.
    update(link, revoked === undefined ? 'gone' : 'revoked');
  } catch (failure) {
    // Already used or expired meanwhile: the next check tells which.
    if (failure instanceof SecretGoneError) link.state = undefined;
    else say(problem, describeFailure(failure));
  }
  storeLinks();
  render();
  // The button is gone with the active state: keep the keyboard in the list.
  refresh.focus();
  if (link.state === undefined) await refreshStates();
}

/** A link the page has just made: first in the list, active with all its views. */
export function addSentLink(id: string, views: number): void {
  links = [{ id, created: Date.now(), state: 'active' as const, remaining: views }, ...links.filter((link) => link.id !== id)].slice(0, MAX_LINKS);
  storeLinks();
  render();
}

export function startSentLinks(): void {
  render();
  refresh.addEventListener('click', () => void refreshStates());
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void refreshStates();
  });
  // Also when the page comes back from the back-forward cache, or loads in a session with links.
  window.addEventListener('pageshow', () => void refreshStates());
}
