import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** What the built weather example loads, in a fresh node: apart from dto-decorators.test.ts so that file stays in the fast loop. */
const ROOT = join(__dirname, '..', '..', '..');

describe('@toolwright/core/dto, built', () => {
  it("loads neither class-validator's entry point nor libphonenumber-js for the weather example", async () => {
    const probe = `require('./examples/weather/dist/app.js').createWeatherApp().then(() => {
      process.stdout.write(JSON.stringify(Object.keys(require.cache)));
    });`;
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', probe], { cwd: ROOT });
    const files = JSON.parse(stdout) as string[];
    expect(files.some((f) => f.includes('/class-validator/cjs/decorator/'))).toBe(true);
    expect(files.filter((f) => /class-validator\/cjs\/index\.js$|class-transformer\/cjs\/index\.js$|libphonenumber-js/.test(f))).toEqual([]);
  });
});
