// A language server that finds no problem and records where and how it was started: one JSON line per start in the
// file named by its first argument (its process id, working directory, and the `processId` and `rootUri` it was
// initialized with), and, given a second file, the URI of each document opened there, one a line. It speaks LSP over
// standard input and output, and ends when its input does, as servers do.
import { appendFileSync } from 'node:fs';

const [record, opened] = process.argv.slice(2);
let pending = Buffer.alloc(0);

function send(message) {
  const body = JSON.stringify({ jsonrpc: '2.0', ...message });
  process.stdout.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
}

function handle(message) {
  if (message.method === 'initialize') {
    const { processId, rootUri } = message.params;
    appendFileSync(
      record,
      `${JSON.stringify({ pid: process.pid, cwd: process.cwd(), processId, rootUri })}\n`,
    );
    send({ id: message.id, result: { capabilities: { textDocumentSync: 1 } } });
  } else if (message.method === 'textDocument/didOpen') {
    const { uri } = message.params.textDocument;
    if (opened !== undefined) appendFileSync(opened, `${uri}\n`);
    send({ method: 'textDocument/publishDiagnostics', params: { uri, diagnostics: [] } });
  } else if (message.method === 'exit') {
    process.exit(0);
  } else if (message.id !== undefined && message.method !== undefined) {
    send({ id: message.id, result: null });
  }
}

process.stdin.on('data', (chunk) => {
  pending = Buffer.concat([pending, chunk]);
  for (;;) {
    const headerEnd = pending.indexOf('\r\n\r\n');
    if (headerEnd === -1) return;
    const length = Number(
      /Content-Length: *(\d+)/i.exec(pending.subarray(0, headerEnd).toString('latin1'))[1],
    );
    const bodyStart = headerEnd + 4;
    if (pending.length < bodyStart + length) return;
    const message = JSON.parse(pending.subarray(bodyStart, bodyStart + length).toString('utf8'));
    pending = pending.subarray(bodyStart + length);
    handle(message);
  }
});
process.stdin.on('end', () => process.exit(0));
