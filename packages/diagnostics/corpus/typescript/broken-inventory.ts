import { readFile } from 'node:fs/promises';

export interface Item {
  name: string;
  count: number;
  tags?: string[];
}

export function total(items: readonly Item[]): number {
  return items.reduce((sum, item) => sum + item.count, 0);
}

export async function load(path: string): Promise<Item[]> {
  const text = await readFile(path, 'utf8');
  const parsed = JSON.parse(text) as Item[];
  return parsed.filter((item) => item.count > 0);
}

export class Shelf<T extends Item> {
  private readonly items: T[] = [];

  add(item: T): this {
    this.items.push(item);
    return this.;
  }

  get size(): number {
    return this.items.length;
  }
}
