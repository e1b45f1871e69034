import { mkdtempSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRuntime, yoloApproval } from '@kimi-tools/core';
import { ReadFile } from '@kimi-tools/read';
import { StrReplaceFile } from '@kimi-tools/replace';

for (const replace_all of [false, true]) {
  for (const content of ['alpha\r\nbeta\r\ngamma\r\n', 'alpha\r\nbeta\r\nalpha\r\nbeta\r\n']) {
    const dir = mkdtempSync(path.join(tmpdir(), 'h83-crlf-'));
    const file = path.join(dir, 'f.txt');
    writeFileSync(file, content);
    const runtime = createRuntime({ workDir: dir, approval: yoloApproval() });
    await new ReadFile(runtime).call({ path: file });
    const r = await new StrReplaceFile(runtime).call({ path: file, edit: { old: 'alpha\nbeta', new: 'ALPHA\nBETA', replace_all } });
    console.log(JSON.stringify({ replace_all, content, isError: r.isError, brief: r.brief, message: r.message, after: readFileSync(file, 'utf8'), extras: r.extras }));
  }
}
