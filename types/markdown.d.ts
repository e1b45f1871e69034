// Markdown files are bundled as text (tsup's `.md` loader, and a transform in the shared vitest config).
declare module '*.md' {
  /** The file's text. */
  const text: string;
  export default text;
}
