/** A small deterministic pseudo-random generator (mulberry32): same seed, same data, on every machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'const',
  'let',
  'return',
  'await',
  'value',
  'result',
  'index',
  'count',
  'path',
  'file',
  'line',
  'text',
  'error',
  'options',
  'buffer',
  'offset',
  'length',
  'start',
  'end',
  'match',
  'token',
  'node',
  'child',
  'parent',
  'items',
  'config',
  'handler',
  'request',
  'response',
  'cache',
  'state',
  'update',
  'render',
  'parse',
  'format',
  'write',
  '=',
  '+',
  '(',
  ')',
  '{',
  '}',
  ';',
  '=>',
  '&&',
  '||',
  '.',
  ',',
  '[',
  ']',
];

/** One line of code-like words, about `targetLength` characters long, indented like code. */
export function randomLine(random: () => number, targetLength: number): string {
  let line = ' '.repeat(2 * Math.floor(random() * 4));
  while (line.length < targetLength) {
    line += WORDS[Math.floor(random() * WORDS.length)]!;
    line += ' ';
  }
  // A number makes lines unique in practice, as in real code and logs.
  return `${line}${Math.floor(random() * 1e9)}`;
}

/** `lineCount` code-like lines of about `lineLength` characters, each ended by '\n'. */
export function randomLines(seed: number, lineCount: number, lineLength: number): string[] {
  const random = seededRandom(seed);
  return Array.from({ length: lineCount }, () => randomLine(random, lineLength));
}

/** Code-like text of `bytes` bytes (ASCII), lines of about `lineLength` characters, ending with '\n'. */
export function randomText(seed: number, bytes: number, lineLength: number): string {
  const random = seededRandom(seed);
  const parts: string[] = [];
  let size = 0;
  while (size < bytes) {
    const line = `${randomLine(random, lineLength)}\n`;
    parts.push(line);
    size += line.length;
  }
  return parts.join('').slice(0, bytes - 1) + '\n';
}
