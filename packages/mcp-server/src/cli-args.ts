import {
  needsSshMessage,
  needsValueMessage,
  relativeRemoteDirectoryMessage,
  tooManyWorkdirsMessage,
  unknownApprovalModeMessage,
  unknownOptionMessage,
  WORKDIR_EMPTY_MESSAGE,
  WORKDIR_MISSING_MESSAGE,
} from './errors.js';
/** How the binary decides on writes and edits. */
export type ApprovalMode = 'yolo' | 'reject' | 'elicit';

/** The approval modes, in the order the usage lists them. */
export const APPROVAL_MODES: readonly ApprovalMode[] = ['elicit', 'yolo', 'reject'];

/** What the command line asks for. Paths are as given (resolved against the current directory later). */
export type CliCommand =
  | { kind: 'help' }
  | {
      kind: 'serve';
      workDir: string;
      addDirs: string[];
      approval: ApprovalMode;
      structuredContent: boolean;
      allowOutside: boolean;
      /** `--permissions FILE`: a rules file (docs/permissions.md), as given. */
      permissionsFile?: string;
      /** `--ssh`: the work dir and `addDirs` are on this host, reached over SSH. */
      ssh?: SshLogin;
      /** Checkpoints before each batch of calls that changes files (`--no-checkpoints`: none). */
      checkpoints: boolean;
    }
  | { kind: 'error'; message: string };

/** Where `--ssh` logs in, and with what (`--identity`, `--host-key`). */
export interface SshLogin {
  /** `[user@]host[:port]`, as given. */
  destination: string;
  identityFile?: string;
  hostKey?: string;
}

/** The usage text, printed to stderr (stdout belongs to the protocol). */
export const USAGE = `Usage: kimi-tools-mcp [--add-dir DIR]... [--allow-outside] [--approval elicit|yolo|reject] [--permissions FILE]
                      [--structured-content] [--ssh [USER@]HOST[:PORT] [--identity FILE] [--host-key KEY]]
                      [--no-checkpoints] WORKDIR

Serves the @kimi-tools file tools (ReadFile, WriteFile, StrReplaceFile, NotebookEdit, ApplyPatch, Glob,
Grep, ReadMediaFile) over MCP on stdin/stdout. Relative paths the model gives resolve against WORKDIR. Files outside
WORKDIR and the --add-dir directories are refused unless --allow-outside is given. Before each batch of calls that
changes files, a checkpoint of WORKDIR is taken; ListCheckpoints and Rewind take the files back to one.

Options:
  --add-dir DIR           another directory that belongs to the workspace (repeatable)
  --allow-outside         also read files anywhere on the machine, and write them with approval
                          (by default, reads and writes outside the workspace are refused)
  --approval MODE         how writes and edits are approved:
                            elicit  ask the user through the MCP client (the default);
                                    clients without elicitation get every change rejected
                            yolo    approve every change without asking
                            reject  read-only: only the read tools are offered
  --permissions FILE      permission rules, one a line (allow Edit(src/**), deny Edit(*.lock),
                          ask WriteFile(.github/**)...): allowed changes ask nothing, denied
                          ones are refused, the others follow --approval
  --structured-content    also send each result's brief, diff blocks and extras as
                          structuredContent (for clients that render them; some clients
                          show it to the model instead of the output)
  --ssh [USER@]HOST[:PORT]
                          serve WORKDIR (an absolute path) and the --add-dir directories of
                          that host, over SSH: keys from ~/.ssh (id_ed25519, id_ecdsa, id_rsa)
                          and the agent of SSH_AUTH_SOCK, the host key from ~/.ssh/known_hosts
  --identity FILE         with --ssh: log in with this private key only
  --host-key KEY          with --ssh: the host's public key line or SHA256: fingerprint
                          (then known_hosts is not read)
  --no-checkpoints        take no checkpoints, and offer no ListCheckpoints or Rewind
  -h, --help              show this help`;

function isApprovalMode(value: string): value is ApprovalMode {
  return (APPROVAL_MODES as readonly string[]).includes(value);
}

