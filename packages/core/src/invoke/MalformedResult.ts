/** A member's result that JSON can carry but MCP's schema refuses (an annotation out of its range); its call is answered as failed. */
export class MalformedResult extends TypeError {
  override readonly name = 'MalformedResult';
}
