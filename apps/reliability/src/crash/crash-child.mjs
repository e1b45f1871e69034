// A plain Node script that edits one large file through the built tools, forever, until its parent SIGKILLs it.
// Its stdout is the log the parent judges the file by: `ready`, then `start <v>` before and `done <v>` after each
// call that moves the file from version v-1 to version v (stdout to a pipe is synchronous on POSIX, so a line
// printed before the kill is a line the parent reads).
//
// argv[2] is a JSON object: { workDir, file, files?, mode: 'write' | 'replace' | 'patch', start, versionsDir, versions,
// markerWidth, ssh? } (with `ssh`, the tools work over the run's SSH server: a kill drops the connection mid-call).
//   write:   WriteFile overwrites the file with version (v mod versions), read from `<versionsDir>/<n>`.
//   replace: StrReplaceFile turns the marker `counter=<v-1>` into `counter=<v>` (zero-padded to markerWidth).
//   patch:   one ApplyPatch call turns that marker into the next in every file of `files` at once.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createRuntime, yoloApproval } from '@kimi-tools/core';
import { ApplyPatch } from '@kimi-tools/patch';
import { ReadFile } from '@kimi-tools/read';
import { StrReplaceFile } from '@kimi-tools/replace';
import { WriteFile } from '@kimi-tools/write';
import { childFileSystem } from '../support/child-file-system.mjs';

const config = JSON.parse(process.argv[2]);
const say = (line) => process.stdout.write(`${line}\n`);
const fail = (line) => {
  say(`error ${line.replace(/\n/g, ' ')}`);
  process.exit(2);
};

const fs = await childFileSystem(config.ssh, config.workDir);
const runtime = createRuntime({ workDir: config.workDir, approval: yoloApproval(), fs });
for (const file of config.files ?? [config.file]) {
  const read = await new ReadFile(runtime).call({ path: file });
  if (read.isError) fail(`ReadFile: ${read.message}`);
}

const writeFile = new WriteFile(runtime);
const replaceFile = new StrReplaceFile(runtime);
const applyPatch = new ApplyPatch(runtime);
const contents = [];
if (config.mode === 'write') {
  for (let n = 0; n < config.versions; n++) {
    contents.push(await readFile(path.join(config.versionsDir, String(n)), 'utf8'));
  }
}
const marker = (v) => `counter=${String(v).padStart(config.markerWidth, '0')}`;

say('ready');
for (let v = config.start + 1; ; v++) {
  say(`start ${v}`);
  const patch = () =>
    [
      '*** Begin Patch',
      ...config.files.flatMap((file) => [
        `*** Update File: ${file}`,
        `-<<${marker(v - 1)}>>`,
        `+<<${marker(v)}>>`,
      ]),
      '*** End Patch',
    ].join('\n');
  const result =
    config.mode === 'write'
      ? await writeFile.call({ path: config.file, content: contents[v % config.versions] })
      : config.mode === 'patch'
        ? await applyPatch.call({ patch: patch() })
        : await replaceFile.call({ path: config.file, edit: { old: marker(v - 1), new: marker(v) } });
  if (result.isError) fail(`${config.mode} ${v}: ${result.message}`);
  say(`done ${v}`);
}
