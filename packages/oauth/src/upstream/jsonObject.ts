/**
 * The body of an upstream provider's answer as a JSON object; an empty object when the body is
 * not JSON, or is JSON but no object (`null`, an array, a number, a string). Every field read
 * from it is then checked on its own, so such an answer fails as one without the fields would.
 */
export async function jsonObject(response: Response): Promise<Record<string, unknown>> {
  const body: unknown = await response.json().catch(() => undefined);
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}
