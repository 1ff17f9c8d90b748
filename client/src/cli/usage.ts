import { SECRET_TTLS, VIEWS_RANGE } from '../../../contract/limits';

export const USAGE = `Usage: onetime <command> [options]

  share [FILE] [--ttl ${Object.keys(SECRET_TTLS).join('|')}] [--views ${VIEWS_RANGE.min}..${VIEWS_RANGE.max}] [--json]
        [--ask-passphrase | --passphrase-file PATH]
                      encrypt FILE, or standard input as text, and print its link;
                      with a passphrase (asked on the terminal, or read from PATH)
                      the reader needs it too, and 5 wrong ones delete the secret
  reveal LINK [-o PATH] [--force] [--passphrase-file PATH]
                      claim one view: print the text, or save the file (under its
                      own name, or PATH) and print where; a link made with a
                      passphrase asks for it on the terminal (or reads PATH) first
  revoke LINK|ID      delete a secret before it is used up (needs the key that made it)
  status LINK|ID [--json]
                      print what became of a secret (needs the key that made it):
                      active, used, revoked, expired or burned, and when each view
                      was taken; answers until 7 days after it expires; uses no view
  request [--ttl ${Object.keys(SECRET_TTLS).join('|')}] [--note TEXT] [--json]
                      ask for a secret: print the link to send (the note is
                      public to its holder) and the link to keep
  receive LINK [-o PATH] [--force]
                      with the link you kept: show the request's state; once
                      answered, read the answer (once) as reveal does
  fulfil LINK [FILE]  answer a request: encrypt FILE, or standard input as text,
                      to the requester (after checking the link's fingerprint)
  mcp                 serve MCP tools over stdio for assistants: share, reveal and
                      receive secrets from file to file, never showing them
                      (state: $ONETIME_STATE_DIR, default ~/.local/state/onetime)
  login [--browser]   on a service where creating needs signing in: sign in (a
                      code to confirm in a browser, or with --browser or where
                      the provider has no such codes, a link that comes back to
                      port 8976 here) and keep the token, readable by you alone,
                      in ~/.config/onetime ($XDG_CONFIG_HOME)
  logout              forget that token
  key create [--webhook URL]
                      print a new API key (and its webhook secret, on stderr);
                      signed in, a key that may create
  key show            print the API key's details as JSON
  key webhook URL|""  set or remove the API key's webhook
  key revoke          revoke the API key
  webhook test        send a webhook.test event to the API key's webhook
  webhook verify --secret WHSEC --signature HEADER
                      check a webhook delivery read from standard input

Settings (flags override the environment):
  --api-url URL       ONETIME_API_URL, default http://localhost:3000/api/v1
  --api-key KEY       ONETIME_API_KEY; without one, share and reveal create a
                      one-off key (POST /keys, limited per address)

Exit codes: 0 success, 1 usage or input error, 2 the secret does not exist or is
gone (also: deleted after the last wrong passphrase), 3 other service error (a
wrong passphrase: the attempts left are shown), 4 network failure.
`;
