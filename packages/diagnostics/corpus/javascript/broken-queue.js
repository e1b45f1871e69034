export class Queue {
  constructor(limit = 10) {
    this.limit = limit;
    this.items = [];
  }

  push(item) {
    if (this.items.length >= this.limit) {
      throw new Error(`queue is full (${this.limit})`);
    }
    this.items.push(item);
  }

  shift() {
    return this.items.shift(;
  }
}

export function drain(queue, handle) {
  let count = 0;
  for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
    handle(item);
    count += 1;
  }
  return count;
}
