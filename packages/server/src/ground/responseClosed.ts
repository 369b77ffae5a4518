/** The server's code reads it from here; the oauth package, which cannot import the server's `ground/`, from `@toolwright/core/internal`. */
export { responseClosed } from '@toolwright/core/internal';
