import type { FileSystem } from '@kimi-tools/core/fs';
import type { FileContent } from '@kimi-tools/test-kit';

/** A tree to lay out the same way on every backend: files and symbolic links by path relative to its root. */
export interface TreeSpec {
  readonly files: Readonly<Record<string, FileContent>>;
  /** Link path → target, stored as given. */
  readonly links?: Readonly<Record<string, string>>;
}

/** The whole second the first file of a tree was last modified at; each next one ten seconds later. */
const FIRST_MTIME = 1_700_000_000;

/**
 * Lays `spec` out under `root` through `fs` (the local disk, memory, a remote host): directories made, files written,
 * links made. Each file gets its own whole-second modification time in the order given, so Grep's newest-first order
 * is the same on every backend, whatever its time resolution.
 */
export async function layOutTree(fs: FileSystem, root: string, spec: TreeSpec): Promise<void> {
  let mtime = FIRST_MTIME;
  for (const [relative, content] of Object.entries(spec.files)) {
    const file = `${root}/${relative}`;
    await fs.mkdir(file.slice(0, file.lastIndexOf('/')), { recursive: true });
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
    const handle = await fs.create(file);
    try {
      for (let written = 0; written < bytes.length;) {
        written += (await handle.write(bytes, written, bytes.length - written, written)).bytesWritten;
      }
    } finally {
      await handle.close();
    }
    await fs.utimes(file, mtime, mtime);
    mtime += 10;
  }
  for (const [relative, target] of Object.entries(spec.links ?? {})) {
    const link = `${root}/${relative}`;
    await fs.mkdir(link.slice(0, link.lastIndexOf('/')), { recursive: true });
    await fs.symlink(target, link);
  }
}

/**
 * The tree the backend tests search: ignore files at two levels (a folder, an extension, a negation), hidden files,
 * `node_modules` (Glob skips it, Grep does not), a version-control folder (both skip it), CRLF, lone CR, UTF-16, a binary
 * file, long and non-ASCII lines, a name that must be quoted to be shown, and links to a file, to a folder and to nothing.
 */
export const SEARCH_TREE: TreeSpec = {
  files: {
    '.gitignore': '*.log\nbuild/\n!keep.log\n',
    'src/.ignore': 'generated.ts\n',
    'src/a.ts': "export function alpha() {\n  return 'zebra';\n}\n",
    'src/b.tsx': 'const Zebra = () => null;\nexport default Zebra;\n',
    'src/generated.ts': 'zebra generated\n',
    'src/nested/c.ts': '// zebra zebra\nline two\nzebra three\nfour\nfive\nsix zebra\n',
    'src/.hidden.ts': 'zebra hidden\n',
    'docs/readme.md': '# Zebra\nzebra docs\n\u00e9t\u00e9 zebra \u{1F993}\n',
    'build/out.js': 'zebra built\n',
    'app.log': 'zebra log\n',
    'keep.log': 'zebra keep\n',
    'node_modules/pkg/index.js': 'module.exports = "zebra";\n',
    '.git/HEAD': 'zebra vcs\n',
    'crlf.txt': 'alpha\r\nbeta zebra\r\ngamma\r\n',
    'mac.txt': 'one\rzebra two\rthree\r',
    'cr-before.txt': 'a\rb\r\nc\nzebra d\nlast\rzebra e\n',
    'bin.dat': Buffer.from('zebra\0binary\n'),
    'odd\tname.txt': 'zebra with a tab in the name\n',
    'long.js': `${'x'.repeat(3000)}zebra${'y'.repeat(3000)}\n`,
    'no-newline.txt': 'last zebra',
    'utf16.txt': Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('utf16 zebra\r\nsecond\r\n', 'utf16le'),
    ]),
  },
  links: { 'src/link.ts': 'a.ts', 'linked-dir': 'src', dangling: 'missing.txt' },
};
