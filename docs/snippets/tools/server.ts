// #region serve
import 'reflect-metadata';
import { createApp, parseListenArgs } from '@toolwright/server';
import { GreetingTools } from './greeting.tools';

export async function main() {
  const app = await createApp({ name: 'greeter', version: '1.0.0', tools: [GreetingTools] });
  await app.listen(parseListenArgs()); // stdio by default; `--http --port 3000` for HTTP
}
// #endregion serve
