/** A URI template the matcher refuses: what is wrong with it, and how to write it instead. */
export class UriTemplateError extends Error {
  constructor(
    message: string,
    /** How to fix the template. */
    readonly fix: string,
  ) {
    super(message);
    this.name = 'UriTemplateError';
  }
}
