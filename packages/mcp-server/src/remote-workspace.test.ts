import { describe, expect, it } from 'vitest';
import { openRemoteWorkspace } from './remote-workspace.js';

describe('openRemoteWorkspace', () => {
  it('answers a destination that is not one with the reason, before connecting', async () => {
    expect(await openRemoteWorkspace({ destination: 'deploy@build:ssh' }, '/srv/app', [])).toBe(
      '--ssh: "deploy@build:ssh" is not an SSH destination (the port "ssh" is not a TCP port): write [user@]host[:port]',
    );
  });
});
