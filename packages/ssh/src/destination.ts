import { sshError } from './ssh-error.js';

/** Who logs in where: a destination as the `ssh` command line takes it, read. */
export interface SshDestination {
  readonly username: string;
  readonly host: string;
  readonly port: number;
}

/**
 * Reads `[user@]host[:port]`: the user before the last `@` (default `defaultUser`, as `ssh` logs in as the local
 * user), the port after a colon (default 22), an IPv6 address in brackets (`[::1]:2222`). Throws `EINVAL` for
 * anything else, before anything is sent.
 */
export function parseSshDestination(text: string, defaultUser: string): SshDestination {
  const invalid = (why: string) =>
    sshError(
      'EINVAL',
      `${JSON.stringify(text)} is not an SSH destination (${why}): write [user@]host[:port]`,
    );
  const at = text.lastIndexOf('@');
  const username = at === -1 ? defaultUser : text.slice(0, at);
  const address = text.slice(at + 1);
  if (username === '') throw invalid('the user before @ is empty');
  let host: string;
  let portText: string | undefined;
  if (address.startsWith('[')) {
    const close = address.indexOf(']');
    if (close === -1) throw invalid('a [ without its ]');
    host = address.slice(1, close);
    const rest = address.slice(close + 1);
    if (rest !== '' && !rest.startsWith(':')) throw invalid(`${JSON.stringify(rest)} after the ]`);
    portText = rest === '' ? undefined : rest.slice(1);
  } else {
    const colon = address.indexOf(':');
    host = colon === -1 ? address : address.slice(0, colon);
    portText = colon === -1 ? undefined : address.slice(colon + 1);
  }
  if (host === '') throw invalid('no host');
  if (/[\s/]/.test(host)) throw invalid(`the host ${JSON.stringify(host)} holds a space or a slash`);
  if (portText === undefined) return { username, host, port: 22 };
  const port = /^\d{1,5}$/.test(portText) ? Number(portText) : NaN;
  if (!(port >= 1 && port <= 65_535)) throw invalid(`the port ${JSON.stringify(portText)} is not a TCP port`);
  return { username, host, port };
}
