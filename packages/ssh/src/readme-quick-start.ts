// The Quick start of README.md, verbatim after this comment (a test checks it), so that CI type-checks what the README
// shows. Never imported: the package's entry is index.ts.

import { readFileSync } from 'node:fs';
import os from 'node:os';
import { createRuntime, yoloApproval } from '@kimi-tools/core';
import { ReadFile } from '@kimi-tools/read';
import { sshFileSystem } from '@kimi-tools/ssh';

const root = '/srv/app';
const fs = await sshFileSystem({
  host: 'build.example.org',
  username: 'deploy',
  privateKey: readFileSync(`${os.homedir()}/.ssh/id_ed25519`),
  root,
});
const runtime = createRuntime({ workDir: root, approval: yoloApproval(), fs });

// Every tool of this runtime works on the host's files, exactly as it would on the local disk.
const result = await new ReadFile(runtime).call({ path: 'src/index.ts' });
console.log(result.output);

await fs.close();
