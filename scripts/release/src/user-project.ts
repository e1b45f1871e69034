import { promises as fs } from 'node:fs';
import path from 'node:path';
import { mustRun, runCommand, type CommandResult } from './run-command.js';

/**
 * What a user's npm sees: the environment without the `npm_*` and `pnpm_*` variables the release's own pnpm set,
 * one npm cache shared by the user projects of a run (each package is downloaded once), an empty user config, and
 * none of the update checks, audits and funding notes that would ask other servers.
 */
export function userEnvironment(npmCache: string, userConfig: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(npm|pnpm)_/i.test(name)) env[name] = value;
  }
  return {
    ...env,
    npm_config_cache: npmCache,
    npm_config_userconfig: userConfig,
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_loglevel: 'warn',
  };
}

/**
 * A user's project in a fresh directory outside the repository, whose npm installs `@kimi-tools/*` from the local
 * registry and everything else from the npm registry, as a user's does from the npm registry alone.
 */
export class UserProject {
  private constructor(
    /** The project's directory. */
    readonly dir: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /** Makes the project `name` under `parent`: a `package.json` and an `.npmrc` naming the registry of the scope. */
  static async create(
    parent: string,
    name: string,
    registry: string,
    env: NodeJS.ProcessEnv,
  ): Promise<UserProject> {
    const dir = path.join(parent, name);
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(
      path.join(dir, 'package.json'),
      `${JSON.stringify({ name, version: '1.0.0', private: true }, null, 2)}\n`,
    );
    await fs.writeFile(path.join(dir, '.npmrc'), `@kimi-tools:registry=${registry}\n`);
    return new UserProject(dir, env);
  }

  /** Runs `npm <args>` in the project. */
  npm(args: readonly string[]): Promise<CommandResult> {
    return runCommand('npm', args, { cwd: this.dir, env: this.env });
  }

  /** `npm install <specs>`; throws with npm's output when it fails. */
  async install(...specs: string[]): Promise<void> {
    await mustRun('npm', ['install', ...specs], { cwd: this.dir, env: this.env });
  }

  /** Where npm installed copies of `name` (one path per copy), from `npm ls --all --parseable`. */
  async copiesOf(name: string): Promise<string[]> {
    const listed = await mustRun('npm', ['ls', name, '--all', '--parseable'], {
      cwd: this.dir,
      env: this.env,
    });
    return listed.split('\n').filter((line) => line.trim() !== '' && line !== this.dir);
  }

  /** The version of `name` installed at the top of `node_modules`. */
  async installedVersion(name: string): Promise<string> {
    const file = path.join(this.dir, 'node_modules', name, 'package.json');
    return (JSON.parse(await fs.readFile(file, 'utf8')) as { version: string }).version;
  }

  /** Writes a file into the project. */
  async write(file: string, content: string | Uint8Array): Promise<string> {
    const target = path.join(this.dir, file);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, content);
    return target;
  }

  /** Runs `node <program>` in the project and parses the one JSON document it prints. */
  async runJson<T>(program: string): Promise<T> {
    const output = await mustRun(process.execPath, [program], { cwd: this.dir, env: this.env });
    return JSON.parse(output) as T;
  }

  /** The disk usage of `node_modules` in kilobytes, as `du -sk` reports it. */
  async nodeModulesKilobytes(): Promise<number> {
    const output = await mustRun('du', ['-sk', 'node_modules'], { cwd: this.dir, env: this.env });
    return Number(output.split(/\s/)[0]);
  }
}
