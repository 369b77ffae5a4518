import 'reflect-metadata';
import { Container } from 'typedi';
import { createApp, type App } from '@toolwright/server';
import { Announcer, BoardTools } from './board.tools';

/** The app every instance runs. */
export async function createBoardApp(): Promise<App> {
  const container = Container.of(`board-${Math.random()}`);
  const app = await createApp({ name: 'scale-out', version: '0.1.0', tools: [BoardTools], container });
  container.get(Announcer).notify = (uri) => void app.notifyResourceUpdated(uri);
  return app;
}
