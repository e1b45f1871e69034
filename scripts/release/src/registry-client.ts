import type { Manifest } from './manifest.js';

/** A version of a package as the registry serves it: the manifest npm reads, and where its tarball is. */
export interface PublishedVersion extends Manifest {
  dist: { tarball: string; integrity?: string };
}

/** What the registry knows of a package (its packument). */
export interface Packument {
  name: string;
  'dist-tags': Record<string, string>;
  versions: Record<string, PublishedVersion>;
}

/** The packument of `name` from `registry`, as npm fetches it. */
export async function fetchPackument(registry: string, name: string): Promise<Packument> {
  const response = await fetch(new URL(name.replace('/', '%2f'), registry));
  if (!response.ok) throw new Error(`${registry} has no ${name} (${response.status})`);
  return (await response.json()) as Packument;
}

/** The bytes of a published tarball. */
export async function fetchTarball(url: string): Promise<Buffer> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}
