// The input of the image-fit benchmark: an 8000x8000 PNG of about 12 MB, a seeded noisy gradient scaled up, so it is
// the same file on every machine (sharp's own noise generator is not seeded).
import sharp from 'sharp';
import { seededRandom } from '../harness/seeded-text.js';

const SIDE = 8000;
const CELLS = 1700;
const NOISE = 96;

/** The PNG's bytes. */
export async function makeLargePng(): Promise<Buffer> {
  const random = seededRandom(18);
  const pixels = Buffer.alloc(CELLS * CELLS * 3);
  for (let y = 0; y < CELLS; y += 1) {
    for (let x = 0; x < CELLS; x += 1) {
      const at = (y * CELLS + x) * 3;
      pixels[at] = Math.floor((x * 150) / CELLS + random() * NOISE);
      pixels[at + 1] = Math.floor((y * 150) / CELLS + random() * NOISE);
      pixels[at + 2] = Math.floor(90 + random() * NOISE);
    }
  }
  return sharp(pixels, { raw: { width: CELLS, height: CELLS, channels: 3 } })
    .resize(SIDE, SIDE, { kernel: 'nearest' })
    .png()
    .toBuffer();
}
