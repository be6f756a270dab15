/** A patch that cannot be applied (the API server answers 422 Unprocessable Entity or 400). */
export class PatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PatchError';
  }
}
