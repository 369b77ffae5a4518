import { JsonNesting } from '../src/client/JsonNesting';

/** Whether `parts`, read in turn (as text, and as UTF-8 bytes), stay within `limit` levels. */
const within = (limit: number, parts: string[], perEvent = false): boolean[] =>
  [(part: string) => part, (part: string) => new TextEncoder().encode(part)].map((form) => {
    const nesting = new JsonNesting(limit, perEvent);
    return parts.every((part) => nesting.read(form(part)));
  });

describe('JsonNesting', () => {
  it('counts the levels of objects and arrays, wherever the chunks split them', () => {
    expect(within(3, ['{"a":[{"b":1}]}'])).toEqual([true, true]);
    expect(within(3, ['{"a":[{"b":[1]}]}'])).toEqual([false, false]);
    expect(within(3, ['{"a":[', '{"b":', '[1]}]}'])).toEqual([false, false]);
    // Closed levels are no longer counted: siblings never add up.
    expect(within(2, ['[[1],[2],[3],{"a":1}]'])).toEqual([true, true]);
  });

  it('does not count brackets inside strings, escaped quotes included, nor is misled by other UTF-8 characters', () => {
    expect(within(2, [JSON.stringify({ text: '[[[[{{{{ \\" [[[[ é 🙂 ]]]] "' })])).toEqual([true, true]);
    expect(within(2, ['{"a":"x\\\\"', ',"b":[[1]]}'])).toEqual([false, false]);
  });

  it('on an event stream, counts each event on its own and ends a string at a line end', () => {
    const event = 'event: message\ndata: [[[1]]]\n\n';
    expect(within(3, [event, event, event], true)).toEqual([true, true]);
    // An event's data may span lines: its levels add up until the blank line.
    expect(within(3, ['data: [[\r\ndata: [[1]]\r\n', 'data: ]]\r\n\r\n'], true)).toEqual([false, false]);
    // An unterminated string on one line does not hide the brackets of the next.
    expect(within(3, ['data: "open\ndata: [[[[1]]]]\n\n'], true)).toEqual([false, false]);
  });
});
