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
}

/** Parses the command line; an error is a usage message. */
export function parsePlaygroundArgs(argv: readonly string[]): PlaygroundArgs | { error: string } {
  // `pnpm playground -- --help` hands the program a literal `--` first.
  const args = argv[0] === '--' ? argv.slice(1) : [...argv];
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        help: { type: 'boolean', short: 'h' },
        script: { type: 'string' },
        workdir: { type: 'string' },
        yolo: { type: 'boolean' },
        answers: { type: 'string', multiple: true },
        keep: { type: 'boolean' },
        'no-undo': { type: 'boolean' },
      },
      allowPositionals: false,
      strict: true,
    }));
  } catch (error) {
    return { error: (error as Error).message };
  }
  const answers = parseAnswerList(values.answers ?? []);
  if ('error' in answers) return { error: `--answers: ${answers.error}` };
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
  };
}
