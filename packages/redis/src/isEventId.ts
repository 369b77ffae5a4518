const EVENT_ID = /^(\d{1,20})-(\d{1,20})$/;
const MAX_U64 = 2n ** 64n - 1n;

/** Whether `eventId` can be a Redis stream entry id (`ms-seq`, each at most 2^64-1): anything else is an id no one was given. */
export function isEventId(eventId: string): boolean {
  const match = EVENT_ID.exec(eventId);
  return match !== null && BigInt(match[1]) <= MAX_U64 && BigInt(match[2]) <= MAX_U64;
}
