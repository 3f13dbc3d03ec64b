/** A message that can never succeed (malformed, fails its schema): dead-lettered at once, not retried. */
export class PoisonMessageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PoisonMessageError';
  }
}
