// The reference of the image-fit benchmark: the same resize done directly with sharp in a fresh process — read the
// file, scale it to 2000 px on its long edge, encode JPEG at quality 85, make the base64 data URL, print its size.
// sharp's defaults are ReadMediaFile's settings: `mozjpeg` off, 4:2:0 chroma, libvips' default concurrency; the JPEG
// is byte for byte the one ReadMediaFile sends. Usage: image-fit-reference.ts FILE
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';

const [file] = process.argv.slice(2);
if (file === undefined) throw new Error('usage: image-fit-reference.ts FILE');
const jpeg = await sharp(await readFile(file))
  .resize({ width: 2000, height: 2000, fit: 'inside', withoutEnlargement: true })
  .jpeg({ quality: 85 })
  .toBuffer();
const url = `data:image/jpeg;base64,${jpeg.toString('base64')}`;
process.stdout.write(`${url.length} characters\n`);
