// Markdown files are bundled as text (tsup's `loader`, and a transform in vitest.config.ts).
declare module '*.md' {
  /** The file's text. */
  const text: string;
  export default text;
}
