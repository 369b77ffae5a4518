// #region serve
import 'reflect-metadata';
import { createApp, parseListenArgs } from '@toolwright/server';
import { GreetingTools } from './greeting.tools';

async function main() {
  const app = await createApp({ name: 'greeter', version: '1.0.0', tools: [GreetingTools] });
  await app.listen(parseListenArgs()); // stdio by default; `--http --port 3000` for HTTP
}

main().catch((error: unknown) => {
  console.error(error); // stderr: stdout carries the protocol
  process.exit(1);
});
// #endregion serve
