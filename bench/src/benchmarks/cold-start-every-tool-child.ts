// Part of the cold start: a fresh process builds every tool a host can offer (the MCP server's eight file tools and
// two checkpoint tools) on one runtime and lists their JSON Schemas, as a host does before its first model turn;
// then reads a small file with fs.readFile and prints it. Usage: cold-start-every-tool-child.ts FILE
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { reportDetails, sinceStartMs } from '../harness/child-report.js';
import { buildEveryTool } from '../tools.js';

const startMs = sinceStartMs();
const [file] = process.argv.slice(2);
if (file === undefined) throw new Error('usage: cold-start-every-tool-child.ts FILE');

const tools = await buildEveryTool(path.dirname(file));
const builtMs = sinceStartMs();
const schemas = JSON.stringify(tools.map((tool) => tool.parameters));
const listedMs = sinceStartMs();
process.stdout.write(await readFile(file, 'utf8'));
reportDetails({
  startMs,
  importMs: builtMs - startMs,
  schemasMs: listedMs - builtMs,
  schemaBytes: schemas.length,
});