/** Reads the arguments after `node cli.js`. Pure: no file-system access. */
export function parseCliArgs(argv: readonly string[]): CliCommand {
  const addDirs: string[] = [];
  const positionals: string[] = [];
  let approval: ApprovalMode = 'elicit';
  let structuredContent = false;
  let allowOutside = false;
  let permissionsFile: string | undefined;
  let checkpoints = true;
  const ssh: Partial<SshLogin> = {};
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    if (arg === '--') {
      positionals.push(...argv.slice(index + 1));
      break;
    }
    if (arg === '-h' || arg === '--help') return { kind: 'help' };
    if (arg === '--structured-content') {
      structuredContent = true;
      continue;
    }
    if (arg === '--allow-outside') {
      allowOutside = true;
      continue;
    }
    if (arg === '--no-checkpoints') {
      checkpoints = false;
      continue;
    }
    const [flag, inlineValue] = arg.startsWith('--') && arg.includes('=') ? splitOnce(arg) : [arg, undefined];
    if (flag === '--permissions') {
      const value = inlineValue ?? argv[++index];
      if (value === undefined || value === '') return { kind: 'error', message: needsValueMessage(flag) };
      permissionsFile = value;
      continue;
    }
    if (flag === '--add-dir' || flag === '--approval') {
      const value = inlineValue ?? argv[++index];
      if (value === undefined || value === '') return { kind: 'error', message: needsValueMessage(flag) };
      if (flag === '--add-dir') {
        addDirs.push(value);
      } else if (isApprovalMode(value)) {
        approval = value;
      } else {
        return { kind: 'error', message: unknownApprovalModeMessage(value, APPROVAL_MODES) };
      }
      continue;
    }
    if (flag === '--ssh' || flag === '--identity' || flag === '--host-key') {
      const value = inlineValue ?? argv[++index];
      if (value === undefined || value === '') return { kind: 'error', message: needsValueMessage(flag) };
      ssh[SSH_FLAGS[flag]] = value;
      continue;
    }
    if (arg.startsWith('-') && arg !== '-') return { kind: 'error', message: unknownOptionMessage(flag) };
    positionals.push(arg);
  }
  if (positionals.length === 0) return { kind: 'error', message: WORKDIR_MISSING_MESSAGE };
  if (positionals.length > 1) {
    return { kind: 'error', message: tooManyWorkdirsMessage(positionals) };
  }
  const workDir = positionals[0]!;
  // Resolved, '' would be the current directory: a client's unset variable must not serve wherever it started us.
  if (workDir === '') return { kind: 'error', message: WORKDIR_EMPTY_MESSAGE };
  const login = sshLogin(ssh);
  if (typeof login === 'string') return { kind: 'error', message: login };
  // A relative directory would be relative to this machine's current directory, which means nothing on the host.
  const relative = login ? [workDir, ...addDirs].find((dir) => !dir.startsWith('/')) : undefined;
  if (relative !== undefined) {
    const label = relative === workDir ? 'WORKDIR' : '--add-dir';
    return { kind: 'error', message: relativeRemoteDirectoryMessage(label, relative) };
  }
  return {
    kind: 'serve',
    workDir,
    addDirs,
    approval,
    structuredContent,
    allowOutside,
    ...(permissionsFile === undefined ? {} : { permissionsFile }),
    ...(login ? { ssh: login } : {}),
    checkpoints,
  };
}

/** Which field of {@link SshLogin} each SSH flag sets. */
const SSH_FLAGS = { '--ssh': 'destination', '--identity': 'identityFile', '--host-key': 'hostKey' } as const;

/** The login the SSH flags ask for, none, or the message for `--identity` or `--host-key` without `--ssh`. */
function sshLogin(flags: Partial<SshLogin>): SshLogin | undefined | string {
  const { destination, ...rest } = flags;
  if (destination !== undefined) return { destination, ...rest };
  if (rest.identityFile !== undefined) return needsSshMessage('--identity');
  if (rest.hostKey !== undefined) return needsSshMessage('--host-key');
  return undefined;
}

function splitOnce(arg: string): [string, string] {
  const at = arg.indexOf('=');
  return [arg.slice(0, at), arg.slice(at + 1)];
}
