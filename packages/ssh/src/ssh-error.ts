/** An error in the shape every backend rejects with: `code` set, and the message `CODE: text`. */
export function sshError(code: string, text: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`${code}: ${text}`);
  error.code = code;
  return error;
}
