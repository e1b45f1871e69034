/** A request the generator refuses (bad name, taken name): its message is for the person who ran it. */
export class Refusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Refusal';
  }
}
