import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import ts from 'typescript';

/**
 * Transpiles every `.ts` file under `sourceDir` to `.js` under `outDir` (same layout), type-only, no bundling. Our
 * scripts then run on plain `node`: through the tsx loader they would carry its start-up and its extra thread,
 * counted as ours. `outDir` must lie where `@kimi-tools/*` imports still resolve
 * (below `bench/`); it gets a `package.json` of its own, as Node stops looking for one at a `node_modules` folder.
 */
export async function compileSources(sourceDir: string, outDir: string): Promise<void> {
  const entries = await readdir(sourceDir, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.d.ts')) continue;
    const sourceFile = path.join(entry.parentPath, entry.name);
    const relative = path.relative(sourceDir, sourceFile).replace(/\.ts$/, '.js');
    const { outputText } = ts.transpileModule(await readFile(sourceFile, 'utf8'), {
      compilerOptions: {
        module: ts.ModuleKind.ESNext,
        target: ts.ScriptTarget.ES2022,
        verbatimModuleSyntax: true,
      },
      fileName: sourceFile,
    });
    await mkdir(path.dirname(path.join(outDir, relative)), { recursive: true });
    await writeFile(path.join(outDir, relative), outputText);
  }
  await writeFile(path.join(outDir, 'package.json'), '{ "type": "module" }\n');
}
