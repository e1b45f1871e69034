import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createTerminalPrompter } from './terminal-prompt.js';

function streams() {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.setEncoding('utf8').on('data', (chunk: string) => (shown += chunk));
  return { input, output, shown: () => shown };
}

describe('createTerminalPrompter', () => {
  it('asks one line at a time, then answers null once the input ended', async () => {
    const { input, output, shown } = streams();
    const prompter = createTerminalPrompter(input, output);
    const first = prompter.question('answer › ');
    input.write('y\n');
    expect(await first).toBe('y');
    expect(shown()).toContain('answer › ');
    const second = prompter.question('feedback › ');
    input.write('use tabs\n');
    expect(await second).toBe('use tabs');
    const third = prompter.question('again › ');
    input.end();
    expect(await third).toBeNull();
    expect(await prompter.question('after the end › ')).toBeNull();
    expect(prompter.interrupted).toBe(false);
    prompter.close();
  });

  it('treats Ctrl-C as an interruption', async () => {
    const { input, output } = streams();
    const prompter = createTerminalPrompter(input, output);
    const pending = prompter.question('answer › ');
    input.write('\u0003');
    expect(await pending).toBeNull();
    expect(prompter.interrupted).toBe(true);
    prompter.close();
  });

  it('never touches the input when nothing is asked', () => {
    const { input, output } = streams();
    const prompter = createTerminalPrompter(input, output);
    prompter.close();
    expect(input.listenerCount('data')).toBe(0);
    expect(input.listenerCount('keypress')).toBe(0);
  });
});
