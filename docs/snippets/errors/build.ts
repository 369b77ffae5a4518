import { BuildError } from '@toolwright/core';
import { createApp } from '@toolwright/server';

// #region catch
export async function start(tools: Parameters<typeof createApp>[0]['tools']) {
  try {
    return await createApp({ name: 'app', version: '1.0.0', tools });
  } catch (error) {
    if (error instanceof BuildError) {
      for (const problem of error.problems) console.error(`${problem.where}: ${problem.what} (fix: ${problem.fix})`);
      process.exitCode = 1;
      return undefined;
    }
    throw error;
  }
}
// #endregion catch
