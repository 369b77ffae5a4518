/**
 * The data of each event in an event stream's text, as the format reads it: lines end at CRLF, LF
 * or CR; a `data` field's value loses one leading space, and the values of one event are joined
 * with LF; a blank line ends an event; a leading byte-order mark, comments and other fields are
 * skipped. An event still open at the end of the text counts too (a server that closes the
 * stream right after its answer).
 */
export function eventStreamData(text: string): string[] {
  const events: string[] = [];
  let data: string[] | undefined;
  for (const line of text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/)) {
    if (line === '') {
      if (data) events.push(data.join('\n'));
      data = undefined;
      continue;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    if (field !== 'data') continue;
    const value = colon === -1 ? '' : line.slice(line[colon + 1] === ' ' ? colon + 2 : colon + 1);
    (data ??= []).push(value);
  }
  if (data) events.push(data.join('\n'));
  return events;
}
