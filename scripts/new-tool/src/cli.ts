import { parseArgs } from 'node:util';
import { generateToolPackage } from './generate.js';
import { Refusal } from './refusal.js';

/** How `pnpm new-tool` is called. */
export const USAGE = `Usage: pnpm new-tool <name> [--class-name <ClassName>] [--tool-name <ToolName>]

Creates packages/<name> (published as @kimi-tools/<name>): a tool package on @kimi-tools/core/toolkit with a
working sample tool to turn into yours (it tells what a file is: kind, size, encoding, line endings, lines), its
schema, description, errors, tests, README and build config; the tool's contract page in docs/ (listed in
docs/README.md); its packed size budget (scripts/release/src/size-budgets.ts); and a changeset.

  <name>                  kebab-case package directory, e.g. line-count
  --tool-name <Name>      the name the model calls (default: the class name)
  --class-name <Name>     the tool class (default: the tool name when given, else <name> in PascalCase,
                          e.g. LineCount)
  -h, --help              this text

Nothing is written when a name is invalid or taken. The steps that follow are in CONTRIBUTING.md.`;

/** Where the CLI writes. */
export interface CliOutput {
  out: (text: string) => void;
  err: (text: string) => void;
}

/** Runs `pnpm new-tool` with `args` against the repository at `root`; returns the exit code. */
export async function runCli(args: readonly string[], root: string, output: CliOutput): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: [...args],
      allowPositionals: true,
      options: {
        'class-name': { type: 'string' },
        'tool-name': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) {
      output.out(USAGE);
      return 0;
    }
    const [name, ...extra] = positionals;
    if (name === undefined || extra.length > 0) {
      throw new Refusal(
        name === undefined ? 'Give the package name.' : `One name only, got: ${positionals.join(' ')}.`,
      );
    }
    const generated = await generateToolPackage({
      root,
      name,
      className: values['class-name'],
      toolName: values['tool-name'],
    });
    const { names } = generated;
    output.out(
      [
        `Created ${names.packageName}: class ${names.ClassName}, tool ${names.toolName}.`,
        ...generated.created.map((file) => `  created ${file}`),
        ...generated.updated.map((file) => `  updated ${file}`),
        '',
        'Next (CONTRIBUTING.md, "Add a tool package"):',
        '  npx -y pnpm@10.34.8 install            # links the new package; commit pnpm-lock.yaml',
        `  npx -y pnpm@10.34.8 turbo run lint typecheck test build check:package --filter=${names.packageName}`,
        `  then make the sample tool yours: src/${names.fileName}.ts, its tests, README.md, docs/${names.docsPage},`,
        '  run its README Usage in a test of apps/readme-snippets, and pass pnpm run ci (CONTRIBUTING.md, steps 2 to 6).',
      ].join('\n'),
    );
    return 0;
  } catch (error) {
    // A refusal, or arguments parseArgs rejects (an unknown option): say what to change, not where it happened.
    if (error instanceof Refusal || (error as { code?: unknown }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      output.err(`new-tool: ${(error as Error).message}\n\n${USAGE}`);
      return 1;
    }
    throw error;
  }
}
