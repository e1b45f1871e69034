// Flips `target` between a regular file and a FIFO as fast as it can, until killed: hard links to one of each are
// renamed over it in turn, so every flip is two system calls. Run as its own process so its loop never waits on the
// test's event loop.
import { linkSync, renameSync } from 'node:fs';

const [regular, fifo, target] = process.argv.slice(2);
for (let flip = 0; ; flip++) {
  const source = flip % 2 === 0 ? regular : fifo;
  const link = `${target}.flip`;
  linkSync(source, link);
  renameSync(link, target);
}
