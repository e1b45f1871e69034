import { describe, expect, test } from 'vitest';
import { parseSshDestination } from './destination.js';

describe('parseSshDestination', () => {
  test('reads user, host and port as the ssh command line writes them', () => {
    expect(parseSshDestination('deploy@build.example.org', 'me')).toEqual({
      username: 'deploy',
      host: 'build.example.org',
      port: 22,
    });
    expect(parseSshDestination('deploy@10.0.0.7:2222', 'me')).toEqual({
      username: 'deploy',
      host: '10.0.0.7',
      port: 2222,
    });
    expect(parseSshDestination('[::1]:2200', 'me')).toEqual({ username: 'me', host: '::1', port: 2200 });
    expect(parseSshDestination('build', 'me')).toEqual({ username: 'me', host: 'build', port: 22 });
    // The user ends at the last @, as ssh reads it.
    expect(parseSshDestination('a@corp@host', 'me')).toEqual({ username: 'a@corp', host: 'host', port: 22 });
  });

  test('refuses what is not a destination, saying what is wrong', () => {
    const refusal = (text: string) => {
      try {
        parseSshDestination(text, 'me');
      } catch (error) {
        return [(error as NodeJS.ErrnoException).code, (error as Error).message];
      }
      return undefined;
    };
    expect(refusal('deploy@host:ssh')).toEqual([
      'EINVAL',
      'EINVAL: "deploy@host:ssh" is not an SSH destination (the port "ssh" is not a TCP port): write [user@]host[:port]',
    ]);
    expect(refusal('@host')?.[1]).toContain('(the user before @ is empty)');
    expect(refusal('deploy@')?.[1]).toContain('(no host)');
    expect(refusal('host:0')?.[1]).toContain('(the port "0" is not a TCP port)');
    expect(refusal('host:70000')?.[1]).toContain('(the port "70000" is not a TCP port)');
    expect(refusal('[::1')?.[1]).toContain('(a [ without its ])');
    expect(refusal('host:/srv/app')?.[1]).toContain('(the port "/srv/app" is not a TCP port)');
    expect(refusal('my host')?.[1]).toContain('holds a space or a slash');
  });
});
