import { parseArgs } from 'node:util';
import { parseAnswerList, type PlaygroundAnswer } from './answers.js';

/** The playground's command line, parsed. */
export interface PlaygroundArgs {
  help: boolean;
  /** `--script FILE`: the session to play instead of the default one. */
  script: string | undefined;
  /** `--workdir DIR`: work on this directory instead of a copy of the sample project. */
  workdir: string | undefined;
  /** `--yolo`: approve automatically what the script does not answer, even in a terminal. */
  yolo: boolean;
  /** `--answers LIST`: answers to the approval requests, in order. */
  answers: PlaygroundAnswer[];
  /** `--keep`: keep the temporary directories. */
  keep: boolean;
  /** `--no-undo`: leave every change in place at the end. */
  undo: boolean;
  /** `--permissions FILE`: the permission rules to use instead of the work dir's `.kimi-tools/permissions`. */
  permissions: string | undefined;
  /** Where the session's files are: this machine's disk (default), memory (`--in-memory`), or a host (`--ssh`). */
  place: Place;
}

/** Where the session's files are. */
export type Place =
  | { kind: 'local' }
  | { kind: 'memory' }
  | {
      kind: 'ssh';
      /** `[user@]host[:port]`. */
      destination: string;
      /** The directory on the host the session makes its temporary directory in (absolute). */
      dir: string;
      /** `--identity FILE`. */
      identityFile?: string;
      /** `--host-key KEY`. */
      hostKey?: string;
    };

/** Parses the command line; an error is a usage message. */
export function parsePlaygroundArgs(argv: readonly string[]): PlaygroundArgs | { error: string } {
  // `pnpm playground -- --help` hands the program a literal `--` first.
  const args = argv[0] === '--' ? argv.slice(1) : [...argv];
  let values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args,
      options: {
        help: { type: 'boolean', short: 'h' },
        script: { type: 'string' },
        workdir: { type: 'string' },
        yolo: { type: 'boolean' },
        answers: { type: 'string', multiple: true },
        keep: { type: 'boolean' },
        'no-undo': { type: 'boolean' },
        permissions: { type: 'string' },
        'in-memory': { type: 'boolean' },
        ssh: { type: 'string' },
        identity: { type: 'string' },
        'host-key': { type: 'string' },
      },
      // Only --ssh takes one: the directory on the host.
      allowPositionals: true,
      strict: true,
    }));
  } catch (error) {
    return { error: (error as Error).message };
  }
  const answers = parseAnswerList(values.answers ?? []);
  if ('error' in answers) return { error: `--answers: ${answers.error}` };
  const place = placeOf(values, positionals);
  if (typeof place === 'string') return { error: place };
  if (values.workdir !== undefined && place.kind !== 'local') {
    return {
      error: `--workdir is a directory of this machine: it cannot be used with --${place.kind === 'memory' ? 'in-memory' : 'ssh'}.`,
    };
  }
  if (values.keep && place.kind === 'memory') {
    return {
      error:
        '--keep keeps the temporary directory, and --in-memory has none: its files end with the session.',
    };
  }
  if (values.workdir !== undefined && values.script === undefined && !values.help) {
    return {
      error:
        '--workdir needs --script: the default script is written for the sample project, and would edit files of ' +
        'the directory that are not there.',
    };
  }
  return {
    help: values.help ?? false,
    script: values.script,
    workdir: values.workdir,
    yolo: values.yolo ?? false,
    answers: answers.answers,
    keep: values.keep ?? false,
    undo: !(values['no-undo'] ?? false),
    permissions: values.permissions,
    place,
  };
}

/** The place the options name, or the usage error that says why they name none. */
function placeOf(
  values: { 'in-memory'?: boolean; ssh?: string; identity?: string; 'host-key'?: string },
  positionals: readonly string[],
): Place | string {
  const { ssh: destination, identity, 'host-key': hostKey } = values;
  if (destination === undefined) {
    if (positionals.length > 0) {
      return `Unexpected argument '${positionals[0]}': only --ssh takes one (the directory on the host).`;
    }
    if (identity !== undefined)
      return '--identity is an option of --ssh: give --ssh [USER@]HOST[:PORT] DIR too.';
    if (hostKey !== undefined)
      return '--host-key is an option of --ssh: give --ssh [USER@]HOST[:PORT] DIR too.';
    return values['in-memory'] ? { kind: 'memory' } : { kind: 'local' };
  }
  if (values['in-memory']) return '--in-memory and --ssh are two places for the files: give one.';
  if (positionals.length !== 1) {
    return positionals.length === 0
      ? '--ssh needs the directory on the host to work in: --ssh [USER@]HOST[:PORT] DIR.'
      : `--ssh takes one directory on the host, got ${positionals.length}: ${positionals.join(' ')}.`;
  }
  const dir = positionals[0]!;
  if (!dir.startsWith('/')) return `The directory on the host must be an absolute path, not ${dir}.`;
  return {
    kind: 'ssh',
    destination,
    dir,
    ...(identity !== undefined ? { identityFile: identity } : {}),
    ...(hostKey !== undefined ? { hostKey } : {}),
  };
}
