// A child process's output read line by line, for the benches that drive a server over stdio
// (bench/soak.js, bench/heap-trend.js): its protocol frames on stdout, its reports on stderr.
'use strict';

/** Calls `onLine` with each complete line `stream` writes (as UTF-8, without its newline); a last line without one is held back. */
function readLines(stream, onLine) {
  let buffer = '';
  stream.setEncoding('utf8').on('data', (chunk) => {
    buffer += chunk;
    const lines = buffer.split('\n');
    buffer = lines.pop();
    for (const line of lines) onLine(line);
  });
}

module.exports = { readLines };
