// The file system a child process of the suites works on, from the `ssh` field of its JSON config: the local disk
// when there is none, else the run's SSH server (the parent passes the test kit's `testSshServer()`), one connection
// the child closes when it is done (a killed child just drops it).

/** `createRuntime`'s `fs` for a child: undefined (the local disk), or a connection to the run's SSH server. */
export async function childFileSystem(ssh, root) {
  if (!ssh) return undefined;
  const { sshFileSystem } = await import('@kimi-tools/ssh');
  return sshFileSystem({ ...ssh, root });
}
