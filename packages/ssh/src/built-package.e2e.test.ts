import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createTempWorkspace } from '@kimi-tools/test-kit';
import { describe, expect, test } from 'vitest';
import { useSshServer } from './__fixtures__/ssh-fixture.js';

const run = promisify(execFile);
const ESM = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const CJS = fileURLToPath(new URL('../dist/index.cjs', import.meta.url));

// ssh2 is CommonJS: an ES module of the build can import only the names Node's CommonJS scanner finds in it (`utils`
// is not one of them). A fresh process on each build logs in with a key file, connects, reads, runs a program and
// closes, and must then exit by itself.
const ssh = useSshServer();

const script = (load: string) => `
const { sshFileSystem, sshFileSystemAt } = ${load};
const options = JSON.parse(process.env.SSH_OPTIONS);
// Logged in as ssh would, with the key file (read by ssh2's own key parser).
const at = await sshFileSystemAt(\`\${options.username}@\${options.host}:\${options.port}\`, options.root, {
  identityFile: process.env.SSH_KEY_FILE,
  hostKey: options.hostKey,
  agent: null,
});
await at.close();
const fs = await sshFileSystem(options);
const stats = await fs.stat(options.root);
const child = fs.exec('echo', ['built']);
let output = '';
child.stdout.on('data', (chunk) => (output += chunk));
const exit = await child.exit;
await fs.close();
process.stdout.write(JSON.stringify({ at: at.root, directory: stats.isDirectory(), output, exit }));
`;

describe('@kimi-tools/ssh, built', () => {
  for (const [format, load] of [
    ['ES module', `await import(${JSON.stringify(ESM)})`],
    ['CommonJS', `require(${JSON.stringify(CJS)})`],
  ] as const) {
    test(`works from its ${format} build, and lets the process exit once closed`, async () => {
      const tree = await createTempWorkspace();
      try {
        const type = format === 'ES module' ? 'module' : 'commonjs';
        const code = type === 'module' ? script(load) : `(async () => {${script(load)}})();`;
        const keyFile = await tree.write(tree.outside('key'), ssh.server.privateKey);
        const { stdout } = await run(process.execPath, [`--input-type=${type}`, '-e', code], {
          env: {
            ...process.env,
            SSH_OPTIONS: JSON.stringify(ssh.options(tree.workDir)),
            SSH_KEY_FILE: keyFile,
          },
          timeout: 60_000,
        });
        expect(JSON.parse(stdout)).toEqual({
          at: tree.workDir,
          directory: true,
          output: 'built\n',
          exit: { code: 0, signal: null },
        });
      } finally {
        await tree.cleanup();
      }
    });
  }
});
